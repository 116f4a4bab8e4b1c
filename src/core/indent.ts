// Indentation: an edit whose old lines are in the file with their
// indentation changed uniformly (the "indent shift" of aider's SEARCH/REPLACE,
// also tried for unified diffs, udiffx and apply_patch chunks), and the new
// lines written in the file's own indentation style. spec/matching.md
// ("Indentation") is the contract.
//
// Units: `start` is a 0-based line index; indentation strings are the
// leading spaces and tabs of a line.

import type { RequestBudget } from './budget.ts';
import { candidateAt, morePlaces, tiedCandidates } from './candidates.ts';
import { ENGINE_DEFAULTS } from './defaults.ts';
import { quote } from './diagnostics.ts';
import { findBlock } from './find.ts';
import { locate } from './match.ts';
import type { Edit, EngineOptions, MatchOutcome, Placed, Unplaced } from './types.ts';
import { visibleKey } from './invisible.ts';
import { lineSimilarity } from './line-similarity.ts';

/** A line of nothing but spaces and tabs (or empty). */
export const isBlank = (text: string): boolean => /^[ \t]*$/.test(text);

/** The leading spaces and tabs of a line. */
export const indentOf = (line: string): string => /^[ \t]*/.exec(line)![0];

/** A line without its leading spaces and tabs: equal for lines that differ only in indentation. */
const unindented = (line: string): string => line.replace(/^[ \t]+/, '');

function commonPrefix(a: string, b: string): string {
  let n = 0;
  while (n < a.length && n < b.length && a[n] === b[n]) n++;
  return a.slice(0, n);
}

/** The leading blanks every non-blank line of `block` starts with (null when all are blank). */
export function commonIndent(block: readonly string[]): string | null {
  let common: string | null = null;
  for (const line of block) {
    if (isBlank(line)) continue;
    common = common === null ? indentOf(line) : commonPrefix(common, indentOf(line));
  }
  return common;
}

/** A place where a block matches with its indentation changed uniformly. */
export interface Shift {
  /** 0-based index of the first file line. */
  start: number;
  /** The indentation every non-blank cited line starts with. */
  cited: string;
  /** What the file has in its place, on every non-blank line. */
  file: string;
}

/**
 * Every place in `[lo, hi]` where `old` matches `lines` once its lines' common
 * indentation `cited` is replaced by one and the same blank string on every
 * non-blank line (a blank cited line faces a blank file line). Null when the
 * cited lines are all blank. A place where the block is equal (the same
 * indentation) is not a shift and is not returned.
 */
export function indentShifts(lines: readonly string[], old: readonly string[], lo = 0, hi = lines.length - old.length): Shift[] | null {
  const cited = commonIndent(old);
  if (cited === null) return null;
  const stripped = old.map((l) => (isBlank(l) ? null : l.slice(cited.length)));
  const out: Shift[] = [];
  // A shifted line has the same text once its indentation is removed: only those places can match.
  for (const s of findBlock(lines, stripped.map((l) => l ?? ''), unindented, lo, hi)) {
    const file = shiftAt(lines, stripped, s);
    if (file !== null && file !== cited) out.push({ start: s, cited, file });
  }
  return out;
}

function shiftAt(lines: readonly string[], stripped: readonly (string | null)[], start: number): string | null {
  let prefix: string | null = null;
  for (let i = 0; i < stripped.length; i++) {
    const want = stripped[i];
    const got = lines[start + i];
    if (want === null) {
      if (!isBlank(got)) return null;
      continue;
    }
    if (!got.endsWith(want)) return null;
    const p = got.slice(0, got.length - want.length);
    if (!isBlank(p)) return null;
    if (prefix === null) prefix = p;
    else if (p !== prefix) return null;
  }
  return prefix;
}

/**
 * The indentation unit of some lines: `\t` when every indented non-blank
 * line is indented with tabs only, `n` spaces (the greatest common divisor
 * of their widths) when every one is indented with spaces only; null when
 * they mix tabs and spaces or none is indented.
 */
export function indentUnit(block: readonly string[]): string | null {
  let tabs = false;
  let width = 0;
  const gcd = (a: number, b: number): number => (b === 0 ? a : gcd(b, a % b));
  for (const line of block) {
    if (isBlank(line)) continue;
    const indent = indentOf(line);
    if (indent === '') continue;
    if (/^\t+$/.test(indent)) tabs = true;
    else if (/^ +$/.test(indent)) width = gcd(width, indent.length);
    else return null;
    if (tabs && width > 0) return null;
  }
  return tabs ? '\t' : width > 0 ? ' '.repeat(width) : null;
}

