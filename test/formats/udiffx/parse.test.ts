// The udiffx reader: the envelope, each directive, positions, and prose().

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Span } from '../../../src/core/types.ts';
import { applyRequest } from '../../../src/formats/index.ts';
import { prose, udiffx } from '../../../src/formats/udiffx/index.ts';
import { envelopes, parseUdiffx, unfenced } from '../../../src/formats/udiffx/parse.ts';

const parse = (reply: string) => parseUdiffx(reply, { files: [] });
const text = (reply: string, s: Span) => reply.slice(s.from, s.to);
const pos = (s: Span) => [s.start.line, s.start.column, s.end.line, s.end.column];

describe('FILE_NEW and FILE_APPEND', () => {
  it('content between the tag lines; the span covers both tags', () => {
    const reply = 'Intro\n<FILE_CHANGES>\n<FILE_NEW path="./src/a.ts">\nline 1\n\nline 3\n</FILE_NEW>\n</FILE_CHANGES>\n';
    const { edits, diagnostics } = parse(reply);
    assert.deepEqual(diagnostics, []);
    assert.equal(edits.length, 1);
    const e = edits[0];
    assert.deepEqual([e.index, e.kind, e.file, e.new, e.old, e.finalNewline], [0, 'write', 'src/a.ts', ['line 1', '', 'line 3'], [], true]);
    assert.deepEqual(pos(e.span), [3, 1, 7, 12]);
    assert.equal(text(reply, e.span), '<FILE_NEW path="./src/a.ts">\nline 1\n\nline 3\n</FILE_NEW>');
  });

  it('a closing tag after text on its line: a last line without a line break', () => {
    const e = parse('<FILE_CHANGES><FILE_NEW path="a">x\ny</FILE_NEW></FILE_CHANGES>').edits[0];
    assert.deepEqual([e.new, e.finalNewline], [['x', 'y'], false]);
  });

  it('blanks before the closing tag are not content; blank first lines are', () => {
    const e = parse('<FILE_CHANGES>\n<FILE_NEW path="a">   \n\n  x\n    </FILE_NEW>\n</FILE_CHANGES>').edits[0];
    assert.deepEqual([e.new, e.finalNewline], [['', '  x'], true]);
  });

  it('an empty or self-closing FILE_NEW writes an empty file', () => {
    for (const r of ['<FILE_CHANGES><FILE_NEW path="a"/></FILE_CHANGES>', '<FILE_CHANGES>\n<FILE_NEW path="a">\n</FILE_NEW>\n</FILE_CHANGES>']) {
      const e = parse(r).edits[0];
      assert.deepEqual([e.kind, e.new, e.finalNewline, e.error], ['write', [], undefined, undefined], r);
    }
  });

  it('a CRLF reply gives lines without CR', () => {
    const e = parse('<FILE_CHANGES>\r\n<FILE_NEW path="a">\r\nx\r\ny\r\n</FILE_NEW>\r\n</FILE_CHANGES>\r\n').edits[0];
    assert.deepEqual([e.new, e.finalNewline], [['x', 'y'], true]);
  });

  it('FILE_APPEND is an append', () => {
    const e = parse('<FILE_CHANGES>\n<FILE_APPEND file_path="log.txt">\nmore\n</FILE_APPEND>\n</FILE_CHANGES>').edits[0];
    assert.deepEqual([e.kind, e.file, e.new, e.finalNewline], ['append', 'log.txt', ['more'], true]);
  });

  it('without its closing tag: truncated, at the end of the reply', () => {
    const reply = '<FILE_CHANGES>\n<FILE_NEW path="a">\nx\ny';
    const e = parse(reply).edits[0];
    assert.equal(e.error?.code, 'truncated');
    assert.deepEqual(pos(e.error!.reply!), [4, 2, 4, 2]);
    assert.deepEqual(pos(e.span), [2, 1, 4, 2]);
  });
});

