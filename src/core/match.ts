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

import { findBlock, trimEndKey, type LineKey } from './find.ts';
import { ratio } from './similarity.ts';
import type { Code } from './diagnostics.ts';
import type { Candidate, Diagnostic, EngineOptions, MatchKind } from './types.ts';

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
  /** Exact occurrences outside the window, for the message (whitespace-equal ones too with `fuzzyRefused`). */
  outside: number[];
  /**
   * Where the block matched by similarity (the fuzzy rung), refused because
   * it occurs unchanged or whitespace-equal outside the window (`outside`).
   */
  fuzzyRefused?: number;
  /** The number of tied places, when there are more than the candidates listed (`MAX_CANDIDATES`). */
  tied?: number;
  /**
   * Set when the search for the closest place stopped before it had
   * compared every place (see `searchBudget`): `compared` of `places`.
   */
  searched?: { compared: number; places: number };
}

export type MatchOutcome = Placed | Unplaced;

/** An edit a format's own matcher refuses outright, with its message: no candidate, no place elsewhere. */
export function refusal(code: Code, message: string): Unplaced {
  return { ok: false, code, kind: null, candidates: [], outside: [], message };
}

// String.prototype.trimEnd: linear time (a regex like /\s+$/ is quadratic on long blank runs).
const trimEnd = trimEndKey;

/**
 * Longest pair of lines (both lengths together, in UTF-16 code units) whose
 * similarity is difflib's ratio. difflib's matcher takes time that grows
 * with the product of the lengths; longer pairs are compared by their
 * common start and end instead (`endsSimilarity`), in linear time.
 */
export const RATIO_MAX_LENGTH = 20_000;

/**
 * The similarity of two long strings from what they share at both ends:
 * twice the common prefix plus the common suffix (not overlapping it),
 * over the total length. A lower bound of the share of equal text: one
 * changed character in a long line still scores close to 1, a line that is
 * merely made of the same characters scores low.
 */
export function endsSimilarity(a: string, b: string): number {
  const total = a.length + b.length;
  if (total === 0) return 1;
  const short = Math.min(a.length, b.length);
  let prefix = 0;
  while (prefix < short && a.charCodeAt(prefix) === b.charCodeAt(prefix)) prefix++;
  let suffix = 0;
  while (suffix < short - prefix && a.charCodeAt(a.length - 1 - suffix) === b.charCodeAt(b.length - 1 - suffix)) suffix++;
  return (2 * (prefix + suffix)) / total;
}

/**
 * Per-line similarity as the seed's reference does it: difflib ratio,
 * newline included; for lines longer than `RATIO_MAX_LENGTH` together,
 * `endsSimilarity`.
 */
export function lineSimilarity(cited: string, actual: string): number {
  if (cited === actual) return 1;
  if (cited.length + actual.length > RATIO_MAX_LENGTH) return endsSimilarity(actual + '\n', cited + '\n');
  return ratio(actual + '\n', cited + '\n');
}

/** Words (runs of letters, digits and `_`) and single other characters; blanks separate. */
const TOKEN = /[\p{L}\p{N}\p{M}_]+|[^\s\p{L}\p{N}\p{M}_]/gu;

/** Longest lines `oneWordApart` tokenises; longer pairs pass on similarity alone. */
const TOKENS_MAX_LENGTH = 2_000;

/**
 * Why a cited line and a file line are too different for the fuzzy rung
 * whatever their similarity, or null when they are not. They may differ in
 * one token at most (a word, or one character that is not a letter, digit or
 * blank), blanks aside; that token's digits, if any, must be the same on
 * both sides; and two words must share at least half their characters
 * (difflib ratio ≥ 0.5). A misspelt word or a missing `;` is forgiven; a
 * second change, a changed number or another word is not (`value_0500` is
 * not `value_0000`, `5` is not `9`, `x` is not `y`).
 */
export function fuzzyRefusal(cited: string, actual: string): string | null {
  if (cited.length + actual.length > 2 * TOKENS_MAX_LENGTH) return null;
  const a = cited.match(TOKEN) ?? [];
  const b = actual.match(TOKEN) ?? [];
  let head = 0;
  while (head < a.length && head < b.length && a[head] === b[head]) head++;
  let tail = 0;
  while (tail < a.length - head && tail < b.length - head && a[a.length - 1 - tail] === b[b.length - 1 - tail]) tail++;
  const restA = a.length - head - tail;
  const restB = b.length - head - tail;
  const x = restA ? a[head] : '';
  const y = restB ? b[head] : '';
  if (x.replace(/\D+/g, '') !== y.replace(/\D+/g, '') && restA <= 1 && restB <= 1) return 'a number differs';
  if (restA > 1 || restB > 1) {
    const digits = (t: string[], n: number) => t.slice(head, head + n).join('').replace(/\D+/g, '');
    return digits(a, restA) !== digits(b, restB) ? 'a number differs' : 'more than one word differs';
  }
  const word = /^[\p{L}\p{N}\p{M}_]/u;
  if (word.test(x) && word.test(y) && ratio(x, y) < 0.5) return `${JSON.stringify(x)} and ${JSON.stringify(y)} are different words`;
  return null;
}

