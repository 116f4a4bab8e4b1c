import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { plain, readJson, type JsonNode } from '../../../src/formats/hashline/json.ts';

function ok(text: string, start = 0, limit = text.length): { node: JsonNode; end: number } {
  const r = readJson(text, start, limit);
  assert.ok(r.ok, `expected JSON in ${JSON.stringify(text)}: ${JSON.stringify(r)}`);
  return r;
}

describe('readJson', () => {
  it('reads values like JSON.parse', () => {
    for (const text of ['{}', '[]', '{"a":1,"b":[true,false,null],"c":{"d":"e"}}', '[1,-2.5e3,0,"x"]', '"\\u00e9\\n\\t\\"\\\\\\/"', '-0', '1E+2']) {
      assert.deepEqual(plain(ok(text).node), JSON.parse(text), text);
    }
  });

  it('reads one value starting at an offset and stops after it', () => {
    const text = 'say {"a": [1, 2]} and more }';
    const r = ok(text, 4);
    assert.equal(r.end, 17);
    assert.equal(r.node.from, 4);
    assert.equal(r.node.to, 17);
  });

  it('records where each key, value and string unit is', () => {
    const text = '{"k": "a\\nb", "n": 12}';
    const r = ok(text);
    assert.equal(r.node.type, 'object');
    if (r.node.type !== 'object') return;
    const [k, n] = r.node.entries;
    assert.equal(k.keyNode.from, 1);
    assert.equal(k.keyNode.to, 4);
    assert.equal(k.value.type, 'string');
    if (k.value.type !== 'string') return;
    assert.equal(k.value.value, 'a\nb');
    // a at 7, the escape \n at 8, b at 10, closing quote at 11
    assert.deepEqual(k.value.offsets, [7, 8, 10, 11]);
    assert.deepEqual([n.value.from, n.value.to], [19, 21]);
  });

  it('takes raw control characters in strings literally', () => {
    assert.deepEqual(plain(ok('{"a": "x\ny\tz"}').node), { a: 'x\ny\tz' });
  });

  it('decodes escaped lone surrogates', () => {
    assert.equal(plain(ok('"\\ud800"').node), '\uD800');
  });

  it('reports the first error: offset, what was expected, and whether the text ran out', () => {
    assert.deepEqual(readJson('{"a" 1}', 0), { ok: false, at: 5, expected: '`:` after the key', eof: false, open: [0] });
    assert.deepEqual(readJson('{"a": 1 "b": 2}', 0), { ok: false, at: 8, expected: '`,` or `}` after the value', eof: false, open: [0] });
    assert.deepEqual(readJson("{'a': 1}", 0), { ok: false, at: 1, expected: 'a key in double quotes or `}`', eof: false, open: [0] });
    assert.deepEqual(readJson('{"a": 1,}', 0), { ok: false, at: 8, expected: 'a key in double quotes', eof: false, open: [0] });
    assert.deepEqual(readJson('[1, 2', 0), { ok: false, at: 5, expected: '`,` or `]` after the value', eof: true, open: [0] });
    assert.deepEqual(readJson('{"a": tru}', 0), { ok: false, at: 6, expected: 'a value', eof: false, open: [0] });
    assert.deepEqual(readJson('"\\x"', 0), { ok: false, at: 2, expected: 'one of `"`, `\\`, `/`, `b`, `f`, `n`, `r`, `t`, `u` after `\\`', eof: false, open: [] });
    assert.deepEqual(readJson('"\\u12G4"', 0), { ok: false, at: 3, expected: 'four hexadecimal digits after `\\u`', eof: false, open: [] });
    assert.deepEqual(readJson('{"a": [{"b": {}, "c": [1 2]}]}', 0), { ok: false, at: 25, expected: '`,` or `]` after the value', eof: false, open: [0, 6, 7, 22] });
    const r = readJson('{"a": "abc', 0);
    assert.equal(r.ok, false);
    if (!r.ok) {
      assert.equal(r.at, 10);
      assert.equal(r.eof, true);
      assert.equal(r.expected, 'a closing `"` for the string that starts at line 1, column 7');
    }
  });

  it('does not read past the limit', () => {
    const text = '{"a": 1}';
    assert.deepEqual(readJson(text, 0, 7), { ok: false, at: 7, expected: '`,` or `}` after the value', eof: true, open: [0] });
  });

  it('refuses deep nesting without throwing', () => {
    const r = readJson('['.repeat(10_000), 0);
    assert.equal(r.ok, false);
    if (!r.ok) assert.equal(r.expected, 'at most 64 levels of nesting');
  });
});

describe('readJson at the end of the text', () => {
  it('says the text ran out when a token is cut short', () => {
    for (const text of ['{"a": "\\u00', '{"a": tr', '{"a": nul', '{"a": -', '{"a": 1.', '{"a": 2e', '{"a": 2e+', '{"a": "x\\']) {
      const r = readJson(text, 0);
      assert.equal(r.ok, false, text);
      if (!r.ok) assert.deepEqual([r.at, r.eof], [text.length, true], text);
    }
  });

  it('does not call a wrong token at the end truncated', () => {
    for (const [text, at] of [['{"a": tx', 6], ['{"a": 1x', 7], ['{"a": "\\u00g', 9]] as const) {
      const r = readJson(text, 0);
      assert.equal(r.ok, false, text);
      if (!r.ok) assert.deepEqual([r.at, r.eof], [at, false], text);
    }
  });
});

describe('readJson: arguments as JSON text', () => {
  it('reads "arguments" holding an object as that object, its offsets in the outer text', () => {
    const text = '{"arguments": "{\\"path\\": \\"a\\\\nb\\", \\"n\\": [1]}"}';
    const r = readJson(text, 0);
    assert.ok(r.ok);
    assert.deepEqual(plain(r.node), { arguments: { path: 'a\nb', n: [1] } });
    const args = (r.node as Extract<JsonNode, { type: 'object' }>).entries[0].value as Extract<JsonNode, { type: 'object' }>;
    assert.equal(text.slice(args.from, args.from + 1), '{');
    const path = args.entries[0];
    assert.equal(text.slice(path.keyNode.from, path.keyNode.to), '\\"path\\"');
    const value = path.value as Extract<JsonNode, { type: 'string' }>;
    assert.equal(text.slice(value.offsetAt(1)!, value.offsetAt(2)!), '\\\\n');
  });

  it('leaves a string that holds no whole JSON object a string, and reads other keys as strings', () => {
    for (const text of ['{"arguments": "{\\"path\\": "}', '{"arguments": "{} tail"}', '{"arguments": "[1]"}', '{"input": "{}"}']) {
      const r = readJson(text, 0);
      assert.ok(r.ok, text);
      assert.equal((r.node as Extract<JsonNode, { type: 'object' }>).entries[0].value.type, 'string', text);
    }
  });
});
