// Finding a block of lines in a file in linear time.
//
// The naive search (try every start, compare line by line) costs
// (places) x (block lines) when the file repeats its lines: a block of
// 50,000 identical lines in a file of 100,000 of them is 2.5 billion
// comparisons. Here each file line is replaced by a small integer (equal
// keys, equal integers), once per file and key function, and the block is
// found by its rarest line (few places to check) or, when every line of it
// is common, by Knuth-Morris-Pratt over the integers: never more than
// (places + block lines) steps.
//
// A key function decides what "equal" means: none for byte equality,
// `trimEnd` for "ignoring trailing white space", and so on. Two lines are
// equal under a key when their keys are the same string. Callers pass
// long-lived functions (module constants): the index is cached per file
// line array and key function.

import { visibleKey } from './invisible.ts';

/** What makes two lines equal: equal keys. `null` compares the lines themselves. */
export type LineKey = ((line: string) => string) | null;

interface Index {
  /** Per file line: the id of its key. */
  ids: Int32Array;
  /** Key -> id. */
  idOf: Map<string, number>;
  /** Per id: the file lines with that key, ascending. */
  at: number[][];
}

const indexes = new WeakMap<readonly string[], Map<LineKey, Index>>();

/** The file's lines as key ids (built once per line array and key function). */
function indexOf(lines: readonly string[], key: LineKey): Index {
  let perKey = indexes.get(lines);
  if (!perKey) indexes.set(lines, (perKey = new Map()));
  let index = perKey.get(key);
  if (index) return index;
  const idOf = new Map<string, number>();
  const at: number[][] = [];
  const ids = new Int32Array(lines.length);
  for (let i = 0; i < lines.length; i++) {
    const k = key ? key(lines[i]) : lines[i];
    let id = idOf.get(k);
    if (id === undefined) {
      id = at.length;
      idOf.set(k, id);
      at.push([]);
    }
    at[id].push(i);
    ids[i] = id;
  }
  index = { ids, idOf, at };
  perKey.set(key, index);
  return index;
}

/**
 * The file lines (0-based, ascending) equal to `line` under `key`: the same
 * index `findBlock` builds, once per file line array and key function.
 */
export function linesWithKey(lines: readonly string[], key: LineKey, line: string): readonly number[] {
  const index = indexOf(lines, key);
  const id = index.idOf.get(key ? key(line) : line);
  return id === undefined ? [] : index.at[id];
}

/** Below this many places, a plain scan beats building an index. */
const SCAN_PLACES = 256;

/**
 * Every start `s` in `[lo, hi]` (0-based, ascending) where each `block[i]`
 * equals `lines[s + i]` under `key`, at most `limit` of them. `hi` defaults
 * to the last start where the block fits; an empty block is found nowhere.
 */
export function findBlock(
  lines: readonly string[],
  block: readonly string[],
  key: LineKey = null,
  lo = 0,
  hi = lines.length - block.length,
  limit = Infinity,
): number[] {
  const m = block.length;
  const out: number[] = [];
  lo = Math.max(0, lo);
  hi = Math.min(hi, lines.length - m);
  if (m === 0 || hi < lo || limit <= 0) return out;

  if (hi - lo + 1 <= SCAN_PLACES) {
    const keys = key ? block.map(key) : block;
    outer: for (let s = lo; s <= hi; s++) {
      for (let i = 0; i < m; i++) {
        const line = lines[s + i];
        if ((key ? key(line) : line) !== keys[i]) continue outer;
      }
      out.push(s);
      if (out.length >= limit) break;
    }
    return out;
  }

  const index = indexOf(lines, key);
  const want = new Int32Array(m);
  let rarest = 0;
  for (let i = 0; i < m; i++) {
    const id = index.idOf.get(key ? key(block[i]) : block[i]);
    if (id === undefined) return out; // a line the file does not have
    want[i] = id;
    if (index.at[id].length < index.at[want[rarest]].length) rarest = i;
  }
  const ids = index.ids;
  const places = index.at[want[rarest]];

  // Few places for the rarest line: check each.
  if (places.length * m <= 4 * (hi - lo + 1 + m)) {
    outer: for (const p of places) {
      const s = p - rarest;
      if (s < lo) continue;
      if (s > hi) break;
      for (let i = 0; i < m; i++) if (ids[s + i] !== want[i]) continue outer;
      out.push(s);
      if (out.length >= limit) break;
    }
    return out;
  }

  // Every line of the block is common: Knuth-Morris-Pratt over the ids.
  const fail = new Int32Array(m);
  for (let i = 1, k = 0; i < m; i++) {
    while (k > 0 && want[i] !== want[k]) k = fail[k - 1];
    if (want[i] === want[k]) k++;
    fail[i] = k;
  }
  for (let j = lo, k = 0, end = hi + m; j < end; j++) {
    while (k > 0 && ids[j] !== want[k]) k = fail[k - 1];
    if (ids[j] === want[k]) k++;
    if (k === m) {
      out.push(j - m + 1);
      if (out.length >= limit) break;
      k = fail[k - 1];
    }
  }
  return out;
}

/** Trailing white space removed (String.prototype.trimEnd: linear, unlike a `\s+$` regex). */
export const trimEndKey = (line: string): string => line.trimEnd();

/** Whether a cited line and a file line count as equal, for one rung of the ladder. */
export type Compare = (cited: string, actual: string) => boolean;
/** Byte-equal. */
export const exactly: Compare = (a, b) => a === b;

/** Whitespace-equal (spec/matching.md): equal once trailing white space, zero-width characters and normalisation are set aside. */
export const visiblyEqual: Compare = (a, b) => a === b || visibleKey(a) === visibleKey(b);

/** Whether `old` is at `start` in `lines` under `eq` (false when it would not fit). */
export function matchesAt(lines: readonly string[], old: readonly string[], start: number, eq: Compare): boolean {
  if (start < 0 || start + old.length > lines.length) return false;
  for (let i = 0; i < old.length; i++) if (!eq(old[i], lines[start + i])) return false;
  return true;
}