/** Whether the fuzzy rung may forgive the difference between two lines (see `fuzzyRefusal`). */
export const oneWordApart = (cited: string, actual: string): boolean => fuzzyRefusal(cited, actual) === null;

// ---------------------------------------------------------------------------
// The search budget: looking for the closest place of an edit that matched
// nowhere is only for the message, and it compares lines by similarity, the
// costly comparison. It is bounded per edit and per request, in characters
// compared, so that a reply of thousands of failing edits against a big file
// costs a bounded time; an edit whose search stopped early says so.

/** Characters compared by one edit's search for its closest place. */
export const SEARCH_BUDGET_PER_EDIT = 1_000_000;
/** Characters compared by all the closest-place searches of one request. */
export const SEARCH_BUDGET_PER_REQUEST = 10_000_000;

/** The budget of the request being run, if any (the engine runs one request at a time, synchronously). */
let requestBudget: { remaining: number } | null = null;

/** Run `fn` with a fresh request-wide search budget (the engine wraps each request in this). */
export function withRequestBudget<T>(fn: () => T, characters = SEARCH_BUDGET_PER_REQUEST): T {
  const saved = requestBudget;
  requestBudget = { remaining: characters };
  try {
    return fn();
  } finally {
    requestBudget = saved;
  }
}

/** One search's budget: its own allowance, drawn from the request's too while a request runs. */
export interface SearchBudget {
  /** Anything left to spend. */
  left(): boolean;
  /** Record `characters` compared. */
  spend(characters: number): void;
}

export function searchBudget(characters = SEARCH_BUDGET_PER_EDIT): SearchBudget {
  const shared = requestBudget;
  let own = characters;
  return {
    left: () => own > 0 && (shared === null || shared.remaining > 0),
    spend(n: number) {
      own -= n;
      if (shared) shared.remaining -= n;
    },
  };
}

/** How much of the closest-place search was done, when it stopped early. */
export function searchedNote(outcome: Pick<Unplaced, 'searched'>): string {
  const s = outcome.searched;
  if (!s) return '';
  return s.compared === 0
    ? " (no place was compared: the reply's failed edits used up the search for closest places)"
    : ` (the search for the closest place, which is bounded, compared ${s.compared} of the ${s.places} places)`;
}

