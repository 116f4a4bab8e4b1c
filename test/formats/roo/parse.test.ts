// The Roo apply_diff parser: edits, positions, paths, hints, escapes,
// line-number prefixes, and every structural error with its place.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { roo } from '../../../src/formats/roo/index.ts';
import type { Span } from '../../../src/core/types.ts';

const parse = (reply: string, files: string[] = ['a.ts']) => roo.parse(reply, { files });
const span = (from: number, to: number, sl: number, sc: number, el: number, ec: number): Span => ({
  from,
  to,
  start: { line: sl, column: sc },
  end: { line: el, column: ec },
});

const LEGACY = `Text
<apply_diff>
<path>a.ts</path>
<diff>
<<<<<<< SEARCH
:start_line:2
:end_line:3
-------
\\=======
x
=======
y
>>>>>>> REPLACE
</diff>
</apply_diff>
`;

describe('roo parse: blocks', () => {
  it('reads a legacy tool call with its positions, hint, :end_line: and escape', () => {
    const { edits, diagnostics } = parse(LEGACY);
    assert.deepEqual(diagnostics, []);
    assert.equal(edits.length, 1);
    const e = edits[0];
    assert.equal(e.kind, 'replace');
    assert.equal(e.file, 'a.ts');
    assert.deepEqual(e.old, ['=======', 'x']);
    assert.deepEqual(e.new, ['y']);
    assert.equal(e.cited, 2);
    assert.deepEqual(e.meta, { hint: 'start_line', endLine: 3 });
    assert.deepEqual(e.span, span(43, 128, 5, 1, 13, 16));
    // The escaped line's span starts after the backslash.
    assert.deepEqual(e.oldSpans, [span(93, 100, 9, 2, 9, 9), span(101, 102, 10, 1, 10, 2)]);
    assert.equal(e.error, undefined);
    assert.deepEqual(e.warnings, []);
  });

  it('reads several blocks in reply order, with and without separator and hints', () => {
    const reply = [
      '<<<<<<< SEARCH',
      'a',
      '=======',
      'A',
      '>>>>>>> REPLACE',
      '',
      '  <<<<<<< SEARCH>  ',
      ':end_line:9',
      ':start_line:7',
      '-------',
      'b',
      '  =======',
      '>>>>>>>REPLACE',
    ].join('\n');
    const { edits } = parse(reply);
    assert.equal(edits.length, 2);
    assert.deepEqual([edits[0].old, edits[0].new, edits[0].cited], [['a'], ['A'], undefined]);
    assert.deepEqual([edits[1].old, edits[1].new, edits[1].cited], [['b'], [], 7]);
    assert.deepEqual(edits[1].meta, { hint: 'start_line', endLine: 9 });
    assert.deepEqual(edits.map((e) => [e.span.start.line, e.span.end.line]), [[1, 5], [7, 13]]);
  });

  it('keeps blank lines, tag-like lines and conflict markers that are not its own as content', () => {
    const reply = '<<<<<<< SEARCH\n\n</diff>\n<<<<<<< HEAD\n=======\n>>>>>>> main\n\n>>>>>>> REPLACE\n';
    const [e] = parse(reply).edits;
    assert.deepEqual(e.old, ['', '</diff>', '<<<<<<< HEAD']);
    assert.deepEqual(e.new, ['>>>>>>> main', '']);
    assert.equal(e.error, undefined);
  });

  it('reads a CRLF reply without carriage returns in the lines', () => {
    const [e] = parse('<<<<<<< SEARCH\r\n:start_line:1\r\n-------\r\nold\r\n=======\r\nnew\r\n>>>>>>> REPLACE\r\n').edits;
    assert.deepEqual([e.old, e.new, e.cited], [['old'], ['new'], 1]);
    assert.deepEqual(e.oldSpans, [span(40, 43, 4, 1, 4, 4)]);
  });
});

