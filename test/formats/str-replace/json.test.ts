// The positional JSON reader behind the str-replace parser.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { matchBracket, member, parseJsonAt, type JsonNode } from '../../../src/formats/str-replace/json.ts';

/** JSON.parse's value of a node, to compare with the reader's. */
function plain(n: JsonNode): unknown {
  switch (n.type) {
    case 'object':
      return Object.fromEntries(n.members.map((m) => [m.key.value, plain(m.value)]));
    case 'array':
      return n.items.map(plain);
    default:
      return n.value;
  }
}

describe('parseJsonAt', () => {
  it('reads values as JSON.parse does, and where they end', () => {
    for (const src of ['{}', '[]', '{"a": [1, -2.5e3, true, false, null], "b": {"c": "d"}}', '"\\u00e9\\ud83d\\ude00\\n\\t\\\\\\/"', '0', '[ {"x" : 1 } ]']) {
      const r = parseJsonAt(`xx${src} tail`, 2);
      assert.ok(r.ok, src);
      assert.deepEqual(plain(r.node), JSON.parse(src), src);
      assert.equal(r.end, 2 + src.length, src);
    }
  });

  it('maps every decoded character of a string to where it came from', () => {
    const text = ' "a\\nb\\u0063"';
    const r = parseJsonAt(text, 1);
    assert.ok(r.ok && r.node.type === 'string');
    assert.equal(r.node.value, 'a\nbc');
    assert.deepEqual(r.node.map, [2, 3, 5, 6, 12]);
    assert.equal(r.node.from, 1);
    assert.equal(r.node.to, 13);
  });

  it('keeps the last of repeated members, as JSON.parse does', () => {
    const r = parseJsonAt('{"a": 1, "a": 2}', 0);
    assert.ok(r.ok);
    const a = member(r.node, 'a');
    assert.ok(a && a.type === 'number');
    assert.equal(a.value, 2);
    assert.equal(member(r.node, 'b'), undefined);
  });

  it('reports where and why invalid JSON fails', () => {
    const cases: [string, number, string, boolean][] = [
      ['{"a": "x\ny"}', 8, 'a raw line break inside a string; write it as \\n', false],
      ['{"a": "x\ty"}', 8, 'a raw tab inside a string; write it as \\t', false],
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
    ];
    for (const [src, offset, message, atEnd] of cases) {
      const r = parseJsonAt(src, 0);
      assert.ok(!r.ok, src);
      assert.deepEqual(r.error, { offset, message, atEnd }, src);
    }
  });

  it('refuses nesting deeper than 256 levels without overflowing the stack', () => {
    const r = parseJsonAt('['.repeat(10000), 0);
    assert.ok(!r.ok);
    assert.equal(r.error.message, 'the value is nested too deeply');
  });
});

describe('matchBracket', () => {
  it('finds the matching bracket, skipping strings', () => {
    assert.equal(matchBracket('{"a": "}]", "b": [1, {}]} x', 0), 25);
    assert.equal(matchBracket('x{"a": "\\"}"}', 1), 13);
    assert.equal(matchBracket('{"a": [', 0), null);
  });
});
