// The one replacement that turns a text into another: their common start
// and end kept, never splitting a surrogate pair. The result view's editors
// take it as a single change, and the replay's applied files use it for a
// difference that edit-by-edit splices cannot follow. A leaf module: no
// diff library, so the replay worker does not load one.

/** Replace `from..to` of a text by `insert`. */
export interface Delta {
  from: number;
  to: number;
  insert: string;
}

const BLOCK = 4096;

function commonPrefix(x: string, y: string, max: number): number {
  let n = 0;
  while (n + BLOCK <= max && x.slice(n, n + BLOCK) === y.slice(n, n + BLOCK)) n += BLOCK;
  while (n < max && x.charCodeAt(n) === y.charCodeAt(n)) n++;
  return n;
}

function commonSuffix(x: string, y: string, max: number): number {
  const lx = x.length;
  const ly = y.length;
  let n = 0;
  while (n + BLOCK <= max && x.slice(lx - n - BLOCK, lx - n) === y.slice(ly - n - BLOCK, ly - n)) n += BLOCK;
  while (n < max && x.charCodeAt(lx - 1 - n) === y.charCodeAt(ly - 1 - n)) n++;
  return n;
}

const isHigh = (c: number) => c >= 0xd800 && c <= 0xdbff;
const isLow = (c: number) => c >= 0xdc00 && c <= 0xdfff;

/** The one replacement that turns `prev` into `next` (their common ends kept); null when they are equal. */
export function textDelta(prev: string, next: string): Delta | null {
  if (prev === next) return null;
  const max = Math.min(prev.length, next.length);
  let p = commonPrefix(prev, next, max);
  // Never split a surrogate pair.
  if (p > 0 && isHigh(prev.charCodeAt(p - 1))) p--;
  let s = commonSuffix(prev, next, max - p);
  if (s > 0 && isLow(prev.charCodeAt(prev.length - s))) s--;
  return { from: p, to: prev.length - s, insert: next.slice(p, next.length - s) };
}

