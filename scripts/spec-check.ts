// Run the examples of the given markdown files (default: every spec page),
// compare each whole result (spec/conformance.md) and print each failure
// with its number, section, line and differences, whitespace visible.
// Usage: npm run spec:check [-- FILE.md ...]

import { readFileSync } from 'node:fs';
import { relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { compareResult, showMismatch } from '../src/examples/compare.ts';
import { expectedResult } from '../src/examples/expected.ts';
import { extractExamples } from '../src/examples/extract.ts';
import { pageFormat, SPEC_DIR, specFiles } from '../src/examples/load.ts';
import { applyRequest } from '../src/formats/index.ts';

const args = process.argv.slice(2);
const pages = args.length
  ? args.map((path) => {
      const text = readFileSync(path, 'utf8');
      // The page's name under spec/, for the fields src/examples/pending.ts adds.
      const page = relative(fileURLToPath(SPEC_DIR), resolve(path));
      return { path, page, examples: extractExamples(text, pageFormat(text)) };
    })
  : specFiles().map((s) => ({ path: `spec/${s.path}`, page: s.path, examples: s.examples }));

let passed = 0;
let failed = 0;
for (const page of pages) {
  for (const ex of page.examples) {
    let problems: string[];
    try {
      const result = applyRequest({ format: ex.format, files: ex.files, response: ex.reply, ...(ex.options ? { options: ex.options } : {}) });
      problems = compareResult(expectedResult(ex, page.page), JSON.parse(JSON.stringify(result))).flatMap(showMismatch);
    } catch (err) {
      problems = [(err as Error).message];
    }
    if (problems.length === 0) passed++;
    else {
      failed++;
      console.log(`✗ ${page.path}:${ex.line} example ${ex.number} (${ex.section})\n  ${problems.join('\n  ')}\n`);
    }
  }
}
console.log(`${passed} passed, ${failed} failed`);
process.exitCode = failed ? 1 : 0;
