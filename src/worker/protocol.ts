// What crosses the boundary between the playground page and the engine
// worker: plain, structured-clone-safe data. Type-only on the page side.

import type { ApplyResult, EngineOptions, Span } from '../core/types.ts';
import type { Delta, ExactDiff } from '../text-delta/exact.ts';
import type { DocSync } from './docs.ts';

export type { DocSync } from './docs.ts';

export interface RunInput {
  /** Documents changed since the worker last saw them, by id: whole, or as changes. */
  docs: Record<number, DocSync>;
  /** The source files in order: their document ids and names. */
  files: { doc: number; name: string }[];
  /** The reply's document id. */
  reply: number;
  format: string;
  options?: EngineOptions;
  /** The file whose model's-eye view to compute (null: none). */
  viewFile: string | null;
  /** What the result view wants; null: leave it as it is (typing in a large session: the page asks once typing pauses). */
  merge: MergeAsk | null;
  /**
   * The run's number, given by the page (increasing, across workers):
   * `digest(run)` gives its result's digest (`resultDigest`, recorded in
   * share links), made only when asked.
   */
  run: number;
}

/** The file the result view should show, and the version of what it shows now. */
export interface MergeAsk {
  /** Preferred file (null or unknown: the first file of the result). */
  file: string | null;
  /** The `version` of the merge content the page shows; null: it shows nothing (send it whole). */
  base: number | null;
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
  /**
   * A digest of the edit's result and of these extras (`rowDigest`): the
   * same digest, the same row in the diagnostics panel.
   */
  digest: string;
}

export interface ViewOutput {
  file: string;
  /** The format whose view it is. */
  format: string;
  /** Null when the format shows files as they are (no `view`). */
  text: string | null;
}

/** How a file came out of the run. */
export type FileLabel = 'changed' | 'unchanged' | 'new file' | 'deleted';

/** A file of the result: its name and what happened to it. */
export interface FileOutcome {
  name: string;
  label: FileLabel;
  /** Line endings and final newline, before (null: the file is new) and after (null: deleted). */
  before: TextShape | null;
  after: TextShape | null;
}

/** What a text's line endings are, for a badge. */
export interface TextShape {
  /** `crlf`: every line break is CRLF; `mixed`: some are; `lf`: none are (or there is no break). */
  endings: 'lf' | 'crlf' | 'mixed';
  /** The text ends without a line break (and is not empty). */
  noFinalNewline: boolean;
  lines: number;
}

/** The result view's content: whole (first show, another file) or the change from what it shows. */
export interface MergeOutput {
  version: number;
  file: string;
  label: FileLabel;
  /** Whole texts (the page shows something else, or nothing). */
  whole: { before: string; after: string } | null;
  /** Changes from the texts the page shows (version `base`) to these. */
  delta: { a: Delta | null; b: Delta | null } | null;
  diff: ExactDiff;
  /** Each applied edit of this file: its index and its lines before and after. */
  edits: { index: number; a: { start: number; end: number }; b: { start: number; end: number } }[];
}

export interface RunOutput {
  /** Null when the engine threw (see `error`). */
  result: ApplyResult | null;
  error: string | null;
  /** Keyed by edit index. */
  extras: Record<number, EditExtra>;
  view: ViewOutput | null;
  /** Every file of the request and the result, in order. */
  files: FileOutcome[];
  merge: MergeOutput | null;
  /** The format asked for found no edit, but detection finds this one with edits. */
  alternative: { format: string; edits: number } | null;
  /** Time the engine took, in milliseconds. */
  ms: number;
}

/** The source as a format shows it to a model, for a live run. */
export interface PreparedSource {
  /** The format asked for (ln-diff for auto). */
  format: string;
  text: string;
}
