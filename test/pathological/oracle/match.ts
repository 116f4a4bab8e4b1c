// ORACLE: src/core/match.ts as it was before the linear-time rewrite (commit 1a40e69),
// unchanged but for its imports. equivalence.test.ts runs it against the engine.

// The match ladder: where do an edit's cited old lines belong in the file?
// Evidence decides; a cited line number is only a hint. spec/matching.md is
// the contract this module implements.
//
// With a cited place c (the line cited for the first old line) and a window
// of W lines on each side, the rungs are tried in order and the first rung
// that finds something decides:
//   1. exact content at c;
//   2. exact content with the whole block shifted by -1 or +1;
//   3. exact content anywhere else in the window, found in exactly one place;
//   4. rungs 1-3 again with whitespace-tolerant comparison (trailing
//      whitespace and CR ignored);
//   5. fuzzy: every line equal or similar above the threshold, only at c or
//      shifted by -1/+1.
// Two equally good places (rung 2 at both -1 and +1, rung 3 twice, rung 5 at
// both -1 and +1) are a failure listing both, never a guess.
// Without a cited place the whole file is the window and only "found in
// exactly one place" (rungs 3 and 4) applies.

import { ratio, quickRatio } from '../../../src/core/similarity.ts';
import type { Code } from '../../../src/core/diagnostics.ts';
import type { Candidate, Diagnostic, EngineOptions, MatchKind } from '../../../src/core/types.ts';

export const DEFAULT_WINDOW = 50;
export const DEFAULT_FUZZY_THRESHOLD = 0.95;

export interface Placed {
  ok: true;
  kind: MatchKind;
  /** 0-based index of the first matched line. */
  start: number;
  /** 0-based index after the last matched line. */
  end: number;
  /** Replacement lines worked out by a format's own matcher (else the edit's `new`). */
  newLines?: string[];
  /** A format's own description of the match; the engine writes one otherwise. */
  message?: string;
  /** Remarks to attach to the edit when it applies. */
  warnings?: Diagnostic[];
  /** `start` minus the cited index, or null without a citation. */
  offset: number | null;
  /** Weakest per-line similarity of the matched lines (1 for exact). */
  similarity: number;
  /** Indexes (into the old lines) of lines that are not byte-equal. */
  differing: number[];
}

export interface Unplaced {
  ok: false;
  code: Code;
  /** A format's own explanation; the engine writes one otherwise. */
  message?: string;
  /** The tied places (ambiguous) or the closest place (no match), best first. */
  candidates: Candidate[];
  /** The rung that tied, for ambiguous results. */
  kind: MatchKind | null;
  /** Exact occurrences outside the window, for the message. */
  outside: number[];
}

export type MatchOutcome = Placed | Unplaced;

// String.prototype.trimEnd: linear time (a regex like /\s+$/ is quadratic on long blank runs).
const trimEnd = (s: string) => s.trimEnd();

/** Per-line similarity as the seed's reference does it: difflib ratio, newline included. */
export function lineSimilarity(cited: string, actual: string): number {
  if (cited === actual) return 1;
  return ratio(actual + '\n', cited + '\n');
}

type Compare = (cited: string, actual: string) => boolean;
const exactly: Compare = (a, b) => a === b;
const ignoringTrailingSpace: Compare = (a, b) => a === b || trimEnd(a) === trimEnd(b);

function matchesAt(lines: readonly string[], old: readonly string[], start: number, eq: Compare): boolean {
  if (start < 0 || start + old.length > lines.length) return false;
  for (let i = 0; i < old.length; i++) if (!eq(old[i], lines[start + i])) return false;
  return true;
}

function fuzzyAt(
  lines: readonly string[],
  old: readonly string[],
  start: number,
  threshold: number,
  whitespace: boolean,
): number | null {
  if (start < 0 || start + old.length > lines.length) return null;
  let weakest = 1;
  for (let i = 0; i < old.length; i++) {
    const a = old[i];
    const b = lines[start + i];
    if (a === b || (whitespace && trimEnd(a) === trimEnd(b))) continue;
    const r = lineSimilarity(a, b);
    if (!(r > threshold)) return null;
    weakest = Math.min(weakest, r);
  }
  return weakest;
}

function placed(
  kind: MatchKind,
  lines: readonly string[],
  old: readonly string[],
  start: number,
  cited: number | null,
  whitespace = true,
): Placed {
  const differing: number[] = [];
  let weakest = 1;
  for (let i = 0; i < old.length; i++) {
    if (old[i] === lines[start + i]) continue;
    differing.push(i);
    // Whitespace-equal lines count as equal: similarity measures what the fuzzy rung forgave.
    if (kind === 'fuzzy' && (!whitespace || trimEnd(old[i]) !== trimEnd(lines[start + i])))
      weakest = Math.min(weakest, lineSimilarity(old[i], lines[start + i]));
  }
  return {
    ok: true,
    kind,
    start,
    end: start + old.length,
    offset: cited === null ? null : start - cited,
    similarity: weakest,
    differing,
  };
}

/** Build a candidate description of the file at `start`. */
export function candidateAt(
  lines: readonly string[],
  old: readonly string[],
  start: number,
  cited: number | null,
): Candidate {
  const slice = lines.slice(start, start + old.length);
  const differs = old.map((line, i) => line !== slice[i]);
  let weakest = 1;
  old.forEach((line, i) => {
    if (differs[i]) weakest = Math.min(weakest, slice[i] === undefined ? 0 : lineSimilarity(line, slice[i]));
  });
  return {
    start: start + 1,
    end: start + slice.length,
    offset: cited === null ? null : start - cited,
    similarity: weakest,
    lines: slice,
    differs,
  };
}

