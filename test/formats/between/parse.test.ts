// The between parser: snippets, anchors and their spans, errors and warnings.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { between } from '../../../src/formats/between/index.ts';
import { betweenAnchors, tagOf } from '../../../src/formats/between/syntax.ts';

const parse = (reply: string, files: string[] = []) => between.parse(reply, { files });

describe('tag lines', () => {
  it('reads a tag and its arguments', () => {
    assert.deepEqual(tagOf('  @BETWEEN@ "a" AND "b"'), { tag: '@BETWEEN@', args: ' "a" AND "b"', argsAt: 11 });
    assert.deepEqual(tagOf('@WHOLE FILE@'), { tag: '@WHOLE FILE@', args: '', argsAt: 12 });
    assert.equal(tagOf('@Override'), null);
    assert.equal(tagOf('@@ -1 +1 @@'), null);
    assert.equal(tagOf('x @BETWEEN@'), null);
  });

  it('splits @BETWEEN@ arguments at the last quoted AND', () => {
    assert.deepEqual(betweenAnchors(' "print("a")" AND "x"'), { a: 'print("a")', b: 'x', aAt: [2, 12], bAt: [19, 20] });
    assert.deepEqual(betweenAnchors('"a" AND "b" AND "c"'), { a: 'a" AND "b', b: 'c', aAt: [1, 10], bAt: [17, 18] });
    assert.equal(betweenAnchors(" 'a' AND 'b'"), null);
    assert.equal(betweenAnchors(' "a" and "b"'), null);
    assert.equal(betweenAnchors(' "" AND "b"'), null);
    assert.equal(betweenAnchors(' "a"AND "b"'), null);
  });
});

