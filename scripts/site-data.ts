// Data files the site serves, generated from the spec before every build:
// - public/conformance.json: every example as a request/expected pair;
// - public/examples.json: the playground's examples menu, drawn from the spec.
// Usage: node --import tsx scripts/site-data.ts

import { mkdirSync, writeFileSync } from 'node:fs';
import { specFiles } from '../src/examples/load.ts';
import { applyRequest } from '../src/formats/index.ts';
import type { SpecExample } from '../src/examples/extract.ts';
import type { ApplyResult } from '../src/core/types.ts';

const out = new URL('../public/', import.meta.url);
mkdirSync(out, { recursive: true });

const specs = specFiles();
const run = (ex: SpecExample): ApplyResult =>
  applyRequest({ format: ex.format, files: ex.files, response: ex.reply, ...(ex.options ? { options: ex.options } : {}) });

// The examples menu: one example per situation worth seeing, then one per format.
const picks: { title: string; test: (ex: SpecExample, r: ApplyResult) => boolean }[] = [
  { title: 'Exact match', test: (_, r) => r.edits.length === 1 && r.edits[0].match === 'exact' && r.edits[0].kind === 'replace' },
  { title: 'Off by one line', test: (_, r) => r.edits.length === 1 && r.edits[0].match === 'offset' && Math.abs(r.edits[0].offset ?? 0) === 1 },
  { title: 'Trailing whitespace', test: (_, r) => r.edits.length === 1 && r.edits[0].match === 'whitespace' },
  { title: 'Fuzzy match', test: (_, r) => r.edits.length === 1 && r.edits[0].match === 'fuzzy' },
  { title: 'No match', test: (_, r) => r.edits.length === 1 && r.edits[0].code === 'no-match' },
  { title: 'Ambiguous', test: (_, r) => r.edits.length === 1 && r.edits[0].code === 'ambiguous' },
  { title: 'Overlapping edits', test: (_, r) => r.edits.some((e) => e.code === 'overlap') },
  { title: 'Several files', test: (ex, r) => Object.keys(ex.files).length >= 2 && r.ok && r.edits.length >= 2 },
  { title: 'CRLF line endings', test: (ex, r) => Object.values(ex.files).some((t) => t.includes('\r\n')) && r.ok },
  { title: 'Truncated reply', test: (_, r) => r.edits.some((e) => e.code === 'truncated') },
  { title: 'New file', test: (ex, r) => r.ok && r.edits.length === 1 && Object.keys(ex.files).length === 0 },
];
const menu: { id: string; title: string; session: unknown }[] = [];
const lnDiff = specs.find((s) => s.path === 'ln-diff.md');
for (const pick of picks) {
  const ex = lnDiff?.examples.find((e) => pick.test(e, run(e)));
  if (ex) menu.push({ id: `ln-diff-${ex.number}`, title: `ln-diff: ${pick.title}`, session: session(ex) });
}
for (const spec of specs.filter((s) => s.path.startsWith('formats/'))) {
  const ex = spec.examples.find((e) => run(e).ok && run(e).edits.length > 0);
  if (ex) menu.push({ id: `${spec.format}-${ex.number}`, title: `${spec.format}: ${ex.section}`, session: session(ex) });
}
writeFileSync(new URL('examples.json', out), JSON.stringify(menu, null, 1) + '\n');

function session(ex: SpecExample) {
  return {
    format: ex.format,
    files: Object.entries(ex.files).map(([name, text]) => ({ name, text })),
    reply: ex.reply,
    ...(ex.options ? { options: ex.options } : {}),
  };
}
console.log(`wrote public/examples.json (${menu.length} examples)`);
