// Candidates: the places an edit that did not apply is shown, each with its
// lines and how similar they are; the tied places of an ambiguous edit, and
// the closest place of an edit that matched nowhere (a bounded search).

import { anchoredPlaces, nearestRank } from './anchors.ts';
import { budgetedSimilarity, searchBudget, type RequestBudget, type SearchBudget } from './budget.ts';
import type { Code } from './codes.ts';
import { lineSimilarity } from './line-similarity.ts';
import type { Candidate, Unplaced } from './types.ts';

/**
 * Build a candidate description of the file at `start`: its lines, which
 * differ from `old`, and the similarity of the least similar differing line.
 * With `budget`, the comparisons are paid from it (an old block of 400,000
 * lines, each a little off, must not compare them all): differing lines
 * left when it is spent count as similarity 0 (not shown to be similar).
 */
export function candidateAt(
  lines: readonly string[],
  old: readonly string[],
  start: number,
  cited: number | null,
  budget?: SearchBudget,
): Candidate {
  const slice = lines.slice(start, start + old.length);
  const differs = old.map((line, i) => line !== slice[i]);
  let weakest = 1;
  old.forEach((line, i) => {
    if (!differs[i] || weakest === 0) return;
    if (slice[i] === undefined || (budget && !budget.left())) weakest = 0;
    else weakest = Math.min(weakest, budget ? budgetedSimilarity(budget, line, slice[i]) : lineSimilarity(line, slice[i]));
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
 * Tied places described as candidates, at most: a block of thousands of
 * identical lines can tie at thousands of places, each candidate holding the
 * block's lines. The others are only counted (`Unplaced.tied`).
 */
export const MAX_CANDIDATES = 100;

/** Candidates for the first `MAX_CANDIDATES` of `starts`, and the count of all when some were left out. */
export function tiedCandidates(
  starts: readonly number[],
  candidate: (start: number, k: number) => Candidate,
): Pick<Unplaced, 'candidates' | 'tied'> {
  const candidates = starts.slice(0, MAX_CANDIDATES).map(candidate);
  return starts.length > MAX_CANDIDATES ? { candidates, tied: starts.length } : { candidates };
}

/** ` and N more places` when an ambiguous outcome lists only some of its tied places. */
export function morePlaces(outcome: Pick<Unplaced, 'candidates' | 'tied'>): string {
  const more = (outcome.tied ?? 0) - outcome.candidates.length;
  return more > 0 ? ` and ${more} more place${more === 1 ? '' : 's'}` : '';
}

/** An edit a format's own matcher refuses outright, with its message: no candidate, no place elsewhere. */
export function refusal(code: Code, message: string): Unplaced {
  return { ok: false, code, kind: null, candidates: [], outside: [], message };
}

/** Average similarity below which no place is named as the closest candidate. */
export const CLOSEST_FLOOR = 0.5;

/**
 * The place in `[lo, hi]` whose lines are most similar to `old` (mean
 * per-line similarity; among equals, the first in nearest-first order around
 * the cited place, or from `lo` up without one), among the places compared
 * before the search budget runs out (this search's own allowance, drawn from
 * `request`'s when given); `searched` then says how many were.
 *
 * The places the block's anchors point to (anchors.ts: where its distinctive
 * lines are in the file as they are) are compared first, then the others
 * nearest first; so a block with one line mistyped names its real place
 * however large the file. When no place lies in `[lo, hi]` (the file is
 * shorter than the block, or the window is past its end), the closest place
 * is the file's line nearest the cited one (its start without one), named
 * only when it shares half the text. `onPlace`, when given, hears each place
 * compared (tests count the work with it).
 */
export function closest(
  lines: readonly string[],
  old: readonly string[],
  cited: number | null,
  lo: number,
  hi: number,
  request?: RequestBudget | null,
  onPlace?: (start: number) => void,
): Pick<Unplaced, 'candidates' | 'searched'> {
  if (lines.length === 0) return { candidates: [] };
  if (hi < lo) {
    // No whole place (the file is shorter than the block, or the window lies past its end): the nearest
    // start, named only when it shares half the text like any closest place (a line past the end counts 0).
    const start = Math.max(0, Math.min(cited ?? 0, lines.length - 1));
    const slice = lines.slice(start, start + old.length);
    const mean = old.reduce((sum, line, i) => sum + (slice[i] === undefined ? 0 : lineSimilarity(line, slice[i])), 0) / old.length;
    return { candidates: mean >= CLOSEST_FLOOR ? [candidateAt(lines, old, start, cited)] : [] };
  }
  const center = Math.max(lo, Math.min(hi, cited ?? lo));
  const budget = searchBudget(request);
  const places = hi - lo + 1;
  let compared = 0;
  let best = center;
  let bestScore = -1;
  let bestLines = 0;
  const compare = (s: number) => {
    // A block longer than the budget is compared as far as it goes: the lines left count 0.
    let sum = 0;
    let i = 0;
    for (; i < old.length && (i === 0 || budget.left()); i++) sum += budgetedSimilarity(budget, old[i], lines[s + i]);
    compared++;
    onPlace?.(s);
    // Among equals the nearest wins, whichever was compared first.
    if (sum > bestScore || (sum === bestScore && nearestRank(s, center) < nearestRank(best, center))) {
      bestScore = sum;
      bestLines = i;
      best = s;
    }
  };
  // The places the anchors point to, then the others nearest first: center, center - 1, center + 1, ...
  const anchored = new Set<number>();
  for (const s of anchoredPlaces(lines, old, lo, hi, center)) {
    if (!budget.left()) break;
    anchored.add(s);
    compare(s);
  }
  for (let d = 0; compared < places && budget.left(); d++) {
    for (const s of d === 0 ? [center] : [center - d, center + d]) {
      if (s < lo || s > hi || !budget.left() || anchored.has(s)) continue;
      compare(s);
    }
  }
  // A place sharing less than half the text (of the lines compared) is no hint: none is named. Its
  // description compares the lines that differ again, from an allowance of its own.
  const candidates = bestScore / bestLines >= CLOSEST_FLOOR ? [candidateAt(lines, old, best, cited, searchBudget())] : [];
  return compared < places ? { candidates, searched: { compared, places } } : { candidates };
}
