// What a shrink reports, and its words: the sizes before and after, what was
// removed, the progress. Plain data and text, no engine: the page imports
// this module, the shrink itself runs in a worker (reduce.ts).

import type { Code } from '../core/diagnostics.ts';
import type { Session } from '../session/session.ts';

/** Engine runs a shrink may spend, unless told otherwise. */
export const DEFAULT_BUDGET = 3000;

export type Phase = 'check' | 'files' | 'edits' | 'prose' | 'lines' | 'block' | 'done';

export interface Size {
  /** Characters of the files and the reply together. */
  chars: number;
  /** Lines of the files and the reply together. */
  lines: number;
  files: number;
  /** Edits the engine reads in the reply. */
  edits: number;
}

export interface ShrinkProgress {
  runs: number;
  budget: number;
  phase: Phase;
  /** The smallest failing session so far. */
  size: Size;
}

/** What went, for the words under the result. */
export interface Removed {
  /** Names of the files dropped. */
  files: string[];
  /** Whether the edit's own file was among them (a failure that does not need it). */
  ownFile: boolean;
  /** Other edits dropped from the reply. */
  edits: number;
  /** Per file kept: its lines removed, of how many. */
  lines: { file: string; removed: number; total: number }[];
  /** Reply lines removed, of how many. */
  reply: { removed: number; total: number };
  /** The session's prompt (it never reaches the engine). */
  prompt: boolean;
}

export type ShrinkResult =
  | {
      ok: true;
      /** The smallest failing session found, with the edit selected and the result's digest. */
      session: Session;
      /** The edit's index in the shrunk session's result. */
      index: number;
      code: Code;
      before: Size;
      after: Size;
      removed: Removed;
      runs: number;
      budget: number;
      /** False when the budget ran out (or the shrink was stopped) before the end. */
      complete: boolean;
    }
  | { ok: false; reason: 'not-reproduced' | 'not-failed'; message: string; runs: number };

export interface ShrinkOptions {
  /** Engine runs at most (default `DEFAULT_BUDGET`). */
  budget?: number;
  progress?(progress: ShrinkProgress): void;
  /** Asked between runs: true stops the shrink, which returns what it has. */
  stopped?(): boolean;
}

/** The edit to keep failing: its index in the session's result and its code. */
export interface ShrinkTarget {
  index: number;
  code: Code;
}

/** Did the shrink remove any part the engine reads? */
export function shrank(removed: Removed): boolean {
  return removed.files.length > 0 || removed.edits > 0 || removed.lines.length > 0 || removed.reply.removed > 0;
}

const count = (n: number) => n.toLocaleString('en-US');
const plural = (n: number, one: string, many = `${one}s`) => `${count(n)} ${n === 1 ? one : many}`;

/** What was removed, in words: "removed 3 other files, 14 other edits and 17,180 of 17,209 lines of lodash.js". */
export function describeRemoved(removed: Removed): string {
  const parts: string[] = [];
  if (removed.files.length) parts.push(plural(removed.files.length, removed.ownFile ? 'file' : 'other file'));
  if (removed.edits > 0) parts.push(plural(removed.edits, 'other edit'));
  for (const l of removed.lines) parts.push(`${count(l.removed)} of ${plural(l.total, 'line')} of ${l.file}`);
  if (removed.reply.removed > 0) parts.push(`${count(removed.reply.removed)} of ${plural(removed.reply.total, 'line')} of the reply`);
  if (removed.prompt) parts.push('the prompt');
  if (parts.length === 0) return 'nothing could be removed';
  const last = parts.pop();
  return `removed ${parts.length ? `${parts.join(', ')} and ${last}` : last}`;
}
