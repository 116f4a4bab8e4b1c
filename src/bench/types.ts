// What a bench run is, as plain data: what it asks (the plan), what each
// reply scored, and the file a run is saved as. The page, the CLI and the
// tests share these shapes; a saved run (`BenchRun`) is the JSON the CLI
// writes with --json and the page exports, opens and compares. No code here.

import type { Code } from '../core/codes.ts';
import type { MatchKind } from '../core/types.ts';

/** The chat API a run speaks. */
export type BenchApi = 'openai' | 'anthropic';

/** Where the replies come from. The key is never part of it: it is passed to the run apart and never saved. */
export interface BenchEndpoint {
  api: BenchApi;
  /** The base URL as the user typed it: `http://127.0.0.1:11434/v1`, `https://api.anthropic.com`. */
  baseUrl: string;
  /** The model name sent (may be empty for a local server that answers with the model it loaded). */
  model: string;
}

/** What one format is asked with. */
export interface FormatPlan {
  /** The format's name (`ln-diff`, `search-replace`, ...). */
  format: string;
  /** The model family whose prompt this is (a `### ` heading of spec/prompts/<format>.md), or `custom` for an edited one. */
  family: string;
  /** The system prompt sent. */
  system: string;
  /** The reminder put at the end of the user message, if any. */
  reminder: string | null;
}

/** What a run asks: every chosen task in every chosen format. */
export interface BenchConfig {
  endpoint: BenchEndpoint;
  formats: FormatPlan[];
  /** Task ids, in suite order. */
  tasks: string[];
  /** How many requests may be in flight at once. */
  concurrency: number;
  /** How many times a transient failure (HTTP 429 or 5xx, a dropped connection) is retried. */
  retries: number;
  /** A reply that sends nothing for this long is cut off (milliseconds). */
  idleTimeoutMs: number;
}

/** How the token counts of a reply were made. */
export type TokenMethod =
  /** The API reported them (`usage`). */
  | 'usage'
  /** Counted with the model's own tokenizer, exactly (o200k_base, cl100k_base, Llama 3). */
  | 'o200k'
  | 'cl100k'
  | 'llama3'
  /** Estimated from the length (characters / 4): marked as such wherever shown. */
  | 'estimate';

/** How a request ended, before any scoring. */
export type ReplyStatus =
  /** The stream finished. */
  | 'done'
  /** The API refused the key (401, 403). */
  | 'auth'
  /** Another HTTP error, after the retries a transient one gets. */
  | 'http'
  /** The stream stopped sending for `idleTimeoutMs`: the text so far is scored as a cut-off reply. */
  | 'stalled'
  /** The connection broke or the stream reported an error. */
  | 'network'
  /** The model sent no text. */
  | 'empty'
  /** The user stopped the run before this reply finished. */
  | 'stopped';

/** How one reply scored. Rates over a run count only replies that are not `stopped`. */
export interface ReplyScore {
  /** The reply holds at least one edit the format's parser read. */
  parsed: boolean;
  /** Parsed, and every edit applied (no failed edit, no error diagnostic). */
  applied: boolean;
  /** The files after applying equal the target byte for byte (every file: changed, created, deleted). */
  exact: boolean;
  /** Edits read from the reply. */
  edits: number;
  /** Edits by how they matched; `failed` counts the edits that did not apply. */
  matches: Record<MatchKind | 'failed', number>;
  /** Failed edits and error diagnostics by code (`no-match`: 2, `elided`: 1). */
  codes: Partial<Record<Code, number>>;
  /** Warnings by code. */
  warnings: Partial<Record<Code, number>>;
}

/** One task in one format: what was sent, what came back, how it scored. */
export interface BenchReply {
  task: string;
  format: string;
  status: ReplyStatus;
  /** What went wrong for a status other than `done` (the client's sentence). */
  error: string | null;
  /** The reply text as received (all of it, also when cut off). */
  reply: string;
  /** Requests sent for this reply: 1, plus one per retry. */
  attempts: number;
  score: ReplyScore;
  tokens: {
    /** Prompt tokens (system and user message). */
    input: number | null;
    /** Reply tokens. */
    output: number | null;
    method: TokenMethod;
  };
  /** Milliseconds from sending the (last) request to the first text, and to the end. */
  ms: { firstToken: number | null; total: number };
  /** What the bench would send back to the model for its failed edits (the engine's retry message), null when nothing failed. */
  retry: string | null;
  /**
   * The API said the reply stopped at its token cap (OpenAI-compatible
   * `finish_reason: "length"`, Anthropic `stop_reason: "max_tokens"`): the
   * text is scored as it stands, like a stalled one. Absent otherwise.
   */
  cutOff?: true;
}

/** A saved run: the JSON `ln-diff bench --json` writes and the Bench page exports, opens and compares. Never holds a key. */
export interface BenchRun {
  version: 1;
  /** `ln-diff <version>` that ran it. */
  engine: string;
  /** ISO 8601 times. */
  started: string;
  finished: string | null;
  /** Whether the user stopped it (replies then holds what had finished). */
  stopped: boolean;
  config: BenchConfig;
  replies: BenchReply[];
  /**
   * The task × format pairs not asked, because the format cannot say the
   * change (deleting a file, adding a final line break, mixed line breaks):
   * a perfect reply could not reach the target, so they count in no rate.
   * Absent in runs that skipped none.
   */
  skipped?: SkippedPair[];
}

/** A task the run did not ask in a format, and why (the format's writer's words). */
export interface SkippedPair {
  task: string;
  format: string;
  reason: string;
}

/** One format's line of the results table. */
export interface FormatSummary {
  format: string;
  /** Replies counted (not stopped). */
  replies: number;
  parsed: number;
  applied: number;
  exact: number;
  /** Rates 0..1 of the counts above over `replies` (0 when there are none). */
  rates: { parsed: number; applied: number; exact: number };
  /** Edits by match kind, over all replies. */
  matches: Record<MatchKind | 'failed', number>;
  /** Failures by code, over all replies. */
  codes: Partial<Record<Code, number>>;
  /** Replies that ended other than `done`, by status. */
  statuses: Partial<Record<ReplyStatus, number>>;
  /** Replies (not stopped) the API cut off at its token cap. */
  cutOff: number;
  /** Medians over the replies that have the figure; null when none has. */
  median: { input: number | null; output: number | null; firstToken: number | null; total: number | null };
  /** Whether any token count in this format is an estimate. */
  estimated: boolean;
}

/** What a run reports as it goes. */
export type BenchEvent =
  | { type: 'start'; total: number; estimate: { input: number; output: number; method: TokenMethod } }
  | { type: 'request'; task: string; format: string; attempt: number }
  | { type: 'retry'; task: string; format: string; attempt: number; waitMs: number; message: string }
  | { type: 'text'; task: string; format: string; chars: number }
  | { type: 'reply'; reply: BenchReply; done: number; total: number }
  | { type: 'end'; run: BenchRun };
