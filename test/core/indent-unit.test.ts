// indentUnit (src/core/indent.ts) reads a whole file's lines on every run, so
// it scans characters instead of matching regular expressions; it must say
// exactly what its definition says. The definition, written with regular
// expressions, is the reference here.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { indentUnit } from '../../src/core/indent.ts';

/** The unit by its definition: tabs only, or spaces only (their gcd), else null; blank and unindented lines say nothing. */
function reference(block: readonly string[]): string | null {
  let tabs = false;
  let width = 0;
  const gcd = (a: number, b: number): number => (b === 0 ? a : gcd(b, a % b));
  for (const line of block) {
    if (/^[ \t]*$/.test(line)) continue;
    const indent = /^[ \t]*/.exec(line)![0];
    if (indent === '') continue;
    if (/^\t+$/.test(indent)) tabs = true;
    else if (/^ +$/.test(indent)) width = gcd(width, indent.length);
    else return null;
    if (tabs && width > 0) return null;
  }
  return tabs ? '\t' : width > 0 ? ' '.repeat(width) : null;
}

test('indentUnit: the examples', () => {
  assert.equal(indentUnit(['def f():', '    a', '        b', '', '  ']), '    ');
  assert.equal(indentUnit(['f', '\ta', '\t\tb']), '\t');
  assert.equal(indentUnit(['  a', '      b']), '  ');
  assert.equal(indentUnit(['\t a']), null, 'a tab and a space in one indentation');
  assert.equal(indentUnit(['\ta', '  b']), null, 'tabs on one line, spaces on another');
  assert.equal(indentUnit(['a', '', ' \t ']), null, 'nothing indented');
  assert.equal(indentUnit(['\u00a0a']), null, 'a no-break space is not indentation');
});

test('indentUnit: the same as its definition on any lines of blanks, tabs and text', () => {
  const line = fc.array(fc.constantFrom(' ', '\t', 'x', '\u00a0', '\r'), { maxLength: 8 }).map((cs) => cs.join(''));
  fc.assert(
    fc.property(fc.array(line, { maxLength: 8 }), (block) => {
      assert.equal(indentUnit(block), reference(block));
    }),
    { numRuns: 5000 },
  );
});
