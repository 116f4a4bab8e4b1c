// Write changes as an ln-diff reply: one editblock per changed stretch.

import { writableSplices } from '../../core/hunks.ts';
import { parseText } from '../../core/text.ts';
import type { FileChange } from '../../core/types.ts';
import { readPathLine } from '../../core/paths.ts';
import { BAR, numberWidth } from './syntax.ts';

/**
 * The path line that the parser reads back as `file`: the path itself when
 * it reads back; with `./` for a new file without a `/` (so that it never
 * lands in a given file with the same last segment); in backticks when it
 * has blanks.
 */
export function pathLine(file: string, given: readonly string[], isNew = false): string {
  const names = (line: string) => {
    const r = readPathLine(line, given, { byName: true });
    return r.kind === 'path' && r.path === file;
  };
  const line = isNew && !file.includes('/') ? './' + file : file;
  if (names(line)) return line;
  const quoted = '`' + (line.startsWith('./') ? line : './' + line) + '`';
  return names(quoted) ? quoted : '`' + file + '`';
}

/** One editblock: remove original lines `[from, to)` (0-based) of `before`, insert `lines`. */
export function editblock(path: string, before: readonly string[], from: number, to: number, lines: readonly string[]): string {
  const width = numberWidth(Math.max(to, 1));
  const pad = ' '.repeat(width);
  let out = `${path}\n<editblock>\n<<<<<<< REMOVE\n`; // `path` as pathLine() writes it
  for (let i = from; i < to; i++) out += String(i + 1).padStart(width, ' ') + BAR + before[i] + '\n';
  out += '=======\n';
  for (const line of lines) out += pad + BAR + line + '\n';
  out += '>>>>>>> INSERT\n</editblock>\n';
  return out;
}

/**
 * Write each change as editblocks against the original numbers. A pure
 * insertion borrows its neighbouring line (ln-diff can only insert by
 * replacing), or becomes an append at the end of the file. ln-diff cannot
 * delete a file: a deletion is written as removing every line.
 */
export function writeLnDiff(changes: readonly FileChange[]): string {
  const blocks: string[] = [];
  const given = changes.filter((c) => c.before !== null).map((c) => c.file);
  for (const { file: name, before, after } of changes) {
    const file = pathLine(name, given, before === null);
    const a = before === null ? [] : parseText(before).lines;
    const b = after === null ? [] : parseText(after).lines;
    const splices = writableSplices(a, b);
    // A new empty file is created by an append of no lines.
    if (splices.length === 0 && before === null && after !== null) splices.push({ from: 0, to: 0, lines: [] });
    for (const s of splices) {
      if (s.from < s.to) blocks.push(editblock(file, a, s.from, s.to, s.lines));
      else if (s.from === a.length) blocks.push(editblock(file, a, s.from, s.from, s.lines));
      else blocks.push(editblock(file, a, s.from, s.from + 1, [...s.lines, a[s.from]]));
    }
  }
  return blocks.join('\n');
}
