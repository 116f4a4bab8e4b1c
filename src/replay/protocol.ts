// What the replay worker tells the page: plain, structured-clone-safe data.

import type { EditStatus, LineRange } from '../core/types.ts';

export type ReplayEvent =
  | { type: 'started'; index: number; file: string }
  | { type: 'known'; index: number; file: string; known: number; placed: LineRange | null }
  | { type: 'complete'; index: number; file: string; status: EditStatus; range: LineRange | null; message: string }
  | { type: 'dropped'; index: number }
  /** At the end of the reply, the engine's answer for an edit differs from the one reported when it completed (an overlap, a duplicate). */
  | { type: 'revised'; index: number; file: string; status: EditStatus; range: LineRange | null; message: string };

/**
 * One change to the files with the completed edits applied, relative to the
 * file as the changes before it left it (character offsets, `\n` and `\r\n`
 * counted as they are). `edit` is the edit that made it; null for a
 * correction at the end of the reply, where the engine's answer for the
 * whole reply (overlaps, duplicates, renames) replaces what was applied edit
 * by edit.
 */
export type AppliedChange =
  | { type: 'splice'; file: string; edit: number | null; from: number; to: number; insert: string }
  /** A file the edits create (or a rename's new path). */
  | { type: 'add'; file: string; edit: number | null; text: string }
  /** A file the edits delete (or a rename's old path). */
  | { type: 'remove'; file: string; edit: number | null };

export interface ReplayStart {
  /** The format the reply is read as (detected for auto). */
  format: string;
  /** Characters in the reply. */
  total: number;
}

export interface ReplayStep {
  /** Characters fed so far. */
  received: number;
  events: ReplayEvent[];
  /** The reply has been fed whole and the stream ended. */
  done: boolean;
  /** What changed in the files with the completed edits applied, in order. */
  changes: AppliedChange[];
}
