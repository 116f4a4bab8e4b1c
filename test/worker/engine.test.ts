// The engine worker's interface (src/worker/engine.ts), run in Node: the
// extras come from the edits the engine read, each edit's row has a digest
// that stays while the row shows the same thing, and a run that asks for no
// result view content leaves the view's version where it was.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { EngineWorker } from '../../src/worker/engine.ts';
import { resultDigest, rowDigest } from '../../src/digest/digest.ts';
import type { RunInput } from '../../src/worker/protocol.ts';

const APP = 'def f():\n    return 1\n\ndef g():\n    return 2\n';
const REPLY = 'app.py\n<editblock>\n<<<<<<< REMOVE\n2│    return 1\n=======\n │    return 0\n>>>>>>> INSERT\n</editblock>\n\napp.py\n<editblock>\n<<<<<<< REMOVE\n5│    return 9\n=======\n │    return 3\n>>>>>>> INSERT\n</editblock>\n';

let runs = 0;
const input = (docs: RunInput['docs'], merge: RunInput['merge'] = { file: null, base: null }): RunInput => ({
  docs,
  files: [{ doc: 1, name: 'app.py' }],
  reply: 0,
  format: 'ln-diff',
  viewFile: null,
  merge,
  run: ++runs,
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
  // The digest is of what the row shows: the edit and its extras, not where they are in the reply.
  for (const edit of out.result!.edits) {
    const { digest, ...extra } = out.extras[edit.index];
    const { reply: _reply, ...shown } = edit;
    assert.equal(digest, rowDigest(shown, { ...extra, pairs: extra.pairs.map(({ reply: _at, ...pair }) => pair) }));
  }
});

test('typing in the reply above an edit moves it in the reply but keeps its row', () => {
  const worker = new EngineWorker();
  const a = worker.run(input({ 0: { set: REPLY }, 1: { set: APP } }));
  // a word typed into the prose before the first edit: both edits move down the reply
  const b = worker.run(input({ 0: { changes: [[0, 'Here:\n'], REPLY.length] } }));
  assert.equal(b.result?.edits[1].reply.from, a.result!.edits[1].reply.from + 6);
  assert.equal(b.extras[1].pairs[0].reply?.from, a.extras[1].pairs[0].reply!.from + 6);
  assert.equal(b.extras[0].digest, a.extras[0].digest);
  assert.equal(b.extras[1].digest, a.extras[1].digest);
  // a cited line changed: that edit's row changes
  const at = b.result!.edits[1].reply.from + REPLY.slice(b.result!.edits[1].reply.from - 6).indexOf('return 9') + 'return 9'.length;
  const c = worker.run(input({ 0: { changes: [at, [0, '9'], REPLY.length + 6 - at] } }));
  assert.equal(c.extras[0].digest, b.extras[0].digest);
  assert.notEqual(c.extras[1].digest, b.extras[1].digest);
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

test("a run's digest is made when asked, for that run only", () => {
  const worker = new EngineWorker();
  const first = input({ 0: { set: REPLY }, 1: { set: APP } });
  const out = worker.run(first);
  assert.ok(out.result);
  assert.equal(worker.digest(first.run), resultDigest(out.result));
  assert.equal(worker.digest(first.run), resultDigest(out.result), 'asked twice, the same');
  const second = input({ 1: { changes: [APP.length, [0, '# end\n']] as never } });
  const next = worker.run(second);
  assert.ok(next.result);
  assert.notEqual(worker.digest(second.run), resultDigest(out.result), 'the file after the edits changed');
  assert.equal(worker.digest(second.run), resultDigest(next.result));
  assert.equal(worker.digest(first.run), null, 'a replaced run has no digest any more');
  assert.equal(worker.digest(second.run + 1), null, 'nor has a run not yet made');
});

test('a run whose engine threw has no digest', () => {
  const worker = new EngineWorker();
  const bad = { ...input({ 0: { set: REPLY }, 1: { set: APP } }), options: { window: -5 } } as RunInput;
  const out = worker.run(bad);
  assert.equal(out.result, null);
  assert.match(out.error ?? '', /options\.window/);
  assert.equal(worker.digest(bad.run), null);
});

test('the files the reply changes come first, and the result view shows the first when no file is asked for', () => {
  const worker = new EngineWorker();
  const reply = 'b.py\n<editblock>\n<<<<<<< REMOVE\n1│x = 1\n=======\n │x = 2\n>>>>>>> INSERT\n</editblock>\n';
  const out = worker.run({
    docs: { 0: { set: reply }, 1: { set: '' }, 2: { set: 'y = 1\n' }, 3: { set: 'x = 1\n' } },
    files: [
      { doc: 1, name: 'untitled.txt' },
      { doc: 2, name: 'a.py' },
      { doc: 3, name: 'b.py' },
    ],
    reply: 0,
    format: 'ln-diff',
    viewFile: null,
    merge: { file: null, base: null },
    run: ++runs,
  });
  assert.deepEqual(
    out.files.map((f) => `${f.name} ${f.label}`),
    ['b.py changed', 'untitled.txt unchanged', 'a.py unchanged'],
  );
  assert.equal(out.merge?.file, 'b.py');
  assert.equal(out.merge?.label, 'changed');
});
