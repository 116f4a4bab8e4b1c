// A reply that edits a path not given, when one given file has its name:
// the edit fails with file-not-found in every format, and the message names
// that file ("did you mean core.ts?") instead of advising to create the path
// the reply wrote (src/core/paths.ts, `GivenPaths.meant`).

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { applyRequest, formats } from '../../src/formats/index.ts';

const GIVEN = 'core.ts';
const WRITTEN = 'src/v4/core/core.ts';
const TEXT = 'export const a = 1;\nexport const b = 2;\nexport const c = 3;\nexport const d = 4;\nexport const e = 5;\n';
const AFTER = 'export const a = 1;\nexport const b = 2;\nexport const c = 30;\nexport const d = 4;\nexport const e = 5;\n';

describe('did you mean: a path not given, with a given file of its name', () => {
  // whole writes a file whole (a new file): it edits no file that must exist.
  for (const format of formats.filter((f) => !f.wholeFiles)) {
    it(format.name, () => {
      const reply = format.write([{ file: WRITTEN, before: TEXT, after: AFTER }]);
      const result = applyRequest({ format: format.name, files: { [GIVEN]: TEXT }, response: reply });
      const failed = result.edits.filter((e) => e.code === 'file-not-found');
      assert.equal(failed.length, 1, JSON.stringify(result.edits.map((e) => [e.status, e.code, e.message])));
      assert.match(failed[0].message, /is not among the files given \(core\.ts\); did you mean core\.ts\? write its path exactly as given$/);
      assert.doesNotMatch(failed[0].message, /create/);
      assert.equal(failed[0].meant, GIVEN, 'and says it as data');
      assert.equal(result.files[GIVEN], TEXT, 'the given file is unchanged');
    });
  }
  it('a path with no given file of its name is still advised how to create it', () => {
    const ln = formats.find((f) => f.name === 'ln-diff')!;
    const result = applyRequest({ format: 'ln-diff', files: { [GIVEN]: TEXT }, response: ln.write([{ file: 'src/other.ts', before: TEXT, after: AFTER }]) });
    assert.match(result.edits[0].message, /is not among the files given \(core\.ts\); to create it, leave the lines to remove empty$/);
    assert.equal(result.edits[0].meant, undefined);
  });
});
