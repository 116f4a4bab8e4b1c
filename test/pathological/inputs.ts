// Pathological inputs, in the style of commonmark.js's pathological tests:
// each family builds one request per format at a given scale. Scale 1 is
// small; the tests run scale 100 (thousands of blocks, 100,000 identical
// lines, a 10 MB line, 100,000 marker lines) and bench/scaling.bench.ts runs
// 1, 10 and 100 to show how time grows.
//
// Everything is deterministic (no randomness): the same scale gives the same
// request.

import type { ApplyRequest } from '../../src/core/types.ts';
import type { Splice } from '../../src/core/text.ts';
import { getFormat } from '../../src/formats/index.ts';
import { SPLICE_FORMATS, splicesReply, spliced, type SpliceFormat } from './replies.ts';

export const PATH = 'src/big/module.ts';

/** One request and what is known about its outcome. */
export interface Input {
  request: ApplyRequest;
  /** Size of the input (characters of files and reply), for the tables. */
  size: number;
  /** When set, the file's exact text after the apply (every edit applied). */
  after?: string;
  /** When set, the number of edits the reply holds. */
  edits?: number;
}

export interface Family {
  name: string;
  what: string;
  /**
   * The inputs for one format at one scale (a family may build several
   * variants). An input may be given as a function that builds it, when
   * building it is costly enough to be worth skipping (see `inputsOf`).
   */
  build(format: SpliceFormat, scale: number): (Input | (() => Input))[];
  /** The formats the family is about, when not every one (the others build no input). */
  formats?: readonly SpliceFormat[];
}

/** A family's inputs, built, except those whose index `keep` rejects (none for a format the family is not about). */
export function inputsOf(family: Family, format: SpliceFormat, scale: number, keep: (i: number) => boolean = () => true): Input[] {
  if (family.formats && !family.formats.includes(format)) return [];
  return family
    .build(format, scale)
    .flatMap((x, i) => (keep(i) ? [typeof x === 'function' ? x() : x] : []));
}

const text = (lines: readonly string[]) => lines.join('\n') + '\n';

function input(format: SpliceFormat | 'auto', files: Record<string, string>, response: string, extra: Partial<Input> = {}): Input {
  const size = response.length + Object.values(files).reduce((n, t) => n + t.length, 0);
  return { request: { format, files, response }, size, ...extra };
}

/** A code-like line, distinct for every `i`, long enough for one typo to stay similar. */
export const codeLine = (i: number) => `  const value${i} = compute(${i}, "line ${i} of the module");`;

/** One character changed in the middle of a line. */
export function typo(line: string): string {
  const at = Math.floor(line.length / 2);
  return line.slice(0, at) + (line[at] === 'Q' ? 'Z' : 'Q') + line.slice(at + 1);
}

/** Blocks: one every 10 lines, each replacing 2 lines by 2. */
function blockSplices(blocks: number): Splice[] {
  return Array.from({ length: blocks }, (_, k) => ({ from: 10 * k + 4, to: 10 * k + 6, lines: [`  // edited ${k}a`, `  // edited ${k}b`] }));
}

/**
 * A deterministic line of `length` characters that looks like minified code:
 * identifiers, numbers, punctuation, a few rare characters (the case that
 * makes difflib's matcher slow), never two equal 64-character windows far apart.
 */
export function longLine(length: number, seed = 1): string {
  const words = ['var', 'function', 'return', 'this', 'null', 'if', 'else', 'for', 'new', 'typeof', 'QZ', 'jX', 'kw'];
  const punct = ['(', ')', '{', '}', ';', ',', '.', '=', '+', '&&', '||', '[', ']', ':', '?', '"', "'"];
  let out = '';
  let x = seed >>> 0;
  const next = () => {
    x = (Math.imul(x, 1103515245) + 12345) >>> 0;
    return x >>> 8;
  };
  const parts: string[] = [];
  let len = 0;
  while (len < length) {
    const r = next();
    const piece = r % 3 === 0 ? words[r % words.length] + (r % 1000).toString(36) : r % 3 === 1 ? punct[r % punct.length] : String(r % 100000);
    parts.push(piece);
    len += piece.length;
  }
  out = parts.join('');
  return out.slice(0, length);
}

/** Characters whose long runs stress regexes and scanners (markers, fences, blanks, quotes). */
export const RUN_CHARS = ['<', '=', '>', '@', '`', '~', '*', '-', '+', '#', ':', '"', '{', '[', '|', '\u2502', '\\', ' ', '\t', '.', '/', '0'];

