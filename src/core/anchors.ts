// Anchors: the places a block's own lines point to, compared first by the
// search for the closest place (candidates.ts). A block with one line
// mistyped still has its other lines in the file as they are; the place
// those lines agree on is where the block was meant, however deep into a
// large file, where the bounded nearest-first scan alone may never get.
// spec/matching.md ("Bounds", the closest candidate) states the rule.

import { linesWithKey } from './find.ts';
import { visibleKey } from './invisible.ts';

/**
 * A line as anchors compare it: the whitespace rung's key (zero-width
 * characters, normalisation form and trailing white space set aside) without
 * its leading white space either, so a block quoted at another indentation
 * still finds its place.
 */
export const anchorKey = (line: string): string => visibleKey(line).trimStart();

/** A block line that more file lines than this equal (`}`, `return;`, `else {`) is no anchor. */
export const ANCHOR_MAX_LINES = 32;
/** File lines the anchors of one block point from, in all, at most (anchors are taken rarest first). */
export const ANCHOR_POINTERS = 10_000;
/** Places pointed to that are compared before the scan, at most. */
export const ANCHORED_PLACES = 100;

/**
 * The position of start `s` in nearest-first order around `center`:
 * `center` is 0, `center - 1` is 1, `center + 1` is 2, `center - 2` is 3, ...
 */
export function nearestRank(s: number, center: number): number {
  return s < center ? 2 * (center - s) - 1 : 2 * (s - center);
}

/**
 * The starts in `[lo, hi]` that the anchors of `old` point to, at most
 * `ANCHORED_PLACES`, most pointed to first, then in nearest-first order
 * around `center`.
 *
 * A line of `old` is an anchor when it is not blank and 1 to
 * `ANCHOR_MAX_LINES` file lines equal it under `anchorKey`. Anchors are
 * taken rarest first (block order among equals) while the file lines they
 * point from total at most `ANCHOR_POINTERS`; a file line `p` equal to the
 * anchor at block position `i` points to the start `p - i`. A block of
 * common lines (`}`, blank lines) has no anchor and costs one look-up per
 * line; any block costs at most `ANCHOR_POINTERS` pointers.
 */
export function anchoredPlaces(lines: readonly string[], old: readonly string[], lo: number, hi: number, center: number): number[] {
  if (hi < lo) return [];
  const anchors: { i: number; at: readonly number[] }[] = [];
  for (let i = 0; i < old.length; i++) {
    if (anchorKey(old[i]) === '') continue;
    const at = linesWithKey(lines, anchorKey, old[i]);
    if (at.length > 0 && at.length <= ANCHOR_MAX_LINES) anchors.push({ i, at });
  }
  anchors.sort((a, b) => a.at.length - b.at.length || a.i - b.i);
  const votes = new Map<number, number>();
  let pointers = 0;
  for (const { i, at } of anchors) {
    if (pointers + at.length > ANCHOR_POINTERS) break; // the others are no rarer
    pointers += at.length;
    for (const p of at) {
      const s = p - i;
      if (s >= lo && s <= hi) votes.set(s, (votes.get(s) ?? 0) + 1);
    }
  }
  return [...votes]
    .sort((a, b) => b[1] - a[1] || nearestRank(a[0], center) - nearestRank(b[0], center))
    .slice(0, ANCHORED_PLACES)
    .map(([s]) => s);
}
