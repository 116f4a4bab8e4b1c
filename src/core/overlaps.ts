// Which placed edits of one file clash, and with which edit each one is
// reported: in O(k log k) for k edits, so that thousands of edits of one
// line (all of them clashing) cost no more than thousands of separate ones.

/** A placed edit as the overlap check sees it (0-based half-open lines). */
export interface Placed {
  from: number;
  to: number;
  /** It rewrites or deletes the whole file: it clashes with every other edit of the file. */
  whole: boolean;
  /** The path it moves the file to; two edits naming different paths clash. */
  moveTo?: string;
  /**
   * It changes nothing (its new lines are the lines it replaces, it moves
   * nothing): it clashes with no edit, so that it never blocks one that does
   * change its lines (a unified diff's context-only hunk beside real ones).
   */
  inert?: boolean;
}

/**
 * Do two placed edits claim the same original lines? An edit that changes
 * nothing clashes with none (overlapping means changing a common line,
 * which it never does). Otherwise whole-file edits clash
 * with everything; edits moving the file to different paths clash; two
 * ranges clash when they share a line; an insertion point clashes with a
 * range only strictly inside it (insertions at one point stack, and an
 * insertion at a range's edge is beside it, not in it).
 */
export function clashes(a: Placed, b: Placed): boolean {
  if (a.inert || b.inert) return false;
  if (a.whole || b.whole) return true;
  if (a.moveTo && b.moveTo && a.moveTo !== b.moveTo) return true;
  if (a.from === a.to) return b.from < a.from && a.from < b.to;
  if (b.from === b.to) return a.from < b.from && b.from < a.to;
  return Math.max(a.from, b.from) < Math.min(a.to, b.to);
}

/**
 * For each edit (in reply order), the index of the first edit in reply order
 * that clashes with it (`clashes`), or -1 when none does. The same answer as
 * testing every pair, without testing every pair: the edits take turns in
 * reply order, and each claims every edit not yet claimed that clashes with
 * it (the first to claim an edit is the first that clashes with it); claimed
 * edits leave the search structures, so each is found once. `counter.steps`,
 * when given, counts the work done (structure nodes visited, edits claimed).
 */
export function firstClashes(all: readonly Placed[], counter?: { steps: number }): number[] {
  // Edits that change nothing clash with none: the others are checked alone, their answers mapped back.
  if (all.some((e) => e.inert)) {
    const ids = all.flatMap((e, i) => (e.inert ? [] : [i]));
    const partner: number[] = new Array(all.length).fill(-1);
    firstClashes(ids.map((i) => all[i]), counter).forEach((p, j) => (partner[ids[j]] = p < 0 ? -1 : ids[p]));
    return partner;
  }
  const edits = all;
  const k = edits.length;
  const partner: number[] = new Array(k).fill(-1);
  if (k < 2) return partner;
  const step = (n = 1) => {
    if (counter) counter.steps += n;
  };

  // Ranges by start, with a tree of the largest end among those not yet claimed.
  const rangeIds = edits.flatMap((e, i) => (!e.whole && e.from < e.to ? [i] : [])).sort((a, b) => edits[a].from - edits[b].from);
  const slotOf = new Map<number, number>(rangeIds.map((id, s) => [id, s]));
  let size = 1;
  while (size < rangeIds.length) size *= 2;
  const maxTo = new Array<number>(2 * size).fill(-1);
  const setSlot = (s: number, value: number) => {
    let node = size + s;
    maxTo[node] = value;
    for (node >>= 1; node >= 1; node >>= 1) {
      maxTo[node] = Math.max(maxTo[2 * node], maxTo[2 * node + 1]);
      step();
    }
  };
  rangeIds.forEach((id, s) => (maxTo[size + s] = edits[id].to));
  for (let node = size - 1; node >= 1; node--) maxTo[node] = Math.max(maxTo[2 * node], maxTo[2 * node + 1]);
  /** The first slot below `limit` whose end is past `after`, or -1. */
  const firstPast = (limit: number, after: number): number => {
    const find = (node: number, lo: number, hi: number): number => {
      step();
      if (lo >= limit || maxTo[node] <= after) return -1;
      if (node >= size) return lo;
      const mid = (lo + hi) >> 1;
      const left = find(2 * node, lo, mid);
      return left >= 0 ? left : find(2 * node + 1, mid, hi);
    };
    return find(1, 0, size);
  };
  /** How many ranges start before line `at`. */
  const startingBefore = (at: number): number => {
    let lo = 0;
    let hi = rangeIds.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      step();
      if (edits[rangeIds[mid]].from < at) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  };

  // Insertion points by place, each linked to the next one not yet claimed.
  const pointIds = edits.flatMap((e, i) => (!e.whole && e.from === e.to ? [i] : [])).sort((a, b) => edits[a].from - edits[b].from);
  const pointSlot = new Map<number, number>(pointIds.map((id, s) => [id, s]));
  const nextPoint = pointIds.map((_, s) => s);
  nextPoint.push(pointIds.length);
  const live = (s: number): number => {
    let r = s;
    while (nextPoint[r] !== r) {
      step();
      r = nextPoint[r];
    }
    while (s !== r) {
      const next = nextPoint[s];
      nextPoint[s] = r;
      s = next;
    }
    return r;
  };

  const wholes = new Set(edits.flatMap((e, i) => (e.whole ? [i] : [])));
  const moves = new Map<string, Set<number>>();
  edits.forEach((e, i) => {
    if (!e.moveTo) return;
    const group = moves.get(e.moveTo) ?? new Set<number>();
    group.add(i);
    moves.set(e.moveTo, group);
  });

  let left = k;
  const claim = (x: number, by: number) => {
    if (x === by || partner[x] >= 0) return;
    step();
    partner[x] = by;
    left--;
    const e = edits[x];
    wholes.delete(x);
    if (e.moveTo) {
      const group = moves.get(e.moveTo)!;
      group.delete(x);
      if (group.size === 0) moves.delete(e.moveTo);
    }
    const s = slotOf.get(x);
    if (s !== undefined) setSlot(s, -1);
    const p = pointSlot.get(x);
    if (p !== undefined) nextPoint[p] = p + 1;
  };

  for (let y = 0; y < k && left > 0; y++) {
    const e = edits[y];
    step();
    if (e.whole) {
      for (let x = 0; x < k; x++) claim(x, y);
      continue;
    }
    for (const x of [...wholes]) claim(x, y);
    if (e.moveTo)
      for (const [target, group] of [...moves]) if (target !== e.moveTo) for (const x of [...group]) claim(x, y);
    // Ranges sharing a line with y (or holding y's insertion point strictly inside): y itself set aside.
    const own = slotOf.get(y);
    if (own !== undefined) setSlot(own, -1);
    const limit = startingBefore(e.from < e.to ? e.to : e.from);
    for (let s = firstPast(limit, e.from); s >= 0; s = firstPast(limit, e.from)) claim(rangeIds[s], y);
    if (own !== undefined && partner[y] < 0) setSlot(own, e.to);
    // Insertion points strictly inside y.
    if (e.from < e.to) {
      let lo = 0;
      let hi = pointIds.length;
      while (lo < hi) {
        const mid = (lo + hi) >> 1;
        step();
        if (edits[pointIds[mid]].from <= e.from) lo = mid + 1;
        else hi = mid;
      }
      for (let s = live(lo); s < pointIds.length && edits[pointIds[s]].from < e.to; s = live(s + 1)) claim(pointIds[s], y);
    }
  }
  return partner;
}
