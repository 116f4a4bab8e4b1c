// The kept lines of a long editblock (spec/formats.md, "Line endings and
// byte order marks"): the line diff that finds them is given up beyond
// 2,000 removed and added lines, and then only the lines equal at the
// start and the end of the edit are kept.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { applyRequest } from '../../../src/formats/index.ts';

/**
 * An LF file of `n` lines whose middle line ends with CR LF, and an
 * editblock that replaces every line by another except that middle one:
 * its shortest line diff removes and adds `2 * (n - 1)` lines.
 */
function run(n: number): string {
  const mid = Math.floor(n / 2);
  const file = Array.from({ length: n }, (_, i) => `line ${i}${i === mid ? '\r' : ''}\n`).join('');
  const remove = Array.from({ length: n }, (_, i) => `${i + 1}│line ${i}`);
  const insert = Array.from({ length: n }, (_, i) => ` │${i === mid ? `line ${i}` : `new ${i}`}`);
  const reply = ['a.txt', '<<<<<<< REMOVE', ...remove, '=======', ...insert, '>>>>>>> INSERT', ''].join('\n');
  const result = applyRequest({ format: 'ln-diff', files: { 'a.txt': file }, response: reply });
  assert.equal(result.ok, true);
  const lines = (result.files['a.txt'] as string).split('\n');
  assert.equal(lines.length, n + 1);
  return lines[mid];
}

describe('ln-diff: the kept lines of a long editblock', () => {
  it('2,000 lines removed and added: the equal middle line is kept, with its own CR LF', () => {
    assert.equal(run(1001), 'line 500\r');
  });

  it('2,002 lines removed and added: the diff is given up, and the middle line takes the ending of the last line replaced', () => {
    assert.equal(run(1002), 'line 501');
  });
});
