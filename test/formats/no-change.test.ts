// An edit that changes nothing is applied with the warning `no-change`
// (spec/formats.md, "Edits that change nothing"), in every format.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { applyRequest, formats } from '../../src/formats/index.ts';

const before = 'one\ntwo\nthree\nfour\n';
const codes = (ws: readonly { code: string }[]) => ws.map((w) => w.code);

describe('no-change in every format', () => {
  for (const format of formats) {
    it(`${format.name}: an edit whose new text is the old text is applied, warned, and ok stays true`, () => {
      // The format's own writing of a change, with the new line turned back into the old one.
      const changed = format.write([{ file: 'a.txt', before, after: 'one\nTWO\nthree\nfour\n' }]);
      assert.ok(changed.includes('TWO'), changed);
      const reply = changed.replaceAll('TWO', 'two');
      const r = applyRequest({ format: format.name, files: { 'a.txt': before }, response: reply });
      assert.equal(r.edits.length, 1, reply);
      assert.equal(r.edits[0].status, 'applied', r.edits[0].message);
      // Other remarks (between's `deterministic-merge`) come first: the engine adds no-change last.
      assert.equal(codes(r.edits[0].warnings).at(-1), 'no-change', reply);
      assert.match(r.edits[0].warnings.at(-1)!.message, /changed nothing/);
      assert.equal(r.ok, true);
      assert.equal(r.files['a.txt'], before);
      // The change itself is not warned.
      const real = applyRequest({ format: format.name, files: { 'a.txt': before }, response: changed });
      assert.ok(!codes(real.edits[0].warnings).includes('no-change'), changed);
      assert.equal(real.files['a.txt'], 'one\nTWO\nthree\nfour\n');
    });
  }
});

describe('what changes something', () => {
  it('a change of trailing white space, of the final newline, a creation', () => {
    const ws = applyRequest({
      format: 'str-replace',
      files: { 'a.txt': 'x  \n' },
      response: '{"command": "str_replace", "path": "a.txt", "old_str": "x  ", "new_str": "x"}',
    });
    assert.deepEqual(codes(ws.edits[0].warnings), []);
    const eol = applyRequest({
      format: 'udiff',
      files: { 'a.txt': 'x\n' },
      response: '--- a/a.txt\n+++ b/a.txt\n@@ -1 +1 @@\n-x\n+x\n\\ No newline at end of file\n',
    });
    assert.equal(eol.files['a.txt'], 'x');
    assert.deepEqual(codes(eol.edits[0].warnings), []);
    const created = applyRequest({ format: 'whole', files: {}, response: 'new.txt\n```\n```\n' });
    assert.equal(created.files['new.txt'], '');
    assert.deepEqual(codes(created.edits[0]?.warnings ?? []), []);
  });

  it('a repeated edit that changes nothing is warned once, on the first', () => {
    const block = 'a.txt\n```\n<<<<<<< SEARCH\none\n=======\none\n>>>>>>> REPLACE\n```\n';
    const r = applyRequest({ format: 'search-replace', files: { 'a.txt': before }, response: block + '\n' + block });
    assert.deepEqual(r.edits.map((e) => [e.code, codes(e.warnings)]), [[null, ['no-change']], ['duplicate', []]]);
  });
});
