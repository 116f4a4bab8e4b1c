// The occurrence search of str_replace: the same occurrences as a scan of the
// text, found without rescanning the text for every call, and bounded work
// per file and request (counted, not timed).

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Edit } from '../../../src/core/types.ts';
import { requestBudget } from '../../../src/core/budget.ts';
import { locateStr } from '../../../src/formats/str-replace/locate.ts';
import { BLOCK_CHARS, find, occurrences, searchable } from '../../../src/formats/str-replace/occurrences.ts';

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

describe('find: the occurrences a scan of the text finds', () => {
  const lines = [...Array.from({ length: 300 }, (_, i) => codeLine(i)), '', 'end;', '', 'x', ''];
  const text = lines.join('\n') + '\n';
  const needles = [
    'value17 ', // within a line, many blocks away from the start
    'compute(2', // many places
    ' of the module");\n  const value1', // one line break, long head and tail
    ';\n ', // one line break, short head and tail
    '\n', // every line end
    '\nend;', // empty head
    'end;\n', // empty tail
    '\n\nx\n\n', // whole lines in the middle, the last at the end of the text
    `${codeLine(5)}\n${codeLine(6)}\n${codeLine(7).slice(0, 9)}`, // whole lines, and a part
    `ule");\n${codeLine(299)}\n\nend;\n\nx\n\n`, // to the end of the text
    'not there',
    'Q',
    text.slice(0, 40),
    // Every line ends and starts alike: found through the longer side of the break.
    `${codeLine(17)}\n`, // a whole line with its line break
    ' of the module");\n', // the end of every line
    'module");\n  const value2', // the head shorter than the tail
    '\n  const value29', // an empty head
    ' of the module");\n  const ', // every line break but the last
  ];

  it('for needles within one line, with one line break and with several', () => {
    assert.ok(text.length > 10 * BLOCK_CHARS, 'the file spans many blocks');
    for (const needle of needles) {
      for (const limit of [Infinity, 1, 2, 7]) {
        const got = find(searchable([...lines]), needle, limit);
        assert.deepEqual(got, { at: occurrences(text, needle, limit), complete: true }, JSON.stringify([needle, limit]));
      }
    }
  });

  it('an empty file and an empty needle', () => {
    assert.deepEqual(find(searchable([]), 'x'), { at: [], complete: true });
    assert.deepEqual(find(searchable(['a']), ''), { at: [], complete: true });
    assert.deepEqual(find(searchable(['a']), '\n'), { at: [1], complete: true });
  });
});

describe('the work of many failing calls is bounded', () => {
  it('2,000 calls citing a line with a typo look at a few blocks each, not the file', () => {
    const lines = Array.from({ length: 20_000 }, (_, i) => codeLine(i));
    const file = searchable(lines);
    // As in a request: the calls share one budget for their closest-place searches (core budget.ts).
    const budget = requestBudget();
    {
      for (let k = 0; k < 2000; k++) {
        const o = locateStr(lines, call(codeLine(k * 10).replace('compute', 'compote')), budget);
        assert.equal(o.ok, false);
        assert.equal(!o.ok && o.code, 'no-match');
        assert.match((!o.ok && o.message) || '', /does not occur/);
      }
    }
    // Every call looks at each block's signature (one unit per block), and scans less than a block on average.
    const blocks = file.blocks!.count;
    assert.ok(blocks > 1000 && blocks < file.text.length / (BLOCK_CHARS / 2), `${blocks} blocks`);
    const scanned = file.spent - 2000 * blocks;
    assert.ok(scanned >= 0 && scanned < 2000 * BLOCK_CHARS, `scanned ${scanned} characters in all`);
    // A scan of the text per call would be 2,000 times the text.
    assert.ok(file.spent < 3 * file.text.length, `spent ${file.spent} for a ${file.text.length}-character text`);
  });

  it('2,000 calls whose old_str spans lines are looked up by line, scanning nothing', () => {
    const lines = Array.from({ length: 20_000 }, (_, i) => codeLine(i));
    const file = searchable(lines);
    const budget = requestBudget();
    {
      for (let k = 0; k < 2000; k++) {
        const o = locateStr(lines, call(`${codeLine(k * 10).replace('compute', 'compote')}\n${codeLine(k * 10 + 1)}\n`), budget);
        assert.equal(!o.ok && o.code, 'no-match');
      }
    }
    assert.ok(file.spent <= 2000 * 2, `spent ${file.spent}`);
  });

  it('1,000 calls whose old_str is a whole line with its line break, all lines ending alike, work as much as without the line break', () => {
    // Every line ends with `of the module");`: the line ends tell no line apart, the rest of the line does.
    const spent = (withBreak: boolean) => {
      const lines = Array.from({ length: 40_000 }, (_, i) => codeLine(i));
      const file = searchable(lines);
      for (let k = 0; k < 1000; k++) {
        const o = locateStr(lines, call(codeLine(k * 40) + (withBreak ? '\n' : '')), requestBudget());
        assert.ok(o.ok, `call ${k}`);
        assert.equal(o.ok && o.start, k * 40);
      }
      return file.spent;
    };
    const within = spent(false);
    const across = spent(true);
    assert.ok(across <= 2 * within, `spent ${across} with the line break, ${within} without`);
  });

  it('calls that every block could hold are scanned until the budget is spent; later ones are not searched, and say so', () => {
    // Every pair and triple of "xyzyx" is in every line; "xyzyx" itself is nowhere.
    const lines = Array.from({ length: 20_000 }, () => 'xyzyyzyx');
    const file = searchable(lines);
    let searched = 0;
    let refused = 0;
    for (let k = 0; k < 200; k++) {
      const o = locateStr(lines, call('xyzyx'));
      assert.equal(!o.ok && o.code, 'no-match');
      if (/does not occur/.test((!o.ok && o.message) || '')) searched++;
      else {
        assert.match((!o.ok && o.message) || '', /^old_str was not looked for in f\.txt: the calls of this reply already did as much searching/);
        refused++;
      }
    }
    assert.ok(searched > 10 && refused > 10, `${searched} searched, ${refused} refused`);
    assert.ok(file.spent <= file.budget + file.text.length + BLOCK_CHARS, `spent ${file.spent}, budget ${file.budget}`);
  });

  it('an old_str found once is still found once when the budget is spent by others before', () => {
    const lines = [...Array.from({ length: 20_000 }, () => 'xyzyyzyx'), 'unique line'];
    const file = searchable(lines);
    for (let k = 0; k < 200; k++) locateStr(lines, call('xyzyx'));
    assert.ok(file.spent > file.budget);
    const o = locateStr(lines, call('unique line\n'));
    assert.ok(o.ok, JSON.stringify(o));
  });
});
