// The work the engine bounds instead of doing it all, and how it says so:
// similarity of very long lines, the search for the closest place of an edit
// that matches nowhere (per edit and per request), the tied places an
// ambiguous edit lists, the occurrences of a long old_str counted.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  MAX_CANDIDATES,
  RATIO_MAX_LENGTH,
  SEARCH_BUDGET_PER_EDIT,
  SEARCH_BUDGET_PER_REQUEST,
  endsSimilarity,
  lineSimilarity,
  locate,
  type Unplaced,
} from '../../src/core/match.ts';
import { ratio } from '../../src/core/similarity.ts';
import type { Edit, MatchOutcome } from '../../src/core/types.ts';
import { locatePatch } from '../../src/formats/apply-patch/locate.ts';
import { locateBetween } from '../../src/formats/between/locate.ts';
import { locateRoo } from '../../src/formats/roo/locate.ts';
import { locateSearch } from '../../src/formats/search-replace/locate.ts';
import { locateStr } from '../../src/formats/str-replace/locate.ts';
import { applyRequest } from '../../src/formats/index.ts';
import { editblock } from '../../src/formats/ln-diff/write.ts';

const unplaced = (o: ReturnType<typeof locate>): Unplaced => {
  assert.equal(o.ok, false);
  return o as Unplaced;
};

describe('similarity of very long lines', () => {
  it('is difflib ratio up to RATIO_MAX_LENGTH characters together, then the share of a common start and end', () => {
    const a = 'x'.repeat(8_998) + 'abc' + 'y'.repeat(999);
    const b = 'x'.repeat(8_998) + 'aQc' + 'y'.repeat(999);
    assert.ok(a.length + b.length <= RATIO_MAX_LENGTH);
    assert.equal(lineSimilarity(a, b), ratio(b + '\n', a + '\n'));
    const long = a + 'z'.repeat(5_000);
    const typo = b + 'z'.repeat(5_000);
    assert.ok(long.length + typo.length > RATIO_MAX_LENGTH);
    // 15,000 characters and a newline each; all but one character shared at the ends.
    assert.equal(lineSimilarity(long, typo), (2 * 15_000) / 30_002);
    assert.equal(lineSimilarity(long, typo), endsSimilarity(typo + '\n', long + '\n'));
  });

  it('the common end does not count twice what the common start took', () => {
    assert.equal(endsSimilarity('aaaa', 'aa'), (2 * 2) / 6);
    assert.equal(endsSimilarity('abXab', 'abab'), (2 * 4) / 9);
    assert.equal(endsSimilarity('', ''), 1);
    assert.equal(endsSimilarity('abc', 'xyz'), 0);
  });

  it('a 2 MB line with one character changed is a fuzzy match at its cited place', () => {
    const line = 'let q = [' + Array.from({ length: 200_000 }, (_, i) => i % 97).join(',') + '];';
    const typo = line.slice(0, 1_000_000) + '#' + line.slice(1_000_001);
    const r = applyRequest({
      format: 'ln-diff',
      files: { 'big.js': `a\n${line}\nb\n` },
      response: editblock('big.js', ['a', typo, 'b'], 1, 2, ['short']),
    });
    assert.equal(r.edits[0].status, 'applied');
    assert.equal(r.edits[0].match, 'fuzzy');
    assert.deepEqual(r.edits[0].range, { start: 2, end: 2 });
    assert.equal(r.files['big.js'], 'a\nshort\nb\n');
    // The message quotes the line cut short, not all of it.
    assert.ok(r.edits[0].message.length < 1_000, `${r.edits[0].message.length} characters`);
    assert.match(r.edits[0].message, new RegExp(`… \\(${line.length} characters\\) where the edit cites`));
  });
});

