// The Roo writer: tool-call shape, block placement, borrowed lines for
// insertions, growth until unique, merging, escapes, new and deleted files.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { applyRequest } from '../../../src/formats/index.ts';
import { roo } from '../../../src/formats/roo/index.ts';
import { planBlocks } from '../../../src/formats/roo/write.ts';

const write = (before: string | null, after: string | null, file = 'f.txt') => roo.write([{ file, before, after }]);

function roundTrip(before: string, after: string): void {
  const reply = write(before, after);
  const r = applyRequest({ format: 'roo', files: { 'f.txt': before }, response: reply });
  assert.equal(r.files['f.txt'], after, reply);
  assert.ok(r.ok && r.edits.every((e) => e.match === 'exact' && e.offset === 0), reply);
}

describe('roo write', () => {
  it('writes one legacy tool call per changed file, one block per changed stretch', () => {
    const reply = roo.write([
      { file: 'a.txt', before: 'one\ntwo\nthree\nfour\n', after: 'one\n2\nthree\n4\n' },
      { file: 'same.txt', before: 'x\n', after: 'x\n' },
      { file: 'b.txt', before: 'b\n', after: 'B\n' },
    ]);
    assert.equal(
      reply,
      [
        '<apply_diff>',
        '<path>a.txt</path>',
        '<diff>',
        '<<<<<<< SEARCH',
        ':start_line:2',
        '-------',
        'two',
        '=======',
        '2',
        '>>>>>>> REPLACE',
        '<<<<<<< SEARCH',
        ':start_line:4',
        '-------',
        'four',
        '=======',
        '4',
        '>>>>>>> REPLACE',
        '</diff>',
        '</apply_diff>',
        '',
        '<apply_diff>',
        '<path>b.txt</path>',
        '<diff>',
        '<<<<<<< SEARCH',
        ':start_line:1',
        '-------',
        'b',
        '=======',
        'B',
        '>>>>>>> REPLACE',
        '</diff>',
        '</apply_diff>',
        '',
      ].join('\n'),
    );
  });

  it('writes nothing when nothing changed', () => {
    assert.equal(write('a\n', 'a\n'), '');
    assert.equal(roo.write([]), '');
  });

  it('an insertion replaces the line before it, or the line after it at the top', () => {
    assert.match(write('a\nb\n', 'a\nnew\nb\n'), /:start_line:1\n-------\na\n=======\na\nnew\n>>>>>>> REPLACE/);
    assert.match(write('a\nb\n', 'new\na\nb\n'), /:start_line:1\n-------\na\n=======\nnew\na\n>>>>>>> REPLACE/);
    roundTrip('a\nb\n', 'a\nnew\nb\n');
    roundTrip('a\nb\n', 'new\na\nb\n');
    roundTrip('a\nb', 'a\nb\nc');
  });

  it('grows a SEARCH that occurs more than once until it occurs once', () => {
    // `}` occurs three times: the block takes the line below, then above.
    const before = ['f() {', '}', 'g() {', '}', 'h() {', '}'];
    assert.deepEqual(planBlocks(before, [{ from: 3, to: 4, lines: ['};'] }]).map((b) => [b.from, b.to]), [[3, 5]]);
    assert.match(write(before.join('\n') + '\n', 'f() {\n}\ng() {\n};\nh() {\n}\n'), /:start_line:4\n-------\n}\nh\(\) \{\n=======\n};\nh\(\) \{\n/);
    // At the end of the file it grows upwards.
    assert.deepEqual(planBlocks(before, [{ from: 5, to: 6, lines: [] }]).map((b) => [b.from, b.to]), [[4, 6]]);
    roundTrip('x\nx\nx\nx\n', 'x\nx\ny\nx\n');
  });

  it('merges blocks that come to share a line', () => {
    const before = ['a', 'x', 'b', 'x', 'b', 'c'];
    // Each `x` grows to `a x b` and `b x b` to be unique; the two share line 3 and merge.
    const plan = planBlocks(before, [
      { from: 1, to: 2, lines: ['X'] },
      { from: 3, to: 4, lines: ['Y'] },
    ]);
    assert.deepEqual(plan.map((b) => [b.from, b.to, b.splices.length]), [[0, 5, 2]]);
    assert.match(write(before.join('\n') + '\n', 'a\nX\nb\nY\nb\nc\n'), /:start_line:1\n-------\na\nx\nb\nx\nb\n=======\na\nX\nb\nY\nb\n>>>>>>> REPLACE\n<\/diff>/);
    roundTrip('a\nx\nb\nx\nb\nc\n', 'a\nX\nb\nY\nb\nc\n');
  });

  it('escapes content lines that would be read as markers, hints or numbered lines', () => {
    const lines = ['=======', '  =======', '\\=======', '<<<<<<< HEAD', '>>>>>>> main', '-------', '    -------', ':start_line:3', '12 | x', '\\begin', 'plain', ' >>>>> REPLACEMENT'];
    const reply = write('', lines.join('\n') + '\n');
    assert.ok(
      reply.includes(['\\=======', '\\  =======', '\\\\=======', '\\<<<<<<< HEAD', '\\>>>>>>> main', '\\-------', '    -------', '\\:start_line:3', '\\12 | x', '\\begin', 'plain', '\\ >>>>> REPLACEMENT'].join('\n')),
      reply,
    );
    roundTrip('', lines.join('\n') + '\n');
    roundTrip(lines.join('\n') + '\n', 'x\n' + lines.join('\n') + '\n');
  });

  it('writes a new file as an empty SEARCH, and a deleted file as removing every line', () => {
    const created = write(null, 'hello\n', 'new.txt');
    assert.equal(created, '<apply_diff>\n<path>new.txt</path>\n<diff>\n<<<<<<< SEARCH\n:start_line:1\n-------\n=======\nhello\n>>>>>>> REPLACE\n</diff>\n</apply_diff>\n');
    const r = applyRequest({ format: 'roo', files: {}, response: created });
    assert.equal(r.files['new.txt'], 'hello\n');
    const deleted = write('a\nb\n', null);
    const d = applyRequest({ format: 'roo', files: { 'f.txt': 'a\nb\n' }, response: deleted });
    assert.equal(d.files['f.txt'], '');
  });

  it('keeps endings, BOM and a missing final newline through the engine', () => {
    roundTrip('\uFEFFa\r\nb\r\nc', '\uFEFFa\r\nB\r\nc');
    roundTrip('a\r\nb', 'a\r\nb\r\nc');
  });
});
