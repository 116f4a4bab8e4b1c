// Where a Roo SEARCH block belongs: Roo's matcher (normalised text, a window
// around the `:start_line:` hint), with ties refused instead of resolved by
// search order, and the fuzzy rung of the core ladder instead of Roo's
// Levenshtein threshold. spec/formats/roo.md, "Matching", is the contract.
//
// With a hint c (0-based) and a window of W lines on each side, the tiers
// are tried in order and the first that finds something decides:
//   1. byte-equal at c                               -> exact, offset 0
//   2. byte-equal at other starts in [c-W, c+W]      -> offset (one) / ambiguous (several)
//   3. equal after normalisation at c                -> whitespace, offset 0
//   4. equal after normalisation elsewhere in range  -> whitespace / ambiguous
//   5. the core ladder's fuzzy rung (core/match.ts `locate`): every line
//      equal or similar at c, else at c-1 or c+1      -> fuzzy / ambiguous (both)
//      refused when the block is in the file unchanged outside the window
// Without a hint the whole file is the range, tiers 1, 3 and 5 do not apply,
// and offsets are null. The REPLACE lines are indented by the evidence of the
// SEARCH lines against the file's (spec/matching.md, Indentation).

import { quote } from '../../core/diagnostics.ts';
import { findBlock } from '../../core/find.ts';
import { indentPlaced } from '../../core/indent.ts';
import { alikeNote, visibleKey } from '../../core/invisible.ts';
import { candidateAt, locate, morePlaces, searchedNote, tiedCandidates, UNSEARCHED, unsearched, type MatchOutcome, type Placed, type Unplaced, refusal } from '../../core/match.ts';
import type { Edit, EngineOptions, MatchKind, RequestBudget } from '../../core/types.ts';
import { normalize } from './syntax.ts';

/** Lines searched on each side of the hint (Roo's `BUFFER_LINES`). */
export const ROO_WINDOW = 40;

/** How the messages about indentation name a block's sections. */
const NAMES = { old: 'the SEARCH lines', new: 'the REPLACE lines' };

/** A file's lines normalised once, with prefix sums to get a window's normalised length in O(1). */
interface Normalised {
  lines: string[];
  /** lengthSum[k] = total normalised length of lines [0, k). */
  lengthSum: number[];
  /** countSum[k] = number of non-empty normalised lines in [0, k). */
  countSum: number[];
}

/** Roo's normalisation, after the zero-width characters and the normalisation form are set aside (core/invisible.ts). */
const normalizeLine = (line: string): string => normalize(visibleKey(line));

const cache = new WeakMap<readonly string[], Normalised>();