/**
 * Find where `old` belongs in `lines`. `cited` is the 0-based index cited for
 * `old[0]`, or null when the format cites no numbers. `old` must not be empty.
 */
export function locate(
  lines: readonly string[],
  old: readonly string[],
  cited: number | null,
  options: EngineOptions = {},
): MatchOutcome {
  const window = options.window ?? DEFAULT_WINDOW;
  const threshold = options.fuzzyThreshold ?? DEFAULT_FUZZY_THRESHOLD;
  const last = lines.length - old.length; // last valid start
  const lo = cited === null ? 0 : Math.max(0, cited - window);
  const hi = cited === null ? last : Math.min(last, cited + window);

  const rungs: [MatchKind, Compare][] = [['exact', exactly]];
  if (options.whitespace !== false) rungs.push(['whitespace', ignoringTrailingSpace]);

  for (const [kind, eq] of rungs) {
    if (cited !== null) {
      if (matchesAt(lines, old, cited, eq)) return placed(kind, lines, old, cited, cited);
      const below = cited - 1 >= lo && matchesAt(lines, old, cited - 1, eq);
      const above = cited + 1 <= hi && matchesAt(lines, old, cited + 1, eq);
      const shifted = kind === 'exact' ? 'offset' : kind;
      if (below && above) return ambiguous(kind, lines, old, [cited - 1, cited + 1], cited);
      if (below) return placed(shifted, lines, old, cited - 1, cited);
      if (above) return placed(shifted, lines, old, cited + 1, cited);
    }
    const found: number[] = [];
    for (let s = lo; s <= hi; s++) {
      if (cited !== null && Math.abs(s - cited) <= 1) continue;
      if (matchesAt(lines, old, s, eq)) found.push(s);
    }
    if (found.length > 1) return ambiguous(kind, lines, old, found, cited);
    if (found.length === 1) {
      const k: MatchKind = kind === 'exact' && cited !== null ? 'offset' : kind;
      return placed(k, lines, old, found[0], cited);
    }
  }

  if (cited !== null && options.fuzzy !== false) {
    const ws = options.whitespace !== false;
    const at = fuzzyAt(lines, old, cited, threshold, ws);
    if (at !== null) return placed('fuzzy', lines, old, cited, cited, ws);
    const below = cited - 1 >= lo ? fuzzyAt(lines, old, cited - 1, threshold, ws) : null;
    const above = cited + 1 <= hi ? fuzzyAt(lines, old, cited + 1, threshold, ws) : null;
    if (below !== null && above !== null) return ambiguous('fuzzy', lines, old, [cited - 1, cited + 1], cited);
    if (below !== null) return placed('fuzzy', lines, old, cited - 1, cited, ws);
    if (above !== null) return placed('fuzzy', lines, old, cited + 1, cited, ws);
  }

  return {
    ok: false,
    code: 'no-match',
    kind: null,
    candidates: closest(lines, old, cited, lo, hi),
    outside: cited === null ? [] : exactElsewhere(lines, old, lo, hi),
  };
}

function ambiguous(
  kind: MatchKind,
  lines: readonly string[],
  old: readonly string[],
  starts: number[],
  cited: number | null,
): Unplaced {
  return {
    ok: false,
    code: 'ambiguous',
    kind,
    candidates: starts.map((s) => candidateAt(lines, old, s, cited)),
    outside: [],
  };
}

/** Exact occurrences of `old` outside `[lo, hi]`. */
function exactElsewhere(lines: readonly string[], old: readonly string[], lo: number, hi: number): number[] {
  const out: number[] = [];
  for (let s = 0; s <= lines.length - old.length; s++) {
    if (s >= lo && s <= hi) continue;
    if (matchesAt(lines, old, s, exactly)) out.push(s);
  }
  return out;
}

/** Upper bound on the ratio computations spent looking for the closest place. */
const CLOSEST_BUDGET = 20_000;

/**
 * The start in `[lo, hi]` whose lines are most similar to `old` (mean
 * per-line similarity; ties go to the place nearest the cited one). When the
 * file is shorter than the block, the closest place is the file's start.
 */
function closest(
  lines: readonly string[],
  old: readonly string[],
  cited: number | null,
  lo: number,
  hi: number,
): Candidate[] {
  if (lines.length === 0) return [];
  if (hi < lo) return [candidateAt(lines, old, Math.max(0, Math.min(cited ?? 0, lines.length - 1)), cited)];
  const center = cited ?? lo;
  const starts: number[] = [];
  for (let s = lo; s <= hi; s++) starts.push(s);
  starts.sort((a, b) => Math.abs(a - center) - Math.abs(b - center) || a - b);
  let budget = CLOSEST_BUDGET;
  let best = -1;
  let bestScore = -1;
  for (const s of starts) {
    let sum = 0;
    for (let i = 0; i < old.length; i++) {
      const a = old[i];
      const b = lines[s + i];
      if (a === b) sum += 1;
      else if (budget-- > 0) sum += lineSimilarity(a, b);
      else sum += quickRatio(b + '\n', a + '\n');
    }
    if (sum > bestScore) {
      bestScore = sum;
      best = s;
    }
  }
  return [candidateAt(lines, old, best, cited)];
}
