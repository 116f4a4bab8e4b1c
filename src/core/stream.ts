// Streaming: read a reply while it arrives, in chunks of any size, and tell
// as early as the text allows where each edit goes and when it can be applied.
//
// The stream works per complete line. A partial last line waits in a buffer;
// when a chunk completes one or more lines, the reply up to the last line
// break is parsed again with the format's own `parse` (one parser per format,
// no second grammar), and the edits of that parse are compared with what was
// reported before:
//   - `edit-started` when an edit first appears (or its file or start moves);
//   - `lines-known` when more of its old lines are known; an edit that cites
//     line numbers is placed right away by running the match ladder (or the
//     format's `locate`) on the lines known so far;
//   - `edit-complete` when nothing that can still arrive can change it: it
//     has no `truncated` error, the format's `StreamRules` say it is settled,
//     and every edit before it is complete. Its result is what `runFormat`
//     gives for that edit alone against the original files, with the files
//     that run gives (applying the edit now needs no second run).
//   - `edit-dropped` when a later parse no longer has an edit not yet complete.
// `end()` parses the whole reply, partial last line included, exactly as
// `runFormat` does: its result is the answer. Overlaps and duplicates with
// later edits can only be known there; `current().revised` lists the edits
// whose final result differs from the one `edit-complete` reported.
//
// Cost: one parse of the complete-lines prefix per chunk that completes a
// line (a chunk completing several lines costs one parse), plus, for the
// first edit not yet complete, the probes its format's rules run (each one
// parse of the prefix and a few lines), the match ladder on its known old
// lines when they grow, and `runFormat` for one edit when it completes. With
// linear parsers, feeding a reply of n characters and L lines line by line
// costs O(L·n); feeding it in larger chunks parses it fewer times. A partial
// line costs nothing until its line break arrives.

import { CreatedPaths } from './lookalikes.ts';
import { locate, type MatchOutcome } from './match.ts';
import { runFormat } from './run.ts';
import { LATER_EDIT_RULES, sameValue } from './settle.ts';
import { parseText } from './text.ts';
import type {
  ApplyResult,
  Edit,
  EditKind,
  EditResult,
  EngineOptions,
  Format,
  LineRange,
  MatchKind,
  ParseResult,
  SettleContext,
  Span,
  StreamRules,
} from './types.ts';

// The rules a format carries for when a streamed edit is settled: src/core/settle.ts.
export { LATER_EDIT_RULES, sameValue, settledUnlessProbed } from './settle.ts';
export type { SettleContext, StreamRules } from './types.ts';

/** A stream's options: the engine's options for placing edits, and how the stream decides and ends. */
export interface StreamOptions extends EngineOptions {
  /** When an edit is final; default the format's own `stream` rules, else `LATER_EDIT_RULES`. */
  rules?: StreamRules;
  /**
   * The result of the whole reply, when the caller reads it with more than
   * the format (the registry also reports another format's edits); default
   * `runFormat`.
   */
  finish?: (reply: string) => ApplyResult;
}

/**
 * What became known from a chunk: an edit started, more of its old lines
 * are known (and where they match now), it is final with its result, or a
 * later parse dropped it. `index` is the edit's position in the reply, from 0.
 */
export type StreamEvent =
  | { type: 'edit-started'; index: number; file: string; span: Span }
  | {
      type: 'lines-known';
      index: number;
      file: string;
      /** How many old lines of the edit are known. */
      known: number;
      /** The line numbers the known lines cite, when the format cites numbers. */
      cited: LineRange | null;
      /** Where the known lines match in the original file now (an insertion: the empty range at its place). */
      placed: LineRange | null;
      /** How they matched. */
      match: MatchKind | null;
    }
  | {
      type: 'edit-complete';
      index: number;
      result: EditResult;
      /** The files after this edit alone (the files of that `runFormat` result): what applying it now gives. */
      files: Record<string, string | null>;
    }
  | { type: 'edit-dropped'; index: number };

