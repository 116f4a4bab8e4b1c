// Write changes as one apply_patch (V4A) patch: new files as `*** Add File`,
// deleted files as `*** Delete File`, changed files as `*** Update File` with
// one chunk per changed stretch, three lines of context on each side,
// widened until the chunk's old lines occur only once in the file.

import { writableSplices, widenUntilUnique, type SpliceGroup } from '../../core/hunks.ts';
import { parseText } from '../../core/text.ts';
import type { FileChange } from '../../core/types.ts';
import { ADD, BEGIN, DELETE, END, UPDATE } from './parse.ts';

export const CONTEXT = 3;

/** How many times `old` occurs in `lines` (stops counting at 2). */
function occurrences(lines: readonly string[], old: readonly string[]): number {
  let count = 0;
  outer: for (let s = 0; s + old.length <= lines.length; s++) {
    for (let i = 0; i < old.length; i++) if (lines[s + i] !== old[i]) continue outer;
    if (++count > 1) return count;
  }
  return count;
}

/** Merge groups that share a line. */
function merge(groups: SpliceGroup[]): SpliceGroup[] {
  const out: SpliceGroup[] = [];
  for (const g of [...groups].sort((x, y) => x.from - y.from)) {
    const prev = out[out.length - 1];
    if (prev && g.from < prev.to) {
      prev.to = Math.max(prev.to, g.to);
      prev.splices.push(...g.splices);
    } else {
      out.push({ from: g.from, to: g.to, splices: [...g.splices] });
    }
  }
  return out;
}

/** The chunks for one file: groups of splices with their context (the original lines `[from, to)` a chunk cites), each unique in `before`. */
export function planChunks(before: readonly string[], after: readonly string[], context = CONTEXT): SpliceGroup[] {
  const n = before.length;
  const groups = merge(
    writableSplices(before, after).map((s) => ({ from: Math.max(0, s.from - context), to: Math.min(n, s.to + context), splices: [s] })),
  );
  return widenUntilUnique(groups, n, (g) => occurrences(before, before.slice(g.from, g.to)) <= 1, merge);
}

/** The chunk's lines: context ` `, removed `-`, added `+`. */
export function chunkLines(before: readonly string[], g: SpliceGroup): string[] {
  const out: string[] = [];
  let i = g.from;
  for (const s of [...g.splices].sort((x, y) => x.from - y.from)) {
    for (; i < s.from; i++) out.push(' ' + before[i]);
    for (; i < s.to; i++) out.push('-' + before[i]);
    for (const l of s.lines) out.push('+' + l);
  }
  for (; i < g.to; i++) out.push(' ' + before[i]);
  return out;
}

export function writeApplyPatch(changes: readonly FileChange[]): string {
  const out: string[] = [BEGIN];
  for (const { file, before, after } of changes) {
    if (before === null && after === null) continue;
    if (before === null) {
      out.push(`${ADD} ${file}`);
      for (const l of parseText(after!).lines) out.push('+' + l);
      continue;
    }
    if (after === null) {
      out.push(`${DELETE} ${file}`);
      continue;
    }
    const a = parseText(before).lines;
    const chunks = planChunks(a, parseText(after).lines);
    if (chunks.length === 0) continue;
    out.push(`${UPDATE} ${file}`);
    for (const g of chunks) out.push('@@', ...chunkLines(a, g));
  }
  // No change, no patch: an envelope with no file operation in it is malformed (codex refuses it too).
  if (out.length === 1) return '';
  out.push(END);
  return out.join('\n') + '\n';
}
