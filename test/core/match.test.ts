// The match ladder (src/core/match.ts): each rung, its ties, the window, and
// the mode without a cited line.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { candidateAt, lineSimilarity, locate, type MatchOutcome, type Placed, type Unplaced } from '../../src/core/match.ts';

/** `n` distinct lines `L1`..`Ln`, with `extra` put at the given 0-based indexes. */
function file(n: number, extra: Record<number, string> = {}): string[] {
  return Array.from({ length: n }, (_, i) => extra[i] ?? `L${i + 1}`);
}

function placed(o: MatchOutcome): Placed {
  assert.equal(o.ok, true, `expected a placement, got ${JSON.stringify(o)}`);
  return o as Placed;
}

function unplaced(o: MatchOutcome): Unplaced {
  assert.equal(o.ok, false, `expected a failure, got ${JSON.stringify(o)}`);
  return o as Unplaced;
}

// 37 characters; one changed character gives ratio 2*37/76 (newline included).
const LONG = 'const total = computeTotal(items, 2);';
const LONG_TYPO = 'const total = computeTotak(items, 2);';
const LONG_RATIO = 74 / 76;

describe('rung 1: exact at the cited place', () => {
  it('places the block where it is cited', () => {
    assert.deepEqual(locate(file(10), ['L5', 'L6'], 4), {
      ok: true,
      kind: 'exact',
      start: 4,
      end: 6,
      offset: 0,
      similarity: 1,
      differing: [],
    });
  });

  it('wins over copies elsewhere, even right next to it', () => {
    const lines = ['x', 'x', 'x', 'x'];
    assert.deepEqual(placed(locate(lines, ['x'], 2)), { ok: true, kind: 'exact', start: 2, end: 3, offset: 0, similarity: 1, differing: [] });
  });

  it('first and last lines of the file', () => {
    assert.equal(placed(locate(file(3), ['L1'], 0)).start, 0);
    assert.equal(placed(locate(file(3), ['L3'], 2)).start, 2);
    assert.equal(placed(locate(file(3), ['L1', 'L2', 'L3'], 0)).end, 3);
  });
});

describe('rung 2: exact one line off', () => {
  it('one line up', () => {
    assert.deepEqual(locate(file(10), ['L4', 'L5'], 4), {
      ok: true,
      kind: 'offset',
      start: 3,
      end: 5,
      offset: -1,
      similarity: 1,
      differing: [],
    });
  });

  it('one line down', () => {
    const p = placed(locate(file(10), ['L6', 'L7'], 4));
    assert.deepEqual([p.kind, p.start, p.offset], ['offset', 5, 1]);
  });

  it('both one up and one down: ambiguous, both listed', () => {
    const lines = ['a', 'x', 'b', 'x', 'c'];
    const u = unplaced(locate(lines, ['x'], 2));
    assert.equal(u.code, 'ambiguous');
    assert.equal(u.kind, 'exact');
    assert.deepEqual(
      u.candidates.map((c) => [c.start, c.end, c.offset, c.similarity]),
      [
        [2, 2, -1, 1],
        [4, 4, 1, 1],
      ],
    );
  });

  it('one line off beats a unique copy further away', () => {
    const lines = file(30, { 11: 'x', 20: 'x' });
    const p = placed(locate(lines, ['x'], 10));
    assert.deepEqual([p.kind, p.start, p.offset], ['offset', 11, 1]);
  });

  it('cited just before the file or just past its end', () => {
    const p = placed(locate(file(5), ['L1'], -1));
    assert.deepEqual([p.kind, p.start, p.offset], ['offset', 0, 1]);
    const q = placed(locate(file(5), ['L5'], 5));
    assert.deepEqual([q.kind, q.start, q.offset], ['offset', 4, -1]);
  });
});

