// Write every spec example as the JSON conformance suite (spec/conformance.md):
// one request (the CLI's `apply --json` input) and the whole expected result
// per example.
// Usage: npm run spec:dump [-- OUTPUT]
// Without OUTPUT it writes spec/conformance.json (committed, versioned with
// the spec) and public/conformance.json (served by the site).

import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { currentSuite, SUITE_FILE, suiteText } from '../src/examples/suite.ts';

const outputs = process.argv[2] ? [resolve(process.argv[2])] : [fileURLToPath(SUITE_FILE), resolve('public/conformance.json')];
const suite = currentSuite();
const text = suiteText(suite);
for (const out of outputs) {
  mkdirSync(dirname(out), { recursive: true });
  writeFileSync(out, text);
}
console.log(`wrote ${suite.cases.length} cases to ${outputs.join(' and ')}`);
