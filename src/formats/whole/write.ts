// Write changes as a whole-file reply: per changed file, its path and its
// new text in a fence no line of the text can close.

import { parseText } from '../../core/text.ts';
import type { FileChange } from '../../core/types.ts';
import { fenceFor } from './fences.ts';
import { cleanPathLine, pathProblem } from '../../core/paths.ts';

/**
 * The path as a path line: in backticks when cleaning would change it, or
 * it holds blanks or any other character a bare path line cannot hold (an
 * entity such as `R&amp;D.txt`, a zero-width space). A new file is written with `./` when it is a bare name or
 * under `path/to/`, so that no given file of the same name can claim it.
 */
export function pathLine(path: string, isNew = false): string {
  const p = isNew && (!path.includes('/') || path.startsWith('path/to/')) ? `./${path}` : path;
  const plain = cleanPathLine(p);
  return !plain.quoted && plain.path === p && !/\s/.test(p) && pathProblem(p, false) === null ? p : `\`${p}\``;
}

/** One block: path line, fence, lines, fence. */
export function wholeBlock(path: string, lines: readonly string[], isNew = false): string {
  const fence = fenceFor(lines);
  return `${pathLine(path, isNew)}\n${fence}\n${lines.map((l) => l + '\n').join('')}${fence}\n`;
}

/**
 * Each changed file as one block. The format cannot delete a file: a
 * deletion is written as an empty block (the file becomes empty). Unchanged
 * files are left out.
 */
export function writeWhole(changes: readonly FileChange[]): string {
  const blocks: string[] = [];
  for (const { file, before, after } of changes) {
    if (before === after) continue;
    blocks.push(wholeBlock(file, after === null ? [] : parseText(after).lines, before === null));
  }
  return blocks.join('\n');
}
