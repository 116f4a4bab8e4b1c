// lineSplices (src/core/hunks.ts): the line diff every writer starts from,
// and writableSplices, the same made safe to write as edits.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { lineSplices, writableSplices } from '../../src/core/hunks.ts';
import { copyBeside } from '../../src/core/applied.ts';
import { applySplices, type Splice } from '../../src/core/text.ts';

function applyTo(before: string[], splices: Splice[]): string[] {
  return applySplices({ bom: false, lines: before, eols: before.map(() => '\n' as const) }, splices).lines;
}

/** Length of a longest common subsequence (the classic table). */
function lcs(a: readonly string[], b: readonly string[]): number {
  const row = new Array<number>(b.length + 1).fill(0);
  for (let i = 1; i <= a.length; i++) {
    let diag = 0;
    for (let j = 1; j <= b.length; j++) {
      const up = row[j];
      row[j] = a[i - 1] === b[j - 1] ? diag + 1 : Math.max(row[j], row[j - 1]);
      diag = up;
    }
  }
  return row[b.length];
}

describe('lineSplices', () => {
  const cases: [string, string[], string[], Splice[]][] = [
    ['identical', ['a', 'b'], ['a', 'b'], []],
    ['both empty', [], [], []],
    ['replace one line', ['a', 'b', 'c'], ['a', 'x', 'c'], [{ from: 1, to: 2, lines: ['x'] }]],
    ['append', ['a', 'b'], ['a', 'b', 'c'], [{ from: 2, to: 2, lines: ['c'] }]],
    ['prepend', ['a', 'b'], ['c', 'a', 'b'], [{ from: 0, to: 0, lines: ['c'] }]],
    ['insert in the middle', ['a', 'c'], ['a', 'b', 'c'], [{ from: 1, to: 1, lines: ['b'] }]],
    ['to empty', ['a', 'b'], [], [{ from: 0, to: 2, lines: [] }]],
    ['from empty', [], ['a', 'b'], [{ from: 0, to: 0, lines: ['a', 'b'] }]],
    ['delete at both ends', ['x', 'a', 'y'], ['a'], [{ from: 0, to: 1, lines: [] }, { from: 2, to: 3, lines: [] }]],
    ['repeated lines: extend at the end', ['a', 'a'], ['a', 'a', 'a'], [{ from: 2, to: 2, lines: ['a'] }]],
    [
      'swaps',
      ['a', 'b', 'c', 'd'],
      ['b', 'a', 'd', 'c'],
      [
        { from: 0, to: 1, lines: [] },
        { from: 2, to: 3, lines: ['a'] },
        { from: 4, to: 4, lines: ['c'] },
      ],
    ],
    ['a removal and an addition next to each other are one splice', ['a', 'b', 'c'], ['a', 'X', 'Y', 'c'], [{ from: 1, to: 2, lines: ['X', 'Y'] }]],
    ['whitespace counts', ['a ', 'b'], ['a', 'b'], [{ from: 0, to: 1, lines: ['a'] }]],
    ['object-property names are plain lines', ['__proto__', 'constructor'], ['constructor', 'toString'], [{ from: 0, to: 1, lines: [] }, { from: 2, to: 2, lines: ['toString'] }]],
  ];
  for (const [name, before, after, expected] of cases) {
    it(name, () => {
      assert.deepEqual(lineSplices(before, after), expected);
      assert.deepEqual(applyTo(before, expected), after);
    });
  }

  it('does not modify its inputs', () => {
    const a = Object.freeze(['a', 'b', 'c']);
    const b = Object.freeze(['c', 'b']);
    lineSplices(a, b);
    assert.deepEqual(a, ['a', 'b', 'c']);
    assert.deepEqual(b, ['c', 'b']);
  });

  it('property: the splices turn before into after; in order, separated, minimal', () => {
    const lines = fc.array(fc.constantFrom('a', 'b', 'c', 'd', '', ' a', 'constructor'), { maxLength: 25 });
    fc.assert(
      fc.property(lines, lines, (before, after) => {
        const splices = lineSplices(before, after);
        assert.deepEqual(applyTo(before, splices), after);
        let removed = 0;
        let added = 0;
        splices.forEach((s, i) => {
          assert.ok(0 <= s.from && s.from <= s.to && s.to <= before.length, JSON.stringify(s));
          assert.ok(s.to > s.from || s.lines.length > 0, 'a splice changes something');
          if (i > 0) assert.ok(s.from >= splices[i - 1].to + 1, 'separated by at least one unchanged line');
          removed += s.to - s.from;
          added += s.lines.length;
        });
        const common = lcs(before, after);
        assert.equal(removed, before.length - common, 'removes only what is not common');
        assert.equal(added, after.length - common, 'adds only what is not common');
      }),
      { numRuns: 1000 },
    );
  });
});

describe('writableSplices', () => {
  it('widens an added line that stands next to its copy over the copy, and leaves other splices as the diff gives them', () => {
    assert.deepEqual(writableSplices(['a', 'b', 'c'], ['a', 'b', 'b', 'c']), [{ from: 1, to: 3, lines: ['b', 'b', 'c'] }]);
    assert.deepEqual(writableSplices(['a', 'b', 'c'], ['a', 'x', 'b', 'c']), [{ from: 1, to: 1, lines: ['x'] }]);
    assert.deepEqual(writableSplices(['a', 'a'], ['a', 'a', 'a']), [{ from: 0, to: 2, lines: ['a', 'a', 'a'] }]);
  });

  it('property: the splices turn before into after, in order, separated, and no new lines touch a copy of themselves', () => {
    const lines = fc.array(fc.constantFrom('a', 'b', '', 'a'), { maxLength: 14 });
    fc.assert(
      fc.property(lines, lines, (before, after) => {
        const splices = writableSplices(before, after);
        assert.deepEqual(applyTo(before, splices), after);
        splices.forEach((s, i) => {
          assert.ok(0 <= s.from && s.from <= s.to && s.to <= before.length, JSON.stringify(s));
          if (i > 0) assert.ok(s.from >= splices[i - 1].to + 1, 'separated by at least one unchanged line');
          assert.equal(copyBeside({ file: before, from: s.from, to: s.to, lines: s.lines }), null, JSON.stringify(s));
        });
      }),
      { numRuns: 2000 },
    );
  });

  it('takes few steps on a file of one repeated line', () => {
    const before = Array.from({ length: 100_000 }, () => 'x');
    const started = performance.now();
    const splices = writableSplices(before, [...before, 'x']);
    assert.equal(splices.length, 1);
    assert.deepEqual(applyTo(before, splices).length, 100_001);
    assert.ok(performance.now() - started < 5000);
  });
});
