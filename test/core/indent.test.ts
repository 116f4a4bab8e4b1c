// src/core/indent.ts: the indentation evidence of cited lines against the
// file's, the readings of a new line beyond it, and the file's style (used
// only to choose between readings). spec/matching.md, "Indentation".

import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { indentEvidence, indentNew, indentStyle } from '../../src/core/indent.ts';

const NAMES = { old: 'the SEARCH lines', new: 'the REPLACE lines' };
/** The new lines as written at a place found at line 0 (null: the edit fails). */
const written = (file: string[], old: string[], replacement: string[]) => {
  const r = indentNew(file, { old, new: replacement }, 0, undefined, NAMES);
  return r.ok ? (r.lines ?? replacement) : null;
};

test('indentStyle: found as editors find it, comment continuation lines left out', () => {
  assert.deepEqual(indentStyle(['def f():', '    a', '        b', '', '  ']), { char: ' ', width: 4 });
  assert.deepEqual(indentStyle(['f', '\ta', '\t\tb']), { char: '\t' });
  assert.deepEqual(indentStyle(['class A {', '  /**', '   * Doc.', '   */', '  f() {', '    return 1;', '  }', '}']), { char: ' ', width: 2 });
  assert.deepEqual(indentStyle(['int f(void)', '{', '\t/*', '\t * Doc.', '\t */', '\treturn 1;', '}']), { char: '\t' });
  assert.equal(indentStyle(['a', '\tb', '  c']), null, 'as many lines in tabs as in spaces');
  assert.equal(indentStyle(['a', '', 'b']), null, 'nothing indented');
  assert.equal(indentStyle(['a', '  b', 'c', '    d', 'e']), null, 'two steps as frequent');
});

test('indentStyle: nested blocks of k spaces a level are k, whatever the depths', () => {
  fc.assert(
    fc.property(fc.integer({ min: 1, max: 8 }), fc.array(fc.integer({ min: 0, max: 5 }), { minLength: 1, maxLength: 30 }), (k, walk) => {
      // A file that opens and closes levels one at a time: every step between consecutive lines is 0 or k.
      const lines: string[] = [];
      let level = 0;
      for (const target of walk) {
        while (level !== target) {
          level += level < target ? 1 : -1;
          lines.push(' '.repeat(k * level) + 'x');
        }
      }
      lines.push(' '.repeat(k) + 'y');
      assert.deepEqual(indentStyle(lines), { char: ' ', width: k });
    }),
  );
});

test('indentEvidence: consistent, order-keeping pairs, or why not', () => {
  const ok = indentEvidence(['    a', '', '        b'], ['\ta', 'x', '\t\tb']);
  assert.ok(ok.ok);
  assert.deepEqual(ok.map.pairs, [['    ', '\t'], ['        ', '\t\t']]);
  assert.equal(ok.map.identity, false);
  const same = indentEvidence(['a', 'b'], ['  a', '    b']);
  assert.ok(!same.ok && /same indentation "" stand for "  " and "    "/.test(same.why));
  const order = indentEvidence(['  a', '    b'], ['    a', '  b']);
  assert.ok(!order.ok && /does not keep their order/.test(order.why));
  assert.ok(indentEvidence(['\ta'], ['\ta']).ok);
});

test('indentNew: the readings, and a refusal when they differ', () => {
  // A shift at one depth (aider's own test): shift wins.
  assert.deepEqual(written(['    line1', '    line2'], [' line1', ' line2'], [' new_line1', '     new_line2']), ['    new_line1', '        new_line2']);
  // A change of unit at two depths.
  assert.deepEqual(written(['  a', '    b'], ['    a', '        b'], ['    a', '        b', '            c']), ['  a', '    b', '      c']);
  // Tabs for spaces at two depths.
  assert.deepEqual(written(['\ta', '\t\tb'], ['    a', '        b'], ['    a', '            c']), ['\ta', '\t\t\tc']);
  // Tabs for spaces at one depth: the readings differ; the file's style (tabs) picks one.
  assert.deepEqual(written(['\ta', '\tb'], ['    a'], ['    a', '        c']), ['\ta', '\t\tc']);
  // ... and with no style to tell, the edit fails.
  assert.equal(written(['\ta', '  b'], ['    a'], ['    a', '        c']), null);
  // A line the shift cannot carry (shallower than what it removes) fails.
  assert.equal(written(['    a', '    b'], ['        a'], ['        a', '  c']), null);
  // Cited lines as the file has them: the new lines as written, spaces in a tab file included.
  assert.deepEqual(written(['\ta'], ['\ta'], ['    b']), ['    b']);
  // New lines in the file's tabs where the cited lines use spaces are kept.
  assert.deepEqual(written(['\ta'], ['    a'], ['\tb', '\t\tc']), ['\tb', '\t\tc']);
});
