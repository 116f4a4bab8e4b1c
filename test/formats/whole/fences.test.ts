// The fence scanner shared by whole and between (src/formats/whole/fences.ts).

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { replyLines } from '../../../src/core/reply.ts';
import { fenceFor, isShellInfo, longestBacktickRun, opener, scanFences } from '../../../src/formats/whole/fences.ts';

const scan = (text: string) => scanFences(replyLines(text));

describe('opener', () => {
  it('reads backtick and tilde fences with their info string and indentation', () => {
    assert.deepEqual(opener('```python'), { char: '`', marker: '```', info: 'python', indent: 0 });
    assert.deepEqual(opener('   ~~~~ js title="a.js" '), { char: '~', marker: '~~~~', info: 'js title="a.js"', indent: 3 });
    assert.deepEqual(opener('<source>python'), { char: 'tag', marker: '<source>', info: 'python', indent: 0, closer: '</source>' });
    assert.deepEqual(opener('<CODE>'), { char: 'tag', marker: '<code>', info: '', indent: 0, closer: '</code>' });
  });

  it('refuses short runs, deep indentation and backticks in a backtick info string', () => {
    assert.equal(opener('``'), null);
    assert.equal(opener('    ```'), null);
    assert.equal(opener('```js`x'), null);
    assert.equal(opener('<span>'), null);
    assert.notEqual(opener('~~~js`x'), null);
  });
});

describe('scanFences', () => {
  it('closes on a run of the same character at least as long, with only blanks after it', () => {
    const [b] = scan('````\n```\n~~~~\n`````\t \nafter\n');
    assert.equal(b.open, 0);
    assert.equal(b.close, 3);
    assert.deepEqual(b.content, ['```', '~~~~']);
    assert.deepEqual(b.lineIndexes, [1, 2]);
    assert.deepEqual(b.nested, []);
  });

  it('reads several blocks and leaves prose out', () => {
    const blocks = scan('a\n```\nx\n```\nb\n~~~\ny\n~~~\n');
    assert.deepEqual(blocks.map((b) => [b.open, b.close, b.content]), [
      [1, 3, ['x']],
      [5, 7, ['y']],
    ]);
  });

  it('removes the opening fence indentation from content lines, at most that much', () => {
    const [b] = scan('  ```\n    a\n b\nc\n  ```\n');
    assert.deepEqual(b.content, ['  a', 'b', 'c']);
    assert.equal(b.close, 4);
  });

  it('reads a fence line with an info string as a nested fence', () => {
    const [b] = scan('```md\n# T\n```bash\nnpm i\n```\ntail\n```\n');
    assert.equal(b.close, 6);
    assert.deepEqual(b.nested, [{ open: 2, close: 4 }]);
    assert.deepEqual(b.content, ['# T', '```bash', 'npm i', '```', 'tail']);
  });

  it('does not nest a shorter fence, nor a backtick line whose info holds a backtick', () => {
    const [b] = scan('````\n```bash\n```\n````\n');
    assert.equal(b.close, 3);
    assert.deepEqual(b.nested, []);
    const [c] = scan('```\n```x`y\n```\n');
    assert.equal(c.close, 2);
    assert.deepEqual(c.nested, []);
  });

  it('leaves a block open at the end of the reply, with its nested fence', () => {
    const [b] = scan('```\na\n```js\nb\n');
    assert.equal(b.close, null);
    assert.deepEqual(b.nested, [{ open: 2, close: null }]);
    assert.deepEqual(b.content, ['a', '```js', 'b']);
  });

  it('closes a tag fence on its closing tag alone, without nesting', () => {
    const [b] = scan('<source>go\n<source>\n```\n </source> \n');
    assert.equal(b.close, 3);
    assert.deepEqual(b.content, ['<source>', '```']);
  });
});

describe('fence helpers', () => {
  it('longestBacktickRun counts runs that start a line after blanks', () => {
    assert.equal(longestBacktickRun(['a ````', '  ```', '\t`````x']), 5);
    assert.equal(longestBacktickRun([]), 0);
  });

  it('fenceFor is at least three backticks and longer than any run', () => {
    assert.equal(fenceFor(['x']), '```');
    assert.equal(fenceFor(['```']), '````');
    assert.equal(fenceFor(['````````']), '`````````');
  });

  it('isShellInfo looks at the first word, ignoring case', () => {
    assert.equal(isShellInfo('bash'), true);
    assert.equal(isShellInfo('PowerShell title=x'), true);
    assert.equal(isShellInfo('python'), false);
    assert.equal(isShellInfo(''), false);
  });
});
