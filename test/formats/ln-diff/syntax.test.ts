// The lexical pieces of ln-diff (src/formats/ln-diff/syntax.ts).

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import {
  BAR,
  CLOSE_TAG,
  DIVIDER,
  END,
  HEAD,
  OPEN_TAG,
  SUBSTITUTE_BARS,
  insertPrefix,
  numberWidth,
  numberedLine,
  parseView,
  renderView,
} from '../../../src/formats/ln-diff/syntax.ts';
import { lnDiff } from '../../../src/formats/ln-diff/index.ts';

const lines = (n: number) => Array.from({ length: n }, (_, i) => `line ${i + 1}`);

describe('numberWidth', () => {
  it('is the number of digits of the largest line number (at least 1)', () => {
    assert.deepEqual(
      [0, 1, 9, 10, 99, 100, 999, 1000, 100000].map(numberWidth),
      [1, 1, 1, 2, 2, 3, 3, 4, 6],
    );
  });
});

describe('renderView', () => {
  it('the empty file is the empty view', () => {
    assert.equal(renderView([]), '');
  });

  it('9 lines: one digit, no padding', () => {
    const view = renderView(lines(9));
    assert.equal(view.split('\n')[0], '1│line 1');
    assert.equal(view.split('\n')[8], '9│line 9');
    assert.ok(view.endsWith('9│line 9\n'));
  });

  it('10 lines: numbers right-aligned to two columns', () => {
    const view = renderView(lines(10));
    assert.equal(view, lines(10).map((l, i) => `${String(i + 1).padStart(2)}│${l}\n`).join(''));
    assert.equal(view.split('\n')[0], ' 1│line 1');
    assert.equal(view.split('\n')[9], '10│line 10');
  });

  it('100 lines: three columns, every bar in the same column', () => {
    const rows = renderView(lines(100)).split('\n');
    assert.equal(rows.length, 101);
    assert.equal(rows[100], '');
    assert.equal(rows[0], '  1│line 1');
    assert.equal(rows[9], ' 10│line 10');
    assert.equal(rows[99], '100│line 100');
    for (const row of rows.slice(0, 100)) assert.equal(row.indexOf(BAR), 3);
  });

  it('content is shown exactly: blanks, tabs, bars, markers, CR', () => {
    const content = ['', '  x  ', '\tif (a│b) {', '=======', '<<<<<<< REMOVE', '3│x', 'a\rb', '😀'];
    assert.equal(renderView(content), content.map((l, i) => `${i + 1}│${l}\n`).join(''));
  });

  it('the format view ignores endings, the BOM and the final newline', () => {
    const expected = '1│a\n2│b\n';
    for (const text of ['a\nb\n', 'a\r\nb\r\n', 'a\nb', '\uFEFFa\r\nb']) assert.equal(lnDiff.view!(text), expected);
    assert.equal(lnDiff.view!(''), '');
    assert.equal(lnDiff.view!('\n'), '1│\n');
  });
});

describe('parseView', () => {
  it('reads a view back into its lines', () => {
    assert.deepEqual(parseView(' 1│a\n 2│\n 3│  c\n 4│\n 5│\n 6│\n 7│\n 8│\n 9│\n10│z\n'), ['a', '', '  c', '', '', '', '', '', '', 'z']);
    assert.deepEqual(parseView(''), []);
    assert.deepEqual(parseView('1│'), ['']);
    assert.deepEqual(parseView('1│a'), ['a']); // no final newline
    assert.deepEqual(parseView('1│a│b\n'), ['a│b']);
    assert.deepEqual(parseView('1│a\r\n'), ['a\r']); // a view has LF endings: a CR is content
    assert.deepEqual(parseView('01│a\n 2│b\n'), ['a', 'b']);
  });

  it('round-trips renderView for any lines', () => {
    const line = fc.string({ unit: fc.constantFrom('a', ' ', '\t', '│', '|', '1', '\r', '😀', '='), maxLength: 12 });
    fc.assert(
      fc.property(fc.array(line, { maxLength: 120 }), (ls) => {
        assert.deepEqual(parseView(renderView(ls)), ls);
      }),
      { numRuns: 300 },
    );
  });

  it('throws a SyntaxError naming the first line that is not "N│text" in sequence', () => {
    const cases: [string, number][] = [
      ['x\n', 1],
      ['1│a\n\n', 2], // an empty row in the middle
      ['1│a\n3│c\n', 2], // a gap
      ['1│a\n1│b\n', 2], // a repeat
      ['2│a\n', 1], // does not start at 1
      ['1|a\n', 1], // a substitute bar is not the view's bar
      ['1│a\n2 | b\n', 2],
      ['│a\n', 1],
    ];
    for (const [view, line] of cases) {
      assert.throws(
        () => parseView(view),
        (e: unknown) => {
          assert.ok(e instanceof SyntaxError);
          assert.equal(e.message, `line ${line}: expected "${line}│" followed by the line's text`);
          return true;
        },
        JSON.stringify(view),
      );
    }
  });
});

