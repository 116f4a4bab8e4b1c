// Reply lines that edits cover, for "does this edit overlap (or lie within)
// one of those?" in logarithmic time: what detection and mixed replies ask
// of every edit against every other format's.

import type { Edit } from '../core/types.ts';

/** Where an edit is in the reply, by lines (1-based, inclusive). */
export interface Lines {
  start: number;
  end: number;
}

export const editLines = (edit: Edit): Lines => ({ start: edit.span.start.line, end: edit.span.end.line });

/** The index of the last of `n` sorted items at or below `x` by `key`, or -1 (binary search). */
export function lastAtOrBelow(n: number, x: number, key: (k: number) => number): number {
  let lo = 0;
  let hi = n;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (key(mid) <= x) lo = mid + 1;
    else hi = mid;
  }
  return lo - 1;
}

/**
 * Line ranges, sorted by start, each with the furthest end among it and
 * those before it.
 */
export class Ranges {
  private starts: number[] = [];
  /** Per item (sorted): the furthest end so far, and the tag of the item that reaches it. */
  private reach: { end: number; tag: number }[] = [];
  private items: { at: Lines; tag: number }[] = [];
  constructor(items: { at: Lines; tag: number }[] = []) {
    this.set(items);
  }
  private set(items: { at: Lines; tag: number }[]): void {
    this.items = [...items].sort((a, b) => a.at.start - b.at.start);
    this.starts = this.items.map((i) => i.at.start);
    this.reach = [];
    let far = { end: -Infinity, tag: -1 };
    for (const i of this.items) this.reach.push((far = i.at.end > far.end ? { end: i.at.end, tag: i.tag } : far));
  }
  add(items: { at: Lines; tag: number }[]): void {
    if (items.length) this.set([...this.items, ...items]);
  }
  /** The furthest end among ranges starting at or before `line`, and the tag of one that reaches it. */
  furthest(line: number): { end: number; tag: number } | null {
    const k = lastAtOrBelow(this.starts.length, line, (i) => this.starts[i]);
    return k < 0 ? null : this.reach[k];
  }
  /** Whether `at` overlaps a range. */
  overlaps(at: Lines): boolean {
    const f = this.furthest(at.end);
    return f !== null && f.end >= at.start;
  }
}
