// Roo's matcher as a locate hook: the tiers, ties refused, the window, the
// threshold, re-indentation and the failure messages.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Edit, EngineOptions } from '../../../src/core/types.ts';
import { locateRoo } from '../../../src/formats/roo/locate.ts';
import { normalize } from '../../../src/formats/roo/syntax.ts';
import { applyRequest } from '../../../src/formats/index.ts';

const SPAN = { from: 0, to: 0, start: { line: 1, column: 1 }, end: { line: 1, column: 1 } };

function edit(old: string[], cited?: number, replacement: string[] = ['NEW']): Edit {
  const e: Edit = { index: 0, kind: 'replace', file: 'f.txt', old, new: replacement, span: SPAN, warnings: [] };
  if (cited !== undefined) e.cited = cited;
  return e;
}

const at = (lines: string[], old: string[], cited?: number, options: EngineOptions = {}) => locateRoo(lines, edit(old, cited), options);

describe('roo normalisation', () => {
  it('folds smart quotes, ellipsis, dashes and NBSP, collapses white space and trims', () => {
    assert.equal(normalize('  “a”\u00A0‘b’ … x—y–z\t\r\u3000end  '), '"a" \'b\' ... x-y-z end');
    assert.equal(normalize('\uFEFF \u2028'), '');
    assert.equal(normalize('a\u200Bb'), 'a\u200Bb');
  });
});

