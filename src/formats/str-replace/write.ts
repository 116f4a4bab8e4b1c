// Write changes as text-editor tool calls, one ```json fence per call: a
// `create` for a new file, an `insert` for lines added between unchanged
// ones, and a `str_replace` for each changed stretch, whose old_str is the
// changed lines widened by neighbouring lines until it occurs only once in
// the file. A deleted file cannot be expressed and is left out.

import { writableSplices, spliceRange, widenUntilUnique, type SpliceGroup } from '../../core/hunks.ts';
import { parseText } from '../../core/text.ts';
import type { FileChange } from '../../core/types.ts';
import { occurrences } from './locate.ts';

const block = (lines: readonly string[], from: number, to: number) => lines.slice(from, to).map((l) => l + '\n').join('');

/**
 * A line as written in old_str / new_str: followed by LF, or by CR LF when
 * its text ends in CR (the reader takes CR LF as one line break, so a CR that
 * belongs to the line needs one more after it: the file's own bytes).
 */
const written = (l: string) => l + (l.endsWith('\r') ? '\r\n' : '\n');

/** Merge replacement groups that share a line, and take in insertions strictly inside one. */
function merge(groups: SpliceGroup[]): SpliceGroup[] {
  const out: SpliceGroup[] = [];
  for (const g of [...groups].sort((x, y) => x.from - y.from || x.to - y.to)) {
    const prev = out[out.length - 1];
    const inside = prev && (g.from < prev.to || (g.from === g.to && g.from > prev.from && g.from < prev.to));
    if (prev && prev.from < prev.to && inside) {
      prev.to = Math.max(prev.to, g.to);
      prev.splices.push(...g.splices);
    } else {
      out.push({ from: g.from, to: g.to, splices: [...g.splices] });
    }
  }
  return out;
}

/**
 * The calls for one changed file, as groups of original lines `[from, to)`
 * that old_str holds (an insertion has from === to and is not widened).
 */
export function planCalls(before: readonly string[], after: readonly string[]): SpliceGroup[] {
  const n = before.length;
  const text = block(before, 0, n);
  const groups = writableSplices(before, after).map((s) => ({ from: s.from, to: s.to, splices: [s] }));
  const unique = (g: SpliceGroup) => g.from === g.to || occurrences(text, block(before, g.from, g.to), 2).length <= 1;
  return widenUntilUnique(groups, n, unique, merge);
}


export function writeStrReplace(changes: readonly FileChange[]): string {
  const calls: Record<string, string | number>[] = [];
  for (const { file, before, after } of changes) {
    if (after === null) continue; // deleting a file cannot be expressed
    if (before === null) {
      calls.push({ command: 'create', path: file, file_text: after });
      continue;
    }
    const a = parseText(before).lines;
    for (const g of planCalls(a, parseText(after).lines)) {
      const lines = spliceRange(a, g.from, g.to, g.splices);
      if (g.from === g.to)
        calls.push({ command: 'insert', path: file, insert_line: g.from, new_str: lines.map((l, i) => (i < lines.length - 1 ? written(l) : l)).join('') });
      else calls.push({ command: 'str_replace', path: file, old_str: a.slice(g.from, g.to).map(written).join(''), new_str: lines.map(written).join('') });
    }
  }
  return calls.map((c) => '```json\n' + JSON.stringify(c, null, 2) + '\n```\n').join('\n');
}
