// Indentation: where an edit's cited lines are in the file with their
// indentation changed (a uniform shift, tabs for spaces, two spaces for
// four), and how its new lines are then indented. The indentation written is
// the one the reply's own lines prove; an edit whose readings disagree fails.
// spec/matching.md ("Indentation") is the contract.
//
// Units: `start` is a 0-based line index; an indentation is the leading
// spaces and tabs of a line; its depth is its width in columns, a tab
// advancing to the next multiple of TAB_STOP.

import type { RequestBudget } from './budget.ts';
import { candidateAt, morePlaces, tiedCandidates } from './candidates.ts';
import { ENGINE_DEFAULTS } from './defaults.ts';
import { quote } from './diagnostics.ts';
import { findBlock } from './find.ts';
import { locate } from './match.ts';
import type { Edit, EngineOptions, MatchOutcome, Placed, Unplaced } from './types.ts';
import { isBlank } from './blank.ts';
import { visibleKey } from './invisible.ts';
import { lineSimilarity } from './line-similarity.ts';

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

/** Columns a tab advances to the next multiple of, to compare depths. */
const TAB_STOP = 4;

/** The width of an indentation in columns (a tab to the next multiple of TAB_STOP). */
function depth(indent: string): number {
  let col = 0;
  for (let i = 0; i < indent.length; i++) col = indent.charCodeAt(i) === 9 ? col + TAB_STOP - (col % TAB_STOP) : col + 1;
  return col;
}

/** The one character an indentation is made of: '' for none, null for a mix of tabs and spaces. */
function characterOf(indent: string): string | null {
  if (indent === '') return '';
  for (let i = 1; i < indent.length; i++) if (indent[i] !== indent[0]) return null;
  return indent[0];
}

/** The one character all these indentations are made of: '' when none is indented, null when they mix. */
function characterOfAll(indents: Iterable<string>): string | null {
  let found = '';
  for (const indent of indents) {
    const c = characterOf(indent);
    if (c === null) return null;
    if (c === '') continue;
    if (found === '') found = c;
    else if (found !== c) return null;
  }
  return found;
}

const showChar = (c: string) => (c === '\t' ? 'tabs' : 'spaces');

/**
 * The indentation evidence at a place: each cited indentation and the file
 * indentation it stands for, from every pair of a non-blank cited line and
 * the non-blank file line in its place, in order of depth.
 */
export interface IndentMap {
  /** [cited, file] pairs, one per distinct cited indentation, shallowest first. */
  pairs: [string, string][];
  /** Every pair is the same indentation on both sides. */
  identity: boolean;
  /**
   * The pairs of the lines that are not comment continuation lines (text
   * starting with `*`, aligned one space past their level), which the
   * readings of a line beyond the evidence read; all pairs when none is left.
   */
  levels: [string, string][];
}

/**
 * The evidence of `old` (cited lines) against `matched` (the file's lines in
 * their place): a map when the pairs are consistent and keep the order (the
 * same cited indentation always stands for the same file indentation;
 * deeper stays deeper, as deep stays as deep), else why not.
 */
export function indentEvidence(old: readonly string[], matched: readonly string[]): { ok: true; map: IndentMap } | { ok: false; why: string } {
  const seen = new Map<string, string>();
  const levels = new Set<string>();
  for (let i = 0; i < old.length; i++) {
    const file = matched[i];
    if (file === undefined || isBlank(old[i]) || isBlank(file)) continue;
    const c = indentOf(old[i]);
    const f = indentOf(file);
    if (old[i][c.length] !== '*') levels.add(c);
    const had = seen.get(c);
    if (had === undefined) seen.set(c, f);
    else if (had !== f) return { ok: false, why: `lines cited with the same indentation ${quote(c)} stand for ${quote(had)} and ${quote(f)} in the file` };
  }
  const pairs = [...seen].sort((a, b) => depth(a[0]) - depth(b[0]));
  for (let k = 1; k < pairs.length; k++) {
    const [c0, f0] = pairs[k - 1];
    const [c1, f1] = pairs[k];
    if (Math.sign(depth(c1) - depth(c0)) !== Math.sign(depth(f1) - depth(f0))) {
      return { ok: false, why: `lines cited with ${quote(c0)} and ${quote(c1)} stand for ${quote(f0)} and ${quote(f1)} in the file, which does not keep their order of depth` };
    }
  }
  const leveled = pairs.filter(([c]) => levels.has(c));
  return { ok: true, map: { pairs, identity: pairs.every(([c, f]) => c === f), levels: leveled.length > 0 ? leveled : pairs } };
}

