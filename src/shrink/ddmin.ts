// Delta debugging (Zeller and Hildebrandt's ddmin): the smallest part of a
// list that still passes a test, found by trying to keep one chunk, then to
// drop one chunk, at ever finer granularity. Pure and generic: the reducer
// gives it lines, files or reply blocks, and a test that runs the engine.

/** Split `items` into `n` chunks of nearly equal length, in order. */
export function chunks<T>(items: readonly T[], n: number): T[][] {
  const out: T[][] = [];
  let start = 0;
  for (let k = 0; k < n; k++) {
    const end = start + Math.floor((items.length - start) / (n - k));
    if (end > start) out.push(items.slice(start, end));
    start = end;
  }
  return out;
}

/**
 * A 1-minimal sublist of `items` for which `test` holds (`test(items)` is
 * assumed to hold): dropping any single item left makes it fail, unless
 * `stop` said to stop first (then the smallest passing list found so far).
 * The empty list is tried first.
 */
export function ddmin<T>(items: readonly T[], test: (kept: readonly T[]) => boolean, stop: () => boolean = () => false): T[] {
  let current = [...items];
  if (current.length === 0 || stop()) return current;
  if (test([])) return [];
  let n = 2;
  while (current.length >= 2 && !stop()) {
    const parts = chunks(current, n);
    let next: T[] | null = null;
    for (const part of parts) {
      if (stop()) break;
      if (test(part)) {
        next = part;
        n = 2;
        break;
      }
    }
    // With two parts, each complement is the other part: already tried.
    if (next === null && parts.length > 2) {
      for (let k = 0; k < parts.length && !stop(); k++) {
        const rest = parts.filter((_, j) => j !== k).flat();
        if (test(rest)) {
          next = rest;
          n = Math.max(n - 1, 2);
          break;
        }
      }
    }
    if (next !== null) {
      current = next;
      continue;
    }
    if (stop() || n >= current.length) break;
    n = Math.min(current.length, n * 2);
  }
  return current;
}
