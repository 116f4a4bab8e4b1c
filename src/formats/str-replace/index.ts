// Text-editor tool calls (Anthropic's `str_replace_based_edit_tool` /
// `str_replace_editor` and the tools modelled on it): JSON commands
// `str_replace`, `insert` and `create`. The format's whole surface for the registry.

import type { Edit, Format } from '../../core/types.ts';
import { withViewPrefixes } from '../../core/view-prefix.ts';
import { locateStr } from './locate.ts';
import { parseStrReplace } from './parse.ts';
import { writeStrReplace } from './write.ts';
import { MARKER, PROMPT } from './prompt.ts';
import { JSON_CALLS_STREAM } from './stream.ts';

const lineAt = (reply: string, offset: number) => reply.slice(0, offset).split('\n').length;

/** The lines of an edit's old_str (a line break ending it starts no line). */
const oldLines = (edit: Edit): string[] => String(edit.meta?.old_str ?? '').replace(/\r\n/g, '\n').replace(/\n$/, '').split('\n');

export const strReplace: Format = {
  name: 'str-replace',
  title: 'text-editor tool calls (str_replace)',
  parse: parseStrReplace,
  detect(reply) {
    const command = /"command"\s*:\s*"(str_replace|insert|create)"/.exec(reply);
    if (command) return { score: 1, reason: `\`"command": "${command[1]}"\` at line ${lineAt(reply, command.index)}` };
    const tool = /"(str_replace_based_edit_tool|str_replace_editor)"/.exec(reply);
    if (tool) return { score: 1, reason: `the tool name \`${tool[1]}\` at line ${lineAt(reply, tool.index)}` };
    const old = /"old_str"\s*:/.exec(reply);
    if (old) return { score: 0.3, reason: `\`"old_str"\` at line ${lineAt(reply, old.index)}, without a command` };
    return { score: 0, reason: 'no `"command": "str_replace"`, `"insert"` or `"create"`' };
  },
  write: writeStrReplace,
  // An old_str copied with the numbered view's `12│` prefixes fails saying so (core/view-prefix.ts).
  locate: (lines, edit, options, budget) => withViewPrefixes(locateStr(lines, edit, budget), lines, oldLines(edit), edit.file, 'the lines of old_str', options),
  stream: JSON_CALLS_STREAM,
  openers: ['{"command": "str_replace"', '{"command":"str_replace"', '{"command": "insert"', '{"command":"insert"', '{"command": "create"', '{"command":"create"'],
  markers: [
    {
      // JSON, or the XML parameters of a tool-call transcript (`<parameter name="command">str_replace</parameter>`), which this format does not read.
      line: /"command"\s*:\s*"(?:str_replace|insert|create)"|"old_str"\s*:|<parameter name="(?:command">\s*(?:str_replace|insert|create)\b|old_str")/,
      expected:
        'is taken for a text-editor call, but no edit was read from it: an edit is one JSON object, `{"command": "str_replace", "path": "...", "old_str": "...", "new_str": "..."}`, `{"command": "insert", "path": "...", "insert_line": N, "new_str": "..."}` or `{"command": "create", "path": "...", "file_text": "..."}`',
    },
  ],
  prompt: PROMPT,
  marker: MARKER,
};
