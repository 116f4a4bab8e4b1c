// The udiff reader: file headers, hunk headers, hunk bodies, where hunks
// end, truncation, and the edits they become, with exact reply positions.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Edit, Span } from '../../../src/core/types.ts';
import { hunkNumbers, headerPath } from '../../../src/formats/udiff/hunks.ts';
import { detectUdiff } from '../../../src/formats/udiff/index.ts';
import { parseUdiff, resolveHeader } from '../../../src/formats/udiff/parse.ts';
import { applyRequest } from '../../../src/formats/index.ts';

const parse = (reply: string, files: string[] = ['a.txt']) => parseUdiff(reply, { files });
const only = (reply: string, files?: string[]): Edit => {
  const { edits } = parse(reply, files);
  assert.equal(edits.length, 1, JSON.stringify(edits));
  return edits[0];
};
const text = (reply: string, s: Span) => reply.slice(s.from, s.to);
const pos = (s: Span) => [s.start.line, s.start.column, s.end.line, s.end.column];

describe('hunk headers', () => {
  it('reads numbers, with counts defaulting to 1', () => {
    assert.deepEqual(hunkNumbers('@@ -3,4 +3,5 @@'), { oldStart: 3, oldCount: 4, newStart: 3, newCount: 5 });
    assert.deepEqual(hunkNumbers('@@ -7 +8 @@ def f():'), { oldStart: 7, oldCount: 1, newStart: 8, newCount: 1 });
    assert.deepEqual(hunkNumbers('@@ -0,0 +1,2 @@'), { oldStart: 0, oldCount: 0, newStart: 1, newCount: 2 });
    assert.deepEqual(hunkNumbers('@@  -10,2  +11,3'), { oldStart: 10, oldCount: 2, newStart: 11, newCount: 3 });
  });
  it('anything else after @@ is number-less', () => {
    for (const h of ['@@ ... @@', '@@', '@@ @@', '@@ -x,y +z,w @@', '@@ +1,2 -1,2 @@']) assert.equal(hunkNumbers(h), null, h);
  });
});

describe('file header paths', () => {
  it('cuts a tab and what follows, timestamps, quotes', () => {
    assert.equal(headerPath('--- a/x.py\t2024-01-01 10:00:00'), 'a/x.py');
    assert.equal(headerPath('+++ b/x.py  2024-05-01 10:05:00.000000000 +0200'), 'b/x.py');
    assert.equal(headerPath('--- docs/with space.md'), 'docs/with space.md');
    assert.equal(headerPath('--- "a/caf\\303\\251 \\"q\\".txt"'), 'a/café "q".txt');
    assert.equal(headerPath('+++ /dev/null  '), '/dev/null');
  });
  const header = (oldPath: string, newPath: string) => {
    const row = { line: { line: 1, from: 0, text: '', terminated: true }, col: 0, text: '' };
    return { minus: row, plus: row, oldPath, newPath, cut: false };
  };
  it('strips a/ and b/ when both sides have them', () => {
    assert.deepEqual(resolveHeader(header('a/src/x.ts', 'b/src/x.ts'), []), { kind: 'modify', path: 'src/x.ts' });
    assert.deepEqual(resolveHeader(header('/dev/null', 'b/new.ts'), []), { kind: 'create', path: 'new.ts' });
    assert.deepEqual(resolveHeader(header('a/old.ts', '/dev/null'), []), { kind: 'delete', path: 'old.ts' });
    assert.deepEqual(resolveHeader(header('a/x.ts', 'x.ts'), []), { kind: 'modify', path: 'x.ts' });
    assert.deepEqual(resolveHeader(header('./src/x.ts', './src/x.ts'), []), { kind: 'modify', path: 'src/x.ts' });
  });
  it('keeps a prefix that is part of a given path', () => {
    // git's reading (b.txt) is not given, the old side's unstripped path is: that one.
    assert.deepEqual(resolveHeader(header('a/b.txt', 'b/b.txt'), ['a/b.txt']), { kind: 'modify', path: 'a/b.txt' });
    assert.deepEqual(resolveHeader(header('a/b.txt', 'b/b.txt'), ['a/b.txt', 'b.txt']), { kind: 'modify', path: 'b.txt' });
    assert.deepEqual(resolveHeader(header('a/b.txt', 'a/b.txt'), ['a/b.txt']), { kind: 'modify', path: 'a/b.txt' });
  });
  it('takes the new path if given, else the old one if given, else the new one', () => {
    assert.equal(resolveHeader(header('a/old.ts', 'b/new.ts'), ['old.ts']).path, 'old.ts');
    assert.equal(resolveHeader(header('a/old.ts', 'b/new.ts'), ['old.ts', 'new.ts']).path, 'new.ts');
    assert.equal(resolveHeader(header('a/old.ts', 'b/new.ts'), []).path, 'new.ts');
  });
  it('/dev/null on both sides is malformed', () => {
    assert.equal(resolveHeader(header('/dev/null', '/dev/null'), []).error?.code, 'malformed');
  });
});

