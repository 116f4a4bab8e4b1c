// hashline: antirez's line:tag edit tool calls. The format's whole surface for the registry.

import { parseText } from '../../core/text.ts';
import type { Format } from '../../core/types.ts';
import { locateHashline } from './locate.ts';
import { parseHashline } from './parse.ts';
import { renderView } from './tag.ts';
import { writeHashline } from './write.ts';
import { JSON_CALLS_STREAM } from '../str-replace/stream.ts';
import { MARKER, PROMPT } from './prompt.ts';

/** Markers, strongest first: [pattern, score, what it is]. */
const MARKERS: [RegExp, number, string][] = [
  [/"tool"\s*:\s*"edit"/i, 1, '`"tool": "edit"`'],
  [/"lines"\s*:\s*"\s*\d+:[A-Za-z0-9_-]{4}\b/, 1, 'a hashline `"lines": "N:TAG"`'],
  [/"line"\s*:\s*\d+\s*,\s*"tag"\s*:\s*"[A-Za-z0-9_-]{4}"|"tag"\s*:\s*"[A-Za-z0-9_-]{4}"\s*,\s*"line"\s*:\s*\d+/, 1, 'a hashline `"line"` with its `"tag"`'],
  [/"file_tag"\s*:\s*"[0-9A-Fa-f]{8}"/, 1, 'a hashline `"file_tag"`'],
  [/"tool"\s*:\s*"write"/i, 0.9, '`"tool": "write"`'],
];

export const hashline: Format = {
  name: 'hashline',
  title: 'hashline line:tag edits',
  parse: parseHashline,
  detect(reply) {
    // A call's arguments may be JSON text in a string (`"arguments": "{\"path\": …}"`): its quotes are escaped.
    const text = reply.includes('\\"') ? reply.replaceAll('\\"', '"') : reply;
    for (const [re, score, what] of MARKERS) {
      const m = re.exec(text);
      if (m) {
        const line = text.slice(0, m.index).split('\n').length;
        return { score, reason: `${what} at line ${line}` };
      }
    }
    return { score: 0, reason: 'no `"tool": "edit"` call and no `"lines"`/`"tag"` citation' };
  },
  write: writeHashline,
  createHint: 'to create a file, use {"tool": "write", "path": ..., "content": ...}',
  view: (text) => renderView(parseText(text).lines),
  locate: locateHashline,
  stream: JSON_CALLS_STREAM,
  openers: ['{"tool": "edit"', '{"tool":"edit"', '{"tool": "write"', '{"tool":"write"'],
  markers: [
    {
      // JSON, or a dict with single quotes (Python's repr), which is not JSON.
      line: /(["'])tool\1\s*:\s*(["'])(?:edit|write)\2/i,
      expected:
        'is taken for a hashline tool call, but no edit was read from it: an edit is one JSON object, `{"tool": "edit", "path": "...", "line": N, "tag": "TAG", "new": "..."}` (or `"lines": "N:TAG\\n..."` for several lines), and a new file is `{"tool": "write", "path": "...", "content": "..."}`',
    },
  ],
  prompt: PROMPT,
  marker: MARKER,
};
