// Mixing and quoting (spec/formats.md, "Detection and mixed replies"): an
// edit of another format on a file the request does not hold, that no edit
// of the reply's own format touches, is quoted (a log, an example), not an
// edit; for every pair of formats.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { applyRequest, formats } from '../../src/formats/index.ts';

const other = { file: 'other.txt', before: 'p = 1\nq = 2\nr = 3\n', after: 'p = 1\nq = 20\nr = 3\n' };
const mine = { file: 'a.txt', before: 'x = 1\ny = 2\nz = 3\n', after: 'x = 1\ny = 200\nz = 3\n' };

/**
 * Pairs (reply's format, quoted format) where the reply's format reads the
 * quote's text as its own edit too (the same markers, a bare hunk, a fenced
 * block; whole and between read the same fenced blocks by design): the
 * reply fails there, loudly, which is not a mixing question. `whole` is
 * never the quoted one: its blocks are creations, never quoted.
 */
const CROSS_READ = new Set([
  // whole and between never write a block another format reads, quoted or not: the block fails (mixed-formats).
  'whole/search-replace',
  'between/search-replace',
  'search-replace/roo',
  'roo/search-replace',
  'udiff/udiffx',
  'udiff/apply-patch',
  'between/whole',
  'whole/between',
  'between/str-replace',
]);

const mixed = (r: ReturnType<typeof applyRequest>) =>
  r.diagnostics.some((d) => d.code === 'mixed-formats') || r.edits.some((e) => e.code === 'mixed-formats');

describe('a diff quoted for a file not given', () => {
  for (const M of formats) {
    for (const O of formats) {
      if (M === O || O.name === 'whole' || CROSS_READ.has(`${M.name}/${O.name}`)) continue;
      it(`${M.name} quoting ${O.name}: applies its own edit, not mixed, named and under auto`, () => {
        const reply = `The log of the last run shows this patch:\n\n${O.write([other])}\nMy change:\n\n${M.write([mine])}`;
        for (const format of [M.name, 'auto']) {
          const r = applyRequest({ format, files: { 'a.txt': mine.before }, response: reply });
          assert.equal(mixed(r), false, `${format}: ${JSON.stringify(r.diagnostics)}`);
          assert.equal(r.files['a.txt'], mine.after, `${format}: ${JSON.stringify(r.edits)}`);
          assert.equal(r.ok, true, `${format}: ${JSON.stringify(r.edits.map((e) => [e.file, e.code, e.message]))}`);
          assert.equal(Object.hasOwn(r.files, 'other.txt'), false);
          if (format === 'auto') assert.equal(r.format, M.name, r.detection?.reason);
        }
      });
    }
  }
});

describe('the same diff for a file given is mixing', () => {
  it('search-replace with a unified diff of a given file', () => {
    const reply = `${formats.find((f) => f.name === 'udiff')!.write([other])}\n${formats.find((f) => f.name === 'search-replace')!.write([mine])}`;
    const r = applyRequest({ format: 'search-replace', files: { 'a.txt': mine.before, 'other.txt': other.before }, response: reply });
    assert.deepEqual(r.diagnostics.map((d) => d.code), ['mixed-formats']);
    assert.equal(r.files['other.txt'], other.before, 'not applied');
    assert.equal(r.files['a.txt'], mine.after);
  });

  it('a creation is never quoted: a new file in another format is mixing (named) or applied (auto)', () => {
    const reply = `${formats.find((f) => f.name === 'apply-patch')!.write([{ file: 'new.txt', before: null, after: 'n\n' }])}\n${formats.find((f) => f.name === 'search-replace')!.write([mine])}`;
    const named = applyRequest({ format: 'search-replace', files: { 'a.txt': mine.before }, response: reply });
    assert.deepEqual(named.diagnostics.map((d) => d.code), ['mixed-formats']);
    const auto = applyRequest({ format: 'auto', files: { 'a.txt': mine.before }, response: reply });
    assert.equal(auto.files['new.txt'], 'n\n');
    assert.equal(auto.files['a.txt'], mine.after);
    assert.deepEqual(auto.detection?.formats, ['apply-patch', 'search-replace']);
  });

  it('an edit of a file not given that the reply\'s own format also edits is part of the reply', () => {
    const lib = { file: 'lib.txt', before: 'old\n', after: 'new\n' };
    const udiff = formats.find((f) => f.name === 'udiff')!;
    const sr = formats.find((f) => f.name === 'search-replace')!;
    const reply = `${udiff.write([mine, lib])}\n${sr.write([lib])}`;
    const r = applyRequest({ format: 'udiff', files: { 'a.txt': mine.before }, response: reply });
    assert.deepEqual(r.diagnostics.map((d) => d.code), ['mixed-formats']);
  });

  it('under auto, the detection names what was quoted', () => {
    const reply = `Log:\n\n${formats.find((f) => f.name === 'apply-patch')!.write([other])}\nFix:\n\n${formats.find((f) => f.name === 'udiff')!.write([mine])}`;
    const r = applyRequest({ format: 'auto', files: { 'a.txt': mine.before }, response: reply });
    assert.equal(r.format, 'udiff');
    assert.match(r.detection?.reason ?? '', /quoted for files not given, not edits: 1 apply-patch edit of other\.txt/);
    assert.equal(r.ok, true);
  });

  it('a reply that only quotes a diff for a file not given is read as that diff (its edit fails: file-not-found)', () => {
    const reply = `Log:\n\n${formats.find((f) => f.name === 'udiff')!.write([other])}`;
    const r = applyRequest({ format: 'auto', files: { 'a.txt': mine.before }, response: reply });
    assert.equal(r.format, 'udiff');
    assert.deepEqual(r.edits.map((e) => e.code), ['file-not-found']);
  });
});