describe('a hunk as an edit', () => {
  const reply = [
    'Here:', //                    1
    '--- a/a.txt', //              2
    '+++ b/a.txt', //              3
    '@@ -2,3 +2,3 @@ section', //  4
    ' keep', //                    5
    '-old', //                     6
    '+new', //                     7
    '', //                         8  blank: an empty context line
    '', //                         9
    'Done.', //                    10
  ].join('\n');

  it('has old, new, keep, cited and the span of header to last line', () => {
    const e = only(reply);
    assert.equal(e.kind, 'replace');
    assert.equal(e.file, 'a.txt');
    assert.deepEqual(e.old, ['keep', 'old', '']);
    assert.deepEqual(e.new, ['keep', 'new', '']);
    assert.deepEqual(e.keep, [0, null, 2]);
    assert.equal(e.cited, 2);
    assert.deepEqual(pos(e.span), [4, 1, 8, 1]);
    assert.equal(text(reply, e.span), '@@ -2,3 +2,3 @@ section\n keep\n-old\n+new\n');
    assert.deepEqual(e.oldSpans!.map(pos), [[5, 2, 5, 6], [6, 2, 6, 5], [8, 1, 8, 1]]);
    assert.deepEqual(e.oldSpans!.map((s) => text(reply, s)), e.old);
    assert.equal(e.finalNewline, undefined);
    assert.equal(e.error, undefined);
    assert.deepEqual(e.warnings, []);
  });

  it('a number-less hunk cites nothing; trailing blank lines are not context', () => {
    const r = '```diff\n@@ ... @@\n a\n-b\n+c\n\n\n```\n';
    const e = only(r);
    assert.equal(e.cited, undefined);
    assert.deepEqual(e.old, ['a', 'b']);
    assert.deepEqual(e.new, ['a', 'c']);
    assert.deepEqual(pos(e.span), [2, 1, 5, 3]);
  });

  it('a numbered hunk takes trailing blank lines while its counts need them', () => {
    const e = only('@@ -1,3 +1,3 @@\n a\n-b\n+c\n\n\n\nprose\n');
    assert.deepEqual(e.old, ['a', 'b', '']);
    assert.deepEqual(e.new, ['a', 'c', '']);
  });

  it('the body is taken whatever the counts say', () => {
    const e = only('@@ -1,9 +1,1 @@\n a\n-b\n+c\n d\n');
    assert.deepEqual(e.old, ['a', 'b', 'd']);
    assert.deepEqual(e.new, ['a', 'c', 'd']);
  });

  it('a CRLF reply gives contents without CR, and spans before it', () => {
    const r = '@@ -1 +1 @@\r\n-x\r\n+y\r\n';
    const e = only(r);
    assert.deepEqual([e.old, e.new], [['x'], ['y']]);
    assert.equal(text(r, e.oldSpans![0]), 'x');
    assert.deepEqual(pos(e.span), [1, 1, 3, 3]);
  });

  it('inside an indented fence, the indentation is removed and columns point past it', () => {
    const r = '1. Do:\n   ```diff\n   @@ ... @@\n    ctx\n   -x\n   +y\n   ```\n';
    const e = only(r);
    assert.deepEqual(e.old, ['ctx', 'x']);
    assert.deepEqual(e.new, ['ctx', 'y']);
    assert.deepEqual(pos(e.span), [3, 4, 6, 6]);
    assert.deepEqual(e.oldSpans!.map(pos), [[4, 5, 4, 8], [5, 5, 5, 6]]);
  });

  it('a context line that looks like a closing fence (after its space) stays in the hunk', () => {
    const e = only('```diff\n@@ ... @@\n ```\n-x\n+y\n```\n');
    assert.deepEqual(e.old, ['```', 'x']);
  });

  it('the `@@` line may be left out right after a file header', () => {
    const r = '--- a.txt\n+++ a.txt\n-x\n+y\n';
    const e = only(r);
    assert.deepEqual([e.kind, e.old, e.new, e.cited], ['replace', ['x'], ['y'], undefined]);
    assert.deepEqual(pos(e.span), [2, 1, 4, 3]);
  });

  it('a --- / +++ pair ends a hunk and starts the next file', () => {
    const { edits } = parse('--- a/a.txt\n+++ b/a.txt\n@@ -1 +1 @@\n-x\n+y\n--- a/b.txt\n+++ b/b.txt\n@@ -1 +1 @@\n-p\n+q\n', ['a.txt', 'b.txt']);
    assert.deepEqual(edits.map((e) => [e.file, e.old, e.new]), [['a.txt', ['x'], ['y']], ['b.txt', ['p'], ['q']]]);
  });

  it('a hunk without changes is dropped; indexes follow reply order', () => {
    const { edits } = parse('@@ -1 +1 @@\n a\n@@ -2 +2 @@\n-b\n+B\n@@ -4 +4 @@\n-d\n+D\n');
    assert.deepEqual(edits.map((e) => [e.index, e.cited]), [[0, 2], [1, 4]]);
  });
});

