// What makes a failure itself while a session shrinks: its identity, as data
// derived from the edit's result and the reply. The code alone is too weak:
// a reply cut to pieces still fails with no-match, for another reason, and a
// shrunk block can keep the typo yet fail on another line. So the identity
// holds the code, the edit's file and kind, and its evidence:
// - a no-match whose message names a differing line ("where line N is A but
//   the edit cites B"): that cited line B and the file's line A, as the
//   message quotes them (the first cited line that differs from the closest
//   place). The shrunk failure must name the same two lines: the typo stays.
// - a no-match that names none: the lines of the closest place (the shrunk
//   one's must be among them);
// - an ambiguous edit: the lines of the first tied place (likewise);
// - the codes of the edit's warnings and of the reply's findings (the shrunk
//   failure may have fewer, never another).
// The edit is the one that failed, followed through the shrink by its place
// in the reply (reduce.ts).

import { quote } from '../core/diagnostics.ts';
import type { Code } from '../core/codes.ts';
import { getFormat } from '../formats/index.ts';
import type { ApplyResult, EditKind, EditResult } from '../core/types.ts';

/** A cited line that differs from the file, and the file's line at that place. */
export interface Differing {
  cited: string;
  actual: string;
}

export interface FailureIdentity {
  code: Code | null;
  file: string;
  kind: EditKind;
  /** No-match: the differing line the message names, or null when it names none. */
  differs: Differing | null;
  /** The closest place's lines (no-match) or the first tied place's (ambiguous); null otherwise. */
  place: string[] | null;
  /** Codes of the edit's warnings and of the reply-level findings. */
  remarks: string[];
}

/** The cited old lines of a result's edit, read again by its format (null when they cannot be). */
export function citedLines(reply: string, files: readonly string[], result: ApplyResult, edit: EditResult, detected: boolean): string[] | null {
  const format = getFormat(edit.format ?? result.format);
  if (!format) return null;
  for (const context of detected ? [{ files: [...files], detected }, { files: [...files] }] : [{ files: [...files] }]) {
    try {
      const parsed = format.parse(reply, context).edits.find((e) => e.span.from === edit.reply.from && e.span.to === edit.reply.to);
      if (parsed) return parsed.old;
    } catch {
      return null;
    }
  }
  return null;
}

/** `second` comes after `first` in `text`. */
function inOrder(text: string, first: string, second: string): boolean {
  const at = text.indexOf(first);
  return at >= 0 && text.indexOf(second, at + first.length) >= 0;
}

/**
 * The differing line a failed edit's message names: the first cited line
 * that differs from the closest place, with the file's line there, when the
 * message quotes both (file's first). `cited`: the edit's old lines.
 */
export function differingLine(edit: EditResult, cited: readonly string[] | null): Differing | null {
  const c = edit.candidates[0];
  if (edit.code !== 'no-match' || !c || !cited) return null;
  const i = c.differs.indexOf(true);
  if (i < 0 || i >= cited.length) return null;
  const line = { cited: cited[i], actual: c.lines[i] ?? '' };
  return inOrder(edit.message, quote(line.actual), quote(line.cited)) ? line : null;
}

/** The identity of an edit's failure, from the edit's result, the run's findings and its cited lines. */
export function failureIdentity(edit: EditResult, result: Pick<ApplyResult, 'diagnostics'>, cited: readonly string[] | null): FailureIdentity {
  const place = (edit.code === 'no-match' || edit.code === 'ambiguous') && edit.candidates[0] ? [...edit.candidates[0].lines] : null;
  return {
    code: edit.status === 'failed' ? edit.code : null,
    file: edit.file,
    kind: edit.kind,
    differs: differingLine(edit, cited),
    place,
    remarks: [...new Set([...edit.warnings.map((w) => w.code), ...result.diagnostics.map((d) => d.code)])],
  };
}

/** The identity of an edit's failure in a run of `reply` over files named `files` (`detected`: the format was auto-detected). */
export function identityOf(reply: string, files: readonly string[], result: ApplyResult, edit: EditResult, detected: boolean): FailureIdentity {
  return failureIdentity(edit, result, edit.code === 'no-match' ? citedLines(reply, files, result, edit, detected) : null);
}

/** `part` is a run of consecutive lines of `whole`. */
export function within(part: readonly string[], whole: readonly string[]): boolean {
  if (part.length === 0 || part.length > whole.length) return false;
  for (let i = 0; i + part.length <= whole.length; i++) {
    let k = 0;
    while (k < part.length && part[k] === whole[i + k]) k++;
    if (k === part.length) return true;
  }
  return false;
}

/**
 * Can `edit` fail as `original` does? The checks that need no parse: when
 * this holds, `sameFailure` on its identity decides.
 */
export function quickSame(original: FailureIdentity, edit: EditResult): boolean {
  if (edit.status !== 'failed' || original.code === null || edit.code !== original.code || edit.file !== original.file || edit.kind !== original.kind) return false;
  if (original.code === 'ambiguous' && edit.candidates.length < 2) return false;
  if (original.differs) return inOrder(edit.message, quote(original.differs.actual), quote(original.differs.cited));
  return true;
}

/** Does the failure `next` keep the identity of `original`? */
export function sameFailure(original: FailureIdentity, next: FailureIdentity): boolean {
  if (original.code === null || next.code !== original.code || next.file !== original.file || next.kind !== original.kind) return false;
  if (next.remarks.some((r) => !original.remarks.includes(r))) return false;
  if (original.differs) return next.differs !== null && next.differs.cited === original.differs.cited && next.differs.actual === original.differs.actual;
  // (a place is kept for no-match and ambiguous failures only)
  if (original.place) return next.place !== null && within(next.place, original.place);
  return true;
}
