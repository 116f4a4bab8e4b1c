// `auto` picks the format of every spec example that has edits.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { specFiles } from '../../src/examples/load.ts';
import { applyRequest } from '../../src/formats/index.ts';

for (const spec of specFiles()) {
  describe(`auto on spec/${spec.path}`, () => {
    const examples = spec.examples.filter(
      (ex) => ex.expected.edits.length > 0 && ex.format !== 'auto' && !ex.expected.diagnostics.includes('mixed-formats'),
    );
    it(`detects the page's format on its ${examples.length} examples with edits`, () => {
      const wrong = examples
        .map((ex) => ({ ex, r: applyRequest({ format: 'auto', files: ex.files, response: ex.reply }) }))
        .filter(({ ex, r }) => r.format !== ex.format || (r.detection?.formats?.length ?? 1) > 1)
        .map(({ ex, r }) => `example ${ex.number}: ${r.format} (${r.detection?.reason})`);
      assert.deepEqual(wrong, []);
    });
  });
}

describe('auto in a request', () => {
  it('reports what it detected and why', () => {
    const r = applyRequest({
      format: 'auto',
      files: { 'a.py': 'x = 1\n' },
      response: 'a.py\n```\n<<<<<<< SEARCH\nx = 1\n=======\nx = 2\n>>>>>>> REPLACE\n```\n',
    });
    assert.equal(r.format, 'search-replace');
    assert.equal(r.detection?.format, 'search-replace');
    assert.match(r.detection?.reason ?? '', /SEARCH/);
    assert.equal(r.files['a.py'], 'x = 2\n');
  });

  it('falls back to ln-diff, and says so, when nothing is recognised', () => {
    const r = applyRequest({ format: 'auto', files: {}, response: 'Just prose.\n' });
    assert.equal(r.format, 'ln-diff');
    assert.match(r.detection?.reason ?? '', /no format recognised/);
    assert.equal(r.ok, true);
    assert.deepEqual(r.edits, []);
  });
});