/** One edit as the stream knows it. */
export interface StreamEdit {
  /** Position in the reply, from 0. */
  index: number;
  file: string;
  kind: EditKind;
  /** Where the edit is in the reply so far. */
  span: Span;
  /** How many of its old lines are known. */
  known: number;
  /** The line numbers the known lines cite, when the format cites numbers. */
  cited: LineRange | null;
  /** Where the known lines match in the original file now. */
  placed: LineRange | null;
  /** How they matched. */
  match: MatchKind | null;
  /** `edit-complete` was reported (or the stream ended). */
  complete: boolean;
  /** The result reported by `edit-complete`, or the final one after `end()`. */
  result: EditResult | null;
}

/** Everything a stream knows so far (`Stream.current()`). */
export interface StreamState {
  /** Characters received. */
  received: number;
  /** Offset just after the last line break received: the text parsed so far. */
  parsed: number;
  edits: StreamEdit[];
  /** `end()` was called. */
  done: boolean;
  /** After `end()`: edits whose final result differs from the one `edit-complete` reported. */
  revised: number[];
}

/** A reply being read as it arrives: `push` its chunks, then `end()` it. */
export interface Stream {
  /** Take the next piece of the reply; returns what became known. */
  push(chunk: string): StreamEvent[];
  /** The reply is complete: the result of the whole reply, exactly as `runFormat` gives it. */
  end(): ApplyResult;
  /** What is known so far. */
  current(): StreamState;
}

const NO_MATCH = { placed: null, match: null } as const;

/**
 * A stream over a reply in `format` against `files`, placing edits with
 * `options` (see the top of this file for the events and their cost).
 */