describe('roo parse: escapes and line numbers', () => {
  it('removes one backslash, only before what needs escaping', () => {
    const reply = ['<<<<<<< SEARCH', '\\begin{x}', '\\\\=======', '\\  =======', '\\:start_line:3', '\\12 | x', '=======', '\\-------', '\\>>>>>>> REPLACE', '>>>>>>> REPLACE'].join('\n');
    const [e] = parse(reply).edits;
    assert.deepEqual(e.old, ['\\begin{x}', '\\=======', '  =======', ':start_line:3', '12 | x']);
    assert.deepEqual(e.new, ['-------', '>>>>>>> REPLACE']);
    assert.equal(e.error, undefined);
    assert.deepEqual(e.oldSpans!.map((s) => s.start.column), [1, 2, 2, 2, 2]);
  });

  it('strips `N | ` prefixes when every SEARCH line has one, and takes the first number as the hint', () => {
    const reply = '<<<<<<< SEARCH\n 9 |     a\n10 | \n11 |\n=======\n    b\n>>>>>>> REPLACE';
    const [e] = parse(reply).edits;
    assert.deepEqual(e.old, ['    a', '', '']);
    assert.equal(e.cited, 9);
    assert.deepEqual(e.meta, { hint: 'line numbers' });
    assert.deepEqual(e.oldSpans!.map((s) => [s.start.line, s.start.column, s.end.column]), [[2, 6, 11], [3, 6, 6], [4, 5, 5]]);
    assert.deepEqual(e.warnings, []);
  });

  it('prefers :start_line: over the numbers, and strips numbered REPLACE lines with a warning', () => {
    const reply = '<<<<<<< SEARCH\n:start_line:4\n-------\n3 | a\n=======\n3 | b\n4 | c\n>>>>>>> REPLACE';
    const [e] = parse(reply).edits;
    assert.deepEqual([e.old, e.new, e.cited], [['a'], ['b', 'c'], 4]);
    assert.equal(e.warnings.length, 1);
    assert.equal(e.warnings[0].code, 'numbered-insert');
    assert.deepEqual(e.warnings[0].reply, span(51, 55, 6, 1, 6, 5));
  });

  it('strips nothing when one line lacks a prefix, or the bar is doubled', () => {
    assert.deepEqual(parse('<<<<<<< SEARCH\n1 | a\nb\n=======\n>>>>>>> REPLACE').edits[0].old, ['1 | a', 'b']);
    assert.deepEqual(parse('<<<<<<< SEARCH\n1 || a\n=======\n>>>>>>> REPLACE').edits[0].old, ['1 || a']);
    assert.deepEqual(parse('<<<<<<< SEARCH\n1| a\n=======\n>>>>>>> REPLACE').edits[0].old, ['1| a']);
  });
});