describe('rung 3: exact, once, elsewhere in the window', () => {
  it('a unique copy 10 lines below', () => {
    const p = placed(locate(file(60), ['L31', 'L32'], 20));
    assert.deepEqual(p, { ok: true, kind: 'offset', start: 30, end: 32, offset: 10, similarity: 1, differing: [] });
  });

  it('a unique copy above', () => {
    const p = placed(locate(file(60), ['L3'], 40));
    assert.deepEqual([p.kind, p.start, p.offset], ['offset', 2, -38]);
  });

  it('two copies in the window: ambiguous, both listed in file order', () => {
    const lines = file(60, { 5: 'dup', 40: 'dup' });
    const u = unplaced(locate(lines, ['dup'], 20));
    assert.equal(u.code, 'ambiguous');
    assert.equal(u.kind, 'exact');
    assert.deepEqual(
      u.candidates.map((c) => [c.start, c.offset]),
      [
        [6, -15],
        [41, 20],
      ],
    );
  });

  it('a copy outside the window does not make it ambiguous', () => {
    const lines = file(200, { 30: 'dup', 150: 'dup' });
    const p = placed(locate(lines, ['dup'], 20));
    assert.deepEqual([p.kind, p.start], ['offset', 30]);
  });

  it('an exact copy in the window beats a whitespace match at the cited place', () => {
    const lines = file(30, { 10: 'x  ', 15: 'x' });
    const p = placed(locate(lines, ['x'], 10));
    assert.deepEqual([p.kind, p.start, p.offset], ['offset', 15, 5]);
  });

  it('the whole block must match, not only its first line', () => {
    const lines = file(30, { 5: 'a', 6: 'b', 15: 'a', 16: 'c' });
    const p = placed(locate(lines, ['a', 'c'], 10));
    assert.deepEqual([p.start, p.end], [15, 17]);
  });
});

describe('the window', () => {
  it('reaches exactly 50 lines on each side by default', () => {
    const lines = file(200);
    assert.equal(placed(locate(lines, ['L151'], 100)).offset, 50);
    assert.equal(placed(locate(lines, ['L51'], 100)).offset, -50);
    const below = unplaced(locate(lines, ['L152'], 100));
    assert.equal(below.code, 'no-match');
    assert.deepEqual(below.outside, [151]);
    const above = unplaced(locate(lines, ['L50'], 100));
    assert.deepEqual(above.outside, [49]);
  });

  it('the window option sets its size', () => {
    const lines = file(100);
    assert.equal(placed(locate(lines, ['L56'], 50, { window: 5 })).offset, 5);
    assert.deepEqual(unplaced(locate(lines, ['L57'], 50, { window: 5 })).outside, [56]);
    assert.equal(unplaced(locate(lines, ['L15'], 70)).code, 'no-match');
    assert.equal(placed(locate(lines, ['L15'], 70, { window: 100 })).offset, -56);
  });

  it('a block must fit in the window: its start is searched, its end may pass the window', () => {
    const lines = file(100);
    // starts at 60 (cited 10, window 50): found, although it ends at 63
    assert.equal(placed(locate(lines, ['L61', 'L62', 'L63'], 10)).start, 60);
  });

  it('window 0: only the cited place, no shift, no fuzzy one line off', () => {
    const lines = file(20, { 9: LONG_TYPO });
    assert.equal(placed(locate(lines, ['L5'], 4, { window: 0 })).kind, 'exact');
    assert.equal(unplaced(locate(lines, ['L6'], 4, { window: 0 })).code, 'no-match');
    assert.equal(unplaced(locate(lines, [LONG], 10, { window: 0 })).code, 'no-match');
    assert.equal(placed(locate(lines, [LONG], 9, { window: 0 })).kind, 'fuzzy');
  });

  it('window 1: one line off, nothing further', () => {
    const lines = file(20);
    assert.equal(placed(locate(lines, ['L6'], 4, { window: 1 })).offset, 1);
    assert.equal(unplaced(locate(lines, ['L7'], 4, { window: 1 })).code, 'no-match');
  });

  it('a block that occurs exactly only outside the window: the candidate is that copy (each one), not the closest place in the window', () => {
    // L20..L24 and their look-alikes: the window around the cited place holds lines much like the block.
    const lines = Array.from({ length: 200 }, (_, i) => `value_${i % 7} = compute(alpha, beta)`);
    const block = ['def special(value):', '    total = value * 2', '    return total'];
    lines.splice(140, 3, ...block);
    const u = unplaced(locate(lines, block, 19));
    assert.deepEqual(u.outside, [140]);
    assert.deepEqual(u.candidates, [{ start: 141, end: 143, offset: 121, similarity: 1, lines: block, differs: [false, false, false] }]);
    const twice = [...lines.slice(0, 180), ...block, ...lines.slice(183)];
    assert.deepEqual(unplaced(locate(twice, block, 19)).candidates.map((c) => [c.start, c.offset]), [[141, 121], [181, 161]]);
    // Without such a copy the closest place in the window is named, as before.
    assert.deepEqual(unplaced(locate(lines, ['value_1 = compute(alpha, betta)'], 19)).candidates.map((c) => c.start), [23]);
  });

  it('a cited place past the end of the file still searches the window back into the file', () => {
    const lines = file(100);
    const p = placed(locate(lines, ['L90'], 120));
    assert.deepEqual([p.kind, p.start, p.offset], ['offset', 89, -31]);
    const u = unplaced(locate(lines, ['L60'], 120));
    assert.deepEqual(u.outside, [59]);
  });
});

