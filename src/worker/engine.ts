// The engine worker's interface: it keeps the page's documents (sent whole
// once, then as changes), runs `applyRequest` on them, and prepares what the
// page needs beside the result: cited-vs-actual comparisons, retry
// messages, the model's-eye view, each file's outcome, and the result view's
// content as the change from what the page shows. What it works from is what
// the engine read (`applyRead`): the reply is parsed once per run. Each
// edit's row gets a digest here, so the page redraws only rows that changed
// without comparing edits itself. Plain data in and out.

import { diffChars } from 'diff';
import { formats, getFormat } from '../index.ts';
import { applyRead, numberedLines, readReply } from '../formats/index.ts';
import type { ReplyReading } from '../formats/read.ts';
import { BOM } from '../core/text.ts';
import type { ApplyRequest, ApplyResult, Edit, EditResult } from '../index.ts';
import { editsByIndex, type ReadResult } from '../core/run.ts';
import { retryMessage } from '../core/retry.ts';
import { resultDigest, rowDigest } from '../digest/digest.ts';
import { askedFormat, defaultPrompts, sourceText } from '../prompt/prompts.ts';
import { exactDiff, textDelta, type Delta, type Region } from '../text-delta/exact.ts';
import { Docs } from './docs.ts';
import type {
  DiffPart,
  EditExtra,
  FileLabel,
  FileOutcome,
  LinePair,
  MergeAsk,
  MergeOutput,
  PreparedSource,
  RunInput,
  RunOutput,
  TextShape,
  ViewOutput,
} from './protocol.ts';

/** Longer lines are compared whole rather than character by character. */
const MAX_DIFF_LINE = 4000;

export function compareLine(cited: string, actual: string): DiffPart[] {
  if (cited.length > MAX_DIFF_LINE || actual.length > MAX_DIFF_LINE) {
    return [
      { text: cited, kind: 'cited' },
      { text: actual, kind: 'actual' },
    ];
  }
  const changes = diffChars(cited, actual, { maxEditLength: 400 });
  if (!changes) {
    return [
      { text: cited, kind: 'cited' },
      { text: actual, kind: 'actual' },
    ];
  }
  return changes.map((c) => ({ text: c.value, kind: c.removed ? 'cited' : c.added ? 'actual' : 'same' }));
}

function pairsFor(edit: EditResult, parsed: Edit | undefined, sourceLines: (file: string) => LineReader | null): LinePair[] {
  if (!parsed) return [];
  const old = parsed.old;
  let start: number | null = null;
  let actual: readonly string[] = [];
  if (edit.status === 'applied' && (edit.match === 'fuzzy' || edit.match === 'whitespace') && edit.range) {
    const lines = sourceLines(edit.file);
    if (!lines) return [];
    start = edit.range.start;
    actual = lines.lines(edit.range.start, edit.range.end);
  } else if (edit.status === 'failed' && edit.code !== 'ambiguous' && edit.candidates.length > 0) {
    start = edit.candidates[0].start;
    actual = edit.candidates[0].lines;
  }
  if (start === null) return [];
  const pairs: LinePair[] = [];
  const n = Math.min(old.length, actual.length);
  for (let i = 0; i < n; i++) {
    if (old[i] === actual[i]) continue;
    pairs.push({
      index: i,
      sourceLine: start + i,
      cited: old[i],
      actual: actual[i],
      parts: compareLine(old[i], actual[i]),
      reply: parsed.oldSpans?.[i] ?? null,
    });
  }
  return pairs;
}

/**
 * What an edit's row shows: the edit and its extras, without where they are
 * in the reply (a row never shows that, and typing above an edit moves it),
 * so typing in the reply redraws only the rows of the edits it changes.
 */
function shownInRow(edit: EditResult, extra: Omit<EditExtra, 'digest'>): [object, object] {
  const { reply: _reply, ...shown } = edit;
  return [shown, { ...extra, pairs: extra.pairs.map(({ reply: _at, ...pair }) => pair) }];
}

/**
 * Lines `start` to `end` (1-based) of a text, as `parseText(text).lines`
 * has them (a BOM left out, a line's CR before its LF too), without
 * splitting the whole text: a fuzzy edit needs a few lines of a file that
 * may have tens of thousands, once per keystroke.
 */
export class LineReader {
  /** Where each line starts, found up to the last line asked for so far. */
  private readonly starts: number[];

  constructor(private readonly text: string) {
    this.starts = [text.startsWith(BOM) ? 1 : 0];
  }

