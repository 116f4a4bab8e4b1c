// Where a Roo SEARCH block belongs: Roo's matcher (normalised text,
// Levenshtein similarity, a window around the `:start_line:` hint), with
// ties refused instead of resolved by search order. spec/formats/roo.md,
// "Matching", is the contract.
//
// With a hint c (0-based) and a window of W lines on each side, the tiers
// are tried in order and the first that finds something decides:
//   1. byte-equal at c                               -> exact, offset 0
//   2. byte-equal at other starts in [c-W, c+W]      -> offset (one) / ambiguous (several)
//   3. equal after normalisation at c                -> whitespace, offset 0
//   4. equal after normalisation elsewhere in range  -> whitespace / ambiguous
//   5. best similarity in range, at/above threshold  -> fuzzy / ambiguous (tie)
// Without a hint the whole file is the range, tiers 1 and 3 do not apply,
// and offsets are null.

import { distance } from 'fastest-levenshtein';
import { quote } from '../../core/diagnostics.ts';
import { findBlock } from '../../core/find.ts';
import { candidateAt, morePlaces, searchedNote, tiedCandidates, type MatchOutcome, type Placed, type Unplaced } from '../../core/match.ts';
import type { Candidate, Edit, EngineOptions, MatchKind } from '../../core/types.ts';
import { indentOf, normalize } from './syntax.ts';

export const ROO_WINDOW = 40;
export const ROO_THRESHOLD = 1;

/** Upper bound on Levenshtein cells (length × length) spent on the closest candidate of a failed block. */
const CLOSEST_BUDGET = 50_000_000;

/**
 * Largest Levenshtein computation (cells, length × length) done exactly.
 * Longer texts are scored by what they share at both ends (`endsDistance`), a
 * distance that is never smaller than the true one.
 */
const MAX_CELLS = 50_000_000;

/** A Levenshtein distance bound from the common prefix and suffix: the rest of the longer text, all replaced. */
function endsDistance(a: string, b: string): number {
  const short = Math.min(a.length, b.length);
  let prefix = 0;
  while (prefix < short && a.charCodeAt(prefix) === b.charCodeAt(prefix)) prefix++;
  let suffix = 0;
  while (suffix < short - prefix && a.charCodeAt(a.length - 1 - suffix) === b.charCodeAt(b.length - 1 - suffix)) suffix++;
  return Math.max(a.length, b.length) - prefix - suffix;
}

/** Starts in `[lo, hi]` nearest `center` first (ties: the lower start), without sorting them all. */
function* middleOut(lo: number, hi: number, center: number): Generator<number> {
  const c = Math.max(lo, Math.min(hi, center));
  if (hi < lo) return;
  yield c;
  for (let d = 1; c - d >= lo || c + d <= hi; d++) {
    if (c - d >= lo) yield c - d;
    if (c + d <= hi) yield c + d;
  }
}

/** A file's lines normalised once, with prefix sums to get a window's normalised length in O(1). */
interface Normalised {
  lines: string[];
  /** lengthSum[k] = total normalised length of lines [0, k). */
  lengthSum: number[];
  /** countSum[k] = number of non-empty normalised lines in [0, k). */
  countSum: number[];
}

const cache = new WeakMap<readonly string[], Normalised>();

function normalised(lines: readonly string[]): Normalised {
  let n = cache.get(lines);
  if (n) return n;
  const norm = lines.map(normalize);
  const lengthSum = [0];
  const countSum = [0];
  for (const l of norm) {
    lengthSum.push(lengthSum[lengthSum.length - 1] + l.length);
    countSum.push(countSum[countSum.length - 1] + (l === '' ? 0 : 1));
  }
  n = { lines: norm, lengthSum, countSum };
  cache.set(lines, n);
  return n;
}

/** Length of the normalised text of lines [s, s + n): the non-empty normalised lines joined by one space. */
function windowLength(f: Normalised, s: number, n: number): number {
  const count = f.countSum[s + n] - f.countSum[s];
  return count === 0 ? 0 : f.lengthSum[s + n] - f.lengthSum[s] + count - 1;
}

function windowText(f: Normalised, s: number, n: number): string {
  return f.lines.slice(s, s + n).filter((l) => l !== '').join(' ');
}

/** Roo's `getSimilarity` as an exact fraction: 1 - distance / longer length. */
interface Score {
  distance: number;
  length: number;
}

const value = (s: Score): number => (s.length === 0 ? 1 : 1 - s.distance / s.length);
/** a is more similar than b (compared exactly, without rounding). */
const better = (a: Score, b: Score): boolean => a.distance * b.length < b.distance * a.length;
const same = (a: Score, b: Score): boolean => a.distance * b.length === b.distance * a.length;

