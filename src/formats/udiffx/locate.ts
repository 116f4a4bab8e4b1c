// Where a udiffx hunk goes in a file: the engine's match ladder, plus two
// things udiffx's own prompt and applier allow (spec/formats/udiffx.md,
// "Range removal" and "Blank lines at the end of the file"):
//
// | case                                   | how it is placed                                     |
// |----------------------------------------|------------------------------------------------------|
// | a plain hunk                           | the ladder, then a uniform indent shift              |
// |                                        | (`locateShifting`, as udiff)                         |
// | a `~` range removal (`meta.gap`)       | the lines before `~` as a plain hunk's; the lines    |
// |                                        | after it so in the lines after those, once; the      |
// |                                        | added lines indented by the evidence of both parts   |
// | trailing blank context the file lacks  | the hunk without those blank lines, only when it     |
// | at its end                             | then ends where the file's last non-blank line ends  |
// | context lines only (`meta.unchanged`)  | as a plain hunk, with the warning `no-change`        |
// | added lines only, no numbers           | in an empty file, its one place; else `malformed`    |

import { isWhiteSpaceOnly } from '../../core/blank.ts';
import { diagnostic } from '../../core/diagnostics.ts';
import { indentNew, locateShifting } from '../../core/indent.ts';
import { locate } from '../../core/match.ts';
import { farHunk } from '../udiff/far.ts';
import { placeUnanchored } from '../udiff/hunks.ts';
import type { Edit, EngineOptions, MatchKind, MatchOutcome, Placed, RequestBudget } from '../../core/types.ts';

const RANK: Record<MatchKind, number> = { exact: 0, offset: 1, whitespace: 2, fuzzy: 3 };
const weaker = (a: MatchKind, b: MatchKind): MatchKind => (RANK[a] >= RANK[b] ? a : b);
const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

/** The index in `old` where a `~` range removal leaves out the file's lines, or null. */
export function gapOf(edit: Edit): number | null {
  const gap = edit.meta?.gap;
  return typeof gap === 'number' ? gap : null;
}

/** New lines, with each context line (`keep[i] = j`) taken from the file's line `fileLine(j)`, or dropped when that is undefined. */
function withContext(edit: Edit, fileLine: (j: number) => string | undefined): string[] {
  if (!edit.keep) return edit.new;
  const out: string[] = [];
  edit.new.forEach((line, i) => {
    const j = edit.keep![i];
    if (j === null || j === undefined) out.push(line);
    else {
      const actual = fileLine(j);
      if (actual !== undefined) out.push(actual);
    }
  });
  return out;
}

/** Place a udiffx hunk (`Format.locate`): see the table at the top of this file. */
export function locateUdiffx(lines: readonly string[], edit: Edit, options: EngineOptions, budget?: RequestBudget): MatchOutcome {
  const cited = edit.cited !== undefined ? edit.cited - 1 : null;
  if (edit.old.length === 0) return placeUnanchored(lines, edit);
  const gap = gapOf(edit);
  if (gap !== null) return locateRange(lines, edit, gap, cited, options, budget);
  const outcome = farHunk(locateShifting(lines, edit, options, budget), edit, options);
  const found = outcome.ok ? outcome : (blankTail(lines, edit, cited, options, budget) ?? outcome);
  if (found.ok && edit.meta?.unchanged === true) {
    const warning = diagnostic(
      'no-change',
      'warning',
      `the hunk at line ${edit.span.start.line} has context lines only (no "-" or "+" line): it was found at lines ${found.start + 1}-${found.end} and changes nothing. To change lines, mark each line to remove with "-" and each new line with "+"`,
      edit.span,
    );
    return { ...found, warnings: [...(found.warnings ?? []), warning] };
  }
  return found;
}

/**
 * A hunk whose last context lines are blank lines the file does not have at
 * its end: placed without them, and only right before the file's blank tail
 * (its last lines that are blank, fewer than the hunk's trailing blank
 * lines), where the lines before them must match as any hunk's old lines at
 * a cited place (a hunk with no other old line is placed there at once);
 * else null. The place is the only one where the hunk's lines
 * are followed by nothing but blank lines, so no search is made elsewhere.
 */
function blankTail(lines: readonly string[], edit: Edit, cited: number | null, options: EngineOptions, budget?: RequestBudget): Placed | null {
  const context = new Set(edit.keep?.filter((j): j is number => j !== null) ?? []);
  let k = edit.old.length;
  while (k > 0 && isWhiteSpaceOnly(edit.old[k - 1]) && context.has(k - 1)) k--;
  const dropped = edit.old.length - k;
  if (dropped === 0) return null;
  let last = lines.length;
  while (last > 0 && isWhiteSpaceOnly(lines[last - 1])) last--;
  const tail = lines.length - last;
  const at = last - k;
  if (tail >= dropped || at < 0) return null;
  // A hunk whose old lines are all trailing blank context has nothing else to compare: the place is the file's end.
  const found: MatchOutcome =
    k === 0
      ? { ok: true, kind: 'exact', start: at, end: at, offset: 0, similarity: 1, differing: [] }
      : locate(lines, edit.old.slice(0, k), at, { ...options, fuzzy: false }, budget);
  if (!found.ok || found.start !== at) return null;
  const outcome: Placed = { ...found, offset: cited === null ? null : at - cited };
  const start = outcome.start;
  const newLines = withContext(edit, (j) => (start + j < lines.length ? lines[start + j] : undefined));
  return {
    ...outcome,
    kind: weaker(outcome.kind, 'whitespace'),
    end: lines.length,
    newLines,
    message:
      k === 0
        ? `applied at the end of ${lines.length === 0 ? 'the empty file' : 'the file'}: the hunk's only old lines are ${plural(dropped, 'blank context line')}, and the file ends with ${
            tail === 0 ? 'none' : `only ${tail}`
          }: the hunk was placed without the ${plural(dropped - tail, 'blank line')} the file lacks`
        : `applied at lines ${start + 1}-${lines.length}: the hunk's last ${plural(dropped, 'context line')} ${dropped === 1 ? 'is' : 'are'} blank, and the file has ${
            tail === 0 ? 'none' : `only ${tail}`
          } after line ${outcome.end}, where it ends: the hunk was placed without the ${plural(dropped - tail, 'blank line')} the file lacks`,
  };
}