describe('roo locate: tiers', () => {
  const file = ['a', 'x', 'b', 'x', 'c'];

  it('1: byte-equal at the hint is exact, offset 0', () => {
    assert.deepEqual(at(file, ['x'], 4), { ok: true, kind: 'exact', start: 3, end: 4, offset: 0, similarity: 1, differing: [] });
  });

  it('2: one byte-equal window elsewhere is an offset; two are ambiguous', () => {
    assert.deepEqual(at(file, ['b'], 1), { ok: true, kind: 'offset', start: 2, end: 3, offset: 2, similarity: 1, differing: [] });
    const r = at(file, ['x'], 3);
    assert.equal(r.ok, false);
    if (r.ok) return;
    assert.equal(r.code, 'ambiguous');
    assert.equal(r.kind, 'offset');
    assert.deepEqual(r.candidates.map((c) => [c.start, c.end, c.offset, c.similarity]), [[2, 2, -1, 1], [4, 4, 1, 1]]);
    assert.equal(r.message, 'the SEARCH block matches f.txt exactly at line 2 (offset -1) and line 4 (offset +1) (within 40 lines of line 3); nothing was changed: include a neighbouring line that tells the places apart');
  });

  it('without a hint, one byte-equal window is exact with a null offset, two are ambiguous', () => {
    assert.deepEqual(at(file, ['b', 'x'])  , { ok: true, kind: 'exact', start: 2, end: 4, offset: null, similarity: 1, differing: [] });
    const r = at(file, ['x']);
    assert.ok(!r.ok && r.code === 'ambiguous' && r.kind === 'exact');
    assert.match(r.message!, /add a :start_line: hint and include a neighbouring line/);
  });

  it('byte-equal anywhere in the window beats normalised-equal at the hint', () => {
    const r = at(['x = 1  ', 'x = 1'], ['x = 1'], 1);
    assert.deepEqual(r, { ok: true, kind: 'offset', start: 1, end: 2, offset: 1, similarity: 1, differing: [] });
  });

  it('3: normalised-equal at the hint wins over normalised-equal elsewhere', () => {
    const lines = ['if a:', '    reset()', 'if b:', '        reset()'];
    const r = at(lines, ['reset()'], 4);
    assert.deepEqual(r, {
      ok: true,
      kind: 'whitespace',
      start: 3,
      end: 4,
      offset: 0,
      similarity: 1,
      differing: [0],
      newLines: ['        NEW'],
      note: 'the REPLACE lines were indented as the SEARCH lines show the file\'s indentation (the SEARCH lines are indented with "" where the file has "        ")',
    });
  });

  it('4: normalised-equal elsewhere: one is placed, two are ambiguous', () => {
    const lines = ['if a:', '    reset()', 'if b:', '        reset()'];
    const one = at(lines, ['if   b:'], 1);
    assert.deepEqual(one, { ok: true, kind: 'whitespace', start: 2, end: 3, offset: 2, similarity: 1, differing: [0] });
    const two = at(lines, ['reset()']);
    assert.ok(!two.ok && two.code === 'ambiguous' && two.kind === 'whitespace');
    assert.deepEqual(two.candidates.map((c) => c.start), [2, 4]);
  });

  it('normalisation joins lines: blank lines and line breaks do not count', () => {
    const r = at(['a', '', 'b c', 'd'], ['a', 'b', 'c'], 1);
    assert.deepEqual(r, { ok: true, kind: 'whitespace', start: 0, end: 3, offset: 0, similarity: 1, differing: [1, 2] });
  });

  it('5: the core ladder\'s fuzzy rung: one misspelt word at the hint, by default', () => {
    const lines = ['def total(items, tax_rate):', '    return calculate_total(items, tax_rate)'];
    const old = ['    return calculate_totl(items, tax_rate)'];
    const r = at(lines, old, 2);
    assert.ok(r.ok && r.kind === 'fuzzy' && r.start === 1 && r.offset === 0, JSON.stringify(r));
    assert.ok(r.ok && r.similarity > 0.95 && r.similarity < 1);
    // One line off either way too; two lines off is not fuzzy.
    assert.ok(at(lines, old, 1).ok);
    assert.equal(at(['x', 'y', ...lines], old, 2).ok, false);
    // Off by option, or with a threshold above the similarity.
    assert.equal(at(lines, old, 2, { fuzzy: false }).ok, false);
    assert.equal(at(lines, old, 2, { fuzzyThreshold: 0.99 }).ok, false);
    // Never without a hint: the whole file would be the guess.
    assert.equal(at(lines, old).ok, false);
  });

  it('5: a changed number or a second changed word is never forgiven', () => {
    assert.equal(at(['    value_0000 = compute_the_thing(alpha, beta, gamma, 5);'], ['    value_0500 = compute_the_thing(alpha, beta, gamma, 9);'], 1).ok, false);
    assert.equal(at(['    return calculate_total(items, tax_rate)'], ['    return calculate_totl(itemz, tax_rate)'], 1).ok, false);
  });

  it('5: similar one line above and one line below the hint is ambiguous', () => {
    const lines = ['    return calculate_total(items, tax_rate)', 'pass', '    return calculate_total(items, tax_rate)'];
    const r = at(lines, ['    return calculate_totl(items, tax_rate)'], 2);
    assert.ok(!r.ok && r.code === 'ambiguous' && r.kind === 'fuzzy', JSON.stringify(r));
    assert.deepEqual(r.candidates.map((c) => [c.start, c.offset]), [[1, -1], [3, 1]]);
    assert.match(r.message!, /^the SEARCH block matches f\.txt by similarity \(one misspelt word per line\) at line 1 \(offset -1\) and line 3 \(offset \+1\)/);
  });

  it('5: refused when the block is in the file unchanged outside the window', () => {
    const exact = '    return calculate_total(items, tax_rate)';
    const lines = ['    return calculate_total(items, tax_ratez)', ...Array.from({ length: 50 }, (_, k) => `line ${k}`), exact];
    const r = at(lines, [exact], 1);
    assert.ok(!r.ok && r.code === 'no-match', JSON.stringify(r));
    assert.equal(r.fuzzyRefused, 0);
    assert.deepEqual(r.outside, [51]);
    assert.match(r.message!, /^the SEARCH block matches f\.txt at line 1 only by similarity 0\.\d+, but the same lines occur unchanged at line 52, more than 40 lines from :start_line:1: not applied/);
  });

  it('whitespace: false turns the normalised tiers off', () => {
    assert.equal(at(['  a'], ['a'], 1, { whitespace: false }).ok, false);
    assert.equal(at(['if  (x) {'], ['if (x) {'], 1, { whitespace: false }).ok, false);
    assert.equal(at(['if  (x) {'], ['if (x) {'], 1).ok, true);
  });
});

