// Path lines and info-string paths (src/formats/whole/paths.ts).

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { cleanPathLine, givenFile, pathFromInfo, pathFromLine, pathLike } from '../../../src/formats/whole/paths.ts';

describe('cleanPathLine', () => {
  const cases: [string, string, boolean][] = [
    ['src/a.py', 'src/a.py', false],
    ['  ### src/a.py  ', 'src/a.py', false],
    ['**src/a.py**:', 'src/a.py', false],
    ['### **`src/a.py`**:', 'src/a.py', true],
    ['`docs/my file.md`', 'docs/my file.md', true],
    ['File: lib/x.js', 'lib/x.js', false],
    ['filename: `x.js`', 'x.js', true],
    ['Here is the file:', 'Here is the file', false],
    ['`a` and `b`', '`a` and `b`', false],
  ];
  for (const [line, path, quoted] of cases) {
    it(JSON.stringify(line), () => assert.deepEqual(cleanPathLine(line), { path, quoted }));
  }
});

describe('givenFile', () => {
  const files = ['app.py', 'src/util.py', 'docs/util.py', 'src/main.go', './rel.txt'];
  it('matches a given path, with or without ./', () => {
    assert.equal(givenFile('src/main.go', files), 'src/main.go');
    assert.equal(givenFile('./src/main.go', files), 'src/main.go');
    assert.equal(givenFile('rel.txt', files), './rel.txt');
  });
  it('drops path/to/ before a top-level file (aider), and no other directory', () => {
    assert.equal(givenFile('path/to/app.py', files), 'app.py');
    assert.equal(givenFile('lib/app.py', files), null);
    assert.equal(givenFile('path/to/main.go', files), null);
  });
  it('a leading ./ turns off the path/to/ and bare-name rules', () => {
    assert.equal(givenFile('./main.go', files), null);
    assert.equal(givenFile('./path/to/app.py', files), null);
    assert.equal(givenFile('./app.py', files), 'app.py');
  });
  it('takes a bare name for the one given file with that name, and not for two', () => {
    assert.equal(givenFile('main.go', files), 'src/main.go');
    assert.equal(givenFile('util.py', files), null);
  });
  it('does not match other paths', () => {
    assert.equal(givenFile('lib/main.go', files), null);
    assert.equal(givenFile('', files), null);
  });
});

describe('pathLike', () => {
  it('accepts directories, extensions and quoted names', () => {
    assert.equal(pathLike('src/a', false), true);
    assert.equal(pathLike('a.py', false), true);
    assert.equal(pathLike('.env', false), true);
    assert.equal(pathLike('Makefile', true), true);
    assert.equal(pathLike('my file.md', true), true);
    assert.equal(pathLike('../x.txt', false), true);
  });
  it('refuses prose, URLs and odd characters', () => {
    assert.equal(pathLike('Makefile', false), false);
    assert.equal(pathLike('Here it is', false), false);
    assert.equal(pathLike('https://x.org/a.py', false), false);
    assert.equal(pathLike('a<b>.py', false), false);
    assert.equal(pathLike('dir/', false), false);
    assert.equal(pathLike('v1.2', false), false);
    assert.equal(pathLike('x'.repeat(253) + '.py', false), false);
  });
});

describe('pathFromLine and pathFromInfo', () => {
  it('a line equal to a given path names it whatever its characters', () => {
    assert.equal(pathFromLine('#weird:', ['#weird:']), '#weird:');
    assert.equal(pathFromLine('#weird:', []), null);
  });
  it('a new path drops a leading ./', () => {
    assert.equal(pathFromLine('./new/x.ts', []), 'new/x.ts');
  });
  it('reads lang:path, key=value and bare paths from the info string', () => {
    assert.equal(pathFromInfo('python:src/a.py', []), 'src/a.py');
    assert.equal(pathFromInfo('js title="lib/b.js"', []), 'lib/b.js');
    assert.equal(pathFromInfo('ts file=c.ts', []), 'c.ts');
    assert.equal(pathFromInfo('src/d.rs', []), 'src/d.rs');
    assert.equal(pathFromInfo('python', ['python']), 'python');
    assert.equal(pathFromInfo('python', []), null);
    assert.equal(pathFromInfo('c++', []), null);
    assert.equal(pathFromInfo('', []), null);
  });
});
