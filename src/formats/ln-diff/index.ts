// ln-diff: numbered editblocks. The format's whole surface for the registry.

import { locateShifting } from '../../core/indent.ts';
import { parseText } from '../../core/text.ts';
import type { Format } from '../../core/types.ts';
import { parseLnDiff } from './parse.ts';
import { HEAD, OPEN_TAG, renderView } from './syntax.ts';
import { writeLnDiff } from './write.ts';
import { settledUnlessProbed } from '../../core/settle.ts';
import { MARKER, PROMPT } from './prompt.ts';
import { linesOf } from '../../core/reply.ts';

/** How the messages about indentation name an editblock's sections. */
const NAMES = { old: 'the lines to remove', new: 'the lines to insert', more: 'the editblock' };

export const lnDiff: Format = {
  name: 'ln-diff',
  title: 'ln-diff editblocks',
  parse: parseLnDiff,
  detect(reply, lexed) {
    const lines = linesOf(reply, lexed);
    const head = lines.findIndex((l) => HEAD.test(l.text.trim()));
    if (head >= 0) return { score: 1, reason: `\`<<<<<<< REMOVE\` at line ${head + 1}` };
    const tag = lines.findIndex((l) => OPEN_TAG.test(l.text.trim()));
    if (tag >= 0) return { score: 0.8, reason: `\`<editblock>\` at line ${tag + 1}` };
    return { score: 0, reason: 'no `<<<<<<< REMOVE` or `<editblock>` line' };
  },
  write: writeLnDiff,
  createHint: 'to create it, leave the lines to remove empty',
  emptyHint: 'to add lines to it, leave the lines to remove empty',
  view: (text) => renderView(parseText(text).lines),
  numberedLines: true,
  // `</editblock>` may still follow `>>>>>>> INSERT` and belong to the block,
  // and a second end marker would make the end ambiguous.
  stream: settledUnlessProbed(() => ['</editblock>\n', '>>>>>>> INSERT\n']),
  // The match ladder, then the cited lines re-indented in the window (spec/matching.md, Indentation).
  locate: (lines, edit, options, budget) => locateShifting(lines, edit, options, budget, NAMES),
  openers: ['<editblock>', '<<<<<<< REMOVE'],
  markers: [
    { line: /^\s*<{3,}[ \t]*REMOVE[ \t]*$/, expected: 'is taken for the head of an editblock, but no editblock was read: an edit is the file\'s path alone on a line, `<editblock>`, `<<<<<<< REMOVE`, the numbered lines to remove (`N│text`), `=======`, the lines to insert (` │text`), `>>>>>>> INSERT` and `</editblock>`, each on its own line' },
    { line: /^\s*>{3,}[ \t]*INSERT[ \t]*$/, expected: 'is taken for the end of an editblock, but no editblock was read: an edit is the file\'s path alone on a line, `<editblock>`, `<<<<<<< REMOVE`, the numbered lines to remove (`N│text`), `=======`, the lines to insert (` │text`), `>>>>>>> INSERT` and `</editblock>`, each on its own line' },
    { line: /^\s*<\/?editblock>\s*$/, expected: 'is taken for an editblock tag, but no editblock was read: an edit is the file\'s path alone on a line, `<editblock>`, `<<<<<<< REMOVE`, the numbered lines to remove (`N│text`), `=======`, the lines to insert (` │text`), `>>>>>>> INSERT` and `</editblock>`, each on its own line' },
  ],
  prompt: PROMPT,
  marker: MARKER,
};