describe('roo locate: the window and failures', () => {
  const lines = ['a', 'b', 'c', 'd', 'e', 'target'];

  it('finds lines within the window, and names exact ones beyond it without placing them', () => {
    assert.deepEqual(at(lines, ['target'], 1), { ok: true, kind: 'offset', start: 5, end: 6, offset: 5, similarity: 1, differing: [] });
    const r = at(lines, ['target'], 1, { window: 2 });
    assert.ok(!r.ok && r.code === 'no-match');
    assert.deepEqual(r.outside, [5]);
    assert.equal(r.message, 'the SEARCH block does not match f.txt within 2 lines of line 1; the same lines occur at line 6, too far from the hint to be trusted: correct :start_line: to 6');
  });

  it('no-match names the closest window, its similarity and the first differing line', () => {
    const r = at(['alpha = 1', 'beta = 2', 'gamma = 3'], ['beta = 9'], 1);
    assert.ok(!r.ok && r.code === 'no-match');
    assert.equal(r.candidates.length, 1);
    assert.deepEqual([r.candidates[0].start, r.candidates[0].offset, r.candidates[0].similarity.toFixed(3)], [2, 1, '0.889']);
    assert.equal(
      r.message,
      'the SEARCH block does not match f.txt within 40 lines of line 1 (needs equal text after normalising whitespace and punctuation, or one misspelt word per line at :start_line:); closest is line 2 with similarity 0.889, where line 2 is "beta = 2" but the SEARCH has "beta = 9"; use read_file to get the exact content',
    );
  });

  it('names no closest window below the floor: none that shares less than half the text', () => {
    const r = at(['alpha = 1', 'beta = 2'], ['completely_different_text()'], 1);
    assert.ok(!r.ok && r.code === 'no-match');
    assert.deepEqual(r.candidates, []);
    assert.equal(
      r.message,
      'the SEARCH block does not match f.txt within 40 lines of line 1 (needs equal text after normalising whitespace and punctuation, or one misspelt word per line at :start_line:), and no place there comes close (none shares half the text); use read_file to get the exact content',
    );
  });

  it('fails clearly when the hint is past the end or the block is longer than the file', () => {
    const past = at(['a', 'b'], ['z'], 9);
    assert.ok(!past.ok && past.code === 'no-match');
    assert.equal(past.message, 'the SEARCH block does not match f.txt: :start_line:9 is past its end (2 lines); use read_file to get the file\'s current content');
    const long = at(['a'], ['a', 'b'], 1);
    assert.ok(!long.ok && long.code === 'no-match');
    assert.equal(long.message, "the SEARCH block has 2 lines but f.txt has 1 line; use read_file to get the file's current content");
  });

  it('an empty SEARCH fits only an empty file', () => {
    assert.deepEqual(at([], [], 1), { ok: true, kind: 'exact', start: 0, end: 0, offset: 0, similarity: 1, differing: [] });
    assert.deepEqual(at([], []), { ok: true, kind: 'exact', start: 0, end: 0, offset: null, similarity: 1, differing: [] });
    const r = at(['x'], []);
    assert.ok(!r.ok && r.code === 'no-match');
    assert.match(r.message!, /^the SEARCH section is empty, which only fits an empty file, and f\.txt has 1 line/);
  });

  it('stays fast on a large file without a hint', () => {
    const big = Array.from({ length: 20_000 }, (_, i) => `    const value${i % 97} = compute(${i % 89}, options);`);
    const t = Date.now();
    const r = at(big, ['    const nothing = here(1);', '    return 0;']);
    assert.ok(!r.ok && r.code === 'no-match');
    assert.ok(Date.now() - t < 5000, `took ${Date.now() - t} ms`);
  });
});