describe('rung 4: trailing whitespace ignored', () => {
  it('at the cited place; differing lists the lines that are not byte-equal', () => {
    const lines = file(10, { 3: 'foo   ', 4: 'bar\t' });
    assert.deepEqual(locate(lines, ['foo', 'bar', 'L6'], 3), {
      ok: true,
      kind: 'whitespace',
      start: 3,
      end: 6,
      offset: 0,
      similarity: 1,
      differing: [0, 1],
    });
  });

  it('either side may have the trailing blanks; CR and Unicode spaces count as whitespace', () => {
    const lines = file(10, { 2: 'a', 3: 'b\r', 4: 'c\u00A0\u3000' });
    assert.equal(placed(locate(lines, ['a  ', 'b', 'c'], 2)).kind, 'whitespace');
  });

  it('leading whitespace is not forgiven by this rung', () => {
    const lines = file(10, { 3: '  foo' });
    assert.equal(unplaced(locate(lines, ['foo'], 3)).code, 'no-match');
  });

  it('one line off, and elsewhere in the window, keep the kind whitespace', () => {
    const lines = file(40, { 5: 'x ', 30: 'y ' });
    const p = placed(locate(lines, ['x'], 4));
    assert.deepEqual([p.kind, p.start, p.offset], ['whitespace', 5, 1]);
    const q = placed(locate(lines, ['y'], 10));
    assert.deepEqual([q.kind, q.start, q.offset], ['whitespace', 30, 20]);
  });

  it('ties are ambiguous with kind whitespace', () => {
    const lines = file(40, { 5: 'x ', 30: 'x\t' });
    const u = unplaced(locate(lines, ['x'], 15));
    assert.deepEqual([u.code, u.kind, u.candidates.map((c) => c.start)], ['ambiguous', 'whitespace', [6, 31]]);
    const v = unplaced(locate(['a', 'x ', 'b', 'x ', 'c'], ['x'], 2));
    assert.deepEqual([v.code, v.kind, v.candidates.map((c) => c.offset)], ['ambiguous', 'whitespace', [-1, 1]]);
  });

  it('whitespace: false turns the rung off, and the fuzzy rung then judges the line by its similarity', () => {
    const lines = file(10, { 3: 'foo ' });
    assert.equal(unplaced(locate(lines, ['foo'], 3, { whitespace: false, fuzzy: false })).code, 'no-match');
    // "foo\n" against "foo \n" is 0.889: not similar enough.
    assert.equal(unplaced(locate(lines, ['foo'], 3, { whitespace: false })).code, 'no-match');
    const long = 'const result = computeSomethingRatherLong(alpha, beta);';
    const withSpace = file(10, { 3: long + ' ' });
    const placed = locate(withSpace, [long], 3, { whitespace: false });
    assert.equal(placed.ok && placed.kind, 'fuzzy');
    assert.ok(placed.ok && placed.similarity < 1 && placed.similarity > 0.95);
  });
});