/** `lineSimilarity`, paid for from a search budget. */
export function budgetedSimilarity(budget: SearchBudget, cited: string, actual: string): number {
  if (cited === actual) {
    budget.spend(1);
    return 1;
  }
  budget.spend(cited.length + actual.length + 2);
  return lineSimilarity(cited, actual);
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

  // Whitespace-equal is "equal after trimEnd": the same comparison as a key, for findBlock.
  const rungs: [MatchKind, Compare, LineKey][] = [['exact', exactly, null]];
  if (options.whitespace !== false) rungs.push(['whitespace', ignoringTrailingSpace, trimEndKey]);

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

  return {
    ok: false,
    code: 'no-match',
    kind: null,
    outside: cited === null ? [] : occurrencesOutside(lines, old, false, lo, hi),
    ...closest(lines, old, cited, lo, hi),
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

/**
 * Candidate places compared line by line before `findBlock` takes over (a
 * file that repeats the block's lines), and lines compared, as a multiple
 * of the file's length.
 */
const SCAN_HITS = 1000;
const SCAN_ROUNDS = 4;

/** Code units hashed at each end of a line for its fingerprint. */
const PRINT_CHARS = 24;

/**
 * A number per line that whitespace-equal lines share (so equal lines too):
 * a hash of the line without its trailing whitespace (its length, its start
 * and its end), kept to 30 bits (a small integer, cheap as a map key).
 * Different lines seldom share one, and a shared one only costs a comparison.
 */
function fingerprint(line: string): number {
  let n = line.length;
  while (n > 0 && isTrimmed(line.charCodeAt(n - 1))) n--;
  // FNV-1a over the length and the first and last PRINT_CHARS code units of the line without its
  // trailing whitespace (all of it when shorter): a bounded cost per line, even for a 10 MB line.
  let h = Math.imul(0x811c9dc5 ^ n, 0x01000193);
  const head = Math.min(n, PRINT_CHARS);
  for (let i = 0; i < head; i++) h = Math.imul(h ^ line.charCodeAt(i), 0x01000193);
  for (let i = Math.max(head, n - PRINT_CHARS); i < n; i++) h = Math.imul(h ^ line.charCodeAt(i), 0x01000193);
  return h & 0x3fffffff;
}

/** The characters String.prototype.trimEnd removes: ECMAScript WhiteSpace and LineTerminator. */
function isTrimmed(c: number): boolean {
  return c <= 32
    ? c === 32 || (c >= 9 && c <= 13)
    : c >= 0xa0 &&
        (c === 0xa0 || c === 0x1680 || (c >= 0x2000 && c <= 0x200a) || c === 0x2028 || c === 0x2029 || c === 0x202f || c === 0x205f || c === 0x3000 || c === 0xfeff);
}

/** Per fingerprint, the line holding it, or the lines (ascending) when several do. */
type PrintIndex = Map<number, number | number[]>;
const byPrint = new WeakMap<readonly string[], PrintIndex>();

/** The file's lines by fingerprint (built once per line array). */
function printIndex(lines: readonly string[]): PrintIndex {
  let index = byPrint.get(lines);
  if (!index) {
    index = new Map();
    for (let i = 0; i < lines.length; i++) {
      const f = fingerprint(lines[i]);
      const at = index.get(f);
      if (at === undefined) index.set(f, i);
      else if (typeof at === 'number') index.set(f, [at, i]);
      else at.push(i);
    }
    byPrint.set(lines, index);
  }
  return index;
}

/**
 * Starts outside `[lo, hi]` where `old` is equal (or, with `ws`, whitespace-
 * equal). The block's rarest line by fingerprint decides where to look (a
 * line whose fingerprint the file lacks rules every place out at once), and
 * the block is compared there. The fingerprint index costs a fraction of
 * `findBlock`'s (a map keyed by the lines themselves); a block whose every
 * line is found more than SCAN_HITS times, or whose comparisons could add up
 * to more than SCAN_ROUNDS times the file (a file that repeats its lines), is
 * left to `findBlock`, which stays linear there.
 */
function occurrencesOutside(lines: readonly string[], old: readonly string[], ws: boolean, lo: number, hi: number): number[] {
  const outsideCount = Math.max(0, lines.length - old.length + 1) - Math.max(0, hi - lo + 1);
  if (old.length === 0 || outsideCount <= 0) return [];
  const index = printIndex(lines);
  let rarest: number[] | null = null;
  let at = 0;
  for (let i = 0; i < old.length; i++) {
    const found = index.get(fingerprint(old[i]));
    if (found === undefined) return [];
    const bucket = typeof found === 'number' ? [found] : found;
    if (!rarest || bucket.length < rarest.length) [rarest, at] = [bucket, i];
  }
  if (rarest!.length > SCAN_HITS || rarest!.length * old.length > SCAN_ROUNDS * lines.length)
    return findBlock(lines, old, ws ? trimEndKey : null).filter((x) => x < lo || x > hi);
  const eq = ws ? ignoringTrailingSpace : exactly;
  const out: number[] = [];
  for (const p of rarest!) {
    const s = p - at;
    if (s < 0 || (s >= lo && s <= hi) || s + old.length > lines.length) continue;
    if (matchesAt(lines, old, s, eq)) out.push(s);
  }
  return out;
}


/**
 * The place in `[lo, hi]` whose lines are most similar to `old` (mean
 * per-line similarity; ties go to the place nearest the cited one). Places
 * are compared nearest first (from `lo` up without a cited place) until the
 * search budget runs out; `searched` then says how many were. When the file
 * is shorter than the block, the closest place is the file's start.
 */
/** Average similarity below which no place is named as the closest candidate. */
export const CLOSEST_FLOOR = 0.5;

export function closest(
  lines: readonly string[],
  old: readonly string[],
  cited: number | null,
  lo: number,
  hi: number,
): Pick<Unplaced, 'candidates' | 'searched'> {
  if (lines.length === 0) return { candidates: [] };
  if (hi < lo) return { candidates: [candidateAt(lines, old, Math.max(0, Math.min(cited ?? 0, lines.length - 1)), cited)] };
  const center = Math.max(lo, Math.min(hi, cited ?? lo));
  const budget = searchBudget();
  const places = hi - lo + 1;
  let compared = 0;
  let best = center;
  let bestScore = -1;
  // Nearest first: center, center - 1, center + 1, center - 2, ...
  for (let d = 0; compared < places && budget.left(); d++) {
    for (const s of d === 0 ? [center] : [center - d, center + d]) {
      if (s < lo || s > hi || !budget.left()) continue;
      let sum = 0;
      for (let i = 0; i < old.length; i++) sum += budgetedSimilarity(budget, old[i], lines[s + i]);
      compared++;
      if (sum > bestScore) {
        bestScore = sum;
        best = s;
      }
    }
  }
  // A place sharing less than half the text is no hint: none is named.
  const candidates = bestScore / old.length >= CLOSEST_FLOOR ? [candidateAt(lines, old, best, cited)] : [];
  return compared < places ? { candidates, searched: { compared, places } } : { candidates };
}
