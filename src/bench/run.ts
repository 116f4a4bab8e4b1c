// A bench run: every task in every planned format, sent to the model at most
// `concurrency` at a time, each reply scored by the engine as it finishes.
// Transient failures (HTTP 429 and 5xx, a dropped connection) are retried
// after the server's Retry-After or a backoff; Stop (the signal) ends the
// run at once, keeping what finished. Nothing here throws for a model or a
// network failure, and the key is passed to the client only: it is never in
// the run, the events or a message. No DOM, no `node:`: the page runs it in
// a worker, the CLI in Node.

import { writeWith, type FormatWriting } from '../formats/compare.ts';
import { getFormat } from '../formats/index.ts';
import type { Format } from '../core/types.ts';
import { realClock, streamReply, type BenchClock, type StreamResult } from './client.ts';
import { estimateTokens } from './count.ts';
import { benchMessage } from './message.ts';
import { emptyScore, scoreReply } from './score.ts';
import { taskChanges, type BenchTask } from './tasks.ts';
import type { BenchConfig, BenchEvent, BenchReply, BenchRun, FormatPlan, SkippedPair, TokenMethod } from './types.ts';

export interface RunOptions {
  config: BenchConfig;
  /** The tasks of `config.tasks`, in that order. */
  tasks: BenchTask[];
  /** The API key: sent as a header, never stored. Empty: none. */
  key: string;
  /** `ln-diff <version>`, recorded in the run. */
  engine: string;
  signal?: AbortSignal;
  onEvent?: (e: BenchEvent) => void;
  fetch?: typeof fetch;
  clock?: BenchClock;
  /** Counts tokens with the model's own tokenizer; null when it has none for the model (the run then estimates). */
  count?: (text: string, model: string) => Promise<{ count: number; method: TokenMethod } | null>;
  /** The origins the page may connect to (its CSP). */
  allowed?: readonly string[];
  /** How each task is written in each format (default `writeTask`; the Bench page's worker keeps what it wrote). */
  write?: TaskWriter;
}

/**
 * The engine's own reply for a task in a format, and whether it reaches the
 * target (the format's writer, then a trial apply of what it wrote): what a
 * perfect reply says, or why the format cannot say the change.
 */
export type TaskWriter = (task: BenchTask, format: Format) => FormatWriting;

/** writeWith on the task's changes, every time. */
export const writeTask: TaskWriter = (task, format) => writeWith(format, taskChanges(task));

/**
 * A TaskWriter that writes each task in each format once: the writer and its
 * trial apply are the same for the same task and format (a suite's tasks do
 * not change), and an estimate is made at every change of the form.
 */
export function cachedWriter(write: TaskWriter = writeTask): TaskWriter & { size(): number } {
  const written = new Map<string, FormatWriting>();
  const cached = (task: BenchTask, format: Format): FormatWriting => {
    const key = `${task.id}\u0000${format.name}`;
    let w = written.get(key);
    if (!w) {
      w = write(task, format);
      written.set(key, w);
    }
    return w;
  };
  return Object.assign(cached, { size: () => written.size });
}

/** The wait before retry `attempt` (1-based) when the server names none: 1 s, 2 s, 4 s ... at most 30 s. */
export const backoffMs = (attempt: number): number => Math.min(30_000, 1000 * 2 ** Math.max(0, attempt - 1));

/** The longest wait before a retry (a Retry-After beyond it ends the reply instead). */
export const MAX_RETRY_WAIT_MS = 120_000;


interface Job {
  task: BenchTask;
  plan: FormatPlan;
  format: Format;
  /** The engine's own writer's reply for the task: what a perfect reply says. */
  ideal: string;
}

/**
 * Every task in every planned format, except the pairs the format cannot
 * say (its writer refuses the change: deleting a file, adding a final line
 * break, mixed line breaks). A perfect reply could not reach the target
 * there, so asking would score the format's vocabulary, not the model:
 * those pairs are listed with the writer's reason instead.
 */
export function planJobs(config: BenchConfig, tasks: readonly BenchTask[], write: TaskWriter = writeTask): { jobs: Job[]; skipped: SkippedPair[] } {
  const formats = config.formats.map((plan) => {
    const format = getFormat(plan.format);
    if (!format) throw new Error(`the run plans format ${JSON.stringify(plan.format)}, which the engine does not know`);
    return { plan, format };
  });
  const jobs: Job[] = [];
  const skipped: SkippedPair[] = [];
  for (const task of tasks) {
    for (const { plan, format } of formats) {
      const written = write(task, format);
      if (written.roundTrip === 'unsupported') skipped.push({ task: task.id, format: plan.format, reason: written.problem ?? 'the format cannot say this change' });
      else jobs.push({ task, plan, format, ideal: written.reply });
    }
  }
  return { jobs, skipped };
}

/**
 * What a run would cost before it starts, estimated from lengths: input is
 * each request's system prompt and user message, output the engine's own
 * writer's reply for the task in that format (characters / 4).
 */
export function estimateRun(
  config: BenchConfig,
  tasks: readonly BenchTask[],
  write: TaskWriter = writeTask,
): { input: number; output: number; method: TokenMethod; requests: number; skipped: number } {
  const { jobs, skipped } = planJobs(config, tasks, write);
  return { ...estimateJobs(jobs), requests: jobs.length, skipped: skipped.length };
}