describe('no newline at end of file', () => {
  it('after an added line: the file ends without a newline', () => {
    assert.equal(only('@@ -1 +1 @@\n-a\n+b\n\\ No newline at end of file\n').finalNewline, false);
  });
  it('after a removed line only: the file gets a newline', () => {
    assert.equal(only('@@ -1 +1 @@\n-a\n\\ No newline at end of file\n+b\n').finalNewline, true);
  });
  it('after a context line: a claim about the file, which sets nothing (the context line keeps its own ending)', () => {
    const e = only('@@ -1,2 +1,2 @@\n-a\n+b\n c\n\\ No newline at end of file\n');
    assert.deepEqual([e.finalNewline, e.claimsNoFinalNewline], [undefined, true]);
    // A marker on each side of a changed last line is no claim: the new side's sets the state.
    const both = only('@@ -1 +1 @@\n-a\n\\ No newline at end of file\n+b\n\\ No newline at end of file\n');
    assert.deepEqual([both.finalNewline, both.claimsNoFinalNewline], [false, undefined]);
  });
  it('after a context line, applied: a file that ends with a line break keeps it, with stray-marker; one without keeps its lack of one, unwarned', () => {
    const reply = '--- a/f.txt\n+++ b/f.txt\n@@ -1,3 +1,3 @@\n-a\n+A\n b\n c\n\\ No newline at end of file\n';
    for (const format of ['udiff', 'auto']) {
      const r = applyRequest({ format, files: { 'f.txt': 'a\nb\nc\n' }, response: reply });
      assert.equal(r.files['f.txt'], 'A\nb\nc\n', format);
      assert.deepEqual(r.edits[0].warnings.map((w) => w.code), ['stray-marker']);
      assert.match(r.edits[0].warnings[0].message, /f\.txt ends without a line break, but it ends with one: the marker was ignored, and the file keeps its final line break/);
      const kept = applyRequest({ format, files: { 'f.txt': 'a\nb\nc' }, response: reply });
      assert.deepEqual([kept.files['f.txt'], kept.edits[0].warnings], ['A\nb\nc', []]);
    }
    // Away from the end, the claim is stray as any marker there; a CR LF file keeps its last CR LF.
    const far = applyRequest({ format: 'udiff', files: { 'f.txt': 'a\nb\nc\nd' }, response: reply });
    assert.deepEqual([far.files['f.txt'], far.edits[0].warnings.map((w) => w.code)], ['A\nb\nc\nd', ['stray-marker']]);
    const crlf = applyRequest({ format: 'udiff', files: { 'f.txt': 'a\r\nb\r\nc\r\n' }, response: reply });
    assert.equal(crlf.files['f.txt'], 'A\r\nb\r\nc\r\n');
  });
  it('after a context line in udiffx, also in a patch of a file the reply wrote: the text keeps its final line break, with stray-marker', () => {
    const patch = '<FILE_PATCH path="f.txt">\n@@\n-a\n+A\n b\n\\ No newline at end of file\n</FILE_PATCH>\n';
    const given = applyRequest({ format: 'udiffx', files: { 'f.txt': 'a\nb\n' }, response: `<FILE_CHANGES>\n${patch}</FILE_CHANGES>\n` });
    assert.deepEqual([given.files['f.txt'], given.edits[0].warnings.map((w) => w.code)], ['A\nb\n', ['stray-marker']]);
    const written = applyRequest({ format: 'udiffx', files: {}, response: `<FILE_CHANGES>\n<FILE_NEW path="f.txt">\na\nb\n</FILE_NEW>\n${patch}</FILE_CHANGES>\n` });
    assert.equal(written.files['f.txt'], 'A\nb\n');
    assert.deepEqual(written.edits[1].warnings.map((w) => w.code), ['stray-marker']);
  });
  it('absent: the file keeps its state', () => {
    assert.equal(only('@@ -1 +1 @@\n-a\n+b\n').finalNewline, undefined);
  });
  it('any text after the backslash counts', () => {
    assert.equal(only('@@ -1 +1 @@\n-a\n+b\n\\ Kein Zeilenumbruch am Dateiende.\n').finalNewline, false);
  });
});