/** Lines that are, or look like, syntax of some format. */
export const MARKERS = [
  // ln-diff
  '<editblock>', '</editblock>', '<<<<<<< REMOVE', '=======', '>>>>>>> INSERT', '1\u2502x', ' \u2502x',
  // search-replace, roo
  '<<<<<<< SEARCH', '>>>>>>> REPLACE', '-------', ':start_line:1', ':end_line:1', '<apply_diff>', '</apply_diff>', '<diff>', '</diff>',
  `<path>${PATH}</path>`, '...',
  // fences and paths
  '```', '```diff', '```json', '~~~', PATH, `\`${PATH}\``, `# ${PATH}`, '<source>', '</source>',
  // unified diffs
  `--- a/${PATH}`, `+++ b/${PATH}`, '@@ -1,1 +1,1 @@', '@@ ... @@', '@@', '-x', '+y', ' z', '\\ No newline at end of file',
  // udiffx
  '<FILE_CHANGES>', '</FILE_CHANGES>', `<FILE_PATCH path="${PATH}">`, '</FILE_PATCH>', '<FILE_NEW path="n.txt">', '</FILE_NEW>',
  `<FILE_DELETE path="${PATH}"/>`,
  // hashline, str-replace
  `{"tool": "edit", "path": "${PATH}", "line": 1, "tag": "AAAA", "new": "x"}`,
  `{"command": "str_replace", "path": "${PATH}", "old_str": "x\\n", "new_str": "y\\n"}`, '{', '}', '[', ']',
  // between
  '@BETWEEN@ "a" AND "b"', '@WHOLE FILE@',
  // apply-patch
  '*** Begin Patch', `*** Update File: ${PATH}`, '*** Add File: n.txt', '*** Delete File: n.txt', '*** Move to: m.txt', '*** End of File', '*** End Patch',
];

/** `n` given files, each in its own directory (`src/mod7/file7.ts`), and a name for a file created next to them. */
function givenFiles(n: number): Record<string, string> {
  const files: Record<string, string> = {};
  for (let i = 0; i < n; i++) files[`src/mod${i}/file${i}.ts`] = `export const file${i} = ${i};\n`;
  return files;
}

/** A reply in `format` creating each of `paths` (the format's own writer). */
const creations = (format: SpliceFormat, paths: readonly string[]) =>
  getFormat(format)!.write(paths.map((file, i) => ({ file, before: null, after: `export const made${i} = ${i};\n` })));

/** The file the marker families run against: short, with lines that look like markers too. */
const markerFile = text(['first', '=======', 'x', 'y', ' z', '```', 'last']);

