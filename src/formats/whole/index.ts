// whole: every fenced block is a file's whole new text (aider's "whole" and
// "editor-whole"). The format's whole surface for the registry.

import { linesOf } from '../../core/reply.ts';
import type { Format } from '../../core/types.ts';
import { scanFences } from './fences.ts';
import { parseWhole } from './parse.ts';
import { namesFile, pathFromInfo, pathFromLine } from './paths.ts';
import { OTHER_FORMAT_MARKERS } from './syntax.ts';
import { writeWhole } from './write.ts';
import { MARKER, PROMPT } from './prompt.ts';
import { WHOLE_STREAM } from './stream.ts';

export const whole: Format = {
  name: 'whole',
  title: 'whole files in fences',
  fileBlocks: true,
  wholeFiles: true,
  parse: parseWhole,
  detect(reply, lexed) {
    const lines = linesOf(reply, lexed);
    for (const l of lines) {
      for (const [re, what] of OTHER_FORMAT_MARKERS) {
        if (re.test(l.text)) return { score: 0, reason: `${what} at line ${l.line} belongs to another format` };
      }
    }
    let floor = 0;
    let firstFence: number | null = null;
    for (const block of scanFences(lines)) {
      firstFence ??= block.open;
      let k = block.open - 1;
      while (k >= floor && lines[k].text.trim() === '') k--;
      if (k >= floor && namesFile(lines[k].text, [])) {
        const path = pathFromLine(lines[k].text, []);
        if (path !== null)
          return { score: 0.2, reason: `path line \`${path}\` at line ${lines[k].line} before a fence at line ${lines[block.open].line}` };
      }
      const info = pathFromInfo(block.fence.info, []);
      if (info !== null)
        return { score: 0.2, reason: `path \`${info}\` in the info string of the fence at line ${lines[block.open].line}` };
      floor = block.close === null ? lines.length : block.close + 1;
    }
    if (firstFence !== null)
      return { score: 0.1, reason: `a code fence at line ${lines[firstFence].line}, with no path line (the weakest evidence)` };
    return { score: 0, reason: 'no code fence' };
  },
  write: writeWhole,
  stream: WHOLE_STREAM,
  prompt: PROMPT,
  marker: MARKER,
};
