// The apply_patch (V4A) parser: edits, their fields and positions, errors
// and their positions, with exact values.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Edit, Span } from '../../../src/core/types.ts';
import { anchorText, parseApplyPatch } from '../../../src/formats/apply-patch/parse.ts';

const parse = (reply: string, files: string[] = ['a.py']) => parseApplyPatch(reply, { files });
const slice = (reply: string, s: Span) => reply.slice(s.from, s.to);
const pos = (s: Span) => `${s.start.line}:${s.start.column}-${s.end.line}:${s.end.column}`;
const codes = (edits: Edit[]) => edits.map((e) => e.error?.code ?? null);

describe('apply-patch parser: updates', () => {
  const reply = [
    'Here is the fix:',
    '*** Begin Patch',
    '*** Update File: a.py',
    '@@ def f():',
    ' def f():',
    '-    return 1',
    '+    return 2',
    '+    # done',
    ' ',
    '*** End Patch',
    'Thanks.',
  ].join('\n');

  it('reads one chunk as a replace edit with old, new, keep and meta', () => {
    const { edits, diagnostics } = parse(reply);
    assert.deepEqual(diagnostics, []);
    assert.equal(edits.length, 1);
    const e = edits[0];
    assert.equal(e.index, 0);
    assert.equal(e.kind, 'replace');
    assert.equal(e.file, 'a.py');
    assert.deepEqual(e.old, ['def f():', '    return 1', '']);
    assert.deepEqual(e.new, ['def f():', '    return 2', '    # done', '']);
    assert.deepEqual(e.keep, [0, null, null, 2]);
    assert.deepEqual(e.meta, { anchors: ['def f():'], eof: false });
    assert.equal(e.moveTo, undefined);
    assert.equal(e.error, undefined);
    assert.deepEqual(e.warnings, []);
  });

  it('spans the chunk from its @@ line to its last line, and each old line exactly', () => {
    const e = parse(reply).edits[0];
    assert.equal(pos(e.span), '4:1-9:2');
    assert.equal(slice(reply, e.span).split('\n')[0], '@@ def f():');
    assert.deepEqual(e.oldSpans!.map(pos), ['5:2-5:10', '6:2-6:14', '9:2-9:2']);
    assert.deepEqual(e.oldSpans!.map((s) => slice(reply, s)), e.old);
  });

  it('reads CRLF replies the same way', () => {
    const crlf = reply.replace(/\n/g, '\r\n');
    const e = parse(crlf).edits[0];
    assert.deepEqual(e.old, ['def f():', '    return 1', '']);
    assert.deepEqual(e.oldSpans!.map((s) => slice(crlf, s)), e.old);
  });

  it('takes an empty line inside a chunk as empty context, and drops empty lines at its end', () => {
    const r = ['*** Begin Patch', '*** Update File: a.py', '-x', '', ' y', '+z', '', '', '@@', '-w', '*** End Patch'].join('\n');
    const [first, second] = parse(r).edits;
    assert.deepEqual(first.old, ['x', '', 'y']);
    assert.deepEqual(first.new, ['', 'y', 'z']);
    assert.deepEqual(first.keep, [1, 2, null]);
    assert.equal(pos(first.span), '3:1-6:3');
    assert.equal(pos(first.oldSpans![1]), '4:1-4:1');
    assert.deepEqual(second.old, ['w']);
    assert.equal(pos(second.span), '9:1-10:3');
  });

  it('stacks consecutive @@ anchors and marks *** End of File, keeping blank lines before it', () => {
    const r = ['*** Begin Patch', '*** Update File: a.py', '@@ class A:', '@@', '@@     def f(self):', ' x', '', '*** End of File', '*** End Patch'].join('\n');
    const [e] = parse(r).edits;
    assert.deepEqual(e.meta, { anchors: ['class A:', '    def f(self):'], eof: true });
    assert.deepEqual(e.old, ['x', '']);
    assert.equal(pos(e.span), '3:1-8:16');
  });

  it('gives every chunk of a moved file the new path, and reads a header-only move as a rename', () => {
    const r = [
      '*** Begin Patch',
      '*** Update File: a.py',
      '*** Move to: b.py',
      '@@',
      '-1',
      '+2',
      '@@',
      '-3',
      '*** Update File: c.py',
      '*** Move to: d.py',
      '*** End Patch',
    ].join('\n');
    const edits = parse(r, ['a.py', 'c.py']).edits;
    assert.deepEqual(edits.map((e) => [e.kind, e.file, e.moveTo]), [
      ['replace', 'a.py', 'b.py'],
      ['replace', 'a.py', 'b.py'],
      ['rename', 'c.py', 'd.py'],
    ]);
    assert.equal(pos(edits[2].span), '9:1-10:18');
    assert.deepEqual(codes(edits), [null, null, null]);
  });

  it('refuses moves onto given files and updates of files not given', () => {
    const r = ['*** Begin Patch', '*** Update File: a.py', '*** Move to: b.py', '-1', '*** Update File: z.py', '-1', '*** End Patch'].join('\n');
    const edits = parse(r, ['a.py', 'b.py']).edits;
    assert.deepEqual(codes(edits), ['file-exists', 'file-not-found']);
    assert.equal(pos(edits[0].error!.reply!), '3:1-3:18');
    assert.equal(
      edits[1].error!.message,
      'cannot update z.py: it is not among the files given (a.py, b.py); to create it, use `*** Add File: z.py`',
    );
  });
});

