// Write changes as a standard unified diff: `--- a/PATH`, `+++ b/PATH`,
// numbered hunks with three lines of context, `\ No newline at end of file`
// where a side lacks a final newline, `/dev/null` for created and deleted
// files. The line diff is jsdiff's (through core's `writableSplices`).

import { writableSplices } from '../../core/hunks.ts';
import { lacksFinalNewline, parseText } from '../../core/text.ts';
import type { FileChange } from '../../core/types.ts';

export const NO_NEWLINE = '\\ No newline at end of file';

/**
 * The hunks (header and body lines, without line endings) that turn
 * `before` into `after`, each with `context` unchanged lines around its
 * changes; hunks closer than twice that are merged, as diff does.
 */
export function hunkLines(before: string, after: string, context = 3): string[] {
  const a = parseText(before);
  const b = parseText(after);
  // The last line of a text without a final newline differs from the same line with one.
  const tokens = (lines: string[], noEol: boolean) => lines.map((l, i) => (noEol && i === lines.length - 1 ? 'N' : 'L') + l);
  const ta = tokens(a.lines, lacksFinalNewline(a));
  const tb = tokens(b.lines, lacksFinalNewline(b));
  const splices = writableSplices(ta, tb);
  const out: string[] = [];
  let delta = 0; // new line index minus old line index before the current group
  let k = 0;
  while (k < splices.length) {
    // A group of splices whose gaps are at most 2 * context lines.
    let last = k;
    while (last + 1 < splices.length && splices[last + 1].from - splices[last].to <= 2 * context) last++;
    const from = Math.max(0, splices[k].from - context);
    const to = Math.min(ta.length, splices[last].to + context);
    const body: string[] = [];
    let oldCount = 0;
    let newCount = 0;
    const emit = (prefix: string, token: string) => {
      body.push(prefix + token.slice(1));
      if (token[0] === 'N') body.push(NO_NEWLINE);
    };
    let pos = from;
    let groupDelta = 0;
    for (let s = k; s <= last; s++) {
      const sp = splices[s];
      for (; pos < sp.from; pos++, oldCount++, newCount++) emit(' ', ta[pos]);
      const removed = ta.slice(sp.from, sp.to);
      // A removed line `-- x` right before an added line `++ y` would read as a file header:
      // write the added lines first then (the order within a change is free).
      const swap = removed.length > 0 && sp.lines.length > 0 && removed[removed.length - 1].slice(1).startsWith('-- ') && sp.lines[0].slice(1).startsWith('++ ');
      const minus = () => removed.forEach((t) => emit('-', t));
      const plus = () => sp.lines.forEach((t) => emit('+', t));
      if (swap) {
        plus();
        minus();
      } else {
        minus();
        plus();
      }
      oldCount += removed.length;
      newCount += sp.lines.length;
      groupDelta += sp.lines.length - removed.length;
      pos = sp.to;
    }
    for (; pos < to; pos++, oldCount++, newCount++) emit(' ', ta[pos]);
    const oldStart = oldCount === 0 ? from : from + 1;
    const newStart = newCount === 0 ? from + delta : from + delta + 1;
    out.push(`@@ -${oldStart},${oldCount} +${newStart},${newCount} @@`, ...body);
    delta += groupDelta;
    k = last + 1;
  }
  return out;
}

/** One file's diff: the header pair and its hunks. Nothing when the texts are equal. */
export function fileDiff({ file, before, after }: FileChange): string[] {
  if (before === after) return [];
  const minus = before === null ? '--- /dev/null' : `--- a/${file}`;
  const plus = after === null ? '+++ /dev/null' : `+++ b/${file}`;
  return [minus, plus, ...hunkLines(before ?? '', after ?? '')];
}

export function writeUdiff(changes: readonly FileChange[]): string {
  const lines = changes.flatMap(fileDiff);
  return lines.length ? lines.join('\n') + '\n' : '';
}