describe('attributes', () => {
  it('path or file_path, from/to or from_path/to_path, any quotes, any case', () => {
    const { edits } = parse(
      [
        '<FILE_CHANGES>',
        "<FILE_DELETE path='a b.txt'/>",
        '<FILE_DELETE FILE_PATH="c.txt" />',
        '<FILE_DELETE path=d.txt/>',
        '<FILE_RENAME from_path="x" to_path="y"/>',
        '<FILE_RENAME to="q" from="p"></FILE_RENAME>',
        '</FILE_CHANGES>',
      ].join('\n'),
    );
    assert.deepEqual(
      edits.map((e) => [e.kind, e.file, e.moveTo]),
      [
        ['delete', 'a b.txt', undefined],
        ['delete', 'c.txt', undefined],
        ['delete', 'd.txt', undefined],
        ['rename', 'x', 'y'],
        ['rename', 'p', 'q'],
      ],
    );
    assert.ok(edits.every((e) => e.error === undefined));
  });

  it('a missing path is missing-path at the tag', () => {
    const reply = '<FILE_CHANGES>\n  <FILE_DELETE name="x"/>\n</FILE_CHANGES>';
    const e = parse(reply).edits[0];
    assert.equal(e.error?.code, 'missing-path');
    assert.deepEqual(pos(e.error!.reply!), [2, 3, 2, 26]);
    assert.equal(e.error!.message, '<FILE_DELETE> at line 2 has no path attribute: write <FILE_DELETE path="PATH">');
  });
});

describe('FILE_PATCH', () => {
  const reply = [
    '<FILE_CHANGES>', //           1
    '<FILE_PATCH path="a.txt">', // 2
    '@@ -1,2 +1,2 @@', //          3
    ' keep', //                    4
    '-old', //                     5
    '+new', //                     6
    '@@', //                       7
    '-x', //                       8
    '+y', //                       9
    '</FILE_PATCH>', //            10
    '</FILE_CHANGES>', //          11
  ].join('\n');

  it('one edit per hunk, with positions in the reply', () => {
    const { edits } = parse(reply);
    assert.deepEqual(
      edits.map((e) => [e.index, e.kind, e.file, e.old, e.new, e.keep, e.cited]),
      [
        [0, 'replace', 'a.txt', ['keep', 'old'], ['keep', 'new'], [0, null], 1],
        [1, 'replace', 'a.txt', ['x'], ['y'], [null], undefined],
      ],
    );
    assert.deepEqual(pos(edits[0].span), [3, 1, 6, 5]);
    assert.deepEqual(edits[0].oldSpans!.map(pos), [[4, 2, 4, 6], [5, 2, 5, 5]]);
    assert.deepEqual(pos(edits[1].span), [7, 1, 9, 3]);
  });

  it('a closing tag inside a hunk line is content', () => {
    const { edits } = parse('<FILE_CHANGES>\n<FILE_PATCH path="a">\n@@\n </FILE_PATCH>\n-x\n+y\n</FILE_PATCH>\n</FILE_CHANGES>');
    assert.deepEqual([edits[0].old, edits[0].new], [['</FILE_PATCH>', 'x'], ['</FILE_PATCH>', 'y']]);
  });

  it('a missing closing tag before the next directive: inferred-marker on the last hunk, at that line', () => {
    const r = '<FILE_CHANGES>\n<FILE_PATCH path="a">\n@@\n-x\n+y\n</FILE_CHANGES>\n';
    const { edits } = parse(r);
    assert.equal(edits.length, 1);
    assert.equal(edits[0].error, undefined);
    assert.deepEqual(edits[0].warnings.map((w) => [w.code, pos(w.reply!)]), [['inferred-marker', [6, 1, 6, 16]]]);
  });

  it('the reply ending inside a patch truncates its last hunk only', () => {
    const { edits } = parse('<FILE_CHANGES>\n<FILE_PATCH path="a">\n@@\n-x\n+y\n@@\n-p\n+q');
    assert.deepEqual(edits.map((e) => e.error?.code), [undefined, 'truncated']);
    const cutEarly = parse('<FILE_CHANGES>\n<FILE_PATCH path="a">\n');
    assert.deepEqual(cutEarly.edits.map((e) => e.error?.code), ['truncated']);
  });

  it('no hunk at all is malformed, spanning the directive', () => {
    const r = '<FILE_CHANGES>\n<FILE_PATCH path="a">\nwhole file\n</FILE_PATCH>\n</FILE_CHANGES>';
    const e = parse(r).edits[0];
    assert.equal(e.error?.code, 'malformed');
    assert.equal(text(r, e.span), '<FILE_PATCH path="a">\nwhole file\n</FILE_PATCH>');
  });

  it('a hunk without a path is missing-path', () => {
    const e = parse('<FILE_CHANGES>\n<FILE_PATCH>\n@@\n-x\n+y\n</FILE_PATCH>\n</FILE_CHANGES>').edits[0];
    assert.equal(e.error?.code, 'missing-path');
  });
});