/** How a new line's indentation beyond the evidence may be read: a name for messages, and the file indentation it gives (null: none). */
interface Reading {
  name: string;
  indent(written: string): string | null;
}

function commonSuffixLength(a: string, b: string): number {
  let n = 0;
  while (n < a.length && n < b.length && a[a.length - 1 - n] === b[b.length - 1 - n]) n++;
  return n;
}

/**
 * A shift by the same amount: every cited indentation is `a + r` where the
 * file has `b + r` (the same `a`, `b` for every pair once what both sides
 * end with is set aside). Null when the pairs do not all fit one shift.
 */
function shiftReading(pairs: readonly [string, string][]): Reading | null {
  let a: string | null = null;
  let b = '';
  for (const [c, f] of pairs) {
    const k = commonSuffixLength(c, f);
    const ca = c.slice(0, c.length - k);
    const fb = f.slice(0, f.length - k);
    if (a === null) [a, b] = [ca, fb];
    else if (ca !== a || fb !== b) return null;
  }
  if (a === null || (a === '' && b === '')) return null;
  const from = a;
  const to = b;
  return { name: 'shifted by the same amount', indent: (x) => (x.startsWith(from) ? to + x.slice(from.length) : null) };
}

/**
 * A change of unit: the cited lines indented with one character, the file
 * with one character, and the file's width a linear function of the cited
 * width (`f = f1 + (c - c1)(f2 - f1)/(c2 - c1)`), shown at two or more cited
 * depths; or, at one depth, a change of character (spaces for tabs or the
 * reverse: `f = c·f1/c1`). Null when the pairs show neither.
 */
function unitReading(pairs: readonly [string, string][], style: IndentStyle): Reading | null {
  const cc = characterOfAll(pairs.map((p) => p[0]));
  const fc = characterOfAll(pairs.map((p) => p[1]));
  if (!cc || !fc) return null;
  const [c1, f1] = [pairs[0][0].length, pairs[0][1].length];
  const [c2, f2] = [pairs[pairs.length - 1][0].length, pairs[pairs.length - 1][1].length];
  const through = (x: string, num: (w: number) => number, den: number): string | null => {
    if (characterOf(x) !== '' && characterOf(x) !== cc) return null;
    const n = num(x.length);
    return n % den === 0 && n >= 0 ? fc.repeat(n / den) : null;
  };
  if (c2 !== c1) {
    if (f2 <= f1) return null;
    for (const [c, f] of pairs) if ((f.length - f1) * (c2 - c1) !== (c.length - c1) * (f2 - f1)) return null;
    const name = cc === fc ? 'with its unit changed' : `with ${showChar(cc)} changed to ${showChar(fc)}`;
    return { name, indent: (x) => through(x, (w) => f1 * (c2 - c1) + (w - c1) * (f2 - f1), c2 - c1) };
  }
  if (c1 === 0 || f1 === 0) return null;
  if (cc !== fc) return { name: `with ${showChar(cc)} changed to ${showChar(fc)}`, indent: (x) => through(x, (w) => w * f1, c1) };
  // One depth in spaces: a change of unit is a reading too when the file's style makes the pair
  // a whole number of levels `k` of its unit and the cited width `k` levels of a unit of 2 or more.
  if (style === null || style.char !== ' ' || f1 % style.width !== 0) return null;
  const unit = c1 / (f1 / style.width);
  if (!Number.isInteger(unit) || unit < 2 || unit === style.width) return null;
  return { name: `with ${unit} spaces a level changed to the file's ${style.width}`, indent: (x) => through(x, (w) => w * f1, c1) };
}

