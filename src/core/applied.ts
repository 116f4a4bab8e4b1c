// An edit already applied: its new lines already stand in the file where it
// is placed, so that applying it would write them a second time (a reply sent
// again after a timeout, a step run twice). Two readings of the reply give
// different files then, and the engine refuses to guess: the edit fails with
// `already-applied` and changes nothing (spec/formats.md, "Edits already
// applied"). Pure: lines in, a place out.

import { formatText, newFile, setFinalNewline } from './text.ts';
import type { LineRange } from './types.ts';

/** What the check needs of one placed edit: plain data. */
export interface PlacedLines {
  /** The file's lines, as given (before any edit of the reply). */
  file: readonly string[];
  /** Where the edit goes, 0-based half-open: it replaces `file[from, to)` (its matched lines M, empty for an insertion). */
  from: number;
  to: number;
  /** N: the lines it would write there (re-indented, context lines the file's own). */
  lines: readonly string[];
  /** An append: its place is the end of the file, whatever the file's length (so its copy would stand just before it). */
  append: boolean;
}

const blank = (line: string) => line.trim() === '';

function sameLines(a: readonly string[], b: readonly string[], at = 0): boolean {
  if (at < 0 || at + b.length > a.length) return false;
  for (let i = 0; i < b.length; i++) if (a[at + i] !== b[i]) return false;
  return true;
}

/** Whether the new lines could be a second copy at all: they hold a non-blank line and are not M (writing M back is `no-change`). */
function writesLines(p: Omit<PlacedLines, 'append'>): boolean {
  const { file, from, to, lines } = p;
  return lines.some((l) => !blank(l)) && !(lines.length === to - from && sameLines(file, lines, from));
}

const found = (start: number, n: number): LineRange => ({ start: start + 1, end: start + n });

/** The first copy of `lines` in `file` that covers `[from, to)` (touches the point, when empty), 0-based, or null. */
function copyCovering(file: readonly string[], from: number, to: number, lines: readonly string[]): number | null {
  const n = lines.length;
  // A copy starts at some p with p <= from and p + n >= to, inside the file.
  const first = Math.max(0, to - n);
  const last = Math.min(from, file.length - n);
  return first > last ? null : firstOccurrence(file, lines, first, last);
}

/**
 * Where the edit's new lines N already stand around its place, as a 1-based
 * inclusive range of the file, or null when applying it would not write them
 * a second time. N must hold a non-blank line and differ from M (an edit
 * that writes M back changes nothing: `no-change`, not this). Then:
 * - M not empty: a copy of N in the file covers M, M in it where N holds it
 *   (N[k, k+|M|) is M and the file's lines from `from - k` are N);
 * - M empty (an insertion): the file's lines from `from` are N, where the
 *   first application put them;
 * - an append: the file's last lines are N.
 * Lines are compared exactly. The first such copy is given (a copy can only
 * start at `from - k`, so there are at most |N| - |M| + 1 of them). Time is
 * linear in |N| (a Knuth-Morris-Pratt scan of the lines around the place).
 */
export function alreadyStands(p: PlacedLines): LineRange | null {
  const { file, from, to, lines } = p;
  if (!writesLines(p)) return null;
  if (to === from) {
    const start = p.append ? from - lines.length : from;
    return sameLines(file, lines, start) ? found(start, lines.length) : null;
  }
  const start = copyCovering(file, from, to, lines);
  return start === null ? null : found(start, lines.length);
}

/**
 * For a writer, which chooses how to write a change: where a copy of the
 * new lines stands that covers the place, or touches it when nothing is
 * replaced (an insertion point at either end of the copy, or inside it), or
 * null. It finds every copy `alreadyStands` finds, for the change as it is
 * and for an edit that cites it with unchanged lines around it (context
 * lines, a neighbour line an insertion is anchored on, an append): an edit
 * written from a change this gives null for never reads back as already
 * applied. Unlike `alreadyStands`, blank new lines count: cited with a
 * neighbour line, they are not blank.
 */
export function copyBeside(p: Omit<PlacedLines, 'append'>): LineRange | null {
  // Blank new lines count: an edit that cites the change with a non-blank neighbour line is not blank.
  if (p.lines.length === p.to - p.from && sameLines(p.file, p.lines, p.from)) return null;
  const start = copyCovering(p.file, p.from, p.to, p.lines);
  return start === null ? null : found(start, p.lines.length);
}

/**
 * The first start `s` in [first, last] where `file[s, s + |lines|)` equals
 * `lines`, or null: Knuth-Morris-Pratt over lines, comparing each line once
 * or twice.
 */
function firstOccurrence(file: readonly string[], lines: readonly string[], first: number, last: number): number | null {
  const n = lines.length;
  const fail = new Array<number>(n).fill(0);
  for (let i = 1, k = 0; i < n; i++) {
    while (k > 0 && lines[i] !== lines[k]) k = fail[k - 1];
    if (lines[i] === lines[k]) k++;
    fail[i] = k;
  }
  for (let i = first, k = 0; i < last + n; i++) {
    while (k > 0 && file[i] !== lines[k]) k = fail[k - 1];
    if (file[i] === lines[k]) k++;
    if (k === n) return i - n + 1;
  }
  return null;
}

/**
 * Whether a file an edit creates already exists with exactly the text the
 * edit would give it (its lines with LF endings, the byte order mark its
 * first line starts with, a final newline unless `finalNewline` is false),
 * with at least one non-blank line: the creation was applied already. A
 * file that exists with any other text is `file-exists`; an empty or blank
 * creation is never this. `lines` are the lines as a created file gets them
 * (one mark at most at the start of the first).
 */
export function alreadyCreated(given: string, lines: readonly string[], finalNewline: boolean | undefined): boolean {
  if (!lines.some((l) => !blank(l))) return false;
  const created = newFile([...lines]);
  if (finalNewline !== undefined) setFinalNewline(created, finalNewline);
  return formatText(created) === given;
}

const where = (r: LineRange) => (r.start === r.end ? `line ${r.start}` : `lines ${r.start}-${r.end}`);

/**
 * The message of an edit whose new lines already stand at `at` of `file`:
 * where, that nothing was changed, and how to ask for a second copy (an edit
 * that cites the copy, which places where the copy is and nowhere else).
 */
export function alreadyAppliedMessage(file: string, at: LineRange, append: boolean): string {
  const what = append ? `the lines the edit appends already end ${file}, at ${where(at)}` : `the edit's new lines already stand at ${where(at)} of ${file}, where it goes`;
  return `${what}: the edit was applied already, and applying it again would write them a second time, so it changed nothing; if a second copy is really wanted, send an edit whose old lines are ${where(at)} of ${file} (the copy that stands there) and whose new lines hold that copy and the second one`;
}

/** The message of a creation of a file that already exists with exactly its text. */
export function alreadyCreatedMessage(file: string): string {
  return `${file} already exists with exactly the text this edit creates it with: the edit was applied already, and it changed nothing; to change ${file}, edit its lines`;
}