describe('apply-patch parser: add and delete', () => {
  it('reads an added file as a write of its lines without the +', () => {
    const r = ['*** Begin Patch', '*** Add File: new.txt', '+one', '+', '+ three', '', '*** Delete File: a.py', '*** End Patch'].join('\n');
    const [add, del] = parse(r).edits;
    assert.equal(add.kind, 'write');
    assert.equal(add.file, 'new.txt');
    assert.deepEqual(add.new, ['one', '', ' three']);
    assert.equal(pos(add.span), '2:1-5:8');
    assert.equal(add.error, undefined);
    assert.equal(del.kind, 'delete');
    assert.equal(del.file, 'a.py');
    assert.equal(pos(del.span), '7:1-7:22');
  });

  it('refuses to add a file that exists', () => {
    const [e] = parse('*** Begin Patch\n*** Add File: a.py\n+x\n*** End Patch\n').edits;
    assert.equal(e.error!.code, 'file-exists');
    assert.equal(e.error!.message, 'cannot add a.py: it already exists; to change it, use `*** Update File: a.py`');
  });

  it('reports an empty line between + lines, and a line without +, at their line', () => {
    const r = ['*** Begin Patch', '*** Add File: n.txt', '+a', '', '+b', 'c', '*** End Patch'].join('\n');
    const [e] = parse(r).edits;
    assert.equal(e.error!.code, 'malformed');
    assert.equal(
      e.error!.message,
      'line 4, column 1: an empty line inside an added file; every line of an added file starts with "+" (write an empty line as "+")',
    );
    assert.equal(pos(e.error!.reply!), '4:1-4:1');
    assert.equal(pos(e.span), '2:1-6:2');
  });
});

