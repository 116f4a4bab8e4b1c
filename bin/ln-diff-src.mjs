#!/usr/bin/env node
// The ln-diff command run from the TypeScript sources through tsx, with no
// build: for working on the command in a checkout, and the "before" of
// bench/cli.bench.ts. Not published (the package's command is
// bin/ln-diff.cjs over the bundled lib/cli/main.cjs); compiling every module
// at start makes a run several times slower.
import { fileURLToPath } from 'node:url';
import { register } from 'tsx/esm/api';

// The repository's own tsconfig, never the one in the caller's cwd.
register({ tsconfig: fileURLToPath(new URL('../tsconfig.json', import.meta.url)) });

// A closed pipe (`ln-diff … | head`) is not an error worth a stack trace.
process.stdout.on('error', (err) => {
  if (err.code === 'EPIPE') process.exit(process.exitCode ?? 0);
  throw err;
});

const { main } = await import(new URL('../src/cli/main.ts', import.meta.url).href);
process.exitCode = await main(process.argv.slice(2));