/** A file's indentation style: indented with tabs, with spaces `width` at a time, or unknown (null). */
export type IndentStyle = { char: '\t' } | { char: ' '; width: number } | null;

/**
 * The file's indentation style, found as editors find it: lines indented
 * with tabs against lines indented with spaces (the more numerous wins), and
 * for spaces the most frequent step between the depths of consecutive
 * space-indented or unindented lines (1 to 8 columns). Blank lines, comment
 * continuation lines (text starting with `*`) and lines mixing tabs and
 * spaces are left out. Null when no line is indented, the counts tie, or no
 * step is most frequent.
 */
export function indentStyle(lines: readonly string[]): IndentStyle {
  let tabs = 0;
  let spaces = 0;
  const steps = new Array<number>(9).fill(0);
  let previous: number | null = 0;
  for (const line of lines) {
    let n = 0;
    let tab = false;
    let space = false;
    while (n < line.length) {
      const c = line.charCodeAt(n);
      if (c === 32) space = true;
      else if (c === 9) tab = true;
      else break;
      n++;
    }
    if (n === line.length || line.charCodeAt(n) === 42 /* * */) continue;
    if (tab && space) {
      previous = null;
      continue;
    }
    if (tab) {
      tabs++;
      previous = null;
      continue;
    }
    if (space) spaces++;
    if (previous !== null && n !== previous && Math.abs(n - previous) <= 8) steps[Math.abs(n - previous)]++;
    previous = n;
  }
  if (tabs > spaces) return { char: '\t' };
  if (spaces === 0 || spaces === tabs) return null;
  const most = Math.max(...steps);
  const best = steps.flatMap((count, width) => (count === most && most > 0 ? [width] : []));
  return best.length === 1 ? { char: ' ', width: best[0] } : null;
}

const styles = new WeakMap<readonly string[], IndentStyle>();

/** `indentStyle` of a file's lines, computed once per line array. */
function styleOf(lines: readonly string[]): IndentStyle {
  let style = styles.get(lines);
  if (style === undefined) styles.set(lines, (style = indentStyle(lines)));
  return style;
}

/** Whether an indentation is in a style: tabs only, or a whole number of its width of spaces. */
const inStyle = (indent: string, style: NonNullable<IndentStyle>) =>
  style.char === '\t' ? /^\t*$/.test(indent) : /^ *$/.test(indent) && indent.length % style.width === 0;

const showStyle = (style: IndentStyle) => (style === null ? 'as the file does' : style.char === '\t' ? 'with tabs, as the file is' : `with ${style.width} spaces per level, as the file is`);

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;
const range = (start: number, end: number) => (start === end ? `line ${start}` : `lines ${start}-${end}`);

/** The evidence for messages: `"  " where the file has "    "`, at most three pairs. */
function showPairs(map: IndentMap): string {
  const changed = map.pairs.filter(([c, f]) => c !== f);
  const shown = changed.slice(0, 3).map(([c, f]) => `${quote(c)} where the file has ${quote(f)}`);
  return shown.join(', ') + (changed.length > 3 ? ` and ${plural(changed.length - 3, 'more')}` : '');
}

/** The new lines of a placed edit, as they are to be written, or why they cannot be. */
export type Indented = { ok: true; lines: string[] | undefined; how: string } | { ok: false; why: string };

