// The page's handle on the take-away worker, loaded on the first click that
// needs it (a diff or a zip). A worker that dies fails the calls in flight
// and is replaced on the next call.

import { wrap, type Remote } from 'comlink';
import type { TakeawayApi } from './takeaway.worker.ts';
import type { FileText } from './plan.ts';
import type { ZipOut } from './zip.ts';

let worker: Worker | null = null;
let api: Remote<TakeawayApi> | null = null;
const inflight = new Set<(error: Error) => void>();

function start(): Remote<TakeawayApi> {
  if (api) return api;
  const w = new Worker(new URL('./takeaway.worker.ts', import.meta.url), { type: 'module', name: 'ln-diff take-away' });
  w.addEventListener('error', (event) => {
    event.preventDefault();
    if (w !== worker) return;
    w.terminate();
    worker = api = null;
    const error = new Error(event.message || 'the worker stopped');
    for (const reject of [...inflight]) reject(error);
    inflight.clear();
  });
  worker = w;
  api = wrap<TakeawayApi>(w);
  return api;
}

function call<T>(fn: (api: Remote<TakeawayApi>) => Promise<T>): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const fail = (error: Error) => {
      inflight.delete(fail);
      reject(error);
    };
    inflight.add(fail);
    fn(start()).then(
      (value) => {
        inflight.delete(fail);
        resolve(value);
      },
      (error: unknown) => fail(error instanceof Error ? error : new Error(String(error))),
    );
  });
}

/** Every changed file as one unified diff. */
export function makePatch(files: FileText[]): Promise<string> {
  return call((a) => a.patch(files));
}

/** The changed files as one zip. */
export function makeZip(files: FileText[]): Promise<ZipOut> {
  return call((a) => a.zip(files));
}
