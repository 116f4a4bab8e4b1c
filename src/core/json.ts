// The JSON reader of the formats that read tool calls (str-replace,
// hashline): RFC 8259 JSON read so that every value knows where it is in the
// reply, and every decoded string where each of its characters came from, so
// that each edit and each error can point into the reply. A text that is not
// JSON gives an error with its place, not an exception.
//
// Units: offsets from 0 in UTF-16 units of the text read; ranges `from`/`to`
// half-open. One leniency is an option: raw control characters (a real line
// break or tab) inside a string, which models often write (`controls:
// 'literal'`); by default they are an error (`control`).
//
// A member `"arguments"` whose string value holds a JSON object (OpenAI's
// tool-call shape, `{"name": "edit", "arguments": "{\"path\": …}"}`) is read
// as that object, its offsets placed in the reply through the string's
// escapes; when that text is not JSON the member stays a string and carries
// the error (`held`).

import { lastAtOrBelow } from './reply.ts';

/** A decoded string and where it came from. */
export interface JsonString {
  type: 'string';
  from: number;
  to: number;
  value: string;
  /**
   * Offset in the text of the character or escape that produced UTF-16 unit
   * `i` of `value` (each half of an escaped surrogate pair maps to its own
   * `\u`); `offset(value.length)` is the closing quote. `i` is clamped to
   * `[0, value.length]`.
   */
  offset(i: number): number;
  /** Every `offset(i)`, from 0 to `value.length`, as an array: built when read (a 10 MB string makes it big). */
  readonly offsets: number[];
  /** For a member `"arguments"` whose string starts with `{` but does not hold one whole JSON value: why, placed in the text. */
  held?: JsonError;
}

export interface JsonMember {
  key: JsonString;
  value: JsonNode;
}

export type JsonObject = { type: 'object'; from: number; to: number; members: JsonMember[] };

export type JsonNode =
  | JsonObject
  | { type: 'array'; from: number; to: number; items: JsonNode[] }
  | JsonString
  | { type: 'number'; from: number; to: number; value: number }
  | { type: 'boolean'; from: number; to: number; value: boolean }
  | { type: 'null'; from: number; to: number; value: null };

/**
 * What the reader expected where it stopped (each format words it):
 * `value` a value; `word` the rest of `true`/`false`/`null` (the text ran
 * out inside it); `digit` the rest of a number (`-`, `1.`, `2e+` at the
 * end); `key` a key in double quotes; `key-or-close` the same or `}`;
 * `colon`; `comma-or-brace`; `comma-or-bracket`; `quote` the closing quote
 * (the text ran out in a string); `escape` a valid escape letter after `\`;
 * `hex` four hexadecimal digits after `\u`; `control` no raw control
 * character in a string; `depth` no more nesting than `MAX_JSON_DEPTH`.
 */
export type JsonExpected =
  | 'value'
  | 'word'
  | 'digit'
  | 'key'
  | 'key-or-close'
  | 'colon'
  | 'comma-or-brace'
  | 'comma-or-bracket'
  | 'quote'
  | 'escape'
  | 'hex'
  | 'control'
  | 'depth';

export interface JsonError {
  /** Offset of the first character that could not be read (the limit when the text ran out); for `escape`, the letter after `\`; for `hex`, the first digit. */
  offset: number;
  expected: JsonExpected;
  /** What stands at `offset`: one UTF-16 unit ('' at the limit); for `hex`, up to four units. */
  found: string;
  /** The text ended (at the limit) before the value did. */
  atEnd: boolean;
  /** Start offsets of the objects and arrays still open, outermost first. */
  open: number[];
  /** For errors inside a string: where the string starts (its opening quote). */
  stringAt?: number;
  /** For `escape` and `hex`: where the escape starts (its `\`). */
  escapeAt?: number;
}

export type JsonResult = { ok: true; node: JsonNode; end: number } | { ok: false; error: JsonError };

export interface JsonOptions {
  /** Read no character at or past this offset (default: the text's length). */
  limit?: number;
  /** Raw control characters (U+0000 to U+001F) in a string: an error (`refuse`, RFC 8259; the default) or taken as they are (`literal`). */
  controls?: 'refuse' | 'literal';
}

/** Objects and arrays nested deeper than this are an error (`depth`), not a stack overflow. */
export const MAX_JSON_DEPTH = 256;

/** The member whose string value may hold a call's arguments as JSON text. */
const HELD_JSON_KEY = 'arguments';

const ESCAPES: Record<string, string> = { '"': '"', '\\': '\\', '/': '/', b: '\b', f: '\f', n: '\n', r: '\r', t: '\t' };

class Failure {
  constructor(readonly error: JsonError) {}
}

function stringNode(from: number, to: number, value: string, at: (i: number) => number): JsonString {
  const offset = (i: number) => at(Math.max(0, Math.min(i, value.length)));
  return {
    type: 'string',
    from,
    to,
    value,
    offset,
    get offsets() {
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
      const s = stringNode(from, to, node.value, (i) => at(inner(i)));
      if (node.held) s.held = remapError(node.held, at);
      return s;
    }
    default:
      return { ...node, from, to };
  }
}