/**
 * The new lines of an edit placed at `start` (spec/matching.md,
 * "Indentation"), from the evidence of its cited lines against the file's:
 * - no evidence of another indentation (the pairs are all equal): written
 *   as they are (`lines` undefined);
 * - the evidence inconsistent: a failure;
 * - every new line's indentation among the cited ones: written through the map;
 * - else, when the common indentation of the lines written afresh (not
 *   context lines) is the file's at the place and not the cited lines':
 *   already written like the file, kept;
 * - else, when the common indentation of the new side as the reply wrote
 *   it (context lines included) is not the cited lines': like neither, a
 *   failure;
 * - else each line through the map, a line indented beyond the evidence by
 *   every reading the evidence allows (`shiftReading`, `unitReading`) when
 *   they agree (or, when they differ, exactly one gives the file's style);
 *   a line in the file's character where the cited lines use the other is
 *   kept; anything else is a failure naming the line and the readings.
 * Blank lines are kept; a context line (`keep`, when `newLines` is not
 * given) is the file's own line. `newLines` are lines a format already
 * worked out (context lines included); else the edit's `new`. `faced`, when
 * given, are the file lines the cited lines face, in order, for an edit
 * whose cited lines are not consecutive in the file (udiffx's `~` range
 * removal: the lines around the range); else the file's lines from `start`.
 */
export function indentNew(
  lines: readonly string[],
  edit: Pick<Edit, 'old' | 'new' | 'keep'>,
  start: number,
  newLines: readonly string[] | undefined,
  names: { old: string; new: string },
  faced?: readonly string[],
): Indented {
  const matched = faced ?? lines.slice(start, start + edit.old.length);
  const written = newLines ?? edit.new;
  const context = (i: number) => newLines === undefined && edit.keep?.[i] !== null && edit.keep?.[i] !== undefined;
  const own = (i: number) => (context(i) ? (matched[edit.keep![i]!] ?? written[i]) : written[i]);
  const evidence = indentEvidence(edit.old, matched);
  if (!evidence.ok) {
    const moved = written.some((l, i) => !context(i) && !isBlank(l));
    return moved
      ? { ok: false, why: `${evidence.why}, so how ${names.new} are to be indented cannot be told; nothing was changed: copy ${names.old} with the file's own indentation, and indent ${names.new} ${showStyle(styleOf(lines))}` }
      : { ok: true, lines: undefined, how: `${names.new} are blank` };
  }
  const { map } = evidence;
  if (map.identity) return { ok: true, lines: undefined, how: `${names.new} were kept as written` };
  const free = written.flatMap((l, i) => (context(i) || isBlank(l) ? [] : [i]));
  if (free.length === 0) return { ok: true, lines: undefined, how: `${names.new} are blank or the file's own` };
  const style = styleOf(lines);
  const out = (indents: (i: number) => string) =>
    written.map((line, i) => (context(i) ? own(i) : isBlank(line) ? line : indents(i) + line.slice(indentOf(line).length)));
  const cited = commonIndent(edit.old) ?? '';
  const file = commonIndent(matched.filter((_, i) => !isBlank(edit.old[i]))) ?? '';
  // The two frames the lines written afresh may be in: the cited lines' (carried over through
  // the evidence), or the file's already (kept as written) when their common indentation is the
  // file's at the place and not the cited lines'. Context lines, the file's own, say nothing of it.
  const theirs = commonIndent(free.map((i) => written[i])) ?? '';
  const asFile = theirs === file && theirs !== cited;
  const side = commonIndent(written) ?? '';
  // The new side indented past the cited lines' outermost line: written for neither frame.
  const pastCited = side !== cited && side.startsWith(cited);
  const carried = pastCited ? null : carryOver(map, free.map((i) => [i + 1, indentOf(written[i])] as const), style, names);
  const asCited = carried === null || 'why' in carried ? null : out((i) => carried.indents[free.indexOf(i)]);
  const how = `${names.new} were indented as ${names.old} show the file's indentation`;
  const kept = `${names.new}, already indented like the file, were kept as written`;
  if (asCited !== null && (!asFile || asCited.every((l, i) => l === written[i]))) return { ok: true, lines: asCited, how };
  if (asCited === null && asFile) return { ok: true, lines: undefined, how: kept };
  if (asCited !== null) {
    // Both frames fit and give other bytes: the file's style may tell them apart.
    const fits = (indents: string[]) => style !== null && indents.every((x) => inStyle(x, style));
    const inCited = fits(free.map((i) => indentOf(asCited[i])));
    const inFile = fits(free.map((i) => indentOf(written[i])));
    if (inCited !== inFile) return inCited ? { ok: true, lines: asCited, how } : { ok: true, lines: undefined, how: kept };
    const first = free.find((i) => asCited[i] !== written[i])!;
    return {
      ok: false,
      why: `${names.new} may be indented as ${names.old} are (line ${first + 1} would then be indented with ${quote(indentOf(asCited[first]))}) or already as the file is (${quote(indentOf(written[first]))}): their common indentation ${quote(theirs)} is the file's at the place; nothing was changed: indent ${names.new} ${showStyle(style)}`,
    };
  }
  if (carried !== null && 'why' in carried) return { ok: false, why: `${carried.why}; nothing was changed: indent ${names.new} ${showStyle(style)}` };
  return {
    ok: false,
    why: `${names.new} are indented with ${quote(side)} at the least, like neither ${names.old} (${quote(cited)}) nor the file (${quote(file)}), so where they belong is unclear; nothing was changed: indent ${names.new} ${showStyle(style)}`,
  };
}

