// The results table of a run: one line per format (counts and rates of
// parsed, applied and exact replies, edits by match, failures by code, the
// statuses other than done, medians of tokens and times), and which format
// is best in each column. Stopped replies are not counted. No DOM, no `node:`.

import type { BenchReply, BenchRun, FormatSummary, ReplyStatus } from './types.ts';

/** How an edit of a reply landed, in the order the tables, the run file and the CLI list them. */
export const MATCH_KINDS = ['exact', 'offset', 'whitespace', 'fuzzy', 'failed'] as const;

/** The median of some numbers (the mean of the middle two for an even count); null for none. */
export function median(values: readonly number[]): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

const present = (values: readonly (number | null)[]): number[] => values.filter((v): v is number => v !== null);

function summaryOf(format: string, all: readonly BenchReply[]): FormatSummary {
  const replies = all.filter((r) => r.format === format && r.status !== 'stopped');
  const n = replies.length;
  const count = (pick: (r: BenchReply) => boolean) => replies.filter(pick).length;
  const parsed = count((r) => r.score.parsed);
  const applied = count((r) => r.score.applied);
  const exact = count((r) => r.score.exact);
  const matches = { exact: 0, offset: 0, whitespace: 0, fuzzy: 0, failed: 0 };
  const codes: FormatSummary['codes'] = {};
  const statuses: Partial<Record<ReplyStatus, number>> = {};
  for (const r of replies) {
    for (const k of Object.keys(matches) as (keyof typeof matches)[]) matches[k] += r.score.matches[k] ?? 0;
    for (const [code, c] of Object.entries(r.score.codes) as [keyof FormatSummary['codes'], number][]) codes[code] = (codes[code] ?? 0) + c;
    if (r.status !== 'done') statuses[r.status] = (statuses[r.status] ?? 0) + 1;
  }
  const rate = (k: number) => (n === 0 ? 0 : k / n);
  return {
    format,
    replies: n,
    parsed,
    applied,
    exact,
    rates: { parsed: rate(parsed), applied: rate(applied), exact: rate(exact) },
    matches,
    codes,
    statuses,
    cutOff: count((r) => r.cutOff === true),
    median: {
      input: median(present(replies.map((r) => r.tokens.input))),
      output: median(present(replies.map((r) => r.tokens.output))),
      firstToken: median(present(replies.map((r) => r.ms.firstToken))),
      total: median(replies.map((r) => r.ms.total)),
    },
    estimated: replies.some((r) => r.tokens.method === 'estimate' && (r.tokens.input !== null || r.tokens.output !== null)),
  };
}

/** One line per format of the run's plan, in its order. */
export function summarize(run: BenchRun): FormatSummary[] {
  return run.config.formats.map((plan) => summaryOf(plan.format, run.replies));
}

/** The columns `best` marks. */
export type BestColumn = 'parsed' | 'applied' | 'exact' | 'input' | 'output' | 'firstToken' | 'total';

/**
 * The formats holding the best value of each column (every one of a tie):
 * the highest rates, the lowest medians. Formats without replies, or without
 * the figure, take no part; a column nobody has is empty.
 */
export function best(summaries: readonly FormatSummary[]): Record<BestColumn, string[]> {
  const counted = summaries.filter((s) => s.replies > 0);
  const pick = (value: (s: FormatSummary) => number | null, better: (a: number, b: number) => boolean): string[] => {
    let top: number | null = null;
    for (const s of counted) {
      const v = value(s);
      if (v !== null && (top === null || better(v, top))) top = v;
    }
    return top === null ? [] : counted.filter((s) => value(s) === top).map((s) => s.format);
  };
  const high = (a: number, b: number) => a > b;
  const low = (a: number, b: number) => a < b;
  return {
    parsed: pick((s) => s.rates.parsed, high),
    applied: pick((s) => s.rates.applied, high),
    exact: pick((s) => s.rates.exact, high),
    input: pick((s) => s.median.input, low),
    output: pick((s) => s.median.output, low),
    firstToken: pick((s) => s.median.firstToken, low),
    total: pick((s) => s.median.total, low),
  };
}

/** A rate 0..1 as a whole percentage, as the page and the CLI show it: rounded, but never 0 or 100 unless it is exactly that. */
export function wholePercent(rate: number): number {
  return Math.min(Math.max(Math.round(rate * 100), rate > 0 ? 1 : 0), rate < 1 ? 99 : 100);
}

/** The requests a run makes: every task in every format, less the pairs it did not ask (a format that cannot say the change). */
export function askedCount(run: Pick<BenchRun, 'config' | 'skipped'>): number {
  return run.config.tasks.length * run.config.formats.length - (run.skipped?.length ?? 0);
}