  lines(start: number, end: number): string[] {
    const { text, starts } = this;
    // Find line starts up to line end + 1 (the start after the last line asked for).
    while (starts.length <= end) {
      const nl = text.indexOf('\n', starts[starts.length - 1]);
      if (nl < 0) break;
      starts.push(nl + 1);
    }
    const out: string[] = [];
    for (let n = Math.max(1, start); n <= end && n <= starts.length; n++) {
      const from = starts[n - 1];
      if (n === starts.length) {
        // The last line, which no LF ends: as it is (CR kept), unless the text ends before it.
        if (from < text.length) out.push(text.slice(from));
        break;
      }
      const to = starts[n] - 1;
      out.push(text.charCodeAt(to - 1) === 13 && to - 1 >= from ? text.slice(from, to - 1) : text.slice(from, to));
    }
    return out;
  }
}

function extrasFor(request: ApplyRequest, result: ApplyResult, parsed: Map<number, Edit>): Record<number, EditExtra> {
  const readers = new Map<string, LineReader | null>();
  const sourceLines = (file: string): LineReader | null => {
    if (!readers.has(file)) {
      const text = request.files[file];
      readers.set(file, typeof text === 'string' ? new LineReader(text) : null);
    }
    return readers.get(file) ?? null;
  };
  const extras: Record<number, EditExtra> = {};
  for (const edit of result.edits) {
    const p = parsed.get(edit.index);
    const old = p?.old ?? [];
    const extra = { old, pairs: pairsFor(edit, p, sourceLines), retry: retryMessage(edit, old, numberedLines(edit.format ?? result.format)) };
    extras[edit.index] = { ...extra, digest: rowDigest(...shownInRow(edit, extra)) };
  }
  return extras;
}

function viewFor(request: ApplyRequest, file: string | null, formatName: string): ViewOutput | null {
  if (file === null || !(file in request.files)) return null;
  const format = getFormat(formatName);
  if (!format) return null;
  return { file, format: format.name, text: format.view ? format.view(request.files[file]) : null };
}

export function textShape(text: string): TextShape {
  let crlf = 0;
  let breaks = 0;
  for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) {
    breaks++;
    if (i > 0 && text.charCodeAt(i - 1) === 13) crlf++;
  }
  return {
    endings: crlf === 0 ? 'lf' : crlf === breaks ? 'crlf' : 'mixed',
    noFinalNewline: text.length > 0 && !text.endsWith('\n'),
    lines: text.length === 0 ? 0 : breaks + (text.endsWith('\n') ? 0 : 1),
  };
}

/**
 * Every file of a run and what the reply did to it: the files it changes,
 * creates or deletes first, then those it leaves as they were, each group
 * in the session's order (the result view shows the first when none is asked for).
 */
export function outcomes(request: ApplyRequest, result: ApplyResult | null): FileOutcome[] {
  const names = Object.keys(request.files);
  for (const name of Object.keys(result?.files ?? {})) if (!names.includes(name)) names.push(name);
  const all = names.map((name): FileOutcome => {
    const before = Object.hasOwn(request.files, name) ? request.files[name] : null;
    const out = result?.files ?? {};
    const after = Object.hasOwn(out, name) ? out[name] : before;
    const label: FileLabel = before === null ? 'new file' : after === null ? 'deleted' : after === before ? 'unchanged' : 'changed';
    return { name, label, before: before === null ? null : textShape(before), after: after === null ? null : textShape(after) };
  });
  return [...all.filter((f) => f.label !== 'unchanged'), ...all.filter((f) => f.label === 'unchanged')];
}

/** Deltas larger than this (characters removed and inserted, both sides) may be sent as whole texts. */
const WHOLE_AFTER = 100_000;
const deltaSize = (d: Delta | null) => (d ? d.to - d.from + d.insert.length : 0);

interface Shown {
  version: number;
  file: string;
  before: string;
  after: string;
}

interface LastRun {
  /** Its number (`RunInput.run`). */
  number: number;
  request: ApplyRequest;
  result: ApplyResult | null;
  parsed: Map<number, Edit>;
  files: FileOutcome[];
}

export class EngineWorker {
  private readonly docs = new Docs();
  private last: LastRun | null = null;
  private shown: Shown | null = null;
  private version = 0;