describe('insertions', () => {
  it('a numbered hunk that only adds lines inserts before old line a + 1', () => {
    const e = only('@@ -3,0 +4,2 @@\n+x\n+y\n');
    assert.deepEqual([e.kind, e.cited, e.new, e.old, e.keep], ['insert', 4, ['x', 'y'], [], undefined]);
    assert.equal(only('@@ -0,0 +1 @@\n+top\n').cited, 1);
  });
  it('without numbers it is a replacement of no old line: malformed in a file with lines, applied to an empty one', () => {
    const r = 'text\n```diff\n@@ ... @@\n+x\n```\n';
    const e = only(r);
    assert.equal(e.kind, 'replace');
    assert.deepEqual(e.old, []);
    assert.equal(e.error, undefined);
    const full = applyRequest({ format: 'udiff', files: { 'a.txt': 'a\n' }, response: r });
    assert.equal(full.edits[0].code, 'malformed');
    assert.match(full.edits[0].message, /only adds lines and has no line numbers/);
    assert.equal(applyRequest({ format: 'udiff', files: { 'a.txt': '' }, response: r }).files['a.txt'], 'x\n');
  });
});

describe('errors', () => {
  it('a line without a kind inside a hunk is malformed, at that line', () => {
    const r = '```diff\n@@ ... @@\n a\noops here\n-b\n+c\n```\n';
    const e = only(r);
    assert.equal(e.error?.code, 'malformed');
    assert.deepEqual(pos(e.error!.reply!), [4, 1, 4, 10]);
    assert.equal(
      e.error!.message,
      'line 4, column 1: every line of a hunk starts with " " (context), "-" (remove), "+" (add) or "\\"; found "oops here"',
    );
    // The edit still covers the whole hunk.
    assert.deepEqual(pos(e.span), [2, 1, 6, 3]);
  });

  it('a hunk without a file header and several files: missing-path at the hunk header', () => {
    const e = only('@@ ... @@\n-x\n+y\n', ['a.txt', 'b.txt']);
    assert.equal(e.error?.code, 'missing-path');
    assert.equal(e.file, '');
    assert.deepEqual(pos(e.error!.reply!), [1, 1, 1, 10]);
  });

  it('the reply ending inside a fence truncates the last hunk only', () => {
    const r = '```diff\n@@ -1 +1 @@\n-a\n+b\n@@ -3 +3 @@\n-c';
    const { edits } = parse(r);
    assert.equal(edits[0].error, undefined);
    assert.equal(edits[1].error?.code, 'truncated');
    assert.deepEqual(pos(edits[1].error!.reply!), [6, 3, 6, 3]);
  });

  it('a numbered hunk short of its counts at the end of a bare reply is truncated; with prose after, it is not', () => {
    assert.equal(only('@@ -1,3 +1,3 @@\n a\n-b\n').error?.code, 'truncated');
    assert.equal(only('@@ -1,3 +1,3 @@\n a\n-b\n+c\nThat is all.\n').error, undefined);
    assert.equal(only('@@ ... @@\n a\n-b\n').error, undefined);
  });
});

