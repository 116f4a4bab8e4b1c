import { test } from 'node:test';
import assert from 'node:assert/strict';
import { applyRequest } from '../../src/formats/index.ts';
import { canonicalResult, fnv1a, hash53, resultDigest, rowDigest } from '../../src/digest/digest.ts';

test('fnv1a: the published 32-bit FNV-1a values, over UTF-8', () => {
  assert.equal(fnv1a(''), '811c9dc5');
  assert.equal(fnv1a('a'), 'e40c292c');
  assert.equal(fnv1a('foobar'), 'bf9cf968');
  assert.equal(fnv1a('é'), fnv1a('\u00e9'));
  assert.notEqual(fnv1a('é'), fnv1a('e\u0301'));
});

const request = {
  format: 'ln-diff',
  files: { 'b.py': 'x = 1\n', 'a.py': 'def f():\n    return 1\n' },
  response: 'a.py\n<editblock>\n<<<<<<< REMOVE\n2│    return 1\n=======\n │    return 2\n>>>>>>> INSERT\n</editblock>\n',
};

test('the canonical result: files sorted, each edit\'s place and outcome', () => {
  const result = applyRequest(request);
  assert.equal(
    canonicalResult(result),
    JSON.stringify({
      files: [
        ['a.py', 'def f():\n    return 2\n'],
        ['b.py', 'x = 1\n'],
      ],
      edits: [[0, 'a.py', 'applied', 'exact', 0, [2, 2], null]],
    }),
  );
  assert.match(resultDigest(result), /^[0-9a-f]{8}$/);
});

test('the digest changes with the outcome, not with timing or messages', () => {
  const a = resultDigest(applyRequest(request));
  assert.equal(resultDigest(applyRequest({ ...request })), a);
  const moved = resultDigest(applyRequest({ ...request, files: { ...request.files, 'a.py': '\ndef f():\n    return 1\n' } }));
  assert.notEqual(moved, a);
  const failed = resultDigest(applyRequest({ ...request, files: { ...request.files, 'a.py': 'nothing\n' } }));
  assert.notEqual(failed, a);
});

test('hash53: 14 hex digits, the same for the same text, another for a one-character change', () => {
  assert.match(hash53(''), /^[0-9a-f]{14}$/);
  assert.equal(hash53('abc'), hash53('abc'));
  assert.notEqual(hash53('abc'), hash53('abd'));
  assert.notEqual(hash53('ab'), hash53('ba'));
  const seen = new Set<string>();
  for (let i = 0; i < 20_000; i++) seen.add(hash53(`row ${i}`));
  assert.equal(seen.size, 20_000);
});

test('rowDigest: the edit and what is shown beside it, as length:hash of their JSON', () => {
  const result = applyRequest(request);
  const edit = result.edits[0];
  const extra = { old: ['    return 1'], pairs: [], retry: null };
  const digest = rowDigest(edit, extra);
  const json = JSON.stringify([edit, extra]);
  assert.equal(digest, `${json.length.toString(36)}:${hash53(json)}`);
  assert.equal(rowDigest(structuredClone(edit), structuredClone(extra)), digest);
  assert.notEqual(rowDigest({ ...edit, message: `${edit.message}.` }, extra), digest);
  assert.notEqual(rowDigest(edit, { ...extra, retry: 'again' }), digest);
  assert.equal(rowDigest(edit, undefined), rowDigest(edit, null));
});