/**
 * The file indentations for `indents` (the fresh lines', in order, each
 * with its 1-based number among the new lines, for messages) through
 * the evidence: a cited indentation as the one it stands for; one only in
 * the file's character where every cited one is in the other as it is; any
 * other by every reading of the evidence (`shiftReading`, `unitReading`)
 * when they agree, or when exactly one of their answers is in the file's
 * style; else why not.
 */
function carryOver(
  map: IndentMap,
  indents: readonly (readonly [number, string])[],
  style: IndentStyle,
  names: { old: string; new: string },
): { indents: string[] } | { why: string } {
  const through = new Map(map.pairs);
  const readings = [shiftReading(map.levels), unitReading(map.levels, style)].filter((r): r is Reading => r !== null);
  const citedChar = characterOfAll(map.pairs.map((p) => p[0]));
  const fileChar = characterOfAll(map.pairs.map((p) => p[1]));
  const result: string[] = [];
  for (const [number, x] of indents) {
    const mapped = through.get(x);
    if (mapped !== undefined) {
      result.push(mapped);
      continue;
    }
    // Already in the file's character where the cited lines use the other: the reply cannot mean it otherwise.
    if (citedChar && fileChar && citedChar !== fileChar && characterOf(x) === fileChar) {
      result.push(x);
      continue;
    }
    // No reading writes a space before a tab: no editor indents so.
    const answers = readings.map((r) => {
      const indent = r.indent(x);
      return { name: r.name, indent: indent !== null && / \t/.test(indent) ? null : indent };
    });
    const distinct = [...new Set(answers.map((a) => a.indent))];
    const fitting = style === null ? [] : distinct.filter((d) => d !== null && inStyle(d, style));
    const chosen = distinct.length === 1 && distinct[0] !== null ? distinct[0] : !distinct.includes(null) && fitting.length === 1 ? fitting[0] : null;
    if (chosen === null) {
      const line = `line ${number} of ${names.new} is indented with ${quote(x)}, as none of ${names.old} is`;
      const said = answers.map((a) => (a.indent === null ? `${a.name} it has no place` : `${a.name} it would be ${quote(a.indent)}`));
      return { why: answers.length === 0 ? `${line}, and ${names.old} (${showPairs(map)}) show no rule to carry it over` : `${line}: read ${said.join(', read ')}` };
    }
    result.push(chosen);
  }
  return { indents: result };
}