describe('the envelope', () => {
  it('directives outside any envelope are not read', () => {
    assert.deepEqual(parse('<FILE_DELETE path="a"/>').edits, []);
  });

  it('reads every envelope, and records where they are', () => {
    const r = 'a\n<FILE_CHANGES>\n<FILE_DELETE path="x"/>\n</FILE_CHANGES>\nb\n<FILE_CHANGES>\n<FILE_DELETE path="y"/>';
    assert.deepEqual(parse(r).edits.map((e) => e.file), ['x', 'y']);
    assert.deepEqual(envelopes(r), [
      { from: 2, to: 56, closed: true },
      { from: 59, to: r.length, closed: false },
    ]);
  });

  it('stray closing tags and nested envelopes are reply-level warnings with positions', () => {
    const { diagnostics } = parse('<FILE_CHANGES>\n</FILE_DELETE>\n<FILE_CHANGES>\n</FILE_CHANGES>');
    assert.deepEqual(diagnostics.map((d) => [d.code, d.severity, pos(d.reply!)]), [
      ['stray-marker', 'warning', [2, 1, 2, 15]],
      ['stray-marker', 'warning', [3, 1, 3, 15]],
    ]);
  });

  it('unknown FILE_ tags are malformed edits and their content is skipped', () => {
    const { edits } = parse('<FILE_CHANGES>\n<FILE_CONTENT path="a">\n<FILE_DELETE path="b"/>\n</FILE_CONTENT>\n</FILE_CHANGES>');
    assert.deepEqual(edits.map((e) => [e.file, e.error?.code]), [['a', 'malformed']]);
  });

  it('never throws on odd inputs', () => {
    for (const r of ['', '<FILE_CHANGES', '<FILE_CHANGES>', '<FILE_CHANGES><FILE_NEW', '<FILE_CHANGES><FILE_PATCH path="a">', '<FILE_CHANGES><FILE_PATCH path="a"/>', '<FILE_CHANGES><FILE_RENAME/>']) {
      assert.doesNotThrow(() => parse(r), r);
    }
  });
});

describe('prose', () => {
  it('is the reply without its envelopes, whole lines and a fence around them taken out', () => {
    const reply = 'Here is the change.\n```xml\n<FILE_CHANGES>\n<FILE_DELETE path="a"/>\n</FILE_CHANGES>\n```\nDone.\n';
    assert.equal(prose(reply), 'Here is the change.\nDone.\n');
  });
  it('keeps text on the tag lines and text between envelopes', () => {
    assert.equal(prose('See: <FILE_CHANGES></FILE_CHANGES> ok\nmid\n<FILE_CHANGES>\n</FILE_CHANGES>\nend'), 'See:  ok\nmid\nend');
  });
  it('an unclosed envelope takes the rest of the reply; no envelope leaves it all', () => {
    assert.equal(prose('Before\n<FILE_CHANGES>\n<FILE_NEW path="a">\nx'), 'Before\n');
    assert.equal(prose('just text\n```\ncode\n```\n'), 'just text\n```\ncode\n```\n');
  });
});

describe('detect', () => {
  it('is 1 with <FILE_CHANGES, naming its line, and 0 without', () => {
    assert.deepEqual(udiffx.detect('Sure\n\n<FILE_CHANGES>\n'), { score: 1, reason: '`<FILE_CHANGES>` at line 3' });
    assert.equal(udiffx.detect('<FILE_PATCH path="a">\n@@\n').score, 0);
  });
});

describe('through the engine', () => {
  it('a rename with a patch of the old path moves the patched text', () => {
    const r = applyRequest({
      format: 'udiffx',
      files: { 'a.txt': 'one\ntwo\n' },
      response: '<FILE_CHANGES>\n<FILE_PATCH path="a.txt">\n@@\n-two\n+2\n</FILE_PATCH>\n<FILE_RENAME from="a.txt" to="b/c.txt"/>\n</FILE_CHANGES>',
    });
    assert.equal(r.ok, true);
    assert.deepEqual(r.files, { 'a.txt': null, 'b/c.txt': 'one\n2\n' });
  });
});

