// between: aider's @BETWEEN@ / @WHOLE FILE@ snippets, merged by a
// deterministic rule instead of a second model. The format's whole surface
// for the registry.

import { linesOf } from '../../core/reply.ts';
import type { Format } from '../../core/types.ts';
import { locateBetween } from './locate.ts';
import { parseBetween } from './parse.ts';
import { BETWEEN, WHOLE_FILE, tagOf } from './syntax.ts';
import { writeBetween } from './write.ts';
import { EARLY_CLOSE } from '../whole/stream.ts';
import { MARKER, PROMPT } from './prompt.ts';

export const between: Format = {
  name: 'between',
  title: 'aider @BETWEEN@ snippets',
  fileBlocks: true,
  parse: parseBetween,
  detect(reply, lexed) {
    for (const l of linesOf(reply, lexed)) {
      const t = tagOf(l.text);
      if (t && (t.tag === BETWEEN || t.tag.replace(/\s+/g, ' ') === WHOLE_FILE))
        return { score: 1, reason: `\`${t.tag}\` at line ${l.line}` };
    }
    return { score: 0, reason: `no \`${BETWEEN}\` or \`${WHOLE_FILE}\` line` };
  },
  write: writeBetween,
  locate: locateBetween,
  stream: EARLY_CLOSE,
  openers: ['@BETWEEN@ ', '@WHOLE FILE@'],
  markers: [
    {
      line: /^\s*(?:```\S*\s*)?@(?:BETWEEN|WHOLE FILE)@/,
      expected:
        'is taken for a between snippet\'s first line, but no snippet was read: a snippet is the file\'s path alone on a line, then a code fence whose first line is `@BETWEEN@ "an existing line" AND "a later existing line"` (or `@WHOLE FILE@`) and whose other lines replace the lines between the two',
    },
  ],
  prompt: PROMPT,
  marker: MARKER,
};
