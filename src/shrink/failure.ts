// What makes two failures of an edit "the same" while a session shrinks. The
// code alone is too weak: a reply cut to pieces still fails with no-match,
// for another reason. So the shrunk failure must also keep the edit's kind,
// add no form problem the original did not have, and keep its evidence: for
// a no-match, at least one of the cited lines that differed from the file's
// closest lines, with that same file line; for an ambiguous edit, tied
// places whose lines are among the original ones.

import { getFormat } from '../formats/index.ts';
import type { ApplyResult, EditResult } from '../core/types.ts';

export interface Failure {
  edit: EditResult;
  /** Codes of the edit's warnings and of the reply-level findings. */
  remarks: Set<string>;
  /** No-match: "cited\nactual" for each cited line that differs from the closest place. */
  pairs: Set<string>;
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

/** A failure as the shrink compares it. */
export function failureOf(reply: string, files: readonly string[], result: ApplyResult, edit: EditResult, detected: boolean): Failure {
  const remarks = new Set<string>([...edit.warnings.map((w) => w.code), ...result.diagnostics.map((d) => d.code)]);
  const pairs = new Set<string>();
  const candidate = edit.candidates[0];
  if (edit.code === 'no-match' && candidate) {
    const old = citedLines(reply, files, result, edit, detected);
    if (old) candidate.differs.forEach((d, j) => d && j < old.length && j < candidate.lines.length && pairs.add(`${old[j]}\n${candidate.lines[j]}`));
  }
  return { edit, remarks, pairs };
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

/** Does `next` fail as `original` does? (`next` computed with `failureOf` only when the cheap checks pass.) */
export function quickSame(original: Failure, edit: EditResult): boolean {
  const o = original.edit;
  if (edit.status !== 'failed' || edit.code !== o.code || edit.file !== o.file || edit.kind !== o.kind) return false;
  if (o.code === 'ambiguous' && o.candidates[0]) return edit.candidates.length >= 2 && within(edit.candidates[0].lines, o.candidates[0].lines);
  if (o.code === 'no-match' && o.candidates[0]) {
    const c = edit.candidates[0];
    if (!c) return false;
    if (original.pairs.size === 0) return within(c.lines, o.candidates[0].lines);
  }
  return true;
}

export function sameFailure(original: Failure, next: Failure): boolean {
  if (!quickSame(original, next.edit)) return false;
  for (const r of next.remarks) if (!original.remarks.has(r)) return false;
  if (original.pairs.size > 0) {
    for (const p of next.pairs) if (original.pairs.has(p)) return true;
    return false;
  }
  return true;
}
