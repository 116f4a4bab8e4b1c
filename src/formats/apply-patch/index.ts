// OpenAI apply_patch (V4A): `*** Begin Patch` ... `*** End Patch`, placed by
// context alone. The format's whole surface for the registry.

import type { Format } from '../../core/types.ts';
import { withViewPrefixes } from '../../core/view-prefix.ts';
import { locatePatch } from './locate.ts';
import { ADD, BEGIN, DELETE, UPDATE, parseApplyPatch } from './parse.ts';
import { writeApplyPatch } from './write.ts';
import { settledUnlessProbed } from '../../core/settle.ts';
import { MARKER, PROMPT } from './prompt.ts';
import { lineTexts } from '../../core/reply.ts';

export const applyPatch: Format = {
  name: 'apply-patch',
  title: 'OpenAI apply_patch (V4A)',
  parse: parseApplyPatch,
  detect(reply, lexed) {
    const lines = lineTexts(reply, lexed);
    const begin = lines.findIndex((l) => l.trim() === BEGIN);
    if (begin >= 0) return { score: 1, reason: `\`${BEGIN}\` at line ${begin + 1}` };
    const header = lines.findIndex((l) => l.startsWith(ADD) || l.startsWith(UPDATE) || l.startsWith(DELETE));
    if (header >= 0)
      return { score: 1, reason: `\`${lines[header].replace(/\r$/, '').split(':')[0]}:\` at line ${header + 1}, without \`${BEGIN}\`` };
    return { score: 0, reason: `no \`${BEGIN}\` line` };
  },
  write: writeApplyPatch,
  // A chunk copied with the numbered view's `12│` prefixes fails saying so (core/view-prefix.ts).
  locate: (lines, edit, options, budget) => withViewPrefixes(locatePatch(lines, edit, options, budget), lines, edit.old, edit.file, "the chunk's context and removed lines", options),
  // A section without `*** End Patch` around it takes lines until the next marker, and the edit an
  // end of patch closed fails when patch lines and a second `*** End Patch` follow.
  stream: settledUnlessProbed(() => [' x\n', '+x\n*** End Patch\n']),
  openers: ['*** Begin Patch', '*** Update File: ', '*** Add File: ', '*** Delete File: '],
  markers: [
    {
      line: /^\s*\*\*\* (?:Begin Patch|End Patch|Update File|Add File|Delete File|Move to)\b/,
      expected:
        'is taken for an apply_patch envelope, but no file operation was read: between `*** Begin Patch` and `*** End Patch`, write `*** Update File: PATH` then `@@` and lines starting with a space, `-` or `+`, `*** Add File: PATH` then lines starting with `+`, or `*** Delete File: PATH`; to change nothing, leave the patch out',
    },
  ],
  prompt: PROMPT,
  marker: MARKER,
};