function remapError(e: JsonError, at: (i: number) => number): JsonError {
  const r: JsonError = { ...e, offset: at(e.offset), open: e.open.map(at) };
  if (e.stringAt !== undefined) r.stringAt = at(e.stringAt);
  if (e.escapeAt !== undefined) r.escapeAt = at(e.escapeAt);
  return r;
}

/** One read: the text, where it is, and the containers still open. */
class Reader {
  pos: number;
  readonly open: number[] = [];
  /** A JSON number, read where `lastIndex` is set. */
  private readonly numberPattern = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
  constructor(
    readonly text: string,
    start: number,
    readonly limit: number,
    readonly literalControls: boolean,
  ) {
    this.pos = start;
  }

  fail(expected: JsonExpected, extra: Partial<JsonError> = {}): never {
    const at = Math.min(this.pos, this.limit);
    const found = at < this.limit ? this.text[at] : '';
    throw new Failure({ offset: at, expected, found, atEnd: at >= this.limit, open: [...this.open], ...extra });
  }

  blanks(): void {
    const { text, limit } = this;
    while (this.pos < limit) {
      const c = text.charCodeAt(this.pos);
      if (c === 32 || c === 9 || c === 10 || c === 13) this.pos++;
      else break;
    }
  }

  peek(): string {
    return this.pos < this.limit ? this.text[this.pos] : '';
  }

  string(): JsonString {
    const { text, limit } = this;
    const from = this.pos;
    const inString = { stringAt: from };
    this.pos++; // opening quote
    // Runs of plain characters are sliced, not added one by one; where each
    // unit came from is kept as runs too: from value index v[k] on, index i
    // came from offset t[k] + (i - v[k]) (a run, or one escape). A 10 MB
    // string with few escapes is a few entries, not ten million.
    const parts: string[] = [];
    let length = 0;
    const v: number[] = [];
    const t: number[] = [];
    const mark = (offset: number) => {
      v.push(length);
      t.push(offset);
    };
    const controlStops = !this.literalControls;
    for (;;) {
      const run = this.pos;
      while (this.pos < limit) {
        const c = text.charCodeAt(this.pos);
        if (c === 0x22 || c === 0x5c || (c < 0x20 && controlStops)) break;
        this.pos++;
      }
      if (this.pos > run) {
        mark(run);
        parts.push(text.slice(run, this.pos));
        length += this.pos - run;
      }
      if (this.pos >= limit) this.fail('quote', inString);
      const c = text[this.pos];
      if (c === '"') {
        mark(this.pos);
        this.pos++;
        const value = parts.join('');
        return stringNode(from, this.pos, value, (i) => {
          const k = lastAtOrBelow(v.length, i, (j) => v[j]);
          return t[k] + (i - v[k]);
        });
      }
      if (c !== '\\') this.fail('control', inString);
      const escapeAt = this.pos;
      this.pos++;
      const e = this.peek();
      if (e !== '' && Object.hasOwn(ESCAPES, e)) {
        mark(escapeAt);
        parts.push(ESCAPES[e]);
        length++;
        this.pos++;
        continue;
      }
      if (e !== 'u') this.fail('escape', { ...inString, escapeAt });
      const hex = text.slice(this.pos + 1, Math.min(this.pos + 5, limit));
      if (!/^[0-9A-Fa-f]{4}$/.test(hex)) {
        this.pos++;
        // Hex digits cut off by the end of the text: it ran out.
        if (hex.length < 4 && /^[0-9A-Fa-f]*$/.test(hex)) this.pos = limit;
        this.fail('hex', { ...inString, escapeAt, found: this.pos < limit ? hex : '' });
      }
      mark(escapeAt);
      parts.push(String.fromCharCode(parseInt(hex, 16)));
      length++;
      this.pos += 5;
    }
  }

  number(): JsonNode {
    const { text, limit } = this;
    const from = this.pos;
    const NUMBER = this.numberPattern;
    NUMBER.lastIndex = from;
    let m = NUMBER.exec(text);
    if (m && from + m[0].length > limit) {
      // The number runs past the limit: read only what is before it.
      NUMBER.lastIndex = 0;
      m = NUMBER.exec(text.slice(from, limit));
    }
    const after = from + (m ? m[0].length : 0);
    // A number cut off by the end of the text (`-`, `1.`, `2e+`): it ran out.
    const rest = limit - after <= 3 ? text.slice(after, limit) : null;
    if (rest !== null && ((!m && rest === '-') || (m && rest !== '' && /^(?:\.|[eE][+-]?)$/.test(rest)))) {
      this.pos = limit;
      this.fail('digit');
    }
    if (!m) return this.fail('value');
    this.pos = after;
    return { type: 'number', from, to: after, value: Number(m[0]) };
  }

