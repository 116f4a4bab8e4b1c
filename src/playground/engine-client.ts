// The page's handle on the engine worker: one call at a time, and only the
// newest waiting one (its input is made when it is sent, so changes made
// meanwhile travel together); a run that takes too long is stopped by
// terminating the worker, and a worker that dies is replaced. A new worker
// has none of the page's documents: `onRestart` tells the page to send them
// whole. The engine itself never runs on the main thread.

import { wrap, type Remote } from 'comlink';
import type { EngineApi } from '../worker/engine.ts';
import type { MergeAsk, MergeOutput, PreparedSource, RunInput, RunOutput } from '../worker/protocol.ts';

export type EngineEvent =
  | { kind: 'running' }
  | { kind: 'result'; output: RunOutput; input: RunInput }
  | { kind: 'merge'; output: MergeOutput | null }
  | { kind: 'timeout'; ms: number }
  | { kind: 'crash'; message: string }
  | { kind: 'cancelled' }
  | { kind: 'idle' };

/** The test hooks' worker adds these (see src/worker/engine-hooks.worker.ts). */
interface HookApi {
  spin(ms: number): number;
  crash(): void;
}

type Call = (api: Remote<EngineApi & HookApi>) => Promise<EngineEvent | null>;

export class EngineClient {
  /** A run taking longer than this is cancelled (milliseconds). */
  timeoutMs = 3000;
  private worker!: Worker;
  private api!: Remote<EngineApi & HookApi>;
  private running: Call | null = null;
  private pending: Call | null = null;
  /** The waiting call is a run (a merge does not take its place: the run asks for the result view itself). */
  private pendingRun = false;
  private timer: ReturnType<typeof setTimeout> | undefined;

  /**
   * `hooks`: load the worker with the test hooks (the page's `?test-hooks`).
   * `onRestart`: a new worker replaced the old one (the documents must be sent whole).
   */
  constructor(
    private readonly listener: (event: EngineEvent) => void,
    private readonly onRestart: () => void,
    private readonly hooks = false,
  ) {
    this.start();
  }

  private start(): void {
    const worker = this.hooks
      ? new Worker(new URL('../worker/engine-hooks.worker.ts', import.meta.url), { type: 'module', name: 'ln-diff engine' })
      : new Worker(new URL('../worker/engine.worker.ts', import.meta.url), { type: 'module', name: 'ln-diff engine' });
    worker.addEventListener('error', (event) => {
      event.preventDefault();
      if (worker !== this.worker) return;
      const message = event.message || 'the worker stopped unexpectedly';
      this.restart();
      this.listener({ kind: 'crash', message });
      this.finish();
    });
    worker.addEventListener('messageerror', () => {
      if (worker !== this.worker) return;
      this.restart();
      this.listener({ kind: 'crash', message: 'a message from the worker could not be read' });
      this.finish();
    });
    this.worker = worker;
    this.api = wrap<EngineApi & HookApi>(worker);
  }

  private restart(): void {
    clearTimeout(this.timer);
    this.worker.terminate();
    this.running = null;
    this.start();
    this.onRestart();
  }

  /** Run the engine; `input` is called when the run is sent (after the one in flight). */
  run(input: () => RunInput): void {
    this.enqueue(async (api) => {
      const made = input();
      return { kind: 'result', output: await api.run(made), input: made };
    }, true);
  }

  /** The result view's content for another file, from the last run (unless a run waits: it asks for it). */
  merge(ask: () => MergeAsk): void {
    if (this.pending && this.pendingRun) return;
    this.enqueue(async (api) => ({ kind: 'merge', output: await api.merge(ask()) }), false);
  }

  /**
   * The source as a format shows it to a model (for a live run). Outside the
   * run queue; rejects if the worker does not answer within `timeoutMs` × 3.
   */
  prepare(files: { name: string; text: string }[], format: string): Promise<PreparedSource> {
    return this.answer(this.api.prepare(files, format));
  }

  /**
   * The digest of run `run`'s result (null: the engine threw on it, a later
   * run replaced it, or the worker did not answer within `timeoutMs` × 3).
   * Outside the run queue: the worker answers between runs.
   */
  digest(run: number): Promise<string | null> {
    return this.answer(this.api.digest(run)).catch(() => null);
  }

  /** A call outside the run queue: its answer, or a rejection if the worker does not answer within `timeoutMs` × 3. */
  private answer<T>(call: Promise<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('the engine did not answer')), this.timeoutMs * 3);
      call.then(
        (value) => {
          clearTimeout(timer);
          resolve(value);
        },
        (error: unknown) => {
          clearTimeout(timer);
          reject(error instanceof Error ? error : new Error(String(error)));
        },
      );
    });
  }

  /** Stop the run in flight (and drop any waiting one) by replacing the worker. */
  cancel(): void {
    if (!this.running && !this.pending) return;
    this.pending = null;
    this.pendingRun = false;
    this.restart();
    this.listener({ kind: 'cancelled' });
  }

  /** Test hooks (only with `hooks`): a run that spins for `ms`, and a worker that crashes. */
  spin(ms: number): void {
    this.enqueue(async (api) => (await api.spin(ms), null), false);
  }
  crash(): void {
    void this.api.crash();
  }

  private enqueue(call: Call, run: boolean): void {
    this.pending = call;
    this.pendingRun = run;
    if (!this.running) this.pump();
  }

  private pump(): void {
    const job = this.pending;
    if (!job) return;
    this.pending = null;
    this.running = job;
    this.listener({ kind: 'running' });
    const started = performance.now();
    this.timer = setTimeout(() => {
      if (this.running !== job) return;
      this.restart();
      this.listener({ kind: 'timeout', ms: Math.round(performance.now() - started) });
      this.finish();
    }, this.timeoutMs);
    let sent: Promise<EngineEvent | null>;
    try {
      sent = job(this.api);
    } catch (error) {
      sent = Promise.reject(error);
    }
    sent.then(
      (event) => {
        if (this.running !== job) return; // cancelled or replaced meanwhile
        clearTimeout(this.timer);
        this.running = null;
        // Every finished run is reported: it is exact for its input, and the
        // worker's copy of the documents and of the shown merge moved with it.
        if (event) this.listener(event);
        this.finish();
      },
      (error: unknown) => {
        if (this.running !== job) return;
        clearTimeout(this.timer);
        this.running = null;
        // The worker may have lost track of the documents: start afresh.
        this.restart();
        this.listener({ kind: 'crash', message: error instanceof Error ? error.message : String(error) });
        this.finish();
      },
    );
  }

  private finish(): void {
    if (!this.running && this.pending) this.pump();
    else if (!this.running) this.listener({ kind: 'idle' });
  }
}
