// udiffx: the `<FILE_CHANGES>` envelope (FILE_NEW, FILE_PATCH, FILE_APPEND,
// FILE_RENAME, FILE_DELETE). The format's whole surface for the registry,
// plus `prose` (the reply without its envelopes) and `fileContent` (the
// context block for prompts).

import { linesOf } from '../../core/reply.ts';
import type { Format } from '../../core/types.ts';
import { withViewPrefixes } from '../../core/view-prefix.ts';
import { locateUdiffx } from './locate.ts';
import { envelopes, parseUdiffx } from './parse.ts';
import { fileContent, writeUdiffx } from './write.ts';
import { MARKER, PROMPT } from './prompt.ts';
import { UDIFFX_STREAM } from './stream.ts';

export { fileContent };

const FENCE_OPEN = /^ *(`{3,}|~{3,})[^`]*$/;
const FENCE_CLOSE = /^ *(`{3,}|~{3,})\s*$/;

/** The text of the line that ends just before offset `end` (its line break excluded). */
function lineBefore(reply: string, end: number): { from: number; text: string } {
  const from = reply.lastIndexOf('\n', end - 2) + 1;
  return { from, text: reply.slice(from, end).replace(/\r?\n$/, '') };
}

/**
 * The reply without its `<FILE_CHANGES>` envelopes: the prose a person
 * reads. An envelope that fills its lines takes them whole, and a code fence
 * right around it goes with it. A reply without an envelope is all prose.
 */
export function prose(reply: string): string {
  let out = '';
  let pos = 0;
  for (const range of envelopes(reply)) {
    let { from, to } = range;
    const lineStart = reply.lastIndexOf('\n', from - 1) + 1;
    if (reply.slice(lineStart, from).trim() === '') from = lineStart;
    const nl = reply.indexOf('\n', to);
    const lineEnd = nl === -1 ? reply.length : nl + 1;
    if (reply.slice(to, lineEnd).trim() === '') to = lineEnd;
    if (from === lineStart && from > pos && to === lineEnd) {
      const before = lineBefore(reply, from);
      const nl2 = reply.indexOf('\n', to);
      const after = reply.slice(to, nl2 === -1 ? reply.length : nl2).replace(/\r$/, '');
      const open = FENCE_OPEN.exec(before.text);
      const close = FENCE_CLOSE.exec(after);
      if (before.from >= pos && open && close && close[1][0] === open[1][0] && close[1].length >= open[1].length) {
        from = before.from;
        to = nl2 === -1 ? reply.length : nl2 + 1;
      }
    }
    out += reply.slice(pos, Math.max(pos, from));
    pos = Math.max(pos, to);
  }
  return out + reply.slice(pos);
}

export const udiffx: Format = {
  name: 'udiffx',
  title: 'udiffx FILE_CHANGES envelope',
  parse: parseUdiffx,
  detect(reply, lexed) {
    const line = linesOf(reply, lexed).find((l) => l.text.includes('<FILE_CHANGES'));
    return line
      ? { score: 1, reason: `\`<FILE_CHANGES>\` at line ${line.line}` }
      : { score: 0, reason: 'no `<FILE_CHANGES>` envelope' };
  },
  write: writeUdiffx,
  // A hunk copied with the numbered view's `12│` prefixes fails saying so (core/view-prefix.ts).
  locate: (lines, edit, options, budget) => withViewPrefixes(locateUdiffx(lines, edit, options, budget), lines, edit.old, edit.file, "the hunk's context and removed lines", options),
  emptyHint: 'to add lines to it, write its text with <FILE_NEW path="...">, or a FILE_PATCH hunk of added lines only: @@ -0,0 +1,N @@ and the N lines, each starting with "+"',
  stream: UDIFFX_STREAM,
  openers: ['<FILE_CHANGES>', '<FILE_PATCH ', '<FILE_NEW ', '<FILE_APPEND ', '<FILE_RENAME ', '<FILE_DELETE '],
  markers: [
    {
      line: /^\s*<\/?FILE_(?:CHANGES|PATCH|NEW|APPEND|RENAME|DELETE)\b/,
      expected:
        'is taken for udiffx\'s envelope, but no file change was read: inside `<FILE_CHANGES>` and `</FILE_CHANGES>`, write `<FILE_PATCH path="...">` with unified-diff hunks (`@@` headers, lines starting with a space, `-` or `+`), `<FILE_NEW path="...">` with a new file\'s text, `<FILE_APPEND path="...">`, `<FILE_RENAME from="..." to="..."/>` or `<FILE_DELETE path="..."/>`; to change nothing, leave the envelope out',
    },
  ],
  prompt: PROMPT,
  marker: MARKER,
};
