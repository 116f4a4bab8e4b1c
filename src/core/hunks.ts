// Line-level differences between two versions of a file, as splices against
// the original: what every format's writer starts from.

import { diffArrays } from 'diff';
import type { Splice } from './text.ts';

/**
 * The smallest set of splices (jsdiff's Myers diff over whole lines) that
 * turns `before` into `after`, in order, non-overlapping, separated by at
 * least one unchanged line.
 */
export function lineSplices(before: readonly string[], after: readonly string[]): Splice[] {
  const out: Splice[] = [];
  let pos = 0;
  let current: Splice | null = null;
  for (const change of diffArrays([...before], [...after])) {
    if (!change.added && !change.removed) {
      if (current) out.push(current);
      current = null;
      pos += change.count;
      continue;
    }
    current ??= { from: pos, to: pos, lines: [] };
    if (change.removed) {
      current.to += change.count;
      pos += change.count;
    } else {
      current.lines.push(...change.value);
    }
  }
  if (current) out.push(current);
  return out;
}

/**
 * The lines `before[from, to)` with `splices` (non-overlapping, inside the
 * range, in any order) applied: what a writer's block replaces them with.
 */
export function spliceRange(before: readonly string[], from: number, to: number, splices: readonly Splice[]): string[] {
  const out: string[] = [];
  let pos = from;
  for (const s of [...splices].sort((x, y) => x.from - y.from)) {
    out.push(...before.slice(pos, s.from), ...s.lines);
    pos = Math.max(pos, s.to);
  }
  out.push(...before.slice(pos, to));
  return out;
}
