// Hashline's words for the JSON reader's errors (what was expected).

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { readJson, type JsonError } from '../../../src/core/json.ts';
import { expectedWords } from '../../../src/formats/hashline/json.ts';

const where = (offset: number) => `offset ${offset}`;

function error(text: string, limit = text.length): JsonError {
  const r = readJson(text, 0, { limit, controls: 'literal' });
  assert.ok(!r.ok, text);
  return r.error;
}

describe('expectedWords', () => {
  it('reports the first error: offset, what was expected, and whether the text ran out', () => {
    const cases: [string, number, string, boolean, number[]][] = [
      ['{"a" 1}', 5, '`:` after the key', false, [0]],
      ['{"a": 1 "b": 2}', 8, '`,` or `}` after the value', false, [0]],
      ["{'a': 1}", 1, 'a key in double quotes or `}`', false, [0]],
      ['{"a": 1,}', 8, 'a key in double quotes', false, [0]],
      ['[1, 2', 5, '`,` or `]` after the value', true, [0]],
      ['{"a": tru}', 6, 'a value', false, [0]],
      ['"\\x"', 2, 'one of `"`, `\\`, `/`, `b`, `f`, `n`, `r`, `t`, `u` after `\\`', false, []],
      ['"\\u12G4"', 3, 'four hexadecimal digits after `\\u`', false, []],
      ['{"a": [{"b": {}, "c": [1 2]}]}', 25, '`,` or `]` after the value', false, [0, 6, 7, 22]],
      ['{"a": tr', 8, 'a value', true, [0]],
      ['{"a": 1.', 8, 'a digit', true, [0]],
      ['{"a": "x\\', 9, 'an escape character after `\\`', true, [0]],
    ];
    for (const [text, at, expected, eof, open] of cases) {
      const e = error(text);
      assert.deepEqual({ at: e.offset, expected: expectedWords(e, where), eof: e.atEnd, open: e.open }, { at, expected, eof, open }, text);
    }
    const e = error('{"a": "abc');
    assert.deepEqual([e.offset, e.atEnd], [10, true]);
    assert.equal(expectedWords(e, where), 'a closing `"` for the string that starts at offset 6');
  });

  it('does not read past the limit', () => {
    const e = error('{"a": 1}', 7);
    assert.deepEqual({ at: e.offset, expected: expectedWords(e, where), eof: e.atEnd, open: e.open }, { at: 7, expected: '`,` or `}` after the value', eof: true, open: [0] });
  });

  it('refuses deep nesting without throwing', () => {
    assert.equal(expectedWords(error('['.repeat(10_000)), where), 'at most 256 levels of nesting');
  });
});
