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
 * `shifts`: the format tries the uniform indent shift (search-replace,
 * udiff, udiffx, apply-patch; Roo finds such lines by its own
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
      assert.match(e.message, /not a whole number of 4 spaces/);
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
