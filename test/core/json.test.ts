// The positioned JSON reader the tool-call formats share (src/core/json.ts).

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { jsonValue, MAX_JSON_DEPTH, member, readJson, repeatedKey, type JsonNode, type JsonObject, type JsonString } from '../../src/core/json.ts';

function ok(text: string, start = 0, options = {}): { node: JsonNode; end: number } {
  const r = readJson(text, start, options);
  assert.ok(r.ok, `expected JSON in ${JSON.stringify(text)}: ${JSON.stringify(r)}`);
  return r;
}

function fails(text: string, options = {}) {
  const r = readJson(text, 0, options);
  assert.ok(!r.ok, `expected an error in ${JSON.stringify(text)}`);
  return r.error;
}

describe('readJson: values', () => {
  it('reads values as JSON.parse does, and where they end', () => {
    for (const src of [
      '{}',
      '[]',
      '{"a": [1, -2.5e3, true, false, null], "b": {"c": "d"}}',
      '"\\u00e9\\ud83d\\ude00\\n\\t\\\\\\/"',
      '0',
      '-0',
      '1E+2',
      '[ {"x" : 1 } ]',
    ]) {
      const r = ok(`xx${src} tail`, 2);
      assert.deepEqual(jsonValue(r.node), JSON.parse(src), src);
      assert.equal(r.end, 2 + src.length, src);
      assert.deepEqual([r.node.from, r.node.to], [2, 2 + src.length], src);
    }
  });

  it('records where each key and value is', () => {
    const r = ok('{"k": "a\\nb", "n": 12}');
    const [k, n] = (r.node as JsonObject).members;
    assert.deepEqual([k.key.from, k.key.to], [1, 4]);
    assert.deepEqual([k.value.from, k.value.to], [6, 12]);
    assert.deepEqual([n.value.from, n.value.to], [19, 21]);
  });

  it('does not read at or past the limit', () => {
    assert.equal(ok('[1, 2]', 0, { limit: 6 }).end, 6);
    const e = fails('{"a": 1}', { limit: 7 });
    assert.deepEqual([e.offset, e.expected, e.atEnd, e.found], [7, 'comma-or-brace', true, '']);
    assert.equal(ok('12345', 0, { limit: 3 }).end, 3);
    const cut = readJson('[12345]', 0, { limit: 4 });
    assert.ok(!cut.ok);
    assert.deepEqual([cut.error.offset, cut.error.atEnd], [4, true]);
  });
});

describe('readJson: string offsets', () => {
  it('maps every decoded unit to the reply offset of its character or escape', () => {
    const text = ' "a\\nb\\u0063"';
    const s = ok(text, 1).node as JsonString;
    assert.equal(s.value, 'a\nbc');
    assert.deepEqual(s.offsets, [2, 3, 5, 6, 12]);
    assert.deepEqual([s.from, s.to], [1, 13]);
  });

  it('maps each half of an escaped surrogate pair to its own \\u, and a raw astral character unit by unit', () => {
    const text = '"x\\ud83d\\ude00y😀z"';
    const s = ok(text).node as JsonString;
    assert.equal(s.value, 'x😀y😀z');
    // x at 1, \ud83d at 2, \ude00 at 8, y at 14, the raw pair at 15 and 16, z at 17, the quote at 18
    assert.deepEqual(s.offsets, [1, 2, 8, 14, 15, 16, 17, 18]);
    assert.equal(text.slice(s.offset(1), s.offset(2)), '\\ud83d');
  });

  it('decodes an escaped lone surrogate', () => {
    assert.equal((ok('"\\ud800"').node as JsonString).value, '\uD800');
  });

  it('clamps offsets outside the value to its ends', () => {
    const s = ok('"ab"').node as JsonString;
    assert.equal(s.offset(-1), 1);
    assert.equal(s.offset(99), 3);
  });

  it('refuses raw control characters by default and takes them literally when asked', () => {
    const e = fails('{"a": "x\ny"}');
    assert.deepEqual([e.offset, e.expected, e.found, e.stringAt], [8, 'control', '\n', 6]);
    assert.deepEqual(jsonValue(ok('{"a": "x\ny\tz"}', 0, { controls: 'literal' }).node), { a: 'x\ny\tz' });
  });
});

