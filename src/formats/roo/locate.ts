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
// and offsets are null. A placement that is not byte-equal re-indents the
// REPLACE lines when they are written at the SEARCH's indentation (`reindent`).

import { quote } from '../../core/diagnostics.ts';
import { findBlock } from '../../core/find.ts';
import { commonIndent, convertUnits, restyle as restyleIndent } from '../../core/indent.ts';
import { alikeNote, visibleKey } from '../../core/invisible.ts';
import { candidateAt, locate, morePlaces, searchedNote, tiedCandidates, UNSEARCHED, unsearched, type MatchOutcome, type Placed, type Unplaced, refusal } from '../../core/match.ts';
import type { Edit, EngineOptions, MatchKind, RequestBudget } from '../../core/types.ts';
import { indentOf, normalize } from './syntax.ts';

/** Lines searched on each side of the hint (Roo's `BUFFER_LINES`). */
export const ROO_WINDOW = 40;

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

/**
 * The lines to write in place of a match that is not byte-equal
 * ("Re-indentation"). When the first non-blank SEARCH line is indented as
 * its file line, or the REPLACE lines are all blank: `undefined` (as
 * written). Otherwise the REPLACE lines' common indentation decides:
 * - equal to the SEARCH lines' (written at the SEARCH's indentation): each
 *   non-blank REPLACE line is re-indented as Roo does it, the file line's
 *   indentation plus its own beyond the SEARCH line's (or, when less, the
 *   file's shortened by the difference); blank lines and trailing blanks
 *   are kept;
 * - equal to the matched file lines' (already written like the file):
 *   `undefined`, kept as written;
 * - neither: `null`, the edit cannot be placed with confidence.
 */
export function reindent(replace: readonly string[], search: readonly string[], matched: readonly string[]): string[] | undefined | null {
  const k = search.findIndex((l, i) => l.trim() !== '' && (matched[i] ?? '').trim() !== '');
  if (k < 0) return undefined;
  const fileIndent = indentOf(matched[k]);
  const searchIndent = indentOf(search[k]);
  if (fileIndent === searchIndent) return undefined;
  const written = commonIndent(replace);
  if (written === null) return undefined;
  if (written !== commonIndent(search)) return written === commonIndent(matched) ? undefined : null;
  return replace.map((line) => {
    if (line.trim() === '') return line;
    const own = indentOf(line);
    const relative = own.length - searchIndent.length;
    const indent = relative < 0 ? fileIndent.slice(0, Math.max(0, fileIndent.length + relative)) : fileIndent + own.slice(searchIndent.length);
    return indent + line.slice(own.length);
  });
}

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
  const cited = edit.cited !== undefined ? edit.cited - 1 : null;
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
    if (kind !== 'whitespace' && kind !== 'fuzzy') {
      // Byte-equal: only the new lines' indentation unit may need converting.
      const r = restyleIndent(lines, edit, s, undefined, 'the REPLACE lines');
      if (r === undefined) return placed;
      if ('why' in r) return refusal('no-match', `the SEARCH block matches ${file} at ${range(s, n)}, but ${r.why}`);
      return { ...placed, newLines: r.lines, note: r.note };
    }
    const matched = lines.slice(s, s + n);
    // The REPLACE lines in the file's indentation unit first (core/indent.ts), the SEARCH lines
    // read the same way; then Roo's re-indentation relative to the matched lines.
    const restyle = restyleIndent(lines, edit, s, undefined, 'the REPLACE lines');
    if (restyle && 'why' in restyle) {
      return {
        ok: false,
        code: 'no-match',
        kind: null,
        candidates: [candidateAt(lines, old, s, cited)],
        outside: [],
        message: `the SEARCH block matches ${file} at ${range(s, n)}, but ${restyle.why}`,
      };
    }
    const replace = restyle ? restyle.lines : edit.new;
    const search = restyle ? convertUnits(old, restyle.from, restyle.to) : old;
    const reindented = reindent(replace, search, matched);
    const newLines = reindented === undefined && restyle ? replace : reindented;
    if (restyle && newLines) placed.note = restyle.note;
    if (newLines === null) {
      return {
        ok: false,
        code: 'no-match',
        kind: null,
        candidates: [candidateAt(lines, old, s, cited)],
        outside: [],
        message: `the SEARCH block matches ${file} at ${range(s, n)} only with other indentation (the SEARCH lines are indented with ${quote(
          commonIndent(old) ?? '',
        )} where the file has ${quote(commonIndent(matched) ?? '')}), and the REPLACE lines are indented with ${quote(
          commonIndent(edit.new) ?? '',
        )}, like neither, so their indentation in the file is unclear; nothing was changed: copy the SEARCH lines exactly as read_file shows them, indentation included, and indent the REPLACE lines the same way`,
      };
    }
    if (newLines) placed.newLines = newLines;
    return placed;
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
