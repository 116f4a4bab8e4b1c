// The closest candidate's anchors (src/core/anchors.ts, src/core/candidates.ts):
// a block with one line mistyped in a file too large to compare every place
// names its real place; a block of common lines has no anchor and costs no
// more than the scan; the tie rule does not depend on the order places are
// compared in.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ANCHORED_PLACES, ANCHOR_MAX_LINES, anchorKey, anchoredPlaces, nearestRank } from '../../src/core/anchors.ts';
import { closest, lineSimilarity, locate, requestBudget, type Unplaced } from '../../src/core/match.ts';
import { helpers } from './fixtures-helpers.ts';

const source = helpers;

const LINES = source(1_600); // 17,600 lines
/** Function 1,500's first 7 lines, its `return result;` mistyped. */
const REAL = 1_500 * 11;
const BLOCK = LINES.slice(REAL, REAL + 7).map((l, i) => (i === 3 ? '    retrun result;' : l));
const LAST = LINES.length - BLOCK.length;

describe('closest candidate: anchors', () => {
  it('names the real place of a block with one line mistyped, deep in a file the scan cannot cover', () => {
    const seen: number[] = [];
    const o = closest(LINES, BLOCK, null, 0, LAST, null, (s) => seen.push(s));
    assert.deepEqual(
      o.candidates.map((c) => [c.start, c.end, c.differs.indexOf(true)]),
      [[REAL + 1, REAL + 7, 3]],
    );
    assert.equal(o.candidates[0].similarity, lineSimilarity('    retrun result;', '    return result;'));
    // The scan stopped on its budget long before the real place: the anchor brought it there first.
    assert.ok(o.searched, 'the search is bounded here');
    assert.ok(o.searched.compared < REAL, `compared ${o.searched.compared} places`);
    assert.equal(o.searched.places, LAST + 1);
    assert.equal(seen[0], REAL, 'the anchored place is compared first');
    assert.equal(new Set(seen).size, seen.length, 'no place is compared twice');
    assert.equal(seen.length, o.searched.compared);
  });

  it('the whole ladder reports that place when no line is cited, and when the line cited is far off within a wide window', () => {
    const free = locate(LINES, BLOCK, null) as Unplaced;
    assert.equal(free.ok, false);
    assert.equal(free.candidates[0]?.start, REAL + 1);
    const cited = locate(LINES, BLOCK, 100, { window: 20_000 }) as Unplaced;
    assert.equal(cited.ok, false);
    assert.equal(cited.candidates[0]?.start, REAL + 1);
    assert.equal(cited.candidates[0]?.offset, REAL - 100);
  });

  it('a block quoted at another indentation still anchors on its lines', () => {
    const shifted = BLOCK.map((l) => (l === '' ? l : '\t' + l.trimStart()));
    const o = closest(LINES, shifted, null, 0, LAST, null);
    assert.equal(o.candidates[0]?.start, REAL + 1);
  });

  it('only a place inside the window is pointed to', () => {
    assert.deepEqual(anchoredPlaces(LINES, BLOCK, 0, LAST, 0), [REAL]);
    assert.deepEqual(anchoredPlaces(LINES, BLOCK, 0, REAL - 1, 0), []);
    assert.deepEqual(anchoredPlaces(LINES, BLOCK, REAL + 1, LAST, REAL + 1), []);
  });

  it('a line the file has more than ANCHOR_MAX_LINES times is no anchor', () => {
    // `result.push(transform5(...))` is in 44 of the 1,600 functions (k % 37 === 5).
    const common = LINES.slice(5 * 11 + 6, 5 * 11 + 8);
    assert.ok(LINES.filter((l) => l === common[0]).length > ANCHOR_MAX_LINES);
    assert.deepEqual(anchoredPlaces(LINES, common, 0, LINES.length - 2, 0), []);
    // In a file of 37 * 32 functions it is found 32 times, and is an anchor: 32 places.
    const fewer = source(37 * 32);
    assert.equal(anchoredPlaces(fewer, common, 0, fewer.length - 2, 0).length, 32);
  });

  it('places are ranked by the anchors pointing to them, then nearest first', () => {
    // Two copies of a function's lines 1-3; the block's header names copy B, so B has one more anchor.
    const lines = ['a1', 'head A', 'x = 1;', 'y = 2;', 'a2', 'head B', 'x = 1;', 'y = 2;', 'a3'];
    assert.deepEqual(anchoredPlaces(lines, ['head B', 'x = 1;', 'y = 3;'], 0, 6, 0), [5, 1]);
    // Equal counts: nearest the centre first, below before above at the same distance.
    assert.deepEqual(anchoredPlaces(lines, ['x = 1;', 'y = 2;'], 0, 7, 4), [2, 6]);
    assert.deepEqual(anchoredPlaces(lines, ['x = 1;', 'y = 2;'], 0, 7, 8), [6, 2]);
  });

  it('ranks nearest first: the centre, then below before above at each distance', () => {
    assert.deepEqual(
      [5, 4, 6, 3, 7].map((s) => nearestRank(s, 5)),
      [0, 1, 2, 3, 4],
    );
  });

  it('compares as the whitespace rung does, leading white space set aside too', () => {
    assert.equal(anchorKey('  a\u200Bb \t'), 'ab');
    assert.equal(anchorKey('caf\u0065\u0301'), anchorKey('caf\u00e9'));
    assert.equal(anchorKey(' \t '), '');
  });

  it('among equally similar places, the nearest wins whichever was compared first', () => {
    // Places 2 and 8 are alike (both anchored by `k();`); the cited place is 7: 8 is nearer.
    const lines = ['p', 'q', 'k();', 'w1', 'r', 's', 't', 'u', 'k();', 'w2', 'v'];
    const o = closest(lines, ['k();', 'wX'], 7, 0, 9, null);
    assert.equal(o.candidates[0]?.start, 9);
    const far = closest(lines, ['k();', 'wX'], 3, 0, 9, null);
    assert.equal(far.candidates[0]?.start, 3);
  });
});

