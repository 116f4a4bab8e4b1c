import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { it } from 'node:test';
import { CODES, isCode, SEVERITY } from '../../src/core/diagnostics.ts';

const errorsPage = readFileSync(new URL('../../spec/errors.md', import.meta.url), 'utf8');

it('documents every code in spec/errors.md, and only those', () => {
  const documented = [...errorsPage.matchAll(/^\| `([a-z-]+)` \|/gm)].map((m) => m[1]);
  assert.deepEqual([...documented].sort(), [...CODES].sort());
});

it('recognises codes', () => {
  assert.equal(isCode('no-match'), true);
  assert.equal(isCode('nope'), false);
  assert.equal(isCode(3), false);
});

it('gives each code the severity spec/errors.md gives it', () => {
  const rows = [...errorsPage.matchAll(/^\| `([a-z-]+)` \| (error|warning|info) \|/gm)].map((m) => [m[1], m[2]]);
  assert.deepEqual(Object.fromEntries(rows), { ...SEVERITY });
});

it('every finding of every spec example has its code’s severity', async () => {
  const { specFiles } = await import('../../src/examples/load.ts');
  const { applyRequest } = await import('../../src/formats/index.ts');
  let seen = 0;
  for (const spec of specFiles()) {
    for (const ex of spec.examples) {
      const r = applyRequest({ format: ex.format, files: ex.files, response: ex.reply, ...(ex.options ? { options: ex.options } : {}) });
      for (const d of [...r.diagnostics, ...r.edits.flatMap((e) => e.warnings)]) {
        seen++;
        assert.equal(d.severity, SEVERITY[d.code], `spec/${spec.path} example ${ex.number}: ${d.code} is ${d.severity}`);
      }
    }
  }
  assert.ok(seen > 50, `only ${seen} findings seen`);
});
