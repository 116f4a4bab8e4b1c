// The replay's applied files: the difference edit-by-edit splices cannot
// follow is the result view's one text delta, which keeps surrogate pairs whole.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { AppliedFiles } from '../../src/replay/applied.ts';
import { textDelta } from '../../src/text-delta/exact.ts';

test('settling on the whole reply\'s answer: one splice, never inside a surrogate pair', () => {
  // 😀 and 😁 share their high surrogate: a plain common prefix would end between the two halves.
  const files = new AppliedFiles({ 'a.txt': 'smile 😀 here\n' });
  const changes = files.settle({ 'a.txt': 'smile 😁 here\n' });
  assert.deepEqual(changes, [{ type: 'splice', file: 'a.txt', edit: null, from: 6, to: 8, insert: '😁' }]);
  assert.deepEqual(changes[0], { type: 'splice', file: 'a.txt', edit: null, ...textDelta('smile 😀 here\n', 'smile 😁 here\n') });
  // nothing left to do once settled
  assert.deepEqual(new AppliedFiles({ 'a.txt': 'x\n' }).settle({ 'a.txt': 'x\n' }), []);
});
