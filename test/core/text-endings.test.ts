// Line endings of edited lines (spec/formats.md, "Line endings and byte
// order marks"): the lines an edit keeps keep their own endings, the others
// take the ending of what they replace or of the kept line beside them; a
// splice may carry its ending; a file whose lines all end alike is applied
// as one splice per edit.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { editSplices } from '../../src/core/hunks.ts';
import { replyLines } from '../../src/core/reply.ts';
import { applySplices, BOM, formatText, parseText, spliceText, uniformEndings, type Splice } from '../../src/core/text.ts';
import { applyRequest } from '../../src/index.ts';

/** Apply one edit's splices (as the engine does) and write the text. */
function edit(text: string, from: number, to: number, lines: string[], keep?: (number | null)[]): string {
  const file = parseText(text);
  return formatText(applySplices(file, editSplices(file, from, to, lines, keep)));
}

describe('uniformEndings', () => {
  it('is true when every ending is the same, the last line without one aside', () => {
    assert.equal(uniformEndings(parseText('')), true);
    assert.equal(uniformEndings(parseText('a')), true);
    assert.equal(uniformEndings(parseText('a\r\nb\r\nc')), true);
    assert.equal(uniformEndings(parseText('a\nb\n')), true);
    assert.equal(uniformEndings(parseText(`${BOM}a\r\nb\r\n`)), true);
  });
  it('is false when two lines end differently, the last one included', () => {
    assert.equal(uniformEndings(parseText('a\r\nb\n')), false);
    assert.equal(uniformEndings(parseText('a\nb\r\nc')), false);
    assert.equal(uniformEndings(parseText('a\nb\nc\r\n')), false);
  });
});

describe('a splice with its own ending', () => {
  it('gives its lines that ending in applySplices and spliceText alike', () => {
    const text = 'a\r\nb\nc\n';
    const file = parseText(text);
    const splices: Splice[] = [{ from: 1, to: 1, lines: ['x', 'y'], eol: '\r\n' }, { from: 2, to: 3, lines: ['C'], eol: '\r\n' }];
    const want = 'a\r\nx\r\ny\r\nb\nC\r\n';
    assert.equal(formatText(applySplices(file, splices)), want);
    assert.equal(spliceText(text, file, splices), want);
  });
  it('still lets the last line of a file without a final newline have none', () => {
    const file = parseText('a\r\nb');
    assert.equal(formatText(applySplices(file, [{ from: 1, to: 2, lines: ['B'], eol: '\r\n' }])), 'a\r\nB');
  });
});

describe('editSplices', () => {
  it('keeps the lines `keep` maps to the file, endings and all', () => {
    // The case: context a, b, d around c -> C.
    assert.equal(edit('a\r\nb\nc\r\nd\n', 0, 4, ['a', 'b', 'C', 'd'], [0, 1, null, 3]), 'a\r\nb\nC\r\nd\n');
    // A context line whose reply copy differs: the file's own line (text and ending) stays.
    assert.equal(edit('a \r\nb\n', 0, 2, ['a', 'B'], [0, null]), 'a \r\nB\n');
  });

  it('keeps the lines a line diff finds unchanged when nothing maps them', () => {
    assert.equal(edit('a\r\nb\nc\r\nd\ne\r\n', 0, 5, ['a', 'B', 'c', 'D', 'e']), 'a\r\nB\nc\r\nD\ne\r\n');
    // Unchanged lines inside a hunk's run of removed and added lines are kept too.
    assert.equal(edit('a\r\nb\nc\r\n', 0, 3, ['a', 'b', 'C'], [null, null, null]), 'a\r\nb\nC\r\n');
  });

  it('gives a run the ending of the last line it replaces', () => {
    assert.equal(edit('a\r\nb\nc\r\nd\n', 0, 4, ['a', 'X', 'Y', 'Z', 'd'], [0, null, null, null, 3]), 'a\r\nX\r\nY\r\nZ\r\nd\n');
    assert.equal(edit('a\r\nb\r\nc\nd\n', 0, 4, ['a', 'X', 'd'], [0, null, 3]), 'a\r\nX\nd\n');
  });

  it('gives a run that replaces nothing the ending of the kept line before it, else after it', () => {
    assert.equal(edit('a\r\nb\nc\nd\n', 0, 2, ['a', 'x', 'b'], [0, null, 1]), 'a\r\nx\r\nb\nc\nd\n');
    assert.equal(edit('a\nb\r\nc\nd\n', 1, 3, ['x', 'b', 'c'], [null, 0, 1]), 'a\nx\r\nb\r\nc\nd\n');
    assert.equal(edit('a\nb\r\nc\nd\n', 1, 3, ['b', 'c', 'x'], [0, 1, null]), 'a\nb\r\nc\nx\nd\n');
  });

  it('falls back to the most common ending when the line beside has none', () => {
    // After the last line of a file without a final newline: it gains the dominant ending, the new line is last.
    assert.equal(edit('a\r\nb\r\nc\nd', 3, 4, ['d', 'x'], [0, null]), 'a\r\nb\r\nc\nd\r\nx');
  });

  it('ignores keep entries out of order or out of range', () => {
    assert.equal(edit('a\r\nb\n', 0, 2, ['B', 'A'], [1, 0]), edit('a\r\nb\n', 0, 2, ['B', 'A'], [1, null]));
    assert.equal(edit('a\r\nb\n', 0, 2, ['A', 'B'], [5, null]), 'A\nB\n');
  });

  it('finds only the unchanged first and last lines beyond 2,000 changed lines', () => {
    const n = 1200;
    const old = Array.from({ length: n }, (_, i) => `o${i}`);
    const text = ['head\r\n', ...old.map((l, i) => l + (i % 2 ? '\r\n' : '\n')), 'tail\n'].join('');
    // o4 (LF) is unchanged too, but past the diff's bound it is not looked for: it takes the ending of o1199 (CR LF).
    const lines = ['head', ...old.map((_, i) => `n${i}`), 'o4', 'tail'];
    const got = edit(text, 0, n + 2, lines);
    assert.ok(got.startsWith('head\r\nn0\r\n'), 'the first line kept');
    assert.ok(got.endsWith('n1199\r\no4\r\ntail\n'), 'the last line kept; the run before it takes the last replaced ending');
    // Within the bound, o4 is found and keeps its own ending.
    const small = edit('head\r\no3\r\no4\nx\r\ntail\n', 0, 5, ['head', 'n3', 'o4', 'tail']);
    assert.equal(small, 'head\r\nn3\r\no4\ntail\n');
    assert.equal(got.split('\n').length, n + 4);
  });

  it('writes the same lines as one splice, keeping the kept lines\' endings (random edits)', () => {
    const pool = ['a', 'b', 'c', '', 'x'];
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.constantFrom(...pool), fc.constantFrom('\n', '\r\n')), { minLength: 1, maxLength: 10 }),
        fc.nat(),
        fc.nat(),
        fc.array(fc.constantFrom(...pool, 'NEW'), { maxLength: 8 }),
        fc.boolean(),
        (rows, f, t, lines, final) => {
          const text = rows.map(([l, e], i) => l + (i < rows.length - 1 || final ? e : '')).join('');
          const file = parseText(text);
          const n = file.lines.length;
          const from = f % (n + 1);
          const to = from + (t % (n - from + 1));
          const splices = editSplices(file, from, to, lines);
          const got = applySplices(file, splices);
          const one = applySplices(file, [{ from, to, lines }]);
          assert.deepEqual(got.lines, one.lines, 'the same line contents as one splice');
          // Splices stay inside the edit, in order, and apart.
          let pos = from;
          for (const s of splices) {
            assert.ok(s.from >= pos && s.to >= s.from && s.to <= to);
            pos = s.to;
          }
          // Lines outside the splices are the file's own, endings included (the last line aside: it may gain or lose one).
          const out = formatText(got);
          if (uniformEndings(file)) assert.equal(out, formatText(one), 'a uniform file gets what one splice gives');
          if (final && n > 0) assert.equal(spliceText(text, file, splices), out);
        },
      ),
      { numRuns: 2000 },
    );
  });
});

