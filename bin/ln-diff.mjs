#!/usr/bin/env node
// The ln-diff command. The CLI is TypeScript (src/cli/main.ts), loaded through tsx.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { register } from 'tsx/esm/api';

// Use the package's own tsconfig (when it ships one), never the one in the caller's cwd.
const tsconfig = fileURLToPath(new URL('../tsconfig.json', import.meta.url));
register({ tsconfig: existsSync(tsconfig) ? tsconfig : false });

// A closed pipe (`ln-diff … | head`) is not an error worth a stack trace.
process.stdout.on('error', (err) => {
  if (err.code === 'EPIPE') process.exit(process.exitCode ?? 0);
  throw err;
});

const { main } = await import(new URL('../src/cli/main.ts', import.meta.url).href);
process.exitCode = await main(process.argv.slice(2));
