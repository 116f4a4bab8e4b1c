// A run as a file and as a link, on the page's side: saving a text as a
// download, reading a chosen or dropped file (with a size limit checked
// before it is read), and the share link's address and its length limit.

import { saveFile } from '../../playground/dom.ts';

/** Share links longer than this are refused (browsers and chat apps cut them); the JSON file is offered instead. */
export const MAX_LINK = 65_536;
/** A run file larger than this is not read (readRun's own limit is in characters). */
export const MAX_FILE_BYTES = 128 * 1024 * 1024;

/** Save `text` as a file the browser downloads. */
export function download(text: string, name: string): void {
  saveFile(name, text, 'application/json');
}

/** A file name for a run: the model and the start time, in safe characters. */
export function runFileName(model: string, started: string): string {
  const clean = (s: string) => s.replace(/[^A-Za-z0-9._-]+/g, '-').replace(/^-+|-+$/g, '');
  return `bench-${clean(model) || 'model'}-${clean(started.replace(/\.\d+Z$/, 'Z').replace(/:/g, '')) || 'run'}.json`;
}

/** A chosen or dropped file's text; rejects with a sentence for one too large or unreadable. */
export async function fileText(file: File): Promise<string> {
  if (file.size > MAX_FILE_BYTES) throw new Error(`${file.name} is ${Math.round(file.size / 1024 / 1024)} MB, more than a run file may be`);
  try {
    return await file.text();
  } catch {
    throw new Error(`${file.name} could not be read`);
  }
}

/** The page's address with a run's hash. */
export const shareAddress = (hash: string): string => `${location.origin}${location.pathname}#${hash}`;
