// Shared cases for re-indented replies (spec/matching.md, "Indentation"): a
// hunk whose lines are uniformly re-indented is found (formats with the
// indent shift), and new lines are written in the file's style or the edit
// fails; never a mix of tabs and spaces the file did not have, never another
// place.

import assert from 'node:assert/strict';
import { it } from 'node:test';
import { applyRequest } from '../../src/formats/index.ts';

/** One change: context lines before, removed lines, added lines, context after; `line` is the 1-based line of the first. */
export interface Change {
  before: string[];
  removed: string[];
  added: string[];
  after: string[];
  line: number;
}

/** A reply in one format making `change` to `path`. */
export type ChangeWriter = (path: string, change: Change) => string;

/** Old and new lines of a change, for formats that quote them whole (SEARCH/REPLACE, REMOVE/INSERT). */
export const sides = (c: Change) => ({ old: [...c.before, ...c.removed, ...c.after], new: [...c.before, ...c.added, ...c.after] });

/** A unified-diff hunk body for a change (context ' ', removed '-', added '+'). */
export const hunkBody = (c: Change) =>
  [...c.before.map((l) => ` ${l}`), ...c.removed.map((l) => `-${l}`), ...c.added.map((l) => `+${l}`), ...c.after.map((l) => ` ${l}`)].join('\n');

const PY = 'def f():\n    x = 1\n    y = 2\n    return x\n';
const GO = 'func f() {\n\tx := 1\n\ty := 2\n\treturn x\n}\n';

/**
 * `shifts`: the format places cited lines whose indentation was changed
 * (every format but whole-file ones; Roo finds such lines by its own
 * normalisation).
 */
