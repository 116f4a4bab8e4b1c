// Differences a reader cannot see: two lines that render alike but are not
// the same string. Unicode normalisation (`é` as one code point, U+00E9, or
// as `e` and U+0301 COMBINING ACUTE ACCENT) and zero-width characters
// (U+200B, U+200C, U+200D, U+2060, U+FEFF) change the bytes and not the
// glyphs: a model copying a line can neither see nor reproduce them. The
// whitespace rung of the ladder forgives them (spec/matching.md,
// "Comparisons"), and a message that quotes a file line beside a cited line
// that looks the same names the first code point that differs, since the two
// quotes alone would read as identical.

/** The zero-width characters a line may hide: forgiven at the whitespace rung. */
export const ZERO_WIDTH = /[\u200B\u200C\u200D\u2060\uFEFF]/g;

/**
 * Any code point above ASCII: a text without one has nothing to normalise
 * (its NFC form is itself, and it holds no zero-width character).
 */
export const NON_ASCII = /[^\x00-\x7f]/;

/**
 * A line as the whitespace rung compares it: its zero-width characters
 * removed, in Unicode normal form C, without trailing white space. Lines
 * with the same key are *whitespace-equal*. ASCII lines cost one `trimEnd`.
 */
export function visibleKey(line: string): string {
  if (!NON_ASCII.test(line)) return line.trimEnd();
  return line.replace(ZERO_WIDTH, '').normalize('NFC').trimEnd();
}

/** The code points of a line. */
const codePoints = (line: string): number[] => Array.from(line, (c) => c.codePointAt(0)!);

/** At most this many code points on each side make a difference small enough to be missed. */
const SMALL = 4;

/**
 * The stretch where two lines differ, in code points: the common start and
 * the common end (not overlapping) set aside. `column` counts from 1.
 */
function difference(line: string, cited: string): { column: number; ours: number[]; theirs: number[] } {
  const a = codePoints(line);
  const b = codePoints(cited);
  let start = 0;
  while (start < a.length && start < b.length && a[start] === b[start]) start++;
  let end = 0;
  while (end < a.length - start && end < b.length - start && a[a.length - 1 - end] === b[b.length - 1 - end]) end++;
  return { column: start + 1, ours: a.slice(start, a.length - end), theirs: b.slice(start, b.length - end) };
}

/**
 * Whether two different lines can look the same when quoted: once their
 * common start and end are set aside, at most four code points are left on
 * each side and at least one of them is not ASCII (a zero-width character,
 * a combining mark, a no-break space, a Cyrillic `а` for a Latin `a`, a
 * curly quote).
 */
export function looksAlike(a: string, b: string): boolean {
  if (a === b || !NON_ASCII.test(a + b)) return false;
  const { ours, theirs } = difference(a, b);
  return ours.length <= SMALL && theirs.length <= SMALL && [...ours, ...theirs].some((cp) => cp > 0x7f);
}

/** Names of the code points that make lines look alike, for messages. */
const NAMES: Record<number, string> = {
  0x00a0: 'NO-BREAK SPACE',
  0x2009: 'THIN SPACE',
  0x3000: 'IDEOGRAPHIC SPACE',
  0x00ad: 'SOFT HYPHEN',
  0x2007: 'FIGURE SPACE',
  0x202f: 'NARROW NO-BREAK SPACE',
  0x200b: 'ZERO WIDTH SPACE',
  0x200c: 'ZERO WIDTH NON-JOINER',
  0x200d: 'ZERO WIDTH JOINER',
  0x2060: 'WORD JOINER',
  0xfeff: 'ZERO WIDTH NO-BREAK SPACE',
  0x0300: 'COMBINING GRAVE ACCENT',
  0x0301: 'COMBINING ACUTE ACCENT',
  0x0302: 'COMBINING CIRCUMFLEX ACCENT',
  0x0303: 'COMBINING TILDE',
  0x0304: 'COMBINING MACRON',
  0x0306: 'COMBINING BREVE',
  0x0307: 'COMBINING DOT ABOVE',
  0x0308: 'COMBINING DIAERESIS',
  0x030a: 'COMBINING RING ABOVE',
  0x030b: 'COMBINING DOUBLE ACUTE ACCENT',
  0x030c: 'COMBINING CARON',
  0x0323: 'COMBINING DOT BELOW',
  0x0327: 'COMBINING CEDILLA',
  0x0328: 'COMBINING OGONEK',
};

/** `U+0301 COMBINING ACUTE ACCENT`, or `U+00E9 "é"` for a code point that shows. */
export function codePointName(cp: number): string {
  const hex = `U+${cp.toString(16).toUpperCase().padStart(4, '0')}`;
  const name = NAMES[cp];
  return name ? `${hex} ${name}` : `${hex} ${JSON.stringify(String.fromCodePoint(cp))}`;
}

/** At most this many code points are named on each side of a difference. */
const NAMED_MAX = 4;

function named(cps: readonly number[]): string {
  const shown = cps.slice(0, NAMED_MAX).map(codePointName).join(', ');
  return cps.length > NAMED_MAX ? `${shown} and ${cps.length - NAMED_MAX} more` : shown;
}

/**
 * Where `line` (the file's) and `cited` (the reply's) first differ, in code
 * points, named: `at column 4 the file has U+00E9 "é" where the SEARCH has
 * U+0065 "e", U+0301 COMBINING ACUTE ACCENT`. Columns count code points from
 * 1. `who` names the cited side ("the edit", "the SEARCH", ...). The span
 * named on each side is what remains once the common start and end are
 * removed. Empty when the lines are equal.
 */
export function firstDifference(line: string, cited: string, who = 'the edit'): string {
  if (line === cited) return '';
  const { column, ours, theirs } = difference(line, cited);
  const at = `at column ${column}`;
  if (theirs.length === 0) return `${at} the file has ${named(ours)}, which ${who} does not have`;
  if (ours.length === 0) return `${at} ${who} has ${named(theirs)}, which the file does not have`;
  return `${at} the file has ${named(ours)} where ${who} has ${named(theirs)}`;
}

/**
 * For a message quoting a file line beside a cited line: ` (they look
 * alike: at column 4 ...)` when the two render alike, else empty.
 */
export function alikeNote(line: string, cited: string, who = 'the edit'): string {
  return looksAlike(line, cited) ? ` (they may look alike: ${firstDifference(line, cited, who)})` : '';
}
