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
  // Read with charCodeAt, not regular expressions: a whole file's lines are read on every run.
  for (const line of block) {
    let n = 0;
    let spaces = 0;
    while (n < line.length) {
      const c = line.charCodeAt(n);
      if (c === 32) spaces++;
      else if (c !== 9) break;
      n++;
    }
    if (n === 0 || n === line.length) continue; // not indented, or blank
    if (spaces === 0) tabs = true;
    else if (spaces === n) width = gcd(width, n);
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

const showUnit = (unit: string) => (unit === '\t' ? 'tabs' : `${unit.length} space${unit.length === 1 ? '' : 's'}`);

/**
 * The unit a reply's own lines suggest: a tab when they are indented with
 * tabs only, else the narrowest indentation of those indented with spaces
 * only (its lines must then all be whole numbers of it: an alignment of six
 * spaces among four-space lines is not taken for a unit of two); null when
 * they mix, or none is indented.
 */
function smallestUnit(block: readonly string[]): string | null {
  const unit = indentUnit(block);
  if (unit === null || unit === '\t') return unit;
  let least = Infinity;
  for (const line of block) if (!isBlank(line) && indentOf(line) !== '') least = Math.min(least, indentOf(line).length);
  return ' '.repeat(least);
}

/**
 * Indentations (`indents`, one per new line; null for a line left alone)
 * in the file's style. `fileUnit` is the file's unit; `shown` the reply's
 * unit as its cited lines show it against the file (or null); `reply` the
 * reply's lines, whose unit is taken when nothing shows it. Undefined: leave
 * them as written (they already use the file's indentation character and
 * nothing shows another unit, or the file's unit is unknown). Else each
 * indentation, a whole number `k` of the reply's units, becomes `k` of the
 * file's; one that is not is a failure, as is a line in the other character
 * when the reply's unit cannot be told. When the reply's unit is in the
 * other character (spaces for a tab file), lines already in the file's
 * character are kept, and say nothing of the reply's unit.
 */
function convertIndents(
  indents: readonly (string | null)[],
  fileUnit: string | null,
  shown: string | null,
  reply: readonly string[],
  named: string,
): { out: (string | null)[]; from: string; to: string } | { why: string } | undefined {
  if (fileUnit === null) return undefined;
  const own = fileUnit === '\t' ? /^\t*$/ : /^ *$/;
  const fits = indents.every((i) => i === null || own.test(i));
  if (fits && shown === null) return undefined;
  // Lines already in the file's character (a context line copied with its tabs) say nothing of the reply's unit.
  const unit = shown ?? smallestUnit(reply.filter((l) => !own.test(indentOf(l))));
  if (unit === fileUnit && fits) return undefined;
  const sameCharacter = unit !== null && own.test(unit);
  if (unit === null || unit === fileUnit) {
    return {
      why: `${named} are indented with ${fileUnit === '\t' ? 'spaces' : 'tabs'} where the file is indented with ${showUnit(fileUnit)}, and how many make one of the file's units cannot be told; nothing was changed: indent ${named} with ${showUnit(fileUnit)}, as the file is`,
    };
  }
  const out: (string | null)[] = [];
  for (let k = 0; k < indents.length; k++) {
    const indent = indents[k];
    if (indent === null || (!sameCharacter && own.test(indent))) {
      out.push(indent);
      continue;
    }
    const levels = indent.length / unit.length;
    if (!Number.isInteger(levels) || indent !== unit.repeat(levels)) {
      return {
        why: `the file is indented with ${showUnit(fileUnit)} and ${named} with ${showUnit(unit)}, and line ${k + 1} of them has ${quote(
          indent,
        )}, not a whole number of ${showUnit(unit)}: written as it is, it would mix indentation the file does not mix, and converted it would be a guess; nothing was changed: indent ${named} with ${showUnit(fileUnit)}, as the file is`,
      };
    }
    out.push(fileUnit.repeat(levels));
  }
  return { out, from: unit, to: fileUnit };
}

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
 *   line's `cited` becomes the file's, and the rest of its indentation
 *   follows the file's style (`convertIndents`), or the edit fails;
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
  const leaveAlone = (i: number) => kept(i) !== undefined || isBlank(edit.new[i]);
  const rests = edit.new.map((l, i) => (leaveAlone(i) ? null : indentOf(l).slice(shift.cited.length)));
  const converted = convertIndents(rests, fileUnit, unitShown(shift, fileUnit), [...edit.old, ...edit.new], named);
  if (converted && 'why' in converted) return { ok: false, why: converted.why };
  const out = edit.new.map((line, i) => {
    if (leaveAlone(i)) return kept(i) ?? line;
    return shift.file + (converted ? converted.out[i]! : rests[i]!) + line.slice(indentOf(line).length);
  });
  return {
    ok: true,
    lines: out,
    how: converted
      ? `${named} were shifted the same way, their indentation converted from ${showUnit(converted.from)} to the file's ${showUnit(converted.to)}`
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
  const written = reindentNew(edit, shift, matched, fileIndentUnit(lines), names.new);
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
  const core = restyled(lines, edit, locate(lines, edit.old, cited, options, request), names.new, cited);
  if (core.ok || core.code !== 'no-match' || core.message !== undefined || core.fuzzyRefused !== undefined || options.whitespace === false || edit.old.length === 0) return core;
  const window = options.window ?? ENGINE_DEFAULTS.window;
  const last = lines.length - edit.old.length;
  const lo = cited === null ? 0 : Math.max(0, cited - window);
  const hi = cited === null ? last : Math.min(last, cited + window);
  const shifted = placeShifted(lines, edit, names, lo, hi, cited);
  return shifted ?? core;
}

/**
 * The match ladder (`locate`), with the new lines written in the file's
 * indentation style (`restyled`): for formats whose edits cite old lines
 * and write new ones in full (ln-diff).
 */
export function locateRestyled(lines: readonly string[], edit: Edit, options: EngineOptions = {}, request?: RequestBudget | null): MatchOutcome {
  const cited = edit.cited !== undefined ? edit.cited - 1 : null;
  return restyled(lines, edit, locate(lines, edit.old, cited, options, request), 'the new lines', cited);
}

const fileUnits = new WeakMap<readonly string[], string | null>();

/** `indentUnit` of a file's lines, computed once per line array. */
function fileIndentUnit(lines: readonly string[]): string | null {
  let unit = fileUnits.get(lines);
  if (unit === undefined) fileUnits.set(lines, (unit = indentUnit(lines)));
  return unit;
}

/**
 * The reply's indentation unit as its cited lines show it against the file's
 * (`matched`, in order): for every pair where both are indented, the cited
 * line's indentation is `k` units of the reply where the file line's is `k`
 * units of the file (`fileUnit`), and a line unindented on one side is
 * unindented on the other. Null when no pair shows it, or a pair does not
 * fit (a shifted block shows levels, not units).
 */
function unitByCited(old: readonly string[], matched: readonly string[], fileUnit: string): string | null {
  let unit: string | null = null;
  for (let i = 0; i < old.length; i++) {
    const a = indentOf(old[i]);
    const b = indentOf(matched[i] ?? '');
    if (isBlank(old[i]) || a === b) continue;
    if (a === '' || b === '') return null; // another level: a shift, not another unit
    const levels = b.length / fileUnit.length;
    if (!Number.isInteger(levels) || b !== fileUnit.repeat(levels) || a.length % levels !== 0) return null;
    const u = a.slice(0, a.length / levels);
    if (a !== u.repeat(levels) || !(u === '\t' || /^ +$/.test(u))) return null;
    if (unit !== null && unit !== u) return null;
    unit = u;
  }
  return unit;
}

/**
 * The new lines of a placed edit in the file's indentation style
 * (spec/matching.md, "Indentation"), when its cited lines show that the
 * reply indents with another unit than the file (`unitByCited`): undefined
 * when they are written as they are, else the converted lines (context
 * lines the file's own) and a note for the message, or why they cannot be
 * written. `newLines` are lines a format already worked out (else the
 * edit's, with `keep`).
 */
export function restyle(
  lines: readonly string[],
  edit: Pick<Edit, 'old' | 'new' | 'keep'>,
  start: number,
  newLines: readonly string[] | undefined,
  named: string,
): { lines: string[]; note: string; from: string; to: string } | { why: string } | undefined {
  const written = newLines ?? edit.new;
  const matched = lines.slice(start, start + edit.old.length);
  const context = (i: number) => newLines === undefined && edit.keep?.[i] !== null && edit.keep?.[i] !== undefined;
  const leaveAlone = (i: number) => context(i) || isBlank(written[i]);
  const fileUnit = fileIndentUnit(lines);
  const indents = written.map((l, i) => (leaveAlone(i) ? null : indentOf(l)));
  const shown = fileUnit === null ? null : unitByCited(edit.old, matched, fileUnit);
  // Cited lines in the file's own indentation: the reply knows the file's style, and its new
  // lines are written as they are (a reply may mean to change the style).
  if (shown === null) return undefined;
  const converted = convertIndents(indents, fileUnit, shown, written.filter((_, i) => !leaveAlone(i)), named);
  if (converted === undefined) return undefined;
  if ('why' in converted) return converted;
  const out = written.map((line, i) => {
    if (context(i)) return matched[edit.keep![i]!] ?? line; // a context line is the file's own
    if (leaveAlone(i)) return line;
    return converted.out[i]! + line.slice(indentOf(line).length);
  });
  return {
    lines: out,
    note: `${named} were indented with ${showUnit(converted.from)} and written with the file's ${showUnit(converted.to)}`,
    from: converted.from,
    to: converted.to,
  };
}

/**
 * `block` with every leading run of whole `from` units replaced by as many
 * `to` units; a line indented otherwise is kept as it is.
 */
export function convertUnits(block: readonly string[], from: string, to: string): string[] {
  return block.map((line) => {
    const indent = indentOf(line);
    const levels = indent.length / from.length;
    return Number.isInteger(levels) && indent === from.repeat(levels) ? to.repeat(levels) + line.slice(indent.length) : line;
  });
}

/**
 * A placement with its new lines in the file's indentation style
 * (`restyle`): the same placement when nothing is to convert, with the
 * converted lines and a note, or a `no-match` failure saying why not.
 */
export function restyled(lines: readonly string[], edit: Pick<Edit, 'old' | 'new' | 'keep'>, placed: MatchOutcome, named: string, cited: number | null = null): MatchOutcome {
  if (!placed.ok || placed.start === placed.end) return placed;
  const r = restyle(lines, edit, placed.start, placed.newLines, named);
  if (r === undefined) return placed;
  if ('why' in r) {
    return {
      ok: false,
      code: 'no-match',
      kind: null,
      candidates: [candidateAt(lines, edit.old, placed.start, cited)],
      outside: [],
      message: `${edit.old.length === 0 ? 'the edit' : `the cited lines match ${range(placed.start + 1, placed.end)}`}, but ${r.why}`,
    };
  }
  const note = placed.note ? `${placed.note}; ${r.note}` : r.note;
  return placed.message !== undefined
    ? { ...placed, newLines: r.lines, message: `${placed.message}; ${r.note}` }
    : { ...placed, newLines: r.lines, note };
}
