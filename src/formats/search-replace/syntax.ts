// The lexical pieces of aider's SEARCH/REPLACE blocks: markers, fences,
// path lines. spec/formats/search-replace.md is the contract.

/** Markers are matched on the trimmed line: 5 to 9 marker characters (aider's `<{5,9}`). */
export const HEAD = /^(<{5,9})[ \t]*SEARCH>?$/;
export const DIVIDER = /^={5,9}$/;
export const END = /^>{5,9}[ \t]*REPLACE$/;

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
export const isBlank = (text: string): boolean => /^[ \t]*$/.test(text);

/**
 * The divider written "like the head": the head line's own leading text
 * (everything before its first `<`) followed by as many `=` as the head has
 * `<`. Used to tell the real divider from content lines that look like one.
 */
export function dividerShapedLike(headRaw: string): string {
  const at = headRaw.indexOf('<');
  const indent = headRaw.slice(0, at);
  const count = /^<+/.exec(headRaw.slice(at))![0].length;
  return indent + '='.repeat(count);
}

