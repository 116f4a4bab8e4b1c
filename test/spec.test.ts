// Every numbered example of every spec page, run through the engine.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { checkExample } from '../src/examples/check.ts';
import { specFiles } from '../src/examples/load.ts';
import { applyRequest } from '../src/formats/index.ts';

for (const spec of specFiles()) {
  describe(`spec/${spec.path}`, () => {
    for (const example of spec.examples) {
      it(`example ${example.number} (${example.section}, spec/${spec.path}:${example.line})`, () => {
        const result = applyRequest({
          format: example.format,
          files: example.files,
          response: example.reply,
          ...(example.options ? { options: example.options } : {}),
        });
        const problems = checkExample(example, result);
        assert.equal(problems.length, 0, `\n${problems.join('\n')}`);
      });
    }
  });
}
