// str_replace calls whose old_str is nowhere in a 400,000-line file: the
// search for the closest place is bounded (counted: the places compared, the
// budget drawn), and the message says when it stopped. No clock.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Edit } from '../../../src/core/types.ts';
import { SEARCH_BUDGET_PER_EDIT, SEARCH_BUDGET_PER_REQUEST, requestBudget } from '../../../src/core/budget.ts';
import { locateStr } from '../../../src/formats/str-replace/locate.ts';
import { BLOCK_CHARS, searchable } from '../../../src/formats/str-replace/occurrences.ts';

const span = { from: 0, to: 0, start: { line: 1, column: 1 }, end: { line: 1, column: 1 } };
const call = (oldStr: string): Edit => ({
  index: 0,
  kind: 'replace',
  file: 'f.txt',
  old: oldStr.split('\n'),
  new: ['x'],
  meta: { command: 'str_replace', old_str: oldStr, new_str: 'x' },
  span,
  warnings: [],
});
const codeLine = (i: number) => `  const value${i} = compute(${i}, "line ${i} of the module");`;
const fileOf = (n: number) => Array.from({ length: n }, (_, i) => codeLine(i));
/** The most a spent budget may be overdrawn by: one place's two comparisons (a quick one, then the line similarity). */
const ONE = 4 * (codeLine(400_000).length + 2);

describe('str_replace: a failing call on a 400,000-line file', () => {
  const big = fileOf(400_000);

  it('compares about as many places as on a 40,000-line file, draws at most one edit\'s budget, and says the search stopped', () => {
    const compared: number[] = [];
    for (const lines of [fileOf(40_000), big]) {
      const budget = requestBudget();
      const o = locateStr(lines, call('  missing(200000) // not in the file\n'), budget);
      assert.ok(!o.ok && o.code === 'no-match');
      assert.ok(!o.ok && o.searched, 'the outcome says how much was searched');
      const s = !o.ok ? o.searched! : { compared: 0, places: 0 };
      assert.equal(s.places, lines.length);
      assert.ok(s.compared > 0 && s.compared < lines.length);
      assert.match(!o.ok ? (o.message ?? '') : '', new RegExp(`^old_str does not occur in f\\.txt; .* \\(the search for the closest place, which is bounded, compared ${s.compared} of the ${lines.length} places\\); `));
      assert.ok(SEARCH_BUDGET_PER_REQUEST - budget.remaining <= SEARCH_BUDGET_PER_EDIT + ONE, `drew ${SEARCH_BUDGET_PER_REQUEST - budget.remaining}`);
      compared.push(s.compared);
    }
    // Ten times the file, not ten times the work.
    assert.ok(compared[1] < 1.5 * compared[0], `compared ${compared.join(' then ')}`);
    // The occurrence search looked old_str up by its line end (it ends a line), scanning nothing; within a
    // line, it looks at each block's signature once and scans next to nothing.
    const file = searchable(big);
    assert.ok(file.spent < 10, `spent ${file.spent}`);
    const within = locateStr(big, call('missing(200000) // not in'), requestBudget());
    assert.ok(!within.ok && within.searched && within.searched.compared < big.length);
    assert.ok(file.spent <= file.blocks!.count + 4 * BLOCK_CHARS, `spent ${file.spent} on ${file.blocks!.count} blocks`);
  });

  it('200 failing calls share the request\'s budget: once it is spent, the later calls compare no place and say so', () => {
    const budget = requestBudget();
    let last = '';
    for (let k = 0; k < 200; k++) {
      const o = locateStr(big, call(`  missing(${k}) // not in the file\n`), budget);
      assert.ok(!o.ok && o.code === 'no-match');
      last = !o.ok ? (o.message ?? '') : '';
    }
    assert.ok(-budget.remaining <= SEARCH_BUDGET_PER_EDIT + ONE, `overdrawn by ${-budget.remaining}`);
    assert.match(last, /no place was compared: the reply's failed edits used up the search for closest places/);
  });

  it('an old_str of 100,000 lines, each a little off, compares only a budget\'s worth of its lines to describe the closest place', () => {
    const lines = fileOf(100_000);
    const shifted = lines.map((l) => ' ' + l);
    // No final line break: old_str's lines are exactly these (a final one would add an empty line, like nothing in the file).
    const o = locateStr(lines, call(shifted.join('\n')), requestBudget());
    assert.ok(!o.ok && o.candidates.length === 1);
    const c = !o.ok ? o.candidates[0] : null;
    assert.equal(c!.start, 1);
    assert.equal(c!.lines.length, 100_000);
    assert.ok(c!.differs.every(Boolean));
    // The lines compared are each 0.99 similar; those past the budget count as 0 (not shown to be similar).
    assert.equal(c!.similarity, 0);
    // A short one is compared in full.
    const few = locateStr(lines.slice(0, 1000), call(shifted.slice(0, 1000).join('\n')), requestBudget());
    assert.ok(!few.ok && few.candidates[0].similarity > 0.98, JSON.stringify(!few.ok && few.candidates[0].similarity));
  });
});
