// Fenced blocks in a model reply, as the `whole` and `between` formats read
// them (spec/formats/whole.md, "Fences"). CommonMark's fence rules, plus
// aider's tag fences and one deliberate extension: a fence line with an info
// string inside a block of the same character opens a nested fence.

import type { ReplyLine } from '../../core/reply.ts';

/** aider's other fence pairs (`base_coder.all_fences`), written `<name>` … `</name>`. */
export const TAG_FENCES = ['source', 'code', 'pre', 'codeblock', 'sourcecode'] as const;

const BACKTICK_OPEN = /^( {0,3})(`{3,})([^`]*)$/;
const TILDE_OPEN = /^( {0,3})(~{3,})(.*)$/s;
const TAG_OPEN = new RegExp(`^\\s*<(${TAG_FENCES.join('|')})>([^<>]*)$`, 'i');

export interface Opener {
  /** `` ` ``, `~`, or `tag` for aider's `<source>`-style fences. */
  char: '`' | '~' | 'tag';
  /** The fence itself: the run of backticks or tildes, or `<source>`. */
  marker: string;
  /** The info string, trimmed (`python`, `python:src/a.py`, …). */
  info: string;
  /** Leading spaces before the fence (0-3); removed from content lines too. */
  indent: number;
  /** For tag fences: the closing line, e.g. `</source>`. */
  closer?: string;
}

/** The opening fence on this line, if it is one. */
export function opener(text: string): Opener | null {
  let m = BACKTICK_OPEN.exec(text);
  if (m) return { char: '`', marker: m[2], info: m[3].trim(), indent: m[1].length };
  m = TILDE_OPEN.exec(text);
  if (m) return { char: '~', marker: m[2], info: m[3].trim(), indent: m[1].length };
  m = TAG_OPEN.exec(text);
  if (m) {
    const name = m[1].toLowerCase();
    return { char: 'tag', marker: `<${name}>`, info: m[2].trim(), indent: 0, closer: `</${name}>` };
  }
  return null;
}

/** A run of `char` (3 or more) at the start of the line, after at most 3 spaces, and what follows it. */
function run(text: string, char: '`' | '~'): { length: number; rest: string } | null {
  const m = char === '`' ? /^ {0,3}(`{3,})(.*)$/s.exec(text) : /^ {0,3}(~{3,})(.*)$/s.exec(text);
  return m ? { length: m[1].length, rest: m[2] } : null;
}

export interface NestedFence {
  /** Index of the line that opened the nested fence. */
  open: number;
  /** Index of the line that closed it, or null when the block ended first. */
  close: number | null;
}

export interface FenceBlock {
  /** Index (into the reply lines) of the opening fence line. */
  open: number;
  /** Index of the closing fence line; null when the reply ends inside the block. */
  close: number | null;
  fence: Opener;
  /** Indexes of the content lines, parallel to `content`. */
  lineIndexes: number[];
  /** Content lines, with up to `fence.indent` leading spaces removed. */
  content: string[];
  /** Fences opened inside the block and read as nested (the extension). */
  nested: NestedFence[];
}

function dedent(text: string, indent: number): string {
  let k = 0;
  while (k < indent && text[k] === ' ') k++;
  return text.slice(k);
}

/**
 * Every fenced block of the reply, in order. Outside blocks, a line that is
 * an opening fence starts one. Inside a block of backticks (or tildes) of
 * length L, the innermost open fence (length T, at first L) closes on a line
 * of the same character, at least T long, with nothing else but blanks; a
 * line of the same character at least T long followed by an info string
 * opens a nested fence of its own length. Tag fences close on their closing
 * tag alone on a line and do not nest.
 */
export function scanFences(lines: readonly ReplyLine[]): FenceBlock[] {
  const blocks: FenceBlock[] = [];
  let i = 0;
  while (i < lines.length) {
    const fence = opener(lines[i].text);
    if (!fence) {
      i++;
      continue;
    }
    const block: FenceBlock = { open: i, close: null, fence, lineIndexes: [], content: [], nested: [] };
    const stack: { length: number; nested: NestedFence | null }[] = [{ length: fence.marker.length, nested: null }];
    let k = i + 1;
    for (; k < lines.length; k++) {
      const text = lines[k].text;
      if (fence.char === 'tag') {
        if (text.trim().toLowerCase() === fence.closer) {
          block.close = k;
          break;
        }
      } else {
        const r = run(text, fence.char);
        const top = stack[stack.length - 1];
        if (r && r.length >= top.length) {
          if (/^[ \t]*$/.test(r.rest)) {
            stack.pop();
            if (top.nested) top.nested.close = k;
            if (stack.length === 0) {
              block.close = k;
              break;
            }
          } else if (fence.char === '~' || !r.rest.includes('`')) {
            const nested: NestedFence = { open: k, close: null };
            block.nested.push(nested);
            stack.push({ length: r.length, nested });
          }
        }
      }
      block.lineIndexes.push(k);
      block.content.push(dedent(text, fence.indent));
    }
    blocks.push(block);
    i = block.close === null ? lines.length : block.close + 1;
  }
  return blocks;
}

/** The longest run of backticks that starts a line (after any blanks) in `lines`. */
export function longestBacktickRun(lines: readonly string[]): number {
  let longest = 0;
  for (const line of lines) {
    const m = /^\s*(`+)/.exec(line);
    if (m) longest = Math.max(longest, m[1].length);
  }
  return longest;
}

/** A backtick fence that no line of `lines` can close or nest in: longer than any run that starts a line. */
export function fenceFor(lines: readonly string[]): string {
  return '`'.repeat(Math.max(3, longestBacktickRun(lines) + 1));
}

/** Languages whose blocks are commands for the user to run (aider's shell blocks), not file content. */
const SHELLS = new Set([
  'bash', 'sh', 'shell', 'zsh', 'fish', 'ksh', 'csh', 'tcsh', 'console', 'terminal', 'shellsession',
  'cmd', 'bat', 'batch', 'powershell', 'pwsh', 'ps1',
]);

/** The block's info string names a shell (first word, case-insensitive). */
export function isShellInfo(info: string): boolean {
  const word = info.split(/\s+/)[0]?.toLowerCase() ?? '';
  return SHELLS.has(word);
}
