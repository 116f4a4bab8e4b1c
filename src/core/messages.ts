// Every sentence the engine's stages write about an edit, in one place: how
// it was placed, why it was not, and what a later stage decided (already
// applied, a repeat, an overlap, a stray marker, no change). A format's own
// matcher may describe its match itself (`Placed.message`); every other
// message of an edit's result is written here.

import { quote } from './diagnostics.ts';
import { alikeNote, firstDifference } from './invisible.ts';
import { fuzzyRefusal, morePlaces, searchedNote, UNSEARCHED, unsearched, type MatchOutcome } from './match.ts';
import type { Edit, Format, LineRange } from './types.ts';

export const plural = (n: number, word: string): string => `${n} ${word}${n === 1 ? '' : 's'}`;
/** Lines of a file, as a message names them: an empty range is the place before its start. */
export const lines = (r: LineRange): string => (r.end < r.start ? `before line ${r.start}` : r.start === r.end ? `line ${r.start}` : `lines ${r.start}-${r.end}`);
const signed = (n: number) => (n > 0 ? `+${n}` : `${n}`);
const show = quote; // lines quoted in messages, cut when very long

/** How a `replace` edit was placed, at `range` (1-based) where the file has `actual`. */
export function placedMessage(outcome: Extract<MatchOutcome, { ok: true }>, range: LineRange, old: string[], actual: string[], cited: LineRange | null, threshold: string): string {
  const where = lines(range);
  if (range.end < range.start) return `inserted ${where}`;
  switch (outcome.kind) {
    case 'exact':
      return `applied at ${where}`;
    case 'offset':
      return `applied at ${where}: the content matched ${plural(Math.abs(outcome.offset ?? 0), 'line')} ${
        (outcome.offset ?? 0) > 0 ? 'below' : 'above'
      } the cited ${cited ? lines(cited) : 'place'} (offset ${signed(outcome.offset ?? 0)})`;
    case 'whitespace':
      return `applied at ${where}, ignoring whitespace differences on ${plural(outcome.differing.length, 'line')}${
        outcome.offset ? ` (offset ${signed(outcome.offset)})` : ''
      }${invisibleNote(outcome.differing, range.start, actual, old)}`;
    case 'fuzzy': {
      const first = outcome.differing[0] ?? 0;
      return `applied at ${where} by similarity ${outcome.similarity.toFixed(3)} (threshold ${threshold}): ${plural(
        outcome.differing.length,
        'line',
      )} ${outcome.differing.length === 1 ? 'differs' : 'differ'}; line ${range.start + first} is ${show(actual[first])} where the edit cites ${show(old[first])}${alikeNote(actual[first], old[first])}${
        outcome.offset ? ` (offset ${signed(outcome.offset)})` : ''
      }`;
    }
  }
}

/**
 * For a whitespace match: the first differing line whose difference is not
 * trailing white space (a zero-width character, another normalisation form),
 * named by code point; empty when every difference is trailing white space.
 */
function invisibleNote(differing: readonly number[], first: number, actual: readonly string[], old: readonly string[]): string {
  if (actual.length !== old.length) return '';
  const i = differing.find((k) => actual[k] !== undefined && actual[k].trimEnd() !== old[k].trimEnd());
  if (i === undefined) return '';
  return `; line ${first + i} differs from the edit's only invisibly: ${firstDifference(actual[i].trimEnd(), old[i].trimEnd())}, and is taken as the same line`;
}

