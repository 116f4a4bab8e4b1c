// The udiff writer: exact output, and what the engine makes of it.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { applyRequest } from '../../../src/formats/index.ts';
import { hunkLines, writeUdiff } from '../../../src/formats/udiff/write.ts';

const lines = (n: number, prefix = 'l') => Array.from({ length: n }, (_, i) => `${prefix}${i + 1}`);
const text = (ls: string[]) => ls.map((l) => l + '\n').join('');

describe('hunkLines', () => {
  it('three lines of context around a change', () => {
    const before = lines(10);
    const after = [...before];
    after[4] = 'FIVE';
    assert.deepEqual(hunkLines(text(before), text(after)), ['@@ -2,7 +2,7 @@', ' l2', ' l3', ' l4', '-l5', '+FIVE', ' l6', ' l7', ' l8']);
  });

  it('merges changes at most six unchanged lines apart, splits further ones', () => {
    const before = lines(20);
    const near = [...before];
    near[2] = 'X';
    near[9] = 'Y'; // 6 unchanged lines between (4..9)
    assert.equal(hunkLines(text(before), text(near)).filter((l) => l.startsWith('@@')).length, 1);
    const far = [...before];
    far[2] = 'X';
    far[10] = 'Y'; // 7 unchanged lines between
    assert.deepEqual(hunkLines(text(before), text(far)).filter((l) => l.startsWith('@@')), ['@@ -1,6 +1,6 @@', '@@ -8,7 +8,7 @@']);
  });

  it('new-side numbers follow the earlier hunks', () => {
    const before = lines(20);
    const after = ['new1', 'new2', ...before.slice(0, 15), ...before.slice(16)];
    assert.deepEqual(hunkLines(text(before), text(after)).filter((l) => l.startsWith('@@')), ['@@ -1,3 +1,5 @@', '@@ -13,7 +15,6 @@']);
  });

  it('pure insertions and deletions use a zero count and the line before', () => {
    assert.deepEqual(hunkLines('', 'a\nb\n'), ['@@ -0,0 +1,2 @@', '+a', '+b']);
    assert.deepEqual(hunkLines('a\nb\n', ''), ['@@ -1,2 +0,0 @@', '-a', '-b']);
  });

  it('marks the side without a final newline', () => {
    assert.deepEqual(hunkLines('a\nb\n', 'a\nb'), ['@@ -1,2 +1,2 @@', ' a', '-b', '+b', '\\ No newline at end of file']);
    assert.deepEqual(hunkLines('a\nb', 'a\nb\n'), ['@@ -1,2 +1,2 @@', ' a', '-b', '\\ No newline at end of file', '+b']);
    assert.deepEqual(hunkLines('a\nb', 'a\nc\nb'), ['@@ -1,2 +1,3 @@', ' a', '+c', ' b', '\\ No newline at end of file']);
  });

  it('a removed "-- x" before an added "++ y" is written added-first, so it cannot read as a file header', () => {
    assert.deepEqual(hunkLines('-- x\n', '++ y\n'), ['@@ -1,1 +1,1 @@', '+++ y', '--- x']);
    assert.deepEqual(hunkLines('-- x\n', 'y\n'), ['@@ -1,1 +1,1 @@', '--- x', '+y']);
  });

  it('line endings and a BOM do not show', () => {
    assert.deepEqual(hunkLines('\uFEFFa\r\nb\r\n', '\uFEFFa\r\nc\r\n'), ['@@ -1,2 +1,2 @@', ' a', '-b', '+c']);
  });
});

describe('writeUdiff', () => {
  it('writes headers, /dev/null for created and deleted files, nothing for unchanged ones', () => {
    const out = writeUdiff([
      { file: 'same.txt', before: 'x\n', after: 'x\n' },
      { file: 'src/a.ts', before: 'one\n', after: 'two\n' },
      { file: 'new.txt', before: null, after: 'hi\n' },
      { file: 'old.txt', before: 'bye\n', after: null },
    ]);
    assert.equal(
      out,
      [
        '--- a/src/a.ts',
        '+++ b/src/a.ts',
        '@@ -1,1 +1,1 @@',
        '-one',
        '+two',
        '--- /dev/null',
        '+++ b/new.txt',
        '@@ -0,0 +1,1 @@',
        '+hi',
        '--- a/old.txt',
        '+++ /dev/null',
        '@@ -1,1 +0,0 @@',
        '-bye',
        '',
      ].join('\n'),
    );
  });

  it('writes nothing when nothing changed', () => {
    assert.equal(writeUdiff([]), '');
    assert.equal(writeUdiff([{ file: 'a', before: 'x', after: 'x' }]), '');
  });

  it('round-trips through the engine', () => {
    const before = { 'a.txt': 'a\r\nb\r\nc\r\n', 'gone.txt': 'x' };
    const after = { 'a.txt': 'a\r\nB\r\nc', 'made.txt': '' };
    const response = writeUdiff([
      { file: 'a.txt', before: before['a.txt'], after: after['a.txt'] },
      { file: 'gone.txt', before: before['gone.txt'], after: null },
      { file: 'made.txt', before: null, after: '' },
    ]);
    const r = applyRequest({ format: 'udiff', files: before, response });
    assert.equal(r.ok, true, JSON.stringify(r.edits));
    assert.deepEqual(r.files, { 'a.txt': after['a.txt'], 'gone.txt': null, 'made.txt': '' });
    assert.deepEqual(r.edits.map((e) => [e.kind, e.match]), [['replace', 'exact'], ['delete', 'exact'], ['write', 'exact']]);
  });
});
