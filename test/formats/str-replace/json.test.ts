// str-replace's words for the JSON reader's errors, and its bracket scan.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { readJson } from '../../../src/core/json.ts';
import { jsonErrorAt, jsonMessage, matchBracket } from '../../../src/formats/str-replace/json.ts';

describe('jsonMessage', () => {
  it('reports where and why invalid JSON fails', () => {
    const cases: [string, number, string, boolean][] = [
      ['{"a": "x\ny"}', 8, 'a raw line break inside a string; write it as \\n', false],
      ['{"a": "x\ty"}', 8, 'a raw tab inside a string; write it as \\t', false],
      ['{"a": "x\ry"}', 8, 'a raw carriage return inside a string; write it as \\r', false],
      ['{"a": "x\u0001y"}', 8, 'the control character U+0001 inside a string; write it as \\u0001', false],
      ["{'a': 1}", 1, 'expected a member name in double quotes or "}", found "\'"', false],
      ['{"a": 1,}', 8, 'expected a member name in double quotes, found "}"', false],
      ['{"a" 1}', 5, 'expected ":" after the member name, found "1"', false],
      ['{"a": 1 "b": 2}', 8, 'expected "," or "}" after a member, found "\\""', false],
      ['[1 2]', 3, 'expected "," or "]" after an element, found "2"', false],
      ['{"a": tru}', 6, 'expected a value, found "t"', false],
      ['{"a": "\\x"}', 7, 'invalid escape \\x in a string; the escapes are \\" \\\\ \\/ \\b \\f \\n \\r \\t and \\uXXXX', false],
      ['{"a": "\\u12G4"}', 9, 'expected four hexadecimal digits after \\u, found "12G4"', false],
      ['{"a": "xy', 9, 'the string is not closed: expected `"`', true],
      ['{"a": [1, 2', 11, 'expected "," or "]" after an element, found the end of the text', true],
      ['{"a": tr', 8, 'the text ends inside a value', true],
      ['{"a": "\\u00', 11, 'the string is not closed: expected `"`', true],
      ['{"a": "x\\', 9, 'the string is not closed: expected `"`', true],
    ];
    for (const [src, offset, message, atEnd] of cases) {
      const r = readJson(src, 0);
      assert.ok(!r.ok, src);
      assert.deepEqual({ offset: jsonErrorAt(r.error), message: jsonMessage(r.error), atEnd: r.error.atEnd }, { offset, message, atEnd }, src);
    }
  });

  it('refuses nesting deeper than 256 levels without overflowing the stack', () => {
    const r = readJson('['.repeat(10000), 0);
    assert.ok(!r.ok);
    assert.equal(jsonMessage(r.error), 'the value is nested too deeply');
  });
});

describe('matchBracket', () => {
  it('finds the matching bracket, skipping strings', () => {
    assert.equal(matchBracket('{"a": "}]", "b": [1, {}]} x', 0), 25);
    assert.equal(matchBracket('x{"a": "\\"}"}', 1), 13);
    assert.equal(matchBracket('{"a": [', 0), null);
  });
});
