// The udiffx reader: the envelope, each directive, positions, and prose().

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Span } from '../../../src/core/types.ts';
import { applyRequest } from '../../../src/formats/index.ts';
import { prose, udiffx } from '../../../src/formats/udiffx/index.ts';
import { envelopes, parseUdiffx } from '../../../src/formats/udiffx/parse.ts';

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
