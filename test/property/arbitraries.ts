// Generators shared by the property tests: lines that stress the ln-diff
// syntax, texts with a random style, and random line-level edits.

import fc from 'fast-check';
import { placeholderShape } from '../../src/core/elision.ts';
import { BOM } from '../../src/core/text.ts';

/** Characters lines are made of: ASCII, blanks, the bar and its look-alikes, wide and astral characters. */
const CHARS = [
  'a', 'b', 'x', 'Z', '0', '1', '9', '_', '.', ',', ';', ':', '(', ')', '{', '}', '"', "'", '#', '/', '\\', '-', '+', '*',
  ' ', ' ', ' ', '\t',
  '│', '|', '┃', '¦', '｜',
  '=', '<', '>', '`', '~',
  'é', 'ß', '中', '文', '字', '😀', '👍🏽', '\u00A0', '\u3000', '\u200B', '\u2028', '\uFEFF', '\uD800',
];

/** Whole lines that look like the format's own syntax. */
export const MARKERS = [
  '=======',
  '=====',
  '==========',
  '<<<<<<< REMOVE',
  '<<<<< REMOVE',
  '>>>>>>> INSERT',
  '>>>>>INSERT',
  '<editblock>',
  '</editblock>',
  '</editblock> trailing',
  '```',
  '```ts',
  '~~~',
  '│',
  ' │',
  '1│',
  '  12│foo',
  '3 | bar',
  '007│x',
  '   ',
  '\t',
  '',
  'a.txt',
  'src/b.ts',
  '# src/b.ts',
  '**a.txt**:',
];

const fromChars = fc.string({ unit: fc.constantFrom(...CHARS), maxLength: 24 });

/** One line of a file: never contains `\n` or `\r`, never starts with U+FEFF (that would be a BOM). */
export const line: fc.Arbitrary<string> = fc
  .oneof(
    { weight: 5, arbitrary: fromChars },
    { weight: 1, arbitrary: fc.string({ unit: fc.constantFrom(...CHARS), minLength: 24, maxLength: 60 }) },
    { weight: 2, arbitrary: fc.constantFrom(...MARKERS) },
    { weight: 1, arbitrary: fc.tuple(fc.constantFrom(...MARKERS), fc.constantFrom('', ' ', '  ', '\t', ' x')).map(([m, t]) => m + t) },
    { weight: 1, arbitrary: fc.tuple(fc.constantFrom('', '  ', '\t'), fc.constantFrom(...MARKERS)).map(([t, m]) => t + m) },
  )
  .map((s) => (s.startsWith(BOM) ? 'x' + s : s));

/** A small pool of lines, so that files repeat lines (as real code does). */
const pooled: fc.Arbitrary<string> = fc.constantFrom('}', '', '  return x;', 'end', '=======', '│');

export const fileLine: fc.Arbitrary<string> = fc.oneof({ weight: 4, arbitrary: line }, { weight: 1, arbitrary: pooled });

export interface Style {
  eol: '\n' | '\r\n';
  bom: boolean;
  final: boolean;
}

export const style: fc.Arbitrary<Style> = fc.record({
  eol: fc.constantFrom<'\n' | '\r\n'>('\n', '\r\n'),
  bom: fc.boolean(),
  final: fc.boolean(),
});

/**
 * Lines a text of this style can hold: without a final newline the last line
 * cannot be empty (`"a\n"` reads back as one line with an ending).
 */
export function fitLines(lines: string[], s: Style): string[] {
  if (!s.final && lines.length > 0 && lines[lines.length - 1] === '') return [...lines.slice(0, -1), 'last'];
  return lines;
}

/** Build a text from lines in a style: uniform endings, optional BOM and final newline. */
export function build(lines: readonly string[], s: Style): string {
  const head = s.bom ? BOM : '';
  if (lines.length === 0) return head;
  return head + lines.join(s.eol) + (s.final ? s.eol : '');
}

/** One line-level edit: at `at` (scaled to the file), remove `remove` lines, insert `insert`. */
export interface LineEdit {
  at: number;
  remove: number;
  insert: string[];
}

export const lineEdit: fc.Arbitrary<LineEdit> = fc.record({
  at: fc.nat({ max: 1000 }),
  remove: fc.nat({ max: 4 }),
  insert: fc.array(fileLine, { maxLength: 4 }),
});