describe('the closest-place search of an edit that matches nowhere', () => {
  const lines = Array.from({ length: 50_000 }, (_, i) => `const value_${String(i).padStart(6, '0')} = compute();`);
  const missing = 'const value_missing = compute();'; // close enough to be named (CLOSEST_FLOOR)
  // One comparison costs both lengths and 2 characters of the budget.
  const perPlace = lines[0].length + missing.length + 2;

  it('stops after SEARCH_BUDGET_PER_EDIT compared characters and says how many places it compared', () => {
    const u = unplaced(locate(lines, [missing], null));
    assert.equal(u.code, 'no-match');
    assert.ok(u.searched, 'the search stopped early');
    assert.equal(u.searched!.places, 50_000);
    assert.equal(u.searched!.compared, Math.ceil(SEARCH_BUDGET_PER_EDIT / perPlace));
    assert.equal(u.candidates.length, 1);
  });

  it('compares every place of a cited window (101 places): no note', () => {
    const u = unplaced(locate(lines, [missing], 20_000));
    assert.equal(u.searched, undefined);
    assert.ok(Math.abs(u.candidates[0].start - 20_001) <= 50);
  });

  it('shares SEARCH_BUDGET_PER_REQUEST between a request\'s edits: later ones compare nothing and say so', () => {
    const file = lines.join('\n') + '\n';
    const blocks = Array.from({ length: 30 }, (_, k) =>
      ['f.ts', '```', '<<<<<<< SEARCH', `missing line number ${k} of the reply.....`, '=======', 'x', '>>>>>>> REPLACE', '```', ''].join('\n'),
    );
    const r = applyRequest({ format: 'search-replace', files: { 'f.ts': file }, response: blocks.join('\n') });
    assert.equal(r.edits.length, 30);
    assert.ok(r.edits.every((e) => e.status === 'failed' && e.code === 'no-match'));
    const perEdit = SEARCH_BUDGET_PER_EDIT;
    const searching = Math.ceil(SEARCH_BUDGET_PER_REQUEST / perEdit);
    r.edits.forEach((e, k) => {
      if (k < searching) assert.match(e.message, /the search for the closest place, which is bounded, compared \d+ of the 50000 places/, `edit ${k}`);
      else assert.match(e.message, /no place was compared: the reply's failed edits used up the search for closest places/, `edit ${k}`);
    });
  });
});

describe('ties', () => {
  it(`an ambiguous edit lists MAX_CANDIDATES (${MAX_CANDIDATES}) places and counts the others`, () => {
    const lines = Array.from({ length: 1_000 }, () => 'same');
    const u = unplaced(locate(lines, ['same', 'same'], null));
    assert.equal(u.code, 'ambiguous');
    assert.equal(u.candidates.length, MAX_CANDIDATES);
    assert.equal(u.tied, 999);
    const r = applyRequest({
      format: 'search-replace',
      files: { 'f.txt': lines.join('\n') + '\n' },
      response: ['f.txt', '```', '<<<<<<< SEARCH', 'same', 'same', '=======', 'x', '>>>>>>> REPLACE', '```', ''].join('\n'),
    });
    assert.equal(r.edits[0].code, 'ambiguous');
    assert.equal(r.edits[0].candidates.length, MAX_CANDIDATES);
    assert.match(r.edits[0].message, /^the SEARCH lines occur 999 times in f\.txt, at lines 1-2, lines 2-3, .*, lines 100-101 and 899 more places;/);
  });

  it('str_replace counts the occurrences of a long old_str only as far as a bounded amount of work', () => {
    const file = Array.from({ length: 20_000 }, () => 'x'.repeat(99)).join('\n') + '\n';
    const oldStr = Array.from({ length: 5_000 }, () => 'x'.repeat(99)).join('\n') + '\n';
    const call = JSON.stringify({ command: 'str_replace', path: 'f.txt', old_str: oldStr, new_str: 'y\n' });
    const r = applyRequest({ format: 'str-replace', files: { 'f.txt': file }, response: call });
    assert.equal(r.edits[0].code, 'ambiguous');
    // 20,000,000 characters of counting work / 500,000 characters of old_str = 40.
    assert.match(r.edits[0].message, /^old_str occurs at least 40 times in f\.txt/);
    assert.equal(r.edits[0].candidates.length, 40);
  });
});

describe('a spent search budget names no place', () => {
  // A request whose earlier failed edits used up the search: each format says
  // so, and neither names a closest place nor says that nothing comes close.
  const lines = ['alpha = 1', 'beta = 2', 'gamma = 3'];
  const spent = () => ({ remaining: 0 });
  const edit = (old: string[], meta: NonNullable<Edit['meta']> = {}): Edit => ({
    index: 0,
    kind: 'replace',
    file: 'f.py',
    old,
    new: ['x'],
    span: { from: 0, to: 0, start: { line: 1, column: 1 }, end: { line: 1, column: 1 } },
    warnings: [],
    meta,
  });
  const cases: [string, () => MatchOutcome][] = [
    ['the ladder', () => locate(lines, ['alpha = 9'], 0, {}, spent())],
    ['search-replace', () => locateSearch(lines, edit(['alpha = 9']), {}, spent())],
    ['roo', () => locateRoo(lines, edit(['alpha = 9']), {}, spent())],
    ['apply-patch', () => locatePatch(lines, edit(['alpha = 9']), {}, spent())],
    ['apply-patch @@ line', () => locatePatch(lines, edit(['alpha = 1'], { anchors: ['def beta():'] }), {}, spent())],
    ['between', () => locateBetween(lines, edit(['alpha = 9', 'gamma = 3']), {}, spent())],
    ['str-replace', () => locateStr(lines, edit(['alpha = 9']), spent())],
  ];
  for (const [name, run] of cases) {
    it(name, () => {
      const u = unplaced(run());
      assert.deepEqual(u.candidates, []);
      if (u.message !== undefined) {
        assert.match(u.message, /no place was compared: the reply's failed edits used up the search for closest places/);
        assert.doesNotMatch(u.message, /closest is|most similar|most like|comes close/);
      }
    });
  }
});
