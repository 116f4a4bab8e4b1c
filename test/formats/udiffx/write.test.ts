// The udiffx writer and fileContent: exact output, and what the engine makes of it.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { applyRequest } from '../../../src/formats/index.ts';
import { fileContent, udiffx } from '../../../src/formats/udiffx/index.ts';

describe('writeUdiffx', () => {
  it('FILE_NEW, FILE_PATCH and FILE_DELETE in one envelope', () => {
    const out = udiffx.write([
      { file: 'same.txt', before: 'x\n', after: 'x\n' },
      { file: 'src/a.ts', before: 'one\n', after: 'two\n' },
      { file: 'new.txt', before: null, after: 'hi\nthere' },
      { file: 'old.txt', before: 'bye\n', after: null },
    ]);
    assert.equal(
      out,
      [
        '<FILE_CHANGES>',
        '<FILE_PATCH path="src/a.ts">',
        '@@ -1,1 +1,1 @@',
        '-one',
        '+two',
        '</FILE_PATCH>',
        '<FILE_NEW path="new.txt">',
        'hi',
        'there</FILE_NEW>',
        '<FILE_DELETE path="old.txt"/>',
        '</FILE_CHANGES>',
        '',
      ].join('\n'),
    );
  });

  it('nothing to change writes nothing; an empty new file is an empty FILE_NEW', () => {
    assert.equal(udiffx.write([]), '');
    assert.equal(udiffx.write([{ file: 'e', before: null, after: '' }]), '<FILE_CHANGES>\n<FILE_NEW path="e">\n</FILE_NEW>\n</FILE_CHANGES>\n');
  });

  it('a path with a double quote is written in single quotes', () => {
    assert.equal(udiffx.write([{ file: 'say "hi".txt', before: 'a', after: null }]), `<FILE_CHANGES>\n<FILE_DELETE path='say "hi".txt'/>\n</FILE_CHANGES>\n`);
  });

  it('round-trips through the engine', () => {
    const before = { 'a.txt': '\uFEFFa\r\nb\r\nc\r\n', 'gone.txt': 'x' };
    const changes = [
      { file: 'a.txt', before: before['a.txt'], after: '\uFEFFa\r\nB\r\nc' },
      { file: 'gone.txt', before: before['gone.txt'], after: null },
      { file: 'made.txt', before: null, after: '<FILE_NEW>\n  x' },
    ];
    const r = applyRequest({ format: 'udiffx', files: before, response: udiffx.write(changes) });
    assert.equal(r.ok, true, JSON.stringify(r.edits));
    assert.deepEqual(r.files, { 'a.txt': '\uFEFFa\r\nB\r\nc', 'gone.txt': null, 'made.txt': '<FILE_NEW>\n  x' });
  });
});

describe('fileContent', () => {
  it('wraps a file in FILE_CONTENT, adding a final line break when missing', () => {
    assert.equal(fileContent('src/main.rs', 'fn main() {}\n'), '<FILE_CONTENT path="src/main.rs">\nfn main() {}\n</FILE_CONTENT>\n');
    assert.equal(fileContent('a', 'x'), '<FILE_CONTENT path="a">\nx\n</FILE_CONTENT>\n');
    assert.equal(fileContent('a', ''), '<FILE_CONTENT path="a">\n</FILE_CONTENT>\n');
  });
});
