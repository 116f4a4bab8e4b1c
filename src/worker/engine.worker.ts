// The engine worker: runs `applyRequest` off the page's main thread and
// prepares what the page shows (cited-vs-actual comparisons, retry messages,
// the model's-eye view). Wrapped with comlink; the page imports only its type.

import { expose } from 'comlink';
import { diffChars } from 'diff';
import { applyRequest, formats, getFormat } from '../formats/index.ts';
import { parseText } from '../core/text.ts';
import type { ApplyResult, Edit, EditResult } from '../core/types.ts';
import { retryMessage } from '../playground/retry.ts';
import { resultDigest } from '../playground/digest.ts';
import { askedFormat, defaultPrompts, sourceText } from '../playground/live/prompts.ts';
import type { DiffPart, EditExtra, LinePair, PreparedSource, RunInput, RunOutput, ViewOutput } from './protocol.ts';

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

function pairsFor(edit: EditResult, parsed: Edit | undefined, sourceLines: (file: string) => string[] | null): LinePair[] {
  if (!parsed) return [];
  const old = parsed.old;
  let start: number | null = null;
  let actual: readonly string[] = [];
  if (edit.status === 'applied' && (edit.match === 'fuzzy' || edit.match === 'whitespace') && edit.range) {
    const lines = sourceLines(edit.file);
    if (!lines) return [];
    start = edit.range.start;
    actual = lines.slice(edit.range.start - 1, edit.range.end);
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

function extrasFor(input: RunInput, result: ApplyResult): Record<number, EditExtra> {
  const format = getFormat(result.format);
  const parsedByIndex = new Map<number, Edit>();
  if (format) {
    try {
      for (const e of format.parse(input.request.response, { files: Object.keys(input.request.files) }).edits)
        parsedByIndex.set(e.index, e);
    } catch {
      // The engine already parsed this reply; a second failure only costs the extras.
    }
  }
  const cache = new Map<string, string[] | null>();
  const sourceLines = (file: string): string[] | null => {
    if (!cache.has(file)) {
      const text = input.request.files[file];
      cache.set(file, typeof text === 'string' ? parseText(text).lines : null);
    }
    return cache.get(file) ?? null;
  };
  const extras: Record<number, EditExtra> = {};
  for (const edit of result.edits) {
    const parsed = parsedByIndex.get(edit.index);
    const old = parsed?.old ?? [];
    extras[edit.index] = { old, pairs: pairsFor(edit, parsed, sourceLines), retry: retryMessage(edit, old) };
  }
  return extras;
}

function viewFor(input: RunInput, formatName: string): ViewOutput | null {
  const file = input.viewFile;
  if (file === null || !(file in input.request.files)) return null;
  const format = getFormat(formatName);
  if (!format) return null;
  return { file, format: format.name, text: format.view ? format.view(input.request.files[file]) : null };
}

/** Every format's default prompt, for `prepare`'s choice of format. */
const PROMPTS = defaultPrompts(formats);

const api = {
  run(input: RunInput): RunOutput {
    const t0 = performance.now();
    let result: ApplyResult | null = null;
    let error: string | null = null;
    try {
      result = applyRequest(input.request);
    } catch (e) {
      error = e instanceof Error ? `${e.name}: ${e.message}` : String(e);
    }
    const ms = performance.now() - t0;
    const extras = result ? extrasFor(input, result) : {};
    const detected = result?.format ?? (input.request.format === 'auto' ? formats[0].name : input.request.format);
    return { result, error, extras, view: viewFor(input, detected), ms, digest: result ? resultDigest(result) : null };
  },
  /** The source files as `format` shows them to a model (ln-diff's view for auto). */
  prepare(files: { name: string; text: string }[], format: string): PreparedSource {
    const name = askedFormat(format, PROMPTS);
    const view = getFormat(name)?.view;
    return { format: name, text: sourceText(files, view) };
  },
  /** Test hook: keep the worker busy, as a very slow run would. */
  spin(ms: number): number {
    const end = Date.now() + ms;
    let turns = 0;
    while (Date.now() < end) turns++;
    return turns;
  },
  /** Test hook: an error outside any call, as a crashed worker reports it. */
  crash(): void {
    setTimeout(() => {
      throw new Error('test crash');
    }, 0);
  },
};

export type EngineApi = typeof api;

expose(api);