/**
 * The reply's unit as the shift shows it: when the file's indentation at the
 * place is `L` of its units (L >= 1) and the cited indentation is made of
 * one character repeated a multiple of `L` times, a `L`-th of it.
 */
function unitShown(shift: Shift, fileUnit: string | null): string | null {
  if (fileUnit === null || shift.file === '' || shift.cited === '') return null;
  const levels = shift.file.length / fileUnit.length;
  if (!Number.isInteger(levels) || shift.file !== fileUnit.repeat(levels)) return null;
  const width = shift.cited.length / levels;
  if (!Number.isInteger(width)) return null;
  const unit = shift.cited.slice(0, width);
  return (unit === '\t' || /^ +$/.test(unit)) && shift.cited === unit.repeat(levels) ? unit : null;
}

/** Of two units, the finer: for two space units the greatest common divisor of their widths. */
function finer(a: string | null, b: string | null): string | null {
  if (a === null || b === null || a === '\t' || b === '\t') return a ?? b;
  const gcd = (x: number, y: number): number => (y === 0 ? x : gcd(y, x % y));
  return ' '.repeat(gcd(a.length, b.length));
}

const showUnit = (unit: string) => (unit === '\t' ? 'tabs' : `${unit.length} space${unit.length === 1 ? '' : 's'}`);

/** The lines to write for a shifted edit, or why they cannot be written. */
export type Reindented =
  | { ok: true; lines: string[] | undefined; how: string }
  | { ok: false; why: string };

/**
 * The new lines of an edit placed by an indent shift (`shift`; `matched` are
 * the file's lines at the place, `fileUnit` the file's indentation unit).
 * Their common indentation `W` decides:
 * - all blank: written as they are;
 * - `W` is the cited lines' (written like the cited lines): each non-blank
 *   line's `cited` becomes the file's, and the rest of its indentation is
 *   kept, or, when the reply's unit (tabs, or n spaces) differs from the
 *   file's, converted unit for unit; a rest that is not a whole number of the
 *   reply's units cannot be converted and the edit fails;
 * - `W` is the file's (already written like the file): written as they are;
 * - else unclear: the edit fails.
 * A new line that is a context line (`keep`) is the file's own line.
 * `lines` is undefined when the new lines are written as they are.
 */
export function reindentNew(
  edit: Pick<Edit, 'old' | 'new' | 'keep'>,
  shift: Shift,
  matched: readonly string[],
  fileUnit: string | null,
  named = 'the new lines',
): Reindented {
  const written = commonIndent(edit.new);
  const kept = (i: number): string | undefined => {
    const j = edit.keep?.[i];
    return j === null || j === undefined ? undefined : matched[j];
  };
  // Written as they are: undefined (context lines are then the file's, see Edit.keep).
  if (written === null) return { ok: true, lines: undefined, how: `${named} are blank` };
  if (written === shift.file) return { ok: true, lines: undefined, how: `${named}, already indented like the file, were kept as written` };
  if (written !== shift.cited) return { ok: false, why: `${named} are indented with ${quote(written)}, like neither, so where they belong is unclear` };
  const replyUnit = finer(unitShown(shift, fileUnit), indentUnit([...edit.old, ...edit.new]));
  const convert = replyUnit !== null && fileUnit !== null && replyUnit !== fileUnit;
  const out: string[] = [];
  for (let i = 0; i < edit.new.length; i++) {
    const line = edit.new[i];
    const own = kept(i);
    if (own !== undefined || isBlank(line)) {
      out.push(own ?? line);
      continue;
    }
    const rest = indentOf(line).slice(shift.cited.length);
    let indent = rest;
    if (convert) {
      const levels = rest.length / replyUnit.length;
      if (!Number.isInteger(levels) || rest !== replyUnit.repeat(levels)) {
        return {
          ok: false,
          why: `the file is indented with ${showUnit(fileUnit)} and ${named} with ${showUnit(replyUnit)}, and line ${i + 1} of them has ${quote(
            rest,
          )} beyond the cited indentation, which is not a whole number of ${showUnit(replyUnit)}: written as it is, it would mix indentation the file does not mix`,
        };
      }
      indent = fileUnit.repeat(levels);
    }
    out.push(shift.file + indent + line.slice(indentOf(line).length));
  }
  return {
    ok: true,
    lines: out,
    how: convert
      ? `${named} were shifted the same way, their indentation converted from ${showUnit(replyUnit)} to the file's ${showUnit(fileUnit)}`
      : `${named} were shifted the same way`,
  };
}

