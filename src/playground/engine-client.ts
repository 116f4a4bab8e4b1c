// The page's handle on the engine worker: one run at a time, the newest input
// wins (older results are dropped by sequence number), a run that takes too
// long is stopped by terminating the worker, and a worker that dies is
// replaced. The engine itself never runs on the main thread.

import { wrap, type Remote } from 'comlink';
import type { EngineApi } from '../worker/engine.worker.ts';
import type { PreparedSource, RunInput, RunOutput } from '../worker/protocol.ts';

export type EngineEvent =
  | { kind: 'running' }
  | { kind: 'result'; output: RunOutput }
  | { kind: 'timeout'; ms: number }
  | { kind: 'crash'; message: string }
  | { kind: 'cancelled' }
  | { kind: 'idle' };

interface Job {
  seq: number;
  call: (api: Remote<EngineApi>) => Promise<RunOutput | number>;
}

export class EngineClient {
  /** A run taking longer than this is cancelled (milliseconds). */
  timeoutMs = 3000;
  private worker!: Worker;
  private api!: Remote<EngineApi>;
  private seq = 0;
  private running: Job | null = null;
  private pending: Job | null = null;
  private timer: ReturnType<typeof setTimeout> | undefined;

  constructor(private readonly listener: (event: EngineEvent) => void) {
    this.start();
  }

  private start(): void {
    const worker = new Worker(new URL('../worker/engine.worker.ts', import.meta.url), { type: 'module', name: 'ln-diff engine' });
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
    this.api = wrap<EngineApi>(worker);
  }

  private restart(): void {
    clearTimeout(this.timer);
    this.worker.terminate();
    this.running = null;
    this.start();
  }

  /** Run the engine on this input; only the newest request's result is reported. */
  run(input: RunInput): void {
    this.enqueue((api) => api.run(input));
  }

  /**
   * The source as a format shows it to a model (for a live run). Outside the
   * run queue; rejects if the worker does not answer within `timeoutMs` × 3.
   */
  prepare(files: { name: string; text: string }[], format: string): Promise<PreparedSource> {
    return new Promise<PreparedSource>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('the engine did not answer')), this.timeoutMs * 3);
      this.api.prepare(files, format).then(
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
    this.restart();
    this.listener({ kind: 'cancelled' });
  }

  /** Test hooks: a run that spins for `ms`, and a worker that crashes. */
  spin(ms: number): void {
    this.enqueue((api) => api.spin(ms));
  }
  crash(): void {
    void this.api.crash();
  }

  private enqueue(call: Job['call']): void {
    this.pending = { seq: ++this.seq, call };
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
    job.call(this.api).then(
      (output) => {
        if (this.running !== job) return; // cancelled or replaced meanwhile
        clearTimeout(this.timer);
        this.running = null;
        if (typeof output === 'object' && job.seq === this.seq) this.listener({ kind: 'result', output });
        this.finish();
      },
      (error: unknown) => {
        if (this.running !== job) return;
        clearTimeout(this.timer);
        this.running = null;
        if (job.seq === this.seq)
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
