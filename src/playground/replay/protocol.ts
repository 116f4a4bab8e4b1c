// What the replay worker tells the page: plain, structured-clone-safe data.

import type { EditStatus, LineRange } from '../../core/types.ts';

export type ReplayEvent =
  | { type: 'started'; index: number; file: string }
  | { type: 'known'; index: number; file: string; known: number; placed: LineRange | null }
  | { type: 'complete'; index: number; file: string; status: EditStatus; range: LineRange | null; message: string }
  | { type: 'dropped'; index: number };

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
  /** The files with every completed edit applied, when an edit completed in this step (null: unchanged). */
  files: Record<string, string | null> | null;
}
