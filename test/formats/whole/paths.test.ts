// Path lines and info-string paths (src/formats/whole/paths.ts; the path
// line reader itself is the core's, tested in test/core).

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { namesFile, pathFromInfo, pathFromLine, readBlockPathLine } from '../../../src/formats/whole/paths.ts';

describe('pathFromLine', () => {
  const files = ['app.py', 'src/util.py', 'docs/util.py', 'src/main.go', 'src/App.js'];
  it('names a given file as written, without ./, with \\ for /, or in another letter case', () => {
    assert.equal(pathFromLine('src/main.go', files), 'src/main.go');
    assert.equal(pathFromLine('./src/main.go', files), 'src/main.go');
    assert.equal(pathFromLine('src\\App.js', files), 'src/App.js');
    assert.equal(pathFromLine('SRC/app.JS', files), 'src/App.js');
    assert.equal(pathFromLine('### **`src/main.go`**:', files), 'src/main.go');
  });
  it('drops path/to/ before a top-level file (aider), and takes a bare name for the one file with that name', () => {
    assert.equal(pathFromLine('path/to/app.py', files), 'app.py');
    assert.equal(pathFromLine('main.go', files), 'src/main.go');
    assert.equal(pathFromLine('lib/app.py', files), 'lib/app.py');
  });
  it('reads extension-less names and paths with blanks as new files', () => {
    for (const name of ['Makefile', 'Dockerfile', 'LICENSE', 'README', 'Procfile', 'Gemfile', '.gitignore'])
      assert.equal(pathFromLine(name, ['app.py']), name);
    assert.equal(pathFromLine('docs/My Notes.md', ['app.py']), 'docs/My Notes.md');
    assert.equal(pathFromLine('`docs/My Notes.md`', ['app.py']), 'docs/My Notes.md');
  });
  it('tells prose from a line that cannot be a path', () => {
    assert.deepEqual(readBlockPathLine('Here is the updated file:', ['app.py']), { kind: 'prose' });
    assert.equal(readBlockPathLine('Output:', ['app.py']).kind, 'not-path');
    assert.equal(readBlockPathLine('## Summary', ['app.py']).kind, 'not-path');
    assert.equal(pathFromLine('Output:', ['app.py']), null);
  });
});

describe('namesFile (the path lines rule 6 of Fences trusts)', () => {
  it('trusts given files, directories, extensions, dot files, backticks and well-known names', () => {
    for (const line of ['app.py', 'src/x', 'notes.txt', '.env', '`run`', 'Makefile', '**LICENSE**:']) assert.equal(namesFile(line, ['app.py']), true, line);
  });
  it('does not trust a bare word, prose or a label', () => {
    for (const line of ['end', 'make', 'npm install tool', 'Output:', '}']) assert.equal(namesFile(line, ['app.py']), false, line);
  });
});

describe('pathFromInfo', () => {
  it('reads lang:path, key=value and bare paths from the info string', () => {
    assert.equal(pathFromInfo('python:src/a.py', []), 'src/a.py');
    assert.equal(pathFromInfo('js title="lib/b.js"', []), 'lib/b.js');
    assert.equal(pathFromInfo('ts file=c.ts', []), 'c.ts');
    assert.equal(pathFromInfo('src/d.rs', []), 'src/d.rs');
    assert.equal(pathFromInfo('src\\d.rs', []), 'src/d.rs');
    assert.equal(pathFromInfo('python', ['python']), 'python');
    assert.equal(pathFromInfo('python', []), null);
    assert.equal(pathFromInfo('c++', []), null);
    assert.equal(pathFromInfo('', []), null);
  });
  it('resolves a given file by case or ./, and names no URL', () => {
    assert.equal(pathFromInfo('python:./SRC/A.py', ['src/a.py']), 'src/a.py');
    assert.equal(pathFromInfo('file=Makefile', []), 'Makefile');
    assert.equal(pathFromInfo('https://x.org/a.py', []), null);
  });
});
