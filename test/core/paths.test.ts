import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { givenFile, givenPaths, listGiven, LISTED_FILES, normalizePath, notGivenMessage, readPathLine, resolveFile } from '../../src/core/paths.ts';
import type { ApplyResult } from '../../src/core/types.ts';
import { applyRequest } from '../../src/formats/index.ts';

describe('normalizePath', () => {
  it('writes separators as `/`, drops leading `./` and doubled slashes', () => {
    assert.equal(normalizePath('src\\App.js'), 'src/App.js');
    assert.equal(normalizePath('././src//a.ts'), 'src/a.ts');
    assert.equal(normalizePath('.\\src\\a.ts'), 'src/a.ts');
    assert.equal(normalizePath('/abs/a.ts'), '/abs/a.ts');
  });
  it('puts the path in Unicode NFC (an accent written as a combining mark is the precomposed letter)', () => {
    assert.equal(normalizePath('docs/cafe\u0301.md'), 'docs/caf\u00e9.md');
    assert.equal(normalizePath('.\\Cafe\u0301\\x.md'), 'Caf\u00e9/x.md');
    assert.equal(normalizePath('\u1100\u1161.txt'), '\uac00.txt', 'Hangul jamo compose');
    // NFC only: compatibility forms stay (a fullwidth letter is another name, see lookalikes.ts).
    assert.equal(normalizePath('\uff41.txt'), '\uff41.txt');
    assert.equal(normalizePath('\ufb01le.txt'), '\ufb01le.txt');
  });
});