  word(w: 'true' | 'false' | 'null'): JsonNode {
    const { text, limit } = this;
    const from = this.pos;
    if (text.startsWith(w, from) && from + w.length <= limit) {
      this.pos += w.length;
      const to = this.pos;
      return w === 'null' ? { type: 'null', from, to, value: null } : { type: 'boolean', from, to, value: w === 'true' };
    }
    // A word cut off by the end of the text: it ran out.
    if (limit - from < w.length && w.startsWith(text.slice(from, limit))) {
      this.pos = limit;
      this.fail('word');
    }
    return this.fail('value');
  }

  value(): JsonNode {
    this.blanks();
    const c = this.peek();
    if (c === '{') return this.object();
    if (c === '[') return this.array();
    if (c === '"') return this.string();
    if (c === 't') return this.word('true');
    if (c === 'f') return this.word('false');
    if (c === 'n') return this.word('null');
    if (c === '-' || (c >= '0' && c <= '9')) return this.number();
    return this.fail('value');
  }

  /**
   * A container from its opening bracket (at the current offset) to `close`:
   * its entries, each read by `entry` (told whether it is the first), apart
   * by `,`; `missing` when neither `,` nor `close` follows an entry.
   */
  container<T>(close: '}' | ']', missing: JsonExpected, entry: (first: boolean) => T): { from: number; to: number; entries: T[] } {
    if (this.open.length >= MAX_JSON_DEPTH) this.fail('depth');
    const from = this.pos;
    this.open.push(from);
    this.pos++;
    this.blanks();
    const entries: T[] = [];
    if (this.peek() !== close) {
      for (;;) {
        entries.push(entry(entries.length === 0));
        this.blanks();
        const c = this.peek();
        if (c === close) break;
        if (c !== ',') this.fail(missing);
        this.pos++;
      }
    }
    this.pos++;
    this.open.pop();
    return { from, to: this.pos, entries };
  }

  object(): JsonNode {
    const { from, to, entries } = this.container('}', 'comma-or-brace', (first) => this.member(first));
    return { type: 'object', from, to, members: entries };
  }

  member(first: boolean): JsonMember {
    this.blanks();
    if (this.peek() !== '"') this.fail(first ? 'key-or-close' : 'key');
    const key = this.string();
    this.blanks();
    if (this.peek() !== ':') this.fail('colon');
    this.pos++;
    const v = this.value();
    return { key, value: v.type === 'string' && key.value === HELD_JSON_KEY ? this.held(v) : v };
  }

  array(): JsonNode {
    const { from, to, entries } = this.container(']', 'comma-or-bracket', () => this.value());
    return { type: 'array', from, to, items: entries };
  }

  /**
   * The JSON object held in an `"arguments"` string (its first non-blank
   * character is `{`), read with the same options and placed in the text
   * through the string's escapes; else the string itself, with the error
   * when that text is not JSON. Text that holds one whole value and then
   * more than blanks stays a string.
   */
  held(v: JsonString): JsonNode {
    const value = v.value;
    const start = value.length - value.trimStart().length;
    if (value[start] !== '{') return v;
    const r = readJson(value, start, { controls: this.literalControls ? 'literal' : 'refuse' });
    if (!r.ok) {
      v.held = remapError(r.error, v.offset);
      return v;
    }
    if (value.slice(r.end).trim() !== '') return v;
    return remap(r.node, v.offset);
  }
}

/**
 * Read one JSON value at `start` (blanks before it are skipped), not reading
 * at or past `options.limit`; `end` is the offset just after the value.
 * Never throws: a text that is not JSON gives the first error.
 */
export function readJson(text: string, start: number, options: JsonOptions = {}): JsonResult {
  const reader = new Reader(text, start, options.limit ?? text.length, options.controls === 'literal');
  try {
    const node = reader.value();
    return { ok: true, node, end: reader.pos };
  } catch (e) {
    if (e instanceof Failure) return { ok: false, error: e.error };
    throw e;
  }
}

/** The member `name` of an object node (the last one, as JSON.parse keeps), or undefined. */
export function member(node: JsonNode, name: string): JsonNode | undefined {
  if (node.type !== 'object') return undefined;
  for (let i = node.members.length - 1; i >= 0; i--) if (node.members[i].key.value === name) return node.members[i].value;
  return undefined;
}

/** The first member of an object whose key an earlier member already gave, or undefined (the formats refuse a key given twice). */
export function repeatedKey(node: JsonObject): JsonMember | undefined {
  const seen = new Set<string>();
  for (const m of node.members) {
    if (seen.has(m.key.value)) return m;
    seen.add(m.key.value);
  }
  return undefined;
}

/** The value JSON.parse gives for the node's text (objects with a key twice keep the last). */
export function jsonValue(node: JsonNode): unknown {
  switch (node.type) {
    case 'object':
      return Object.fromEntries(node.members.map((m) => [m.key.value, jsonValue(m.value)]));
    case 'array':
      return node.items.map(jsonValue);
    default:
      return node.value;
  }
}
