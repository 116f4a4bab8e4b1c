// The lexical pieces of aider's SEARCH/REPLACE blocks: markers, fences,
// path lines. spec/formats/search-replace.md is the contract.

/**
 * Markers are matched on the trimmed line: aider's 5 to 9 marker characters
 * (`<{5,9}`), or Cline's `replace_in_file` markers `------- SEARCH` and
 * `+++++++ REPLACE` with 3 or more `-` or `+` (as Cline reads them). Either head goes with either
 * end marker; the divider is the same.
 */
export const HEAD = /^(?:<{5,9}|-{3,})[ \t]*SEARCH>?$/;
export const DIVIDER = /^={5,9}$/;
export const END = /^(?:>{5,9}|\+{3,})[ \t]*REPLACE>?$/;

/** The markers a block is told to use in messages: aider's, or Cline's when its head is Cline's. */
export function markersLike(head: string): { head: string; divider: string; end: string; char: '<' | '-'; endChar: '>' | '+' } {
  return head.trim().startsWith('-')
    ? { head: '------- SEARCH', divider: '=======', end: '+++++++ REPLACE', char: '-', endChar: '+' }
    : { head: '<<<<<<< SEARCH', divider: '=======', end: '>>>>>>> REPLACE', char: '<', endChar: '>' };
}

/**
 * A code-fence line, opening or closing, as aider writes them (its
 * `all_fences`): three or more backticks or tildes, with or without an info
 * string; or, when a file holds ```, one of the tags `<source>`, `<code>`,
 * `<pre>`, `<codeblock>`, `<sourcecode>` (an info string may follow the
 * opening tag: `<source>python`) and its closing tag alone.
 */
export const FENCE = /^(?:`{3,}|~{3,}|<(?:source|code|pre|codeblock|sourcecode)>[^<>]*$|<\/(?:source|code|pre|codeblock|sourcecode)>$)/;

/**
 * The path an opening fence line names in its info string, as aider reads
 * it (```` ```src/app.py ````, `<source>app.py`): one word with a `/`, or
 * ending in an extension with a letter; null for a language (```` ```python ````,
 * ```` ```python3.12 ````) or no info string.
 */
export function fencePath(text: string): string | null {
  const m = /^(?:`{3,}|~{3,}|<(?:source|code|pre|codeblock|sourcecode)>)(.*)$/.exec(text.trim());
  if (!m) return null;
  const info = m[1].trim();
  if (info === '' || /[\s`<>]/.test(info) || info.endsWith('/')) return null;
  if (info.includes('/')) return info;
  const extension = info.slice(info.lastIndexOf('.') + 1);
  return info.includes('.') && /^[\w-]+$/.test(extension) && /[A-Za-z]/.test(extension) ? info : null;
}

/** The line that splits SEARCH and REPLACE into `...` elision pieces. */
export const ELISION = '...';

export const isHead = (text: string): boolean => HEAD.test(text.trim());
export const isDivider = (text: string): boolean => DIVIDER.test(text.trim());
export const isEnd = (text: string): boolean => END.test(text.trim());
export const isFence = (text: string): boolean => FENCE.test(text.trim());

/** A line that holds nothing but spaces and tabs (possibly nothing at all). */
export { isBlank } from '../../core/blank.ts';

/**
 * The divider written "like the head": the head line's own leading text
 * (everything before its first `<` or `-`) followed by as many `=` as the
 * head has `<` or `-`. Used to tell the real divider from content lines
 * that look like one.
 */
export function dividerShapedLike(headRaw: string): string {
  const at = headRaw.search(/[<-]/);
  const indent = headRaw.slice(0, at);
  const count = /^(?:<+|-+)/.exec(headRaw.slice(at))![0].length;
  return indent + '='.repeat(count);
}

// Cline's `replace_in_file` tool call, written as XML in the reply:
// `<replace_in_file>`, `<path>PATH</path>`, `<diff>`, the blocks, `</diff>`,
// `</replace_in_file>`. Matched on trimmed lines that hold tags only; tags
// may share a line (`<replace_in_file><path>a.py</path><diff>`,
// `</diff></replace_in_file>`), as Cline's own reader allows.
export const CALL_OPEN = /^<replace_in_file>(?:<.*)?$/;
export const CALL_CLOSE = /^(?:<\/diff>)?<\/replace_in_file>$/;
export const CALL_PATH = /^(?:<replace_in_file>)?<path>(.*)<\/path>(?:<diff>)?$/;
export const DIFF_OPEN = /^(?:<replace_in_file>)?(?:<path>.*<\/path>)?<diff>$/;
export const DIFF_CLOSE = /^<\/diff>(?:<\/replace_in_file>)?$/;

