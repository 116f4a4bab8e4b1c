// The lexical pieces of aider's SEARCH/REPLACE blocks: markers, fences,
// path lines. spec/formats/search-replace.md is the contract.

/** Markers are matched on the trimmed line: 5 to 9 marker characters (aider's `<{5,9}`). */
export const HEAD = /^(<{5,9})[ \t]*SEARCH>?$/;
export const DIVIDER = /^={5,9}$/;
export const END = /^>{5,9}[ \t]*REPLACE$/;

/** A code-fence line (opening or closing, with or without an info string). */
export const FENCE = /^(`{3,}|~{3,})/;

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

/** A path line with its decoration removed, and whether it was wrapped in backticks. */
export interface PathLine {
  text: string;
  quoted: boolean;
}

/**
 * Remove the decoration models put around a path line (aider's
 * `strip_filename`): surrounding blanks, a trailing `:`, leading `#` marks,
 * surrounding `*` and backticks; `\_` becomes `_`.
 */
export function cleanPathLine(line: string): PathLine {
  let s = line.trim();
  s = dropEnd(s, ':').trim();
  s = s.replace(/^#+/, '').trim();
  s = dropEnd(s.replace(/^\*+/, ''), '*').trim();
  s = dropEnd(s, ':').trim();
  const quoted = /^`[^`]+`$/.test(s);
  s = dropEnd(s.replace(/^`+/, ''), '`').trim();
  s = dropEnd(s.replace(/^\*+/, ''), '*').trim();
  s = dropEnd(s, ':').trim();
  return { text: s.replace(/\\_/g, '_'), quoted };
}

/**
 * `s` without the run of `c` at its end: what `s.replace(/c+$/, '')` gives,
 * in linear time (the regex retries from every character of a long run of
 * `c` that does not reach the end, which is quadratic).
 */
function dropEnd(s: string, c: string): string {
  let end = s.length;
  while (end > 0 && s[end - 1] === c) end--;
  return s.slice(0, end);
}

/** Characters a path written without backticks may hold: letters, digits, `_ . - + @ ~ / \`. */
const BARE_PATH = /^[\p{L}\p{N}\p{M}_.\-+@~/\\]+$/u;

/**
 * The file a path line names, or null when it names none:
 * 1. a given path (a leading `./` ignored);
 * 2. for a line without `/`, the only given path with that last segment;
 * 3. the line itself, without a leading `./`, when it looks like a path: in
 *    backticks, anything but blank, a marker or `...`; without backticks,
 *    only the characters of `BARE_PATH`, with a letter or digit, and a `/`
 *    or a `.` unless `bare` (the line stands right next to the block's
 *    opening fence, where only a path is expected).
 */
export function resolvePath(line: string, files: readonly string[], bare = false): string | null {
  if (isFence(line)) return null;
  const { text, quoted } = cleanPathLine(line);
  if (text === '' || text === ELISION || /^[<>=]/.test(text) || FENCE.test(text)) return null;
  const normal = text.replace(/^\.\//, '');
  for (const f of files) if (f === text || f.replace(/^\.\//, '') === normal) return f;
  if (!text.includes('/')) {
    const byBase = files.filter((f) => f.split('/').pop() === text);
    if (byBase.length === 1) return byBase[0];
  }
  if (normal === '' || normal.length > 255 || /[\n\r]/.test(normal)) return null;
  if (quoted) return normal;
  if (!BARE_PATH.test(normal) || !/[\p{L}\p{N}]/u.test(normal)) return null;
  if (!bare && !/[./]/.test(normal)) return null;
  return normal;
}