describe('apply-patch parser: malformed input', () => {
  it('reports a chunk line without a prefix at its line and column', () => {
    const r = ['*** Begin Patch', '*** Update File: a.py', '@@', '-x', 'oops', '+y', '@@', '-z', '*** End Patch'].join('\n');
    const edits = parse(r).edits;
    assert.deepEqual(codes(edits), ['malformed', null]);
    assert.equal(
      edits[0].error!.message,
      'line 5, column 1: expected a chunk line starting with " " (context), "-" (remove) or "+" (add), an `@@` line or a `***` marker; found "oops"',
    );
    assert.equal(pos(edits[0].error!.reply!), '5:1-5:5');
    assert.equal(pos(edits[0].span), '3:1-6:3');
  });

  it('turns an unknown *** line into a malformed edit up to the next file header', () => {
    const r = ['*** Begin Patch', '*** Frobnicate File: a.py', '-x', '+y', '*** Delete File: a.py', '*** End Patch'].join('\n');
    const edits = parse(r).edits;
    assert.deepEqual(edits.map((e) => [e.file, e.error?.code ?? null, pos(e.span)]), [
      ['a.py', 'malformed', '2:1-4:3'],
      ['a.py', null, '5:1-5:22'],
    ]);
    assert.match(edits[0].error!.message, /^line 2, column 1: unknown marker "\*\*\* Frobnicate File: a\.py"; expected/);
  });

  it('turns a file section without *** Begin Patch into malformed edits', () => {
    const r = 'Patch:\n*** Update File: a.py\n@@\n-x\n+y\n*** End Patch\n';
    const edits = parse(r).edits;
    assert.deepEqual(codes(edits), ['malformed']);
    assert.equal(
      edits[0].error!.message,
      'line 2, column 1: a file header outside a patch: `*** Begin Patch` is missing before "*** Update File: a.py"; wrap the patch in `*** Begin Patch` ... `*** End Patch`',
    );
  });

  it('reports a header without a path as missing-path, and an update without chunks as malformed', () => {
    const r = ['*** Begin Patch', '*** Delete File:  ', '*** Update File: a.py', '*** End Patch'].join('\n');
    const edits = parse(r).edits;
    assert.deepEqual(codes(edits), ['missing-path', 'malformed']);
    assert.equal(edits[0].error!.message, 'line 2, column 1: "*** Delete File:" names no file; write the path after the colon');
    assert.equal(pos(edits[1].error!.reply!), '3:1-3:22');
  });

  it('takes a closing fence or a new *** Begin Patch for the missing *** End Patch, with a warning', () => {
    const r = ['```', '*** Begin Patch', '*** Delete File: a.py', '*** Begin Patch', '*** Delete File: b.py', '```', 'done'].join('\n');
    const { edits, diagnostics } = parse(r, ['a.py', 'b.py']);
    assert.deepEqual(codes(edits), [null, null]);
    assert.deepEqual(diagnostics.map((d) => [d.code, d.severity, pos(d.reply!)]), [
      ['inferred-marker', 'warning', '4:1-4:16'],
      ['inferred-marker', 'warning', '6:1-6:4'],
    ]);
  });
});

describe('apply-patch parser: truncation', () => {
  it('fails the edit open at the end of the reply, and keeps the ones before it', () => {
    const r = '*** Begin Patch\n*** Update File: a.py\n@@\n-x\n+y\n@@\n-z\n+w';
    const { edits, diagnostics } = parse(r);
    assert.deepEqual(codes(edits), [null, 'truncated']);
    assert.deepEqual(diagnostics, []);
    assert.equal(pos(edits[1].error!.reply!), '6:1-8:3');
    assert.equal(
      edits[1].error!.message,
      'the reply ends inside this chunk (line 8) without `*** End Patch`: it was cut off; send the patch again from this point',
    );
  });

  it('fails a cut header, even one that looks complete', () => {
    assert.deepEqual(codes(parse('*** Begin Patch\n*** Add File: a.p').edits), ['truncated']);
    assert.deepEqual(codes(parse('*** Begin Patch\n*** Update File: a.py\n').edits), ['truncated']);
  });

  it('closes the edit before a marker line cut short, and reports the cut for the reply', () => {
    for (const cut of ['*', '**', '*** End', '*** Update Fi']) {
      const { edits, diagnostics } = parse(`*** Begin Patch\n*** Update File: a.py\n-x\n+y\n${cut}`);
      assert.deepEqual(codes(edits), [null], cut);
      assert.deepEqual(diagnostics.map((d) => [d.code, pos(d.reply!)]), [['truncated', `5:1-5:${cut.length + 1}`]], cut);
    }
  });

  it('starts a new (truncated) chunk at an @ cut short', () => {
    const { edits } = parse('*** Begin Patch\n*** Update File: a.py\n-x\n+y\n@');
    assert.deepEqual(codes(edits), [null, 'truncated']);
  });

  it('reports a patch with nothing open at the end as truncated for the reply', () => {
    const { edits, diagnostics } = parse('*** Begin Patch\n');
    assert.deepEqual(edits, []);
    assert.deepEqual(diagnostics.map((d) => [d.code, d.severity, pos(d.reply!)]), [['truncated', 'error', '2:1-2:1']]);
  });
});