describe('a code fence around FILE_NEW content', () => {
  const content = (body: string) => parse(`<FILE_CHANGES>\n<FILE_NEW path="a">\n${body}</FILE_NEW>\n</FILE_CHANGES>`).edits[0];

  it('is stripped when the first and last non-blank lines are a fence pair', () => {
    assert.deepEqual(content('```rust\nfn a() {}\n```\n').new, ['fn a() {}']);
    assert.deepEqual(content('\n  ~~~~ text\nx\n\ny\n~~~~~  \n\n').new, ['x', '', 'y']);
    const e = content('```\n\nkept blank\n```\n');
    assert.deepEqual([e.new, e.finalNewline], [['', 'kept blank'], true]);
    assert.deepEqual(content('```\n```\n').new, []);
  });

  it('is content when the lines are no pair', () => {
    for (const body of ['```\nx\n~~~\n', '````\nx\n```\n', '```\nx\n```js\n', '```\nx\n```\ntext\n', 'text\n```\nx\n```\n', '```\n']) {
      assert.deepEqual(content(body).new, body.replace(/\n$/, '').split('\n'), JSON.stringify(body));
    }
  });

  it('keeps CR LF line ends inside', () => {
    const e = parse('<FILE_CHANGES>\r\n<FILE_NEW path="a">\r\n```\r\nx\r\ny\r\n```\r\n</FILE_NEW>\r\n</FILE_CHANGES>').edits[0];
    assert.deepEqual([e.new, e.finalNewline], [['x', 'y'], true]);
  });

  it('unfenced() on its own', () => {
    assert.equal(unfenced('```py\na\n```'), 'a\n');
    assert.equal(unfenced('```'), null);
    assert.equal(unfenced(''), null);
    assert.equal(unfenced('```\n```'), '');
  });
});

