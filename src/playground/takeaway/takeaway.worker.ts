// The unified diff and the zip, off the main thread: both scale with the
// files (up to megabytes each), and a click must not freeze the page.

import { expose, transfer } from 'comlink';
import { unifiedDiff } from './patch.ts';
import { zipChanged, type ZipOut } from './zip.ts';
import type { FileText } from './plan.ts';

const api = {
  patch(files: FileText[]): string {
    return unifiedDiff(files);
  },
  zip(files: FileText[]): ZipOut {
    const out = zipChanged(files);
    return transfer(out, [out.bytes.buffer as ArrayBuffer]);
  },
};

export type TakeawayApi = typeof api;

expose(api);
