// A strict JSON reader (RFC 8259) that keeps where every value is in the
// text it was read from, so that each edit and each error can point into the
// reply, and each decoded string knows where its characters came from.

import { readHeldJson } from '../../core/held-json.ts';
import { lastAtOrBelow } from '../../core/reply.ts';

export interface JsonString {
  type: 'string';
  from: number;
  to: number;
  value: string;
  /** `offset(i)`: offset in the text of the escape or character that produced `value[i]`; `offset(value.length)` is the closing quote. */
  offset(i: number): number;
  /** Every `offset(i)`, from 0 to `value.length`, as an array: built when read (a 10 MB string makes it big). */
  readonly map: number[];
}

const SIMPLE_ESCAPES: Record<string, string> = { '"': '"', '\\': '\\', '/': '/', b: '\b', f: '\f', n: '\n', r: '\r', t: '\t' };

/**
 * Where each character of a decoded string came from, kept as runs: from
 * value index `v[k]` on, value index `i` came from text offset
 * `t[k] + (i - v[k])` (a run of plain characters, or one escape). A 10 MB
 * string with few escapes is a few entries, not ten million.
 */
function offsets(v: number[], t: number[]): (i: number) => number {
  return (i: number) => {
    const k = lastAtOrBelow(v.length, i, (j) => v[j]);
    return t[k] + (i - v[k]);
  };
}

export interface JsonMember {
  key: JsonString;
  value: JsonNode;
}

export type JsonNode =
  | { type: 'object'; from: number; to: number; members: JsonMember[] }
  | { type: 'array'; from: number; to: number; items: JsonNode[] }
  | JsonString
  | { type: 'number'; from: number; to: number; value: number; raw: string }
  | { type: 'literal'; from: number; to: number; value: boolean | null };

export interface JsonError {
  /** Offset of the first character that could not be read. */
  offset: number;
  message: string;
  /** The text ended before the value did. */
  atEnd: boolean;
}

export type JsonResult = { ok: true; node: JsonNode; end: number } | { ok: false; error: JsonError };

const MAX_DEPTH = 256;

class Fail {
  constructor(readonly error: JsonError) {}
}

const describe = (text: string, at: number) =>
  at >= text.length ? 'the end of the text' : JSON.stringify(text.slice(at, at + 1));

function stringNode(from: number, to: number, value: string, offset: (i: number) => number): JsonString {
  return {
    type: 'string',
    from,
    to,
    value,
    offset,
    get map() {
      return Array.from({ length: value.length + 1 }, (_, i) => offset(i));
    },
  };
}

/** A node read from a string's decoded text, its offsets mapped into the text around it by `at`. */
function remap(node: JsonNode, at: (i: number) => number): JsonNode {
  const from = at(node.from);
  const to = at(node.to);
  switch (node.type) {
    case 'object':
      return { ...node, from, to, members: node.members.map((m) => ({ key: remap(m.key, at) as JsonString, value: remap(m.value, at) })) };
    case 'array':
      return { ...node, from, to, items: node.items.map((item) => remap(item, at)) };
    case 'string': {
      const inner = node.offset;
      return stringNode(from, to, node.value, (i) => at(inner(i)));
    }
    default:
      return { ...node, from, to };
  }
}

/**
 * A member's string value, or the JSON it holds (`"arguments":
 * "{\"path\": …}"`, OpenAI's tool-call shape; see core/held-json.ts), read
 * with this reader and placed in the reply through the string's escapes.
 * Text that is not one whole JSON value stays a string.
 */
function held(key: string, v: JsonString): JsonNode {
  const r = readHeldJson(key, v.value, parseJsonAt, (x) => (x.ok ? x : null), (n) => remap(n, v.offset));
  return r !== null && 'node' in r ? r.node : v;
}

/**
 * Why a member's string does not hold a JSON value that this reader reads,
 * in the text of the string's decoded value (offset from 0 in it), or null
 * when it holds none at all (not `"arguments"`, or not starting with `{`).
 */
export function heldJsonError(key: string, v: JsonString): { error: JsonError; offset: number } | null {
  const r = readHeldJson(key, v.value, parseJsonAt, (x) => (x.ok ? x : null), (n) => n);
  if (r === null || !('failed' in r) || r.failed.ok) return null;
  return { error: r.failed.error, offset: v.offset(Math.min(r.failed.error.offset, v.value.length)) };
}

/**
 * Read one JSON value starting exactly at `start` (no leading whitespace
 * skipped). A member `"arguments"` whose string holds a JSON object (OpenAI's
 * tool-call shape) is read as that object, its offsets in the text read.
 */