describe('the end of a content (ambiguous-end)', () => {
  const codes = (reply: string) => parse(reply).edits.map((e) => [e.file, e.error?.code ?? 'ok']);

  it('a second closing tag before the next directive: the block fails whole, and the next directive is read', () => {
    const reply = '<FILE_CHANGES>\n<FILE_NEW path="a">\nx\n</FILE_NEW>\ny\n</FILE_NEW>\n<FILE_DELETE path="b"/>\n</FILE_CHANGES>';
    const { edits, diagnostics } = parse(reply);
    assert.deepEqual(edits.map((e) => [e.file, e.error?.code]), [['a', 'ambiguous-end'], ['b', undefined]]);
    assert.deepEqual(diagnostics, []);
    assert.equal(text(reply, edits[0].span), '<FILE_NEW path="a">\nx\n</FILE_NEW>\ny\n</FILE_NEW>');
    assert.deepEqual(pos(edits[0].error!.reply!), [4, 1, 4, 12]);
    assert.match(edits[0].error!.message, /holds <\/FILE_NEW> at line 4 and another <\/FILE_NEW> follows at line 6/);
  });

  it('other closing tags between are skipped; the next opening tag or </FILE_CHANGES> ends the search', () => {
    assert.deepEqual(codes('<FILE_CHANGES>\n<FILE_NEW path="a">\nx\n</FILE_NEW>\n</FILE_PATCH>\n</FILE_NEW>\n</FILE_CHANGES>'), [['a', 'ambiguous-end']]);
    assert.deepEqual(codes('<FILE_CHANGES>\n<FILE_NEW path="a">\nx\n</FILE_NEW>\n</FILE_CHANGES>\n</FILE_NEW>'), [['a', 'ok']]);
    assert.deepEqual(codes('<FILE_CHANGES>\n<FILE_NEW path="a">\nx\n</FILE_NEW>\n<FILE_NEW path="b">\ny\n</FILE_NEW>\n</FILE_CHANGES>'), [['a', 'ok'], ['b', 'ok']]);
  });

  it('FILE_APPEND follows the same rules with its own tags', () => {
    assert.deepEqual(codes('<FILE_CHANGES>\n<FILE_APPEND path="a">\nx\n</FILE_APPEND>\n</FILE_APPEND>\n</FILE_CHANGES>'), [['a', 'ambiguous-end']]);
    assert.deepEqual(codes('<FILE_CHANGES>\n<FILE_APPEND path="a">\n</FILE_NEW>\n<FILE_NEW path="x">\n</FILE_APPEND>\n</FILE_CHANGES>'), [['a', 'ok']]);
  });

  it('text after the closing tag on its line: the block and the rest of its envelope fail, later envelopes are read', () => {
    const reply = '<FILE_CHANGES>\n<FILE_NEW path="a">\nend with </FILE_NEW> here\n<FILE_DELETE path="b"/>\n<FILE_PATCH path="c">\n@@\n-x\n+y\n</FILE_PATCH>\n</FILE_CHANGES>\n<FILE_CHANGES>\n<FILE_DELETE path="d"/>\n</FILE_CHANGES>';
    const { edits } = parse(reply);
    assert.deepEqual(edits.map((e) => [e.file, e.error?.code]), [['a', 'ambiguous-end'], ['b', 'ambiguous-end'], ['c', 'ambiguous-end'], ['d', undefined]]);
    assert.match(edits[1].error!.message, /^<FILE_DELETE> at line 4 was not applied: it follows <FILE_NEW path="a"> at line 2/);
  });

  it('a tag of the same name starting a content line: balanced, the block runs to its own closing tag', () => {
    const reply = '<FILE_CHANGES>\n<FILE_NEW path="doc.md">\n<FILE_NEW path="x">\nhi\n</FILE_NEW>\n<FILE_DELETE path="y"/>\n</FILE_NEW>\n<FILE_DELETE path="z"/>\n</FILE_CHANGES>';
    const { edits } = parse(reply);
    assert.deepEqual(edits.map((e) => [e.file, e.error?.code]), [['doc.md', 'ambiguous-end'], ['z', undefined]]);
    assert.deepEqual(pos(edits[0].error!.reply!), [3, 1, 3, 10]);
  });

  it('not balanced: a missing closing tag; the block ends before that line and the envelope after it fails', () => {
    const reply = '<FILE_CHANGES>\n<FILE_NEW path="a">\nA\n  <FILE_NEW path="b">\nB\n</FILE_NEW>\n</FILE_CHANGES>';
    const { edits } = parse(reply);
    assert.deepEqual(edits.map((e) => [e.file, e.error?.code]), [['a', 'ambiguous-end'], ['b', 'ambiguous-end']]);
    assert.equal(text(reply, edits[0].span), '<FILE_NEW path="a">\nA\n');
  });

  it('a tag inside a line, or a look-alike that is no tag, is content', () => {
    assert.deepEqual(codes('<FILE_CHANGES>\n<FILE_NEW path="a">\nuse <FILE_NEW path="x"> here\n<FILE_NEWS>\n<FILE_NEW path=\n</FILE_NEW>\n</FILE_CHANGES>'), [['a', 'ok']]);
  });

  it('a FILE_PATCH with a second closing tag: every hunk fails, spanning both tags', () => {
    const reply = '<FILE_CHANGES>\n<FILE_PATCH path="a">\n@@\n-x\n+y\n@@\n-p\n+q\n</FILE_PATCH>\n</FILE_PATCH>\n<FILE_DELETE path="b"/>\n</FILE_CHANGES>';
    const { edits } = parse(reply);
    assert.deepEqual(edits.map((e) => [e.file, e.error?.code]), [['a', 'ambiguous-end'], ['a', 'ambiguous-end'], ['b', undefined]]);
    assert.deepEqual(pos(edits[0].error!.reply!), [9, 1, 9, 14]);
    const noHunk = parse('<FILE_CHANGES>\n<FILE_PATCH path="a">\nx\n</FILE_PATCH>\n</FILE_PATCH>\n</FILE_CHANGES>').edits;
    assert.deepEqual(noHunk.map((e) => e.error?.code), ['ambiguous-end']);
  });
});