/** Why a `replace` edit of `fileLines` was not placed (`cited`: the lines it cites, 1-based). */
export function unplacedMessage(
  outcome: Extract<MatchOutcome, { ok: false }>,
  edit: Edit,
  format: Format,
  cited: LineRange | null,
  fileLines: readonly string[],
  window: number,
  threshold: number,
): string {
  const what = cited ? `the cited ${lines(cited)}` : 'the cited lines';
  const doNot = cited && cited.start === cited.end ? 'does not' : 'do not';
  if (outcome.code === 'ambiguous') {
    const places = outcome.candidates
      .map((c) => `${lines(c)}${c.offset !== null ? ` (offset ${signed(c.offset)})` : ''}`)
      .join(' and ');
    return `${what} match equally well (${outcome.kind}) at ${places}${morePlaces(outcome)} of ${edit.file}; ${edit.cited !== undefined ? 'cite the line numbers of the one you mean, or ' : ''}include more lines to tell them apart`;
  }
  if (outcome.fuzzyRefused !== undefined && outcome.candidates[0]) {
    const near = outcome.candidates[0];
    const s = outcome.outside[0];
    const far = { start: s + 1, end: s + edit.old.length };
    const same = edit.old.every((line, i) => line === fileLines[s + i]);
    const more = outcome.outside.length > 1 ? ` (and ${plural(outcome.outside.length - 1, 'other place')})` : '';
    const one = cited !== null && cited.start === cited.end;
    return `${what} ${one ? 'matches' : 'match'} ${edit.file} at ${lines(near)} only by similarity ${near.similarity.toFixed(3)}, but ${one ? 'occurs' : 'occur'} ${
      same ? 'unchanged' : 'ignoring trailing whitespace'
    } at ${lines(far)}${more}, outside the ${window} lines around the cited place: not applied, since ${lines(far)} may be the place meant; cite the line numbers of the place you mean, and copy its lines exactly`;
  }
  if (outcome.outside.length > 0) {
    const s = outcome.outside[0];
    return `${what} ${doNot} match ${edit.file} within ${window} lines of the cited place; the same lines occur at ${lines({
      start: s + 1,
      end: s + edit.old.length,
    })}, too far to be trusted: cite those line numbers`;
  }
  if (fileLines.length === 0) return `${what} ${doNot} match ${edit.file}, which is empty${format.emptyHint ? `; ${format.emptyHint}` : ''}`;
  if (cited && cited.end > fileLines.length) {
    return `${what} ${doNot} match ${edit.file}: the file has ${plural(fileLines.length, 'line')}; cite lines that exist`;
  }
  const c = outcome.candidates[0];
  const near = cited ? ` within ${window} lines of the cited place` : '';
  if (!c && unsearched(outcome)) return `${what} ${doNot} match ${edit.file}${near}; ${UNSEARCHED}; re-read the file and copy the lines exactly as it has them`;
  if (!c)
    return `${what} ${doNot} match ${edit.file}: no place${near}${outcome.searched ? ' that was compared' : ''} comes close to them${searchedNote(outcome)}; re-read the file and copy the lines exactly as it has them`;
  const i = c.differs.indexOf(true);
  const refusal = i >= 0 && c.lines[i] !== undefined && c.similarity > threshold ? fuzzyRefusal(edit.old[i], c.lines[i]) : null;
  const detail =
    i >= 0
      ? `; closest is ${lines(c)} (similarity ${c.similarity.toFixed(3)}), where line ${c.start + i} is ${show(c.lines[i] ?? '')} but the edit cites ${show(edit.old[i])}${c.lines[i] === undefined ? '' : alikeNote(c.lines[i], edit.old[i])}${
          refusal ? ` (similar, but ${refusal}: only one misspelt word is forgiven)` : ''
        }${searchedNote(outcome)}`
      : '';
  return `${what} ${doNot} match ${edit.file}${detail}; copy the lines exactly as the file has them`;
}

/** What an edit that is not a `replace` did, once placed. */
export const placedOther = {
  append: (file: string, exists: boolean, n: number, added: number): string =>
    !exists ? `created ${file} with ${plural(added, 'line')}` : n === 0 ? `added ${plural(added, 'line')} to the empty file` : `appended ${plural(added, 'line')} after line ${n}`,
  write: (file: string, exists: boolean, n: number, written: number): string =>
    exists ? `replaced the whole file (${plural(n, 'line')}) with ${plural(written, 'line')}` : `created ${file} with ${plural(written, 'line')}`,
  delete: (file: string): string => `deleted ${file}`,
  rename: (file: string, to: string): string => `renamed ${file} to ${to}`,
  insert: (added: number, at: number): string => `inserted ${plural(added, 'line')} before line ${at}`,
};