describe('rung 5: fuzzy', () => {
  it('one changed character in a long line, at the cited place', () => {
    const lines = file(10, { 4: LONG_TYPO });
    assert.deepEqual(locate(lines, ['L4', LONG, 'L6'], 3), {
      ok: true,
      kind: 'fuzzy',
      start: 3,
      end: 6,
      offset: 0,
      similarity: LONG_RATIO,
      differing: [1],
    });
  });

  it('similarity is the weakest differing line; whitespace-only differences do not lower it', () => {
    const other = 'let value = someFunction(argument);';
    const otherTypo = 'let value = someFunction(argumint);';
    const lines = file(10, { 2: LONG_TYPO, 3: 'x  ', 4: otherTypo });
    const p = placed(locate(lines, [LONG, 'x', other], 2));
    assert.equal(p.kind, 'fuzzy');
    assert.deepEqual(p.differing, [0, 1, 2]);
    assert.equal(p.similarity, Math.min(LONG_RATIO, lineSimilarity(other, otherTypo)));
    assert.ok(p.similarity < LONG_RATIO);
  });

  it('one line off, either way', () => {
    const lines = file(10, { 5: LONG_TYPO });
    const p = placed(locate(lines, [LONG], 4));
    assert.deepEqual([p.kind, p.start, p.offset, p.similarity], ['fuzzy', 5, 1, LONG_RATIO]);
    const q = placed(locate(lines, [LONG], 6));
    assert.deepEqual([q.kind, q.start, q.offset], ['fuzzy', 5, -1]);
  });

  it('similar both one up and one down: ambiguous', () => {
    const lines = file(10, { 3: LONG_TYPO, 5: LONG.replace('computeTotal', 'computeTotam') });
    const u = unplaced(locate(lines, [LONG], 4));
    assert.equal(u.code, 'ambiguous');
    assert.equal(u.kind, 'fuzzy');
    assert.deepEqual(
      u.candidates.map((c) => [c.start, c.offset, c.similarity]),
      [
        [4, -1, LONG_RATIO],
        [6, 1, LONG_RATIO],
      ],
    );
  });

  it('never further than one line off', () => {
    const lines = file(10, { 6: LONG_TYPO });
    const u = unplaced(locate(lines, [LONG], 4));
    assert.equal(u.code, 'no-match');
    assert.equal(u.candidates[0].start, 7);
    assert.equal(u.candidates[0].similarity, LONG_RATIO);
  });

  it('the threshold is exclusive: a line at exactly 0.95 is not similar enough', () => {
    // 19 characters + newline on each side, 19 of 20 in common: 38/40 = 0.95
    const cited = 'abcdefghijklmnopqrs';
    const actual = 'abcdefghijklmnopqrX';
    assert.equal(lineSimilarity(cited, actual), 0.95);
    const lines = file(5, { 2: actual });
    assert.equal(unplaced(locate(lines, [cited], 2)).code, 'no-match');
    assert.equal(placed(locate(lines, [cited], 2, { fuzzyThreshold: 0.9499 })).similarity, 0.95);
    // 20 characters: 40/42 > 0.95
    assert.equal(placed(locate(file(5, { 2: actual + 't' }), [cited + 't'], 2)).kind, 'fuzzy');
  });

  it('a short line with one typo is not similar enough', () => {
    assert.equal(unplaced(locate(file(5, { 2: 'x = 2' }), ['x = 1'], 2)).code, 'no-match');
  });

  it('every line must be similar, not only most of them', () => {
    const lines = file(10, { 3: LONG_TYPO, 4: 'completely different' });
    assert.equal(unplaced(locate(lines, [LONG, 'L5'], 3)).code, 'no-match');
  });

  it('fuzzy: false turns the rung off; exact rungs come first', () => {
    const lines = file(10, { 4: LONG_TYPO });
    assert.equal(unplaced(locate(lines, [LONG], 4, { fuzzy: false })).code, 'no-match');
    // an exact copy anywhere in the window beats a fuzzy match at the cited place
    const withCopy = file(30, { 4: LONG_TYPO, 20: LONG });
    assert.deepEqual(placed(locate(withCopy, [LONG], 4)).kind, 'offset');
  });
});