describe('directives in order: renames', () => {
  const files = ['a.txt', 'src/App.js'];
  const read = (body: string) => parseUdiffx(`<FILE_CHANGES>\n${body}\n</FILE_CHANGES>`, { files }).edits.map((e) => [e.kind, e.file, e.moveTo, e.error?.code]);

  it('a directive on the new path is an edit of the old file, moved', () => {
    assert.deepEqual(read('<FILE_RENAME from="a.txt" to="b.txt"/>\n<FILE_PATCH path="B.TXT">\n@@\n-x\n+y\n</FILE_PATCH>\n<FILE_APPEND path="./b.txt">\nz\n</FILE_APPEND>'), [
      ['rename', 'a.txt', 'b.txt', undefined],
      ['replace', 'a.txt', 'b.txt', undefined],
      ['append', 'a.txt', 'b.txt', undefined],
    ]);
  });

  it('the old path after the rename names nothing (file-not-found); a path before the rename is read as written', () => {
    assert.deepEqual(read('<FILE_PATCH path="b.txt">\n@@\n-x\n+y\n</FILE_PATCH>\n<FILE_RENAME from="a.txt" to="b.txt"/>\n<FILE_PATCH path="a.txt">\n@@\n-x\n+y\n</FILE_PATCH>'), [
      ['replace', 'b.txt', undefined, undefined],
      ['rename', 'a.txt', 'b.txt', undefined],
      ['replace', 'a.txt', undefined, 'file-not-found'],
    ]);
  });

  it('a second rename of a moved file is refused (a file moves once per reply); its new name names nothing', () => {
    assert.deepEqual(read('<FILE_RENAME from="a.txt" to="b.txt"/>\n<FILE_RENAME from="b.txt" to="c.txt"/>\n<FILE_PATCH path="c.txt">\n@@\n-x\n+y\n</FILE_PATCH>'), [
      ['rename', 'a.txt', 'b.txt', undefined],
      ['rename', 'a.txt', 'c.txt', 'overlap'],
      ['replace', 'c.txt', undefined, undefined],
    ]);
    assert.deepEqual(read('<FILE_RENAME from="a.txt" to="b.txt"/>\n<FILE_RENAME from="A.TXT" to="c.txt"/>'), [
      ['rename', 'a.txt', 'b.txt', undefined],
      ['rename', 'a.txt', 'c.txt', 'overlap'],
    ]);
  });

  it('a rename onto a path written or renamed to earlier is file-exists', () => {
    assert.deepEqual(read('<FILE_NEW path="n.txt">\nx\n</FILE_NEW>\n<FILE_RENAME from="a.txt" to="n.txt"/>'), [
      ['write', 'n.txt', undefined, undefined],
      ['rename', 'a.txt', 'n.txt', 'file-exists'],
    ]);
    assert.deepEqual(read('<FILE_RENAME from="a.txt" to="n.txt"/>\n<FILE_RENAME from="src/App.js" to="n.txt"/>'), [
      ['rename', 'a.txt', 'n.txt', undefined],
      ['rename', 'src/App.js', 'n.txt', 'file-exists'],
    ]);
  });

  it('through the engine: rename then patch of the new path, and rename then FILE_NEW of it', () => {
    const ok = applyRequest({
      format: 'udiffx',
      files: { 'a.txt': 'one\n' },
      response: '<FILE_CHANGES>\n<FILE_RENAME from="a.txt" to="b.txt"/>\n<FILE_PATCH path="b.txt">\n@@\n-one\n+two\n</FILE_PATCH>\n</FILE_CHANGES>',
    });
    assert.deepEqual([ok.ok, ok.files], [true, { 'a.txt': null, 'b.txt': 'two\n' }]);
    const clash = applyRequest({
      format: 'udiffx',
      files: { 'a.txt': 'one\n' },
      response: '<FILE_CHANGES>\n<FILE_RENAME from="a.txt" to="b.txt"/>\n<FILE_NEW path="b.txt">\ntwo\n</FILE_NEW>\n</FILE_CHANGES>',
    });
    assert.deepEqual([clash.ok, clash.files, clash.edits.map((e) => e.code)], [false, { 'a.txt': 'one\n' }, ['overlap', 'overlap']]);
  });
});

