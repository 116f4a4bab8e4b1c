// The result as one unified diff, git style: `diff --git a/x b/x`, `new file
// mode` / `deleted file mode` with `/dev/null` on the missing side, names
// C-quoted where git quotes them, three lines of context, `\ No newline at
// end of file` where due. Line endings are kept byte for byte (a CRLF line
// keeps its CR in the patch), so `git apply` or `patch` gives back the
// exact texts. The line diff and the formatting are jsdiff's.

import { formatPatch, structuredPatch, type StructuredPatch, type StructuredPatchHunk } from 'diff';
import { changedFiles, type FileText } from './plan.ts';

/** Lines of context around each change, as git writes them. */
const CONTEXT = 3;
/** A file whose line diff takes longer than this is written as one hunk that replaces it whole. */
const DIFF_TIMEOUT_MS = 5000;

const NO_NEWLINE = '\\ No newline at end of file';

/** A text's lines with their CR kept and their LF dropped, and whether the last one lacks a newline. */
function patchLines(text: string): { lines: string[]; noEol: boolean } {
  if (text === '') return { lines: [], noEol: false };
  const lines = text.split('\n');
  const noEol = lines[lines.length - 1] !== '';
  if (!noEol) lines.pop();
  return { lines, noEol };
}

/** One hunk that removes every line of `before` and adds every line of `after`. */
function wholeHunk(before: string, after: string): StructuredPatchHunk[] {
  const a = patchLines(before);
  const b = patchLines(after);
  if (!a.lines.length && !b.lines.length) return [];
  const lines: string[] = [];
  for (const l of a.lines) lines.push(`-${l}`);
  if (a.noEol) lines.push(NO_NEWLINE);
  for (const l of b.lines) lines.push(`+${l}`);
  if (b.noEol) lines.push(NO_NEWLINE);
  return [{ oldStart: 1, oldLines: a.lines.length, newStart: 1, newLines: b.lines.length, lines }];
}

/**
 * One file's change as a git-style structured patch (null when its texts are
 * equal). `whole`: skip the line diff and replace the file in one hunk (what
 * a line diff that runs out of time gives).
 */
export function filePatch({ name, before, after }: FileText, whole = false): StructuredPatch | null {
  if (before === after) return null;
  const oldName = before === null ? '/dev/null' : `a/${name}`;
  const newName = after === null ? '/dev/null' : `b/${name}`;
  const diffed = whole ? undefined : structuredPatch(oldName, newName, before ?? '', after ?? '', undefined, undefined, { context: CONTEXT, timeout: DIFF_TIMEOUT_MS });
  const patch: StructuredPatch = diffed ?? { oldFileName: oldName, newFileName: newName, oldHeader: undefined, newHeader: undefined, hunks: wholeHunk(before ?? '', after ?? '') };
  patch.oldHeader = patch.newHeader = undefined;
  patch.isGit = true;
  if (before === null) patch.isCreate = true;
  if (after === null) patch.isDelete = true;
  return patch;
}

/** Every changed file's diff, in the order given, as one patch text ('' when nothing changed); `whole` as for filePatch. */
export function unifiedDiff(files: readonly FileText[], whole = false): string {
  let out = '';
  for (const file of changedFiles(files)) {
    const patch = filePatch(file, whole);
    if (patch) out += formatPatch(patch);
  }
  return out;
}
