// The page's handle on the link worker: every call has a time limit, and a
// worker that dies or hangs (a hostile link) is replaced, so a call always
// settles. Encoding and decoding never run on the main thread.

import { wrap, type Remote } from 'comlink';
import type { LinkApi } from '../worker/link.worker.ts';

export class LinkClient {
  private worker!: Worker;
  private api!: Remote<LinkApi>;
  /** Rejecters of the calls in flight, for a worker that dies. */
  private readonly inflight = new Set<(error: Error) => void>();

  constructor(private readonly timeoutMs = 20_000) {
    this.start();
  }

  private start(): void {
    const worker = new Worker(new URL('../worker/link.worker.ts', import.meta.url), { type: 'module', name: 'ln-diff links' });
    worker.addEventListener('error', (event) => {
      event.preventDefault();
      if (worker === this.worker) this.restart(new Error(event.message || 'the link worker stopped'));
    });
    this.worker = worker;
    this.api = wrap<LinkApi>(worker);
  }

  private restart(error: Error): void {
    this.worker.terminate();
    for (const reject of [...this.inflight]) reject(error);
    this.inflight.clear();
    this.start();
  }

  /** Run one call on the worker; rejects after the time limit (and replaces the worker). */
  call<T>(fn: (api: Remote<LinkApi>) => Promise<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      const fail = (error: Error) => {
        clearTimeout(timer);
        this.inflight.delete(fail);
        reject(error);
      };
      const timer = setTimeout(() => this.restart(new Error('the link worker took too long')), this.timeoutMs);
      this.inflight.add(fail);
      fn(this.api).then(
        (value) => {
          clearTimeout(timer);
          this.inflight.delete(fail);
          resolve(value);
        },
        (error: unknown) => fail(error instanceof Error ? error : new Error(String(error))),
      );
    });
  }
}