/** How a format names an edit's parts in the messages about indentation. */
export interface ShiftNames {
  /** The cited lines: `the SEARCH lines`. */
  old: string;
  /** The lines written: `the REPLACE lines`. */
  new: string;
  /** What to add lines to when the cited lines fit several places: `the SEARCH`. */
  more: string;
}

/**
 * Every start in `[lo, hi]` where `old` matches `lines` once indentation is
 * set aside, and the indentation evidence there is a consistent map other
 * than the identity (a blank cited line faces a blank file line). With the
 * map of each.
 */
export function reindentedPlaces(lines: readonly string[], old: readonly string[], lo = 0, hi = lines.length - old.length): { start: number; map: IndentMap }[] {
  hi = Math.min(hi, lines.length - old.length);
  if (old.every(isBlank) || lo > hi) return [];
  const keys = old.map((l) => (isBlank(l) ? '' : unindented(l)));
  const out: { start: number; map: IndentMap }[] = [];
  for (const s of findBlock(lines, keys, unindented, lo, hi)) {
    const matched = lines.slice(s, s + old.length);
    if (old.some((l, i) => isBlank(l) !== isBlank(matched[i]))) continue;
    const evidence = indentEvidence(old, matched);
    if (evidence.ok && !evidence.map.identity) out.push({ start: s, map: evidence.map });
  }
  return out;
}

/**
 * Place `edit` by its re-indented cited lines within `[lo, hi]`: null when
 * they fit no place that way; `ambiguous` when they fit several; `no-match`
 * when they fit one but the new lines' indentation cannot be told
 * (`indentNew`); else placed, with the new lines to write and a message.
 * `cited` (0-based, or null) gives the offset.
 */
export function placeShifted(
  lines: readonly string[],
  edit: Pick<Edit, 'old' | 'new' | 'keep' | 'file'>,
  names: ShiftNames,
  lo: number,
  hi: number,
  cited: number | null,
): MatchOutcome | null {
  const found = reindentedPlaces(lines, edit.old, lo, hi);
  if (found.length === 0) return null;
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
      message: `${names.old} match ${plural(found.length, 'place')} of ${edit.file} with their indentation changed, at ${places}; include more lines in ${names.more} so that it matches one place only`,
    };
    return fail;
  }
  const { start, map } = found[0];
  const n = edit.old.length;
  const where = range(start + 1, start + n);
  const matched = lines.slice(start, start + n);
  const what = `${names.old} are indented with ${showPairs(map)}`;
  const written = indentNew(lines, edit, start, undefined, names);
  if (!written.ok) {
    return {
      ok: false,
      code: 'no-match',
      kind: null,
      candidates: [candidateAt(lines, edit.old, start, cited)],
      outside: [],
      message: `${names.old} match ${where} of ${edit.file} only with their indentation changed (${what}), and ${written.why}, or copy ${names.old} exactly as the file has them, indentation included`,
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
    message: `applied at ${where} with the indentation changed: ${what}, and ${written.how}`,
  };
  if (written.lines) placed.newLines = written.lines;
  return placed;
}

/**
 * The match ladder (`locate`), then, when it finds nothing, the cited lines
 * re-indented within the window (the whole file without a cited place): for
 * formats whose edits cite old lines and may keep context lines from the
 * file (unified diffs, udiffx).
 */
