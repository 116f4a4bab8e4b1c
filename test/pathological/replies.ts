// Correct replies in every format, built directly from splices (no line
// diff): the formats' writers run a Myers diff and grow context until a
// block is unique, which is fine for a few edits but itself quadratic on the
// inputs here (100,000 lines, thousands of edits). `splicesReply(format,
// path, before, splices)` writes the splices the way the format's writer
// would write one changed stretch each.

import type { Splice } from '../../src/core/text.ts';
import { editblock, pathLine as lnDiffPath } from '../../src/formats/ln-diff/write.ts';
import { fenceFor as srFence, markersFor, pathLine as srPath } from '../../src/formats/search-replace/write.ts';
import { wholeBlock } from '../../src/formats/whole/write.ts';
import { searchReplaceBlock } from '../../src/formats/roo/write.ts';
import { editCall } from '../../src/formats/hashline/write.ts';
import { betweenTag } from '../../src/formats/between/write.ts';
import { fenceFor as wholeFence } from '../../src/formats/whole/fences.ts';
import { pathLine as wholePath } from '../../src/formats/whole/write.ts';
import { ADD, BEGIN, END, UPDATE } from '../../src/formats/apply-patch/parse.ts';

/** The formats a splice reply can be written in (every registered format). */
export const SPLICE_FORMATS = [
  'ln-diff',
  'search-replace',
  'whole',
  'udiff',
  'roo',
  'udiffx',
  'hashline',
  'between',
  'apply-patch',
  'str-replace',
] as const;

export type SpliceFormat = (typeof SPLICE_FORMATS)[number];

/** Numbered unified-diff hunks, no context: `-` the replaced lines, `+` the new ones. */
function hunks(before: readonly string[], splices: readonly Splice[]): string[] {
  const out: string[] = [];
  let delta = 0;
  for (const s of splices) {
    const oldCount = s.to - s.from;
    const newCount = s.lines.length;
    const oldStart = oldCount === 0 ? s.from : s.from + 1;
    const newStart = newCount === 0 ? s.from + delta : s.from + delta + 1;
    out.push(`@@ -${oldStart},${oldCount} +${newStart},${newCount} @@`);
    for (let i = s.from; i < s.to; i++) out.push('-' + before[i]);
    for (const l of s.lines) out.push('+' + l);
    delta += newCount - oldCount;
  }
  return out;
}

/** The file's text after the splices (sorted, non-overlapping, against `before`). */
export function spliced(before: readonly string[], splices: readonly Splice[]): string[] {
  const out: string[] = [];
  let pos = 0;
  for (const s of splices) {
    for (; pos < s.from; pos++) out.push(before[pos]);
    out.push(...s.lines);
    pos = s.to;
  }
  for (; pos < before.length; pos++) out.push(before[pos]);
  return out;
}

/**
 * A reply that turns `before` (the lines of `path`) into `spliced(before,
 * splices)`. Splices must be sorted, non-overlapping and each replace at
 * least one line; `between` also needs a line above and below each.
 */
export function splicesReply(format: SpliceFormat, path: string, before: readonly string[], splices: readonly Splice[]): string {
  switch (format) {
    case 'ln-diff': {
      const p = lnDiffPath(path, [path]);
      return splices.map((s) => editblock(p, before, s.from, s.to, s.lines)).join('\n');
    }
    case 'search-replace': {
      const p = srPath(path, [path]);
      return splices
        .map((s) => {
          const search = before.slice(s.from, s.to);
          const content = [...search, ...s.lines];
          const m = markersFor(content);
          const fence = srFence(content);
          return [p, fence, m.head, ...search, m.divider, ...s.lines, m.end, fence].map((l) => l + '\n').join('');
        })
        .join('\n');
    }
    case 'whole':
      return wholeBlock(path, spliced(before, splices));
    case 'udiff':
      return [`--- a/${path}`, `+++ b/${path}`, ...hunks(before, splices)].join('\n') + '\n';
    case 'udiffx':
      return `<FILE_CHANGES>\n<FILE_PATCH path="${path}">\n${hunks(before, splices).join('\n')}\n</FILE_PATCH>\n</FILE_CHANGES>\n`;
    case 'roo':
      return (
        `<apply_diff>\n<path>${path}</path>\n<diff>\n` +
        splices.map((s) => searchReplaceBlock(before, s.from, s.to, s.lines)).join('') +
        '</diff>\n</apply_diff>\n'
      );
    case 'hashline':
      return splices.map((s) => editCall(path, before, s.from, s.to, s.lines) + '\n').join('');
    case 'between': {
      const body: string[] = [];
      splices.forEach((s, k) => {
        const tag = betweenTag(before[s.from - 1] ?? '', before[s.to] ?? '');
        body.push(tag ?? '@BETWEEN@ "" AND ""', ...s.lines);
        if (k < splices.length - 1) body.push('');
      });
      const fence = wholeFence(body);
      return `${wholePath(path)}\n${fence}\n${body.map((l) => l + '\n').join('')}${fence}\n`;
    }
    case 'apply-patch': {
      const out = [BEGIN, `${UPDATE} ${path}`];
      for (const s of splices) {
        out.push('@@');
        for (let i = s.from; i < s.to; i++) out.push('-' + before[i]);
        for (const l of s.lines) out.push('+' + l);
      }
      out.push(END);
      return out.join('\n') + '\n';
    }
    case 'str-replace':
      return splices
        .map((s) => {
          const call = {
            command: 'str_replace',
            path,
            old_str: before.slice(s.from, s.to).map((l) => l + '\n').join(''),
            new_str: s.lines.map((l) => l + '\n').join(''),
          };
          return '```json\n' + JSON.stringify(call, null, 2) + '\n```\n';
        })
        .join('\n');
  }
}

/** A reply that creates `path` with `lines`, in formats that can; null for the others. */
export function createReply(format: SpliceFormat, path: string, lines: readonly string[]): string | null {
  switch (format) {
    case 'whole':
      return wholeBlock(path, lines, true);
    case 'apply-patch':
      return [BEGIN, `${ADD} ${path}`, ...lines.map((l) => '+' + l), END].join('\n') + '\n';
    default:
      return null;
  }
}
