// Whole texts before and after as one unified diff: git style (`diff --git
// a/x b/x`, `new file mode` / `deleted file mode`), as the playground's
// take-away writes it, or plain (`--- a/x` and `+++ b/x` only), as the MCP
// server's dry run does. Either way: `/dev/null` on the missing side of a
// created or deleted file, names C-quoted where git quotes them, three lines
// of context, `\ No newline at end of file` where due. Line endings are kept
// byte for byte (a CRLF line keeps its CR in the patch), so `git apply` or
// `patch` gives back the exact texts. The line diff and the formatting are
// jsdiff's.

import { FILE_HEADERS_ONLY, formatPatch, structuredPatch, type StructuredPatch, type StructuredPatchHunk } from 'diff';

/** One file: its text before (null: the file is new) and after (null: deleted); `name` with `/` separators. */
export interface PatchFile {
  name: string;
  before: string | null;
  after: string | null;
}

export interface DiffOptions {
  /** `git` (the default): `diff --git` and mode lines; `plain`: the `---`/`+++` lines only. */
  style?: 'git' | 'plain';
  /**
   * The time the line diffs of the whole patch may take, in milliseconds
   * (jsdiff's Myers diff needs seconds for thousands of changed lines in a
   * long file); a file whose diff runs out of it is written as one hunk that
   * replaces it whole, which applies just as exactly. 0: every file in one
   * hunk. Unset: no limit.
   */
  budgetMs?: number;
}

/**
 * The time the line diffs of one patch may take by default (the playground's
 * take-away, the MCP server's dry run); a file whose diff runs out of it is
 * written as one hunk that replaces it whole.
 */
export const DIFF_BUDGET_MS = 5000;

/** Lines of context around each change, as git writes them. */
const CONTEXT = 3;
/** With a budget, each file's diff gets at least this long, however little of it is left. */
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
 * One file's change as a structured patch (null when its texts are equal).
 * The line diff may take `timeoutMs` (0: skip it and replace the file in one
 * hunk, as when it runs out of time; undefined: no limit).
 */
function filePatch({ name, before, after }: PatchFile, timeoutMs: number | undefined, git: boolean): StructuredPatch | null {
  if (before === after) return null;
  const oldName = before === null ? '/dev/null' : `a/${name}`;
  const newName = after === null ? '/dev/null' : `b/${name}`;
  const options = timeoutMs === undefined ? { context: CONTEXT } : { context: CONTEXT, timeout: timeoutMs };
  const diffed = timeoutMs !== undefined && timeoutMs <= 0 ? undefined : structuredPatch(oldName, newName, before ?? '', after ?? '', undefined, undefined, options);
  const patch: StructuredPatch = diffed ?? { oldFileName: oldName, newFileName: newName, oldHeader: undefined, newHeader: undefined, hunks: wholeHunk(before ?? '', after ?? '') };
  patch.oldHeader = patch.newHeader = undefined;
  if (git) {
    patch.isGit = true;
    if (before === null) patch.isCreate = true;
    if (after === null) patch.isDelete = true;
  }
  return patch;
}

/** Every file's diff, in the order given, as one patch text ('' when nothing changed). */
export function unifiedDiff(files: readonly PatchFile[], options: DiffOptions = {}): string {
  const git = options.style !== 'plain';
  const budget = options.budgetMs;
  const deadline = budget === undefined ? 0 : Date.now() + budget;
  let out = '';
  for (const file of files) {
    const timeout = budget === undefined ? undefined : budget <= 0 ? 0 : Math.max(MIN_FILE_MS, deadline - Date.now());
    const patch = filePatch(file, timeout, git);
    if (patch) out += git ? formatPatch(patch) : formatPatch(patch, FILE_HEADERS_ONLY);
  }
  return out;
}