/** Apply edits one after another (each to the result of the previous). */
export function applyLineEdits(lines: readonly string[], edits: readonly LineEdit[]): string[] {
  const out = [...lines];
  for (const e of edits) {
    const at = e.at % (out.length + 1);
    out.splice(at, Math.min(e.remove, out.length - at), ...e.insert);
  }
  return out;
}

/**
 * A file's before and after texts, built in one style, with two exceptions
 * forced by the text model: when before has no lines, after has a final
 * newline (appending to an empty file creates one), and when before has no
 * line ending at all (no lines, or one line without a final newline), after
 * uses LF (new lines take the file's dominant ending, LF when there is none).
 * Deleting every line leaves "" (plus the BOM, if any).
 */
export interface Version {
  beforeLines: string[];
  afterLines: string[];
  style: Style;
  before: string;
  after: string;
}

export function version(beforeLines: string[], edits: LineEdit[], s: Style): Version {
  const b = fitLines(beforeLines, s);
  const known = new Set(b.map((l) => l.trim()));
  edits = edits.map((e) => ({ ...e, insert: unplaceheld(e.insert, known) }));
  const endings = b.length > 1 || (b.length === 1 && s.final);
  const afterStyle: Style = { eol: endings ? s.eol : '\n', bom: s.bom, final: b.length === 0 ? true : s.final };
  const a = fitLines(applyLineEdits(b, edits), afterStyle);
  return { beforeLines: b, afterLines: a, style: s, before: build(b, s), after: build(a, afterStyle) };
}

export const fileVersion = (lines: fc.Arbitrary<string[]> = fc.array(fileLine, { maxLength: 30 })): fc.Arbitrary<Version> =>
  fc
    .tuple(lines, fc.array(lineEdit, { maxLength: 5 }), style)
    .map(([b, e, s]) => version(b, e, s));

/** Files with pairwise distinct lines (no line occurs twice in before or after). */
export const distinctVersion: fc.Arbitrary<Version> = fc
  .tuple(
    fc.uniqueArray(line, { minLength: 1, maxLength: 30 }),
    fc.array(lineEdit, { minLength: 1, maxLength: 4 }),
    style,
  )
  .map(([b, e, s]) => {
    // Insert lines are made distinct from every other line by a unique tag.
    let k = 0;
    const tagged = e.map((x) => ({ ...x, insert: x.insert.map((l) => `${l}#new${k++}`) }));
    return version(b, tagged, s);
  })
  .filter((v) => new Set(v.beforeLines).size === v.beforeLines.length && v.beforeLines.length > 0);

/** A code-like line long enough (25+ characters) for one typo to stay above the fuzzy threshold. */
export const codeLine: fc.Arbitrary<string> = fc
  .tuple(
    fc.constantFrom('', '  ', '    ', '\t', '\t\t'),
    fc.constantFrom('const', 'let', 'return', 'if (', 'await'),
    fc.constantFrom('total', 'userName', 'items', 'résumé', '数据', 'x│y'),
    fc.constantFrom(' = compute(', ' === lookup(', '.push(', ' += value('),
    fc.nat({ max: 9999 }),
    fc.constantFrom(', options);', ');', ') {', ', "😀");  ', ', "a|b"); // ======='),
  )
  .map((parts) => parts.join(''));

/** Paths for multi-file requests: nested, with blanks, basename clashes. */
export const PATHS = ['a.txt', 'src/b.ts', 'lib/deep/c.py', 'README.md', 'docs/with space.md', 'x/README.md', 'main.go'];

/** A file's before and after from lines of `lines`: up to `max` lines, up to 5 edits inserting such lines, any style. */
export const versionOf = (lines: fc.Arbitrary<string>, max = 30): fc.Arbitrary<Version> =>
  fc
    .tuple(
      fc.array(lines, { maxLength: max }),
      fc.array(fc.record({ at: fc.nat({ max: 1000 }), remove: fc.nat({ max: 4 }), insert: fc.array(lines, { maxLength: 4 }) }), { maxLength: 5 }),
      style,
    )
    .map(([b, e, s]) => version(b, e, s))
    .filter((v) => writable(v.beforeLines, v.afterLines));