describe('between parser', () => {
  it('reads a @BETWEEN@ snippet with anchor spans pointing at the quoted text', () => {
    const reply = 'f.py\n```python\n@BETWEEN@ "def a():" AND "def c():"\ndef b():\n    pass\n```\n';
    const { edits, diagnostics } = parse(reply, ['f.py']);
    assert.deepEqual(diagnostics, []);
    assert.equal(edits.length, 1);
    const e = edits[0];
    assert.equal(e.kind, 'replace');
    assert.equal(e.file, 'f.py');
    assert.deepEqual(e.old, ['def a():', 'def c():']);
    assert.deepEqual(e.new, ['def b():', '    pass']);
    assert.equal(e.cited, undefined);
    assert.deepEqual(
      e.oldSpans!.map((s) => reply.slice(s.from, s.to)),
      ['def a():', 'def c():'],
    );
    assert.deepEqual(e.oldSpans![0], { from: 26, to: 34, start: { line: 3, column: 12 }, end: { line: 3, column: 20 } });
    assert.deepEqual(e.span, { from: 0, to: 72, start: { line: 1, column: 1 }, end: { line: 6, column: 4 } });
    assert.deepEqual(e.warnings.map((w) => [w.code, w.severity]), [['deterministic-merge', 'info']]);
    assert.match(e.warnings[0].message, /aider merges a snippet into that place with a second model/);
  });

  it('points anchor spans into the reply line of an indented fence', () => {
    const reply = 'f\n  ```\n  @BETWEEN@ "x" AND "y"\n  z\n  ```\n';
    const [e] = parse(reply, ['f']).edits;
    assert.deepEqual(e.new, ['z']);
    assert.deepEqual(e.oldSpans!.map((s) => reply.slice(s.from, s.to)), ['x', 'y']);
    assert.deepEqual(e.oldSpans![0].start, { line: 3, column: 14 });
  });

  it('splits a block into snippets, dropping one blank line before the next tag', () => {
    const reply = 'v.py\n```\n\n@BETWEEN@ "a" AND "c"\nb\n\n\n@WHOLE FILE@ ignored\nw\n\n```\n';
    const { edits } = parse(reply, ['v.py']);
    assert.deepEqual(edits.map((e) => [e.kind, e.new]), [
      ['replace', ['b', '']],
      ['write', ['w', '']],
    ]);
    // The first snippet spans from the path line to the line before the next tag,
    // the last one from its tag line to the closing fence.
    assert.deepEqual([edits[0].span.start.line, edits[0].span.end.line], [1, 7]);
    assert.deepEqual([edits[1].span.start.line, edits[1].span.end.line], [8, 11]);
    assert.deepEqual(edits[1].warnings, []);
  });

  it('reports malformed arguments at the tag line', () => {
    const [e] = parse("t.py\n```\n@BETWEEN@ 'a' AND 'b'\nx\n```\n", ['t.py']).edits;
    assert.equal(e.error?.code, 'malformed');
    assert.equal(
      e.error?.message,
      'expected `@BETWEEN@ "line above" AND "line below"` at line 3, found "@BETWEEN@ \'a\' AND \'b\'": quote each line in double quotes and join them with AND',
    );
    assert.deepEqual(e.error?.reply?.start, { line: 3, column: 1 });
    assert.deepEqual(e.warnings, []);
  });

  it('reports an unknown tag at the tag itself', () => {
    const [e] = parse('t.py\n```\n  @REPLACE@ x\n```\n', ['t.py']).edits;
    assert.equal(e.error?.code, 'malformed');
    assert.deepEqual(e.error?.reply, { from: 11, to: 20, start: { line: 3, column: 3 }, end: { line: 3, column: 12 } });
  });

  it('makes untagged text before the first tag one failed edit', () => {
    const { edits } = parse('t.py\n```\n\n# note\nmore\n@WHOLE FILE@\nx\n```\n', ['t.py']);
    assert.equal(edits.length, 2);
    assert.equal(edits[0].error?.code, 'malformed');
    assert.match(edits[0].error!.message, /has "# note" at line 4 before any tag/);
    assert.deepEqual(edits[0].new, ['# note', 'more']);
    assert.equal(edits[1].error, undefined);
    assert.equal(edits[1].kind, 'write');
  });

  it('ignores empty blocks and untagged shell blocks, not other untagged blocks', () => {
    assert.deepEqual(parse('t.py\n```\n\n```\n', ['t.py']).edits, []);
    assert.deepEqual(parse('Run:\n```sh\nls\n```\n', ['t.py']).edits, []);
    const { edits } = parse('Example:\n```python\nprint(1)\n```\n', ['t.py']);
    assert.equal(edits.length, 1);
    assert.equal(edits[0].error?.code, 'malformed');
  });

  it('fails @BETWEEN@ in a file not given, but leaves unsafe paths to the engine', () => {
    const [e] = parse('n.py\n```\n@BETWEEN@ "a" AND "b"\n```\n', ['t.py']).edits;
    assert.equal(e.error?.code, 'file-not-found');
    assert.equal(e.error?.message, 'n.py is not among the files given (t.py); @BETWEEN@ edits an existing file: to create n.py, use @WHOLE FILE@');
    const [u] = parse('../n.py\n```\n@BETWEEN@ "a" AND "b"\n```\n', ['t.py']).edits;
    assert.equal(u.error, undefined);
    assert.equal(u.file, '../n.py');
  });

  it('truncates the last snippet of an unclosed block only', () => {
    const { edits } = parse('v.py\n```\n@BETWEEN@ "a" AND "c"\nb\n@BETWEEN@ "c" AND "e"\nd', ['v.py']);
    assert.equal(edits[0].error, undefined);
    assert.equal(edits[1].error?.code, 'truncated');
    assert.deepEqual(edits[1].error?.reply?.start, { line: 6, column: 2 });
    assert.deepEqual(edits[1].warnings, []);
  });

  it('truncates an unclosed block with no snippet yet', () => {
    const { edits } = parse('v.py\n```\n', ['v.py']);
    assert.equal(edits.length, 1);
    assert.equal(edits[0].error?.code, 'truncated');
  });

  it('warns when a snippet repeats its anchors', () => {
    const [e] = parse('f\n```\n@BETWEEN@ "x" AND "z"\n  x\ny\nz  \n```\n', ['f']).edits;
    assert.deepEqual(e.warnings.map((w) => w.code), ['ambiguous-structure', 'ambiguous-structure', 'deterministic-merge']);
    assert.deepEqual(e.warnings[0].reply?.start, { line: 4, column: 1 });
    assert.deepEqual(e.warnings[1].reply?.start, { line: 6, column: 1 });
  });

  it('missing-path on every snippet of a block without a file', () => {
    const { edits } = parse('```\n@WHOLE FILE@\na\n@WHOLE FILE@\nb\n```\n', ['x', 'y']);
    assert.deepEqual(edits.map((e) => e.error?.code), ['missing-path', 'missing-path']);
  });

  it('never throws on odd input', () => {
    for (const s of ['', '```', '@BETWEEN@', '```\n@BETWEEN@ "', '```\n@@\n```', '\uFEFF```\n@WHOLE FILE@', '```\n@BETWEEN@ "\u2028" AND "\r"\n```']) {
      assert.doesNotThrow(() => parse(s, ['a', 'b']));
      assert.doesNotThrow(() => parse(s, []));
    }
  });
});

