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
//      whitespace and CR, zero-width characters and the Unicode
//      normalisation form ignored: invisible.ts);
//   5. fuzzy: every line equal or similar above the threshold, only at c or
//      shifted by -1/+1.
// Two equally good places (rung 2 at both -1 and +1, rung 3 twice, rung 5 at
// both -1 and +1) are a failure listing both, never a guess.
// Without a cited place the whole file is the window and only "found in
// exactly one place" (rungs 3 and 4) applies.

import type { RequestBudget } from './budget.ts';
import { candidateAt, closest, tiedCandidates } from './candidates.ts';
import { ENGINE_DEFAULTS } from './defaults.ts';
import { exactly, findBlock, matchesAt, visiblyEqual, type Compare, type LineKey } from './find.ts';
import { visibleKey } from './invisible.ts';
import { occurrencesOutside } from './fingerprint.ts';
import { lineSimilarity, oneWordApart } from './line-similarity.ts';
import type { EngineOptions, MatchKind, MatchOutcome, Placed, Unplaced } from './types.ts';

// What formats' own matchers use with the ladder, from the modules that hold it.
export {
  SEARCH_BUDGET_PER_EDIT,
  SEARCH_BUDGET_PER_REQUEST,
  budgetedSimilarity,
  requestBudget,
  searchBudget,
  searchedNote,
  UNSEARCHED,
  unsearched,
  type RequestBudget,
  type SearchBudget,
} from './budget.ts';
export { CLOSEST_FLOOR, MAX_CANDIDATES, candidateAt, closest, morePlaces, refusal, tiedCandidates } from './candidates.ts';
export { RATIO_MAX_LENGTH, endsSimilarity, fuzzyRefusal, lineSimilarity, oneWordApart } from './line-similarity.ts';
export type { MatchOutcome, Placed, Unplaced } from './types.ts';

// Whitespace-equal lines have the same key: trailing white space, zero-width
// characters and the Unicode normalisation form do not count (invisible.ts).
const wsKey = visibleKey;

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
    if (a === b || (whitespace && wsKey(a) === wsKey(b))) continue;
    const r = lineSimilarity(a, b);
    if (!(r > threshold) || !oneWordApart(a, b)) return null;
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
    if (kind === 'fuzzy' && (!whitespace || wsKey(old[i]) !== wsKey(lines[start + i])))
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

/**
 * Find where `old` belongs in `lines`. `cited` is the 0-based index cited for
 * `old[0]`, or null when the format cites no numbers. `old` must not be empty.
 * The search for the closest place of an edit that matches nowhere draws
 * from `request`, the request's search budget, when given.
 */
export function locate(
  lines: readonly string[],
  old: readonly string[],
  cited: number | null,
  options: EngineOptions = {},
  request?: RequestBudget | null,
): MatchOutcome {
  const window = options.window ?? ENGINE_DEFAULTS.window;
  const threshold = options.fuzzyThreshold ?? ENGINE_DEFAULTS.fuzzyThreshold;
  const last = lines.length - old.length; // last valid start
  const lo = cited === null ? 0 : Math.max(0, cited - window);
  const hi = cited === null ? last : Math.min(last, cited + window);

  // Whitespace-equal is "equal keys" (visibleKey): the same comparison as a key, for findBlock.
  const rungs: [MatchKind, Compare, LineKey][] = [['exact', exactly, null]];
  if (options.whitespace !== false) rungs.push(['whitespace', visiblyEqual, visibleKey]);

  for (const [kind, eq, key] of rungs) {
    if (cited !== null) {
      if (matchesAt(lines, old, cited, eq)) return placed(kind, lines, old, cited, cited);
      const below = cited - 1 >= lo && matchesAt(lines, old, cited - 1, eq);
      const above = cited + 1 <= hi && matchesAt(lines, old, cited + 1, eq);
      const shifted = kind === 'exact' ? 'offset' : kind;
      if (below && above) return ambiguous(kind, lines, old, [cited - 1, cited + 1], cited);
      if (below) return placed(shifted, lines, old, cited - 1, cited);
      if (above) return placed(shifted, lines, old, cited + 1, cited);
    }
    const found = findBlock(lines, old, key, lo, hi).filter((s) => cited === null || Math.abs(s - cited) > 1);
    if (found.length > 1) return ambiguous(kind, lines, old, found, cited);
    if (found.length === 1) {
      const k: MatchKind = kind === 'exact' && cited !== null ? 'offset' : kind;
      return placed(k, lines, old, found[0], cited);
    }
  }

  if (cited !== null && options.fuzzy !== false) {
    const ws = options.whitespace !== false;
    // A block that is in the file unchanged (or whitespace-equal) outside the window may be
    // meant there: a similar block at the cited place is then a guess, and is refused.
    const fuzzy = (start: number): MatchOutcome => {
      const far = occurrencesOutside(lines, old, ws, lo, hi);
      if (far.length === 0) return placed('fuzzy', lines, old, start, cited, ws);
      return { ok: false, code: 'no-match', kind: null, outside: far, candidates: [candidateAt(lines, old, start, cited)], fuzzyRefused: start };
    };
    const at = fuzzyAt(lines, old, cited, threshold, ws);
    if (at !== null) return fuzzy(cited);
    const below = cited - 1 >= lo ? fuzzyAt(lines, old, cited - 1, threshold, ws) : null;
    const above = cited + 1 <= hi ? fuzzyAt(lines, old, cited + 1, threshold, ws) : null;
    if (below !== null && above !== null) return ambiguous('fuzzy', lines, old, [cited - 1, cited + 1], cited);
    if (below !== null) return fuzzy(cited - 1);
    if (above !== null) return fuzzy(cited + 1);
  }

  const outside = cited === null ? [] : occurrencesOutside(lines, old, false, lo, hi);
  // The block is in the file unchanged, only further from the cited place than the window:
  // that copy is the candidate, not whatever place in the window is most alike.
  if (outside.length > 0)
    return { ok: false, code: 'no-match', kind: null, outside, ...tiedCandidates(outside, (s) => candidateAt(lines, old, s, cited)) };
  return { ok: false, code: 'no-match', kind: null, outside, ...closest(lines, old, cited, lo, hi, request) };
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
    ...tiedCandidates(starts, (s) => candidateAt(lines, old, s, cited)),
    outside: [],
  };
}
