// Shared cases for every format that quotes old lines: lines that differ from
// the file only in a character that does not show (spec/matching.md,
// "Differences that do not show"). Each format's adversarial file runs them
// with its own way of writing "replace these lines with those".

import assert from 'node:assert/strict';
import { it } from 'node:test';
import { applyRequest } from '../../src/formats/index.ts';

/** A reply, in one format, replacing `old` (the file's lines from `line`, 1-based) with `new` in `path`. */
export type Writer = (path: string, old: string[], replacement: string[], line: number) => string;

const NFC = 'caf\u00e9 = 1';
const NFD = 'cafe\u0301 = 1';

/**
 * The cases: found despite another normalisation form or a zero-width
 * character (the other lines keep their bytes); a no-break space or a
 * homoglyph is not forgiven, and the failure names the code point; an exact
 * line is preferred to an invisible-equal one. `strict` formats (str-replace)
 * forgive nothing and only name the difference; formats whose own
 * normalisation maps a no-break space to a space (roo, apply-patch) apply it.
 */
export function invisibleCases(format: string, write: Writer, strict = false, forgivesNoBreakSpace = false): void {
  const run = (file: string, old: string[], replacement: string[], line = 1) =>
    applyRequest({ format, files: { 'm.py': file }, response: write('m.py', old, replacement, line) });

  const found = (file: string, cited: string, point: RegExp, after: string) => {
    const r = run(file, [cited], ['done = 0']);
    const e = r.edits[0];
    if (strict) {
      assert.equal(e.status, 'failed', e.message);
      assert.deepEqual(r.files, { 'm.py': file });
    } else {
      assert.equal(e.status, 'applied', e.message);
      assert.equal(e.match, 'whitespace');
      assert.equal(e.similarity, 1);
      assert.deepEqual(r.files, { 'm.py': after });
    }
    assert.match(e.message, point);
  };

  it(`${format}: a line cited in another normalisation form (NFD for NFC)`, () => {
    found(`${NFC}\ntea = 2\n`, NFD, /U\+0301 COMBINING ACUTE ACCENT/, 'done = 0\ntea = 2\n');
  });
  it(`${format}: a line cited in NFC where the file has NFD`, () => {
    found(`${NFD}\ntea = 2\n`, NFC, /column 4/, 'done = 0\ntea = 2\n');
  });
  for (const [zw, name] of [['\u200b', 'ZERO WIDTH SPACE'], ['\u200d', 'ZERO WIDTH JOINER'], ['\u2060', 'WORD JOINER'], ['\ufeff', 'ZERO WIDTH NO-BREAK SPACE']]) {
    it(`${format}: a ${name} inside the file's line`, () => {
      found(`foo${zw} = 1\nbar = 2\n`, 'foo = 1', new RegExp(`column 4 .*${name}`), 'done = 0\nbar = 2\n');
    });
  }
  it(`${format}: a zero-width space in the cited line that the file does not have`, () => {
    found('foo = 1\nbar = 2\n', 'foo\u200c = 1', /U\+200C ZERO WIDTH NON-JOINER/, 'done = 0\nbar = 2\n');
  });
  if (forgivesNoBreakSpace) {
    it(`${format}: a no-break space is a space by the format's own normalisation`, () => {
      const r = run('foo\u00a0= 1\nbar = 2\n', ['foo = 1'], ['done = 0']);
      assert.equal(r.edits[0].status, 'applied', r.edits[0].message);
      assert.deepEqual(r.files, { 'm.py': 'done = 0\nbar = 2\n' });
    });
  }
  const others: (readonly [string, RegExp])[] = [['v\u0430lue = 1', /column 2 .*U\+0430/]];
  if (!forgivesNoBreakSpace) others.push(['foo\u00a0= 1', /U\+00A0 NO-BREAK SPACE/]);
  for (const [file, point] of others) {
    it(`${format}: ${JSON.stringify(file)} is another line, and the failure names ${point.source}`, () => {
      const text = `${file}\nbar = 2\n`;
      const r = run(text, [file.replace('\u00a0', ' ').replace('\u0430', 'a')], ['done = 0']);
      assert.equal(r.edits[0].status, 'failed');
      assert.equal(r.edits[0].code, 'no-match');
      assert.deepEqual(r.files, { 'm.py': text });
      assert.match(r.edits[0].message, point);
    });
  }
  if (!strict) {
    it(`${format}: the exact line wins over a line that differs invisibly`, () => {
      const text = 'foo\u200b = 1\nbar = 2\nfoo = 1\n';
      const r = run(text, ['foo = 1'], ['done = 0'], 3);
      assert.equal(r.edits[0].status, 'applied', r.edits[0].message);
      assert.deepEqual(r.files, { 'm.py': 'foo\u200b = 1\nbar = 2\ndone = 0\n' });
    });
  }
}