describe('paths', () => {
  it('name a given file up to ./, \\ and letter case, in every directive', () => {
    const files = ['src/App.js', 'README.md'];
    const { edits } = parseUdiffx(
      '<FILE_CHANGES>\n<FILE_PATCH path=" ./src\\app.js ">\n@@\n-x\n+y\n</FILE_PATCH>\n<FILE_NEW path="readme.MD">\nx\n</FILE_NEW>\n<FILE_DELETE path=".\\README.md"/>\n<FILE_RENAME from="SRC/APP.JS" to=".\\lib\\App.js"/>\n<FILE_NEW path="./new\\\\x.txt"/>\n</FILE_CHANGES>',
      { files },
    );
    assert.deepEqual(
      edits.map((e) => [e.file, e.moveTo]),
      [
        ['src/App.js', undefined],
        ['README.md', undefined],
        ['README.md', undefined],
        ['src/App.js', 'lib/App.js'],
        ['new/x.txt', undefined],
      ],
    );
  });

  it('two given files equal ignoring case: the one written exactly, else neither', () => {
    const files = ['a.txt', 'A.txt'];
    const read = (p: string) => parseUdiffx(`<FILE_CHANGES><FILE_DELETE path="${p}"/></FILE_CHANGES>`, { files }).edits[0].file;
    assert.deepEqual([read('A.txt'), read('a.txt'), read('a.TXT')], ['A.txt', 'a.txt', 'a.TXT']);
  });

  it('an attribute named __proto__ is an attribute like any other', () => {
    const e = parse('<FILE_CHANGES><FILE_DELETE __proto__="x" constructor="y" path="__proto__"/></FILE_CHANGES>').edits[0];
    assert.deepEqual([e.file, e.error], ['__proto__', undefined]);
    const r = applyRequest({ format: 'udiffx', files: JSON.parse('{"__proto__": "one\\n"}'), response: '<FILE_CHANGES>\n<FILE_PATCH path="__proto__">\n@@\n-one\n+two\n</FILE_PATCH>\n</FILE_CHANGES>' });
    assert.equal(r.ok, true, JSON.stringify(r.edits));
    assert.ok(Object.hasOwn(r.files, '__proto__'));
    assert.equal(r.files['__proto__'], 'two\n');
  });
});