export function indentationCases(format: string, write: ChangeWriter, shifts = true): void {
  const run = (file: string, change: Change) => {
    const files = { 'f.src': file };
    const r = applyRequest({ format, files, response: write('f.src', change) });
    return { r, e: r.edits[0], files };
  };
  /** Applied with exactly `after`, or failed with the file untouched (and `mustApply` false). */
  const outcome = (file: string, change: Change, after: string | null, mustApply: boolean) => {
    const { r, e, files } = run(file, change);
    if (after !== null && (mustApply || e.status === 'applied')) {
      assert.equal(e.status, 'applied', e.message);
      assert.deepEqual(r.files, { 'f.src': after }, e.message);
    } else {
      assert.equal(e.status, 'failed', e.message);
      assert.deepEqual(r.files, files);
    }
    return e;
  };

  if (shifts) {
    it(`${format}: a hunk quoted without the file's indentation is shifted back`, () => {
      const e = outcome(PY, { before: ['x = 1'], removed: ['y = 2'], added: ['y = 3'], after: ['return x'], line: 2 }, 'def f():\n    x = 1\n    y = 3\n    return x\n', true);
      assert.equal(e.match, 'whitespace');
    });
    it(`${format}: a hunk in four spaces for a file in tabs writes tabs, nested lines too`, () => {
      const change = { before: ['    x := 1'], removed: ['    y := 2'], added: ['    if x {', '        y := 3', '    }'], after: ['    return x'], line: 2 };
      outcome(GO, change, 'func f() {\n\tx := 1\n\tif x {\n\t\ty := 3\n\t}\n\treturn x\n}\n', true);
    });
    it(`${format}: an added line aligned off the four-space grid fails rather than mix spaces into tabs`, () => {
      const change = { before: ['    x := 1'], removed: ['    y := 2'], added: ['    y := g(1,', '      2)'], after: ['    return x'], line: 2 };
      const e = outcome(GO, change, null, false);
      assert.equal(e.code, 'no-match');
      assert.match(e.message, /shifted by the same amount it would be "\\t  ", read with spaces changed to tabs it has no place/);
    });
    it(`${format}: tabs for four spaces shown at two depths: nested new lines get tabs`, () => {
      const file = 'func f() {\n\tif a {\n\t\tx := 1\n\t}\n}\n';
      const change = { before: ['    if a {'], removed: ['        x := 1'], added: ['        x := 2', '        if b {', '            y()', '        }'], after: ['    }'], line: 2 };
      outcome(file, change, 'func f() {\n\tif a {\n\t\tx := 2\n\t\tif b {\n\t\t\ty()\n\t\t}\n\t}\n}\n', true);
    });
    it(`${format}: four spaces for two shown at two depths: the unit is converted`, () => {
      const file = 'def f():\n  if a:\n    go()\n  return\n';
      const change = { before: ['    if a:'], removed: ['        go()'], added: ['        if b:', '            stop()'], after: ['    return'], line: 2 };
      outcome(file, change, 'def f():\n  if a:\n    if b:\n      stop()\n  return\n', true);
    });
    it(`${format}: one depth only: shifted by the same amount, as aider does`, () => {
      const file = '    line1\n    line2\n    line3\n';
      const change = { before: [], removed: [' line1', ' line2'], added: [' new_line1', '     new_line2'], after: [], line: 1 };
      outcome(file, change, '    new_line1\n        new_line2\n    line3\n', true);
    });
    it(`${format}: a file with JSDoc comments keeps its two-space unit`, () => {
      const file = 'class A {\n  /**\n   * Doc.\n   */\n  f() {\n    return 1;\n  }\n}\n';
      const want = 'class A {\n  /**\n   * Doc.\n   */\n  f() {\n    if (x) {\n      return 2;\n    }\n    return 1;\n  }\n}\n';
      outcome(file, { before: ['  f() {'], removed: ['    return 1;'], added: ['    if (x) {', '      return 2;', '    }', '    return 1;'], after: ['  }'], line: 5 }, want, true);
      outcome(file, { before: ['    f() {'], removed: ['        return 1;'], added: ['        if (x) {', '            return 2;', '        }', '        return 1;'], after: ['    }'], line: 5 }, want, true);
    });
    it(`${format}: a tab-indented C file with comment lines: tabs, by the file's style where the readings differ`, () => {
      const file = 'int f(void)\n{\n\t/*\n\t * Doc.\n\t */\n\tx = 1;\n\treturn x;\n}\n';
      const change = { before: ['    x = 1;'], removed: [], added: ['    if (x)', '        x = 2;'], after: ['    return x;'], line: 6 };
      outcome(file, change, 'int f(void)\n{\n\t/*\n\t * Doc.\n\t */\n\tx = 1;\n\tif (x)\n\t\tx = 2;\n\treturn x;\n}\n', true);
    });
    it(`${format}: readings that differ, in a file of no clear style, fail and name both`, () => {
      const file = 'a\n\tx = 1\n  y = 2\n';
      const change = { before: ['    x = 1'], removed: [], added: ['    if x:', '        z = 3'], after: [], line: 2 };
      const e = outcome(file, change, null, false);
      assert.equal(e.code, 'no-match');
      assert.match(e.message, /shifted by the same amount it would be "\\t    ", read with spaces changed to tabs it would be "\\t\\t"/);
    });
    it(`${format}: lines re-indented unevenly are not a shift, and land nowhere else`, () => {
      outcome(PY, { before: ['x = 1'], removed: ['  y = 2'], added: ['y = 3'], after: ['return x'], line: 2 }, 'def f():\n    x = 1\ny = 3\n    return x\n', false);
    });
  }
  it(`${format}: a file that already mixes tabs and spaces gets the lines as written`, () => {
    const file = 'func f() {\n\tx := 1\n  // note\n}\n';
    outcome(file, { before: ['\tx := 1'], removed: ['  // note'], added: ['  // a note', '    // more'], after: [], line: 2 }, 'func f() {\n\tx := 1\n  // a note\n    // more\n}\n', true);
  });
  it(`${format}: new lines in spaces where the cited lines have the file's tabs are written as they are`, () => {
    outcome(GO, { before: ['\tx := 1'], removed: ['\ty := 2'], added: ['    if x {', '        y := 3', '    }'], after: [], line: 2 }, 'func f() {\n\tx := 1\n    if x {\n        y := 3\n    }\n\treturn x\n}\n', true);
  });
}