export function locateShifting(
  lines: readonly string[],
  edit: Edit,
  options: EngineOptions = {},
  request?: RequestBudget | null,
  names: ShiftNames = { old: "the hunk's context and removed lines", new: "the hunk's added lines", more: 'the hunk' },
): MatchOutcome {
  const cited = edit.cited !== undefined ? edit.cited - 1 : null;
  const core = restyled(lines, edit, locate(lines, edit.old, cited, options, request), names, cited);
  if (core.ok && core.kind === 'offset' && cited !== null && Math.abs(core.start - cited) > 1 && options.whitespace !== false) return againstCitedPlace(lines, edit, core, cited, names);
  if (core.ok || core.code !== 'no-match' || core.message !== undefined || core.fuzzyRefused !== undefined || options.whitespace === false || edit.old.length === 0) return core;
  const window = options.window ?? ENGINE_DEFAULTS.window;
  const last = lines.length - edit.old.length;
  const lo = cited === null ? 0 : Math.max(0, cited - window);
  const hi = cited === null ? last : Math.min(last, cited + window);
  const shifted = placeShifted(lines, edit, names, lo, hi, cited);
  return shifted ?? core;
}

/**
 * A block the ladder found further than one line from its cited place (one
 * line off is the commonest slip of a number, and decides), while the cited place
 * holds the same lines with their indentation changed: two readings (the
 * numbers off, or the indentation), so `ambiguous`, naming both places;
 * else the placement as it is.
 */
function againstCitedPlace(lines: readonly string[], edit: Edit, placed: Placed, cited: number, names: ShiftNames): MatchOutcome {
  if (cited < 0 || cited > lines.length - edit.old.length || reindentedPlaces(lines, edit.old, cited, cited).length === 0) return placed;
  const tied = tiedCandidates([placed.start, cited].sort((a, b) => a - b), (s) => candidateAt(lines, edit.old, s, cited));
  const n = edit.old.length;
  return {
    ok: false,
    code: 'ambiguous',
    kind: 'offset',
    ...tied,
    outside: [],
    message: `${names.old} are at ${range(placed.start + 1, placed.start + n)} of ${edit.file} as written, ${Math.abs(placed.start - cited)} lines from the cited line ${cited + 1}, and at the cited place, ${range(cited + 1, cited + n)}, with their indentation changed; nothing was changed: cite the right line numbers and copy ${names.old} exactly as the file has them there, indentation included`,
  };
}

/**
 * A placement with its new lines indented by the evidence of its cited
 * lines (`indentNew`): the same placement when they are written as they
 * are, with the new lines and a note when the evidence re-indents them, or
 * why they cannot be written.
 */
export function indentPlaced(
  lines: readonly string[],
  edit: Pick<Edit, 'old' | 'new' | 'keep'>,
  placed: Placed,
  names: { old: string; new: string },
): { ok: true; placed: Placed } | { ok: false; why: string } {
  if (placed.start === placed.end) return { ok: true, placed };
  const r = indentNew(lines, edit, placed.start, placed.newLines, names);
  if (!r.ok) return r;
  if (r.lines === undefined) return { ok: true, placed };
  const evidence = indentEvidence(edit.old, lines.slice(placed.start, placed.end));
  const note = evidence.ok ? `${r.how} (${names.old} are indented with ${showPairs(evidence.map)})` : r.how;
  return {
    ok: true,
    placed:
      placed.message !== undefined
        ? { ...placed, newLines: r.lines, message: `${placed.message}; ${note}` }
        : { ...placed, newLines: r.lines, note: placed.note ? `${placed.note}; ${note}` : note },
  };
}

/** `indentPlaced`, its failure a `no-match` naming the place (for any outcome: a failure is passed on). */
export function restyled(
  lines: readonly string[],
  edit: Pick<Edit, 'old' | 'new' | 'keep'> & { file?: string },
  placed: MatchOutcome,
  names: { old: string; new: string },
  cited: number | null = null,
): MatchOutcome {
  if (!placed.ok) return placed;
  const r = indentPlaced(lines, edit, placed, names);
  if (r.ok) return r.placed;
  return {
    ok: false,
    code: 'no-match',
    kind: null,
    candidates: [candidateAt(lines, edit.old, placed.start, cited)],
    outside: [],
    message: `${names.old} match ${range(placed.start + 1, placed.end)}${edit.file === undefined ? '' : ` of ${edit.file}`}, but ${r.why}`,
  };
}