function estimateJobs(jobs: readonly Job[]): { input: number; output: number; method: TokenMethod } {
  let input = 0;
  let output = 0;
  for (const { task, plan, format, ideal } of jobs) {
    input += estimateTokens(plan.system.length + benchMessage(task, format, plan.reminder).length);
    output += estimateTokens(ideal.length);
  }
  return { input, output, method: 'estimate' };
}

async function tokensOf(
  options: RunOptions,
  system: string,
  user: string,
  got: StreamResult,
): Promise<BenchReply['tokens']> {
  if (got.usage.input !== null && got.usage.output !== null) return { input: got.usage.input, output: got.usage.output, method: 'usage' };
  // Nothing was streamed (refused, not reached): no count to make.
  if (got.text === '' && got.status !== 'done' && got.status !== 'empty') return { input: null, output: null, method: 'estimate' };
  const model = options.config.endpoint.model;
  if (options.count) {
    try {
      const input = await options.count(`${system}\n\n${user}`, model);
      const output = await options.count(got.text, model);
      if (input && output && input.method === output.method) return { input: input.count, output: output.count, method: input.method };
    } catch {
      // A tokenizer that fails leaves the estimate.
    }
  }
  return { input: estimateTokens(system.length + user.length), output: estimateTokens(got.text.length), method: 'estimate' };
}

/** Run the bench. Resolves with the run (also sent as the `end` event); never rejects for a model or network failure. */
export async function runBench(options: RunOptions): Promise<BenchRun> {
  const { config, tasks } = options;
  const clock = options.clock ?? realClock;
  const signal = options.signal ?? new AbortController().signal;
  const emit = (e: BenchEvent) => {
    try {
      options.onEvent?.(e);
    } catch {
      // A listener's failure is not the run's.
    }
  };
  const { jobs, skipped } = planJobs(config, tasks, options.write);
  const run: BenchRun = {
    version: 1,
    engine: options.engine,
    started: new Date(clock.now()).toISOString(),
    finished: null,
    stopped: false,
    config: structuredClone(config),
    replies: [],
    ...(skipped.length ? { skipped } : {}),
  };
  emit({ type: 'start', total: jobs.length, estimate: estimateJobs(jobs) });

  const results: (BenchReply | undefined)[] = new Array(jobs.length);
  // Cleared once the server refuses the usage option, so later requests do not ask for it.
  let askUsage = true;
  let done = 0;
  let next = 0;

  async function one(job: Job): Promise<BenchReply> {
    const { task, plan, format } = job;
    const user = benchMessage(task, format, plan.reminder);
    let attempts = 0;
    let got: StreamResult;
    for (;;) {
      attempts++;
      emit({ type: 'request', task: task.id, format: plan.format, attempt: attempts });
      let chars = 0;
      got = await streamReply({
        endpoint: config.endpoint,
        key: options.key,
        system: plan.system,
        user,
        signal,
        clock,
        idleTimeoutMs: config.idleTimeoutMs,
        usage: askUsage,
        ...(options.fetch ? { fetch: options.fetch } : {}),
        ...(options.allowed ? { allowed: options.allowed } : {}),
        onText: (t) => {
          chars += t.length;
          emit({ type: 'text', task: task.id, format: plan.format, chars });
        },
      });
      if (got.usageRefused) askUsage = false;
      if (!got.transient || attempts > config.retries || signal.aborted) break;
      const waitMs = got.retryAfterMs ?? backoffMs(attempts);
      // A server that asks for a longer wait than a bench run should sit through is not waited for.
      if (waitMs > MAX_RETRY_WAIT_MS) {
        got = { ...got, error: `${got.error ?? 'A transient failure'} The server asked to wait ${Math.ceil(waitMs / 1000)} s before trying again, longer than the bench waits (${MAX_RETRY_WAIT_MS / 1000} s).` };
        break;
      }
      emit({ type: 'retry', task: task.id, format: plan.format, attempt: attempts + 1, waitMs, message: got.error ?? '' });
      try {
        await clock.sleep(waitMs, signal);
      } catch {
        got = { ...got, status: 'stopped', error: 'Stopped before the reply finished.' };
        break;
      }
    }
    if (signal.aborted && got.status !== 'done') got = { ...got, status: 'stopped', error: got.error ?? 'Stopped before the reply finished.' };
    const scored = got.text !== '' ? scoreReply(task, plan.format, got.text) : { score: emptyScore(), retry: null };
    return {
      task: task.id,
      format: plan.format,
      status: got.status,
      error: got.status === 'done' ? null : got.error,
      reply: got.text,
      attempts,
      score: scored.score,
      tokens: await tokensOf(options, plan.system, user, got),
      ms: { firstToken: got.firstTokenMs, total: got.totalMs },
      retry: scored.retry,
      ...(got.cutOff ? { cutOff: true as const } : {}),
    };
  }

  async function worker(): Promise<void> {
    while (!signal.aborted && next < jobs.length) {
      const k = next++;
      const reply = await one(jobs[k]);
      results[k] = reply;
      done++;
      emit({ type: 'reply', reply, done, total: jobs.length });
    }
  }

  const width = Math.max(1, Math.min(Math.floor(config.concurrency) || 1, jobs.length));
  await Promise.all(Array.from({ length: width }, () => worker()));
  run.replies = results.filter((r): r is BenchReply => r !== undefined);
  run.stopped = signal.aborted;
  run.finished = new Date(clock.now()).toISOString();
  emit({ type: 'end', run });
  return run;
}