describe('udiffx parser: directives in reply order, range removal, hunks that change nothing', () => {
  const files = ['a.txt'];
  const edits = (body: string) => parseUdiffx(`<FILE_CHANGES>\n${body}\n</FILE_CHANGES>`, { files }).edits;

  it('folds patches and appends of a file written earlier into the write, hunks placed in the text as the write left it; each folded directive repeats the final write', () => {
    const es = edits('<FILE_NEW path="n.txt">\none\ntwo\nthree\n</FILE_NEW>\n<FILE_PATCH path="n.txt">\n@@\n-three\n+3\n@@\n-one\n+1\n</FILE_PATCH>\n<FILE_APPEND path="n.txt">\nfour\n</FILE_APPEND>');
    const text = ['1', 'two', '3', 'four'];
    assert.deepEqual(
      es.map((e) => [e.index, e.kind, e.file, e.new, e.error?.code, e.span.start.line]),
      [[0, 'write', 'n.txt', text, undefined, 2], [1, 'write', 'n.txt', text, undefined, 8], [2, 'write', 'n.txt', text, undefined, 11], [3, 'write', 'n.txt', text, undefined, 15]],
    );
  });

  it('keeps a hunk that does not apply to the written text as a failing edit of its own, indexed in order, naming the write', () => {
    const es = edits('<FILE_NEW path="n.txt">\nx\nx\n</FILE_NEW>\n<FILE_PATCH path="n.txt">\n@@\n-x\n+y\n@@\n-z\n+w\n</FILE_PATCH>\n<FILE_DELETE path="a.txt"/>');
    assert.deepEqual(es.map((e) => [e.index, e.kind, e.error?.code]), [[0, 'write', undefined], [1, 'replace', 'ambiguous'], [2, 'replace', 'no-match'], [3, 'delete', undefined]]);
    assert.match(es[1].error!.message, /^the hunk at line 7 does not apply to the text that <FILE_NEW path="n\.txt"> at line 2 wrote: its old lines occur in 2 places in that text$/);
    assert.deepEqual(es[0].new, ['x', 'x']);
  });

  it('overlapping hunks of a folded patch both fail; the state of the final newline follows the last hunk', () => {
    const es = edits('<FILE_NEW path="n.txt">\na\nb\n</FILE_NEW>\n<FILE_PATCH path="n.txt">\n@@\n-a\n+A\n b\n@@\n-b\n+B\n\\ No newline at end of file\n</FILE_PATCH>');
    assert.deepEqual(es.map((e) => e.error?.code), [undefined, 'overlap', 'overlap']);
    const ok = edits('<FILE_NEW path="n.txt">\na\nb\n</FILE_NEW>\n<FILE_PATCH path="n.txt">\n@@\n-b\n+B\n\\ No newline at end of file\n</FILE_PATCH>');
    assert.deepEqual([ok[0].new, ok[0].finalNewline], [['a', 'B'], false]);
  });

  it('moves the write of a new file that is renamed, and fails directives on paths deleted or renamed away', () => {
    assert.deepEqual(
      edits('<FILE_NEW path="n.txt">\nx\n</FILE_NEW>\n<FILE_RENAME from="n.txt" to="m.txt"/>\n<FILE_PATCH path="n.txt">\n@@\n-x\n+y\n</FILE_PATCH>').map((e) => [e.kind, e.file, e.error?.code]),
      [['write', 'm.txt', undefined], ['write', 'm.txt', undefined], ['replace', 'n.txt', 'file-not-found']],
    );
    const es = edits('<FILE_DELETE path="a.txt"/>\n<FILE_DELETE path="a.txt"/>\n<FILE_RENAME from="a.txt" to="b.txt"/>\n<FILE_APPEND path="a.txt">\nx\n</FILE_APPEND>');
    assert.deepEqual(es.map((e) => e.error?.code), [undefined, 'file-not-found', 'file-not-found', 'file-not-found']);
    assert.match(es[1].error!.message, /^<FILE_DELETE path="a\.txt"> at line 3: a\.txt is not there at this point of the reply: it was deleted by <FILE_DELETE> at line 2, and directives run in reply order$/);
  });

  it('reads a `~` line between two removal lines on each side as a range removal, and refuses one with fewer', () => {
    const [range] = edits('<FILE_PATCH path="a.txt">\n@@\n c\n-a\n-b\n~\n-y\n-z\n+n\n</FILE_PATCH>');
    assert.deepEqual([range.old, range.new, range.meta?.gap, range.error], [['c', 'a', 'b', 'y', 'z'], ['c', 'n'], 3, undefined]);
    for (const body of ['-a\n~\n-y\n-z', '-a\n-b\n~\n-y', '-a\n-b\n~\n c\n-y\n-z', '-a\n-b\n~\n-c\n-d\n~\n-y\n-z']) {
      const [e] = edits(`<FILE_PATCH path="a.txt">\n@@\n${body}\n</FILE_PATCH>`);
      assert.equal(e.error?.code, 'malformed', body);
    }
    const [own] = edits('<FILE_PATCH path="a.txt">\n@@\n ~\n-a\n+b\n</FILE_PATCH>');
    assert.deepEqual([own.old, own.meta?.gap, own.error], [['~', 'a'], undefined, undefined]);
  });

  it('refuses a `~` that ends its hunk (the last line, or before the next `@@`): malformed at its line and column, never the lines above it alone', () => {
    const [last] = edits('<FILE_PATCH path="a.txt">\n@@\n-a\n-b\n~\n</FILE_PATCH>');
    assert.equal(last.error?.code, 'malformed');
    assert.equal(last.error?.message, 'line 6, column 1: the `~` removes the lines between the removal lines around it, and needs at least 2 "-" lines right above it (the first lines of the range) and 2 right below (its last lines); found 2 above and 0 below: the patch ends right after it');
    assert.deepEqual(pos(last.error!.reply!), [6, 1, 6, 2]);
    const [first, second] = edits('<FILE_PATCH path="a.txt">\n@@\n-a\n-b\n~  \n@@ -4 +4 @@\n-d\n+D\n</FILE_PATCH>');
    assert.equal(first.error?.code, 'malformed');
    assert.match(first.error!.message, /^line 6, column 1: .*found 2 above and 0 below: the next hunk's header `@@ -4 \+4 @@` follows it at line 7$/);
    assert.deepEqual([second.old, second.new, second.error], [['d'], ['D'], undefined]);
    const r = applyRequest({ format: 'udiffx', files: { 'a.txt': 'a\nb\nc\n' }, response: '<FILE_CHANGES>\n<FILE_PATCH path="a.txt">\n@@\n-a\n-b\n~\n</FILE_PATCH>\n</FILE_CHANGES>\n' });
    assert.deepEqual([r.ok, r.files['a.txt'], r.edits[0].code], [false, 'a\nb\nc\n', 'malformed']);
  });

  it('reads a hunk of context lines only as an edit that changes nothing, a patch of such hunks no longer malformed', () => {
    const [e] = edits('<FILE_PATCH path="a.txt">\n@@\n a\n b\n</FILE_PATCH>');
    assert.deepEqual([e.kind, e.old, e.new, e.keep, e.meta?.unchanged, e.error], ['replace', ['a', 'b'], ['a', 'b'], [0, 1], true, undefined]);
  });
});