function normalised(lines: readonly string[]): Normalised {
  let n = cache.get(lines);
  if (n) return n;
  const norm = lines.map(normalizeLine);
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

function byteEqualAt(lines: readonly string[], old: readonly string[], s: number): boolean {
  for (let i = 0; i < old.length; i++) if (lines[s + i] !== old[i]) return false;
  return true;
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;
const range = (s: number, n: number) => (n === 1 ? `line ${s + 1}` : `lines ${s + 1}-${s + n}`);
const signed = (n: number) => (n > 0 ? `+${n}` : `${n}`);

/** How a block's hint was written, for messages: what it cites, and how to correct it. */
function hintOf(edit: Edit): { name: string; cited: (line: number) => string; correct: (line: number) => string } {
  switch (edit.meta?.hint) {
    case 'start_line element':
      return { name: '<start_line>', cited: (n) => `<start_line>${n}</start_line>`, correct: (n) => `correct <start_line> to ${n}` };
    case 'line numbers':
      return {
        name: "the first SEARCH line's number",
        cited: (n) => `line ${n} (the first SEARCH line's number)`,
        correct: (n) => `number the SEARCH lines from ${n}, as read_file shows them`,
      };
    default:
      return { name: ':start_line:', cited: (n) => `:start_line:${n}`, correct: (n) => `correct :start_line: to ${n}` };
  }
}

export function locateRoo(lines: readonly string[], edit: Edit, options: EngineOptions = {}, budget?: RequestBudget): MatchOutcome {
  const old = edit.old;
  const n = old.length;
  // Numbers copied into the SEARCH lines (`1476 | …`) that put the block past the file's end are
  // no place in it, so no hint: the block is looked for in the whole file.
  const copied = edit.meta?.hint === 'line numbers' && edit.cited !== undefined && edit.cited - 1 > lines.length - n;
  const cited = edit.cited !== undefined && !copied ? edit.cited - 1 : null;
  const window = options.window ?? ROO_WINDOW;
  const file = edit.file;

  if (n === 0) {
    if (lines.length === 0) return { ok: true, kind: 'exact', start: 0, end: 0, offset: cited === null ? null : 0 - cited, similarity: 1, differing: [] };
    return refusal('no-match', `the SEARCH section is empty, which only fits an empty file, and ${file} has ${plural(lines.length, 'line')}: quote the lines to replace (to insert, quote a neighbouring line and repeat it in REPLACE)`);
  }

  const last = lines.length - n; // last valid start
  const lo = cited === null ? 0 : Math.max(0, cited - window);
  const hi = cited === null ? last : Math.min(last, cited + window);
  const offsetOf = (s: number) => (cited === null ? null : s - cited);
  const differing = (s: number) => old.flatMap((l, i) => (l === lines[s + i] ? [] : [i]));
  const hintValid = cited !== null && cited >= 0 && cited <= last;
  const within = cited === null ? '' : ` (within ${window} lines of line ${cited + 1})`;
  // The hint as the reply wrote it, and how to correct it: only a reply with
  // `:start_line:` is told to correct `:start_line:`.
  const hint = hintOf(edit);

  const place = (kind: MatchKind, s: number, similarity = 1): MatchOutcome => {
    const placed: Placed = { ok: true, kind, start: s, end: s + n, offset: offsetOf(s), similarity, differing: differing(s) };
    // The REPLACE lines indented by the evidence of the SEARCH lines against the file's (core/indent.ts).
    const written = indentPlaced(lines, edit, placed, NAMES);
    if (written.ok) return written.placed;
    return {
      ok: false,
      code: 'no-match',
      kind: null,
      candidates: [candidateAt(lines, old, s, cited)],
      outside: [],
      message: `the SEARCH block matches ${file} at ${range(s, n)}, but ${written.why}, or copy the SEARCH lines exactly as read_file shows them, indentation included`,
    };
  };

  const ambiguous = (kind: MatchKind, starts: number[], how: string): Unplaced => {
    const tied = tiedCandidates(starts, (s) => candidateAt(lines, old, s, cited));
    const places =
      starts
        .slice(0, tied.candidates.length)
        .map((s) => `${range(s, n)}${cited === null ? '' : ` (offset ${signed(s - cited)})`}`)
        .join(' and ') + morePlaces(tied);
    return {
      ok: false,
      code: 'ambiguous',
      kind,
      ...tied,
      outside: [],
      message: `the SEARCH block matches ${file} ${how} at ${places}${within}; nothing was changed: ${cited === null ? 'add a :start_line: hint and ' : ''}include a neighbouring line that tells the places apart`,
    };
  };

  // Tiers 1 and 2: byte-equal.
  if (hintValid && byteEqualAt(lines, old, cited!)) return place('exact', cited!);
  const exact = findBlock(lines, old, null, lo, hi).filter((s) => s !== cited);
  if (exact.length > 1) return ambiguous(cited === null ? 'exact' : 'offset', exact, 'exactly');
  if (exact.length === 1) return place(cited === null ? 'exact' : 'offset', exact[0]);

  // Tiers 3 and 4: equal after normalisation.
  if (options.whitespace !== false) {
    const f = normalised(lines);
    const search = old.map(normalizeLine).filter((l) => l !== '').join(' ');
    const normEqualAt = (s: number) => windowLength(f, s, n) === search.length && windowText(f, s, n) === search;
    if (hintValid && normEqualAt(cited!)) return place('whitespace', cited!);
    const equal: number[] = [];
    for (let s = lo; s <= hi; s++) if (s !== cited && normEqualAt(s)) equal.push(s);
    if (equal.length > 1) return ambiguous('whitespace', equal, 'after normalising whitespace and punctuation');
    if (equal.length === 1) return place('whitespace', equal[0]);
  }

  // Tier 5: the core ladder, whose exact and whitespace rungs find nothing
  // new here; its fuzzy rung (with a hint only), or the closest place.
  const core = locate(lines, old, cited, { ...options, window }, budget);
  if (core.ok) return place(core.kind, core.start, core.similarity);
  if (core.code === 'ambiguous') {
    const starts = core.candidates.map((c) => c.start - 1);
    return ambiguous(core.kind ?? 'fuzzy', starts, core.kind === 'fuzzy' ? 'by similarity (one misspelt word per line)' : 'equally well');
  }
  return { ...core, message: noMatch(core) };

  function noMatch(outcome: Unplaced): string {
    const where = cited === null ? `${file}` : `${file} within ${window} lines of line ${cited + 1}`;
    const outside = outcome.outside;
    if (outcome.fuzzyRefused !== undefined && outside.length > 0) {
      const near = outcome.candidates[0];
      return `the SEARCH block matches ${file} at ${range(outcome.fuzzyRefused, n)} only by similarity ${near ? near.similarity.toFixed(3) : ''}, but the same lines occur unchanged at ${range(
        outside[0],
        n,
      )}, more than ${window} lines from ${hint.cited(cited! + 1)}: not applied, since that may be the place meant; ${hint.correct(outside[0] + 1)}, or copy the lines exactly as read_file shows them`;
    }
    if (outside.length > 0) {
      return `the SEARCH block does not match ${where}; the same lines occur at ${range(outside[0], n)}, too far from the hint to be trusted: ${hint.correct(outside[0] + 1)}`;
    }
    if (lines.length === 0) return `the SEARCH block has ${plural(n, 'line')} but ${file} is empty; to add lines to it, leave the SEARCH section empty`;
    if (lines.length < n) {
      return `the SEARCH block has ${plural(n, 'line')} but ${file} has ${plural(lines.length, 'line')}; use read_file to get the file's current content`;
    }
    if (cited !== null && cited > last) {
      return `the SEARCH block does not match ${file}: ${hint.cited(cited + 1)} is past its end (${plural(lines.length, 'line')}); use read_file to get the file's current content`;
    }
    const needs =
      options.whitespace === false
        ? 'needs the exact text'
        : cited !== null && options.fuzzy !== false
          ? `needs equal text after normalising whitespace and punctuation, or one misspelt word per line at ${hint.name}`
          : 'needs equal text after normalising whitespace and punctuation';
    const c = outcome.candidates[0];
    if (!c && unsearched(outcome)) return `the SEARCH block does not match ${where} (${needs}); ${UNSEARCHED}; use read_file to get the exact content`;
    if (!c) return `the SEARCH block does not match ${where} (${needs}), and no place there${outcome.searched ? ' that was compared' : ''} comes close (none shares half the text)${searchedNote(outcome)}; use read_file to get the exact content`;
    const i = c.differs.indexOf(true);
    const detail = i >= 0 ? `, where line ${c.start + i} is ${quote(c.lines[i] ?? '')} but the SEARCH has ${quote(old[i])}${c.lines[i] === undefined ? '' : alikeNote(c.lines[i], old[i], 'the SEARCH')}` : '';
    return `the SEARCH block does not match ${where} (${needs}); closest is ${range(c.start - 1, n)} with similarity ${c.similarity.toFixed(3)}${detail}${searchedNote(outcome)}; use read_file to get the exact content`;
  }
}
