// Positions in a reply (src/core/reply.ts): the binary search the readers
// share, and offsets to line and column.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { lastAtOrBelow, positioner } from '../../src/core/reply.ts';

describe('lastAtOrBelow', () => {
  it('is the index of the last value at or below x, 0 when none is', () => {
    const v = [0, 4, 4, 9];
    const at = (k: number) => v[k];
    const got = [-1, 0, 3, 4, 5, 9, 100].map((x) => lastAtOrBelow(v.length, x, at));
    assert.deepEqual(got, [0, 0, 0, 2, 2, 3, 3]);
    assert.equal(lastAtOrBelow(1, 7, () => 3), 0);
  });
});

describe('positioner', () => {
  it('gives 1-based line and column, counting LF as the line break', () => {
    const text = 'ab\ncd\r\n\nx';
    const pos = positioner(text);
    const got = [0, 2, 3, 5, 6, 7, 8, 9].map((o) => pos(o));
    assert.deepEqual(got, [
      { line: 1, column: 1 },
      { line: 1, column: 3 },
      { line: 2, column: 1 },
      { line: 2, column: 3 },
      { line: 2, column: 4 },
      { line: 3, column: 1 },
      { line: 4, column: 1 },
      { line: 4, column: 2 },
    ]);
  });
});
