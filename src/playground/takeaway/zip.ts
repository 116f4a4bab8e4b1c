// The changed files as one zip (fflate): each file's text after, as UTF-8,
// under its path with its folders (names made safe and unique by zipNames).
// Entries are added one by one by name (fflate's Zip stream), not through an
// object keyed by name, so any name works, `__proto__` included.

import { strToU8, Zip, ZipDeflate } from 'fflate';
import { writtenFiles, zipNames, type FileText } from './plan.ts';

export interface ZipOut {
  bytes: Uint8Array;
  /** The names in the zip, in order. */
  names: string[];
  /** Changed files left out because the result deletes them. */
  deleted: string[];
}

/** A zip of every file the result changes or creates; the deleted ones are listed, not zipped. */
export function zipChanged(files: readonly FileText[], mtime: Date = new Date()): ZipOut {
  const written = writtenFiles(files);
  const names = zipNames(written.map((f) => f.name));
  const chunks: Uint8Array[] = [];
  let failure: Error | null = null;
  // With ZipDeflate (not the Async one) every callback runs before the call that caused it returns.
  const zip = new Zip((error, chunk) => {
    if (error) failure = error;
    else chunks.push(chunk);
  });
  written.forEach((f, i) => {
    const entry = new ZipDeflate(names[i], { level: 6 });
    entry.mtime = mtime;
    // Made on Unix, mode 0644: unzip then reads the UTF-8 names as UTF-8 (not as a DOS code page).
    entry.os = 3;
    entry.attrs = 0o100644 * 0x10000;
    zip.add(entry);
    entry.push(strToU8(f.after ?? ''), true);
  });
  zip.end();
  if (failure) throw failure;
  const bytes = new Uint8Array(chunks.reduce((n, c) => n + c.length, 0));
  let at = 0;
  for (const c of chunks) {
    bytes.set(c, at);
    at += c.length;
  }
  const deleted = files.filter((f) => f.before !== null && f.after === null).map((f) => f.name);
  return { bytes, names, deleted };
}
