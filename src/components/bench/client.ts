// The Bench page's handle on its worker (src/worker/bench.worker.ts). Every
// call settles: a worker that dies rejects the calls in flight and is
// replaced, so a run that was going ends with a message, not a hang.

import { proxy, wrap, type Remote } from 'comlink';
import type { BenchApi, RunNews } from '../../worker/bench.worker.ts';

export type { BenchApi, Opened, Prompts, RunNews, RunView } from '../../worker/bench.worker.ts';

export class BenchClient {
  private worker!: Worker;
  private api!: Remote<BenchApi>;
  private readonly inflight = new Set<(error: Error) => void>();
  /** Counts the workers started: a new one holds nothing the page sent the old one. */
  generation = 0;

  constructor() {
    this.start();
  }

  private start(): void {
    const worker = new Worker(new URL('../../worker/bench.worker.ts', import.meta.url), { type: 'module', name: 'ln-diff bench' });
    const fail = (message: string) => {
      if (worker !== this.worker) return;
      worker.terminate();
      const error = new Error(message);
      for (const reject of [...this.inflight]) reject(error);
      this.inflight.clear();
      this.start();
    };
    worker.addEventListener('error', (event) => {
      event.preventDefault();
      fail(event.message || 'the bench worker stopped unexpectedly');
    });
    worker.addEventListener('messageerror', () => fail('a message from the bench worker could not be read'));
    this.worker = worker;
    this.api = wrap<BenchApi>(worker);
    this.generation++;
  }

  /** One call on the worker; rejects if the worker dies meanwhile. */
  call<T>(fn: (api: Remote<BenchApi>) => Promise<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      const fail = (error: Error) => {
        this.inflight.delete(fail);
        reject(error);
      };
      this.inflight.add(fail);
      fn(this.api).then(
        (value) => {
          this.inflight.delete(fail);
          resolve(value);
        },
        (error: unknown) => fail(error instanceof Error ? error : new Error(String(error))),
      );
    });
  }

  /** A callback the worker may call back (for a run's news). */
  static listener(fn: (news: RunNews) => void) {
    return proxy(fn);
  }
}
