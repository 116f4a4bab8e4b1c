// Rules the spec pins with examples, checked here where the examples cannot
// look: warning positions, messages, and cleaning that takes many rounds.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { cleanPathLine } from '../../../src/core/paths.ts';
import { parseLnDiff } from '../../../src/formats/ln-diff/parse.ts';

const block = (body: string[]) => ['<editblock>', ...body, '</editblock>'].join('\n') + '\n';

describe('ln-diff: warnings in reply order', () => {
  it('lists each warning at the reply line it concerns, numbered-insert before the end marker assumed', () => {
    const reply = 'app.py\n' + block(['2|import sys', ' │import json', '3│import re']);
    const [edit] = parseLnDiff(reply, { files: ['app.py'] }).edits;
    assert.deepEqual(
      edit.warnings.map((w) => [w.code, w.reply?.start.line]),
      [['inferred-marker', 2], ['bar-substitute', 3], ['inferred-marker', 4], ['numbered-insert', 5], ['inferred-marker', 6]],
    );
  });
});

describe('ln-diff: ambiguous-structure', () => {
  it('warns once for unprefixed divider-like insert lines, naming every one, and inserts them as written', () => {
    const reply = 'a.md\n' + block(['<<<<<<< REMOVE', '1│x', '=======', 'A', '=====', 'B', '  =========  ', '>>>>>>> INSERT']);
    const [edit] = parseLnDiff(reply, { files: ['a.md'] }).edits;
    assert.deepEqual(edit.new, ['A', '=====', 'B', '  =========  ']);
    assert.deepEqual(edit.warnings.map((w) => w.code), ['ambiguous-structure']);
    assert.match(edit.warnings[0].message, /lines 7, 9 /);
  });
  it('does not warn for a prefixed divider line, nor for ten `=`', () => {
    const reply = 'a.md\n' + block(['<<<<<<< REMOVE', '1│x', '=======', ' │=======', '==========', '>>>>>>> INSERT']);
    const [edit] = parseLnDiff(reply, { files: ['a.md'] }).edits;
    assert.deepEqual(edit.warnings, []);
  });
});

describe('ln-diff: paths', () => {
  it('a pathless editblock after one without a path fails with missing-path, saying so', () => {
    const reply = 'Output:\n' + block(['<<<<<<< REMOVE', '=======', ' │a', '>>>>>>> INSERT']) + block(['<<<<<<< REMOVE', '=======', ' │b', '>>>>>>> INSERT']);
    const edits = parseLnDiff(reply, { files: ['app.py'] }).edits;
    assert.deepEqual(edits.map((e) => e.error?.code), ['missing-path', 'missing-path']);
    assert.match(edits[1].error!.message, /the editblock before it has none either/);
  });
  it('the first pathless editblock still edits the only file given', () => {
    const reply = block(['<<<<<<< REMOVE', '=======', ' │a', '>>>>>>> INSERT']);
    assert.equal(parseLnDiff(reply, { files: ['app.py'] }).edits[0].file, 'app.py');
  });
  it('cleans in rounds until nothing changes, however many', () => {
    assert.deepEqual(cleanPathLine('#*'.repeat(50) + ' src/a.py'), { path: 'src/a.py', quoted: false });
    assert.deepEqual(cleanPathLine('**File:** `src/b.py`'), { path: 'src/b.py', quoted: true });
  });
  it('an interrupting head reads only the open section for its path, never its divider', () => {
    const reply = ['src/a.py', '<<<<<<< REMOVE', '1│A = 1', '=======', '<<<<<<< REMOVE', '1│A = 1', '=======', ' │A = 2', '>>>>>>> INSERT', ''].join('\n');
    const edits = parseLnDiff(reply, { files: ['src/a.py', 'src/b.py'] }).edits;
    assert.deepEqual(edits.map((e) => [e.error?.code ?? null, e.file]), [['missing-end-marker', 'src/a.py'], [null, 'src/a.py']]);
  });
});