describe('apply-patch parser: a truncated patch is an error', () => {
  it('cut after the removed lines of a chunk: the chunk fails, never applied in part', () => {
    const { edits } = parse('*** Begin Patch\n*** Update File: a.py\n@@\n-x\n-y\n');
    assert.deepEqual(codes(edits), ['truncated']);
    assert.equal(edits[0].error!.severity, 'error');
  });
  it('cut inside an added file: the file is not written', () => {
    const { edits } = parse('*** Begin Patch\n*** Add File: b.py\n+one\n+tw');
    assert.deepEqual(codes(edits), ['truncated']);
  });
  it('cut after a chunk closed by *** End of File: the chunk stands, the cut is reported for the reply as an error', () => {
    const { edits, diagnostics } = parse('*** Begin Patch\n*** Update File: a.py\n@@\n-x\n+y\n*** End of File\n');
    assert.deepEqual(codes(edits), [null]);
    assert.deepEqual(diagnostics.map((d) => [d.code, d.severity]), [['truncated', 'error']]);
  });
});

describe('apply-patch parser: paths', () => {
  const files = ['src/App.js', 'README.md'];
  const only = (reply: string) => {
    const { edits } = parse(`*** Begin Patch\n${reply}\n*** End Patch\n`, files);
    assert.equal(edits.length, 1);
    return edits[0];
  };
  it('name a given file up to ./, \\ and letter case', () => {
    for (const p of ['./src/App.js', 'src\\App.js', '.\\src\\App.js', 'SRC/app.js', ' src/App.js ']) {
      const e = only(`*** Update File: ${p}\n@@\n-x\n+y`);
      assert.equal(e.file, 'src/App.js', p);
      assert.equal(e.error, undefined, p);
    }
  });
  it('resolve for every section: an add onto a given file is file-exists, a delete and a move name the given file', () => {
    assert.equal(only('*** Add File: ./readme.md\n+x').error?.code, 'file-exists');
    assert.equal(only('*** Delete File: .\\src\\app.js').file, 'src/App.js');
    const moved = only('*** Update File: src/App.js\n*** Move to: ./readme.MD\n@@\n-x\n+y');
    assert.equal(moved.moveTo, 'README.md');
    assert.equal(moved.error?.code, 'file-exists');
    assert.equal(only('*** Update File: src/App.js\n*** Move to: ./lib\\App.js').moveTo, 'lib/App.js');
  });
  it('are normalised when they name no given file', () => {
    const e = only('*** Add File: ./docs\\new.md\n+x');
    assert.equal(e.file, 'docs/new.md');
    assert.equal(e.error, undefined);
  });
});