describe('closest candidate: a block of common lines stays bounded', () => {
  // 200,000 lines of `}`, blanks and `return;`: no line of the block is an anchor.
  const COMMON = Array.from({ length: 200_000 }, (_, i) => ['}', '', '  return;', '  }'][i % 4]);
  const block = ['}', '', '  return;', '  }', '}', '', '  retur;'];

  it('has no anchor, so its search is the scan alone', () => {
    assert.deepEqual(anchoredPlaces(COMMON, block, 0, COMMON.length - block.length, 0), []);
    let places = 0;
    const o = closest(COMMON, block, null, 0, COMMON.length - block.length, null, () => places++);
    assert.ok(o.searched);
    assert.equal(places, o.searched.compared);
    // What the scan alone compares: its per-edit budget over the places nearest the start.
    const seen: number[] = [];
    closest(COMMON, block, null, 0, COMMON.length - block.length, null, (s) => seen.push(s));
    assert.deepEqual(seen.slice(0, 5), [0, 1, 2, 3, 4]);
  });

  it('a block of many rare lines compares at most ANCHORED_PLACES places before the scan', () => {
    // 5,000 lines each found 2 times in the file: anchors bring at most 10,000 file lines.
    const lines = Array.from({ length: 20_000 }, (_, i) => `line ${i % 10_000}`);
    const block = Array.from({ length: 5_000 }, (_, i) => `line ${(i * 7) % 10_000}`);
    const places = anchoredPlaces(lines, block, 0, lines.length - block.length, 0);
    assert.ok(places.length <= ANCHORED_PLACES, `${places.length} places`);
    const seen: number[] = [];
    const request = requestBudget();
    closest(lines, block, null, 0, lines.length - block.length, request, (s) => seen.push(s));
    // Each place costs 5,000 line comparisons: the budget ends within the anchored places, which came first.
    const k = Math.min(seen.length, places.length);
    assert.ok(k > 0);
    assert.deepEqual(seen.slice(0, k), places.slice(0, k));
    assert.equal(new Set(seen).size, seen.length);
  });
});
