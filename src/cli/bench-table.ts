// What `ln-diff bench` prints: the results table (one line per format, then
// a line per format that had failures), the --min-* verdicts, and the one
// progress line shown on a terminal while the run goes. Pure: text in, text out.

import { askedCount, MATCH_KINDS, wholePercent, type BestColumn } from '../bench/summary.ts';
import type { BenchEvent, BenchRun, FormatSummary, ReplyStatus, TokenMethod } from '../bench/types.ts';
import type { Style } from './summary.ts';

const STATUS_ORDER: readonly ReplyStatus[] = ['auth', 'http', 'stalled', 'network', 'empty', 'stopped'];

/** A rate as a whole percentage, rounded but never to 0% or 100% unless it is exactly that (as the page shows it); `–` when nothing was counted. */
export function percent(rate: number, counted: number): string {
  return counted === 0 ? '–' : `${wholePercent(rate)}%`;
}

/** `412`, `3.2k`, `48k`, `1.2M`. */
export function tokens(n: number): string {
  if (n < 1000) return String(Math.round(n));
  if (n < 10_000) return `${(Math.floor(n / 100) / 10).toFixed(1)}k`;
  if (n < 1_000_000) return `${Math.floor(n / 1000)}k`;
  return `${(Math.floor(n / 100_000) / 10).toFixed(1)}M`;
}

/** `850ms`, `1.2s`, `1m05s`. */
export function duration(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)}ms`;
  if (ms < 60_000) return `${(Math.floor(ms / 100) / 10).toFixed(1)}s`;
  const s = Math.floor(ms / 1000);
  return `${Math.floor(s / 60)}m${String(s % 60).padStart(2, '0')}s`;
}

/** `exact 20 · offset 2 · failed 1` (kinds with none left out), `–` for no edit. */
export function matchesText(matches: FormatSummary['matches']): string {
  const parts = MATCH_KINDS.filter((k) => (matches[k] ?? 0) > 0).map((k) => `${k} ${matches[k]}`);
  return parts.length === 0 ? '–' : parts.join(' · ');
}

type Align = 'left' | 'right';
const COLUMNS: { head: string; align: Align; best?: BestColumn }[] = [
  { head: 'format', align: 'left' },
  { head: 'replies', align: 'right' },
  { head: 'parsed', align: 'right', best: 'parsed' },
  { head: 'applied', align: 'right', best: 'applied' },
  { head: 'exact', align: 'right', best: 'exact' },
  { head: 'matches', align: 'left' },
  { head: 'output tokens', align: 'right', best: 'output' },
  { head: 'first token', align: 'right', best: 'firstToken' },
  { head: 'total time', align: 'right', best: 'total' },
];

function cells(s: FormatSummary): string[] {
  const m = s.median;
  return [
    s.format,
    String(s.replies),
    percent(s.rates.parsed, s.replies),
    percent(s.rates.applied, s.replies),
    percent(s.rates.exact, s.replies),
    matchesText(s.matches),
    m.output === null ? '–' : `${s.estimated ? '~' : ''}${tokens(m.output)}`,
    m.firstToken === null ? '–' : duration(m.firstToken),
    m.total === null ? '–' : duration(m.total),
  ];
}

/**
 * Columns padded to their widest cell (the last column is not padded on the
 * right); `mark(row, column)` styles a cell after it is padded.
 */
function align(rows: string[][], mark: (row: number, column: number, cell: string) => string = (_r, _c, cell) => cell): string[] {
  const widths = COLUMNS.map((_, c) => Math.max(...rows.map((r) => [...r[c]].length)));
  return rows.map((r, k) =>
    r
      .map((cell, c) => {
        const pad = ' '.repeat(widths[c] - [...cell].length);
        const shown = mark(k, c, cell);
        return COLUMNS[c].align === 'right' ? pad + shown : c === r.length - 1 ? shown : shown + pad;
      })
      .join('  ')
      .trimEnd(),
  );
}

/** `ln-diff bench: gpt-4o-mini at http://…/v1 (openai), 8 tasks × 3 formats, 24 replies; stopped`. */
export function headLine(run: BenchRun): string {
  const { endpoint, tasks, formats } = run.config;
  const model = endpoint.model === '' ? '(the server’s model)' : endpoint.model;
  const counted = run.replies.filter((r) => r.status !== 'stopped').length;
  const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;
  return (
    `ln-diff bench: ${model} at ${endpoint.baseUrl} (${endpoint.api}), ` +
    `${plural(tasks.length, 'task')} × ${plural(formats.length, 'format')}, ${plural(counted, 'reply', 'replies')}` +
    (run.stopped ? `; stopped by the user (${askedCount(run) - counted} not counted)` : '')
  );
}

/**
 * `not asked, the format cannot say the change: ln-diff bcrypt-ci (deleting a
 * file); whole bcrypt-ci, ts-lib-promise`: the pairs a run skipped, by
 * format, each task once; null when it skipped none.
 */
export function skippedLine(run: BenchRun): string | null {
  const pairs = run.skipped ?? [];
  if (pairs.length === 0) return null;
  const byFormat = new Map<string, string[]>();
  for (const p of pairs) byFormat.set(p.format, [...(byFormat.get(p.format) ?? []), p.task]);
  const parts = [...byFormat].map(([format, ids]) => `${format} ${ids.join(', ')}`);
  return `not asked, because the format cannot say the change (a perfect reply could not reach the target): ${parts.join('; ')}`;
}