describe('rung 5 refused: the block is in the file outside the window', () => {
  // The file has LONG_TYPO at index 4 (similar to the cited LONG) and LONG at index 80, beyond the window of 50.
  const lines = file(100, { 4: LONG_TYPO, 80: LONG });

  it('an exact occurrence outside the window refuses the fuzzy place, naming both', () => {
    const o = unplaced(locate(lines, [LONG], 4));
    assert.equal(o.code, 'no-match');
    assert.equal(o.fuzzyRefused, 4);
    assert.deepEqual(o.outside, [80]);
    assert.equal(o.candidates[0].start, 5);
    assert.equal(o.candidates[0].similarity, LONG_RATIO);
  });

  it('so does a whitespace-equal one, unless whitespace tolerance is off', () => {
    const ws = file(100, { 4: LONG_TYPO, 80: LONG + '  ' });
    const o = unplaced(locate(ws, [LONG], 4));
    assert.equal(o.fuzzyRefused, 4);
    assert.deepEqual(o.outside, [80]);
    assert.equal(placed(locate(ws, [LONG], 4, { whitespace: false })).kind, 'fuzzy');
  });

  it('whitespace-equal means what the whitespace rung forgives, for every character at the end of the line', () => {
    for (let c = 0; c < 0x3100 || c === 0xfeff; c = c === 0x30ff ? 0xfeff : c + 1) {
      const ch = String.fromCharCode(c);
      const far = file(100, { 4: LONG_TYPO, 80: LONG + ch });
      const o = locate(far, [LONG], 4);
      // What String.prototype.trimEnd removes, and the zero-width characters (U+200B-U+200D, U+2060, U+FEFF).
      const forgiven = (LONG + ch).trimEnd() === LONG || /[\u200B\u200C\u200D\u2060\uFEFF]/.test(ch);
      assert.equal(o.ok, !forgiven, `U+${c.toString(16).padStart(4, '0')}`);
    }
  });

  it('a copy outside the window with a zero-width character inside a line, or in another normalisation form, refuses the fuzzy place too', () => {
    const hidden = file(100, { 4: LONG_TYPO, 80: LONG.replace('Total', '\u200BTotal') });
    const o = unplaced(locate(hidden, [LONG], 4));
    assert.deepEqual([o.fuzzyRefused, o.outside], [4, [80]]);
    assert.equal(placed(locate(hidden, [LONG], 4, { whitespace: false })).kind, 'fuzzy');
    // `é` as U+00E9 in the reply, as `e` + U+0301 in the far copy; the line at the cited place has a typo.
    const cafe = 'const label = describeCaf\u00e9(items, 2);';
    const nfd = file(100, { 4: cafe.replace('describe', 'descrbe'), 80: cafe.normalize('NFD') });
    const n = unplaced(locate(nfd, [cafe], 4));
    assert.deepEqual([n.fuzzyRefused, n.outside], [4, [80]]);
    // Many copies of the block's lines (the search hands over to findBlock): the same key.
    const many = file(6000, { 4: LONG_TYPO, 5: 'x' });
    for (let i = 1000; i < 6000; i++) many[i] = i % 2 ? LONG.replace('Total', '\u200BTotal') : 'x';
    const m = unplaced(locate(many, [LONG, 'x'], 4));
    assert.deepEqual([m.fuzzyRefused, m.outside.length, m.outside[0]], [4, 2499, 1001]);
  });

  it('one line off as well', () => {
    const o = unplaced(locate(lines, [LONG], 5));
    assert.equal(o.fuzzyRefused, 4);
    assert.deepEqual(o.outside, [80]);
  });

  it('a wider window finds the exact lines instead (rung 3)', () => {
    const p = placed(locate(lines, [LONG], 4, { window: 80 }));
    assert.deepEqual([p.kind, p.start, p.offset], ['offset', 80, 76]);
  });

  it('finds the occurrence the same way after many searches in one file (by its index) and among many first-line hits', () => {
    // Twenty fuzzy places in one line array: the later searches use the file's index.
    const many = file(3000, { 2500: LONG });
    for (let k = 0; k < 20; k++) many[100 * k + 4] = LONG_TYPO;
    for (let k = 0; k < 20; k++) {
      const o = unplaced(locate(many, [LONG], 100 * k + 4));
      assert.deepEqual([o.fuzzyRefused, o.outside], [100 * k + 4, [2500]], `search ${k}`);
    }
    // A first line found thousands of times (a blank line) outside the window.
    const blanks = file(5000, { 9: '', 10: LONG_TYPO });
    for (let i = 100; i < 4900; i++) blanks[i] = '';
    blanks[4950] = '';
    blanks[4951] = LONG;
    const o = unplaced(locate(blanks, ['', LONG], 9));
    assert.deepEqual([o.fuzzyRefused, o.outside], [9, [4950]]);
    // Every line of the block found thousands of times: the search hands over to findBlock.
    const OTHER = 'const other = computeOther(items, 5);';
    const pairs = file(6000, { 10: LONG_TYPO, 11: OTHER });
    for (let i = 1000; i < 6000; i += 2) [pairs[i], pairs[i + 1]] = [LONG, OTHER];
    const p = unplaced(locate(pairs, [LONG, OTHER], 10));
    assert.equal(p.fuzzyRefused, 10);
    assert.equal(p.outside.length, 2500);
    assert.deepEqual(p.outside.slice(0, 2), [1000, 1002]);
  });

  it('without the occurrence elsewhere, the fuzzy place is taken', () => {
    const p = placed(locate(file(100, { 4: LONG_TYPO }), [LONG], 4));
    assert.deepEqual([p.kind, p.start], ['fuzzy', 4]);
  });
});

