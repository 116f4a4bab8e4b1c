// Write changes as @BETWEEN@ snippets: per changed stretch, the nearest
// unique lines above and below as anchors and everything between them as
// the snippet; @WHOLE FILE@ when a stretch has no such anchors.

import { writableSplices } from '../../core/hunks.ts';
import { visibleKey } from '../../core/invisible.ts';
import { parseText, type Splice } from '../../core/text.ts';
import type { FileChange } from '../../core/types.ts';
import { fenceFor } from '../whole/fences.ts';
import { pathLine } from '../whole/write.ts';
import { BETWEEN, BETWEEN_ARGS, TAG, WHOLE_FILE, anchorKey } from './syntax.ts';

export interface Snippet {
  /** Index of the anchor line above, and of the anchor line below (0-based, in before). */
  above: number;
  below: number;
  /** The lines that replace everything strictly between the anchors. */
  lines: string[];
}

/**
 * The tag line for two anchor lines: quoted as they are (so they match
 * exactly), else trimmed; null when neither reads back as those anchors.
 */
export function betweenTag(a: string, b: string): string | null {
  for (const [x, y] of [[a, b], [anchorKey(a), anchorKey(b)]]) {
    const tag = `${BETWEEN} "${x}" AND "${y}"`;
    const m = BETWEEN_ARGS.exec(tag.slice(BETWEEN.length));
    if (m && m[1] === x && m[2] === y) return tag;
  }
  return null;
}

/**
 * Snippets that turn `before` into `after`, or null when some changed
 * stretch has no anchor line above or below it. An anchor is an unchanged
 * line whose trimmed text is not empty, occurs once in `before` (compared as
 * the placing compares anchors at its loosest), and can be
 * quoted in a tag line. Stretches that share the lines between their anchors
 * become one snippet.
 */
export function snippets(before: readonly string[], after: readonly string[]): Snippet[] | null {
  const splices = writableSplices(before, after);
  // Counted as the placing compares anchors at its loosest (without white space around them, zero-width
  // characters or the normalisation form), so that an anchor unique here is unique there.
  const looseKey = (line: string) => anchorKey(visibleKey(line));
  const count = new Map<string, number>();
  for (const line of before) count.set(looseKey(line), (count.get(looseKey(line)) ?? 0) + 1);
  const removed = new Uint8Array(before.length);
  for (const s of splices) for (let k = s.from; k < s.to; k++) removed[k] = 1;
  const eligible = (k: number) => {
    const key = looseKey(before[k]);
    return !removed[k] && key !== '' && count.get(key) === 1 && !/"\s+AND\s+"/.test(anchorKey(before[k]));
  };

  const out: Snippet[] = [];
  let s = 0;
  while (s < splices.length) {
    let above = splices[s].from - 1;
    while (above >= 0 && !eligible(above)) above--;
    if (above < 0) return null;
    let last = s;
    let below: number;
    for (;;) {
      below = splices[last].to;
      while (below < before.length && !eligible(below)) below++;
      if (below >= before.length) return null;
      if (last + 1 < splices.length && splices[last + 1].from <= below) {
        last++;
        continue;
      }
      break;
    }
    out.push({ above, below, lines: region(before, splices.slice(s, last + 1), above + 1, below) });
    s = last + 1;
  }
  return out;
}

/** The lines of `before[from, to)` with `splices` (all inside it) applied. */
function region(before: readonly string[], splices: readonly Splice[], from: number, to: number): string[] {
  const out: string[] = [];
  let pos = from;
  for (const s of splices) {
    out.push(...before.slice(pos, s.from), ...s.lines);
    pos = s.to;
  }
  out.push(...before.slice(pos, to));
  return out;
}

/** A change the format cannot carry: a line of the new text would be read as a tag line. */
export class UnwritableChange extends Error {
  override name = 'UnwritableChange';
}

/** One fenced block for a file: its snippets, one blank line between them (aider drops it when reading). */
function block(path: string, parts: { tag: string; lines: string[] }[], isNew = false): string {
  for (const p of parts) {
    const bad = p.lines.find((line) => TAG.test(line));
    if (bad !== undefined)
      throw new UnwritableChange(
        `cannot write ${path} as between snippets: the line ${JSON.stringify(bad)} would be read as a tag line (@NAME@), and the format has no escape`,
      );
  }
  const body: string[] = [];
  parts.forEach((p, k) => {
    body.push(p.tag, ...p.lines);
    if (k < parts.length - 1) body.push('');
  });
  const fence = fenceFor(body);
  return `${pathLine(path, isNew)}\n${fence}\n${body.map((l) => l + '\n').join('')}${fence}\n`;
}

/**
 * Each changed file as one fenced block. A new file, a file without anchors
 * for some change, and a deleted file (which the format cannot delete: it is
 * emptied) are written with @WHOLE FILE@. A line of the @NAME@ tag form
 * cannot be written inside a snippet (it would begin a new one): such a
 * change throws `UnwritableChange` rather than produce a reply that reads
 * back as a different change.
 */
export function writeBetween(changes: readonly FileChange[]): string {
  const blocks: string[] = [];
  for (const { file, before, after } of changes) {
    if (before === after) continue;
    const b = after === null ? [] : parseText(after).lines;
    const a = before === null ? null : parseText(before).lines;
    const parts = a === null ? null : snippets(a, b);
    const tagged = parts?.map((p) => ({ tag: betweenTag(a![p.above], a![p.below]), lines: p.lines }));
    if (!tagged || tagged.some((p) => p.tag === null)) {
      blocks.push(block(file, [{ tag: WHOLE_FILE, lines: b }], before === null));
      continue;
    }
    blocks.push(block(file, tagged as { tag: string; lines: string[] }[]));
  }
  return blocks.join('\n');
}
