// Many hashline edits of the same lines: which fail with `overlap`, which
// apply, and which edit each failure names. The work the overlap check does
// is counted in test/core/overlaps.test.ts (no clock here).

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { applyRequest } from '../../../src/formats/index.ts';
import { editCall } from '../../../src/formats/hashline/write.ts';

const codeLine = (i: number) => `  const value${i} = compute(${i}, "line ${i} of the module");`;
const text = (lines: readonly string[]) => lines.join('\n') + '\n';
const PATH = 'src/module.ts';

/** One call per reply line: call k is on reply line k + 1. */
function run(before: readonly string[], splices: { from: number; to: number; lines: string[] }[]) {
  const reply = splices.map((s) => editCall(PATH, before, s.from, s.to, s.lines)).join('\n') + '\n';
  return applyRequest({ format: 'hashline', files: { [PATH]: text(before) }, response: reply });
}

describe('hashline: many edits of the same lines', () => {
  const before = Array.from({ length: 100 }, (_, i) => codeLine(i));

  it('10,000 edits replacing one line all fail with overlap: the first names the second, every other the first', () => {
    const n = 10_000;
    const r = run(before, Array.from({ length: n }, (_, k) => ({ from: 50, to: 51, lines: [`  // edit ${k}`] })));
    assert.equal(r.edits.length, n);
    assert.ok(r.edits.every((e) => e.status === 'failed' && e.code === 'overlap' && e.range === null));
    assert.equal(r.edits[0].message, `overlaps the edit at reply line 2 on line 51 of ${PATH}; edits must touch separate lines: merge them into one`);
    assert.ok(r.edits.slice(1).every((e) => e.message.startsWith('overlaps the edit at reply line 1 on line 51 of')));
    assert.equal(r.files[PATH], text(before));
  });

  it('10,000 copies of one edit apply once, the others are duplicates of the first', () => {
    const n = 10_000;
    const r = run(before, Array.from({ length: n }, () => ({ from: 50, to: 51, lines: ['  // the same'] })));
    assert.equal(r.edits[0].status, 'applied');
    assert.equal(r.edits[0].code, null);
    assert.ok(r.edits.slice(1).every((e) => e.status === 'applied' && e.code === 'duplicate' && e.duplicateOf === 0));
    assert.equal(r.files[PATH], text(before.map((l, i) => (i === 50 ? '  // the same' : l))));
  });

  it('edits overlapping the next by one line all fail, each naming the one before it (the first, the second)', () => {
    const n = 2_000;
    const chain = Array.from({ length: n + 1 }, (_, i) => codeLine(i));
    const r = run(chain, Array.from({ length: n }, (_, k) => ({ from: k, to: k + 2, lines: [`  // edit ${k}`] })));
    assert.ok(r.edits.every((e) => e.code === 'overlap'));
    assert.match(r.edits[0].message, /^overlaps the edit at reply line 2 on line 2 of/);
    r.edits.slice(1).forEach((e, k) => assert.match(e.message, new RegExp(`^overlaps the edit at reply line ${k + 1} on line ${k + 2} of`)));
  });

  it('among separate edits, only the overlapping ones and the repeats of them fail', () => {
    // 0: line 11; 1: lines 21-22; 2: line 22 (overlaps 1); 3: insertion after line 40; 4: same as 0 (duplicate);
    // 5: same as 2 (repeats an edit that overlaps); 6: lines 40-41 (the insertion after line 40 is at its edge: no clash).
    const r = run(before, [
      { from: 10, to: 11, lines: ['a'] },
      { from: 20, to: 22, lines: ['b'] },
      { from: 21, to: 22, lines: ['c'] },
      { from: 40, to: 40, lines: ['d'] },
      { from: 10, to: 11, lines: ['a'] },
      { from: 21, to: 22, lines: ['c'] },
      { from: 41, to: 43, lines: ['e'] },
    ]);
    assert.deepEqual(
      r.edits.map((e) => `${e.status} ${e.code}`),
      ['applied null', 'failed overlap', 'failed overlap', 'applied null', 'applied duplicate', 'failed overlap', 'applied null'],
    );
    assert.match(r.edits[1].message, /^overlaps the edit at reply line 3 on line 22 of/);
    assert.match(r.edits[2].message, /^overlaps the edit at reply line 2 on line 22 of/);
    assert.match(r.edits[5].message, /^repeats an edit that overlaps the edit at reply line 2/);
    const after = [...before.slice(0, 10), 'a', ...before.slice(11, 40), 'd', before[40], 'e', ...before.slice(43)];
    assert.equal(r.files[PATH], text(after));
  });
});