function byteEqualAt(lines: readonly string[], old: readonly string[], s: number): boolean {
  for (let i = 0; i < old.length; i++) if (lines[s + i] !== old[i]) return false;
  return true;
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;
const range = (s: number, n: number) => (n === 1 ? `line ${s + 1}` : `lines ${s + 1}-${s + n}`);
const signed = (n: number) => (n > 0 ? `+${n}` : `${n}`);

/**
 * Lines to write in place of the matched ones when the match is not
 * byte-equal and the first non-blank SEARCH line is indented differently
 * from its file line: each REPLACE line is re-indented the way Roo does it
 * (the file's indentation plus the line's indentation relative to the
 * SEARCH's); blank lines and trailing blanks are kept as written.
 */
export function reindent(replace: readonly string[], search: readonly string[], matched: readonly string[]): string[] | undefined {
  const k = search.findIndex((l, i) => l.trim() !== '' && (matched[i] ?? '').trim() !== '');
  if (k < 0) return undefined;
  const fileIndent = indentOf(matched[k]);
  const searchIndent = indentOf(search[k]);
  if (fileIndent === searchIndent) return undefined;
  return replace.map((line) => {
    if (line.trim() === '') return line;
    const own = indentOf(line);
    const relative = own.length - searchIndent.length;
    const indent = relative < 0 ? fileIndent.slice(0, Math.max(0, fileIndent.length + relative)) : fileIndent + own.slice(searchIndent.length);
    return indent + line.slice(own.length);
  });
}

export function locateRoo(lines: readonly string[], edit: Edit, options: EngineOptions = {}): MatchOutcome {
  const old = edit.old;
  const n = old.length;
  const cited = edit.cited !== undefined ? edit.cited - 1 : null;
  const window = options.window ?? ROO_WINDOW;
  const threshold = options.fuzzyThreshold ?? ROO_THRESHOLD;
  const file = edit.file;

  if (n === 0) {
    if (lines.length === 0) return { ok: true, kind: 'exact', start: 0, end: 0, offset: cited === null ? null : 0 - cited, similarity: 1, differing: [] };
    return {
      ok: false,
      code: 'no-match',
      kind: null,
      candidates: [],
      outside: [],
      message: `the SEARCH section is empty, which only fits an empty file, and ${file} has ${plural(lines.length, 'line')}: quote the lines to replace (to insert, quote a neighbouring line and repeat it in REPLACE)`,
    };
  }

  const last = lines.length - n; // last valid start
  const lo = cited === null ? 0 : Math.max(0, cited - window);
  const hi = cited === null ? last : Math.min(last, cited + window);
  const inRange = (s: number) => s >= lo && s <= hi;
  const offsetOf = (s: number) => (cited === null ? null : s - cited);
  const differing = (s: number) => old.flatMap((l, i) => (l === lines[s + i] ? [] : [i]));
  const hintValid = cited !== null && cited >= 0 && cited <= last;

  const place = (kind: MatchKind, s: number, score: Score | null): Placed => {
    const placed: Placed = { ok: true, kind, start: s, end: s + n, offset: offsetOf(s), similarity: score ? value(score) : 1, differing: differing(s) };
    if (kind === 'whitespace' || kind === 'fuzzy') {
      const newLines = reindent(edit.new, old, lines.slice(s, s + n));
      if (newLines) placed.newLines = newLines;
    }
    return placed;
  };

  const candidate = (s: number, score: Score): Candidate => ({ ...candidateAt(lines, old, s, cited), similarity: value(score) });

  const ambiguous = (kind: MatchKind, starts: number[], scores: Score[]): Unplaced => {
    const tied = tiedCandidates(starts, (s, k) => candidate(s, scores[k]));
    const places =
      starts
        .slice(0, tied.candidates.length)
        .map((s) => `${range(s, n)}${cited === null ? '' : ` (offset ${signed(s - cited)})`}`)
        .join(' and ') + morePlaces(tied);
    const how = kind === 'exact' || kind === 'offset' ? 'exactly' : kind === 'whitespace' ? 'after normalising whitespace and punctuation' : `with the same similarity ${value(scores[0]).toFixed(3)}`;
    return {
      ok: false,
      code: 'ambiguous',
      kind,
      ...tied,
      outside: [],
      message: `the SEARCH block matches ${file} ${how} at ${places}${
        cited === null ? '' : ` (within ${window} lines of line ${cited + 1})`
      }; nothing was changed: ${cited === null ? 'add a :start_line: hint and ' : ''}include a neighbouring line that tells the places apart`,
    };
  };

  const exactScore: Score = { distance: 0, length: 1 };

  // Tiers 1 and 2: byte-equal.
  if (hintValid && byteEqualAt(lines, old, cited!)) return place('exact', cited!, null);
  const exact = findBlock(lines, old, null, lo, hi).filter((s) => s !== cited);
  if (exact.length > 1) return ambiguous(cited === null ? 'exact' : 'offset', exact, exact.map(() => exactScore));
  if (exact.length === 1) return place(cited === null ? 'exact' : 'offset', exact[0], null);

  // Tiers 3 and 4: equal after normalisation.
  const f = normalised(lines);
  const search = old.map(normalize).filter((l) => l !== '').join(' ');
  const normEqualAt = (s: number) => windowLength(f, s, n) === search.length && windowText(f, s, n) === search;
  if (options.whitespace !== false) {
    if (hintValid && normEqualAt(cited!)) return place('whitespace', cited!, null);
    const equal: number[] = [];
    for (let s = lo; s <= hi; s++) if (s !== cited && normEqualAt(s)) equal.push(s);
    if (equal.length > 1) return ambiguous('whitespace', equal, equal.map(() => exactScore));
    if (equal.length === 1) return place('whitespace', equal[0], null);
  }

  // Tier 5: similarity. Starts are visited middle-out (nearest the hint, or the file's middle, first).
  const center = cited ?? Math.floor((lo + hi) / 2);
  const fuzzy = options.fuzzy !== false && threshold < 1;
  let best: Score | null = null;
  let bestStarts: number[] = [];
  let budget = CLOSEST_BUDGET;
  let stopped = false;
  let visited = 0;
  for (const s of middleOut(lo, hi, center)) {
    visited++;
    const wl = windowLength(f, s, n);
    const length = Math.max(wl, search.length);
    // The similarity can be no higher than shorter / longer.
    const bound: Score = { distance: length - Math.min(wl, search.length), length };
    if (best && better(best, bound)) continue; // cannot reach the best so far
    const cells = Math.max(1, wl * search.length);
    if (!(fuzzy && value(bound) >= threshold)) {
      // Cannot be accepted: computed only to name the closest place, within a budget.
      if (budget < Math.min(cells, MAX_CELLS)) {
        // Out of budget: this place is not compared (nor, without fuzzy matching, any after it).
        stopped = true;
        visited--;
        if (fuzzy) continue;
        break;
      }
      budget -= Math.min(cells, MAX_CELLS);
    }
    const text = windowText(f, s, n);
    const score: Score = {
      distance: text === search ? 0 : cells > MAX_CELLS ? endsDistance(text, search) : distance(text, search),
      length,
    };
    if (options.whitespace === false && score.distance === 0) continue; // equal after normalisation: not accepted
    if (best === null || better(score, best)) {
      best = score;
      bestStarts = [s];
    } else if (same(score, best)) {
      bestStarts.push(s);
    }
  }
  if (fuzzy && best && value(best) >= threshold && value(best) < 1) {
    if (bestStarts.length > 1) {
      const sorted = [...bestStarts].sort((a, b) => a - b);
      return ambiguous('fuzzy', sorted, sorted.map(() => best!));
    }
    return place('fuzzy', bestStarts[0], best);
  }

  // Nothing: the closest place, and exact occurrences outside the window.
  const outside = cited === null ? [] : findBlock(lines, old).filter((s) => !inRange(s));
  const candidates: Candidate[] = [];
  if (best !== null && bestStarts.length > 0) candidates.push(candidate(bestStarts[0], best));
  else if (lines.length > 0) candidates.push(candidateAt(lines, old, Math.max(0, Math.min(cited ?? 0, lines.length - 1)), cited));
  const searched = stopped ? { searched: { compared: visited, places: hi - lo + 1 } } : {};
  return { ok: false, code: 'no-match', kind: null, candidates, outside, message: noMatch(), ...searched };

  function noMatch(): string {
    const where = cited === null ? `${file}` : `${file} within ${window} lines of line ${cited + 1}`;
    const needs = fuzzy ? `needs ${threshold.toFixed(2)}` : 'needs equal text after normalising whitespace and punctuation';
    if (outside.length > 0) {
      return `the SEARCH block does not match ${where}; the same lines occur at ${range(outside[0], n)}, too far from the hint to be trusted: correct :start_line: to ${outside[0] + 1}`;
    }
    if (lines.length < n) {
      return `the SEARCH block has ${plural(n, 'line')} but ${file} has ${plural(lines.length, 'line')}; use read_file to get the file's current content`;
    }
    if (cited !== null && cited > last) {
      return `the SEARCH block does not match ${file}: :start_line:${cited + 1} is past its end (${plural(lines.length, 'line')}); use read_file to get the file's current content`;
    }
    const c = candidates[0];
    if (!c) return `the SEARCH block does not match ${where}`;
    const i = c.differs.indexOf(true);
    const detail = i >= 0 ? `, where line ${c.start + i} is ${quote(c.lines[i] ?? '')} but the SEARCH has ${quote(old[i])}` : '';
    return `the SEARCH block does not match ${where} (${needs}); closest is ${range(c.start - 1, n)} with similarity ${c.similarity.toFixed(3)}${detail}${searchedNote(searched)}; use read_file to get the exact content`;
  }
}
