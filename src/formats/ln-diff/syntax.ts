// The lexical pieces of ln-diff: markers, numbered lines, the numbered view.

/** U+2502 BOX DRAWINGS LIGHT VERTICAL: the one true bar. */
export const BAR = '\u2502';

/** Characters models write instead of the bar: accepted with a warning. */
export const SUBSTITUTE_BARS = ['|', '\u2503', '\u250A', '\u2506', '\u254E', '\u00A6', '\uFF5C', '\u2223', '\uFFE8'];

const BARS = `[${BAR}${SUBSTITUTE_BARS.map((c) => (c === '|' ? '\\|' : c)).join('')}]`;

/** Markers are matched on the trimmed line; 5 to 9 marker characters. */
export const HEAD = /^<{5,9}[ \t]*REMOVE$/;
export const DIVIDER = /^={5,9}$/;
export const END = /^>{5,9}[ \t]*INSERT$/;
export const OPEN_TAG = /^<editblock>$/;
export const CLOSE_TAG = /^<\/editblock>/;

/** A numbered line: optional blanks, 1 to 9 digits, optional blanks, a bar, the content verbatim. */
const NUMBERED = new RegExp(`^([ \\t]*)(\\d{1,9})[ \\t]*(${BARS})`, 'u');

export interface NumberedLine {
  number: number;
  /** Columns (0-based, half-open) of the digits. */
  numberFrom: number;
  numberTo: number;
  bar: string;
  /** Column (0-based) where the content starts. */
  contentStart: number;
  content: string;
}

export function numberedLine(text: string): NumberedLine | null {
  const m = NUMBERED.exec(text);
  if (!m) return null;
  const contentStart = m[0].length;
  const numberFrom = m[1].length;
  return {
    number: Number(m[2]),
    numberFrom,
    numberTo: numberFrom + m[2].length,
    bar: m[3],
    contentStart,
    content: text.slice(contentStart),
  };
}

/**
 * The prefix of an INSERT line: blanks, optional digits, blanks, then `bar`.
 * Only such a prefix is stripped, so `print('a│b')` stays whole.
 */
export function insertPrefix(text: string, bar: string = BAR): { length: number; numbered: boolean } | null {
  let i = 0;
  while (text[i] === ' ' || text[i] === '\t') i++;
  const digitsFrom = i;
  while (i < text.length && text.charCodeAt(i) >= 48 && text.charCodeAt(i) <= 57) i++;
  const numbered = i > digitsFrom;
  while (text[i] === ' ' || text[i] === '\t') i++;
  if (!text.startsWith(bar, i)) return null;
  return { length: i + bar.length, numbered };
}

/** Width of the number column for a file of `count` lines. */
export function numberWidth(count: number): number {
  return String(Math.max(count, 1)).length;
}

/**
 * The numbered view a model is shown: `N│text` per line, numbers
 * right-aligned to the width of the largest. Every line ends with `\n`
 * (line endings and a missing final newline are not shown); an empty file
 * is an empty view.
 */
export function renderView(lines: readonly string[]): string {
  const width = numberWidth(lines.length);
  let out = '';
  for (let i = 0; i < lines.length; i++) out += String(i + 1).padStart(width, ' ') + BAR + lines[i] + '\n';
  return out;
}

/** Read a numbered view back into its lines; throws on a line that is not `N│text` in sequence. */
export function parseView(view: string): string[] {
  const rows = view.split('\n');
  if (rows[rows.length - 1] === '') rows.pop();
  return rows.map((row, i) => {
    const n = numberedLine(row);
    if (!n || n.number !== i + 1 || n.bar !== BAR)
      throw new SyntaxError(`line ${i + 1}: expected "${i + 1}${BAR}" followed by the line's text`);
    return n.content;
  });
}
