// The user message of a bench request: the task's files as the format shows
// them (SOURCE), the files as they must become (TARGET), one sentence saying
// what to do, then the format's reminder. Deterministic: the same task,
// format and reminder give the same text. No DOM, no `node:`.

import type { Format } from '../core/types.ts';
import { fenced } from '../prompt/fence.ts';
import { sourceText } from '../prompt/prompts.ts';
import { taskFiles, type BenchTask } from './tasks.ts';

/** The sentence after TARGET. */
export const INSTRUCTION =
  'Change the files in SOURCE so that they become exactly the files in TARGET: write only the edits that do it, in the format the system prompt describes.';

/** TARGET: each file as it must become, under its path; a deleted file as `delete <path>`, a moved one as `move <old> to <new>` and its new text. */
export function targetText(task: BenchTask): string {
  return task.files
    .map((f) => {
      if (f.after === null) return `delete ${f.path}`;
      if (f.renamedFrom) return `move ${f.renamedFrom} to ${f.path}\n${fenced(f.after)}`;
      return `${f.path}\n${fenced(f.after)}`;
    })
    .join('\n\n');
}

/** SOURCE: every file the task starts from, in the format's view (numbered lines, tags) or fenced. */
export function sourceOf(task: BenchTask, format: Format): string {
  const files = Object.entries(taskFiles(task)).map(([name, text]) => ({ name, text }));
  return sourceText(files, format.view ? (text) => format.view!(text) : undefined);
}

/** The user message for a task in a format. */
export function benchMessage(task: BenchTask, format: Format, reminder: string | null): string {
  const parts = ['SOURCE', sourceOf(task, format), 'TARGET', targetText(task), INSTRUCTION];
  if (reminder !== null && reminder.trim() !== '') parts.push(reminder);
  return parts.join('\n\n');
}
