#!/usr/bin/env node
// The ln-diff command: the CLI compiled and bundled into one plain JavaScript
// module, lib/cli/main.js (`npm run build:lib` writes it; `npm pack` runs
// that first). In a checkout, bin/ln-diff-src.mjs runs the same command from
// the TypeScript sources, with no build.
import module from 'node:module';
import { fileURLToPath } from 'node:url';

// Node.js 22.1 and later keep the compiled code between runs (in the system's
// temporary directory; NODE_DISABLE_COMPILE_CACHE=1 turns it off).
module.enableCompileCache?.();

// A closed pipe (`ln-diff … | head`) is not an error worth a stack trace.
process.stdout.on('error', (err) => {
  if (err.code === 'EPIPE') process.exit(process.exitCode ?? 0);
  throw err;
});

const entry = new URL('../lib/cli/main.js', import.meta.url);
let main;
try {
  ({ main } = await import(entry.href));
} catch (err) {
  if (err?.code !== 'ERR_MODULE_NOT_FOUND' || !String(err.message).includes(fileURLToPath(entry))) throw err;
  process.stderr.write('ln-diff: lib/cli/main.js is missing: run `npm run build:lib` (or run bin/ln-diff-src.mjs)\n');
  process.exit(3);
}
process.exitCode = await main(process.argv.slice(2));
