// The whole-format writer.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { applyRequest } from '../../../src/formats/index.ts';
import { whole } from '../../../src/formats/whole/index.ts';
import { pathLine } from '../../../src/formats/whole/write.ts';

describe('whole writer', () => {
  it('writes path, fence, lines, fence per changed file and skips unchanged ones', () => {
    const reply = whole.write([
      { file: 'a.txt', before: 'x\n', after: 'y\nz\n' },
      { file: 'same.txt', before: 's\n', after: 's\n' },
      { file: 'new/b.md', before: null, after: 'hello' },
    ]);
    assert.equal(reply, 'a.txt\n```\ny\nz\n```\n\nnew/b.md\n```\nhello\n```\n');
  });

  it('uses a fence longer than any backtick run that starts a line', () => {
    const reply = whole.write([{ file: 'r.md', before: '', after: '# R\n  ````js\nx\n````\n' }]);
    assert.equal(reply, 'r.md\n`````\n# R\n  ````js\nx\n````\n`````\n');
  });

  it('writes a deletion as an empty block', () => {
    assert.equal(whole.write([{ file: 'gone.txt', before: 'a\n', after: null }]), 'gone.txt\n```\n```\n');
  });

  it('writes ./ before a new bare name so that no given file claims it', () => {
    assert.equal(pathLine('Makefile', true), './Makefile');
    assert.equal(pathLine('path/to/x.py', true), './path/to/x.py');
    assert.equal(pathLine('src/x.py', true), 'src/x.py');
    const response = whole.write([{ file: 'README.md', before: null, after: '# top\n' }]);
    const r = applyRequest({ format: 'whole', files: { 'docs/README.md': '# docs\n' }, response });
    assert.deepEqual(r.files, { 'docs/README.md': '# docs\n', 'README.md': '# top\n' });
  });

  it('quotes paths with blanks or decoration', () => {
    assert.equal(pathLine('src/a.ts'), 'src/a.ts');
    assert.equal(pathLine('docs/my file.md'), '`docs/my file.md`');
    assert.equal(pathLine('#notes.md'), '`#notes.md`');
    assert.equal(pathLine('Makefile'), 'Makefile');
  });

  it('round-trips a CRLF file with a BOM and no final newline', () => {
    const before = '\uFEFFa\r\nb';
    const after = '\uFEFFc\r\n```\r\nd';
    const response = whole.write([{ file: 'f.txt', before, after }]);
    const r = applyRequest({ format: 'whole', files: { 'f.txt': before }, response });
    assert.equal(r.ok, true);
    assert.equal(r.files['f.txt'], after);
  });

  it('round-trips a new file whose path has a blank', () => {
    const response = whole.write([{ file: 'docs/my file.md', before: null, after: 'x\n' }]);
    const r = applyRequest({ format: 'whole', files: { 'a.txt': 'a\n' }, response });
    assert.equal(r.ok, true);
    assert.deepEqual(r.files, { 'a.txt': 'a\n', 'docs/my file.md': 'x\n' });
  });
});
