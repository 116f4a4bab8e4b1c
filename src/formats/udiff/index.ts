// udiff: unified diffs, standard (`@@ -a,b +c,d @@`) and aider's number-less
// form (`@@ ... @@`). The format's whole surface for the registry.

import { locateShifting } from '../../core/indent.ts';
import { EMPTY_HINT, placeUnanchored } from './hunks.ts';
import { lineTexts } from '../../core/reply.ts';
import type { Format, LexedReply } from '../../core/types.ts';
import { withViewPrefixes } from '../../core/view-prefix.ts';
import { farHunk } from './far.ts';
import { hunkNumbers } from './hunks.ts';
import { parseUdiff } from './parse.ts';
import { writeUdiff } from './write.ts';
import { MARKER, PROMPT } from './prompt.ts';
import { UDIFF_STREAM } from './stream.ts';

const FENCE = /^ *(`{3,}|~{3,})\s*([^\s`]*)/;

/**
 * 0.9 for a numbered hunk header, a `--- `/`+++ ` header pair, or an `@@`
 * line inside a ```diff fence; 0.3 for a bare `@@` line followed by a `-` or
 * `+` line; else 0.
 */
export function detectUdiff(reply: string, lexed?: LexedReply): { score: number; reason: string } {
  const lines = lineTexts(reply, lexed);
  let fence: string | null = null;
  let diffFence = false;
  let weak: number | null = null;
  for (let i = 0; i < lines.length; i++) {
    const t = lines[i];
    const f = FENCE.exec(t);
    if (f) {
      if (fence === null) {
        fence = f[1];
        diffFence = /^(diff|patch|udiff)$/i.test(f[2]);
        continue;
      }
      if (f[1][0] === fence[0] && f[1].length >= fence.length && f[2] === '') {
        fence = null;
        diffFence = false;
        continue;
      }
    }
    const s = t.replace(/^ +/, '');
    if (hunkNumbers(s)) return { score: 0.9, reason: `numbered hunk header \`${s.trim()}\` at line ${i + 1}` };
    if (s.startsWith('--- ') && i + 1 < lines.length && lines[i + 1].replace(/^ +/, '').startsWith('+++ '))
      return { score: 0.9, reason: `\`---\`/\`+++\` file header at line ${i + 1}` };
    if (s.startsWith('@@') && diffFence) return { score: 0.9, reason: `\`@@\` hunk header in a diff code fence at line ${i + 1}` };
    if (s.startsWith('@@') && weak === null && i + 1 < lines.length && /^[-+]/.test(lines[i + 1])) weak = i + 1;
  }
  if (weak !== null) return { score: 0.3, reason: `\`@@\` line followed by a \`-\` or \`+\` line at line ${weak}` };
  return { score: 0, reason: 'no hunk header (`@@ -N`, or `@@` in a diff fence) and no `---`/`+++` file header' };
}

export const udiff: Format = {
  name: 'udiff',
  title: 'unified diff',
  parse: parseUdiff,
  detect: detectUdiff,
  write: writeUdiff,
  stream: UDIFF_STREAM,
  // The match ladder, then re-indented lines (spec/matching.md, Indentation); a copy past the window named in a
  // hunk's terms; a hunk copied with the numbered view's `12│` prefixes fails saying so (core/view-prefix.ts);
  // a hunk of added lines with no numbers has a place only in an empty file.
  locate: (lines, edit, options, budget) =>
    edit.old.length === 0
      ? placeUnanchored(lines, edit)
      : withViewPrefixes(farHunk(locateShifting(lines, edit, options, budget), edit, options), lines, edit.old, edit.file, "the hunk's context and removed lines", options),
  emptyHint: EMPTY_HINT,
  openers: ['--- a/', 'diff --git '],
  markers: [
    { line: /^ *--- \S/, next: /^ *\+\+\+ \S/, expected: 'and the `+++` line after it are taken for a file header, but no hunk of it was read: a hunk is `@@ -START,COUNT +START,COUNT @@` and its lines, each starting with a space (context), `-` (removed) or `+` (added), after the file header `--- a/PATH` and `+++ b/PATH`' },
    { line: /^ *@@ -\d+(?:,\d+)? \+\d+(?:,\d+)? @@/, expected: 'is taken for a hunk header, but no hunk was read: a hunk is `@@ -START,COUNT +START,COUNT @@` and its lines, each starting with a space (context), `-` (removed) or `+` (added), after the file header `--- a/PATH` and `+++ b/PATH`' },
    { line: /^diff --git \S/, expected: 'is taken for a git diff header, but no hunk was read: a hunk is `@@ -START,COUNT +START,COUNT @@` and its lines, each starting with a space (context), `-` (removed) or `+` (added), after the file header `--- a/PATH` and `+++ b/PATH`' },
  ],
  prompt: PROMPT,
  marker: MARKER,
};
