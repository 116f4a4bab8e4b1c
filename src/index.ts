// The ln-diff library: the public API, re-exported and nothing else. What is
// not here (the match ladder, the parsers' helpers, the CLI) may change in any
// release. Everything here is pure: no DOM, no Node.js module, so the same
// entry runs in Node, a browser or a worker.
//
// Units, as in the results: lines and columns are numbered from 1, columns
// and offsets count UTF-16 code units, a line range `{ start, end }` is
// inclusive (an insertion before line n is `{ start: n, end: n - 1 }`).

// ------------------------------------------------------------------ applying

/**
 * Read a model's reply and apply its edits to the request's files: the
 * engine behind `ln-diff apply --json`. `request.format` is a registered
 * format's name or `'auto'` (the result says which format was detected and
 * why). Never throws on a reply that does not apply: each edit's result says
 * where it applied or why not, `ok` is true when every edit applied and no
 * finding is an error. Throws `RequestError` for a value that is not a
 * request (as `validateRequest` does: a field of the wrong type, an unknown
 * field of the request or of `options`, an unknown format), never another
 * error from inside the engine.
 */
export { applyRequest } from './formats/index.ts';

/**
 * Check the shape of an untrusted request (parsed JSON) and return it typed;
 * throws `RequestError` naming the first bad field.
 */
export { validateRequest } from './formats/validate.ts';

/** What `validateRequest` throws: the value is not a request (the CLI's exit status 2). */
export { RequestError } from './core/request.ts';

/**
 * Apply a reply with one format, any `Format` (a registered one or a
 * harness's own), with no detection and no check for other formats' edits.
 * `request.format` is not consulted.
 */
export { runFormat } from './core/run.ts';

// ------------------------------------------------------------------ formats

/**
 * The registered formats, in detection order (ties go to the earlier one).
 * Each format's `view`, when it has one, is the text a model is shown for a
 * source file (ln-diff, hashline and roo number the lines):
 * `getFormat('ln-diff')?.view?.(text)`.
 */
export { formats } from './formats/index.ts';

/** `'auto'` and the name of every registered format: what `request.format` may be. */
export { FORMAT_NAMES } from './formats/index.ts';

/** The registered format of that name, or undefined. */
export { getFormat } from './formats/index.ts';

/** The format a reply is written in (among `formats` by default), with the reason: what `'auto'` starts from. */
export { detectFormat } from './formats/index.ts';

// ------------------------------------------------------------------ streaming

/**
 * Read a reply while it arrives: `push` chunks of any size and get events as
 * each edit starts, is placed and is final; `end()` returns the same result as
 * `applyRequest` (for a registered format) or `runFormat` (for another
 * `Format`). Throws on an unknown format name.
 */
export { streamReply } from './formats/stream.ts';

/**
 * Stream rules for a `Format` of one's own: an edit is final when appending
 * each probe text to the reply leaves it unchanged.
 */
export { settledUnlessProbed } from './core/settle.ts';

/** A stream's events, state and options (see `streamReply`). */
export type { Stream, StreamEdit, StreamEvent, StreamOptions, StreamState } from './core/stream.ts';

// ------------------------------------------------------------------ diagnostics

/** Every diagnostic code, a closed list (each explained in spec/errors.md). */
export { CODES } from './core/codes.ts';

/** The severity of each code. */
export { SEVERITY } from './core/codes.ts';

/** One of `CODES`. */
export type { Code } from './core/codes.ts';

// ------------------------------------------------------------------ types

/** A request and its options (`window` 50 lines, `fuzzyThreshold` 0.95, `whitespace` and `fuzzy` on by default). */
export type { ApplyRequest, EngineOptions } from './core/types.ts';

/** The options a request gets for each field it leaves out: `{ window: 50, fuzzyThreshold: 0.95, whitespace: true, fuzzy: true }`. */
export { ENGINE_DEFAULTS } from './core/defaults.ts';

/** A result: the files after the edits, one result per edit, the detection and reply-level findings. */
export type { ApplyResult, Candidate, Detection, EditResult, EditStatus, MatchKind } from './core/types.ts';

/** Findings and where they are: in the reply (`Span`, `Position`) and in a source file (`LineRange`). */
export type { Diagnostic, LineRange, Position, Severity, Span } from './core/types.ts';

/**
 * A format, the one extension point: `parse`, `detect` and `write`, and
 * optionally `view`, `locate`, `stream` rules, `prompt` and `marker`; with
 * the edits it reads and what it is given.
 */
export type { Edit, EditKind, FileChange, Format, ParseContext, ParseResult, SettleContext, StreamRules } from './core/types.ts';

/** What a format's own `locate` returns: a place, or why there is none. */
export type { MatchOutcome, Placed, Unplaced } from './core/types.ts';

/** A request's search budget, handed to a format's own `locate` (see `Format.locate`). */
export type { RequestBudget } from './core/types.ts';
