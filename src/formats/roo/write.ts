// Write changes as Roo apply_diff tool calls: one `<apply_diff>` per file,
// one SEARCH/REPLACE block per changed stretch, each with its `:start_line:`.

import { writableSplices, spliceRange } from '../../core/hunks.ts';
import { parseText, type Splice } from '../../core/text.ts';
import type { FileChange } from '../../core/types.ts';
import { escapeLine } from './syntax.ts';

/** A block to write: original lines `[from, to)` and the splices it carries. */
export interface PlannedBlock {
  from: number;
  to: number;
  splices: Splice[];
}

/** How many times lines `[from, to)` of `lines` occur in `lines` (stops counting at 2). */
function occurrences(lines: readonly string[], from: number, to: number): number {
  const n = to - from;
  let count = 0;
  for (let s = 0; s + n <= lines.length && count < 2; s++) {
    let k = 0;
    while (k < n && lines[s + k] === lines[from + k]) k++;
    if (k === n) count++;
  }
  return count;
}

/**
 * Where the blocks go: every splice becomes a block of the lines it
 * replaces; a pure insertion borrows the line before it (or after it, at the
 * top of the file), since an apply_diff SEARCH cannot be empty in a file that
 * has lines; a block whose lines occur more than once in the file grows by
 * one neighbouring line at a time (below, then above, alternately) until it
 * occurs once; blocks that come to share a line are merged.
 */
export function planBlocks(before: readonly string[], splices: readonly Splice[]): PlannedBlock[] {
  let blocks: PlannedBlock[] = splices.map((s) => ({ from: s.from, to: s.to, splices: [s] }));
  if (before.length === 0) return blocks;
  for (let changed = true; changed; ) {
    changed = false;
    for (const b of blocks) {
      if (b.from === b.to) {
        if (b.from > 0) b.from--;
        else b.to++;
        changed = true;
      }
      let down = true;
      while (occurrences(before, b.from, b.to) > 1) {
        if ((down && b.to < before.length) || b.from === 0) b.to++;
        else b.from--;
        down = !down;
        changed = true;
      }
    }
    blocks.sort((x, y) => x.from - y.from || x.to - y.to);
    const merged: PlannedBlock[] = [];
    for (const b of blocks) {
      const prev = merged[merged.length - 1];
      if (prev && b.from < prev.to) {
        prev.to = Math.max(prev.to, b.to);
        prev.splices.push(...b.splices);
        changed = true;
      } else merged.push(b);
    }
    blocks = merged;
  }
  return blocks;
}

/** The lines that replace a block's range: its splices applied, the borrowed lines kept. */
export const replacement = (before: readonly string[], block: PlannedBlock): string[] => spliceRange(before, block.from, block.to, block.splices);

/** One SEARCH/REPLACE block for original lines `[from, to)` (0-based). */
export function searchReplaceBlock(before: readonly string[], from: number, to: number, lines: readonly string[]): string {
  let out = `<<<<<<< SEARCH\n:start_line:${from + 1}\n-------\n`;
  for (let i = from; i < to; i++) out += escapeLine(before[i]) + '\n';
  out += '=======\n';
  for (const line of lines) out += escapeLine(line) + '\n';
  return out + '>>>>>>> REPLACE\n';
}

/**
 * Write each changed file as one `<apply_diff>` tool call. apply_diff
 * cannot create or delete files: a new file is written as a block with an
 * empty SEARCH (read back as creating it), a deleted file as removing
 * every line.
 */
export function writeRoo(changes: readonly FileChange[]): string {
  const calls: string[] = [];
  for (const { file, before, after } of changes) {
    const a = before === null ? [] : parseText(before).lines;
    const b = after === null ? [] : parseText(after).lines;
    const splices = writableSplices(a, b);
    // A new empty file still needs a block (empty SEARCH and REPLACE) to be created.
    if (splices.length === 0 && !(before === null && after !== null)) continue;
    if (splices.length === 0) splices.push({ from: 0, to: 0, lines: [] });
    let out = `<apply_diff>\n<path>${file}</path>\n<diff>\n`;
    for (const block of planBlocks(a, splices)) out += searchReplaceBlock(a, block.from, block.to, replacement(a, block));
    calls.push(out + '</diff>\n</apply_diff>\n');
  }
  return calls.join('\n');
}
