// Where `old_str` occurs in a file's text (its lines, each ended by LF), in
// bounded time: a reply of thousands of str_replace calls against a file of
// hundreds of thousands of lines must not rescan the text for each call.
//
// - `old_str` with line breaks fixes where its lines start, so it is looked
//   up by lines: the whole lines it holds through the file's line index
//   (`findBlock`), or, with one line break, the line ends and line starts it
//   needs, through small indexes of the file's line ends and starts.
// - `old_str` within one line is scanned for, but only in the blocks of
//   lines (about `BLOCK_CHARS` characters each) whose signature (a bit set of
//   the character pairs and triples they hold) holds every pair and triple
//   that `old_str` holds: usually a few blocks, not the file.
// - Every scan, and every block looked at, is paid for from one budget per
//   file and request (`scanBudget`): proportional to the file, so that all
//   the calls of a reply together cost at most a few dozen passes over it.
//   A call that would exceed it is not searched (`complete: false`), and
//   says so; it is never guessed at.

import { findBlock } from '../../core/find.ts';

/** Every start of `needle` in `hay`, overlapping ones included (stops after `limit`). */
export function occurrences(hay: string, needle: string, limit = Infinity): number[] {
  const out: number[] = [];
  if (needle === '') return out;
  for (let i = hay.indexOf(needle); i !== -1 && out.length < limit; i = hay.indexOf(needle, i + 1)) out.push(i);
  return out;
}

/** Characters of text per block of lines (a longer line is a block of its own). */
export const BLOCK_CHARS = 1024;
/** Bits of a block's signature. */
const SIG_BITS = 4096;
const SIG_WORDS = SIG_BITS / 32;
/** Pairs and triples of `old_str` checked against a block's signature, at most (each kind). */
const PROBES = 24;
/** Work (characters scanned, blocks looked at) a file's searches may do in one request: this many times its text… */
export const SCAN_PER_CHARACTER = 32;
/** …plus this much, so that a small file may take many calls. */
export const SCAN_FLOOR = 8_000_000;
/** Length of the line ends and starts the one-line-break search indexes lines by. */
const KEY = 8;
/** Lines sharing that key above which the one-line-break search looks for the longer side of the break instead. */
const FEW_PLACES = 64;
/** The shortest side of a line break looked for through the block signatures (a pair of characters sets a bit). */
const MIN_PIECE = 2;

/** Lines grouped into blocks of about `BLOCK_CHARS` characters, with the signature of each. */
interface Blocks {
  /** The line each block starts at; one more entry, the line count. */
  first: number[];
  /** The signatures, word by word: word `w` of block `b` is at `w * blocks + b` (a probe reads one run). */
  sig: Uint32Array;
  count: number;
}

/** A file's lines as one text, with what its searches build and spend. */
export interface Searchable {
  readonly lines: readonly string[];
  /** The lines, each ended by LF. */
  readonly text: string;
  /** Offset where each line starts; one more entry, the text's length. */
  readonly starts: number[];
  /** Lines by their last (`ends`) or first (`heads`) k characters, per k; built when first needed. */
  ends: Map<number, Map<string, number[]>>;
  heads: Map<number, Map<string, number[]>>;
  blocks?: Blocks;
  /** Work done so far, and the most allowed. */
  spent: number;
  readonly budget: number;
}

const cache = new WeakMap<readonly string[], Searchable>();

/** The searchable text of a line array (one per array: its budget is spent by every search of it). */
export function searchable(lines: readonly string[]): Searchable {
  let s = cache.get(lines);
  if (s) return s;
  const n = lines.length;
  const text = n === 0 ? '' : lines.join('\n') + '\n';
  const starts: number[] = [];
  for (let i = 0, off = 0; i < n; i++) {
    starts.push(off);
    off += lines[i].length + 1;
  }
  starts.push(text.length);
  s = { lines, text, starts, ends: new Map(), heads: new Map(), spent: 0, budget: SCAN_PER_CHARACTER * text.length + SCAN_FLOOR };
  cache.set(lines, s);
  return s;
}

/** Lines of at least `k` characters by their last (or first) `k` characters. */
function keyed(s: Searchable, end: boolean, k: number): Map<string, number[]> {
  const maps = end ? s.ends : s.heads;
  let map = maps.get(k);
  if (map) return map;
  map = new Map();
  s.lines.forEach((line, i) => {
    if (line.length < k) return;
    const key = end ? line.slice(line.length - k) : line.slice(0, k);
    const list = map!.get(key);
    if (list) list.push(i);
    else map!.set(key, [i]);
  });
  maps.set(k, map);
  return map;
}

