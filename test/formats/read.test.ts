// applyRead (src/formats/index.ts): the result of applyRequest with the
// edits it was made from, one per result edit and in the same order, so
// that what follows need not parse the reply again.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { applyRead, applyRequest, getFormat } from '../../src/formats/index.ts';

const APP = 'def f():\n    return 1\n\ndef g():\n    return 2\n';
const LN = 'app.py\n<editblock>\n<<<<<<< REMOVE\n2│    return 1\n=======\n │    return 0\n>>>>>>> INSERT\n</editblock>\n\napp.py\n<editblock>\n<<<<<<< REMOVE\n5│    return 9\n=======\n │    return 3\n>>>>>>> INSERT\n</editblock>\n';

test('the result is applyRequest\'s, and edits[i] is the parsed edit of result.edits[i]', () => {
  for (const format of ['ln-diff', 'auto']) {
    const request = { format, files: { 'app.py': APP }, response: LN };
    const { result, edits } = applyRead(request);
    assert.deepEqual(result, applyRequest(request));
    assert.equal(edits.length, result.edits.length);
    assert.deepEqual(edits, getFormat('ln-diff')!.parse(LN, { files: ['app.py'] }).edits);
    assert.deepEqual(edits[1].old, ['    return 9']);
    assert.equal(result.edits[1].status, 'failed');
  }
});

test('a reply mixing formats: each result edit gets the edit its own format read, in reply order', () => {
  const search = 'app.py\n```python\n<<<<<<< SEARCH\n    return 2\n=======\n    return 4\n>>>>>>> REPLACE\n```\n';
  const first = LN.slice(0, LN.indexOf('\n\n') + 2);
  const { result, edits } = applyRead({ format: 'auto', files: { 'app.py': APP }, response: first + search });
  assert.deepEqual(result.detection?.formats, ['ln-diff', 'search-replace']);
  assert.deepEqual(result.edits.map((e) => e.format), ['ln-diff', 'search-replace']);
  assert.deepEqual(
    edits.map((e) => e.old),
    [['    return 1'], ['    return 2']],
  );
  assert.deepEqual(edits.map((e) => e.new), [['    return 0'], ['    return 4']]);
});

test('no edit read: no edits', () => {
  const { result, edits } = applyRead({ format: 'auto', files: { 'app.py': APP }, response: 'Nothing to change.' });
  assert.equal(result.edits.length, 0);
  assert.deepEqual(edits, []);
});