/** `ln-diff: 1 stalled, 2 http; failed edits: no-match 2, elided 1` for a format with any of those; null otherwise. */
export function problemsLine(s: FormatSummary): string | null {
  const statuses = STATUS_ORDER.filter((k) => (s.statuses[k] ?? 0) > 0).map((k) => `${s.statuses[k]} ${k}`);
  const codes = Object.entries(s.codes)
    .filter(([, n]) => (n ?? 0) > 0)
    .sort((a, b) => (b[1] ?? 0) - (a[1] ?? 0) || (a[0] < b[0] ? -1 : 1))
    .map(([code, n]) => `${code} ${n}`);
  const cut = s.cutOff ?? 0;
  if (statuses.length === 0 && codes.length === 0 && cut === 0) return null;
  const parts = [
    statuses.length > 0 ? `replies not done: ${statuses.join(', ')}` : '',
    cut > 0 ? `cut off at the token cap: ${cut}` : '',
    codes.length > 0 ? `failures: ${codes.join(', ')}` : '',
  ];
  return `${s.format}: ${parts.filter((p) => p !== '').join('; ')}`;
}

/**
 * The whole table: the head line, the column heads, one line per format, then
 * the problems and a note on `~`. `best` (src/bench/summary.ts): the formats
 * holding the best value of each column, shown with `style.ok` (when more
 * than one format is compared).
 */
export function benchTable(
  run: BenchRun,
  summaries: readonly FormatSummary[],
  style: Style,
  best?: Record<BestColumn, string[]>,
): string[] {
  const isBest = (row: number, column: number) => {
    const key = COLUMNS[column].best;
    return row > 0 && summaries.length > 1 && best !== undefined && key !== undefined && best[key].includes(summaries[row - 1].format);
  };
  const rows = align([COLUMNS.map((c) => c.head), ...summaries.map(cells)], (row, column, cell) => (isBest(row, column) ? style.ok(cell) : cell));
  const lines = [headLine(run), style.dim(rows[0]), ...rows.slice(1)];
  const problems = summaries.map(problemsLine).filter((l): l is string => l !== null);
  if (problems.length > 0) lines.push('', ...problems);
  const skipped = skippedLine(run);
  if (skipped) lines.push('', style.dim(skipped));
  if (summaries.some((s) => s.estimated && s.median.output !== null))
    lines.push('', style.dim('~ estimated (characters / 4): the API reported no token counts'));
  return lines;
}

/** One sentence per format below a --min-* threshold, naming it; empty when every format meets them. */
export function thresholdFailures(
  summaries: readonly FormatSummary[],
  min: { exact: number | null; applied: number | null },
): string[] {
  const failures: string[] = [];
  for (const s of summaries)
    for (const key of ['exact', 'applied'] as const) {
      const want = min[key];
      if (want === null || s.rates[key] >= want) continue;
      const got = s.replies === 0 ? 'no reply was counted' : `${key} ${percent(s.rates[key], s.replies)} (${s[key]} of ${s.replies})`;
      failures.push(`${s.format}: ${got}, below --min-${key} ${Math.round(want * 1000) / 10}%`);
    }
  return failures;
}

/** `24 requests (8 tasks × 3 formats), about 120k tokens in and 30k out (estimated from lengths)`: said on a terminal as a run starts. */
export function startLine(
  run: { tasks: number; formats: number; requests?: number },
  estimate: { input: number; output: number; method: TokenMethod },
): string {
  const plural = (n: number, one: string) => `${n} ${one}${n === 1 ? '' : 's'}`;
  const how = estimate.method === 'estimate' ? 'estimated from lengths' : 'counted';
  const requests = run.requests ?? run.tasks * run.formats;
  const notAsked = run.tasks * run.formats - requests;
  return (
    `${plural(requests, 'request')} (${plural(run.tasks, 'task')} × ${plural(run.formats, 'format')}${notAsked > 0 ? `, ${notAsked} not asked` : ''}), ` +
    `about ${tokens(estimate.input)} tokens in and ${tokens(estimate.output)} out (${how})`
  );
}

/** What the progress line shows, kept up to date from the run's events. */
export interface ProgressState {
  done: number;
  total: number;
  /** The task and format of the latest request or text. */
  task: string;
  format: string;
  /** Output tokens of the finished replies (reported or estimated). */
  finishedTokens: number;
  /** Characters received so far of each reply in flight (`task format`). */
  streaming: Map<string, number>;
}

export function startProgress(): ProgressState {
  return { done: 0, total: 0, task: '', format: '', finishedTokens: 0, streaming: new Map() };
}

/** The state after an event (the state is updated in place and returned). */
export function progressAfter(state: ProgressState, e: BenchEvent): ProgressState {
  switch (e.type) {
    case 'start':
      state.total = e.total;
      break;
    case 'request':
      state.task = e.task;
      state.format = e.format;
      state.streaming.set(`${e.task} ${e.format}`, 0);
      break;
    case 'text':
      state.task = e.task;
      state.format = e.format;
      state.streaming.set(`${e.task} ${e.format}`, e.chars);
      break;
    case 'reply': {
      const r = e.reply;
      state.streaming.delete(`${r.task} ${r.format}`);
      state.finishedTokens += r.tokens.output ?? Math.ceil(r.reply.length / 4);
      state.done = e.done;
      state.total = e.total;
      break;
    }
    default:
      break;
  }
  return state;
}

/** `12/24 · ln-diff · ms-index · 3.2k tokens out` (in-flight text counted at characters / 4). */
export function progressLine(state: ProgressState): string {
  let inFlight = 0;
  for (const chars of state.streaming.values()) inFlight += chars;
  const parts = [`${state.done}/${state.total}`];
  if (state.format !== '') parts.push(state.format, state.task);
  parts.push(`${tokens(state.finishedTokens + Math.ceil(inFlight / 4))} tokens out`);
  return parts.join(' · ');
}