  run(input: RunInput): RunOutput {
    if (!this.docs.sync(input.docs)) throw new Error('the engine lost its copy of the documents; run again');
    this.docs.retain([input.reply, ...input.files.map((f) => f.doc)]);
    const files: Record<string, string> = {};
    for (const f of input.files) files[f.name] = this.docs.get(f.doc) ?? '';
    const request: ApplyRequest = {
      format: input.format,
      files,
      response: this.docs.get(input.reply) ?? '',
      ...(input.options ? { options: input.options } : {}),
    };
    const t0 = performance.now();
    let read: ReadResult | null = null;
    let error: string | null = null;
    // The reply read once against these files: the run under the format asked and the one under auto share it.
    let reading: ReplyReading | undefined;
    try {
      reading = readReply(request.response, Object.keys(files));
      read = applyRead(request, reading);
    } catch (e) {
      error = e instanceof Error ? `${e.name}: ${e.message}` : String(e);
    }
    const ms = performance.now() - t0;
    const result = read?.result ?? null;
    const parsed = read ? editsByIndex(read) : new Map<number, Edit>();
    const extras = result ? extrasFor(request, result, parsed) : {};
    const detected = result?.format ?? (request.format === 'auto' ? formats[0].name : request.format);
    this.last = { number: input.run, request, result, parsed, files: outcomes(request, result) };
    let alternative: RunOutput['alternative'] = null;
    if (result && request.format !== 'auto' && result.edits.length === 0 && request.response.trim() !== '') {
      try {
        const auto = applyRead({ ...request, format: 'auto' }, reading).result;
        if (auto.edits.length > 0 && auto.format !== request.format) alternative = { format: auto.format, edits: auto.edits.length };
      } catch {
        // No suggestion.
      }
    }
    return {
      result,
      error,
      extras,
      view: viewFor(request, input.viewFile, detected),
      files: this.last.files,
      merge: input.merge ? this.merge(input.merge) : null,
      alternative,
      ms,
    };
  }

  /**
   * The digest of run `run`'s result (null when the engine threw on it, or
   * when a later run replaced it): a link records it, so it is made when a
   * link is, not on every keystroke.
   */
  digest(run: number): string | null {
    const last = this.last;
    return last && last.number === run && last.result ? resultDigest(last.result) : null;
  }

  /** The result view's content for the last run: whole, or the change from version `ask.base`. */
  merge(ask: MergeAsk): MergeOutput | null {
    const run = this.last;
    if (!run || run.files.length === 0) {
      this.shown = null;
      return null;
    }
    const outcome = run.files.find((f) => f.name === ask.file) ?? run.files[0];
    const file = outcome.name;
    const before = Object.hasOwn(run.request.files, file) ? run.request.files[file] : '';
    const out = run.result?.files ?? {};
    const after = Object.hasOwn(out, file) ? (out[file] ?? '') : before;
    // Each applied edit of this file is a region: what it replaced, and how many lines it wrote
    // (from the parsed reply; unknown, the result view falls back to a bounded diff of the whole file).
    const applied = (run.result?.edits ?? []).filter(
      (e) => e.file === file && e.status === 'applied' && e.range && e.code !== 'duplicate' && e.kind !== 'delete' && e.kind !== 'rename',
    );
    const regions: Region[] =
      outcome.label === 'changed'
        ? applied.map((e) => {
            const p = run.parsed.get(e.index);
            return { start: e.range!.start, end: e.range!.end, newLines: p && p.file === file ? p.new.length : Number.NaN };
          })
        : [];
    const diff = exactDiff(before, after, regions);
    const edits = outcome.label === 'changed' ? applied.map((e, i) => ({ index: e.index, a: diff.regions[i].a, b: diff.regions[i].b })) : [];
    const previous = this.shown;
    const version = ++this.version;
    this.shown = { version, file, before, after };
    const same = previous !== null && ask.base === previous.version && previous.file === file;
    const delta = same ? { a: textDelta(previous.before, before), b: textDelta(previous.after, after) } : null;
    // A change of most of the text (a paste over the file) is shown anew: rebuilding the
    // view costs less than moving it through the change, and only what is in sight is drawn.
    const big = delta !== null && deltaSize(delta.a) + deltaSize(delta.b) > Math.max(WHOLE_AFTER, (before.length + after.length) / 2);
    return {
      version,
      file,
      label: outcome.label,
      whole: delta === null || big ? { before, after } : null,
      delta: big ? null : delta,
      diff,
      edits,
    };
  }

  /** The source files as `format` shows them to a model (ln-diff's view for auto). */
  prepare(files: { name: string; text: string }[], format: string): PreparedSource {
    const name = askedFormat(format, PROMPTS);
    const view = getFormat(name)?.view;
    return { format: name, text: sourceText(files, view) };
  }
}

/** Every format's default prompt, for `prepare`'s choice of format. */
const PROMPTS = defaultPrompts(formats);

/** The interface the page calls (through comlink). */
export function engineApi() {
  const worker = new EngineWorker();
  return {
    run: (input: RunInput): RunOutput => worker.run(input),
    merge: (ask: MergeAsk): MergeOutput | null => worker.merge(ask),
    digest: (run: number): string | null => worker.digest(run),
    prepare: (files: { name: string; text: string }[], format: string): PreparedSource => worker.prepare(files, format),
  };
}

export type EngineApi = ReturnType<typeof engineApi>;
