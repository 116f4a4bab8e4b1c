// A JSON reader that remembers where everything is, so that every edit and
// every error can point into the reply. It reads RFC 8259 JSON with one
// leniency: raw control characters (a real line break or tab) inside a string
// are taken literally, as models often write them. It never throws.

import { readHeldJson } from '../../core/held-json.ts';
import { lastAtOrBelow } from '../../core/reply.ts';

export type JsonNode =
  | { type: 'object'; from: number; to: number; entries: JsonEntry[] }
  | { type: 'array'; from: number; to: number; items: JsonNode[] }
  | {
      type: 'string';
      from: number;
      to: number;
      value: string;
      /** Reply offset of UTF-16 unit `i` of `value` (`i === value.length`: the closing quote); undefined outside. */
      offsetAt(i: number): number | undefined;
      /** Every `offsetAt(i)` as an array: built when read (a 10 MB string makes it big). */
      readonly offsets: number[];
    }
  | { type: 'number'; from: number; to: number; value: number }
  | { type: 'boolean'; from: number; to: number; value: boolean }
  | { type: 'null'; from: number; to: number };

export interface JsonEntry {
  key: string;
  keyNode: Extract<JsonNode, { type: 'string' }>;
  value: JsonNode;
}

export type JsonResult =
  | { ok: true; node: JsonNode; end: number }
  | {
      ok: false;
      /** Offset of the offending character (`limit` when the text ran out). */
      at: number;
      /** What was expected there, for the message. */
      expected: string;
      /** The text ran out before the value was complete. */
      eof: boolean;
      /** Start offsets of the objects and arrays still open at the error, outermost first. */
      open: number[];
    };

const MAX_DEPTH = 64;

class Failure {
  constructor(
    readonly at: number,
    readonly expected: string,
    readonly eof: boolean,
  ) {}
}

const ESCAPES: Record<string, string> = { '"': '"', '\\': '\\', '/': '/', b: '\b', f: '\f', n: '\n', r: '\r', t: '\t' };

type StringNode = Extract<JsonNode, { type: 'string' }>;

/** One read: the text, where it is, and the containers still open. */
class Reader {
  pos: number;
  readonly open: number[] = [];
  constructor(
    readonly text: string,
    start: number,
    readonly limit: number,
  ) {
    this.pos = start;
  }

  fail(expected: string): never {
    throw new Failure(this.pos, expected, this.pos >= this.limit);
  }

  blanks(): void {
    const { text, limit } = this;
    while (this.pos < limit) {
      const c = text.charCodeAt(this.pos);
      if (c === 32 || c === 9 || c === 10 || c === 13) this.pos++;
      else break;
    }
  }

  string(): StringNode {
    const { text, limit } = this;
    const from = this.pos;
    this.pos++; // opening quote
    // Runs of plain characters are sliced, not added one by one; where each
    // unit came from is kept as runs too: from value index v[k] on, index i
    // came from offset t[k] + (i - v[k]).
    const parts: string[] = [];
    let length = 0;
    const v: number[] = [];
    const t: number[] = [];
    const mark = (offset: number) => {
      v.push(length);
      t.push(offset);
    };
    while (true) {
      const run = this.pos;
      while (this.pos < limit) {
        const c = text.charCodeAt(this.pos);
        if (c === 0x22 || c === 0x5c) break;
        this.pos++;
      }
      if (this.pos > run) {
        mark(run);
        parts.push(text.slice(run, this.pos));
        length += this.pos - run;
      }
      if (this.pos >= limit) this.fail('a closing `"` for the string that starts at ' + describeOffset(text, from));
      const c = text[this.pos];
      if (c === '"') {
        mark(this.pos);
        this.pos++;
        const value = parts.join('');
        return stringNode(from, this.pos, value, (i: number): number | undefined => {
          if (!(i >= 0 && i <= value.length)) return undefined;
          const k = lastAtOrBelow(v.length, i, (j) => v[j]);
          return t[k] + (i - v[k]);
        });
      }
      // c === '\\'
      const escFrom = this.pos;
      if (this.pos + 1 >= limit) {
        this.pos++;
        this.fail('an escape character after `\\`');
      }
      const e = text[this.pos + 1];
      if (Object.hasOwn(ESCAPES, e)) {
        mark(escFrom);
        parts.push(ESCAPES[e]);
        length++;
        this.pos += 2;
        continue;
      }
      if (e === 'u') {
        const hex = text.slice(this.pos + 2, Math.min(this.pos + 6, limit));
        if (!/^[0-9A-Fa-f]{4}$/.test(hex)) {
          // Hex digits cut off by the end of the text: it ran out.
          this.pos = hex.length < 4 && /^[0-9A-Fa-f]*$/.test(hex) ? limit : this.pos + 2;
          this.fail('four hexadecimal digits after `\\u`');
        }
        mark(escFrom);
        parts.push(String.fromCharCode(parseInt(hex, 16)));
        length++;
        this.pos += 6;
        continue;
      }
      this.pos++;
      this.fail('one of `"`, `\\`, `/`, `b`, `f`, `n`, `r`, `t`, `u` after `\\`');
    }
  }

