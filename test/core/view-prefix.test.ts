// Old lines copied with the numbered view's prefixes (src/core/view-prefix.ts):
// which lines count as prefixed, and the failure every format without
// numbers in its old lines gives for them.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { retryMessages } from '../../src/core/retry.ts';
import { editsByIndex } from '../../src/core/run.ts';
import { viewPrefixed } from '../../src/core/view-prefix.ts';
import { applyRead, applyRequest, getFormat, numberedLines } from '../../src/formats/index.ts';

describe('viewPrefixed', () => {
  it("reads the ln-diff view's `N│` and Roo's `N | `, numbers consecutive, on every line", () => {
    assert.deepEqual(viewPrefixed([' 9│a', '10│', '11│  b']), { pattern: viewPrefixed(['1│x'])!.pattern, first: 9, last: 11, prefix: '9│', lines: ['a', '', '  b'] });
    assert.deepEqual(viewPrefixed(['12 | a', '13 | b'])?.lines, ['a', 'b']);
    // The view writes lines as they are: what follows the bar is the line, its indentation included.
    assert.deepEqual(getFormat('ln-diff')!.view!('x\n    y\n').split('\n').slice(0, 2), ['1│x', '2│    y']);
  });

  it('is null for lines of their own: one without a prefix, numbers out of order, no line', () => {
    for (const old of [['12│a', 'b'], ['12│a', '14│b'], ['13│a', '12│b'], ['12│a', '13 | b'], ['echo a | wc'], []]) assert.equal(viewPrefixed(old), null, JSON.stringify(old));
  });
});

const file = Array.from({ length: 20 }, (_, i) => `value_${i + 1} = ${i + 1}`).join('\n') + '\n';
const files = { 'a.py': file };

/** The same edit (lines 12-13 of a.py, copied with their prefixes) in each format that quotes old lines without numbers. */
const REPLIES: [string, string, string][] = [
  ['search-replace', 'a.py\n```\n<<<<<<< SEARCH\n12│value_12 = 12\n13│value_13 = 13\n=======\nvalue_12 = 0\n>>>>>>> REPLACE\n```\n', 'the SEARCH lines'],
  ['roo', '<apply_diff>\n<path>a.py</path>\n<diff>\n<<<<<<< SEARCH\n:start_line:12\n-------\n12│value_12 = 12\n13│value_13 = 13\n=======\nvalue_12 = 0\n>>>>>>> REPLACE\n</diff>\n</apply_diff>\n', 'the SEARCH lines'],
  ['udiff', '--- a/a.py\n+++ b/a.py\n@@ -12,2 +12,2 @@\n 12│value_12 = 12\n-13│value_13 = 13\n+value_13 = 0\n', "the hunk's context and removed lines"],
  ['udiffx', '<FILE_CHANGES>\n<FILE_PATCH path="a.py">\n@@\n 12│value_12 = 12\n-13│value_13 = 13\n+value_13 = 0\n</FILE_PATCH>\n</FILE_CHANGES>\n', "the hunk's context and removed lines"],
  ['apply-patch', '*** Begin Patch\n*** Update File: a.py\n@@\n 12│value_12 = 12\n-13│value_13 = 13\n+value_13 = 0\n*** End Patch\n', "the chunk's context and removed lines"],
  ['str-replace', JSON.stringify({ command: 'str_replace', path: 'a.py', old_str: '12│value_12 = 12\n13│value_13 = 13\n', new_str: 'x\n' }), 'the lines of old_str'],
];

describe('an edit whose old lines carry the view prefixes', () => {
  for (const [format, response, what] of REPLIES) {
    it(`${format}: no-match saying so, where the lines are without them, that place the candidate`, () => {
      for (const asked of [format, 'auto']) {
        const read = applyRead({ format: asked, files, response });
        const [e] = read.result.edits;
        assert.deepEqual([e.status, e.code, read.result.files['a.py']], ['failed', 'no-match', file], asked);
        assert.equal(
          e.message,
          `${what} start with line numbers as the numbered view shows them ("12│" on the first, to 13 on the last): they are not part of the lines of a.py, so the lines match nowhere; remove the number and the bar from the start of each line, and copy only the text after the bar; without them, the lines are lines 12-13 of a.py, as numbered`,
        );
        assert.deepEqual(e.candidates.map((c) => [c.start, c.end, c.lines]), [[12, 13, ['value_12 = 12', 'value_13 = 13']]]);
        assert.match(retryMessages(read.result, editsByIndex(read), numberedLines).get(0)!, /remove the number and the bar[^]*a\.py has at lines 12-13:\nvalue_12 = 12\nvalue_13 = 13\n/);
      }
    });
  }

  it('numbers that are off, and lines that do not match even without them, are said as such', () => {
    const off = applyRequest({ format: 'search-replace', files, response: 'a.py\n```\n<<<<<<< SEARCH\n15│value_12 = 12\n=======\nx\n>>>>>>> REPLACE\n```\n' });
    assert.match(off.edits[0].message, /\("15│" on the first, to 15 on the last\).*; without them, the lines are line 12 of a\.py$/);
    const wrong = applyRequest({ format: 'search-replace', files, response: 'a.py\n```\n<<<<<<< SEARCH\n12│value_12 = 99\n=======\nx\n>>>>>>> REPLACE\n```\n' });
    assert.match(wrong.edits[0].message, /; even without them, the lines do not match a\.py near line 12: copy them exactly as the file has them$/);
    const roo = applyRequest({ format: 'search-replace', files, response: 'a.py\n```\n<<<<<<< SEARCH\n12 | value_12 = 12\n=======\nx\n>>>>>>> REPLACE\n```\n' });
    assert.match(roo.edits[0].message, /^the SEARCH lines start with line numbers as the numbered view shows them \("12 \|" on the first/);
  });

  it('a file whose own lines start so keeps the usual message; a block found with them is applied', () => {
    const doc = { 'view.md': '1│first\n2│second\n' };
    const miss = applyRequest({ format: 'search-replace', files: doc, response: 'view.md\n```\n<<<<<<< SEARCH\n1│frist\n=======\nx\n>>>>>>> REPLACE\n```\n' });
    assert.equal(miss.edits[0].code, 'no-match');
    assert.doesNotMatch(miss.edits[0].message, /numbered view/);
    const hit = applyRequest({ format: 'search-replace', files: doc, response: 'view.md\n```\n<<<<<<< SEARCH\n1│first\n=======\n1│FIRST\n>>>>>>> REPLACE\n```\n' });
    assert.deepEqual([hit.ok, hit.files['view.md']], [true, '1│FIRST\n2│second\n']);
  });
});