describe('without a cited place', () => {
  it('the whole file is searched; one exact copy is placed with kind exact and no offset', () => {
    assert.deepEqual(locate(file(500), ['L400', 'L401'], null), {
      ok: true,
      kind: 'exact',
      start: 399,
      end: 401,
      offset: null,
      similarity: 1,
      differing: [],
    });
  });

  it('two copies anywhere are ambiguous', () => {
    const u = unplaced(locate(file(500, { 0: 'dup', 499: 'dup' }), ['dup'], null));
    assert.deepEqual([u.code, u.kind], ['ambiguous', 'exact']);
    assert.deepEqual(
      u.candidates.map((c) => [c.start, c.offset]),
      [
        [1, null],
        [500, null],
      ],
    );
  });

  it('a whitespace match is placed; fuzzy never applies', () => {
    const p = placed(locate(file(10, { 6: 'foo ' }), ['foo'], null));
    assert.deepEqual([p.kind, p.start, p.offset], ['whitespace', 6, null]);
    const u = unplaced(locate(file(10, { 6: LONG_TYPO }), [LONG], null));
    assert.equal(u.code, 'no-match');
    assert.deepEqual(u.outside, []);
    assert.equal(u.candidates[0].start, 7);
  });
});

describe('no match: the closest candidate', () => {
  it('names the most similar place in the window and what differs there', () => {
    const lines = file(20, { 7: 'function main() {', 8: '  run(1);' });
    const u = unplaced(locate(lines, ['function main() {', '  run(2);'], 3));
    assert.equal(u.code, 'no-match');
    assert.equal(u.kind, null);
    assert.deepEqual(u.outside, []);
    assert.equal(u.candidates.length, 1);
    const c = u.candidates[0];
    assert.deepEqual([c.start, c.end, c.offset], [8, 9, 4]);
    assert.deepEqual(c.lines, ['function main() {', '  run(1);']);
    assert.deepEqual(c.differs, [false, true]);
    assert.equal(c.similarity, lineSimilarity('  run(2);', '  run(1);'));
  });

  it('ties go to the place nearest the cited one', () => {
    const u = unplaced(locate(['zzzp', 'zzzq', 'zzzr', 'zzzs', 'zzzt'], ['zzza'], 2));
    assert.equal(u.candidates[0].start, 3);
  });

  it('names no candidate when no place shares half the text (CLOSEST_FLOOR)', () => {
    assert.deepEqual(unplaced(locate(['p', 'q', 'r', 's', 't'], ['zzz'], 2)).candidates, []);
    // 'ab\n' against 'xb\n': 4 of 6 characters, 0.667 on average: named.
    assert.equal(unplaced(locate(['xb', 'q'], ['ab'], 0)).candidates[0].start, 1);
  });

  it('an empty file has no candidate', () => {
    assert.deepEqual(locate([], ['a'], 0), { ok: false, code: 'no-match', kind: null, candidates: [], outside: [] });
  });

  it('a block longer than the file: the candidate is the file from the cited line', () => {
    const u = unplaced(locate(['a', 'b'], ['a', 'b', 'c'], 0));
    assert.equal(u.code, 'no-match');
    assert.deepEqual(u.candidates[0].lines, ['a', 'b']);
    assert.deepEqual(u.candidates[0].differs, [false, false, true]);
    assert.equal(u.candidates[0].similarity, 0);
  });

  it('a cited place far past the end: the candidate is the last line, when it shares half the text', () => {
    const lines = file(10);
    const u = unplaced(locate(lines, [lines[9] + 'x'], 500));
    assert.equal(u.candidates[0].start, 10);
    // A block that shares less than half the text with it names no candidate (spec/matching.md).
    assert.deepEqual(unplaced(locate(lines, ['zz'], 500)).candidates, []);
    assert.deepEqual(unplaced(locate(['x = 1'], ['class Unrelated:', '    zzz'], null)).candidates, []);
  });
});

describe('candidateAt and lineSimilarity', () => {
  it('candidateAt describes the file at a place', () => {
    assert.deepEqual(candidateAt(['a', 'b', 'c'], ['b', 'x'], 1, 0), {
      start: 2,
      end: 3,
      offset: 1,
      similarity: lineSimilarity('x', 'c'),
      lines: ['b', 'c'],
      differs: [false, true],
    });
  });

  it('lineSimilarity compares lines with their newline', () => {
    assert.equal(lineSimilarity('a', 'a'), 1);
    assert.equal(lineSimilarity('a', 'b'), 0.5); // "a\n" vs "b\n": the newline matches
    assert.equal(lineSimilarity(LONG, LONG_TYPO), LONG_RATIO);
    assert.equal(lineSimilarity('', ''), 1);
  });
});
