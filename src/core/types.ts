// Plain data shared by every stage: formats produce `Edit`s, the matcher and
// the applier consume them, and results cross the worker boundary and the CLI
// pipe unchanged (everything here is JSON-safe).
//
// Units, written down once:
// - source and reply lines are numbered from 1;
// - columns are numbered from 1 and count UTF-16 code units;
// - `from`/`to` offsets count UTF-16 code units from 0, half-open;
// - a line range `{ start, end }` is inclusive; an empty range (a pure
//   insertion before line `start`) has `end === start - 1`.

import type { Code, Severity } from './codes.ts';

export type { Severity } from './codes.ts';

/** A place in a text: 1-based line and column. */
export interface Position {
  line: number;
  column: number;
}

/** A stretch of the reply: offsets for editors, positions for people. */
export interface Span {
  from: number;
  to: number;
  start: Position;
  end: Position;
}

/** Inclusive 1-based line range in the original source. */
export interface LineRange {
  start: number;
  end: number;
}

/** A finding, as data: a stable code, a message, and where it applies. */
export interface Diagnostic {
  code: Code;
  severity: Severity;
  message: string;
  /** Where in the reply the problem is. */
  reply?: Span;
  /** Where in the source (original line numbers). */
  source?: { file: string } & LineRange;
}

/**
 * What an edit does.
 * - `replace`: the `old` lines are located in the file and replaced by `new`
 *   (with `cited` line numbers where the format has them).
 * - `insert`: `new` is inserted before line `cited` (`cited` = line count + 1
 *   inserts at the end); nothing is matched.
 * - `append`: `new` is added at the end of the file (creating it if absent).
 * - `write`: the file's whole text becomes `new` (creating it if absent).
 * - `delete`: the file is removed.
 * - `rename`: the file moves to `moveTo`, unchanged by this edit.
 */
export type EditKind = 'replace' | 'insert' | 'append' | 'write' | 'delete' | 'rename';

/** One edit, as a format parser read it from a reply. */
export interface Edit {
  /** Position in the reply, from 0, in reply order. */
  index: number;
  kind: EditKind;
  /** Target file path, relative, as it should appear in the result. */
  file: string;
  /**
   * Cited old lines (content only, no line ending). For a `delete` edit,
   * when not empty, the whole file as the reply quotes it (a unified diff's
   * removed lines): the file is deleted only when its lines are exactly
   * these, else the edit fails with `no-match`.
   */
  old: string[];
  /** The line number cited for `old[0]`, when the format cites numbers. */
  cited?: number;
  /** New lines (content only, no line ending). */
  new: string[];
  /**
   * Parallel to `new`: `keep[i] = j` means new line `i` is the file's own
   * line matched by `old[j]` (a context line: the file keeps its text and
   * its line ending, never the reply's copy; the edit is applied around
   * it). `null` entries take `new[i]`, with an ending the engine picks (see
   * `editSplices`). Entries must increase; one out of order is not kept.
   */
  keep?: (number | null)[];
  /**
   * Set the file's final-newline state when this edit applies (a unified
   * diff's `\ No newline at end of file`); unset keeps the file's state.
   * Only an edit placed at the end of the file sets it; elsewhere it is
   * ignored, with a `stray-marker` warning.
   */
  finalNewline?: boolean;
  /**
   * The reply says that the edit's last line, a line it keeps (a unified
   * diff's context line, followed by `\ No newline at end of file`), ends
   * the file without a line ending: a claim about the file, not a change
   * (a kept line keeps its own ending). Placed at the end of a file that
   * does end with a line ending, the claim is wrong: the file keeps it, with
   * a `stray-marker` warning; elsewhere it is ignored with the same warning
   * as `finalNewline`. Never set together with `finalNewline`.
   */
  claimsNoFinalNewline?: boolean;
  /** After the edits, the file moves to this path (the old path is deleted). */
  moveTo?: string;
  /** Format-specific data for the format's own `locate` (JSON-safe). */
  meta?: Record<string, string | number | boolean | null | string[] | number[]>;
  /** The whole edit in the reply. */
  span: Span;
  /** The reply span of each cited old line, parallel to `old`. */
  oldSpans?: Span[];
  /** Set when the parser could read the edit's place but not the edit: the edit fails with it. */
  error?: Diagnostic;
  /** Form problems the parser forgave. */
  warnings: Diagnostic[];
}

