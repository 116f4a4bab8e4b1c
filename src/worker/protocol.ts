// What crosses the boundary between the playground page and the engine
// worker: plain, structured-clone-safe data. Type-only on the page side.

import type { ApplyRequest, ApplyResult, Span } from '../core/types.ts';

export interface RunInput {
  request: ApplyRequest;
  /** The file whose model's-eye view to compute (null: none). */
  viewFile: string | null;
}

/** One piece of a character-level comparison of a cited line with the file's line. */
export interface DiffPart {
  text: string;
  /** `same` in both, `cited` only in the reply's line, `actual` only in the file's line. */
  kind: 'same' | 'cited' | 'actual';
}

/** A cited line next to the line it was compared with, where the two differ. */
export interface LinePair {
  /** Index of the cited line in the edit's `old` lines. */
  index: number;
  /** 1-based line in the source file that the cited line was compared with. */
  sourceLine: number;
  cited: string;
  actual: string;
  parts: DiffPart[];
  /** Where the cited line's content is in the reply, when the format says. */
  reply: Span | null;
}

/** What the page needs about an edit beyond its EditResult. */
export interface EditExtra {
  /** The cited old lines, as the format read them. */
  old: string[];
  /** Fuzzy, whitespace and failed edits: the cited lines that differ from the file. */
  pairs: LinePair[];
  /** For a failed edit: the message to send back to the model. */
  retry: string | null;
}

export interface ViewOutput {
  file: string;
  /** The format whose view it is. */
  format: string;
  /** Null when the format shows files as they are (no `view`). */
  text: string | null;
}

export interface RunOutput {
  /** Null when the engine threw (see `error`). */
  result: ApplyResult | null;
  error: string | null;
  /** Keyed by edit index. */
  extras: Record<number, EditExtra>;
  view: ViewOutput | null;
  /** Time the engine took, in milliseconds. */
  ms: number;
  /** The result's digest (`resultDigest`), recorded in share links; null when the engine threw. */
  digest: string | null;
}

/** The source as a format shows it to a model, for a live run. */
export interface PreparedSource {
  /** The format asked for (ln-diff for auto). */
  format: string;
  text: string;
}
