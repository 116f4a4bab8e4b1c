import { test } from 'node:test';
import assert from 'node:assert/strict';
import { applyRequest } from '../../../src/formats/index.ts';
import { roo } from '../../../src/formats/roo/index.ts';

// A REPLACE that quotes tool-call lines (`</content>`, `<path>a.txt</path>`):
// a reply cut inside that block must leave the complete block before it where
// it was, in its own file, and never rename it after the quoted path.
test('a quoted <path> line in a cut block never moves the complete blocks before it', () => {
  const files = { 'src/b.ts': '\n=======', 'x/README.md': '' };
  const after = 'consttotal = compute(0, options);\n\n</content>\n<path>a.txt</path>';
  const reply = roo.write([{ file: 'src/b.ts', before: files['src/b.ts'], after }]);
  const full = applyRequest({ format: 'roo', files, response: reply });
  assert.deepEqual(full.files['src/b.ts'], after);
  const firstEnd = reply.indexOf('>>>>>>> REPLACE\n') + '>>>>>>> REPLACE\n'.length;
  for (let cut = firstEnd; cut < reply.length; cut++) {
    const r = applyRequest({ format: 'roo', files, response: reply.slice(0, cut) });
    assert.equal(r.edits[0].file, 'src/b.ts', `cut at ${cut}: ${JSON.stringify(reply.slice(cut - 20, cut))}`);
    assert.equal(r.edits[0].status, 'applied', `cut at ${cut}`);
  }
});