describe('roo parse: tool calls and paths', () => {
  it('reads the multi-file args form, with <start_line> after the content', () => {
    const reply = [
      '<apply_diff>',
      '<args>',
      '<file>',
      '  <path>src/x.ts</path>',
      '  <diff>',
      '    <content>',
      '<<<<<<< SEARCH',
      'a',
      '=======',
      'b',
      '>>>>>>> REPLACE',
      '    </content>',
      '    <start_line>12</start_line>',
      '  </diff>',
      '  <diff><content>',
      '<<<<<<< SEARCH',
      'c',
      '=======',
      '>>>>>>> REPLACE',
      '</content></diff>',
      '</file>',
      '<file><path>y.ts</path>',
      '<diff>',
      '<<<<<<< SEARCH',
      ':start_line:3',
      'd',
      '=======',
      '>>>>>>> REPLACE',
      '<start_line>7</start_line>',
      '</diff></file></args></apply_diff>',
    ].join('\n');
    const { edits } = parse(reply, ['src/x.ts', 'y.ts']);
    assert.deepEqual(
      edits.map((e) => [e.file, e.old, e.cited, e.meta?.hint]),
      [
        ['src/x.ts', ['a'], 12, 'start_line element'],
        ['src/x.ts', ['c'], undefined, undefined],
        ['y.ts', ['d'], 3, 'start_line'],
      ],
    );
  });

  it('reads a path given after the diff, over several lines, or outside a call', () => {
    const late = parse('<apply_diff>\n<diff>\n<<<<<<< SEARCH\na\n=======\n>>>>>>> REPLACE\n</diff>\n<path>./b.ts</path>\n</apply_diff>', ['a.ts', 'b.ts']);
    assert.equal(late.edits[0].file, 'b.ts');
    const multi = parse('<apply_diff>\n<path>\n  src/c.ts\n</path>\n<diff>\n<<<<<<< SEARCH\na\n=======\n>>>>>>> REPLACE', ['a.ts', 'b.ts']);
    assert.equal(multi.edits[0].file, 'src/c.ts');
    const bare = parse('<path>b.ts</path>\n<<<<<<< SEARCH\na\n=======\n>>>>>>> REPLACE', ['a.ts', 'b.ts']);
    assert.equal(bare.edits[0].file, 'b.ts');
  });

  it('an unclosed <path> takes the rest of its line and swallows nothing', () => {
    const { edits } = parse('<apply_diff>\n<path>b.ts\n<diff>\n<<<<<<< SEARCH\na\n=======\n>>>>>>> REPLACE', ['a.ts', 'b.ts']);
    assert.equal(edits.length, 1);
    assert.equal(edits[0].file, 'b.ts');
  });

  it('bare blocks use the only file given, else fail with missing-path', () => {
    const reply = '<<<<<<< SEARCH\na\n=======\n>>>>>>> REPLACE';
    assert.equal(parse(reply, ['only.ts']).edits[0].file, 'only.ts');
    const [e] = parse(reply, ['a.ts', 'b.ts']).edits;
    assert.equal(e.file, '');
    assert.equal(e.error?.code, 'missing-path');
    assert.deepEqual(e.error?.reply, span(0, 14, 1, 1, 1, 15));
    assert.equal(parse(reply, []).edits[0].error?.code, 'missing-path');
  });

  it('ignores a <start_line> directly in a legacy call, and rejects one that is not a number', () => {
    const legacy = parse('<apply_diff>\n<path>a.ts</path>\n<start_line>5</start_line>\n<diff>\n<<<<<<< SEARCH\na\n=======\n>>>>>>> REPLACE\n</diff>\n</apply_diff>');
    assert.equal(legacy.edits[0].cited, undefined);
    const bad = parse('<apply_diff><args><file><path>a.ts</path>\n<diff>\n<content>\n<<<<<<< SEARCH\na\n=======\n>>>>>>> REPLACE\n</content>\n<start_line>0</start_line>\n</diff>');
    assert.equal(bad.edits[0].error?.code, 'malformed');
    assert.deepEqual(bad.edits[0].error?.reply, span(123, 124, 9, 13, 9, 14));
  });

  it('an empty SEARCH for a file not given is an append; for a file given, a replace of nothing', () => {
    const reply = '<apply_diff>\n<path>new.ts</path>\n<diff>\n<<<<<<< SEARCH\n:start_line:1\n-------\n=======\nx\n>>>>>>> REPLACE\n</diff>\n</apply_diff>';
    const [added] = parse(reply, ['a.ts']).edits;
    assert.deepEqual([added.kind, added.old, added.new, added.cited, added.oldSpans], ['append', [], ['x'], undefined, undefined]);
    const [given] = parse(reply, ['new.ts']).edits;
    assert.deepEqual([given.kind, given.old, given.cited], ['replace', [], 1]);
  });
});