describe('between parser: issue 11 rules', () => {
  const F = '```';
  it('fails the snippets from the one a fence closed early falls in; earlier snippets stand', () => {
    const reply = `v.py\n${F}\n@BETWEEN@ "a" AND "c"\nb\n@BETWEEN@ "c" AND "e"\nS = """\n${F}\n"""\n@WHOLE FILE@\nz\n${F}\n`;
    const { edits } = parse(reply, ['v.py']);
    assert.deepEqual(edits.map((e) => e.error?.code ?? null), [null, 'ambiguous-end', 'ambiguous-end']);
    assert.match(edits[1].error!.message, /closed by line 7 \(```\), but the text goes on right after it and line 11 could end the block too/);
    assert.deepEqual(edits[1].warnings, []);
  });

  it('reads every aider fence: four backticks and the tag fences', () => {
    for (const [open, close] of [['````', '````'], ['<source>python', '</source>'], ['<code>', '</code>'], ['<pre>', '</pre>'], ['<codeblock>', '</codeblock>'], ['<SourceCode>', '</sourcecode>']]) {
      const [e] = parse(`t.py\n${open}\n@BETWEEN@ "a" AND "c"\n${F}\nb\n${close}\n`, ['t.py']).edits;
      assert.equal(e.error, undefined, open);
      assert.deepEqual(e.new, [F, 'b'], open);
    }
  });

  it('reads extension-less names as paths, and a label above the block as no path at all', () => {
    const [m] = parse(`Makefile\n${F}\n@WHOLE FILE@\nall:\n${F}\n`, ['app.py']).edits;
    assert.equal(m.file, 'Makefile');
    const [o] = parse(`Output:\n${F}\n@WHOLE FILE@\nall:\n${F}\n`, ['app.py']).edits;
    assert.equal(o.error?.code, 'missing-path');
    const [c] = parse(`.\\T.PY\n${F}\n@BETWEEN@ "a" AND "c"\nb\n${F}\n`, ['t.py']).edits;
    assert.equal(c.file, 't.py');
  });

  it('in a detected reply: no only-file fallback, and an untagged block without a path is prose', () => {
    const detected = (reply: string, files: string[]) => between.parse(reply, { files, detected: true });
    const [e] = detected(`Add:\n${F}\n@BETWEEN@ "a" AND "c"\nb\n${F}\n`, ['t.py']).edits;
    assert.equal(e.error?.code, 'missing-path');
    assert.deepEqual(detected(`t.py\n${F}\n@BETWEEN@ "a" AND "c"\nb\n${F}\n\nOutput:\n${F}\nok\n${F}\n`, ['t.py']).edits.length, 1);
  });

  it('drops a leading byte order mark from @WHOLE FILE@ content of a given file, keeps one for a new file', () => {
    const { edits } = parse(`t.py\n${F}\n@WHOLE FILE@\n\uFEFFx\n${F}\n\nn.py\n${F}\n@WHOLE FILE@\n\uFEFF\uFEFFy\n${F}\n`, ['t.py']);
    assert.deepEqual(edits.map((e) => e.new), [['x'], ['\uFEFFy']]);
  });
});

describe('between detection', () => {

  it('scores 1 for a tag at the start of a line', () => {
    assert.deepEqual(between.detect('x\n```\n  @BETWEEN@ "a" AND "b"\n```'), { score: 1, reason: '`@BETWEEN@` at line 3' });
    assert.deepEqual(between.detect('```\n@WHOLE FILE@\n```'), { score: 1, reason: '`@WHOLE FILE@` at line 2' });
  });
  it('scores 0 otherwise', () => {
    assert.equal(between.detect('mention @BETWEEN@ inline').score, 0);
    assert.equal(between.detect('```\n@OTHER@\n```').score, 0);
  });
});
