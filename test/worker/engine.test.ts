// The engine worker's interface (src/worker/engine.ts), run in Node: the
// extras come from the edits the engine read, each edit's row has a digest
// that stays while the row shows the same thing, and a run that asks for no
// result view content leaves the view's version where it was.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { EngineWorker } from '../../src/worker/engine.ts';
import { rowDigest } from '../../src/digest/digest.ts';
import type { RunInput } from '../../src/worker/protocol.ts';

const APP = 'def f():\n    return 1\n\ndef g():\n    return 2\n';
const REPLY = 'app.py\n<editblock>\n<<<<<<< REMOVE\n2│    return 1\n=======\n │    return 0\n>>>>>>> INSERT\n</editblock>\n\napp.py\n<editblock>\n<<<<<<< REMOVE\n5│    return 9\n=======\n │    return 3\n>>>>>>> INSERT\n</editblock>\n';

const input = (docs: RunInput['docs'], merge: RunInput['merge'] = { file: null, base: null }): RunInput => ({
  docs,
  files: [{ doc: 1, name: 'app.py' }],
  reply: 0,
  format: 'ln-diff',
  viewFile: null,
  merge,
});

test('extras: the cited lines as read, the retry message of a failed edit, and a row digest of the edit and its extras', () => {
  const worker = new EngineWorker();
  const out = worker.run(input({ 0: { set: REPLY }, 1: { set: APP } }));
  assert.deepEqual(out.result?.edits.map((e) => e.status), ['applied', 'failed']);
  assert.deepEqual(out.extras[0].old, ['    return 1']);
  assert.deepEqual(out.extras[1].old, ['    return 9']);
  assert.equal(out.extras[0].retry, null);
  assert.match(out.extras[1].retry ?? '', /return 9/);
  assert.deepEqual(out.extras[1].pairs.map((p) => [p.cited, p.actual]), [['    return 9', '    return 2']]);
  for (const edit of out.result!.edits) {
    const { digest, ...extra } = out.extras[edit.index];
    assert.equal(digest, rowDigest(edit, extra));
  }
});

test('a row keeps its digest while it shows the same, and gets another when its edit changes', () => {
  const worker = new EngineWorker();
  const a = worker.run(input({ 0: { set: REPLY }, 1: { set: APP } }));
  // a comment added at the end of the file: neither edit changes
  const b = worker.run(input({ 1: { changes: [APP.length, [0, '# end', '']] } }));
  assert.equal(b.extras[0].digest, a.extras[0].digest);
  assert.equal(b.extras[1].digest, a.extras[1].digest);
  // the first edit's line changed: only its row's digest changes
  const at = APP.indexOf('return 1') + 'return 1'.length;
  const c = worker.run(input({ 1: { changes: [at, [0, 'x'], APP.length + 6 - at] } }));
  assert.equal(c.result?.edits[0].match, 'fuzzy');
  assert.notEqual(c.extras[0].digest, b.extras[0].digest);
  assert.equal(c.extras[1].digest, b.extras[1].digest);
});

test('a run with no merge ask computes no result view content, and the next ask is a change from what the page shows', () => {
  const worker = new EngineWorker();
  const first = worker.run(input({ 0: { set: REPLY }, 1: { set: APP } }));
  assert.ok(first.merge?.whole);
  const typed = worker.run(input({ 1: { changes: [APP.length, [0, '#', '']] } }, null));
  assert.equal(typed.merge, null);
  const later = worker.merge({ file: 'app.py', base: first.merge!.version });
  assert.equal(later?.whole, null);
  assert.deepEqual(later?.delta?.a, { from: APP.length, to: APP.length, insert: '#\n' });
});
