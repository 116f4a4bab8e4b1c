// The engine worker's LineReader reads a file's lines as parseText does
// (a BOM left out, a CR before an LF dropped, a last line without an LF kept
// as it is), for any range asked, in any order.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { LineReader } from '../../src/worker/engine.ts';
import { parseText } from '../../src/core/text.ts';

const piece = fc.constantFrom('a', 'bc', ' ', '\t', '\n', '\r\n', '\r', '\uFEFF', 'é', '│', '');
const text = fc.array(piece, { maxLength: 40 }).map((parts) => parts.join(''));

test('LineReader gives the lines parseText gives, for every range', () => {
  fc.assert(
    fc.property(text, fc.array(fc.tuple(fc.integer({ min: 0, max: 25 }), fc.integer({ min: 0, max: 25 })), { maxLength: 6 }), (t, ranges) => {
      const lines = parseText(t).lines;
      const reader = new LineReader(t);
      for (const [a, b] of ranges) {
        const start = Math.min(a, b);
        const end = Math.max(a, b);
        assert.deepEqual(reader.lines(start, end), lines.slice(Math.max(0, start - 1), end), JSON.stringify({ t, start, end }));
      }
    }),
    { numRuns: 2000 },
  );
});

test('LineReader: the edges', () => {
  for (const t of ['', '\n', 'a', 'a\n', 'a\r\n', 'a\r', '\uFEFFa\nb', '\r\n\r\n', 'x\n\ny']) {
    const lines = parseText(t).lines;
    const reader = new LineReader(t);
    assert.deepEqual(reader.lines(1, lines.length + 2), lines, JSON.stringify(t));
  }
});