/** Why an edit was refused before it was placed. */
export const refused = {
  unsafe: (path: string, reason: string): string => `refused to write ${show(path)}: ${reason}`,
  moveOnto: (file: string, to: string): string => `cannot move ${file} to ${to}: ${to} already exists`,
  elided: (file: string, k: number, line: string): string =>
    `line ${k + 1} of the new text, ${show(line.trim())}, stands for code left out: applied, it would delete that code from ${file}; write the lines in full (to keep lines unchanged, leave them out of the edit rather than eliding them)`,
  deleteMissing: (file: string): string => `cannot delete ${file}: no such file`,
  deleteDiffers: (file: string, quoted: number, differs: string): string =>
    `not deleted: the edit quotes ${plural(quoted, 'line')} as the whole of ${file}, but ${differs}; a file is deleted only when the edit quotes every one of its lines exactly`,
  renameMissing: (file: string): string => `cannot rename ${file}: no such file`,
  renameNowhere: (file: string): string => `the rename of ${file} names no new path`,
  renameOnto: (file: string, to: string): string => `cannot rename ${file} to ${to}: ${to} already exists`,
  insertOutside: (file: string, at: number, n: number): string => `cannot insert before line ${at} of ${file}: the file has ${plural(n, 'line')}`,
};

/**
 * How a deletion's quoted lines (`Edit.old` of a `delete` edit) differ from
 * the whole file, or null when they are exactly its lines.
 */
export function wholeFileDiffers(quoted: readonly string[], fileLines: readonly string[]): string | null {
  for (let i = 0; i < Math.min(quoted.length, fileLines.length); i++) {
    if (quoted[i] !== fileLines[i]) return `line ${i + 1} is ${show(fileLines[i])} where the edit has ${show(quoted[i])}${alikeNote(fileLines[i], quoted[i])}`;
  }
  if (quoted.length === fileLines.length) return null;
  return `the file has ${plural(fileLines.length, 'line')}`;
}

/** What the verdict stage decides about an edit that was placed. */
export const decided = {
  duplicate: (line: number): string => `same change as the edit at reply line ${line}; applied once`,
  overlap: (line: number, on: LineRange, file: string): string =>
    `overlaps the edit at reply line ${line} on ${lines(on)} of ${file}; edits must touch separate lines: merge them into one`,
  /** A repeat of an edit that overlaps another: its twin's message, said of the repeat. */
  repeatsOverlap: (twinMessage: string): string => twinMessage.replace(/^overlaps/, 'repeats an edit that overlaps'),
};

/** The `stray-marker` warnings of a "\ No newline at end of file" marker that sets nothing. */
export const strayMarker = {
  afterContext: (file: string): string =>
    `the "\\ No newline at end of file" marker after the edit's last context line says that ${file} ends without a line break, but it ends with one: the marker was ignored, and the file keeps its final line break (a context line keeps the file's line as it is); to remove the final line break, remove the last line and add it back ("-" and "+" lines), with the marker after the added line`,
  notAtEnd: (file: string, from: number, to: number, n: number): string =>
    `the "\\ No newline at end of file" marker says that the edit's last line is the last line of ${file}, but the edit applies ${from < to ? 'at ' : ''}${lines({ start: from + 1, end: to })} of the file, which has ${plural(n, 'line')}: the marker was ignored, and the file keeps its final line ending, or its lack of one; write the marker only after a line that ends the file`,
};

/** Why an applied edit changes nothing (its `no-change` warning). */
export const noChange = {
  write: (file: string): string => `${file} is written with the text it already has: applied, it changed nothing; if a change was meant, the new text is missing it`,
  adds: (file: string): string => `the edit adds no line to ${file}: applied, it changed nothing`,
  same: (file: string, from: number, to: number): string =>
    `the new text equals the text it replaces at ${lines({ start: from + 1, end: to })} of ${file}: applied, it changed nothing; if a change was meant, the new text is missing it`,
};

/** The reply-level finding when no edit was read and nothing says why. */
export const noEdits = (format: Format): string => `no edit was found in the reply, read as ${format.title}`;