  number(): JsonNode {
    const { text, limit } = this;
    const pos = this.pos;
    const m = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/.exec(text.slice(pos, Math.min(limit, pos + 400)));
    const after = pos + (m ? m[0].length : 0);
    const rest = limit - after <= 3 ? text.slice(after, limit) : null;
    // A number cut off by the end of the text (`-`, `1.`, `2e+`): it ran out.
    if (rest !== null && ((!m && rest === '-') || (m && rest !== '' && /^(?:\.|[eE][+-]?)$/.test(rest)))) {
      this.pos = limit;
      this.fail('a digit');
    }
    if (!m) return this.fail('a value');
    this.pos = after;
    return { type: 'number', from: pos, to: after, value: Number(m[0]) };
  }

  word(w: 'true' | 'false' | 'null'): JsonNode {
    const { text, limit } = this;
    const from = this.pos;
    if (text.startsWith(w, from) && from + w.length <= limit) {
      this.pos += w.length;
      const to = this.pos;
      return w === 'null' ? { type: 'null', from, to } : { type: 'boolean', from, to, value: w === 'true' };
    }
    // A word cut off by the end of the text: it ran out.
    if (limit - from < w.length && w.startsWith(text.slice(from, limit))) this.pos = limit;
    return this.fail('a value');
  }

  value(depth: number): JsonNode {
    if (depth > MAX_DEPTH) this.fail(`at most ${MAX_DEPTH} levels of nesting`);
    this.blanks();
    if (this.pos >= this.limit) this.fail('a value');
    const c = this.text[this.pos];
    if (c === '{') return this.object(depth);
    if (c === '[') return this.array(depth);
    if (c === '"') return this.string();
    if (c === 't') return this.word('true');
    if (c === 'f') return this.word('false');
    if (c === 'n') return this.word('null');
    if (c === '-' || (c >= '0' && c <= '9')) return this.number();
    return this.fail('a value');
  }

  /** The next character, or '' at the limit. */
  peek(): string {
    return this.pos < this.limit ? this.text[this.pos] : '';
  }

  object(depth: number): JsonNode {
    const from = this.pos;
    this.open.push(from);
    this.pos++;
    const entries: JsonEntry[] = [];
    this.blanks();
    if (this.peek() === '}') {
      this.pos++;
      this.open.pop();
      return { type: 'object', from, to: this.pos, entries };
    }
    while (true) {
      this.blanks();
      if (this.peek() !== '"') this.fail(entries.length ? 'a key in double quotes' : 'a key in double quotes or `}`');
      const keyNode = this.string();
      this.blanks();
      if (this.peek() !== ':') this.fail('`:` after the key');
      this.pos++;
      const v = this.value(depth + 1);
      entries.push({ key: keyNode.value, keyNode, value: v.type === 'string' ? held(keyNode.value, v) : v });
      this.blanks();
      const c = this.peek();
      if (c === ',') {
        this.pos++;
        continue;
      }
      if (c === '}') {
        this.pos++;
        this.open.pop();
        return { type: 'object', from, to: this.pos, entries };
      }
      this.fail('`,` or `}` after the value');
    }
  }

