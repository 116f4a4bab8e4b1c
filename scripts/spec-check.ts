// Run the examples of the given markdown files (default: every spec page)
// and print each failure with its number, section and line.
// Usage: npm run spec:check [-- FILE.md ...]

import { readFileSync } from 'node:fs';
import { checkExample } from '../src/examples/check.ts';
import { extractExamples } from '../src/examples/extract.ts';
import { pageFormat, specFiles } from '../src/examples/load.ts';
import { applyRequest } from '../src/formats/index.ts';

const args = process.argv.slice(2);
const pages = args.length
  ? args.map((path) => {
      const text = readFileSync(path, 'utf8');
      return { path, examples: extractExamples(text, pageFormat(text)) };
    })
  : specFiles().map((s) => ({ path: `spec/${s.path}`, examples: s.examples }));

let passed = 0;
let failed = 0;
for (const page of pages) {
  for (const ex of page.examples) {
    const result = applyRequest({ format: ex.format, files: ex.files, response: ex.reply, ...(ex.options ? { options: ex.options } : {}) });
    const problems = checkExample(ex, result);
    if (problems.length === 0) passed++;
    else {
      failed++;
      console.log(`✗ ${page.path}:${ex.line} example ${ex.number} (${ex.section})\n  ${problems.join('\n  ')}\n`);
    }
  }
}
console.log(`${passed} passed, ${failed} failed`);
process.exitCode = failed ? 1 : 0;