/** How a format names an edit's parts in the messages of an indent shift. */
export interface ShiftNames {
  /** The cited lines: `the SEARCH lines`. */
  old: string;
  /** The lines written: `the REPLACE lines`. */
  new: string;
  /** What to add lines to when the shift fits several places: `the SEARCH`. */
  more: string;
}

const range = (start: number, end: number) => (start === end ? `line ${start}` : `lines ${start}-${end}`);
const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

/**
 * Place `edit` by an indent shift within `[lo, hi]`: null when its old lines
 * fit no place that way; `ambiguous` when they fit several; `no-match` when
 * they fit one but the new lines' indentation is unclear or cannot be
 * converted (`reindentNew`); else placed, with the new lines to write and a
 * message. `cited` (0-based, or null) gives the offset.
 */
export function placeShifted(
  lines: readonly string[],
  edit: Pick<Edit, 'old' | 'new' | 'keep' | 'file'>,
  names: ShiftNames,
  lo: number,
  hi: number,
  cited: number | null,
): MatchOutcome | null {
  const found = indentShifts(lines, edit.old, lo, hi);
  if (found === null || found.length === 0) return null;
  if (found.length > 1) {
    const tied = tiedCandidates(found.map((f) => f.start), (s) => candidateAt(lines, edit.old, s, cited));
    const all = tied.candidates.map((c) => range(c.start, c.end));
    const places = morePlaces(tied) !== '' || all.length <= 1 ? `${all.join(', ')}${morePlaces(tied)}` : `${all.slice(0, -1).join(', ')} and ${all[all.length - 1]}`;
    const fail: Unplaced = {
      ok: false,
      code: 'ambiguous',
      kind: 'whitespace',
      ...tied,
      outside: [],
      message: `${names.old} match ${plural(found.length, 'place')} of ${edit.file} with their indentation changed uniformly, at ${places}; include more lines in ${names.more} so that it matches one place only`,
    };
    return fail;
  }
  const shift = found[0];
  const { start } = shift;
  const n = edit.old.length;
  const where = range(start + 1, start + n);
  const matched = lines.slice(start, start + n);
  const what = `${names.old} are indented with ${quote(shift.cited)} where the file has ${quote(shift.file)}`;
  const written = reindentNew(edit, shift, matched, indentUnit(lines), names.new);
  if (!written.ok) {
    return {
      ok: false,
      code: 'no-match',
      kind: null,
      candidates: [candidateAt(lines, edit.old, start, cited)],
      outside: [],
      message: `${names.old} match ${where} of ${edit.file} only with their indentation shifted (${what}), and ${written.why}; nothing was changed: copy ${names.old} exactly as the file has them, indentation included, and indent ${names.new} the same way`,
    };
  }
  const differing: number[] = [];
  let similarity = 1;
  edit.old.forEach((line, i) => {
    if (line === matched[i]) return;
    differing.push(i);
    // Whitespace-equal lines count as equal (Matching): only the others lower the similarity.
    if (visibleKey(line) !== visibleKey(matched[i])) similarity = Math.min(similarity, lineSimilarity(line, matched[i]));
  });
  const placed: Placed = {
    ok: true,
    kind: 'whitespace',
    start,
    end: start + n,
    offset: cited === null ? null : start - cited,
    similarity,
    differing,
    message: `applied at ${where} by shifting the indentation uniformly: ${what}, and ${written.how}`,
  };
  if (written.lines) placed.newLines = written.lines;
  return placed;
}

/**
 * The match ladder (`locate`), then, when it finds nothing, an indent shift
 * within the window (the whole file without a cited place): for formats
 * whose edits cite old lines and may keep context lines from the file
 * (unified diffs, udiffx).
 */
export function locateShifting(
  lines: readonly string[],
  edit: Edit,
  options: EngineOptions = {},
  request?: RequestBudget | null,
  names: ShiftNames = { old: "the hunk's context and removed lines", new: "the hunk's context and added lines", more: 'the hunk' },
): MatchOutcome {
  const cited = edit.cited !== undefined ? edit.cited - 1 : null;
  const core = locate(lines, edit.old, cited, options, request);
  if (core.ok || core.code !== 'no-match' || core.fuzzyRefused !== undefined || options.whitespace === false || edit.old.length === 0) return core;
  const window = options.window ?? ENGINE_DEFAULTS.window;
  const last = lines.length - edit.old.length;
  const lo = cited === null ? 0 : Math.max(0, cited - window);
  const hi = cited === null ? last : Math.min(last, cited + window);
  return placeShifted(lines, edit, names, lo, hi, cited) ?? core;
}
