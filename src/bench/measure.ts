// What a task's change is like: its size, its hunks, and the kinds of change
// the suite must cover. Used by the suite builder and its test; pure.

import { structuredPatch } from 'diff';
import { lineCount } from '../core/text.ts';
import type { BenchTask, TaskFile } from './tasks.ts';

export { lineCount };

function fileHunks(f: TaskFile) {
  return structuredPatch(f.renamedFrom ?? f.path, f.path, f.before ?? '', f.after ?? '', '', '', { context: 3 }).hunks;
}

/** `lines`: the largest file's lines, before or after; `hunks`: of a unified diff with 3 lines of context (a rename with no edit counts one). */
export function measureTask(files: readonly TaskFile[]): { lines: number; hunks: number } {
  let lines = 0;
  let hunks = 0;
  for (const f of files) {
    lines = Math.max(lines, lineCount(f.before ?? ''), lineCount(f.after ?? ''));
    hunks += Math.max(fileHunks(f).length, f.renamedFrom ? 1 : 0);
  }
  return { lines, hunks };
}

/** A kind of change the suite covers. */
export type TaskKind =
  | 'addition-only'
  | 'deletion-only'
  | 'new-file'
  | 'deleted-file'
  | 'rename'
  | 'crlf'
  | 'no-final-newline'
  | 'one-hunk'
  | 'many-hunk'
  | 'multi-file';

/** How many hunks make a change `many-hunk`. */
export const MANY_HUNKS = 5;

/** The kinds of change a task is, read from its texts. */
export function taskKinds(task: BenchTask): TaskKind[] {
  let added = 0;
  let removed = 0;
  for (const f of task.files)
    for (const h of fileHunks(f))
      for (const line of h.lines) {
        if (line.startsWith('+')) added++;
        else if (line.startsWith('-')) removed++;
      }
  const texts = task.files.flatMap((f) => [f.before, f.after]).filter((t): t is string => t !== null);
  const kinds: TaskKind[] = [];
  if (added > 0 && removed === 0) kinds.push('addition-only');
  if (removed > 0 && added === 0) kinds.push('deletion-only');
  if (task.files.some((f) => f.before === null)) kinds.push('new-file');
  if (task.files.some((f) => f.after === null)) kinds.push('deleted-file');
  if (task.files.some((f) => f.renamedFrom)) kinds.push('rename');
  if (texts.some((t) => t.includes('\r\n'))) kinds.push('crlf');
  if (texts.some((t) => t !== '' && !t.endsWith('\n'))) kinds.push('no-final-newline');
  if (task.hunks === 1) kinds.push('one-hunk');
  if (task.hunks >= MANY_HUNKS) kinds.push('many-hunk');
  if (task.files.length > 1) kinds.push('multi-file');
  return kinds;
}
