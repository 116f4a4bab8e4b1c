// Line-level differences between two versions of a file, as splices against
// the original: what every format's writer starts from.

import { diffArrays } from 'diff';
import { copyBeside } from './applied.ts';
import type { Splice, TextFile } from './text.ts';

/**
 * The smallest set of splices (jsdiff's Myers diff over whole lines) that
 * turns `before` into `after`, in order, non-overlapping, separated by at
 * least one unchanged line.
 */
export function lineSplices(before: readonly string[], after: readonly string[]): Splice[] {
  return lineSplicesWithin(before, after) ?? [];
}

/**
 * `lineSplices`, made safe to write as edits: a splice whose new lines
 * already stand beside it in `before` (a line added next to an equal line,
 * as when a change duplicates it) would be written as an edit that reads
 * back as already applied (src/core/applied.ts), and the engine would refuse
 * it. Such a splice is widened over unchanged lines on both sides, by as
 * many lines as it writes (at least one), until no copy of its new lines
 * touches it; splices that come to touch are merged. The splices still turn
 * `before` into `after`, in order, separated by at least one unchanged line;
 * only the ones next to such a copy are wider than the diff's.
 */
export function writableSplices(before: readonly string[], after: readonly string[]): Splice[] {
  const n = before.length;
  // Each diff splice in a group: the lines it cites, [from, to), and the splices inside them.
  let groups: SpliceGroup[] = lineSplices(before, after).map((s) => ({ from: s.from, to: s.to, splices: [s] }));
  const copy = (g: SpliceGroup) => copyBeside({ file: before, from: g.from, to: g.to, lines: spliceRange(before, g.from, g.to, g.splices) });
  for (;;) {
    let widened = false;
    for (const g of groups) {
      while ((g.from > 0 || g.to < n) && copy(g)) {
        const by = Math.max(1, spliceRange(before, g.from, g.to, g.splices).length);
        g.from = Math.max(0, g.from - by);
        g.to = Math.min(n, g.to + by);
        widened = true;
      }
    }
    if (!widened) break;
    const merged: SpliceGroup[] = [];
    for (const g of groups) {
      const last = merged[merged.length - 1];
      if (last && g.from <= last.to) {
        last.to = Math.max(last.to, g.to);
        last.splices.push(...g.splices);
      } else merged.push(g);
    }
    groups = merged;
  }
  return groups.map((g) => (g.splices.length === 1 && g.from === g.splices[0].from && g.to === g.splices[0].to ? g.splices[0] : { from: g.from, to: g.to, lines: spliceRange(before, g.from, g.to, g.splices) }));
}

/** A stretch of original lines `[from, to)` that one written edit cites (its context and the lines it changes), and the splices inside it. */
export interface SpliceGroup {
  from: number;
  to: number;
  splices: Splice[];
}

/**
 * Grow each group by one line on each side (within `[0, n)`) until
 * `unique(group)` holds (its lines occur once in the file, say; a group that
 * holds as it is does not grow), merge the groups with `merge` (those that
 * came to share a line), and repeat until no group grew and none merged.
 * `unique` must hold for a group of all `n` lines, or the growing stops
 * there.
 */
export function widenUntilUnique(
  groups: SpliceGroup[],
  n: number,
  unique: (group: SpliceGroup) => boolean,
  merge: (groups: SpliceGroup[]) => SpliceGroup[],
): SpliceGroup[] {
  for (;;) {
    let changed = false;
    for (const g of groups) {
      while (!unique(g) && (g.from > 0 || g.to < n)) {
        g.from = Math.max(0, g.from - 1);
        g.to = Math.min(n, g.to + 1);
        changed = true;
      }
    }
    const merged = merge(groups);
    if (!changed && merged.length === groups.length) return merged;
    groups = merged;
  }
}

/**
 * `lineSplices`, or null when the two differ in more than `maxEdit` lines
 * (the diff stops there: its cost grows with the lines it changes).
 */
function lineSplicesWithin(before: readonly string[], after: readonly string[], maxEdit?: number): Splice[] | null {
  const out: Splice[] = [];
  let pos = 0;
  let current: Splice | null = null;
  const changes = maxEdit === undefined ? diffArrays([...before], [...after]) : diffArrays([...before], [...after], { maxEditLength: maxEdit });
  if (!changes) return null;
  for (const change of changes) {
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

/** Changed lines one edit's diff of its replaced and new lines looks at, at most (beyond, only the unchanged lines at its start and end are found). */
const MAX_EDIT_DIFF = 2000;

/**
 * The splices that put `lines` in place of the file's lines `[from, to)`
 * without rewriting the lines the edit keeps (spec/formats.md, "Line
 * endings"): a kept line stays the file's own, ending and all. Kept are the
 * lines `keep` maps to the file (a hunk's context lines: `keep[i] = j` when
 * new line `i` is the file's line `from + j`; entries out of order or out of
 * range are ignored), and, between them, the lines a line diff of the
 * replaced and the new lines finds unchanged. Each splice of new lines that
 * replaces lines takes the ending of the last line it replaces (the
 * `applySplices` default); one that replaces none takes the ending of the
 * kept line above it in the edit, else of the kept line below it, else
 * (an edit that keeps nothing, or a line without an ending) the file's
 * dominant ending.
 */
export function editSplices(file: TextFile, from: number, to: number, lines: readonly string[], keep?: readonly (number | null)[]): Splice[] {
  const out: Splice[] = [];
  // The runs between kept lines: old [a, b) and new [c, d), relative to `from`.
  const run = (a: number, b: number, c: number, d: number) => {
    if (a === b && c === d) return;
    const before = file.lines.slice(from + a, from + b);
    const after = lines.slice(c, d);
    let pieces = a === b || c === d ? null : lineSplicesWithin(before, after, MAX_EDIT_DIFF);
    if (!pieces) {
      // Only the unchanged lines at the run's start and end.
      let head = 0;
      while (head < before.length && head < after.length && before[head] === after[head]) head++;
      let tail = 0;
      while (tail < before.length - head && tail < after.length - head && before[before.length - 1 - tail] === after[after.length - 1 - tail]) tail++;
      pieces = head === before.length && head === after.length ? [] : [{ from: head, to: before.length - tail, lines: after.slice(head, after.length - tail) }];
    }
    for (const p of pieces) out.push({ from: from + a + p.from, to: from + a + p.to, lines: p.lines });
  };
  let a = 0;
  let c = 0;
  const span = to - from;
  if (keep && keep.length === lines.length) {
    for (let i = 0; i < keep.length; i++) {
      const j = keep[i];
      if (j === null || j === undefined || !Number.isInteger(j) || j < a || j >= span) continue;
      run(a, j, c, i);
      a = j + 1;
      c = i + 1;
    }
  }
  run(a, span, c, lines.length);
  for (const s of out) {
    if (s.from !== s.to) continue;
    const eol = s.from > from ? file.eols[s.from - 1] : s.from < to ? file.eols[s.from] : '';
    if (eol) s.eol = eol;
  }
  return out;
}