describe('reply line breaks', () => {
  it('drop every CR before the LF, and the CRs ending a last line cut short', () => {
    assert.deepEqual(
      replyLines('a\r\r\nb\r\nc\n\rd\r\r').map((l) => l.text),
      ['a', 'b', 'c', '\rd'],
    );
    const [first] = replyLines('ab\r\r\ncd');
    assert.equal(first.from, 0);
    assert.equal(first.text.length, 2);
  });
});

describe('the engine', () => {
  const apply = (format: string, files: Record<string, string>, response: string) => applyRequest({ format, files, response });

  it('reads every CR before a reply line\'s LF as part of the line break', () => {
    for (const eol of ['\n', '\r\n', '\r\r\n', '\r\r\r\n']) {
      const reply = ['f.txt', '```', '<<<<<<< SEARCH', 'a', '=======', 'A', 'x', '>>>>>>> REPLACE', '```', ''].join(eol);
      const r = apply('search-replace', { 'f.txt': 'a\nb\n' }, reply);
      assert.equal(r.files['f.txt'], 'A\nx\nb\n', JSON.stringify(eol));
      assert.equal(r.edits[0].match, 'exact');
    }
  });

  it('reads a JSON string exactly: a CR before its line break is content', () => {
    const r = apply('str-replace', { 'f.txt': 'a\r\r\nb\r\n' }, JSON.stringify({ command: 'str_replace', path: 'f.txt', old_str: 'a\r\r\n', new_str: 'A\r\r\n' }));
    assert.equal(r.files['f.txt'], 'A\r\r\nb\r\n');
  });

  it('reads a U+FEFF at the start of the first cited line as the file\'s byte order mark', () => {
    const bom = { 'f.txt': `${BOM}a\nb\n` };
    const r = apply('search-replace', bom, `f.txt\n\`\`\`\n<<<<<<< SEARCH\n${BOM}a\n=======\n${BOM}A\n>>>>>>> REPLACE\n\`\`\`\n`);
    assert.equal(r.files['f.txt'], `${BOM}A\nb\n`);
    assert.equal(r.edits[0].match, 'exact');
    // A file without a mark gets none; several copied marks count as one.
    const plain = apply('udiff', { 'f.txt': 'a\nb\n' }, `--- f.txt\n+++ f.txt\n@@ -1 +1 @@\n-${BOM}${BOM}a\n+${BOM}${BOM}A\n`);
    assert.equal(plain.files['f.txt'], 'A\nb\n');
    // A file created with a mark gets exactly one.
    const created = apply('udiffx', {}, `<FILE_CHANGES>\n<FILE_NEW path="g.txt">\n${BOM}${BOM}x\n</FILE_NEW>\n</FILE_CHANGES>\n`);
    assert.equal(created.files['g.txt'], `${BOM}x\n`);
  });

  it('keeps a U+FEFF that is not at the start of the file', () => {
    const r = apply('search-replace', { 'f.txt': 'a\nb\n' }, `f.txt\n\`\`\`\n<<<<<<< SEARCH\nb\n=======\n${BOM}B\n>>>>>>> REPLACE\n\`\`\`\n`);
    assert.equal(r.files['f.txt'], `a\n${BOM}B\n`);
  });
});