describe('roo re-indentation', () => {
  const written = (file: string[], search: string[], replace: string[]) => {
    const r = locateRoo(file, edit(search, undefined, replace), {});
    return r.ok ? (r.newLines ?? replace) : r.code;
  };

  it('moves REPLACE lines written at the SEARCH\'s indentation as the SEARCH lines show the file\'s', () => {
    assert.deepEqual(written(['        a'], ['a'], ['if x:', '    y()', '', 'z  ']), ['        if x:', '            y()', '', '        z  ']);
    // Every SEARCH line is evidence, not the first alone: four spaces stand for three tabs and two for two,
    // so a REPLACE line at two spaces gets two tabs (Roo, from the first line only, would write one).
    assert.deepEqual(written(['\t\t\ta', '\t\tc'], ['    a', '  c'], ['    a', '  b']), ['\t\t\ta', '\t\tb']);
    // Blank SEARCH lines are no evidence.
    assert.deepEqual(written(['    ', '    a'], ['', '  a'], ['  x']), ['    x']);
  });

  it('keeps REPLACE lines already written at the file\'s indentation, and refuses any other', () => {
    assert.deepEqual(written(['        a()'], ['a()'], ['        b()']), ['        b()']);
    assert.equal(written(['        a()'], ['a()'], ['    b()']), 'no-match');
    assert.deepEqual(written(['        a()'], ['a()'], ['', '   ']), ['', '   ']);
  });

  it('is used for whitespace and fuzzy matches only', () => {
    const files = { 'p.py': 'def f():\n    return 1\n' };
    const ws = applyRequest({ format: 'roo', files, response: '<<<<<<< SEARCH\n:start_line:2\n-------\nreturn 1\n=======\nreturn 2\n>>>>>>> REPLACE' });
    assert.equal(ws.files['p.py'], 'def f():\n    return 2\n');
    assert.equal(ws.edits[0].match, 'whitespace');
    const exact = applyRequest({ format: 'roo', files, response: '<<<<<<< SEARCH\n:start_line:2\n-------\n    return 1\n=======\nreturn 2\n>>>>>>> REPLACE' });
    assert.equal(exact.files['p.py'], 'def f():\nreturn 2\n');
  });

  it('shifts once: a REPLACE already at the file\'s indentation is not shifted again', () => {
    const files = { 'c.py': 'class C:\n    def total(self):\n        return sum(self.items)\n' };
    const reply = (replace: string) =>
      `<<<<<<< SEARCH\n:start_line:2\n-------\ndef total(self):\n    return sum(self.items)\n=======\n${replace}\n>>>>>>> REPLACE`;
    const want = 'class C:\n    def total(self):\n        return round(sum(self.items), 2)\n';
    assert.equal(applyRequest({ format: 'roo', files, response: reply('def total(self):\n    return round(sum(self.items), 2)') }).files['c.py'], want);
    assert.equal(applyRequest({ format: 'roo', files, response: reply('    def total(self):\n        return round(sum(self.items), 2)') }).files['c.py'], want);
    const neither = applyRequest({ format: 'roo', files, response: reply('  def total(self):\n      return round(sum(self.items), 2)') });
    assert.equal(neither.edits[0].status, 'failed');
    assert.equal(neither.edits[0].code, 'no-match');
    assert.match(neither.edits[0].message, /like neither the SEARCH lines \(""\) nor the file/);
    assert.equal(neither.files['c.py'], files['c.py']);
  });
});

describe('numbers copied into SEARCH lines past the end of the file', () => {
  const FILE = 'def f():\n    a = 1\n    b = 2\n    return a\n';
  const reply = (search: string) => `<<<<<<< SEARCH\n${search}\n=======\nx\n>>>>>>> REPLACE\n`;

  it('are no hint: a block found once in the file is placed', () => {
    const r = applyRequest({ format: 'roo', files: { 'a.py': FILE }, response: reply('1476 | def f():\n1477 |     a = 1\n1478 |     b = 2\n1479 |     return a') });
    assert.deepEqual(r.edits.map((e) => [e.status, e.offset, e.range]), [['applied', null, { start: 1, end: 4 }]]);
    assert.equal(r.files['a.py'], 'x\n');
  });

  it('numbers that are a place in the file stay a hint', () => {
    const r = applyRequest({ format: 'roo', files: { 'a.py': FILE }, response: reply('2 |     a = 1\n3 |     b = 2') });
    assert.deepEqual(r.edits.map((e) => [e.status, e.offset]), [['applied', 0]]);
  });

  it('no candidate sharing less than half the text is listed, whatever the window', () => {
    const unrelated = 'class X:\n    zzz\n    qqq\n    www';
    for (const [files, search] of [
      [{ 'a.py': FILE }, '1476 | class X:\n1477 |     zzz\n1478 |     qqq\n1479 |     www'],
      [{ 'a.py': FILE }, `:start_line:1476\n-------\n${unrelated}`],
      [{ 'a.py': 'x\n' }, unrelated],
    ] as const) {
      const r = applyRequest({ format: 'roo', files, response: reply(search) });
      assert.deepEqual(r.edits.map((e) => [e.code, e.candidates]), [['no-match', []]], search);
    }
    // A short file whose one line shares most of the text still names it.
    const near = applyRequest({ format: 'roo', files: { 'a.py': 'total = compute(alpha)\n' }, response: reply('total = compute(alpha)\nreturn total') });
    assert.equal(near.edits[0].candidates.length, 1);
  });
});
