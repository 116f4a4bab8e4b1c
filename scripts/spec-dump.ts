// Write every spec example as a JSON conformance suite: one request (the
// CLI's `apply --json` input) and one expected result per example.
// Usage: npm run spec:dump [-- OUTPUT]   (default public/conformance.json)

import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { specFiles } from '../src/examples/load.ts';

const out = resolve(process.argv[2] ?? 'public/conformance.json');
const pkg = (await import('../package.json', { with: { type: 'json' } })).default;
const cases = specFiles().flatMap((spec) =>
  spec.examples.map((ex) => ({
    id: `${spec.path.replace(/\.md$/, '')}#example-${ex.number}`,
    spec: `spec/${spec.path}`,
    example: ex.number,
    section: ex.section,
    request: { format: ex.format, files: ex.files, response: ex.reply, ...(ex.options ? { options: ex.options } : {}) },
    expected: {
      ok: ex.expected.ok,
      files: ex.expected.files,
      edits: ex.expected.edits.map((e) => ({ status: e.status, ...e.fields })),
      diagnostics: ex.expected.diagnostics,
    },
  })),
);
mkdirSync(dirname(out), { recursive: true });
writeFileSync(
  out,
  JSON.stringify(
    {
      description:
        'ln-diff conformance suite: run each request through `ln-diff apply --json` (or your implementation) and compare. Only the edit fields listed in each expectation are checked; files are compared byte for byte.',
      version: pkg.version,
      cases,
    },
    null,
    2,
  ) + '\n',
);
console.log(`wrote ${cases.length} cases to ${out}`);