// Signatures: each character pair and triple of a line sets one bit.
const mix = (h: number) => {
  h = Math.imul(h ^ (h >>> 16), 0x45d9f3b);
  h = Math.imul(h ^ (h >>> 16), 0x45d9f3b);
  return (h ^ (h >>> 16)) & (SIG_BITS - 1);
};
const pairBit = (a: number, b: number) => mix(Math.imul(a, 0x10001) ^ b ^ 0x5bd1e995);
const tripleBit = (a: number, b: number, c: number) => mix(Math.imul(Math.imul(a, 0x10001) ^ b, 0x01000193) ^ c);

function blocksOf(s: Searchable): Blocks {
  if (s.blocks) return s.blocks;
  const first: number[] = [];
  const { lines } = s;
  for (let i = 0; i < lines.length; ) {
    first.push(i);
    let size = 0;
    do size += lines[i++].length + 1;
    while (i < lines.length && size + lines[i].length < BLOCK_CHARS);
  }
  first.push(lines.length);
  const count = first.length - 1;
  const sig = new Uint32Array(count * SIG_WORDS);
  for (let b = 0; b < count; b++) {
    for (let i = first[b]; i < first[b + 1]; i++) {
      const line = lines[i];
      for (let k = 0; k + 1 < line.length; k++) {
        const x = line.charCodeAt(k);
        const y = line.charCodeAt(k + 1);
        let bit = pairBit(x, y);
        sig[(bit >>> 5) * count + b] |= 1 << (bit & 31);
        if (k + 2 < line.length) {
          bit = tripleBit(x, y, line.charCodeAt(k + 2));
          sig[(bit >>> 5) * count + b] |= 1 << (bit & 31);
        }
      }
    }
  }
  return (s.blocks = { first, sig, count });
}

/** The signature words and masks a block must hold for `needle` (no line break) to occur in it. */
function probes(needle: string): { words: number[]; masks: number[] } {
  const bits: number[] = [];
  const m = needle.length;
  const spread = (count: number, take: (k: number) => number) => {
    const step = Math.max(1, count / PROBES);
    for (let k = 0; k < count && bits.length < 2 * PROBES; k += step) bits.push(take(Math.floor(k)));
  };
  spread(m - 1, (k) => pairBit(needle.charCodeAt(k), needle.charCodeAt(k + 1)));
  spread(m - 2, (k) => tripleBit(needle.charCodeAt(k), needle.charCodeAt(k + 1), needle.charCodeAt(k + 2)));
  const byWord = new Map<number, number>();
  for (const bit of bits) byWord.set(bit >>> 5, (byWord.get(bit >>> 5) ?? 0) | (1 << (bit & 31)));
  return { words: [...byWord.keys()], masks: [...byWord.values()] };
}

export interface Found {
  /** Offsets in the text where `needle` starts, ascending, at most `limit`. */
  at: number[];
  /** False when the search budget ran out first: `at` may be missing some. */
  complete: boolean;
}

/** Scan `text[from, to)` for `needle`, adding to `out`; false when the budget is spent. */
function scanRange(s: Searchable, needle: string, from: number, to: number, limit: number, out: number[]): boolean {
  if (s.spent > s.budget) return false;
  const hay = from === 0 && to === s.text.length ? s.text : s.text.slice(from, to);
  let end = hay.length;
  for (let i = hay.indexOf(needle); i !== -1; i = hay.indexOf(needle, i + 1)) {
    out.push(from + i);
    if (out.length >= limit) {
      end = i + needle.length;
      break;
    }
  }
  s.spent += end;
  return true;
}

/** Occurrences of `needle` (no line break) through the block signatures. */
function withinLines(s: Searchable, needle: string, limit: number): Found {
  const out: number[] = [];
  const { first, sig, count } = blocksOf(s);
  const { words, masks } = probes(needle);
  s.spent += count; // one unit per block looked at
  // The blocks that hold the first probe (one pass over its word), then the others among them.
  let blocks: number[] = [];
  if (words.length === 0) blocks = Array.from({ length: count }, (_, b) => b);
  else {
    const row = words[0] * count;
    const mask = masks[0];
    for (let b = 0; b < count; b++) if ((sig[row + b] & mask) === mask) blocks.push(b);
    for (let k = 1; k < words.length && blocks.length > 0; k++) {
      const r = words[k] * count;
      const m = masks[k];
      blocks = blocks.filter((b) => (sig[r + b] & m) === m);
    }
  }
  for (const b of blocks) {
    if (!scanRange(s, needle, s.starts[first[b]], s.starts[first[b + 1]], limit, out)) return { at: out, complete: false };
    if (out.length >= limit) break;
  }
  return { at: out, complete: true };
}

