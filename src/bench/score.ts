// How one reply scores: applied with the engine to the task's files, then
// compared with the target file by file. Also the message the bench would
// send back to the model for its failed edits. No DOM, no `node:`.

import { applyRead, numberedLines } from '../formats/index.ts';
import { retryMessages } from '../core/retry.ts';
import { editsByIndex } from '../core/run.ts';
import type { ApplyResult } from '../core/types.ts';
import { taskFiles, taskTarget, type BenchTask } from './tasks.ts';
import type { ReplyScore } from './types.ts';
import { withoutReasoning } from './reasoning.ts';

export { withoutReasoning };

/** The score of a reply with no edit (nothing parsed, nothing applied). */
export function emptyScore(): ReplyScore {
  return {
    parsed: false,
    applied: false,
    exact: false,
    edits: 0,
    matches: { exact: 0, offset: 0, whitespace: 0, fuzzy: 0, failed: 0 },
    codes: {},
    warnings: {},
  };
}

const bump = <K extends string>(counts: Partial<Record<K, number>>, key: K) => {
  counts[key] = (counts[key] ?? 0) + 1;
};

/** Whether the files after `result` are the task's target, every path (null = absent or deleted). */
export function reachesTarget(task: BenchTask, result: ApplyResult): boolean {
  const start = taskFiles(task);
  const final: Record<string, string | null> = { ...start, ...result.files };
  const want: Record<string, string | null> = { ...start, ...taskTarget(task) };
  const at = (files: Record<string, string | null>, path: string) => (Object.hasOwn(files, path) ? files[path] : null);
  for (const path of new Set([...Object.keys(final), ...Object.keys(want)])) if (at(final, path) !== at(want, path)) return false;
  return true;
}


/**
 * Apply `reply` in `format` to the task's files and score it (without the
 * reasoning block a reasoning model opens with): `parsed` when
 * an edit was read, `applied` when besides no edit failed and no finding is
 * an error, `exact` when the files then equal the target. `retry` is the
 * retry message of each failed edit, joined by blank lines (null when none
 * failed). Throws only for a format the engine does not know.
 */
export function scoreReply(task: BenchTask, format: string, reply: string): { score: ReplyScore; retry: string | null; result: ApplyResult } {
  const files = taskFiles(task);
  reply = withoutReasoning(reply);
  const read = applyRead({ format, files, response: reply });
  const { result } = read;
  const score = emptyScore();
  score.edits = result.edits.length;
  score.parsed = score.edits > 0;
  const errors = result.diagnostics.filter((d) => d.severity === 'error');
  for (const edit of result.edits) {
    if (edit.status === 'failed') {
      score.matches.failed++;
      if (edit.code) bump(score.codes, edit.code);
    } else if (edit.match) score.matches[edit.match]++;
    for (const w of edit.warnings) if (w.severity === 'warning') bump(score.warnings, w.code);
  }
  for (const d of errors) bump(score.codes, d.code);
  for (const d of result.diagnostics) if (d.severity === 'warning') bump(score.warnings, d.code);
  score.applied = score.parsed && score.matches.failed === 0 && errors.length === 0;
  score.exact = reachesTarget(task, result);

  // The cited lines of each failed edit, as the engine read them (the reply is not parsed again).
  const messages = [...retryMessages(result, editsByIndex(read), numberedLines).values()];
  const retry = messages.length ? messages.join('\n\n') : null;
  return { score, retry, result };
}
