import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { givenFile, normalizePath, readPathLine, resolveFile } from '../../src/core/paths.ts';

describe('normalizePath', () => {
  it('writes separators as `/`, drops leading `./` and doubled slashes', () => {
    assert.equal(normalizePath('src\\App.js'), 'src/App.js');
    assert.equal(normalizePath('././src//a.ts'), 'src/a.ts');
    assert.equal(normalizePath('.\\src\\a.ts'), 'src/a.ts');
    assert.equal(normalizePath('/abs/a.ts'), '/abs/a.ts');
  });
});

describe('givenFile', () => {
  const files = ['src/App.js', 'README.md', 'lib/util.py', 'src/util.py'];
  it('names a given file up to `./`, `\\` and letter case', () => {
    assert.equal(givenFile('src/App.js', files), 'src/App.js');
    assert.equal(givenFile('./src/App.js', files), 'src/App.js');
    assert.equal(givenFile('src\\App.js', files), 'src/App.js');
    assert.equal(givenFile('src/app.js', files), 'src/App.js');
    assert.equal(givenFile('readme.md', files), 'README.md');
  });
  it('prefers the exact spelling, and names none of two that fit equally', () => {
    assert.equal(givenFile('a.txt', ['A.txt', 'a.txt']), 'a.txt');
    assert.equal(givenFile('b.txt', ['A.txt', 'a.txt']), null);
    assert.equal(givenFile('A.TXT', ['A.txt', 'a.txt']), null);
  });
  it('by name only with `byName`, and never for a `./` path', () => {
    assert.equal(givenFile('App.js', files), null);
    assert.equal(givenFile('App.js', files, { byName: true }), 'src/App.js');
    assert.equal(givenFile('./App.js', files, { byName: true }), null);
    assert.equal(givenFile('util.py', files, { byName: true }), null); // two files have that name
    assert.equal(givenFile('path/to/README.md', files, { byName: true }), null);
    assert.equal(givenFile('path/to/README.md', files, { pathTo: true }), 'README.md');
  });
  it('resolveFile falls back to the normalized path', () => {
    assert.equal(resolveFile('new\\file.ts', files), 'new/file.ts');
    assert.equal(resolveFile('./src/APP.js', files), 'src/App.js');
  });
});

describe('readPathLine', () => {
  const files = ['app.py', 'src/App.js'];
  const read = (line: string) => readPathLine(line, files, { byName: true });
  it('reads extension-less names and paths with blanks as paths', () => {
    for (const [line, path] of [
      ['Makefile', 'Makefile'],
      ['**Dockerfile**:', 'Dockerfile'],
      ['LICENSE', 'LICENSE'],
      ['README', 'README'],
      ['Procfile:', 'Procfile'],
      ['### Gemfile', 'Gemfile'],
      ['.gitignore', '.gitignore'],
      ['docs/My Notes.md', 'docs/My Notes.md'],
      ['`My Notes.md`', 'My Notes.md'],
      ['scripts/deploy', 'scripts/deploy'],
      ['app/[id]/page.tsx', 'app/[id]/page.tsx'],
    ])
      assert.deepEqual(read(line), { kind: 'path', path, given: false }, line);
  });
  it('resolves given files through the decoration, `\\`, `./` and case', () => {
    for (const line of ['app.py', '`app.py`:', '### **app.py**', 'File: app.py', './APP.py'])
      assert.deepEqual(read(line), { kind: 'path', path: 'app.py', given: true }, line);
    assert.deepEqual(read('src\\app.js'), { kind: 'path', path: 'src/App.js', given: true });
  });
  it('tells prose from a line that stands where a path goes but is none', () => {
    for (const line of ['Here is the updated file:', 'Running it prints:', 'And the next line as well:'])
      assert.equal(read(line).kind, 'prose', line);
    for (const line of ['Output:', '## Summary', 'Done.', 'Sure!', '...', '=======', 'a<b>.py', 'https://x.io/a.py'])
      assert.equal(read(line).kind, 'not-path', line);
  });
});