describe('readJson: errors', () => {
  it('gives the offset, what was expected, what was found, and the containers still open', () => {
    const cases: [string, number, string, string, number[]][] = [
      ['{"a" 1}', 5, 'colon', '1', [0]],
      ['{"a": 1 "b": 2}', 8, 'comma-or-brace', '"', [0]],
      ["{'a': 1}", 1, 'key-or-close', "'", [0]],
      ['{"a": 1,}', 8, 'key', '}', [0]],
      ['[1 2]', 3, 'comma-or-bracket', '2', [0]],
      ['{"a": tru}', 6, 'value', 't', [0]],
      ['"\\x"', 2, 'escape', 'x', []],
      ['"\\u12G4"', 3, 'hex', '12G4', []],
      ['{"a": [{"b": {}, "c": [1 2]}]}', 25, 'comma-or-bracket', '2', [0, 6, 7, 22]],
    ];
    for (const [text, offset, expected, found, open] of cases) {
      const e = fails(text);
      assert.deepEqual([e.offset, e.expected, e.found, e.atEnd, e.open], [offset, expected, found, false, open], text);
    }
  });

  it('says where an escape and its string start', () => {
    const e = fails('{"a": "b\\q"}');
    assert.deepEqual([e.offset, e.escapeAt, e.stringAt], [9, 8, 6]);
  });

  it('says the text ran out when a token is cut short', () => {
    const cases: [string, string][] = [
      ['{"a": "abc', 'quote'],
      ['{"a": "\\u00', 'hex'],
      ['{"a": "x\\', 'escape'],
      ['{"a": tr', 'word'],
      ['{"a": nul', 'word'],
      ['{"a": -', 'digit'],
      ['{"a": 1.', 'digit'],
      ['{"a": 2e', 'digit'],
      ['{"a": 2e+', 'digit'],
      ['{"a": ', 'value'],
      ['[1, 2', 'comma-or-bracket'],
    ];
    for (const [text, expected] of cases) {
      const e = fails(text);
      assert.deepEqual([e.offset, e.atEnd, e.expected, e.found], [text.length, true, expected, ''], text);
    }
  });

  it('does not call a wrong token at the end cut short', () => {
    for (const [text, at] of [['{"a": tx', 6], ['{"a": 1x', 7], ['{"a": "\\u00g', 9]] as const) {
      const e = fails(text);
      assert.deepEqual([e.offset, e.atEnd], [at, false], text);
    }
  });

  it(`refuses more than ${MAX_JSON_DEPTH} levels of nesting, at the bracket that opens one too many, without overflowing the stack`, () => {
    const e = fails('['.repeat(10_000));
    assert.deepEqual([e.expected, e.offset, e.open.length], ['depth', MAX_JSON_DEPTH, MAX_JSON_DEPTH]);
    const deepest = '['.repeat(MAX_JSON_DEPTH) + ']'.repeat(MAX_JSON_DEPTH);
    assert.equal(ok(deepest).end, deepest.length);
    assert.equal(fails('[' + deepest + ']').expected, 'depth');
    assert.equal(fails('{"a":'.repeat(MAX_JSON_DEPTH + 1)).expected, 'depth');
  });
});

describe('readJson: a key given twice', () => {
  it('keeps every member in order; member() gives the last, as JSON.parse does; repeatedKey() the second of the pair', () => {
    const r = ok('{"a": 1, "b": 0, "a": 2}');
    const obj = r.node as JsonObject;
    assert.deepEqual(
      obj.members.map((m) => [m.key.value, jsonValue(m.value)]),
      [['a', 1], ['b', 0], ['a', 2]],
    );
    assert.equal(jsonValue(member(obj, 'a')!), 2);
    assert.equal(member(obj, 'c'), undefined);
    assert.equal(member(ok('[1]').node, 'a'), undefined);
    const twice = repeatedKey(obj);
    assert.ok(twice);
    assert.equal(twice.key.from, 17);
    assert.equal(repeatedKey(ok('{"a": 1, "b": {"a": 2}}').node as JsonObject), undefined);
  });
});

describe('readJson: "arguments" holding JSON text', () => {
  it('reads "arguments" holding an object as that object, its offsets in the outer text', () => {
    const text = '{"arguments": "{\\"path\\": \\"a\\\\nb\\", \\"n\\": [1]}"}';
    const r = ok(text);
    assert.deepEqual(jsonValue(r.node), { arguments: { path: 'a\nb', n: [1] } });
    const args = (r.node as JsonObject).members[0].value as JsonObject;
    assert.equal(text.slice(args.from, args.from + 1), '{');
    const path = args.members[0];
    assert.equal(text.slice(path.key.from, path.key.to), '\\"path\\"');
    const value = path.value as JsonString;
    assert.equal(text.slice(value.offset(1), value.offset(2)), '\\\\n');
  });

  it('leaves a string that holds no whole JSON object a string, and reads other keys as strings', () => {
    for (const text of ['{"arguments": "{\\"path\\": "}', '{"arguments": "{} tail"}', '{"arguments": "[1]"}', '{"input": "{}"}']) {
      const r = ok(text);
      assert.equal((r.node as JsonObject).members[0].value.type, 'string', text);
    }
  });

  it('keeps the error of JSON text that does not read, placed in the outer text', () => {
    const text = '{"arguments": "{\\"a\\": 1 \\"b\\": 2}"}';
    const v = (ok(text).node as JsonObject).members[0].value as JsonString;
    assert.ok(v.held);
    assert.equal(v.held.expected, 'comma-or-brace');
    assert.equal(text.slice(v.held.offset, v.held.offset + 2), '\\"');
    assert.equal(v.held.atEnd, false);
    assert.equal(((ok('{"arguments": "{} tail"}').node as JsonObject).members[0].value as JsonString).held, undefined);
    const cut = ((ok('{"arguments": "{\\"a\\": "}').node as JsonObject).members[0].value as JsonString).held;
    assert.ok(cut);
    assert.equal(cut.atEnd, true);
  });

  it('reads the held text with the same control-character rule', () => {
    // `\n` in the outer string: a raw line break in the held text's string
    const text = '{"arguments": "{\\"a\\": \\"x\\ny\\"}"}';
    assert.equal(((ok(text).node as JsonObject).members[0].value as JsonString).held?.expected, 'control');
    assert.equal(((ok(text, 0, { controls: 'literal' }).node as JsonObject).members[0].value as JsonObject).type, 'object');
  });
});
