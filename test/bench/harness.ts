// Running the bench against the scripted server on the test clock: the
// suite, the prompt table, plans for a model, and a run whose clock moves
// only when the run waits for it (a retry's wait, or every reply in flight
// gone silent after sending all it will send).

import { readFileSync } from 'node:fs';
import { parseSuite, type BenchTask } from '../../src/bench/tasks.ts';
import { formatPlan, promptTable } from '../../src/bench/prompts.ts';
import { BENCH_FORMATS } from '../../src/bench/select.ts';
import { runBench, type RunOptions } from '../../src/bench/run.ts';
import type { BenchApi, BenchConfig, BenchEvent, BenchRun, FormatPlan } from '../../src/bench/types.ts';
import { startBenchServer, type BenchServer, type Stall } from './server.ts';
import type { Behaviour } from './replies.ts';
import { TestClock } from './clock.ts';

const root = new URL('../../', import.meta.url);
export const suite = parseSuite(JSON.parse(readFileSync(new URL('bench/tasks/suite.json', root), 'utf8')));
export const table = promptTable(BENCH_FORMATS.map((format) => ({ format, markdown: readFileSync(new URL(`spec/prompts/${format}.md`, root), 'utf8') })));
export const task = (id: string): BenchTask => suite.tasks.find((t) => t.id === id)!;

export const KEY = 'sk-test-0123456789-SECRET';
export const IDLE_MS = 600_000;
export const MODEL: Record<BenchApi, string> = { openai: 'gpt-4.1', anthropic: 'claude-sonnet-4-5' };

export const plansFor = (api: BenchApi, formats: readonly string[]): FormatPlan[] => formats.map((f) => formatPlan(table, f, MODEL[api]));

export interface Bench {
  run: BenchRun;
  events: BenchEvent[];
  server: BenchServer;
  clock: TestClock;
}

/**
 * Run `tasks` × `formats` against a scripted server answering with
 * `behaviour`. `abortAfter`: Stop once that many replies are in.
 */
export async function bench(args: {
  api: BenchApi;
  tasks: readonly BenchTask[];
  formats: readonly string[];
  behaviour: (task: string, format: string) => Behaviour;
  concurrency?: number;
  retries?: number;
  abortAfter?: number;
  /** Keep stalled replies silent (never fire the idle timeout). */
  holdStalls?: boolean;
  /** The server holds every stream until this many are open at once. */
  gate?: number;
  options?: Partial<RunOptions>;
}): Promise<Bench> {
  const clock = new TestClock();
  const plans = plansFor(args.api, args.formats);
  const inflight = new Set<string>();
  const chars = new Map<string, number>();
  const stalls = new Map<string, Stall>();
  let firing = false;
  // Fire the idle timeout once every reply in flight has sent, and the run read, all it will.
  const check = () => {
    if (args.holdStalls || firing || inflight.size === 0) return;
    for (const key of inflight) {
      const stall = stalls.get(key);
      if (!stall || chars.get(key) !== stall.sent.length) return;
    }
    firing = true;
    queueMicrotask(() => {
      firing = false;
      for (const key of inflight) stalls.delete(key);
      clock.advance(IDLE_MS);
    });
  };
  const server = await startBenchServer({
    tasks: args.tasks,
    plans,
    behaviour: args.behaviour,
    key: KEY,
    ...(args.gate !== undefined ? { gate: args.gate } : {}),
    onStall: (s) => {
      stalls.set(`${s.task} ${s.format}`, s);
      check();
    },
  });
  const controller = new AbortController();
  const events: BenchEvent[] = [];
  const config: BenchConfig = {
    endpoint: { api: args.api, baseUrl: server.base, model: MODEL[args.api] },
    formats: plans,
    tasks: args.tasks.map((t) => t.id),
    concurrency: args.concurrency ?? 3,
    retries: args.retries ?? 2,
    idleTimeoutMs: IDLE_MS,
  };
  try {
    const run = await runBench({
      config,
      tasks: [...args.tasks],
      key: KEY,
      engine: 'ln-diff 0.1.0',
      signal: controller.signal,
      clock,
      onEvent: (e) => {
        events.push(e);
        if (e.type === 'request') {
          inflight.add(`${e.task} ${e.format}`);
          chars.set(`${e.task} ${e.format}`, 0);
        }
        if (e.type === 'text') {
          chars.set(`${e.task} ${e.format}`, e.chars);
          check();
        }
        if (e.type === 'retry') queueMicrotask(() => clock.advance(e.waitMs));
        if (e.type === 'reply') {
          inflight.delete(`${e.reply.task} ${e.reply.format}`);
          if (args.abortAfter !== undefined && e.done === args.abortAfter) controller.abort();
        }
      },
      ...args.options,
    });
    return { run, events, server, clock };
  } finally {
    await server.close();
  }
}