export type MatchKind = 'exact' | 'offset' | 'whitespace' | 'fuzzy';

/** A place where an edit's old lines were found, or nearly found. */
export interface Candidate {
  /** Lines of the source at the candidate (1-based, inclusive). */
  start: number;
  end: number;
  /** `start` minus the cited line, or null when nothing was cited. */
  offset: number | null;
  /** Weakest per-line similarity (1 = identical). */
  similarity: number;
  /** The source lines at the candidate. */
  lines: string[];
  /** Per cited line: the source line differs from the cited one. */
  differs: boolean[];
}

/** Where a `replace` edit's old lines are in the file (0-based line indexes). */
export interface Placed {
  ok: true;
  kind: MatchKind;
  /** 0-based index of the first matched line. */
  start: number;
  /** 0-based index after the last matched line. */
  end: number;
  /** Replacement lines worked out by a format's own matcher (else the edit's `new`). */
  newLines?: string[];
  /** A format's own description of the match; the engine writes one otherwise. */
  message?: string;
  /** A sentence the engine adds to the message it writes (how the new lines were re-indented). */
  note?: string;
  /** Remarks to attach to the edit when it applies. */
  warnings?: Diagnostic[];
  /** `start` minus the cited index, or null without a citation. */
  offset: number | null;
  /** Weakest per-line similarity of the matched lines (1 for exact). */
  similarity: number;
  /** Indexes (into the old lines) of lines that are not byte-equal. */
  differing: number[];
}

/** Why a `replace` edit has no place: the code, and the candidates for the message. */
export interface Unplaced {
  ok: false;
  code: Code;
  /** A format's own explanation; the engine writes one otherwise. */
  message?: string;
  /** The tied places (ambiguous) or the closest place (no match), best first. */
  candidates: Candidate[];
  /** The rung that tied, for ambiguous results. */
  kind: MatchKind | null;
  /** Exact occurrences outside the window, for the message (whitespace-equal ones too with `fuzzyRefused`). */
  outside: number[];
  /**
   * Where the block matched by similarity (the fuzzy rung), refused because
   * it occurs unchanged or whitespace-equal outside the window (`outside`).
   */
  fuzzyRefused?: number;
  /** The number of tied places, when there are more than the candidates listed (`MAX_CANDIDATES`). */
  tied?: number;
  /**
   * Set when the search for the closest place stopped before it had
   * compared every place (see `searchBudget`): `compared` of `places`.
   */
  searched?: { compared: number; places: number };
}

/** What the match ladder, or a format's own `locate`, finds for an edit. */
export type MatchOutcome = Placed | Unplaced;

/**
 * What the closest-place searches of one request may still compare, in
 * characters, shared by its edits (see src/core/budget.ts): the engine makes
 * one per request and passes it to the ladder and to each format's `locate`.
 */
export interface RequestBudget {
  remaining: number;
}

/** How edits are matched: the window and the rungs of the match ladder (defaults in `ENGINE_DEFAULTS`). */
export interface EngineOptions {
  /** Lines searched on each side of the cited place. Default 50. */
  window?: number;
  /** Per-line similarity that a fuzzy match must exceed. Default 0.95. */
  fuzzyThreshold?: number;
  /** Allow the whitespace-tolerant rung. Default true. */
  whitespace?: boolean;
  /** Allow the fuzzy rung. Default true. */
  fuzzy?: boolean;
}

/** What the engine is asked: apply a model's reply to some files. */
export interface ApplyRequest {
  /** A registered format's name, or `'auto'` to detect it. */
  format: string;
  /** Each file's path and whole text (any line endings; the result keeps them). */
  files: Record<string, string>;
  /** The model's reply, prose and all. */
  response: string;
  /** How edits are matched; every field left out takes `ENGINE_DEFAULTS`'. */
  options?: EngineOptions;
}

/** Whether an edit took effect. An applied edit may carry warnings; a failed one has a `code`. */
export type EditStatus = 'applied' | 'failed';