describe('new and deleted files', () => {
  it('--- /dev/null is one write edit of all added lines', () => {
    const r = '--- /dev/null\n+++ b/n.txt\n@@ -0,0 +1,2 @@\n+a\n+b\n@@ -2,0 +3 @@\n+c\n\\ No newline at end of file\n';
    const e = only(r, []);
    assert.deepEqual([e.kind, e.file, e.new, e.finalNewline, e.error], ['write', 'n.txt', ['a', 'b', 'c'], false, undefined]);
    assert.deepEqual(pos(e.span), [1, 1, 8, 28]);
  });
  it('an existing file is file-exists, at the header', () => {
    const e = only('--- /dev/null\n+++ b/a.txt\n@@ -0,0 +1 @@\n+x\n');
    assert.equal(e.error?.code, 'file-exists');
    assert.deepEqual(pos(e.error!.reply!), [1, 1, 2, 12]);
  });
  it('+++ /dev/null is a delete edit', () => {
    const e = only('--- a/a.txt\n+++ /dev/null\n@@ -1,2 +0,0 @@\n-x\n-y\n');
    assert.deepEqual([e.kind, e.file, e.error], ['delete', 'a.txt', undefined]);
  });
  it('a /dev/null header that the reply ends after, inside a fence, is truncated', () => {
    const e = only('```diff\n--- /dev/null\n+++ b/n.txt\n@', []);
    assert.equal(e.error?.code, 'truncated');
    assert.deepEqual(pos(e.error!.reply!), [2, 1, 3, 12]);
    assert.equal(only('```diff\n--- a/a.txt\n+++ /dev/null\n').error?.code, 'truncated');
    assert.equal(only('```diff\n--- /dev/null\n+++ b/n.txt\n```\n', []).error, undefined);
  });
  it('a header without hunks creates an empty file', () => {
    const e = only('--- /dev/null\n+++ b/empty.txt\n', []);
    assert.deepEqual([e.kind, e.new], ['write', []]);
  });
});

describe('never throws', () => {
  it('on odd inputs', () => {
    for (const r of ['', '@@', '---', '--- \n+++ \n@@\n-x', '```', '```diff\n@@\n', '\\', '@@ -1 +1 @@\n\\ x\n', '--- /dev/null\n+++ /dev/null\n@@\n+x\n']) {
      assert.doesNotThrow(() => parse(r), r);
    }
    assert.equal(only('--- /dev/null\n+++ /dev/null\n@@\n-x\n+y\n').error?.code, 'malformed');
    assert.equal(only('--- \n+++ \n@@\n-x\n+y\n').error?.code, 'missing-path');
  });
});

describe('detect', () => {
  it('scores numbered headers, header pairs and @@ in diff fences 0.9', () => {
    assert.deepEqual(detectUdiff('x\n@@ -1,2 +1,2 @@\n'), { score: 0.9, reason: 'numbered hunk header `@@ -1,2 +1,2 @@` at line 2' });
    assert.deepEqual(detectUdiff('--- a\n+++ b\n'), { score: 0.9, reason: '`---`/`+++` file header at line 1' });
    assert.deepEqual(detectUdiff('```diff\n@@ ... @@\n-x\n```'), { score: 0.9, reason: '`@@` hunk header in a diff code fence at line 2' });
  });
  it('scores a bare @@ before a change line 0.3, and nothing else', () => {
    assert.equal(detectUdiff('@@ ... @@\n-x\n').score, 0.3);
    assert.equal(detectUdiff('```python\n@@ ... @@\n x\n```').score, 0);
    assert.equal(detectUdiff('Hello --- world').score, 0);
    assert.equal(detectUdiff('').score, 0);
  });
});

describe('through the engine', () => {
  it('context lines keep the file’s text after a whitespace match', () => {
    const r = applyRequest({ format: 'udiff', files: { 'a.txt': 'one  \ntwo\n' }, response: '@@ -1,2 +1,2 @@\n one\n-two\n+TWO\n' });
    assert.equal(r.files['a.txt'], 'one  \nTWO\n');
    assert.equal(r.edits[0].match, 'whitespace');
  });
});
