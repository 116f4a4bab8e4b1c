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
/**
 * The time the line diffs of one patch may take (jsdiff's Myers diff needs
 * seconds for thousands of changed lines in a long file); a file whose diff
 * runs out of it is written as one hunk that replaces it whole, which
 * applies just as exactly.
 */
const DIFF_BUDGET_MS = 5000;
/** Each file's diff gets at least this long, however little of the budget is left. */
const MIN_FILE_MS = 100;

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
 * equal). The line diff may take `timeoutMs` (0: skip it and replace the
 * file in one hunk, as when it runs out of time).
 */
export function filePatch({ name, before, after }: FileText, timeoutMs = DIFF_BUDGET_MS): StructuredPatch | null {
  if (before === after) return null;
  const oldName = before === null ? '/dev/null' : `a/${name}`;
  const newName = after === null ? '/dev/null' : `b/${name}`;
  const diffed = timeoutMs <= 0 ? undefined : structuredPatch(oldName, newName, before ?? '', after ?? '', undefined, undefined, { context: CONTEXT, timeout: timeoutMs });
  const patch: StructuredPatch = diffed ?? { oldFileName: oldName, newFileName: newName, oldHeader: undefined, newHeader: undefined, hunks: wholeHunk(before ?? '', after ?? '') };
  patch.oldHeader = patch.newHeader = undefined;
  patch.isGit = true;
  if (before === null) patch.isCreate = true;
  if (after === null) patch.isDelete = true;
  return patch;
}

/**
 * Every changed file's diff, in the order given, as one patch text ('' when
 * nothing changed). The line diffs share `budgetMs` (0: every file in one
 * hunk).
 */
export function unifiedDiff(files: readonly FileText[], budgetMs = DIFF_BUDGET_MS): string {
  const deadline = Date.now() + budgetMs;
  let out = '';
  for (const file of changedFiles(files)) {
    const patch = filePatch(file, budgetMs <= 0 ? 0 : Math.max(MIN_FILE_MS, deadline - Date.now()));
    if (patch) out += formatPatch(patch);
  }
  return out;
}
