// Old lines copied with the numbered view's prefixes: a model shown a file as
// `ln-diff read` and the MCP server's `read_file` show it (`12│value = 1`,
// or Roo's `12 | value = 1`) may quote the lines to find with their numbers
// and bars, in a format whose old lines carry none (a SEARCH, a hunk's
// context, an `old_str`). The prefixes are not the file's text, so the edit
// matches nowhere; it is not read with them removed (a line of a file may
// start so, and a format without numbers does not cite places), but its
// failure says what is wrong: which prefixes, to remove them, and where the
// lines are once they are removed. One helper for every such format.

import { candidateAt, locate } from './match.ts';
import type { EngineOptions, MatchOutcome } from './types.ts';

/** The ln-diff view's prefix (`12│`, numbers right-aligned with spaces) and Roo's `read_file` prefix (`12 | `). */
const PREFIXES: readonly RegExp[] = [/^ *(\d{1,9})\u2502/, /^[ \t]*(\d{1,9})[ \t]+\|(?!\|) ?/];

/** Old lines that carry a view's prefixes: the numbers of the first and last, one prefix as written, and the lines without them. */
export interface ViewPrefixed {
  /** The prefix's pattern (to tell whether a file's own lines start so). */
  pattern: RegExp;
  first: number;
  last: number;
  /** The first line's prefix, as written (for the message). */
  prefix: string;
  /** The lines with their prefixes removed. */
  lines: string[];
}

/**
 * Whether every one of `old` (at least one) starts with the same view's
 * line-number prefix, the numbers consecutive (`12│`, `13│`, `14│`): the
 * lines were copied from a numbered view with their numbers. Null otherwise
 * (a line without one, numbers out of order: the file's own text, most
 * likely).
 */
export function viewPrefixed(old: readonly string[]): ViewPrefixed | null {
  if (old.length === 0) return null;
  for (const re of PREFIXES) {
    const found = old.map((line) => re.exec(line));
    if (!found.every((m) => m !== null)) continue;
    const numbers = found.map((m) => Number(m![1]));
    if (!numbers.every((n, k) => n === numbers[0] + k)) continue;
    return { pattern: re, first: numbers[0], last: numbers[numbers.length - 1], prefix: found[0]![0].trim(), lines: old.map((line, k) => line.slice(found[k]![0].length)) };
  }
  return null;
}

const range = (start: number, end: number) => (start === end ? `line ${start}` : `lines ${start}-${end}`);

/**
 * `outcome` with its message (and candidate) saying that the old lines carry
 * the view's prefixes, when it failed with `no-match` and `old` is so
 * prefixed (see `viewPrefixed`) and no line of the file starts so (a file
 * that holds such lines, a page about a numbered view, may be quoted with
 * them); any other outcome as it is. `what` names
 * the lines for the message ("the SEARCH lines"). Without their prefixes,
 * the lines are looked for at the place their numbers give (the match
 * ladder, with its window): the message says where they are then, and that
 * place is the candidate, or says that they do not match even so.
 */
export function withViewPrefixes(
  outcome: MatchOutcome,
  lines: readonly string[],
  old: readonly string[],
  file: string,
  what: string,
  options: EngineOptions = {},
): MatchOutcome {
  if (outcome.ok || outcome.code !== 'no-match') return outcome;
  const view = viewPrefixed(old);
  if (!view || lines.some((line) => view.pattern.test(line))) return outcome;
  const head = `${what} start with line numbers as the numbered view shows them (${JSON.stringify(view.prefix)} on the first, to ${view.last} on the last): they are not part of the lines of ${file}, so the lines match nowhere; remove the number and the bar from the start of each line, and copy only the text after the bar`;
  const bare = locate(lines, view.lines, view.first - 1, { ...options, fuzzy: false });
  if (!bare.ok) return { ...outcome, message: `${head}; even without them, the lines do not match ${file} near line ${view.first}: copy them exactly as the file has them` };
  const at = range(bare.start + 1, bare.end);
  const where = bare.start === view.first - 1 ? `${at} of ${file}, as numbered` : `${at} of ${file}${bare.kind === 'whitespace' ? ', white space aside' : ''}`;
  return { ...outcome, candidates: [candidateAt(lines, old, bare.start, null)], message: `${head}; without them, the lines are ${where}` };
}