describe('apply-patch parser: a second *** End Patch', () => {
  const reply = (inner: string[], after: string[]) => ['*** Begin Patch', '*** Update File: a.py', '@@', '-x', '+y', ...inner, '*** End Patch', ...after].join('\n') + '\n';
  it('with patch lines before it makes the edit the first one ended ambiguous-end', () => {
    const { edits } = parse(reply([], ['+z', '*** End Patch']));
    assert.deepEqual(codes(edits), ['ambiguous-end']);
    assert.match(edits[0].error!.message, /^the `\*\*\* End Patch` at line 6 ended the patch inside this chunk, but another `\*\*\* End Patch` follows at line 8/);
    assert.equal(pos(edits[0].error!.reply!), '6:1-6:14');
  });
  it('fails only the edit left open: chunks closed before are kept', () => {
    const { edits } = parse(reply(['@@', '-p', '+q'], ['+z', '*** End Patch']));
    assert.deepEqual(codes(edits), [null, 'ambiguous-end']);
  });
  it('fails an added file, a deletion and a bare update it ended', () => {
    for (const section of ['*** Add File: b.py\n+one', '*** Delete File: a.py', '*** Update File: a.py\n*** Move to: c.py']) {
      const { edits } = parse(`*** Begin Patch\n${section}\n*** End Patch\n+two\n*** End Patch\n`);
      assert.deepEqual(codes(edits), ['ambiguous-end'], section);
    }
  });
  it('a fence standing in for the end marker counts too', () => {
    const { edits } = parse(['```', '*** Begin Patch', '*** Update File: a.py', '@@', '-x', '+y', '```', '+z', '*** End Patch'].join('\n'));
    assert.deepEqual(codes(edits), ['ambiguous-end']);
    assert.match(edits[0].error!.message, /^the fence at line 7 ended the patch/);
  });
  it('is only a repeat with nothing between, or prose between', () => {
    assert.deepEqual(codes(parse(reply([], ['*** End Patch'])).edits), [null]);
    assert.deepEqual(codes(parse(reply([], ['', 'That closes the patch.', '*** End Patch'])).edits), [null]);
  });
  it('changes nothing when a new patch begins before it', () => {
    const { edits } = parse(reply([], ['*** Begin Patch', '*** Update File: a.py', '@@', '-p', '+q', '*** End Patch']));
    assert.deepEqual(codes(edits), [null, null]);
  });
  it('an edit closed by *** End of File is not affected', () => {
    const { edits } = parse(reply(['*** End of File'], ['+z', '*** End Patch']));
    assert.deepEqual(codes(edits), [null]);
  });
});

describe('apply-patch anchors', () => {
  it('reads the text after "@@ ", dropping unified-diff numbers', () => {
    assert.equal(anchorText('@@'), '');
    assert.equal(anchorText('@@ '), '');
    assert.equal(anchorText('@@ def f():'), 'def f():');
    assert.equal(anchorText('@@     def f():'), '    def f():');
    assert.equal(anchorText('@@ -3,4 +3,5 @@'), '');
    assert.equal(anchorText('@@ -3 +3,2 @@ class A:'), 'class A:');
  });
});

describe('apply-patch parser: chunk lines right after *** End of File', () => {
  it('make the chunk the marker ended ambiguous-end, and are malformed themselves', () => {
    const { edits } = parse('*** Begin Patch\n*** Update File: a.py\n@@\n-x\n+y\n*** End of File\n+z\n*** End Patch\n');
    assert.deepEqual(codes(edits), ['ambiguous-end', 'malformed']);
    assert.match(edits[0].error!.message, /^the `\*\*\* End of File` at line 6 ended this chunk, but chunk lines follow it at line 7 with no `@@` line/);
  });
  it('leave it alone when an @@ line or a marker follows', () => {
    assert.deepEqual(codes(parse('*** Begin Patch\n*** Update File: a.py\n@@\n-x\n+y\n*** End of File\n@@\n-p\n+q\n*** End Patch\n').edits), [null, null]);
    assert.deepEqual(codes(parse('*** Begin Patch\n*** Update File: a.py\n@@\n-x\n+y\n*** End of File\n\n*** End Patch\n').edits), [null]);
  });
});

describe('apply-patch: an indented end marker', () => {
  it('is no marker, and the cut-off message says what it saw', () => {
    const r = parse('*** Begin Patch\n*** Update File: a.py\n@@\n-x = 1\n+x = 2\n  *** End Patch\n');
    const cut = [...r.edits.map((e) => e.error), ...r.diagnostics].find((d) => d?.code === 'truncated');
    assert.ok(cut, JSON.stringify(r));
    assert.match(cut.message, /if the patch was meant to end at line 6, "  \*\*\* End Patch" is indented: marker lines start in column 1/);
  });

  it('says nothing of it when every end marker starts in column 1', () => {
    const r = parse('*** Begin Patch\n*** Update File: a.py\n@@\n-x = 1\n+x = 2\n');
    const cut = [...r.edits.map((e) => e.error), ...r.diagnostics].find((d) => d?.code === 'truncated');
    assert.ok(cut);
    assert.doesNotMatch(cut.message, /indented/);
  });
});