export const FAMILIES: Family[] = [
  {
    name: 'prose',
    what: 'a reply of 4,545·s short prose lines and no edit (5 MB at 100x), in the format and under auto',
    build(format, scale) {
      const reply = 'prose line\n'.repeat(4545 * scale);
      const files = { [PATH]: text(['x']) };
      return [input(format, files, reply, { edits: 0 }), input('auto', files, reply, { edits: 0 })];
    },
  },
  {
    name: 'old-str-eol',
    what: '10·s str_replace calls, each old_str a whole line with its line break, on an 800·s-line file with LF endings, and with CR LF and LF alternating',
    formats: ['str-replace'],
    build(format, scale) {
      const n = 800 * scale;
      const calls = 10 * scale;
      const before = Array.from({ length: n }, (_, i) => codeLine(i));
      const splices = Array.from({ length: calls }, (_, k) => ({ from: 80 * k, to: 80 * k + 1, lines: [`  // edited ${k}`] }));
      const after = spliced(before, splices);
      const reply = splices
        .map((s, k) => JSON.stringify({ command: 'str_replace', path: PATH, old_str: before[s.from] + '\n', new_str: `  // edited ${k}\n` }))
        .join('\n');
      const alternate = (lines: readonly string[]) => lines.map((l, i) => l + (i % 2 ? '\r\n' : '\n')).join('');
      return [
        input(format, { [PATH]: text(before) }, reply, { after: text(after), edits: calls }),
        input(format, { [PATH]: alternate(before) }, reply, { after: alternate(after), edits: calls }),
      ];
    },
  },
  {
    name: 'given-paths',
    what: '100·s given files and 100·s files created in other directories, then as many created files each named as a given one with a Cyrillic letter',
    build(format, scale) {
      const n = 100 * scale;
      const files = givenFiles(n);
      const fresh = Array.from({ length: n }, (_, i) => `src/new${i}/made${i}.ts`);
      // `о` (U+043E) for `o`: each created path looks like a given one.
      const alike = Array.from({ length: n }, (_, i) => `src/m\u043ed${i}/file${i}.ts`);
      return [() => input(format, files, creations(format, fresh), { edits: n }), () => input(format, files, creations(format, alike), { edits: n })];
    },
  },
  {
    name: 'blocks',
    what: '50·s blocks on a 500·s-line file, every one correct',
    build(format, scale) {
      const blocks = 50 * scale;
      const before = Array.from({ length: 10 * blocks }, (_, i) => codeLine(i));
      const splices = blockSplices(blocks);
      return [
        input(format, { [PATH]: text(before) }, splicesReply(format, PATH, before, splices), {
          after: text(spliced(before, splices)),
          edits: format === 'whole' ? 1 : blocks,
        }),
      ];
    },
  },
  {
    name: 'blocks-shifted',
    what: 'the same blocks, against a file with 7 lines inserted at its top',
    build(format, scale) {
      const blocks = 50 * scale;
      const before = Array.from({ length: 10 * blocks }, (_, i) => codeLine(i));
      const head = Array.from({ length: 7 }, (_, i) => `// header line ${i}`);
      const splices = blockSplices(blocks);
      // whole rewrites the file; hashline's line tags do not move with the lines (its edits fail).
      const after = format === 'whole' || format === 'hashline' ? undefined : text([...head, ...spliced(before, splices)]);
      return [input(format, { [PATH]: text([...head, ...before]) }, splicesReply(format, PATH, before, splices), { after })];
    },
  },
  {
    name: 'blocks-typo',
    what: 'the same blocks, one character changed in every cited line',
    build(format, scale) {
      const blocks = 50 * scale;
      const before = Array.from({ length: 10 * blocks }, (_, i) => codeLine(i));
      const cited = before.map((l, i) => (i % 10 === 4 || i % 10 === 5 ? typo(l) : l));
      return [input(format, { [PATH]: text(before) }, splicesReply(format, PATH, cited, blockSplices(blocks)))];
    },
  },
  {
    name: 'blocks-missing',
    what: 'the same blocks, citing lines that are nowhere in the file',
    build(format, scale) {
      const blocks = 50 * scale;
      const before = Array.from({ length: 10 * blocks }, (_, i) => codeLine(i));
      const cited = before.map((l, i) => (i % 10 === 4 || i % 10 === 5 ? `  missing(${i}) // not in the file` : l));
      return [input(format, { [PATH]: text(before) }, splicesReply(format, PATH, cited, blockSplices(blocks)))];
    },
  },
  {
    name: 'identical',
    what: '1,000·s identical lines: an edit of 3 of them in the middle, and one citing a line not there',
    build(format, scale) {
      const n = 1000 * scale;
      const before = Array.from({ length: n }, () => '    x += 1;');
      const mid = Math.floor(n / 2);
      const edit = splicesReply(format, PATH, before, [{ from: mid, to: mid + 3, lines: ['    x += 2;'] }]);
      const other = [...before];
      other[mid] = '    y -= 1; // not in the file';
      const missing = splicesReply(format, PATH, other, [{ from: mid, to: mid + 1, lines: ['    y -= 2;'] }]);
      return [input(format, { [PATH]: text(before) }, edit), input(format, { [PATH]: text(before) }, missing)];
    },
  },
  {
    name: 'identical-block',
    what: 'an edit whose cited lines are 500·s identical lines, in a file of 1,000·s of them',
    build(format, scale) {
      const n = 1000 * scale;
      const before = Array.from({ length: n }, () => '    x += 1;');
      const reply = splicesReply(format, PATH, before, [{ from: n / 4, to: n / 4 + n / 2, lines: ['    x += 2;'] }]);
      return [input(format, { [PATH]: text(before) }, reply)];
    },
  },
  {
    name: 'overlap',
    what: '100·s edits all replacing line 51 of a 100-line file, and 100·s edits each replacing 2 lines, overlapping the next by one (not in whole)',
    build(format, scale) {
      const n = 100 * scale;
      const before = Array.from({ length: 100 }, (_, i) => codeLine(i));
      const same = Array.from({ length: n }, (_, k) => splicesReply(format, PATH, before, [{ from: 50, to: 51, lines: [`  // edit ${k}`] }])).join('\n');
      const first = input(format, { [PATH]: text(before) }, same, { edits: n });
      // whole writes the whole file in every edit: a chain would be n files of n lines.
      if (format === 'whole') return [first];
      const chain = Array.from({ length: n + 1 }, (_, i) => codeLine(i));
      const pairs = Array.from({ length: n }, (_, k) => splicesReply(format, PATH, chain, [{ from: k, to: k + 2, lines: [`  // edit ${k}`] }])).join('\n');
      return [first, input(format, { [PATH]: text(chain) }, pairs, { edits: n })];
    },
  },
  {
    name: 'missing-big',
    what: 'one edit citing a line that is nowhere in a 4,000·s-line file (400,000 at 100x), alone and amid 2 lines that are there',
    build(format, scale) {
      const n = 4000 * scale;
      const before = Array.from({ length: n }, (_, i) => codeLine(i));
      const mid = n / 2;
      const cited = [...before];
      cited[mid] = `  missing(${mid}) // not in the file`;
      const file = { [PATH]: text(before) };
      return [
        input(format, file, splicesReply(format, PATH, cited, [{ from: mid, to: mid + 1, lines: ['  replaced();'] }]), { edits: 1 }),
        input(format, file, splicesReply(format, PATH, cited, [{ from: mid - 1, to: mid + 2, lines: ['  replaced();'] }]), { edits: 1 }),
      ];
    },
  },
  {
    name: 'long-line',
    what: 'a 100·s KB line: edited exactly, cited with a typo, inserted, and next to a cited line',
    build(format, scale) {
      const long = longLine(100_000 * scale);
      const before = [...Array.from({ length: 10 }, (_, i) => codeLine(i)), long, ...Array.from({ length: 10 }, (_, i) => codeLine(i + 10))];
      const file = { [PATH]: text(before) };
      const cited = [...before];
      cited[10] = typo(long);
      return [
        input(format, file, splicesReply(format, PATH, before, [{ from: 10, to: 11, lines: ['short'] }]), {
          after: text(spliced(before, [{ from: 10, to: 11, lines: ['short'] }])),
        }),
        input(format, file, splicesReply(format, PATH, cited, [{ from: 10, to: 11, lines: ['short'] }])),
        input(format, file, splicesReply(format, PATH, before, [{ from: 4, to: 5, lines: [long + 'x'] }]), {
          after: text(spliced(before, [{ from: 4, to: 5, lines: [long + 'x'] }])),
        }),
        input(format, file, splicesReply(format, PATH, cited, [{ from: 9, to: 12, lines: ['short'] }])),
      ];
    },
  },
  {
    name: 'long-blanks',
    what: 'a line with 100·s K blanks inside (not at its end), edited',
    build(format, scale) {
      const before = Array.from({ length: 21 }, (_, i) => codeLine(i));
      before[10] = 'x' + ' \t'.repeat(50_000 * scale) + 'x';
      const splices = [{ from: 10, to: 11, lines: ['short'] }];
      // Trailing-blank trimming must not rescan the run. Built on demand: writing it in hashline
      // (which tags the line) is itself slow.
      return [() => input(format, { [PATH]: text(before) }, splicesReply(format, PATH, before, splices), { after: text(spliced(before, splices)) })];
    },
  },
  {
    name: 'long-runs',
    what: 'runs of 10·s K of one character (markers, fences, blanks, quotes) before, inside and after a correct reply',
    build(format, scale) {
      const before = Array.from({ length: 30 }, (_, i) => codeLine(i));
      const reply = splicesReply(format, PATH, before, [{ from: 10, to: 12, lines: ['changed'] }]).split('\n');
      const out: Input[] = [];
      const length = 10_000 * scale;
      for (const c of RUN_CHARS) {
        const run = c.repeat(length);
        const lines = [run, run + 'x', 'x' + run + 'x'];
        // The run line alone, before the reply, at the reply's second line (a path or header position), inside its body.
        const variants = [
          lines.join('\n'),
          [...lines, ...reply].join('\n'),
          [reply[0], ...lines, ...reply.slice(1)].join('\n'),
          [...reply.slice(0, 3), ...lines, ...reply.slice(3)].join('\n'),
        ];
        for (const v of variants) out.push(input(format, { [PATH]: text(before), [`${c === '/' ? 'slash' : 'x'}.txt`]: run + '\n' }, v));
      }
      return out;
    },
  },
  {
    name: 'markers',
    what: 'replies of only marker lines: each repeated 100·s times, all of them cycled, and nested',
    build(format, scale) {
      const k = 100 * scale;
      const out: Input[] = [];
      for (const m of MARKERS) out.push(input(format, { [PATH]: markerFile }, text(Array.from({ length: k }, () => m))));
      const cycle: string[] = [];
      for (let i = 0; i < k; i++) cycle.push(...MARKERS);
      out.push(input(format, { [PATH]: markerFile }, text(cycle)));
      const nested = MARKERS.flatMap((m) => Array.from({ length: k }, () => m));
      out.push(input(format, { [PATH]: markerFile }, text(nested)));
      return out;
    },
  },
];

export { SPLICE_FORMATS };