  array(depth: number): JsonNode {
    const from = this.pos;
    this.open.push(from);
    this.pos++;
    const items: JsonNode[] = [];
    this.blanks();
    if (this.peek() === ']') {
      this.pos++;
      this.open.pop();
      return { type: 'array', from, to: this.pos, items };
    }
    while (true) {
      items.push(this.value(depth + 1));
      this.blanks();
      const c = this.peek();
      if (c === ',') {
        this.pos++;
        continue;
      }
      if (c === ']') {
        this.pos++;
        this.open.pop();
        return { type: 'array', from, to: this.pos, items };
      }
      this.fail('`,` or `]` after the value');
    }
  }
}

function stringNode(from: number, to: number, value: string, offsetAt: (i: number) => number | undefined): StringNode {
  return {
    type: 'string',
    from,
    to,
    value,
    offsetAt,
    get offsets() {
      return Array.from({ length: value.length + 1 }, (_, i) => offsetAt(i)!);
    },
  };
}

/** A node read from a string's decoded text, its offsets mapped into the text around it by `at`. */
function remap(node: JsonNode, at: (i: number) => number): JsonNode {
  const from = at(node.from);
  const to = at(node.to);
  switch (node.type) {
    case 'object':
      return {
        ...node,
        from,
        to,
        entries: node.entries.map((e) => ({ key: e.key, keyNode: remap(e.keyNode, at) as StringNode, value: remap(e.value, at) })),
      };
    case 'array':
      return { ...node, from, to, items: node.items.map((item) => remap(item, at)) };
    case 'string': {
      const inner = node.offsetAt;
      return stringNode(from, to, node.value, (i) => {
        const o = inner(i);
        return o === undefined ? undefined : at(o);
      });
    }
    default:
      return { ...node, from, to };
  }
}

/**
 * A member's string value, or the JSON object it holds (`"arguments":
 * "{\"path\": …}"`, OpenAI's tool-call shape; see core/held-json.ts), read
 * with this reader and placed in the reply through the string's escapes.
 * Text that is not one whole JSON value stays a string.
 */
function held(key: string, v: StringNode): JsonNode {
  const r = readHeldJson(
    key,
    v.value,
    (text, start) => readJson(text, start),
    (x) => (x.ok ? x : null),
    (n) => remap(n, (i) => v.offsetAt(i) ?? v.to),
  );
  return r !== null && 'node' in r ? r.node : v;
}

/**
 * Read one JSON value starting exactly at `start` (no leading blanks), not
 * reading at or past `limit`. A member `"arguments"` whose string holds a
 * JSON object (OpenAI's tool-call shape) is read as that object, its offsets
 * in the text read.
 */
export function readJson(text: string, start: number, limit: number = text.length): JsonResult {
  const reader = new Reader(text, start, limit);
  try {
    const node = reader.value(0);
    return { ok: true, node, end: reader.pos };
  } catch (e) {
    if (e instanceof Failure) return { ok: false, at: Math.min(e.at, limit), expected: e.expected, eof: e.eof, open: reader.open };
    return { ok: false, at: reader.pos, expected: 'valid JSON', eof: false, open: reader.open };
  }
}

/** `line L, column C` of an offset (1-based, columns in UTF-16 units). */
export function describeOffset(text: string, offset: number): string {
  let line = 1;
  let start = 0;
  for (let i = text.indexOf('\n'); i !== -1 && i < offset; i = text.indexOf('\n', i + 1)) {
    line++;
    start = i + 1;
  }
  return `line ${line}, column ${offset - start + 1}`;
}

/** The value of a plain JSON node (objects with duplicate keys keep the last). */
export function plain(node: JsonNode): unknown {
  switch (node.type) {
    case 'object':
      return Object.fromEntries(node.entries.map((e) => [e.key, plain(e.value)]));
    case 'array':
      return node.items.map(plain);
    case 'null':
      return null;
    default:
      return node.value;
  }
}