describe('givenFile and Unicode normalisation', () => {
  const nfc = 'caf\u00e9.txt';
  const nfd = 'cafe\u0301.txt';
  it('names the given file whatever the form either is written in', () => {
    assert.equal(givenFile(nfd, [nfc]), nfc);
    assert.equal(givenFile(nfc, [nfd]), nfd);
    assert.equal(givenFile(`src/${nfd}`, [`src/${nfc}`, 'src/cafe.txt']), `src/${nfc}`);
    assert.equal(givenFile('CAFE\u0301.TXT', [nfc]), nfc, 'and ignoring letter case after it');
    assert.equal(givenFile(nfd, [`src/${nfc}`], { byName: true }), `src/${nfc}`, 'by name too');
  });
  it('takes the exact spelling when both forms are given, and none of two that fit equally', () => {
    assert.equal(givenFile(nfc, [nfd, nfc]), nfc);
    assert.equal(givenFile(nfd, [nfd, nfc]), nfd);
    assert.equal(givenFile('Cafe\u0301.txt', [nfd, nfc]), null);
  });
  it('an accent is not a mark to ignore: `café` is not `cafe`', () => {
    assert.equal(givenFile('cafe.txt', [nfc]), null);
    assert.equal(givenFile(nfc, ['cafe.txt']), null);
  });
  it('a new path is written in NFC, so two forms of one new name are one file', () => {
    assert.equal(resolveFile(nfd, []), nfc);
    assert.equal(resolveFile(nfd, ['other.txt']), nfc);
    const line = readPathLine(nfd, []);
    assert.deepEqual(line, { kind: 'path', path: nfc, given: false });
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

describe('GivenPaths: the given files indexed once', () => {
  it('is built once per files array, and answers as givenFile does', () => {
    const files = ['src/App.js', 'README.md', 'lib/util.py'];
    assert.equal(givenPaths(files), givenPaths(files), 'the same index for the same array');
    const index = givenPaths(files);
    assert.equal(givenPaths(index), index);
    assert.equal(index.find('./SRC\\app.js'), 'src/App.js');
    assert.equal(index.find('util.py', { byName: true }), 'lib/util.py');
    assert.equal(index.find('util.py'), null);
    assert.equal(index.has('README.md'), true);
    assert.equal(index.has('readme.md'), false);
  });
  it('indexes again when the array grew', () => {
    const files = ['a.txt'];
    const first = givenPaths(files);
    files.push('b.txt');
    assert.notEqual(givenPaths(files), first);
    assert.equal(givenFile('B.TXT', files), 'b.txt');
  });
  it('finds the given files an absolute path ends with, tail by tail', () => {
    const index = givenPaths(['src/a.ts', 'b/src/a.ts', 'x/A.ts']);
    assert.deepEqual(index.endingPath('/home/me/b/src/a.ts').sort(), ['b/src/a.ts', 'src/a.ts']);
    assert.deepEqual(index.endingPath('/home/me/x/a.ts', true), ['x/A.ts']);
    assert.deepEqual(index.endingPath('/home/me/x/a.ts'), []);
  });
});

describe('did you mean: the given file a path that names none was meant for', () => {
  it('is the one given file with its name, whichever path is the longer', () => {
    assert.equal(givenPaths(['core.ts', 'main.ts']).meant('src/v4/core/core.ts'), 'core.ts');
    assert.equal(givenPaths(['aider/coders/base_coder.py']).meant('base_coder.py'), 'aider/coders/base_coder.py');
    assert.equal(givenPaths(['aider/coders/base_coder.py']).meant('coders/Base_Coder.py'), 'aider/coders/base_coder.py', 'in lower case when no name matches exactly');
  });
  it('among given files sharing the name, the one that ends the path or is ended by it', () => {
    const index = givenPaths(['a/core/core.ts', 'b/core.ts']);
    assert.equal(index.meant('src/a/core/core.ts'), 'a/core/core.ts');
    assert.equal(index.meant('src/c/core.ts'), null, 'two files fit equally');
  });
  it('is none for a path given, or with no given file of its name', () => {
    assert.equal(givenPaths(['core.ts']).meant('core.ts'), null);
    assert.equal(givenPaths(['core.ts']).meant('src/other.ts'), null);
    assert.equal(givenPaths([]).meant('core.ts'), null);
  });
  it('the message names it and gives no advice on creating a file', () => {
    assert.equal(
      notGivenMessage('src/v4/core/core.ts', ['core.ts'], 'to create it, leave the lines to remove empty'),
      'src/v4/core/core.ts is not among the files given (core.ts); did you mean core.ts? write its path exactly as given',
    );
    assert.equal(notGivenMessage('new.ts', ['core.ts'], 'to create it, leave the lines to remove empty'), 'new.ts is not among the files given (core.ts); to create it, leave the lines to remove empty');
    assert.equal(notGivenMessage('new.ts', []), 'new.ts is not among the files given');
  });
  it('lists at most LISTED_FILES given files by name', () => {
    const files = Array.from({ length: LISTED_FILES + 5 }, (_, i) => `f${i}.txt`);
    assert.equal(listGiven(files), ` (${files.slice(0, LISTED_FILES).join(', ')} and 5 more)`);
    assert.equal(listGiven(['a', 'b']), ' (a, b)');
    assert.equal(listGiven([]), '');
  });
});

describe('resolving many paths against many given files', () => {
  it('costs the files plus the edits, not their product (Unicode normalisations counted)', () => {
    // Given names with an accent: each is normalised (NFC) when the given files are indexed.
    const n = 1000;
    const files: Record<string, string> = {};
    for (let i = 0; i < n; i++) files[`src/caf\u00e9${i}/file${i}.ts`] = `x${i}\n`;
    const response = Array.from({ length: n }, (_, i) => JSON.stringify({ command: 'create', path: `src/th\u00e9${i}/made${i}.ts`, file_text: `y${i}\n` })).join('\n');
    const proto = String.prototype as unknown as { normalize: (...args: unknown[]) => string };
    const normalize = proto.normalize;
    let calls = 0;
    proto.normalize = function (this: string, ...args: unknown[]) {
      calls++;
      return normalize.apply(this, args);
    };
    let result: ApplyResult;
    try {
      result = applyRequest({ format: 'str-replace', files, response });
    } finally {
      proto.normalize = normalize;
    }
    assert.equal(result.edits.filter((e) => e.status === 'applied').length, n);
    assert.ok(calls <= 20 * n, `${calls} normalisations for ${n} files and ${n} edits`);
  });
});