/**
 * The places where `needle` (with line breaks) may start, as text offsets
 * (`sure`: each one is an occurrence), or null when there are too many to
 * check one by one (the caller scans instead).
 */
function placesAcrossLines(s: Searchable, needle: string): { places: number[]; sure: boolean } | 'piece' | null {
  const parts = needle.split('\n');
  const head = parts[0];
  const tail = parts[parts.length - 1];
  const { lines, starts } = s;
  const n = lines.length;
  const most = 4 * (s.text.length + 1);
  if (parts.length > 2) {
    // The whole lines in the middle, found through the file's line index; then the line before and after.
    const middle = parts.slice(1, -1);
    const hits = findBlock(lines, middle);
    if (hits.length * (head.length + tail.length + 1) > most) return null;
    const places = hits
      .filter((i) => i > 0 && lines[i - 1].endsWith(head) && (i + middle.length < n ? lines[i + middle.length].startsWith(tail) : tail === ''))
      .map((i) => starts[i] - 1 - head.length);
    return { places, sure: true };
  }
  // One line break: a line ending in `head`, the next starting with `tail`.
  const hk = Math.min(head.length, KEY);
  const tk = Math.min(tail.length, KEY);
  const byEnd = hk > 0 ? (keyed(s, true, hk).get(head.slice(head.length - hk)) ?? []) : null;
  const byHead = tk > 0 ? (keyed(s, false, tk).get(tail.slice(0, tk)) ?? []).map((j) => j - 1).filter((i) => i >= 0) : null;
  const candidates = byEnd && byHead ? (byEnd.length <= byHead.length ? byEnd : byHead) : (byEnd ?? byHead ?? lines.map((_, i) => i));
  // Many lines share the key (lines of code often end alike, and an old_str ending with its line
  // break has no tail): the caller looks for the longer side instead (`aroundOneBreak`).
  if (candidates.length > FEW_PLACES && Math.max(head.length, tail.length) >= MIN_PIECE) return 'piece';
  if (candidates.length * (needle.length + 1) > most) return null;
  const places = candidates.filter((i) => lines[i].length >= head.length).map((i) => starts[i] + lines[i].length - head.length);
  return { places, sure: false };
}

/**
 * The occurrences of `needle`, with one line break, found through the
 * longer side of the break (`head` before it, `tail` after it): its
 * occurrences within lines (`withinLines`, through the block signatures),
 * each kept when it ends a line (the head) or starts one (the tail) and the
 * whole needle stands there. Each occurrence looked at is paid for from the
 * file's budget.
 */
function aroundOneBreak(s: Searchable, needle: string, limit: number): Found {
  const nl = needle.indexOf('\n');
  const head = needle.slice(0, nl);
  const tail = needle.slice(nl + 1);
  const byHead = head.length >= tail.length;
  const hits = withinLines(s, byHead ? head : tail, Infinity);
  s.spent += hits.at.length;
  const { text } = s;
  const out: number[] = [];
  for (const p of hits.at) {
    const start = byHead ? p : p - 1 - head.length;
    if (byHead ? text.charCodeAt(p + head.length) !== 10 : start < 0 || text.charCodeAt(p - 1) !== 10) continue;
    if (!text.startsWith(needle, start)) continue;
    out.push(start);
    if (out.length >= limit) break;
  }
  return { at: out, complete: hits.complete };
}

/**
 * The offsets where `needle` starts in the text of `s` (every one a plain
 * scan of the text finds, in the same order), at most `limit`.
 */
export function find(s: Searchable, needle: string, limit = Infinity): Found {
  if (needle === '' || limit <= 0) return { at: [], complete: true };
  if (!needle.includes('\n')) return withinLines(s, needle, limit);
  const places = placesAcrossLines(s, needle);
  if (places === 'piece') return aroundOneBreak(s, needle, limit);
  if (places === null) {
    const out: number[] = [];
    const complete = scanRange(s, needle, 0, s.text.length, limit, out);
    return { at: out, complete };
  }
  const out: number[] = [];
  s.spent += places.places.length;
  for (const p of places.places) {
    if (!places.sure && !s.text.startsWith(needle, p)) continue;
    out.push(p);
    if (out.length >= limit) break;
  }
  return { at: out, complete: true };
}
