// `apply --json`'s output: the result as one line of JSON, exactly as
// `JSON.stringify(result)` writes it, with each large file text written
// apart, escaped a chunk at a time. Escaped whole, a large file would be one
// more copy of it, built in the young heap while the line grows, and moved by
// every collection until the line is done.

import type { ApplyResult } from '../core/types.ts';
import { JSON_CHUNK, writeJsonString, writeStdout } from './stdout.ts';

/** Stands for a file's text in the JSON of the rest of the result. */
const MARK = '\u0000ln-diff text ';

export function writeResult(result: ApplyResult): void {
  const texts: string[] = [];
  const files = Object.fromEntries(
    Object.entries(result.files).map(([path, text]) => [
      path,
      text !== null && text.length >= JSON_CHUNK ? `${MARK}${texts.push(text) - 1}` : text,
    ]),
  );
  const whole = () => writeStdout(JSON.stringify(result) + '\n');
  if (texts.length === 0) return whole();
  // Object.fromEntries keeps the keys' order (and makes `__proto__` an own key); the spread keeps `files` in its place.
  const rest = JSON.stringify({ ...result, files });
  // Each mark's JSON must stand exactly once in the rest (a file or path could hold the same characters).
  const marks = texts.map((_, k) => JSON.stringify(`${MARK}${k}`));
  const at = marks.map((mark) => rest.indexOf(mark));
  if (at.some((i, k) => i < 0 || rest.lastIndexOf(marks[k]) !== i)) return whole();
  let from = 0;
  for (const [k, i] of at.entries()) {
    writeStdout(rest.slice(from, i));
    writeJsonString(texts[k]);
    from = i + marks[k].length;
  }
  writeStdout(rest.slice(from) + '\n');
}