describe('roo parse: broken blocks', () => {
  const codeAt = (reply: string) => {
    const [e] = parse(reply).edits;
    return [e.error?.code, e.error?.reply?.start.line, e.error?.reply?.start.column, e.span.start.line, e.span.end.line];
  };

  it('truncated: the reply ends inside a block; the error points at the end', () => {
    assert.deepEqual(codeAt('<<<<<<< SEARCH\na\n=======\nb'), ['truncated', 4, 2, 1, 4]);
    assert.deepEqual(codeAt('<<<<<<< SEARCH\na\n'), ['truncated', 3, 1, 1, 2]);
    assert.deepEqual(codeAt('<<<<<<< SEARCH'), ['truncated', 1, 15, 1, 1]);
  });

  it('missing-divider: the REPLACE marker comes first', () => {
    assert.deepEqual(codeAt('<<<<<<< SEARCH\na\n>>>>>>> REPLACE\n'), ['missing-divider', 3, 1, 1, 3]);
  });

  it('missing-end-marker: a new SEARCH marker comes first; the next block is read', () => {
    const { edits } = parse('<<<<<<< SEARCH\na\n=======\nb\n<<<<<<< SEARCH\nc\n=======\nd\n>>>>>>> REPLACE');
    assert.equal(edits.length, 2);
    assert.equal(edits[0].error?.code, 'missing-end-marker');
    assert.equal(edits[0].error?.reply?.start.line, 5);
    assert.deepEqual([edits[0].span.start.line, edits[0].span.end.line], [1, 4]);
    assert.deepEqual([edits[1].old, edits[1].new, edits[1].error], [['c'], ['d'], undefined]);
    // In the SEARCH section the expected marker is the divider.
    const early = parse('<<<<<<< SEARCH\na\n<<<<<<< SEARCH\nc\n=======\n>>>>>>> REPLACE').edits[0];
    assert.equal(early.error?.code, 'missing-end-marker');
    assert.match(early.error!.message, /expected `=======`/);
  });

  it('a closing tool-call tag inside an unterminated block ends it there', () => {
    const reply = '<apply_diff>\n<path>a.ts</path>\n<diff>\n<<<<<<< SEARCH\na\n=======\nb\n</diff>\n</apply_diff>\n<apply_diff>\n<path>b.ts</path>\n<diff>\n<<<<<<< SEARCH\nc\n</diff>\n</apply_diff>';
    const { edits } = parse(reply, ['a.ts', 'b.ts']);
    assert.deepEqual(
      edits.map((e) => [e.file, e.error?.code, e.error?.reply?.start.line, e.span.end.line, e.new]),
      [
        ['a.ts', 'missing-end-marker', 8, 7, ['b']],
        ['b.ts', 'missing-divider', 15, 14, []],
      ],
    );
  });

  it('malformed: bad, zero or repeated hints, hints in content, a second divider', () => {
    assert.deepEqual(codeAt('<<<<<<< SEARCH\n:start_line=18\na\n=======\n>>>>>>> REPLACE'), ['malformed', 2, 1, 1, 5]);
    assert.deepEqual(codeAt('<<<<<<< SEARCH\n:start_line:0\na\n=======\n>>>>>>> REPLACE'), ['malformed', 2, 1, 1, 5]);
    assert.deepEqual(codeAt('<<<<<<< SEARCH\n:start_line:1\n:start_line:2\na\n=======\n>>>>>>> REPLACE'), ['malformed', 3, 1, 1, 6]);
    assert.deepEqual(codeAt('<<<<<<< SEARCH\n-------\n:start_line:2\na\n=======\n>>>>>>> REPLACE'), ['malformed', 3, 1, 1, 6]);
    assert.deepEqual(codeAt('<<<<<<< SEARCH\na\n=======\n  :end_line:2\n>>>>>>> REPLACE'), ['malformed', 4, 1, 1, 5]);
    assert.deepEqual(codeAt('<<<<<<< SEARCH\na\n=======\nb\n=======\nc\n>>>>>>> REPLACE'), ['malformed', 5, 1, 1, 7]);
  });

  it('a second REPLACE marker before any new block makes the block fail with ambiguous-end, spanning both', () => {
    const reply = '<<<<<<< SEARCH\n:start_line:1\n-------\na\n=======\nExample:\n>>>>>>> REPLACE\nThat is all.\n>>>>>>> REPLACE\n';
    const { edits, diagnostics } = parse(reply);
    assert.equal(edits.length, 1);
    assert.deepEqual(edits[0].new, ['Example:']);
    assert.equal(edits[0].error?.code, 'ambiguous-end');
    assert.equal(
      edits[0].error?.message,
      'the block that starts at line 1 has a REPLACE marker at line 7 and another, `>>>>>>> REPLACE`, at line 9, with no new block between: the lines between may be REPLACE lines, so the block could end at either; it was not applied. Escape a content line that reads as a marker with a backslash (`\\>>>>>>> REPLACE`), or remove a repeated marker',
    );
    assert.deepEqual(edits[0].span.end, { line: 9, column: 16 });
    assert.deepEqual(diagnostics, []);
    // A third marker extends the same failure; a marker after the next block belongs to that one.
    const three = parse(reply + '>>>>>>> REPLACE\n<<<<<<< SEARCH\nb\n=======\nc\n>>>>>>> REPLACE\n');
    assert.deepEqual(three.edits.map((e) => [e.error?.code, e.span.end.line]), [['ambiguous-end', 10], [undefined, 15]]);
    // An end marker in the SEARCH section: the block could end there too.
    const early = parse('<<<<<<< SEARCH\na\n>>>>>>> REPLACE\nb\n=======\nc\n>>>>>>> REPLACE\n');
    assert.deepEqual(early.edits.map((e) => e.error?.code), ['ambiguous-end']);
    // Escaped, the line is content.
    const escaped = parse('<<<<<<< SEARCH\na\n=======\n\\>>>>>>> REPLACE\n>>>>>>> REPLACE\n');
    assert.deepEqual([escaped.edits[0].error, escaped.edits[0].new], [undefined, ['>>>>>>> REPLACE']]);
  });

  it('resolves a path differing from a given file by case, `./` or `\\` to that file', () => {
    const call = (path: string) => `<apply_diff>\n<path>${path}</path>\n<diff>\n<<<<<<< SEARCH\na\n=======\nb\n>>>>>>> REPLACE\n</diff>\n</apply_diff>`;
    for (const path of ['src/App.js', './src/App.js', 'src\\App.js', 'SRC/app.JS', ' src/App.js '])
      assert.equal(parse(call(path), ['src/App.js', 'b.ts']).edits[0].file, 'src/App.js', path);
    assert.equal(parse(call('src\\New.js'), ['src/App.js']).edits[0].file, 'src/New.js');
  });

  it('bare blocks never fall back to the only file when the format was detected', () => {
    const reply = '<<<<<<< SEARCH\na\n=======\n>>>>>>> REPLACE';
    const [e] = roo.parse(reply, { files: ['only.ts'], detected: true }).edits;
    assert.equal(e.error?.code, 'missing-path');
  });

  it('a REPLACE marker outside a block is a stray-marker warning', () => {
    const { edits, diagnostics } = parse('prose\n  >>>>>>> REPLACE\n');
    assert.deepEqual(edits, []);
    assert.deepEqual(
      diagnostics.map((d) => [d.code, d.severity, d.reply]),
      [['stray-marker', 'warning', span(6, 23, 2, 1, 2, 18)]],
    );
  });
});

