// Print one closing line "N passed, N failed" from the test runners' logs.
import { readFileSync } from 'node:fs';

const log = readFileSync(process.argv[2] ?? 'reports/test.log', 'utf8');
let passed = 0;
let failed = 0;
for (const m of log.matchAll(/^ℹ pass (\d+)$/gm)) passed += Number(m[1]);
for (const m of log.matchAll(/^ℹ fail (\d+)$/gm)) failed += Number(m[1]);
// Playwright's list reporter: "  12 passed (8.7s)", "  1 failed".
for (const m of log.matchAll(/^\s+(\d+) passed \(/gm)) passed += Number(m[1]);
for (const m of log.matchAll(/^\s+(\d+) failed$/gm)) failed += Number(m[1]);
console.log(`${passed} passed, ${failed} failed`);
