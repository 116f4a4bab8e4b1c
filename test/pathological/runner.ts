// Run pathological jobs in a worker thread, so that a job that hangs (an
// engine that went quadratic) is stopped after a time limit instead of
// stopping the test run: the worker is terminated and the job reported as
// not completed. Used by the pathological tests and bench/scaling.bench.ts.

import { Worker } from 'node:worker_threads';
import type { Done, Job } from './work.ts';

export type { Done, Job, Outcome } from './work.ts';

export class TimedOut extends Error {
  override name = 'TimedOut';
}

export class Runner {
  private worker: Worker | null = null;
  private next = 1;

  /** Run one job; rejects with TimedOut (and stops the worker) after `limitMs`. */
  run(job: Omit<Job, 'id'>, limitMs: number): Promise<Done> {
    const worker = (this.worker ??= new Worker(new URL('./worker.mjs', import.meta.url), { resourceLimits: { maxOldGenerationSizeMb: 4096 } }));
    const id = this.next++;
    return new Promise<Done>((resolve, reject) => {
      const done = (fn: () => void) => {
        clearTimeout(timer);
        worker.off('message', onMessage);
        worker.off('error', onError);
        fn();
      };
      const onMessage = (d: Done) => {
        if (d.id === id) done(() => resolve(d));
      };
      const onError = (err: Error) => {
        this.worker = null;
        done(() => reject(err));
      };
      const timer = setTimeout(() => {
        this.worker = null;
        void worker.terminate();
        done(() => reject(new TimedOut(`${job.family} for ${job.format} at scale ${job.scale} did not complete in ${limitMs / 1000} s`)));
      }, limitMs);
      worker.on('message', onMessage);
      worker.on('error', onError);
      worker.postMessage({ ...job, id });
    });
  }

  async close(): Promise<void> {
    const w = this.worker;
    this.worker = null;
    if (w) await w.terminate();
  }
}
