import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { alreadyCreated, alreadyStands, type PlacedLines } from '../../src/core/applied.ts';
import { applyRequest } from '../../src/index.ts';
import { retryMessage } from '../../src/core/retry.ts';
import { prng } from '../prng.ts';

const at = (file: string[], from: number, to: number, lines: string[], append = false): PlacedLines => ({ file, from, to, lines, append });

/** The rule as spec/formats.md states it, written the plain way: every k, every line compared. */
function byDefinition(p: PlacedLines): { start: number; end: number } | null {
  const { file, from, to, lines } = p;
  const n = lines.length;
  const m = to - from;
  const eq = (start: number) => start >= 0 && start + n <= file.length && lines.every((l, i) => file[start + i] === l);
  if (!lines.some((l) => l.trim() !== '')) return null;
  if (n === m && lines.every((l, i) => file[from + i] === l)) return null;
  if (m === 0) {
    const start = p.append ? from - n : from;
    return eq(start) ? { start: start + 1, end: start + n } : null;
  }
  // The first copy in the file: the largest k first.
  for (let k = n - m; k >= 0; k--) {
    const holds = file.slice(from, to).every((l, i) => lines[k + i] === l);
    if (holds && eq(from - k)) return { start: from - k + 1, end: from - k + n };
  }
  return null;
}

describe('alreadyStands', () => {
  const file = ['import os', 'import subprocess', 'import shlex', '', 'def f():'];
  test('new lines that stand around the matched lines: after them (k = 0) and before them (k > 0)', () => {
    assert.deepEqual(alreadyStands(at(file, 1, 2, ['import subprocess', 'import shlex'])), { start: 2, end: 3 });
    assert.deepEqual(alreadyStands(at(file, 2, 3, ['import subprocess', 'import shlex'])), { start: 2, end: 3 });
    assert.deepEqual(alreadyStands(at(file, 0, 1, ['import os', 'import subprocess', 'import shlex'])), { start: 1, end: 3 });
  });
  test('new lines elsewhere in the file, or only beside the place, do not count', () => {
    assert.equal(alreadyStands(at(file, 0, 1, ['import os', 'import shlex'])), null);
    assert.equal(alreadyStands(at(file, 1, 2, ['import shlex', 'import subprocess'])), null);
    assert.equal(alreadyStands(at(file, 4, 5, ['import subprocess', 'import shlex', 'def f():'])), null);
  });
  test('new lines equal to the matched ones (no-change), blank ones and none are never already applied', () => {
    assert.equal(alreadyStands(at(file, 1, 3, ['import subprocess', 'import shlex'])), null);
    assert.equal(alreadyStands(at(file, 2, 4, ['import shlex', ''])), null);
    assert.equal(alreadyStands(at(['a', '', ' ', 'b'], 1, 1, ['', ' '])), null);
    assert.deepEqual(alreadyStands(at(file, 2, 3, ['import shlex', ''])), { start: 3, end: 4 }, 'a blank line beside a non-blank one counts');
    assert.equal(alreadyStands(at(file, 1, 2, [])), null);
  });
  test('an insertion: the lines from the insertion point; an append: the last lines of the file', () => {
    assert.deepEqual(alreadyStands(at(file, 2, 2, ['import shlex'])), { start: 3, end: 3 });
    assert.equal(alreadyStands(at(file, 3, 3, ['import shlex'])), null, 'a copy just before the point does not count');
    assert.deepEqual(alreadyStands(at(file, 5, 5, ['', 'def f():'], true)), { start: 4, end: 5 });
    assert.equal(alreadyStands(at(file, 5, 5, ['def f():', ''], true)), null);
    assert.equal(alreadyStands(at([], 0, 0, ['x'], true)), null);
  });
  test('compares exactly: white space and invisible differences are differences', () => {
    assert.equal(alreadyStands(at(['a', 'b '], 0, 1, ['a', 'b'])), null);
    assert.equal(alreadyStands(at(['a', '\tb'], 0, 1, ['a', '    b'])), null);
  });
  test('agrees with the definition on random files and edits of few distinct lines', () => {
    const rand = prng(7);
    const pick = (n: number) => Math.floor(rand() * n);
    const words = ['a', 'b', 'c', ''];
    for (let i = 0; i < 20000; i++) {
      const file = Array.from({ length: pick(9) }, () => words[pick(words.length)]);
      const from = pick(file.length + 1);
      const to = from + pick(file.length - from + 1);
      const lines = Array.from({ length: pick(7) }, () => words[pick(words.length)]);
      const append = to === from && from === file.length && rand() < 0.5;
      const p = at(file, from, to, lines, append);
      assert.deepEqual(alreadyStands(p), byDefinition(p), JSON.stringify(p));
    }
  });
  test('takes time linear in the new lines, however repetitive', () => {
    const n = 200_000;
    const file = Array.from({ length: 2 * n }, () => 'x');
    const lines = [...Array.from({ length: n - 1 }, () => 'x'), 'y'];
    const started = performance.now();
    assert.equal(alreadyStands(at(file, n, n + n / 2, lines)), null);
    assert.ok(performance.now() - started < 2000, 'a quadratic scan would take minutes');
  });
});