/** The result of one edit: the CLI contract's fields first, then extras. */
export interface EditResult {
  file: string;
  index: number;
  status: EditStatus;
  match: MatchKind | null;
  offset: number | null;
  similarity: number | null;
  /** Original lines replaced (an insertion has `end === start - 1`); null when failed. */
  range: LineRange | null;
  code: Code | null;
  message: string;
  kind: EditKind;
  /** Cited line range, when the format cites numbers. */
  cited: LineRange | null;
  /** Where the edit is in the reply. */
  reply: Span;
  /** Closest candidate (no match) or every tied candidate (ambiguous). */
  candidates: Candidate[];
  /** Index of the edit this one duplicates. */
  duplicateOf: number | null;
  warnings: Diagnostic[];
  /** The format that read this edit, set only when a reply mixes formats (`auto`). */
  format?: string;
  /**
   * Set only on an edit that failed with `file-not-found` when one given
   * file has the name of its path: that file (the message says "did you
   * mean" it; src/core/paths.ts, `GivenPaths.meant`).
   */
  meant?: string;
}

/** How `'auto'` chose the format of a reply. */
export interface Detection {
  /** The format detected. */
  format: string;
  /** Why, in a sentence (the evidence found, and where). */
  reason: string;
  /**
   * Set when the reply mixes formats: every format whose edits were read, the
   * detected one first; each edit's result names its own.
   */
  formats?: string[];
}

/** What the engine did with a request. */
export interface ApplyResult {
  /** Every edit applied and no finding is an error. */
  ok: boolean;
  /**
   * Every file of the request and every file the edits create, after the
   * edits: its text, or null for a file deleted (or moved away).
   */
  files: Record<string, string | null>;
  /** One result per edit, in reply order. */
  edits: EditResult[];
  /** The format used (the detected one when `auto` was asked). */
  format: string;
  /** How the format was chosen, when the request asked for `'auto'`; else null. */
  detection: Detection | null;
  /** Reply-level findings not tied to one edit. */
  diagnostics: Diagnostic[];
}

/** A line of a reply, and where it is (src/core/reply.ts splits a reply into them). */
export interface ReplyLine {
  /** 1-based line number in the reply. */
  line: number;
  /** Offset of the line's first character. */
  from: number;
  /**
   * Content without the line ending: the `\n` and every `\r` right before
   * it (a reply's line break is LF, CR LF, or CR CR LF as some clients write
   * it; a CR there is never content), and the CRs ending an unterminated last line.
   */
  text: string;
  /** The line ended with `\n` (false only for a last line cut short). */
  terminated: boolean;
}

/**
 * A reply split into its lines once per request (`lexReply`), handed to
 * every stage that reads it: detection, every format's parse, the marker
 * search. A stage given it for another text splits that text itself.
 */
export interface LexedReply {
  readonly text: string;
  readonly lines: readonly ReplyLine[];
  /** Each line's `text`, in order (for the scans that read only the text). */
  readonly texts: readonly string[];
}

/** What a format's parser is told about the request besides the reply. */
export interface ParseContext {
  /** Paths of the files the request holds. */
  files: string[];
  /** The reply's lines, when the caller split it already: read instead of splitting it again (see `linesOf`). */
  lexed?: LexedReply;
  /**
   * The format was detected (`auto`), not asked for: the reply may be a
   * chat answer with no edit in it, so a block that names no file never
   * falls back to "the only file given".
   */
  detected?: boolean;
}

/** What a format read from a reply: its edits, in reply order, and findings about the reply as a whole. */
export interface ParseResult {
  edits: Edit[];
  diagnostics: Diagnostic[];
}

/** What one format read from a reply: a part of the plan the engine applies (one part, or several when a reply mixes formats). */
export interface Part {
  format: Format;
  parsed: ParseResult;
}

/** A file's before and after text, for a format's `write`. */
export interface FileChange {
  file: string;
  /** The text before, or null for a file created. */
  before: string | null;
  /** The text after, or null for a file deleted. */
  after: string | null;
}

/** A line that shows a reply meant an edit of a format (see `Format.markers`). */
export interface EditMarker {
  /** Matches the line (its text without the line break). */
  line: RegExp;
  /** When set, the next line must match it too (a unified diff's `---` line before `+++`). */
  next?: RegExp;
  /**
   * What the format expected there, completing "the line … " in the
   * message: what the line is taken for and the shape an edit must have.
   */
  expected: string;
}

/** What a format's stream rules see when asked whether an edit is settled. */
export interface SettleContext {
  /** The reply so far, complete lines only: empty, or ending with a line break. */
  reply: string;
  /** The format's parse of `reply`. */
  edits: readonly Edit[];
  /** The paths of the files given. */
  files: readonly string[];
  /** The format's parse of another text, with the same files (memoised per update). */
  parse(text: string): ParseResult;
}