describe('numberedLine', () => {
  it('reads the number, the bar and the content verbatim', () => {
    assert.deepEqual(numberedLine('12│  x = 1'), { number: 12, numberFrom: 0, numberTo: 2, bar: '│', contentStart: 3, content: '  x = 1' });
    assert.deepEqual(numberedLine('  7 \t│x'), { number: 7, numberFrom: 2, numberTo: 3, bar: '│', contentStart: 6, content: 'x' });
    assert.deepEqual(numberedLine('007│x'), { number: 7, numberFrom: 0, numberTo: 3, bar: '│', contentStart: 4, content: 'x' });
    assert.deepEqual(numberedLine('3│'), { number: 3, numberFrom: 0, numberTo: 1, bar: '│', contentStart: 2, content: '' });
    assert.deepEqual(numberedLine('3││x'), { number: 3, numberFrom: 0, numberTo: 1, bar: '│', contentStart: 2, content: '│x' });
    assert.deepEqual(numberedLine('3│ a│b '), { number: 3, numberFrom: 0, numberTo: 1, bar: '│', contentStart: 2, content: ' a│b ' });
  });

  it('accepts the substitute bars', () => {
    for (const bar of SUBSTITUTE_BARS) {
      assert.deepEqual(numberedLine(`5${bar}x`), { number: 5, numberFrom: 0, numberTo: 1, bar, contentStart: 1 + bar.length, content: 'x' }, bar);
    }
    assert.deepEqual(numberedLine('5 | x'), { number: 5, numberFrom: 0, numberTo: 1, bar: '|', contentStart: 3, content: ' x' });
  });

  it('rejects lines without a number followed by a bar', () => {
    for (const text of ['', '│x', ' │x', 'x│y', '12', '12 x│', '-1│x', '1.5│x', '1 2│x', '１│x', '+1│x', '12:x']) {
      assert.equal(numberedLine(text), null, JSON.stringify(text));
    }
  });

  it('numbers of more than 9 digits are not line numbers', () => {
    assert.equal(numberedLine('999999999│x')!.number, 999999999);
    assert.equal(numberedLine('99999999999999999999│x'), null);
  });
});

describe('insertPrefix', () => {
  it('blanks, optional digits, blanks, then the bar', () => {
    assert.deepEqual(insertPrefix(' │x'), { length: 2, numbered: false });
    assert.deepEqual(insertPrefix('│x'), { length: 1, numbered: false });
    assert.deepEqual(insertPrefix('   │'), { length: 4, numbered: false });
    assert.deepEqual(insertPrefix('\t │  x'), { length: 3, numbered: false });
    assert.deepEqual(insertPrefix('12│x'), { length: 3, numbered: true });
    assert.deepEqual(insertPrefix(' 12 │x'), { length: 5, numbered: true });
  });

  it('only the first bar is the prefix', () => {
    assert.deepEqual(insertPrefix(' ││x'), { length: 2, numbered: false });
  });

  it('a line that does not start with a prefix has none', () => {
    for (const text of ['', 'x', "print('a│b')", ' x│', '1 2│', 'a1│', ' |x', '-1│x']) {
      assert.equal(insertPrefix(text), null, JSON.stringify(text));
    }
  });

  it('another bar can be asked for', () => {
    assert.deepEqual(insertPrefix(' |x', '|'), { length: 2, numbered: false });
    assert.deepEqual(insertPrefix('4 ┃x', '┃'), { length: 3, numbered: true });
    assert.equal(insertPrefix(' │x', '|'), null);
  });
});

describe('markers', () => {
  it('HEAD, DIVIDER and END: 5 to 9 marker characters (matched on trimmed lines)', () => {
    for (const n of [5, 7, 9]) {
      assert.ok(HEAD.test(`${'<'.repeat(n)} REMOVE`));
      assert.ok(HEAD.test(`${'<'.repeat(n)}REMOVE`));
      assert.ok(HEAD.test(`${'<'.repeat(n)} \t REMOVE`));
      assert.ok(DIVIDER.test('='.repeat(n)));
      assert.ok(END.test(`${'>'.repeat(n)} INSERT`));
    }
    for (const n of [4, 10]) {
      assert.ok(!HEAD.test(`${'<'.repeat(n)} REMOVE`));
      assert.ok(!DIVIDER.test('='.repeat(n)));
      assert.ok(!END.test(`${'>'.repeat(n)} INSERT`));
    }
    assert.ok(!HEAD.test('<<<<<<< remove'));
    assert.ok(!END.test('>>>>>>> Insert'));
    assert.ok(!HEAD.test('<<<<<<< REMOVE x'));
    assert.ok(!DIVIDER.test('== ====='));
  });

  it('tags', () => {
    assert.ok(OPEN_TAG.test('<editblock>'));
    assert.ok(!OPEN_TAG.test('<editblock> x'));
    assert.ok(CLOSE_TAG.test('</editblock>'));
    assert.ok(CLOSE_TAG.test('</editblock>```'));
    assert.ok(!CLOSE_TAG.test('x</editblock>'));
  });
});