export function createStream(format: Format, files: Record<string, string>, options: StreamOptions = {}): Stream {
  const { rules = format.stream ?? LATER_EDIT_RULES, ...engine } = options;
  const hasEngine = Object.keys(engine).length > 0;
  const paths = Object.keys(files);
  const context = { files: paths };
  const request = (response: string) => ({ format: format.name, files, response, ...(hasEngine ? { options: engine } : {}) });

  let text = '';
  let parsedTo = 0;
  const tracked: StreamEdit[] = [];
  let completed = 0;
  let final: ApplyResult | null = null;
  let revised: number[] = [];

  const fileLines = new Map<string, string[]>();
  const linesOf = (path: string): string[] | null => {
    if (!Object.hasOwn(files, path)) return null;
    let l = fileLines.get(path);
    if (!l) fileLines.set(path, (l = parseText(files[path]).lines));
    return l;
  };

  /** Where the known old lines of an edit that cites numbers match now. */
  const place = (edit: Edit): { placed: LineRange | null; match: MatchKind | null } => {
    if (edit.cited === undefined || (edit.error && edit.error.code !== 'truncated')) return NO_MATCH;
    const lines = linesOf(edit.file);
    if (!lines) return NO_MATCH;
    if (edit.kind === 'insert') {
      const at = edit.cited - 1;
      return at >= 0 && at <= lines.length ? { placed: { start: edit.cited, end: edit.cited - 1 }, match: 'exact' } : NO_MATCH;
    }
    if (edit.kind !== 'replace' || edit.old.length === 0) return NO_MATCH;
    let outcome: MatchOutcome;
    try {
      outcome = format.locate ? format.locate(lines, edit, engine) : locate(lines, edit.old, edit.cited - 1, engine);
    } catch {
      return NO_MATCH;
    }
    return outcome.ok ? { placed: { start: outcome.start + 1, end: outcome.end }, match: outcome.kind } : NO_MATCH;
  };

  /** The files the complete edits create or move a file to: a later look-alike of one is warned (`confusable-path`). */
  const created = new CreatedPaths(paths);

  /**
   * The result of one edit alone, as `runFormat` reports it, with its
   * `confusable-path` warning judged against the files the complete edits
   * before it write, as the whole reply's run judges it.
   */
  const alone = (edit: Edit, reply: string): ApplyResult => {
    const single: Format = { ...format, parse: () => ({ edits: [edit], diagnostics: [] }) };
    const ran = runFormat(single, request(reply));
    const result = ran.edits[0];
    const path = Object.keys(ran.files).find((p) => !Object.hasOwn(files, p) && ran.files[p] !== null);
    if (!result || result.status !== 'applied' || path === undefined) return ran;
    const own = result.warnings.filter((w) => w.code !== 'confusable-path');
    const first = !created.has(path);
    const warning = created.write(path);
    if (!first) result.warnings = own;
    else if (warning && own.length === result.warnings.length) {
      // In the order the run gives: before the warnings found after placing (bidi-control, no-change).
      const at = own.findIndex((w) => w.code === 'bidi-control' || w.code === 'no-change');
      result.warnings = at < 0 ? [...own, warning] : [...own.slice(0, at), warning, ...own.slice(at)];
    }
    return ran;
  };

  const update = (reply: string): StreamEvent[] => {
    const parsed = format.parse(reply, context);
    const events: StreamEvent[] = [];
    const n = parsed.edits.length;

    for (let k = Math.max(n, completed); k < tracked.length; k++) events.push({ type: 'edit-dropped', index: k });
    tracked.length = Math.min(tracked.length, Math.max(n, completed));

    const memo = new Map<string, ParseResult>([[reply, parsed]]);
    const settle: SettleContext = {
      reply,
      edits: parsed.edits,
      files: paths,
      parse(t) {
        let r = memo.get(t);
        if (!r) memo.set(t, (r = format.parse(t, context)));
        return r;
      },
    };

    for (let k = completed; k < n; k++) {
      const edit = parsed.edits[k];
      let t = tracked[k];
      if (!t || t.file !== edit.file || t.span.from !== edit.span.from) {
        t = {
          index: k,
          file: edit.file,
          kind: edit.kind,
          span: edit.span,
          known: 0,
          cited: null,
          placed: null,
          match: null,
          complete: false,
          result: null,
        };
        tracked[k] = t;
        events.push({ type: 'edit-started', index: k, file: edit.file, span: edit.span });
      } else {
        t.kind = edit.kind;
        t.span = edit.span;
      }

      const known = edit.kind === 'replace' ? edit.old.length : 0;
      const cited: LineRange | null =
        edit.cited === undefined
          ? null
          : edit.kind === 'insert'
            ? { start: edit.cited, end: edit.cited - 1 }
            : edit.kind === 'replace' && known > 0
              ? { start: edit.cited, end: edit.cited + known - 1 }
              : null;
      if ((known > 0 || cited !== null) && (known !== t.known || !sameValue(cited, t.cited))) {
        const { placed, match } = place(edit);
        Object.assign(t, { known, cited, placed, match });
        events.push({ type: 'lines-known', index: k, file: edit.file, known, cited, placed, match });
      }

      if (k === completed && edit.error?.code !== 'truncated' && rules.settled(edit, settle)) {
        const ran = alone(edit, reply);
        t.complete = true;
        t.result = ran.edits[0];
        completed++;
        events.push({ type: 'edit-complete', index: k, result: t.result, files: ran.files });
      }
    }
    return events;
  };

  return {
    push(chunk) {
      if (final) throw new Error('the stream has ended');
      text += chunk;
      const nl = chunk.lastIndexOf('\n');
      if (nl < 0) return [];
      parsedTo = text.length - chunk.length + nl + 1;
      return update(text.slice(0, parsedTo));
    },
    end() {
      if (final) return final;
      final = options.finish ? options.finish(text) : runFormat(format, request(text));
      parsedTo = text.length;
      const result = final;
      revised = tracked.filter((t) => t.complete && !sameValue(t.result, result.edits[t.index])).map((t) => t.index);
      const parsed = format.parse(text, context).edits;
      tracked.length = 0;
      result.edits.forEach((r, k) => {
        const edit = parsed[k];
        tracked.push({
          index: k,
          file: r.file,
          kind: r.kind,
          span: r.reply,
          known: edit && edit.kind === 'replace' ? edit.old.length : 0,
          cited: r.cited,
          placed: r.range,
          match: r.match,
          complete: true,
          result: r,
        });
      });
      completed = tracked.length;
      return final;
    },
    current() {
      return {
        received: text.length,
        parsed: parsedTo,
        edits: tracked.map((t) => ({ ...t })),
        done: final !== null,
        revised: [...revised],
      };
    },
  };
}
