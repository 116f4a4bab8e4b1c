// The between writer: anchors, merged stretches, @WHOLE FILE@ fallbacks.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { applyRequest } from '../../../src/formats/index.ts';
import { between } from '../../../src/formats/between/index.ts';
import { UnwritableChange, betweenTag, snippets } from '../../../src/formats/between/write.ts';

const roundTrip = (before: string, after: string) => {
  const response = between.write([{ file: 'f.txt', before, after }]);
  return { response, result: applyRequest({ format: 'between', files: { 'f.txt': before }, response }) };
};

describe('between writer', () => {
  it('anchors a change on the nearest unique lines, skipping repeated and blank ones', () => {
    const before = ['head', '{', '', 'x', '', '}', 'tail'];
    const after = ['head', '{', '', 'X', '', '}', 'tail'];
    assert.deepEqual(snippets(before, after), [{ above: 1, below: 5, lines: ['', 'X', ''] }]);
    const twice = ['a', '}', 'x', '}', 'b'];
    assert.deepEqual(snippets(twice, ['a', '}', 'y', '}', 'b']), [{ above: 0, below: 4, lines: ['}', 'y', '}'] }]);
  });

  it('merges stretches whose anchors would overlap, keeps others apart', () => {
    const before = ['a', 'b', 'c', 'd', 'e', 'f', 'g'];
    assert.deepEqual(snippets(before, ['a', 'B', 'c', 'D', 'e', 'f', 'g']), [
      { above: 0, below: 2, lines: ['B'] },
      { above: 2, below: 4, lines: ['D'] },
    ]);
    const rep = ['a', 'x', 'x', 'x', 'e'];
    assert.deepEqual(snippets(rep, ['a', 'y', 'x', 'y', 'e']), [{ above: 0, below: 4, lines: ['y', 'x', 'y'] }]);
  });

  it('gives up (null) when a change has no anchor above or below', () => {
    assert.equal(snippets(['a', 'b'], ['z', 'b']), null);
    assert.equal(snippets(['a', 'b'], ['a', 'b', 'c']), null);
    assert.equal(snippets([], ['a']), null);
  });

  it('writes one block per file, snippets separated by a blank line', () => {
    const reply = between.write([{ file: 'v.py', before: 'a\nb\nc\nd\ne\n', after: 'a\nB\nc\nD\n\ne\n' }]);
    assert.equal(reply, 'v.py\n```\n@BETWEEN@ "a" AND "c"\nB\n\n@BETWEEN@ "c" AND "e"\nD\n\n```\n');
    const r = applyRequest({ format: 'between', files: { 'v.py': 'a\nb\nc\nd\ne\n' }, response: reply });
    assert.equal(r.files['v.py'], 'a\nB\nc\nD\n\ne\n');
  });

  it('writes @WHOLE FILE@ for new files, deletions and changes at the edges', () => {
    assert.equal(between.write([{ file: 'n.md', before: null, after: '# N\n' }]), './n.md\n```\n@WHOLE FILE@\n# N\n```\n');
    assert.equal(between.write([{ file: 'g.md', before: 'x\n', after: null }]), 'g.md\n```\n@WHOLE FILE@\n```\n');
    assert.equal(between.write([{ file: 'e.md', before: 'a\nb\n', after: 'a\nb\nc\n' }]), 'e.md\n```\n@WHOLE FILE@\na\nb\nc\n```\n');
    assert.equal(between.write([{ file: 's.md', before: 's\n', after: 's\n' }]), '');
  });

  it('quotes anchors as they are, and refuses lines whose quotes would split wrongly', () => {
    assert.equal(betweenTag('  if (a) {', 'say("hi")  '), '@BETWEEN@ "  if (a) {" AND "say("hi")  "');
    assert.equal(betweenTag('x" AND "', 'y'), '@BETWEEN@ "x" AND "" AND "y"');
    assert.equal(betweenTag('a', 'p" AND "q'), null);
    const before = 'k = 1\n"p" AND "q"\nold\nend\n';
    const { response, result } = roundTrip(before, 'k = 1\n"p" AND "q"\nnew\nend\n');
    assert.match(response, /^@BETWEEN@ "k = 1" AND "end"$/m);
    const indented = roundTrip('  a\nb\n  c\n', '  a\nB\n  c\n');
    assert.match(indented.response, /^@BETWEEN@ "  a" AND "  c"$/m);
    assert.equal(indented.result.edits[0].match, 'exact');
    assert.equal(result.files['f.txt'], 'k = 1\n"p" AND "q"\nnew\nend\n');
  });

  it('uses a fence longer than backtick runs in the snippets', () => {
    const { response, result } = roundTrip('# R\nold\nend\n', '# R\n```js\nx\n```\nend\n');
    assert.match(response, /^````\n@BETWEEN@ "# R" AND "end"\n```js\nx\n```\n````$/m);
    assert.equal(result.ok, true);
  });

  it('refuses a change whose snippet would hold a tag line', () => {
    assert.throws(
      () => between.write([{ file: 'f.txt', before: 'a\nb\nc\n', after: 'a\n@WHOLE FILE@\nc\n' }]),
      (e: unknown) => e instanceof UnwritableChange && /the line "@WHOLE FILE@" would be read as a tag line/.test(e.message),
    );
    // An unchanged tag-like line outside the snippets is fine, and so is one used as an anchor.
    const { result } = roundTrip('@X@\na\nb\nc\n', '@X@\na\nB\nc\n');
    assert.equal(result.ok, true);
    assert.equal(result.files['f.txt'], '@X@\na\nB\nc\n');
  });
});