describe('roo detect', () => {
  it('scores 1 for :start_line:, <apply_diff>, or SEARCH with a separator line; 0.95 for a bare block; 0 otherwise', () => {
    assert.deepEqual(roo.detect('x\n  :start_line:3\n'), { score: 1, reason: '`:start_line:` at line 2' });
    assert.deepEqual(roo.detect('<apply_diff>\n<path>a</path>'), { score: 1, reason: '`<apply_diff>` at line 1' });
    assert.deepEqual(roo.detect('<<<<<<< SEARCH\n-------\na\n=======\n>>>>>>> REPLACE'), {
      score: 1,
      reason: '`<<<<<<< SEARCH` at line 1 with a `-------` line at line 2',
    });
    assert.equal(roo.detect('<<<<<<< SEARCH\na\n=======\n>>>>>>> REPLACE').score, 0.95);
    assert.equal(roo.detect('a.py\n```\n<<<<<<< SEARCH\na\n=======\n>>>>>>> REPLACE\n```').score, 0);
    // Any fence aider writes, not only backticks.
    for (const [open, close] of [['<source>python', '</source>'], ['<code>', '</code>'], ['<pre>', '</pre>'], ['<codeblock>', '</codeblock>'], ['<sourcecode>', '</sourcecode>'], ['````', '````']])
      assert.equal(roo.detect(`a.py\n${open}\n<<<<<<< SEARCH\na\n=======\n>>>>>>> REPLACE\n${close}`).score, 0, open);
    assert.equal(roo.detect('-------\n<<<<<<< SEARCH\na').score, 0.95);
    assert.equal(roo.detect('').score, 0);
  });
});

describe('roo view', () => {
  it('numbers lines as read_file does: right-aligned, ` | `, LF after every row', () => {
    assert.equal(roo.view!(''), '');
    assert.equal(roo.view!('\uFEFFa\r\nb'), '1 | a\n2 | b\n');
    const ten = Array.from({ length: 10 }, (_, i) => `l${i + 1}`).join('\n') + '\n';
    const view = roo.view!(ten).split('\n');
    assert.equal(view[0], ' 1 | l1');
    assert.equal(view[9], '10 | l10');
    assert.equal(view[10], '');
  });

  it('a block copied from the view is read back with its prefixes stripped', () => {
    const text = 'def f():\n\n    return 1\n';
    const rows = roo.view!(text).trimEnd().split('\n');
    const [e] = parse(`<<<<<<< SEARCH\n${rows.join('\n')}\n=======\n>>>>>>> REPLACE`).edits;
    assert.deepEqual(e.old, ['def f():', '', '    return 1']);
    assert.equal(e.cited, 1);
  });
});
