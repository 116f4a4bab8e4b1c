// aider SEARCH/REPLACE blocks ("diff", "diff-fenced", "editor-diff"), and
// Cline's replace_in_file blocks: the format's whole surface for the registry. spec/formats/search-replace.md is
// the contract.

import type { Format, LexedReply } from '../../core/types.ts';
import { withViewPrefixes } from '../../core/view-prefix.ts';
import { locateSearch } from './locate.ts';
import { parseSearchReplace } from './parse.ts';
import { CALL_OPEN, isEnd, isHead } from './syntax.ts';
import { writeSearchReplace } from './write.ts';
import { settledUnlessProbed } from '../../core/settle.ts';
import { searchReplaceMarkers } from './markers.ts';
import { MARKER, PROMPT } from './prompt.ts';
import { lineTexts } from '../../core/reply.ts';

/** Roo Code's variant of the same blocks: `:start_line:` / `:end_line:` hints, a `-------` line after the head. */
const ROO_HINT = /^:(start|end)_line:/;
const ROO_RULE = /^-{5,9}$/;

export function detectSearchReplace(reply: string, lexed?: LexedReply): { score: number; reason: string } {
  // Every test below trims the line: its text without the line break is the same.
  const lines = lineTexts(reply, lexed);
  const head = lines.findIndex(isHead);
  // Cline's tool call: its tag is this format's alone (Roo's is <apply_diff>).
  const call = lines.findIndex((l) => CALL_OPEN.test(l.trim()));
  if (call >= 0 && head > call)
    return { score: 1, reason: `Cline's \`<replace_in_file>\` at line ${call + 1} with \`${lines[head].trim()}\` at line ${head + 1}` };
  const hint = lines.findIndex((l) => ROO_HINT.test(l.trim()));
  if (hint >= 0) return { score: 0, reason: `\`${lines[hint].trim()}\` at line ${hint + 1} belongs to Roo Code's variant` };
  const rule = lines.findIndex((l, k) => k > 0 && isHead(lines[k - 1]) && ROO_RULE.test(l.trim()));
  if (rule >= 0) return { score: 0, reason: `\`${lines[rule].trim()}\` after the head at line ${rule + 1} belongs to Roo Code's variant` };
  if (head < 0) return { score: 0, reason: 'no `<<<<<<< SEARCH` or `------- SEARCH` line' };
  const end = lines.findIndex(isEnd);
  // A head is structure even with no end after it: the reply was cut off inside the block, and is read
  // (and reported truncated) as with the format named, never as a block that could not be read.
  if (end < 0)
    return { score: 0.8, reason: `\`${lines[head].trim()}\` at line ${head + 1} but no \`>>>>>>> REPLACE\` line (a cut-off reply)` };
  return { score: 0.9, reason: `\`${lines[head].trim()}\` at line ${head + 1} and \`${lines[end].trim()}\` at line ${end + 1}` };
}

export const searchReplace: Format = {
  name: 'search-replace',
  title: 'aider SEARCH/REPLACE blocks',
  parse: parseSearchReplace,
  detect: detectSearchReplace,
  write: writeSearchReplace,
  // A SEARCH copied with the numbered view's `12│` prefixes fails saying so (core/view-prefix.ts).
  locate: (lines, edit, options, budget) => withViewPrefixes(locateSearch(lines, edit, options, budget), lines, edit.old, edit.file, 'the SEARCH lines', options),
  // A second end marker before the next block makes the end ambiguous.
  stream: settledUnlessProbed(() => ['>>>>>>> REPLACE\n']),
  openers: ['<<<<<<< SEARCH', '------- SEARCH'],
  markers: searchReplaceMarkers(
    'a block is `<<<<<<< SEARCH` (seven `<`), the lines to find, `=======`, the lines that replace them and `>>>>>>> REPLACE` (seven `>`), each marker alone on its line, in a code fence after a line with the file\'s path',
  ),
  prompt: PROMPT,
  marker: MARKER,
};