describe('alreadyCreated', () => {
  test('exactly the text the creation writes: its lines, LF endings, the final newline or its lack', () => {
    assert.equal(alreadyCreated('a\nb\n', ['a', 'b'], undefined), true);
    assert.equal(alreadyCreated('a\nb', ['a', 'b'], false), true);
    assert.equal(alreadyCreated('a\nb', ['a', 'b'], undefined), false);
    assert.equal(alreadyCreated('a\r\nb\r\n', ['a', 'b'], undefined), false);
    assert.equal(alreadyCreated('a\nb\nc\n', ['a', 'b'], undefined), false);
    assert.equal(alreadyCreated('\n', [''], undefined), false, 'a blank creation is never already applied');
    assert.equal(alreadyCreated('', [], undefined), false);
  });
});

describe('the engine: an edit already applied', () => {
  const file = 'import os\nimport subprocess\nimport shlex\n\ndef run(cmd):\n    return subprocess.run(cmd, shell=True)\n';
  const addShlex = 'app.py\n```\n<<<<<<< SEARCH\nimport subprocess\n=======\nimport subprocess\nimport shlex\n>>>>>>> REPLACE\n```\n';
  test('fails, changes nothing, and its message names the file and the lines and says how to get a second copy', () => {
    const r = applyRequest({ format: 'search-replace', files: { 'app.py': file }, response: addShlex });
    assert.equal(r.ok, false);
    assert.equal(r.files['app.py'], file);
    const [e] = r.edits;
    assert.deepEqual([e.status, e.code, e.range, e.match], ['failed', 'already-applied', null, null]);
    assert.match(e.message, /already stand at lines 2-3 of app\.py/);
    assert.match(e.message, /write them a second time, so it changed nothing/);
    assert.match(e.message, /if a second copy is really wanted, send an edit whose old lines are lines 2-3 of app\.py/);
    const retry = retryMessage(e, ['import subprocess'], false);
    assert.match(retry!, /\(already-applied\)/);
    assert.match(retry!, /do not send this edit again/);
    assert.doesNotMatch(retry!, /Please send this edit again/);
  });
  test('neither overlaps nor blocks another edit: an edit of the same lines applies', () => {
    const reply =
      addShlex + '\napp.py\n```\n<<<<<<< SEARCH\nimport subprocess\nimport shlex\n=======\nimport shlex\nimport subprocess\n>>>>>>> REPLACE\n```\n';
    const r = applyRequest({ format: 'search-replace', files: { 'app.py': file }, response: reply });
    assert.deepEqual(r.edits.map((e) => [e.status, e.code]), [['failed', 'already-applied'], ['applied', null]]);
    assert.equal(r.files['app.py'], file.replace('import subprocess\nimport shlex', 'import shlex\nimport subprocess'));
  });
  test('a repeat of it in the same reply is already applied too, not a duplicate', () => {
    const r = applyRequest({ format: 'search-replace', files: { 'app.py': file }, response: addShlex + '\n' + addShlex });
    assert.deepEqual(r.edits.map((e) => [e.status, e.code, e.duplicateOf]), [['failed', 'already-applied', null], ['failed', 'already-applied', null]]);
  });
  test('a second copy asked for by citing the first applies', () => {
    const reply = 'app.py\n```\n<<<<<<< SEARCH\nimport subprocess\nimport shlex\n=======\nimport subprocess\nimport shlex\nimport shlex\n>>>>>>> REPLACE\n```\n';
    const r = applyRequest({ format: 'search-replace', files: { 'app.py': file }, response: reply });
    assert.deepEqual(r.edits.map((e) => [e.status, e.code]), [['applied', null]]);
    assert.match(r.files['app.py']!, /import shlex\nimport shlex\n/);
  });
  test('a creation of a file with other text stays file-exists', () => {
    const create = (text: string) =>
      applyRequest({ format: 'str-replace', files: { 'v.txt': '1.0.0\n' }, response: JSON.stringify({ command: 'create', path: 'v.txt', file_text: text }) }).edits[0].code;
    assert.equal(create('1.0.0\n'), 'already-applied');
    assert.equal(create('1.0.0'), 'file-exists');
    assert.equal(create('2.0.0\n'), 'file-exists');
  });
});