/**
 * Format knowledge the stream needs: when is a read edit final? `settled` is
 * asked only about an edit that has no `truncated` error and whose earlier
 * edits are all complete; it must answer true only when no continuation of
 * `context.reply` can change the edit (its index included). Without rules an
 * edit is settled once a later edit has begun.
 */
export interface StreamRules {
  settled(edit: Edit, context: SettleContext): boolean;
}

/**
 * One edit format: the only thing the registry knows about it, and the only
 * extension point. A harness may pass its own `Format` wherever a registered
 * one goes (`runFormat`, `createStream`, `streamReply`); nothing else names a
 * format.
 */
export interface Format {
  name: string;
  title: string;
  /** Read a whole model reply (prose and all) into edits. */
  parse(reply: string, context: ParseContext): ParseResult;
  /**
   * How sure the format is that a reply is written in it: 0 (no) to 1, with
   * a reason. `lexed`, when given, is the reply split into lines already.
   */
  detect(reply: string, lexed?: LexedReply): { score: number; reason: string };
  /** Write changes as a reply in this format. */
  write(changes: FileChange[]): string;
  /** How a reply creates a file in this format, for messages ("to create it, …"). */
  createHint?: string;
  /**
   * How a reply adds lines to an empty file in this format, for the message
   * of an edit that cites lines there ("to add lines to it, …"): a reply the
   * format accepts. Without it, the message gives no advice of the kind.
   */
  emptyHint?: string;
  /**
   * The lines that show a reply meant an edit of this format (its markers,
   * and other tools' markers for the same kind of edit, misspelt ones
   * included): when the format reads no edit and no error from a reply that
   * holds one, the reply is `malformed` there, not a reply with no edits
   * (src/core/markers.ts). Each pattern must match only lines that are
   * structure, never prose or Markdown (a sentence naming SEARCH, a `---`
   * rule). Default: none.
   */
  markers?: readonly EditMarker[];
  /**
   * The lines that open an edit of this format (or its envelope or call),
   * as the format writes them; one that a path follows ends with a blank or
   * `/`. A reply whose last line, with no line break, was cut inside one
   * (src/core/cut.ts) is `truncated` there. Default: none.
   */
  openers?: readonly string[];
  /**
   * The format reads fenced blocks as whole files (`whole`, `between`), so it
   * would also read another format's fenced edit as a file: such blocks are
   * checked against the other formats' structure before they are applied.
   */
  fileBlocks?: boolean;
  /**
   * The old lines an edit cites carry the numbered view's prefixes
   * (`12│text`): a retry message shows the file's lines numbered so, to be
   * copied as they are. Without it the lines are shown bare, as the format's
   * edits must quote them (a model shown `12│` copies it). Default: false.
   */
  numberedLines?: boolean;
  /**
   * Every block the format reads is a file's complete new text (`whole`; not
   * `between`, whose blocks may be snippets). `auto` reads a reply with the
   * first such format of the list to find the files the reply writes whole
   * (another format's edit inside one, after other lines of the file, is
   * quoted content, not an edit), and reads with it a reply whose only
   * structure is quoted there. Default false.
   */
  wholeFiles?: boolean;
  /**
   * When an edit of this format is final while its reply streams in
   * (`createStream`, `streamReply`); the format's spec page says the same in
   * its "Streaming" section. Default `LATER_EDIT_RULES` (src/core/stream.ts):
   * an edit is final once a later edit has begun.
   */
  stream?: StreamRules;
  /**
   * How to write edits in this format, for a model's system prompt: a few
   * sentences and a short example, with no role text (a harness puts its own
   * before it). Default: none (the format has no short prompt).
   */
  prompt?: string;
  /**
   * A piece of text every system prompt for the format must show the model
   * (a head line, a tag, a key: `<<<<<<< REMOVE` for ln-diff), checked on the
   * format's prompt page. Default: none.
   */
  marker?: string;
  /** The text a model is shown for a source file, when the format has a view. */
  view?(text: string): string;
  /**
   * Place a `replace` edit in the file's original lines, when the format
   * matches in its own way; the engine's match ladder otherwise. `budget` is
   * the request's search budget, for a search for the closest place (pass it
   * on to the ladder's `locate`, `closest` or `searchBudget`); absent outside
   * a request.
   */
  locate?(lines: readonly string[], edit: Edit, options: EngineOptions, budget?: RequestBudget): MatchOutcome;
}