/** What the messages about a hunk's indentation call its parts. */
const NAMES = { old: "the hunk's context and removed lines", new: "the hunk's added lines", more: 'the hunk' };

/**
 * A `~` range removal: the old lines before the gap are placed as a plain
 * hunk's old lines are (the ladder, then re-indented: `locateShifting`);
 * the old lines after it so in the lines after those (the first place there
 * is not taken: they must occur once); the file's lines between the two go
 * with them. The added lines are indented by the evidence of both parts'
 * lines against the file lines they face (spec/matching.md, "Indentation").
 */
function locateRange(lines: readonly string[], edit: Edit, gap: number, cited: number | null, options: EngineOptions, budget?: RequestBudget): MatchOutcome {
  // Each part is placed alone, with no new lines: how the added lines are indented is decided below, from both.
  const part = (old: string[], at: number | undefined): Edit => ({ ...edit, old, new: [], keep: undefined, cited: at });
  const top = locateShifting(lines, part(edit.old.slice(0, gap), edit.cited), options, budget, NAMES);
  if (!top.ok) {
    return { ...top, message: `the ${plural(gap, 'line')} before \`~\` (the range removal's start): ${top.code === 'ambiguous' ? 'they occur in more than one place' : 'they are not in the file'}; the hunk was not applied` };
  }
  const rest = lines.slice(top.end);
  const bottom = locateShifting(rest, part(edit.old.slice(gap), undefined), options, budget, NAMES);
  if (!bottom.ok) {
    const where = `after line ${top.end}, where the lines before \`~\` end (lines ${top.start + 1}-${top.end})`;
    return {
      ok: false,
      code: bottom.code,
      message: `the ${plural(edit.old.length - gap, 'line')} after \`~\` (the range removal's end) ${
        bottom.code === 'ambiguous' ? `occur in more than one place ${where}, so the range's end is unclear` : `are not in the file ${where}`
      }; the hunk was not applied`,
      candidates: [],
      kind: bottom.kind,
      outside: [],
    };
  }
  const from = top.start;
  const bottomStart = top.end + bottom.start;
  const end = top.end + bottom.end;
  const faced = [...lines.slice(top.start, top.end), ...lines.slice(bottomStart, end)];
  const indented = indentNew(lines, edit, from, undefined, NAMES, faced);
  if (!indented.ok) {
    return {
      ok: false,
      code: 'no-match',
      kind: null,
      candidates: [],
      outside: [],
      message: `the range removal's lines match lines ${from + 1}-${top.end} and ${bottomStart + 1}-${end}, but ${indented.why}`,
    };
  }
  const newLines = indented.lines ?? withContext(edit, (j) => faced[j]);
  const reindented = indented.lines === undefined ? '' : `; ${indented.how}`;
  return {
    ok: true,
    kind: weaker(top.kind, bottom.kind),
    start: from,
    end,
    newLines,
    offset: top.offset,
    similarity: Math.min(top.similarity, bottom.similarity),
    differing: [...top.differing, ...bottom.differing.map((d) => d + gap)],
    message: `applied at lines ${from + 1}-${end}: the \`~\` range removal takes lines ${top.end + 1}-${bottomStart} between the lines around it${
      bottomStart === top.end ? ' (there were none)' : ''
    }${reindented}`,
  };
}

/**
 * A hunk applied to a text known while reading the reply (a file written
 * earlier in it): where it goes and its lines, or why it does not apply.
 */
export function placeInText(lines: readonly string[], edit: Edit, options: EngineOptions): { from: number; to: number; lines: string[] } | { code: 'no-match' | 'ambiguous' | string; message: string } {
  if (edit.kind === 'insert') {
    const at = (edit.cited ?? lines.length + 1) - 1;
    if (at < 0 || at > lines.length) return { code: 'no-match', message: `it inserts before line ${at + 1}, and that text has ${plural(lines.length, 'line')}` };
    return { from: at, to: at, lines: edit.new };
  }
  const outcome = locateUdiffx(lines, edit, options);
  if (!outcome.ok) {
    const why =
      outcome.message ??
      (outcome.code === 'ambiguous'
        ? `its old lines occur in ${outcome.tied ?? outcome.candidates.length} places in that text`
        : `its old lines are not in that text${outcome.candidates[0] ? ` (the closest place is lines ${outcome.candidates[0].start}-${outcome.candidates[0].end})` : ''}`);
    return { code: outcome.code, message: why };
  }
  const start = outcome.start;
  return { from: start, to: outcome.end, lines: outcome.newLines ?? withContext(edit, (j) => lines[start + j]) };
}