export function parseJsonAt(text: string, start: number): JsonResult {
  let pos = start;
  let depth = 0;

  const fail = (message: string, at = pos): never => {
    throw new Fail({ offset: at, message, atEnd: at >= text.length });
  };
  const expected = (what: string): never => fail(`expected ${what}, found ${describe(text, pos)}`);

  const ws = () => {
    for (;;) {
      const c = text.charCodeAt(pos);
      if (c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d) pos++;
      else return;
    }
  };

  const string = (): JsonString => {
    const from = pos;
    pos++; // opening quote
    // The value is built from runs of plain characters (sliced, not added one by one).
    const parts: string[] = [];
    let length = 0;
    const v: number[] = [];
    const t: number[] = [];
    const mark = (textOffset: number) => {
      v.push(length);
      t.push(textOffset);
    };
    for (;;) {
      const run = pos;
      let c = text.charCodeAt(pos);
      while (pos < text.length && c !== 0x22 && c !== 0x5c && c >= 0x20) c = text.charCodeAt(++pos);
      if (pos > run) {
        mark(run);
        parts.push(text.slice(run, pos));
        length += pos - run;
      }
      if (pos >= text.length) fail('the string is not closed: expected `"`');
      if (c === 0x22) {
        mark(pos);
        pos++;
        return stringNode(from, pos, parts.join(''), offsets(v, t));
      }
      if (c === 0x5c) {
        const escape = pos;
        const e = text[pos + 1];
        if (e === undefined) fail('the string is not closed: expected `"`', pos + 1);
        if (Object.hasOwn(SIMPLE_ESCAPES, e)) {
          mark(escape);
          parts.push(SIMPLE_ESCAPES[e]);
          length++;
          pos += 2;
          continue;
        }
        if (e === 'u') {
          const hex = text.slice(pos + 2, pos + 6);
          if (!/^[0-9a-fA-F]{4}$/.test(hex)) {
            if (pos + 2 + hex.length >= text.length && /^[0-9a-fA-F]*$/.test(hex)) fail('the string is not closed: expected `"`', text.length);
            fail(`expected four hexadecimal digits after \\u, found ${JSON.stringify(hex)}`, pos + 2);
          }
          mark(escape);
          parts.push(String.fromCharCode(parseInt(hex, 16)));
          length++;
          pos += 6;
          continue;
        }
        fail(`invalid escape \\${e} in a string; the escapes are \\" \\\\ \\/ \\b \\f \\n \\r \\t and \\uXXXX`, pos);
      }
      const what = c === 0x0a ? 'a raw line break' : c === 0x09 ? 'a raw tab' : c === 0x0d ? 'a raw carriage return' : `the control character U+${c.toString(16).toUpperCase().padStart(4, '0')}`;
      const fix = c === 0x0a ? '\\n' : c === 0x09 ? '\\t' : c === 0x0d ? '\\r' : `\\u${c.toString(16).padStart(4, '0')}`;
      fail(`${what} inside a string; write it as ${fix}`);
    }
  };

  const number = (): JsonNode => {
    const from = pos;
    const m = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
    m.lastIndex = pos;
    const r = m.exec(text);
    if (!r || r[0] === '-' || r[0] === '') expected('a value');
    pos += r![0].length;
    return { type: 'number', from, to: pos, value: Number(r![0]), raw: r![0] };
  };

  const value = (): JsonNode => {
    const c = text[pos];
    if (c === '{') return object();
    if (c === '[') return array();
    if (c === '"') return string();
    if (c === '-' || (c !== undefined && c >= '0' && c <= '9')) return number();
    for (const [word, v] of [
      ['true', true],
      ['false', false],
      ['null', null],
    ] as const) {
      if (text.startsWith(word, pos)) {
        const from = pos;
        pos += word.length;
        return { type: 'literal', from, to: pos, value: v };
      }
      const rest = text.slice(pos, pos + word.length);
      if (rest.length > 0 && rest.length < word.length && pos + rest.length === text.length && word.startsWith(rest))
        fail('the text ends inside a value', text.length);
    }
    return expected('a value');
  };

  const enter = () => {
    if (++depth > MAX_DEPTH) fail('the value is nested too deeply');
  };

  const object = (): JsonNode => {
    const from = pos;
    enter();
    pos++;
    const members: JsonMember[] = [];
    ws();
    if (text[pos] === '}') {
      pos++;
      depth--;
      return { type: 'object', from, to: pos, members };
    }
    for (;;) {
      ws();
      if (text[pos] !== '"') expected(members.length ? 'a member name in double quotes' : 'a member name in double quotes or "}"');
      const key = string();
      ws();
      if (text[pos] !== ':') expected('":" after the member name');
      pos++;
      ws();
      const v = value();
      members.push({ key: key as JsonString, value: v.type === 'string' ? held(key.value, v) : v });
      ws();
      if (text[pos] === ',') {
        pos++;
        continue;
      }
      if (text[pos] === '}') {
        pos++;
        depth--;
        return { type: 'object', from, to: pos, members };
      }
      expected('"," or "}" after a member');
    }
  };

  const array = (): JsonNode => {
    const from = pos;
    enter();
    pos++;
    const items: JsonNode[] = [];
    ws();
    if (text[pos] === ']') {
      pos++;
      depth--;
      return { type: 'array', from, to: pos, items };
    }
    for (;;) {
      ws();
      items.push(value());
      ws();
      if (text[pos] === ',') {
        pos++;
        continue;
      }
      if (text[pos] === ']') {
        pos++;
        depth--;
        return { type: 'array', from, to: pos, items };
      }
      expected('"," or "]" after an element');
    }
  };

  try {
    const node = value();
    return { ok: true, node, end: pos };
  } catch (e) {
    if (e instanceof Fail) return { ok: false, error: e.error };
    throw e;
  }
}

/**
 * The end (exclusive) of the bracketed stretch that starts at `start` (a `{`
 * or `[`), skipping double-quoted strings; null when the text ends first.
 */
export function matchBracket(text: string, start: number): number | null {
  let depth = 0;
  let inString = false;
  for (let i = start; i < text.length; i++) {
    const c = text[i];
    if (inString) {
      if (c === '\\') i++;
      else if (c === '"') inString = false;
      continue;
    }
    if (c === '"') inString = true;
    else if (c === '{' || c === '[') depth++;
    else if (c === '}' || c === ']') {
      if (--depth === 0) return i + 1;
    }
  }
  return null;
}

/** The member `name` of an object node (the last one, as JSON.parse does), or undefined. */
export function member(node: JsonNode, name: string): JsonNode | undefined {
  if (node.type !== 'object') return undefined;
  for (let i = node.members.length - 1; i >= 0; i--) if (node.members[i].key.value === name) return node.members[i].value;
  return undefined;
}
