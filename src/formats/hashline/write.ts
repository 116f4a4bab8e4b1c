// Write changes as hashline tool calls: one JSON edit call per changed
// stretch, tagged from `before`, each on its own line; new files as write calls.

import { writableSplices } from '../../core/hunks.ts';
import { parseText } from '../../core/text.ts';
import type { FileChange } from '../../core/types.ts';
import { lineTag } from './tag.ts';

/**
 * `"new"` for these lines: a string with a line break between lines (and
 * after the last one when it is empty, so that it survives), or an array
 * when a line ends with CR (a string would read that CR as part of CR LF).
 */
export function newValue(lines: readonly string[]): string | string[] {
  if (lines.some((l) => l.endsWith('\r'))) return [...lines];
  const text = lines.join('\n');
  return lines.length > 0 && lines[lines.length - 1] === '' ? text + '\n' : text;
}

/** One edit call replacing original lines `[from, to)` (0-based) of `before` with `lines`; `from === to` inserts. */
export function editCall(path: string, before: readonly string[], from: number, to: number, lines: readonly string[]): string {
  const cite = (first: number, last: number): Record<string, unknown> =>
    first === last
      ? { line: first + 1, tag: lineTag(before[first]) }
      : { lines: before.slice(first, last + 1).map((l, k) => `${first + k + 1}:${lineTag(l)}`).join('\n') };
  let call: Record<string, unknown>;
  if (from === to) {
    call = from === 0 ? { line: 0 } : cite(from - 1, from - 1);
    call = { tool: 'edit', path, op: 'insert_after', ...call, new: newValue(lines) };
  } else if (lines.length === 0) {
    call = { tool: 'edit', path, op: 'delete', ...cite(from, to - 1) };
  } else {
    call = { tool: 'edit', path, ...cite(from, to - 1), new: newValue(lines) };
  }
  return JSON.stringify(call);
}

/**
 * Write each change as edit calls against the original numbers. A new file
 * (`before` null) is one write call. hashline cannot delete a file: a
 * deletion is written as removing every line.
 */
export function writeHashline(changes: readonly FileChange[]): string {
  const calls: string[] = [];
  for (const { file, before, after } of changes) {
    const b = after === null ? [] : parseText(after).lines;
    if (before === null) {
      calls.push(JSON.stringify({ tool: 'write', path: file, content: b.map((l) => l + '\n').join('') }));
      continue;
    }
    const a = parseText(before).lines;
    for (const s of writableSplices(a, b)) calls.push(editCall(file, a, s.from, s.to, s.lines));
  }
  return calls.map((c) => c + '\n').join('');
}