/**
 * `lines` with each line that reads as a lazy elision (`...`,
 * `// ... existing code ...`) and is not `known` made into an ordinary line
 * (an `x` in front): no format can add such a line (it fails with `elided`,
 * spec/ln-diff.md, "Elisions"), so generated changes do not.
 */
export function unplaceheld(lines: readonly string[], known: ReadonlySet<string> = new Set()): string[] {
  return lines.map((l) => (placeholderShape(l.trim()) !== null && !known.has(l.trim()) ? `x${l}` : l));
}

/**
 * Whether a change can be written in any format: a new line that reads as a
 * lazy elision (`...`, `// ... existing code ...`) and is not in the file
 * fails with `elided` in every format (spec/ln-diff.md, "Elisions"), so no
 * reply adds one.
 */
export function writable(before: readonly string[], after: readonly string[]): boolean {
  const known = new Set(before.map((l) => l.trim()));
  return after.every((l) => placeholderShape(l.trim()) === null || known.has(l.trim()));
}

/** Distinct paths (up to `max`) with a version (or change) each. */
export const manyFiles = <T = Version>(v: fc.Arbitrary<T>, max = 4): fc.Arbitrary<[string[], T[]]> =>
  fc
    .uniqueArray(fc.constantFrom(...PATHS), { minLength: 1, maxLength: max })
    .chain((paths) => fc.tuple(fc.constant(paths), fc.array(v, { minLength: paths.length, maxLength: paths.length })));

export const befores = (paths: readonly string[], vs: readonly Version[]): Record<string, string> => Object.fromEntries(paths.map((p, k) => [p, vs[k].before]));
export const afters = (paths: readonly string[], vs: readonly Version[]): Record<string, string> => Object.fromEntries(paths.map((p, k) => [p, vs[k].after]));
export const changesOf = (paths: readonly string[], vs: readonly Version[]) => paths.map((file, k) => ({ file, before: vs[k].before, after: vs[k].after }));

/**
 * Up to three files under distinct paths, each up to `maxLines` lines of
 * `lines` joined by LF or CRLF, with a final newline or not (always, with
 * `alwaysFinal`).
 */
export const textFiles = (lines: fc.Arbitrary<string>, maxLines: number, alwaysFinal = false): fc.Arbitrary<Record<string, string>> =>
  fc.uniqueArray(fc.constantFrom(...PATHS), { minLength: 0, maxLength: 3 }).chain((paths) =>
    alwaysFinal
      ? fc
          .tuple(...paths.map(() => fc.tuple(fc.array(lines, { maxLength: maxLines }), fc.constantFrom('\n', '\r\n'))))
          .map((contents) => Object.fromEntries(paths.map((p, k) => [p, contents[k][0].join(contents[k][1]) + contents[k][1]])))
      : fc
          .tuple(...paths.map(() => fc.tuple(fc.array(lines, { maxLength: maxLines }), fc.constantFrom('\n', '\r\n'), fc.boolean())))
          .map((contents) => Object.fromEntries(paths.map((p, k) => [p, contents[k][0].join(contents[k][1]) + (contents[k][2] ? contents[k][1] : '')]))),
  );

/** A reply of up to `max` lines of `lines`, joined by LF or CRLF. */
export const linesReply = (lines: fc.Arbitrary<string>, max: number): fc.Arbitrary<string> =>
  fc.tuple(fc.array(lines, { maxLength: max }), fc.constantFrom('\n', '\r\n')).map(([ls, eol]) => ls.join(eol));

/**
 * A reply of up to `max` pieces, each a block (3 in 4) or up to 3 filler
 * lines, joined by LF or CRLF, with a final line ending or not (never,
 * with `final: false`).
 */
export const piecesReply = (block: fc.Arbitrary<string[]>, filler: fc.Arbitrary<string>, max: number, final = true): fc.Arbitrary<string> => {
  const parts = fc.array(fc.oneof({ weight: 3, arbitrary: block }, { weight: 1, arbitrary: fc.array(filler, { maxLength: 3 }) }), { maxLength: max });
  return final
    ? fc.tuple(parts, fc.constantFrom('\n', '\r\n'), fc.boolean()).map(([ps, eol, f]) => ps.flat().join(eol) + (f ? eol : ''))
    : fc.tuple(parts, fc.constantFrom('\n', '\r\n')).map(([ps, eol]) => ps.flat().join(eol));
};
