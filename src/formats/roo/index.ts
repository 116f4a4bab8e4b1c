// Roo Code's apply_diff: SEARCH/REPLACE blocks with `:start_line:` hints,
// inside `<apply_diff>` tool calls. The format's whole surface for the registry.

import { parseText } from '../../core/text.ts';
import { isFence } from '../search-replace/syntax.ts';
import type { Format } from '../../core/types.ts';
import { withViewPrefixes } from '../../core/view-prefix.ts';
import { locateRoo } from './locate.ts';
import { parseRoo } from './parse.ts';
import { SEARCH, SEPARATOR, renderView } from './syntax.ts';
import { writeRoo } from './write.ts';
import { settledUnlessProbed } from '../../core/settle.ts';
import { searchReplaceMarkers } from '../search-replace/markers.ts';
import { MARKER, PROMPT } from './prompt.ts';
import { lineTexts } from '../../core/reply.ts';

export const roo: Format = {
  name: 'roo',
  title: 'Roo Code apply_diff',
  parse: parseRoo,
  detect(reply, lexed) {
    const lines = lineTexts(reply, lexed).map((l) => l.trim());
    const hint = lines.findIndex((l) => l.startsWith(':start_line:'));
    if (hint >= 0) return { score: 1, reason: `\`:start_line:\` at line ${hint + 1}` };
    const call = lines.findIndex((l) => l.startsWith('<apply_diff>'));
    if (call >= 0) return { score: 1, reason: `\`<apply_diff>\` at line ${call + 1}` };
    const search = lines.findIndex((l) => SEARCH.test(l));
    const separator = search >= 0 ? lines.findIndex((l, i) => i > search && SEPARATOR.test(l)) : -1;
    if (separator >= 0)
      return { score: 1, reason: `\`<<<<<<< SEARCH\` at line ${search + 1} with a \`-------\` line at line ${separator + 1}` };
    // aider's blocks always stand in a code fence (any fence aider writes) after a path line; Roo's diff text is bare.
    if (search >= 0 && !lines.some(isFence))
      return { score: 0.95, reason: `a bare \`<<<<<<< SEARCH\` block (no code fence) at line ${search + 1}` };
    return { score: 0, reason: 'no `:start_line:`, `<apply_diff>` or `<<<<<<< SEARCH` with `-------` line' };
  },
  write: writeRoo,
  view: (text) => renderView(parseText(text).lines),
  // Roo's own `12 | ` prefixes are read as Roo reads them; the ln-diff view's `12│` ones fail saying so (core/view-prefix.ts).
  locate: (lines, edit, options, budget) => withViewPrefixes(locateRoo(lines, edit, options, budget), lines, edit.old, edit.file, 'the SEARCH lines', options),
  // The REPLACE marker may still close a block cut at a closing tag, and a
  // later <path> or <start_line> changes every block of the element still open.
  stream: settledUnlessProbed(() => ['=======\n>>>>>>> REPLACE\n<start_line>0</start_line>\n<path>\u0001</path>\n</file>\n<path>\u0002</path>\n']),
  openers: ['<apply_diff>', '<<<<<<< SEARCH'],
  markers: [
    ...searchReplaceMarkers(
      'a block is `<<<<<<< SEARCH`, `:start_line:N`, `-------`, the lines to find, `=======`, the lines that replace them and `>>>>>>> REPLACE`, each marker alone on its line (seven `<`, `-`, `=` or `>`)',
    ),
    {
      line: /^\s*:start_line:/,
      expected: 'is taken for the start-line hint of a SEARCH/REPLACE block, but no block was read: write the hint after `<<<<<<< SEARCH`, then `-------`, the lines to find, `=======`, the lines that replace them and `>>>>>>> REPLACE`',
    },
    {
      line: /^\s*<\/?apply_diff>/,
      expected: 'is taken for an apply_diff call, but no SEARCH/REPLACE block was read in it: inside `<diff>`, write `<<<<<<< SEARCH`, `:start_line:N`, `-------`, the lines to find, `=======`, the lines that replace them and `>>>>>>> REPLACE`',
    },
  ],
  prompt: PROMPT,
  marker: MARKER,
};
