// The fingerprint index: a small integer per line that whitespace-equal
// lines share, and the file's lines by fingerprint. It finds where a block
// occurs outside the match window (the fuzzy rung refuses a block that is
// in the file unchanged elsewhere) at a fraction of `findBlock`'s cost.

import { exactly, findBlock, matchesAt, visiblyEqual } from './find.ts';
import { visibleKey } from './invisible.ts';

/** Any code point above ASCII: a line without one has no zero-width character and nothing to normalise. */
const NON_ASCII = /[^\x00-\x7f]/;

/**
 * Candidate places compared line by line before `findBlock` takes over (a
 * file that repeats the block's lines), and lines compared, as a multiple
 * of the file's length.
 */
const SCAN_HITS = 1000;
const SCAN_ROUNDS = 4;

/** Code units hashed at each end of a line for its fingerprint. */
const PRINT_CHARS = 24;

/**
 * A number per line that whitespace-equal lines share (so equal lines too):
 * a hash of the line as the whitespace rung compares it (`visibleKey`: its
 * zero-width characters removed, in NFC, without its trailing whitespace;
 * its length, its start and its end), kept to 30 bits (a small integer,
 * cheap as a map key). Different lines seldom share one, and a shared one
 * only costs a comparison. An ASCII line (the usual case) is hashed as it
 * is, its trailing whitespace skipped, without making its key.
 */
function fingerprint(raw: string): number {
  const line = NON_ASCII.test(raw) ? visibleKey(raw) : raw;
  let n = line.length;
  while (n > 0 && isTrimmed(line.charCodeAt(n - 1))) n--;
  // FNV-1a over the length and the first and last PRINT_CHARS code units of the line without its
  // trailing whitespace (all of it when shorter): a bounded cost per line, even for a 10 MB line.
  let h = Math.imul(0x811c9dc5 ^ n, 0x01000193);
  const head = Math.min(n, PRINT_CHARS);
  for (let i = 0; i < head; i++) h = Math.imul(h ^ line.charCodeAt(i), 0x01000193);
  for (let i = Math.max(head, n - PRINT_CHARS); i < n; i++) h = Math.imul(h ^ line.charCodeAt(i), 0x01000193);
  return h & 0x3fffffff;
}

/** The characters String.prototype.trimEnd removes: ECMAScript WhiteSpace and LineTerminator. */
function isTrimmed(c: number): boolean {
  return c <= 32
    ? c === 32 || (c >= 9 && c <= 13)
    : c >= 0xa0 &&
        (c === 0xa0 || c === 0x1680 || (c >= 0x2000 && c <= 0x200a) || c === 0x2028 || c === 0x2029 || c === 0x202f || c === 0x205f || c === 0x3000 || c === 0xfeff);
}

/** Per fingerprint, the line holding it, or the lines (ascending) when several do. */
type PrintIndex = Map<number, number | number[]>;
const byPrint = new WeakMap<readonly string[], PrintIndex>();

/** The file's lines by fingerprint (built once per line array). */
function printIndex(lines: readonly string[]): PrintIndex {
  let index = byPrint.get(lines);
  if (!index) {
    index = new Map();
    for (let i = 0; i < lines.length; i++) {
      const f = fingerprint(lines[i]);
      const at = index.get(f);
      if (at === undefined) index.set(f, i);
      else if (typeof at === 'number') index.set(f, [at, i]);
      else at.push(i);
    }
    byPrint.set(lines, index);
  }
  return index;
}

/**
 * Starts outside `[lo, hi]` where `old` is equal (or, with `ws`, whitespace-
 * equal, as the ladder's whitespace rung compares: `visibleKey`). The block's rarest line by fingerprint decides where to look (a
 * line whose fingerprint the file lacks rules every place out at once), and
 * the block is compared there. The fingerprint index costs a fraction of
 * `findBlock`'s (a map keyed by the lines themselves); a block whose every
 * line is found more than SCAN_HITS times, or whose comparisons could add up
 * to more than SCAN_ROUNDS times the file (a file that repeats its lines), is
 * left to `findBlock`, which stays linear there.
 */
export function occurrencesOutside(lines: readonly string[], old: readonly string[], ws: boolean, lo: number, hi: number): number[] {
  const outsideCount = Math.max(0, lines.length - old.length + 1) - Math.max(0, hi - lo + 1);
  if (old.length === 0 || outsideCount <= 0) return [];
  const index = printIndex(lines);
  let rarest: number[] | null = null;
  let at = 0;
  for (let i = 0; i < old.length; i++) {
    const found = index.get(fingerprint(old[i]));
    if (found === undefined) return [];
    const bucket = typeof found === 'number' ? [found] : found;
    if (!rarest || bucket.length < rarest.length) [rarest, at] = [bucket, i];
  }
  if (rarest!.length > SCAN_HITS || rarest!.length * old.length > SCAN_ROUNDS * lines.length)
    return findBlock(lines, old, ws ? visibleKey : null).filter((x) => x < lo || x > hi);
  const eq = ws ? visiblyEqual : exactly;
  const out: number[] = [];
  for (const p of rarest!) {
    const s = p - at;
    if (s < 0 || (s >= lo && s <= hi) || s + old.length > lines.length) continue;
    if (matchesAt(lines, old, s, eq)) out.push(s);
  }
  return out;
}
