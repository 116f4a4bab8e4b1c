// The apply_patch writer (exact output) and detection.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { runFormat } from '../../../src/core/run.ts';
import { applyPatch } from '../../../src/formats/apply-patch/index.ts';
import { planChunks } from '../../../src/formats/apply-patch/write.ts';

const numbered = (n: number) => Array.from({ length: n }, (_, i) => `line ${i + 1}`);
const text = (lines: string[]) => lines.map((l) => l + '\n').join('');

describe('apply-patch writer', () => {
  it('writes a change with three lines of context on each side', () => {
    const before = numbered(10);
    const after = [...before];
    after[4] = 'LINE 5';
    const reply = applyPatch.write([{ file: 'n.txt', before: text(before), after: text(after) }]);
    assert.equal(
      reply,
      [
        '*** Begin Patch',
        '*** Update File: n.txt',
        '@@',
        ' line 2',
        ' line 3',
        ' line 4',
        '-line 5',
        '+LINE 5',
        ' line 6',
        ' line 7',
        ' line 8',
        '*** End Patch',
        '',
      ].join('\n'),
    );
  });

  it('writes added and deleted files, and nothing for an unchanged one', () => {
    const reply = applyPatch.write([
      { file: 'new.txt', before: null, after: 'a\n\nb\n' },
      { file: 'old.txt', before: 'x\n', after: null },
      { file: 'same.txt', before: 'y\n', after: 'y\n' },
    ]);
    assert.equal(reply, '*** Begin Patch\n*** Add File: new.txt\n+a\n+\n+b\n*** Delete File: old.txt\n*** End Patch\n');
  });

  it('writes nothing when nothing changed (an empty envelope is malformed)', () => {
    assert.equal(applyPatch.write([]), '');
    assert.equal(applyPatch.write([{ file: 'a.txt', before: 'x\n', after: 'x\n' }]), '');
  });

  it('widens a chunk whose old lines occur elsewhere until they occur once', () => {
    const before = ['}', '}', '}', '}', 'a', '}', '}', '}', '}'];
    const after = [...before];
    after[7] = '} // x';
    // Three lines each side: lines 5-9 ("a" and four "}"), unique because of "a".
    assert.deepEqual(
      planChunks(before, after).map((g) => [g.from, g.to]),
      [[4, 9]],
    );
    const only = ['}', '}', '}', '}', '}', '}', '}', '}'];
    const changed = [...only];
    changed[0] = '{';
    // Only "}" lines: every shorter run occurs more than once, so the chunk grows to the whole file.
    const groups = planChunks(only, changed);
    assert.equal(groups.length, 1);
    assert.equal(groups[0].from, 0);
    assert.equal(groups[0].to, 8);
  });

  it('merges chunks whose context would share a line', () => {
    const before = numbered(12);
    const after = [...before];
    after[2] = 'X';
    after[8] = 'Y';
    assert.deepEqual(planChunks(before, after).map((g) => [g.from, g.to]), [[0, 12]]);
    after[8] = before[8];
    after[10] = 'Z';
    assert.deepEqual(planChunks(before, after).map((g) => [g.from, g.to]), [[0, 6], [7, 12]]);
  });

  it('applies what it writes, for lines that look like markers', () => {
    const before = '*** End Patch\n@@\n-x\n+y\n *** Begin Patch\n';
    const after = '*** End Patch\n@@ changed\n-x\n+y\n *** Begin Patch\n';
    const reply = applyPatch.write([{ file: 'm.txt', before, after }]);
    const r = runFormat(applyPatch, { format: 'apply-patch', files: { 'm.txt': before }, response: reply });
    assert.equal(r.files['m.txt'], after);
    assert.equal(r.ok, true);
  });
});

describe('apply-patch detect', () => {
  it('is sure at *** Begin Patch, and at a file header alone (only V4A writes them)', () => {
    assert.deepEqual(applyPatch.detect('Sure.\n  *** Begin Patch\n*** End Patch'), { score: 1, reason: '`*** Begin Patch` at line 2' });
    assert.deepEqual(applyPatch.detect('x\r\n*** Update File: a.py\r\n-x'), {
      score: 1,
      reason: '`*** Update File:` at line 2, without `*** Begin Patch`',
    });
    assert.deepEqual(applyPatch.detect('<<<<<<< REMOVE'), { score: 0, reason: 'no `*** Begin Patch` line' });
  });
});
