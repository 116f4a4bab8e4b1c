// Fenced blocks in a model reply, as the `whole` and `between` formats read
// them (spec/formats/whole.md, "Fences"). CommonMark's fence rules, plus
// aider's tag fences and two deliberate extensions: a fence line with an info
// string inside a block of the same character opens a nested fence (rule 5),
// and a block whose closing fence is followed right away by text and then
// by another line that could close it is read to that line and marked as
// closed early (rule 6): the caller refuses it with `ambiguous-end`.

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
  /**
   * Lines that closed the block by rule 2 but were read as content because
   * the block went on after them (rule 6), in order; empty for a block that
   * closed where CommonMark closes it. A block with any is refused.
   */
  early: number[];
  /**
   * For a complete block after a block closed early, in a reply that ends
   * inside a block: the opening line of that block closed early. The
   * reply's fences after it are paired off by one (rule 6's last
   * paragraph), so this block is refused too. Null otherwise.
   */
  after: number | null;
}

function dedent(text: string, indent: number): string {
  let k = 0;
  while (k < indent && text[k] === ' ') k++;
  return text.slice(k);
}

/** The line closes a block opened by `fence` whose nested fences have all closed. */
function closes(text: string, fence: Opener): boolean {
  if (fence.char === 'tag') return text.trim().toLowerCase() === fence.closer;
  const r = run(text, fence.char);
  return r !== null && r.length >= fence.marker.length && /^[ \t]*$/.test(r.rest);
}

/**
 * Rule 6: the block closed by line `c` was closed early, when the line right
 * after `c` is text (not blank, not a fence line) and the first fence line
 * after `c` (a line that opens a fence, or the block's closing tag) could
 * close the block too. Scans the lines up to that fence line only.
 */
function closedEarly(lines: readonly ReplyLine[], c: number, fence: Opener): boolean {
  if (c + 1 >= lines.length || lines[c + 1].text.trim() === '' || opener(lines[c + 1].text) !== null) return false;
  for (let d = c + 2; d < lines.length; d++) {
    const text = lines[d].text;
    if (opener(text) !== null || (fence.char === 'tag' && text.trim().toLowerCase() === fence.closer)) return closes(text, fence);
  }
  return false;
}

/**
 * Every fenced block of the reply, in order. Outside blocks, a line that is
 * an opening fence starts one. Inside a block of backticks (or tildes) of
 * length L, the innermost open fence (length T, at first L) closes on a line
 * of the same character, at least T long, with nothing else but blanks; a
 * line of the same character at least T long followed by an info string
 * opens a nested fence of its own length. Tag fences close on their closing
 * tag alone on a line and do not nest. A line that would close the block
 * but was closed early (see `closedEarly`) is content, and is listed in
 * `early`; the complete blocks after the last such block are marked `after`
 * when the reply ends inside a block.
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
    const block: FenceBlock = { open: i, close: null, fence, lineIndexes: [], content: [], nested: [], early: [], after: null };
    const stack: { length: number; nested: NestedFence | null }[] = [{ length: fence.marker.length, nested: null }];
    let k = i + 1;
    for (; k < lines.length; k++) {
      const text = lines[k].text;
      if (fence.char === 'tag') {
        if (text.trim().toLowerCase() === fence.closer) {
          if (!closedEarly(lines, k, fence)) {
            block.close = k;
            break;
          }
          block.early.push(k);
        }
      } else {
        const r = run(text, fence.char);
        const top = stack[stack.length - 1];
        if (r && r.length >= top.length) {
          if (/^[ \t]*$/.test(r.rest)) {
            stack.pop();
            if (top.nested) top.nested.close = k;
            if (stack.length === 0) {
              if (!closedEarly(lines, k, fence)) {
                block.close = k;
                break;
              }
              block.early.push(k);
              stack.push({ length: fence.marker.length, nested: null });
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
  // A reply that ends inside a block after a block closed early: the fences
  // between were paired off by one, so the complete blocks between are refused.
  const last = blocks[blocks.length - 1];
  if (last !== undefined && last.close === null) {
    let k = blocks.length - 2;
    while (k >= 0 && blocks[k].early.length === 0) k--;
    if (k >= 0) for (let j = k + 1; j < blocks.length - 1; j++) blocks[j].after = blocks[k].open;
  }
  return blocks;
}

/**
 * Texts that, appended to a reply that ends with complete lines, would make
 * a block that closed on its last lines closed early (rule 6), whatever its
 * fence: a line of text, then a line that closes any backtick fence of the
 * reply (after every closing tag of aider's tag fences), or any tilde
 * fence; and an opening fence that the reply ends inside. A read block
 * that none of them changes keeps its end and its result whatever follows:
 * for streaming.
 */
export function earlyCloseProbes(reply: string): string[] {
  let longest = 3;
  for (const m of reply.matchAll(/^ {0,3}(`{3,}|~{3,})/gm)) longest = Math.max(longest, m[1].length);
  const tags = TAG_FENCES.map((t) => `</${t}>\n`).join('');
  // The last: a block that the reply then ends inside, which refuses the
  // complete blocks after one that closed early (fences paired off by one).
  return [`x\n${tags}${'`'.repeat(longest)}\n`, `x\n${'~'.repeat(longest)}\n`, '```x\n'];
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
