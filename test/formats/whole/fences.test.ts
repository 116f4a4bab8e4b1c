// The fence scanner shared by whole and between (src/formats/whole/fences.ts).

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { replyLines } from '../../../src/core/reply.ts';
import { earlyCloseProbes, fenceFor, isShellInfo, longestBacktickRun, opener, scanFences } from '../../../src/formats/whole/fences.ts';

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

describe('scanFences: a fence closed early (rule 6)', () => {
  it('reads on past a closing fence that text follows at once, up to the next line that could close the block', () => {
    const [b, ...rest] = scan('R.md\n```\n# T\n```\nnpm i\n```\nDone.\n```\n');
    assert.equal(b.close, 7);
    assert.deepEqual(b.early, [3, 5]);
    assert.deepEqual(b.content, ['# T', '```', 'npm i', '```', 'Done.']);
    assert.deepEqual(rest, []);
  });

  it('reads one bare fence line inside the file (odd count) to the real end', () => {
    const [b] = scan('a.py\n```python\nS = """\n```\n"""\n\nprint(S)\n```\n');
    assert.equal(b.close, 7);
    assert.deepEqual(b.early, [3]);
  });

  it('keeps the CommonMark end when a blank line, a fence line or the end of the reply follows the closing fence', () => {
    for (const reply of ['```\na\n```\n\nprose\n```\nb\n```\n', '```\na\n```\n```\nb\n```\n', '```\na\n```\n', '```\na\n```']) {
      const [b] = scan(reply);
      assert.equal(b.close, 2, reply);
      assert.deepEqual(b.early, [], reply);
    }
  });

  it('keeps the end when the next fence line has an info string, or cannot close the block', () => {
    for (const reply of ['```\na\n```\nRun:\n```sh\nx\n```\n', '```\na\n```\nRun:\n~~~\nx\n~~~\n', '````\na\n````\nRun:\n```\nx\n```\n']) {
      const [b] = scan(reply);
      assert.deepEqual(b.early, [], reply);
      assert.equal(b.close, 2, reply);
    }
  });

  it('reads on past a closing fence followed at once by a path line and a bare fence (a README sample naming a script reads so too)', () => {
    for (const path of ['b.txt', './run.sh', 'Makefile', 'end']) {
      const [b] = scan('```\na\n```\n' + path + '\n```\nb\n```\n');
      assert.deepEqual(b.early, [2, 4], path);
    }
    const [c] = scan('```\na\n```\n\nb.txt\n```\nb\n```\n');
    assert.deepEqual(c.early, [], 'a blank line first');
  });

  it('marks the complete blocks after a block closed early when the reply ends inside a block', () => {
    const blocks = scan('```\na\n```\nb\n```\n\nc.txt\n```\nc\n```\n```\n');
    assert.deepEqual(blocks.map((b) => [b.open, b.close, b.early, b.after]), [
      [0, 4, [2], null],
      [7, 9, [], 0],
      [10, null, [], null],
    ]);
    const ok = scan('```\na\n```\nb\n```\n\nc.txt\n```\nc\n```\n');
    assert.deepEqual(ok.map((b) => b.after), [null, null], 'a reply whose last block closes');
  });

  it('applies to tildes and tag fences too', () => {
    const [t] = scan('~~~\na\n~~~\nb\n~~~\n');
    assert.deepEqual([t.early, t.close], [[2], 4]);
    const [g] = scan('<code>\na\n</code>\nb\n</code>\n');
    assert.deepEqual([g.early, g.close], [[2], 4]);
    const [h] = scan('<code>\na\n</code>\nb\n</pre>\n');
    assert.deepEqual([h.early, h.close], [[], 2]);
  });

  it('stays linear: many alternating fence and text lines are read in one pass', () => {
    const n = 200000;
    const reply = Array.from({ length: n }, (_, k) => (k % 2 ? 'x' : '```')).join('\n') + '\n';
    const t = performance.now();
    const blocks = scan(reply);
    assert.ok(performance.now() - t < 3000);
    assert.equal(blocks.length, 1);
  });

  it('earlyCloseProbes would close early a block that ends the reply, for every kind of fence', () => {
    for (const fence of ['```', '````', '~~~', '<source>', '<pre>']) {
      const close = fence.startsWith('<') ? fence.replace('<', '</') : fence;
      const reply = `${fence}\na\n${close}\n`;
      assert.deepEqual(scan(reply)[0].early, [], fence);
      assert.ok(earlyCloseProbes(reply).some((p) => scan(reply + p)[0].early.length > 0), fence);
    }
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
