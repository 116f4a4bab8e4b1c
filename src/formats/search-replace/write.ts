// Write changes as aider "diff" replies: a path line, a fence, SEARCH/REPLACE.

import { writableSplices, spliceRange } from '../../core/hunks.ts';
import { parseText, type Splice } from '../../core/text.ts';
import type { FileChange } from '../../core/types.ts';
import { readPathLine } from '../../core/paths.ts';
import { UnwritableChange } from '../between/write.ts';
import { isEnd, isHead } from './syntax.ts';

/** A stretch of original lines `[from, to)` and the splices inside it. */
interface Group {
  from: number;
  to: number;
  splices: Splice[];
}

/** Does `a[from, to)` occur exactly once in `a`? `starts` maps each line to where it occurs. */
function unique(a: readonly string[], starts: ReadonlyMap<string, number[]>, from: number, to: number): boolean {
  if (to <= from) return false;
  let found = 0;
  outer: for (const s of starts.get(a[from]) ?? []) {
    if (s + (to - from) > a.length) break;
    for (let j = 1; j < to - from; j++) if (a[s + j] !== a[from + j]) continue outer;
    if (++found > 1) return false;
  }
  return found === 1;
}
const markerLike = (line: string | undefined) => line !== undefined && (isHead(line) || isEnd(line));

/**
 * Grow each change with neighbouring unchanged lines until its SEARCH occurs
 * exactly once in `a`, merging changes whose stretches come to overlap. An
 * insertion at the very end needs no context: it is an append (empty SEARCH).
 */
export function searchGroups(a: readonly string[], splices: readonly Splice[]): Group[] {
  const n = a.length;
  const starts = new Map<string, number[]>();
  a.forEach((line, i) => {
    const list = starts.get(line);
    if (list) list.push(i);
    else starts.set(line, [i]);
  });
  let groups: Group[] = splices.map((s) => ({ from: s.from, to: s.to, splices: [s] }));
  for (;;) {
    for (const g of groups) {
      if (g.from === n && g.to === n) continue;
      let below = true;
      while (!unique(a, starts, g.from, g.to)) {
        const canBelow = g.to < n;
        const canAbove = g.from > 0;
        let down = canBelow && (below || !canAbove);
        // Keep lines that read as markers out of the SEARCH when the other side will do.
        if (down && canAbove && markerLike(a[g.to]) && !markerLike(a[g.from - 1])) down = false;
        else if (!down && canBelow && markerLike(a[g.from - 1]) && !markerLike(a[g.to])) down = true;
        if (down) g.to++;
        else g.from--;
        below = !below;
      }
    }
    groups.sort((x, y) => x.from - y.from || x.to - y.to);
    const merged: Group[] = [];
    let changed = false;
    for (const g of groups) {
      const prev = merged[merged.length - 1];
      if (prev && g.from < prev.to && prev.from < g.to) {
        prev.from = Math.min(prev.from, g.from);
        prev.to = Math.max(prev.to, g.to);
        prev.splices.push(...g.splices);
        changed = true;
      } else merged.push({ ...g, splices: [...g.splices] });
    }
    groups = merged;
    if (!changed) return groups;
  }
}


/**
 * Markers no content line can be mistaken for: the divider is `=` repeated
 * 5 to 9 times (7 preferred) after an indent of spaces, chosen so that no
 * content line equals it; the head and end marker match its length and indent.
 */
export function markersFor(content: readonly string[]): { head: string; divider: string; end: string } {
  const taken = new Set(content);
  for (let indent = 0; ; indent++) {
    const pad = ' '.repeat(indent);
    for (const n of [7, 8, 9, 6, 5]) {
      const divider = pad + '='.repeat(n);
      if (!taken.has(divider)) return { head: `${pad}${'<'.repeat(n)} SEARCH`, divider, end: `${pad}${'>'.repeat(n)} REPLACE` };
    }
  }
}

/** A backtick fence longer than any backtick run that starts a content line. */
export function fenceFor(content: readonly string[]): string {
  let longest = 2;
  for (const line of content) {
    const m = /^\s*(`+)/.exec(line);
    if (m) longest = Math.max(longest, m[1].length);
  }
  return '`'.repeat(longest + 1);
}

/** The path line that reads back as `file` right above a fence, given the files a request holds. */
export function pathLine(file: string, known: readonly string[]): string {
  for (const line of [file, `./${file}`, `\`${file}\``, `\`./${file}\``]) {
    const read = readPathLine(line, known, { byName: true });
    if (read.kind === 'path' && read.path === file) return line;
  }
  return file;
}

function block(path: string, search: readonly string[], replace: readonly string[]): string {
  const content = [...search, ...replace];
  const bad = content.find((line) => isHead(line) || isEnd(line));
  if (bad !== undefined)
    throw new UnwritableChange(
      `cannot write ${path} as SEARCH/REPLACE blocks: the line ${JSON.stringify(bad)} would be read as ${
        isHead(bad) ? 'the head of a new block' : 'an end marker'
      }, and the format has no escape`,
    );
  const { head, divider, end } = markersFor(content);
  const fence = fenceFor(content);
  return [path, fence, head, ...search, divider, ...replace, end, fence].map((l) => l + '\n').join('');
}

/**
 * Write each change as SEARCH/REPLACE blocks against the original file, each
 * SEARCH grown with context until it matches exactly one place. A new file is
 * one block with an empty SEARCH. Deleting a file cannot be said: it is
 * written as removing every line. A content line that reads as a
 * `<<<<<<< SEARCH` or `>>>>>>> REPLACE` marker cannot be written (the format
 * has no escape): such a change throws `UnwritableChange` rather than produce
 * a reply that reads back as another change.
 */
export function writeSearchReplace(changes: readonly FileChange[]): string {
  const known = changes.filter((c) => c.before !== null).map((c) => c.file);
  const blocks: string[] = [];
  for (const { file, before, after } of changes) {
    if (before === null && after === null) continue;
    const path = pathLine(file, known);
    const b = after === null ? [] : parseText(after).lines;
    if (before === null) {
      blocks.push(block(path, [], b));
      continue;
    }
    const a = parseText(before).lines;
    for (const g of searchGroups(a, writableSplices(a, b))) blocks.push(block(path, a.slice(g.from, g.to), spliceRange(a, g.from, g.to, g.splices)));
  }
  return blocks.join('\n');
}
