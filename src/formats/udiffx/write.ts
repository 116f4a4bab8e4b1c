// Write changes as a udiffx envelope: FILE_NEW for a new file (FILE_APPEND
// when its text holds FILE_NEW's own tags), FILE_DELETE for a deleted one,
// FILE_PATCH (numbered unified-diff hunks, three lines of context) for a
// changed one. Also the FILE_CONTENT block prompts show files in.

import { lacksFinalNewline, parseText } from '../../core/text.ts';
import type { FileChange } from '../../core/types.ts';
import { hunkLines } from '../udiff/write.ts';
import { unfenced } from './parse.ts';

const attr = (name: string, value: string) => (value.includes('"') ? `${name}='${value}'` : `${name}="${value}"`);

/**
 * A new file's text as FILE_NEW content: its lines, each ending with LF but
 * the last when the text has no final newline (the closing tag then follows
 * the last line directly).
 */
function newContent(text: string): string {
  const t = parseText(text);
  const body = t.lines.map((l) => l + '\n').join('');
  if (lacksFinalNewline(t)) return body.slice(0, -1);
  // Text that starts and ends with a fence line would lose them when read: a fence around keeps them.
  return unfenced(body) !== null ? '```\n' + body + '```\n' : body;
}

/** Whether the content could hold the closing tag or a line-starting tag of directive `name` (see `contentEnd`). */
const holdsTag = (text: string, name: string) => text.includes(`</${name}>`) || new RegExp(`(?:^|\\n)[ \\t]*<${name}[\\s/>]`).test(text);

export function directive({ file, before, after }: FileChange): string | null {
  if (before === after) return null;
  if (after === null) return `<FILE_DELETE ${attr('path', file)}/>`;
  if (before === null) {
    const name = holdsTag(after, 'FILE_NEW') && !holdsTag(after, 'FILE_APPEND') ? 'FILE_APPEND' : 'FILE_NEW';
    return `<${name} ${attr('path', file)}>\n${newContent(after)}</${name}>`;
  }
  return `<FILE_PATCH ${attr('path', file)}>\n${hunkLines(before, after).join('\n')}\n</FILE_PATCH>`;
}

export function writeUdiffx(changes: readonly FileChange[]): string {
  const parts = changes.map(directive).filter((d): d is string => d !== null);
  return parts.length ? `<FILE_CHANGES>\n${parts.join('\n')}\n</FILE_CHANGES>\n` : '';
}

/**
 * A file as the context block udiffx's prompts show it in:
 * `<FILE_CONTENT path="…">`, the text (with a line break added when it lacks
 * a final one), `</FILE_CONTENT>`.
 */
export function fileContent(path: string, text: string): string {
  const body = text === '' || text.endsWith('\n') ? text : text + '\n';
  return `<FILE_CONTENT ${attr('path', path)}>\n${body}</FILE_CONTENT>\n`;
}
