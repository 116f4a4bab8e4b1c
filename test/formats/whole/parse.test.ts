// The whole-format parser: edits, their spans, errors and warnings.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { whole } from '../../../src/formats/whole/index.ts';

const parse = (reply: string, files: string[] = []) => whole.parse(reply, { files });

describe('whole parser', () => {
  it('reads one block into a write edit spanning path line to closing fence', () => {
    const reply = 'Intro\n\nsrc/a.py\n```python\nx = 1\ny = 2\n```\nOutro\n';
    const { edits, diagnostics } = parse(reply, ['src/a.py']);
    assert.deepEqual(diagnostics, []);
    assert.equal(edits.length, 1);
    const e = edits[0];
    assert.equal(e.kind, 'write');
    assert.equal(e.file, 'src/a.py');
    assert.deepEqual(e.old, []);
    assert.deepEqual(e.new, ['x = 1', 'y = 2']);
    assert.deepEqual(e.span, { from: 7, to: 41, start: { line: 3, column: 1 }, end: { line: 7, column: 4 } });
    assert.equal(reply.slice(e.span.from, e.span.to), 'src/a.py\n```python\nx = 1\ny = 2\n```');
    assert.deepEqual(e.warnings, []);
    assert.equal(e.error, undefined);
  });

  it('starts the span at the opening fence when the path is not a path line', () => {
    const reply = 'Here it is:\n```\nq\n```\n';
    const [e] = parse(reply, ['only.txt']).edits;
    assert.equal(e.file, 'only.txt');
    assert.deepEqual(e.span.start, { line: 2, column: 1 });
    assert.deepEqual(e.span.end, { line: 4, column: 4 });
  });

  it('reads CRLF replies without CRs in the content', () => {
    const [e] = parse('a.txt\r\n```\r\nx\r\n\r\n```\r\n', ['a.txt']).edits;
    assert.deepEqual(e.new, ['x', '']);
    assert.deepEqual(e.span.end, { line: 5, column: 4 });
  });

  it('an unclosed block is a truncated edit, with the error at the end of the reply', () => {
    const reply = 'a.txt\n```\npartial';
    const [e] = parse(reply, ['a.txt', 'b.txt']).edits;
    assert.equal(e.file, 'a.txt');
    assert.equal(e.error?.code, 'truncated');
    assert.equal(e.error?.severity, 'error');
    assert.deepEqual(e.error?.reply, { from: 17, to: 17, start: { line: 3, column: 8 }, end: { line: 3, column: 8 } });
    assert.match(e.error!.message, /begins at line 2 \(expected a closing fence ```\): it was cut off/);
    assert.deepEqual(e.span, { from: 0, to: 17, start: { line: 1, column: 1 }, end: { line: 3, column: 8 } });
  });

  it('a truncated block names a nested fence that is still open', () => {
    const [e] = parse('a.md\n```\n```js\nx\n', ['a.md']).edits;
    assert.equal(e.error?.code, 'truncated');
    assert.match(e.error!.message, /fence opened inside it at line 3 is still open/);
    assert.deepEqual(e.error?.reply?.start, { line: 5, column: 1 });
  });

  it('missing-path points at the opening fence and lists the given files', () => {
    const [e] = parse('Some text\n\n```\nx\n```\n', ['a.txt', 'b.txt']).edits;
    assert.equal(e.file, '');
    assert.equal(e.error?.code, 'missing-path');
    assert.deepEqual(e.error?.reply, { from: 11, to: 14, start: { line: 3, column: 1 }, end: { line: 3, column: 4 } });
    assert.match(e.error!.message, /2 files were given: a\.txt, b\.txt/);
  });

  it('missing-path says when the prose mentions several files', () => {
    const [e] = parse('See `a.txt` and `b.txt`:\n```\nx\n```\n', ['a.txt', 'b.txt']).edits;
    assert.match(e.error!.message, /mentions `a\.txt` and `b\.txt`, so it does not say which/);
  });

  it('takes the one mentioned file, and only mentions since the previous block', () => {
    const reply = 'Change `a.txt`:\n```\nA\n```\n\nand then:\n```\nB\n```\n';
    const { edits } = parse(reply, ['a.txt', 'b.txt']);
    assert.equal(edits[0].file, 'a.txt');
    assert.equal(edits[1].error?.code, 'missing-path');
  });

  it('a path line is only the nearest non-blank line after the previous block', () => {
    const reply = 'a.txt\n```\nA\n```\n```\nB\n```\n';
    const { edits } = parse(reply, ['a.txt', 'b.txt']);
    assert.equal(edits[0].file, 'a.txt');
    assert.equal(edits[1].file, '');
    assert.equal(edits[1].error?.code, 'missing-path');
  });

  it('a path line wins over the info string', () => {
    const [e] = parse('a.txt\n```b.txt\nA\n```\n', ['a.txt', 'b.txt']).edits;
    assert.equal(e.file, 'a.txt');
  });

  it('warns about a nested fence with the lines of both readings', () => {
    const [e] = parse('r.md\n```\n```sh\nx\n```\ny\n```\n', ['r.md']).edits;
    assert.deepEqual(e.new, ['```sh', 'x', '```', 'y']);
    assert.equal(e.warnings.length, 1);
    assert.equal(e.warnings[0].code, 'ambiguous-structure');
    assert.equal(
      e.warnings[0].message,
      'line 3 opens a fence inside the block that begins at line 2; it was read as a nested fence closed at line 5, and the block ends at line 7 (CommonMark would end it at line 5): put content that holds ``` lines in a longer fence (````)',
    );
    assert.deepEqual(e.warnings[0].reply?.start, { line: 3, column: 1 });
  });

  it('skips shell blocks that name no file, but not a shell block with a path', () => {
    const reply = 'a.sh\n```bash\necho 1\n```\nRun:\n```bash\nsh a.sh\n```\n';
    const { edits } = parse(reply, ['a.sh']);
    assert.equal(edits.length, 1);
    assert.deepEqual(edits[0].new, ['echo 1']);
  });

  it('drops a fallback block for a file another block names, with a reply-level warning', () => {
    const reply = 'Here it is:\n```\nguess\n```\n\nx.txt\n```\nnamed\n```\n';
    const { edits, diagnostics } = parse(reply, ['x.txt']);
    assert.equal(edits.length, 1);
    assert.equal(edits[0].index, 0);
    assert.deepEqual(edits[0].new, ['named']);
    assert.equal(diagnostics.length, 1);
    assert.equal(diagnostics[0].code, 'ambiguous-structure');
    assert.equal(diagnostics[0].severity, 'warning');
    assert.equal(
      diagnostics[0].message,
      'the fenced block at line 2 names no file (it would go to the only file given, x.txt); the block at line 6 names x.txt, so this block was ignored',
    );
    assert.deepEqual(diagnostics[0].reply?.start, { line: 2, column: 1 });
  });

  it('numbers edits in reply order across files', () => {
    const { edits } = parse('b\n\na.txt\n```\n1\n```\n\nb.txt\n```\n2\n```\n', ['a.txt', 'b.txt']);
    assert.deepEqual(edits.map((e) => [e.index, e.file, e.new]), [
      [0, 'a.txt', ['1']],
      [1, 'b.txt', ['2']],
    ]);
  });

  it('reads nothing from a reply without fences, and never throws on odd input', () => {
    assert.deepEqual(parse('', ['a']), { edits: [], diagnostics: [] });
    assert.deepEqual(parse('just text\n', ['a']), { edits: [], diagnostics: [] });
    for (const s of ['```', '\n```\n', '<source>', '~~~~\r', '\uFEFF```\n```', '```\n\u2028```\n']) {
      assert.doesNotThrow(() => parse(s, ['a', 'b']));
    }
  });
});

describe('whole parser: issue 11 rules', () => {
  const F = '```';
  it('a block closed early fails with ambiguous-end naming both lines, and no later block is read from its content', () => {
    const reply = `R.md\n${F}\n# T\n${F}\nnpm i\n${F}\nDone.\n${F}\n`;
    const { edits, diagnostics } = parse(reply, ['R.md']);
    assert.equal(edits.length, 1);
    assert.deepEqual(diagnostics, []);
    assert.equal(edits[0].file, 'R.md');
    assert.equal(edits[0].error?.code, 'ambiguous-end');
    assert.equal(
      edits[0].error?.message,
      'the fenced block that begins at line 2 is closed by line 4 (```), but the text goes on right after it and line 8 could end the block too: the content holds a line that can close its fence, so it is not clear where it ends; the file was not written: put content that holds ``` lines in a longer fence (````)',
    );
    assert.deepEqual(edits[0].error?.reply?.start, { line: 2, column: 1 });
    assert.deepEqual(edits[0].error?.reply?.end, { line: 8, column: 4 });
  });

  it('a block after the one closed early is read as usual', () => {
    const { edits } = parse(`a.md\n${F}\nx\n${F}\ny\n${F}\n\nb.md\n${F}\nB\n${F}\n`, ['a.md', 'b.md']);
    assert.deepEqual(edits.map((e) => [e.file, e.error?.code ?? null]), [['a.md', 'ambiguous-end'], ['b.md', null]]);
  });

  it('extension-less names and paths with blanks name new files, never the only file given', () => {
    for (const name of ['Makefile', 'Dockerfile', 'LICENSE', 'README', 'Procfile', 'Gemfile', '.gitignore', 'docs/My Notes.md']) {
      const [e] = parse(`${name}\n${F}\nx\n${F}\n`, ['app.py']).edits;
      assert.equal(e.file, name);
      assert.equal(e.error, undefined);
    }
  });

  it('a line above the block that cannot be a path is missing-path, pointing at that line', () => {
    const [e] = parse(`Intro.\n\nOutput:\n${F}\nx\n${F}\n`, ['app.py']).edits;
    assert.equal(e.file, '');
    assert.equal(e.error?.code, 'missing-path');
    assert.match(e.error!.message, /"Output:" \(line 3\), is not a file path: "Output:" reads as a label/);
    assert.deepEqual(e.error?.reply?.start, { line: 3, column: 1 });
    const [f] = parse(`Output:\n${F}python:app.py\nx\n${F}\n`, ['app.py', 'b.py']).edits;
    assert.equal(f.file, 'app.py', 'the info string may still name the file');
  });

  it('resolves paths differing by case, ./ or \\ to the given file', () => {
    for (const written of ['src\\App.js', './src/App.js', 'SRC/app.JS', 'App.js', '`./src/App.js`']) {
      const [e] = parse(`${written}\n${F}\nx\n${F}\n`, ['src/App.js', 'b.js']).edits;
      assert.equal(e.file, 'src/App.js', written);
    }
  });

  it('in a detected reply, a block that names no file is prose: no fallback, no missing-path', () => {
    const detected = (reply: string, files: string[]) => whole.parse(reply, { files, detected: true });
    assert.deepEqual(detected(`Running it prints:\n${F}\n/home/user\n${F}\n`, ['app.py']).edits, []);
    assert.deepEqual(detected(`Here is \`app.py\`:\n${F}python\nprint(2)\n${F}\n`, ['app.py']).edits, []);
    assert.deepEqual(detected(`Output:\n${F}\nx\n${F}\n`, ['app.py']).edits, []);
    assert.deepEqual(detected(`Example\n${F}\nx\n${F}\n`, ['app.py']).edits, [], 'a bare word is a caption here');
    assert.deepEqual(detected(`Makefile\n${F}\nx\n${F}\n\n\`run\`\n${F}\ny\n${F}\n`, ['app.py']).edits.map((e) => e.file), ['Makefile', 'run']);
    const { edits } = detected(`Intro.\n\napp.py\n${F}\nprint(2)\n${F}\n\nThen:\n${F}\nls\n${F}\n`, ['app.py']);
    assert.deepEqual(edits.map((e) => [e.file, e.new]), [['app.py', ['print(2)']]]);
  });

  it('a leading U+FEFF is the file\'s byte order mark: dropped for a given file, one kept for a new file', () => {
    const [given] = parse(`a.txt\n${F}\n\uFEFF\uFEFFx\ny\n${F}\n`, ['a.txt']).edits;
    assert.deepEqual(given.new, ['x', 'y']);
    const [fresh] = parse(`n.txt\n${F}\n\uFEFF\uFEFFx\n${F}\n`, ['a.txt']).edits;
    assert.deepEqual(fresh.new, ['\uFEFFx']);
    const [inner] = parse(`a.txt\n${F}\nx\n\uFEFFy\n${F}\n`, ['a.txt']).edits;
    assert.deepEqual(inner.new, ['x', '\uFEFFy'], 'only the start of the text is a byte order mark');
  });
});

describe('whole detection', () => {

  it('scores 0.2 for a path line before a fence, naming it', () => {
    assert.deepEqual(whole.detect('Sure.\n\nsrc/app.py\n```python\nx\n```\n'), {
      score: 0.2,
      reason: 'path line `src/app.py` at line 3 before a fence at line 4',
    });
  });
  it('scores 0.2 for a path in the info string', () => {
    assert.deepEqual(whole.detect('Here:\n```ts:src/a.ts\nx\n```\n'), {
      score: 0.2,
      reason: 'path `src/a.ts` in the info string of the fence at line 2',
    });
  });
  it('does not take a bare word above a fence for a path line', () => {
    assert.equal(whole.detect('Example\n```\nx\n```\n').score, 0.1);
    assert.equal(whole.detect('Makefile\n```\nx\n```\n').score, 0.2);
  });
  it('scores 0.1 (the weakest evidence) for fences without a path line, 0 without fences', () => {
    assert.equal(whole.detect('Run:\n```sh\nls\n```\n').score, 0.1);
    assert.equal(whole.detect('no fences at all').score, 0);
  });
  it('scores 0 when another format marks the reply', () => {
    const r = whole.detect('a.py\n```\n<<<<<<< SEARCH\nx\n=======\ny\n>>>>>>> REPLACE\n```\n');
    assert.equal(r.score, 0);
    assert.equal(r.reason, 'a SEARCH/REPLACE or editblock head at line 3 belongs to another format');
    assert.equal(whole.detect('a.py\n```\n@BETWEEN@ "a" AND "b"\n```\n').score, 0);
    assert.equal(whole.detect('--- a/x\n+++ b/x\n@@ -1 +1 @@\n').score, 0);
  });
});
