// The lexical pieces of Roo Code's apply_diff: markers, line hints, the
// backslash escape, `N | ` line-number prefixes, text normalisation and the
// read_file view. spec/formats/roo.md is the contract.

/** Markers are matched on the line with blanks removed from both ends. */
export const SEARCH = /^<{5,9}[ \t]*SEARCH>?$/;
export const DIVIDER = /^=======$/;
export const SEPARATOR = /^-------$/;
export const REPLACE = /^>{5,9}[ \t]*REPLACE$/;

/** A well-formed line hint: `:start_line:12` (blanks around the number allowed). */
export const START_LINE = /^:start_line:[ \t]*(\d+)$/;
export const END_LINE = /^:end_line:[ \t]*(\d+)$/;
/** Anything that starts like a line hint (well-formed or not). */
export const LINE_MARKER = /^:(start|end)_line/;

/** Closing tags of the tool-call elements that can hold blocks. */
export const CLOSE_CONTAINER = /^<\/(apply_diff|args|file|diff|content)>/;

/** Roo's read_file prefix: blanks, digits, at least one blank, a single `|` (Roo's `everyLineHasLineNumbers`). */
export const NUMBERED = /^[ \t]*(\d+)[ \t]+\|(?!\|)/;
/** The prefix stripped from a numbered line: the above plus at most one space. */
const NUMBERED_STRIP = /^[ \t]*(\d+)[ \t]+\|(?!\|) ?/;

/**
 * Lines that start like a SEARCH or REPLACE marker: escaped even when more
 * follows, so that a reply cut short inside such a line never ends in a marker.
 */
const SEARCH_START = /^<{5,9}[ \t]*SEARCH/;
const REPLACE_START = /^>{5,9}[ \t]*REPLACE/;

/** What Roo escapes with a leading backslash (its `unescapeMarkers`). */
const ESCAPED_PREFIXES = ['<<<<<<<', '=======', '>>>>>>>', '-------', ':start_line:', ':end_line:'];

/**
 * A line that must be escaped to be content: once its leading backslashes
 * are removed, it starts with one of Roo's escaped prefixes, or, trimmed,
 * it starts like a SEARCH or REPLACE marker or a line hint or is a divider,
 * or it looks like a
 * `N | ` line-number prefix. An indented `-------` is not included: the
 * separator only counts right after the hints, and a written block always
 * has one there (numpy-style docstring underlines stay as they are). Defined on the line without its leading
 * backslashes, so escaping and unescaping are inverse of each other.
 */
export function needsEscape(line: string): boolean {
  const bare = line.replace(/^\\+/, '');
  if (ESCAPED_PREFIXES.some((p) => bare.startsWith(p))) return true;
  const t = bare.trim();
  if (SEARCH_START.test(t) || DIVIDER.test(t) || REPLACE_START.test(t) || LINE_MARKER.test(t)) return true;
  return NUMBERED.test(bare);
}

/** The line as written in a block: one more backslash when it needs escaping. */
export function escapeLine(line: string): string {
  return needsEscape(line) ? '\\' + line : line;
}

/** Columns of the escape to drop when reading a content line (0 or 1). */
export function escapeLength(line: string): number {
  return line.startsWith('\\') && needsEscape(line) ? 1 : 0;
}

/** The length of a line's `N | ` prefix, or -1 when it has none. */
export function numberedPrefix(line: string): { length: number; number: number } | null {
  const m = NUMBERED_STRIP.exec(line);
  return m ? { length: m[0].length, number: Number(m[1]) } : null;
}

/** Roo's `normalizeString` (src/utils/text-normalization.ts): typographic folding, whitespace runs collapsed, trimmed. */
export function normalize(text: string): string {
  return text
    .replace(/[\u201C\u201D]/g, '"')
    .replace(/[\u2018\u2019]/g, "'")
    .replace(/\u2026/g, '...')
    .replace(/[\u2014\u2013]/g, '-')
    .replace(/\u00A0/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

/** The leading blanks (spaces and tabs) of a line. */
export function indentOf(line: string): string {
  return /^[ \t]*/.exec(line)![0];
}

/**
 * Roo's read_file view (`addLineNumbers`): `N | line` per line, numbers
 * right-aligned to the width of the largest, every line ended by LF; an
 * empty file is an empty view.
 */
export function renderView(lines: readonly string[]): string {
  const width = String(lines.length).length;
  let out = '';
  for (let i = 0; i < lines.length; i++) out += `${String(i + 1).padStart(width, ' ')} | ${lines[i]}\n`;
  return out;
}
