import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { clashes, firstClashes, type Placed } from '../../src/core/overlaps.ts';
import { prng } from '../prng.ts';

/** The definition: for each edit, the first other edit in reply order that clashes with it. */
function everyPair(edits: readonly Placed[]): number[] {
  return edits.map((a, i) => edits.findIndex((b, j) => j !== i && clashes(a, b)));
}

const range = (from: number, to: number, moveTo?: string): Placed => ({ from, to, whole: false, ...(moveTo ? { moveTo } : {}) });
const point = (at: number): Placed => range(at, at);

function steps(edits: readonly Placed[]): number {
  const counter = { steps: 0 };
  firstClashes(edits, counter);
  return counter.steps;
}

describe('clashes', () => {
  test('ranges clash when they share a line, not when they touch', () => {
    assert.equal(clashes(range(0, 2), range(1, 3)), true);
    assert.equal(clashes(range(0, 2), range(2, 4)), false);
    assert.equal(clashes(range(3, 4), range(3, 4)), true);
  });
  test('an insertion point clashes with a range only strictly inside it; points never clash', () => {
    assert.equal(clashes(point(2), range(1, 3)), true);
    assert.equal(clashes(point(1), range(1, 3)), false);
    assert.equal(clashes(point(3), range(1, 3)), false);
    assert.equal(clashes(point(2), point(2)), false);
  });
  test('an edit that changes nothing clashes with none, not even a whole-file edit', () => {
    const inert = (p: Placed): Placed => ({ ...p, inert: true });
    assert.equal(clashes(inert(range(0, 2)), range(1, 3)), false);
    assert.equal(clashes(range(1, 3), inert(point(2))), false);
    assert.equal(clashes(inert(range(0, 1)), { from: 0, to: 5, whole: true }), false);
    // Two real edits around an inert one that shares a line with each: none clashes.
    assert.deepEqual(firstClashes([range(0, 2), inert(range(1, 4)), range(3, 5)]), [-1, -1, -1]);
    // The indices of the others are kept: 0 and 2 clash, 1 changes nothing.
    assert.deepEqual(firstClashes([range(0, 2), inert(range(0, 2)), range(1, 3)]), [2, -1, 0]);
  });
  test('whole-file edits clash with everything; moves to different paths clash', () => {
    assert.equal(clashes({ from: 0, to: 0, whole: true }, point(5)), true);
    assert.equal(clashes(range(0, 1, 'a'), range(5, 6, 'b')), true);
    assert.equal(clashes(range(0, 1, 'a'), range(5, 6, 'a')), false);
  });
});

describe('firstClashes', () => {
  test('names the first edit in reply order that clashes, the earlier or the later one', () => {
    // 0: lines 1-2; 1: line 10; 2: lines 2-3 (clashes 0); 3: lines 9-11 (clashes 1); 4: insertion at 10 (inside 3).
    const edits = [range(0, 2), range(9, 10), range(1, 3), range(8, 11), point(9)];
    assert.deepEqual(firstClashes(edits), [2, 3, 0, 1, 3]);
  });

  test('every edit of one line fails, each naming the first (the first naming the second)', () => {
    const edits = Array.from({ length: 1000 }, () => range(50, 51));
    const got = firstClashes(edits);
    assert.equal(got[0], 1);
    assert.ok(got.slice(1).every((p) => p === 0));
  });

  test('agrees with testing every pair on random edits, moves and whole-file edits', () => {
    const rnd = prng(17);
    for (let round = 0; round < 400; round++) {
      const k = 1 + Math.floor(rnd() * 14);
      const lines = 1 + Math.floor(rnd() * 12);
      const edits: Placed[] = Array.from({ length: k }, () => {
        const a = Math.floor(rnd() * (lines + 1));
        const b = rnd() < 0.3 ? a : Math.min(lines, a + Math.floor(rnd() * 4));
        const moveTo = rnd() < 0.1 ? (rnd() < 0.5 ? 'x' : 'y') : undefined;
        return { from: a, to: b, whole: rnd() < 0.04, ...(moveTo ? { moveTo } : {}) };
      });
      assert.deepEqual(firstClashes(edits), everyPair(edits), JSON.stringify(edits));
    }
  });

  // The work done, counted (no clock): testing every pair of 10,000 edits of one line is 50 million
  // tests; the bound here, 10 n log2 n, is 1.3 million.
  test('10,000 edits of one line cost a near-linear count of steps', () => {
    const n = 10_000;
    const same = (k: number) => Array.from({ length: k }, () => range(500, 501));
    assert.ok(steps(same(n)) < 10 * n * Math.log2(n), `${steps(same(n))} steps for ${n} edits`);
    assert.ok(steps(same(2 * n)) < 2.3 * steps(same(n)), 'twice the edits, about twice the steps');
  });

  test('chains of pairwise overlapping ranges, and points inside ranges, cost a near-linear count of steps', () => {
    const n = 10_000;
    // Edit k replaces lines k+1..k+2: each overlaps its neighbours only, and its first partner is far from the start of the list.
    const chain = (k: number) => Array.from({ length: k }, (_, i) => range(i, i + 2));
    const got = firstClashes(chain(n));
    assert.equal(got[0], 1);
    assert.ok(got.slice(1).every((p, i) => p === i), 'each later edit names the one before it');
    assert.ok(steps(chain(n)) < 10 * n * Math.log2(n), `${steps(chain(n))} steps`);
    assert.ok(steps(chain(2 * n)) < 2.3 * steps(chain(n)));
    // Disjoint ranges, then one insertion point inside each (in reverse order).
    const nested = (k: number) => [
      ...Array.from({ length: k }, (_, i) => range(3 * i, 3 * i + 2)),
      ...Array.from({ length: k }, (_, i) => point(3 * (k - 1 - i) + 1)),
    ];
    const pairs = firstClashes(nested(n));
    assert.equal(pairs[0], 2 * n - 1);
    assert.equal(pairs[n], n - 1);
    assert.ok(steps(nested(2 * n)) < 2.3 * steps(nested(n)));
    // Many moves to two paths, and a whole-file edit among many.
    const moves = (k: number) => Array.from({ length: k }, (_, i) => range(i, i + 1, i % 2 ? 'a' : 'b'));
    assert.ok(steps(moves(2 * n)) < 2.3 * steps(moves(n)));
    const wholes = (k: number) => Array.from({ length: k }, (_, i) => (i % 100 === 7 ? { from: 0, to: k, whole: true } : range(i, i + 1)));
    assert.ok(steps(wholes(2 * n)) < 2.3 * steps(wholes(n)));
  });
});
