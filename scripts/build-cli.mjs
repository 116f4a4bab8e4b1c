// Build the command: src/cli/main.ts bundled into one CommonJS file for
// Node.js (lib/cli/main.cjs), then V8's code cache for it
// (lib/cli/main.cjs.cache), made by running the command once on a small
// request so that the functions a run needs are in it. `npm run build:lib`
// runs this; test/cli/helpers.ts builds the same way into a temporary
// directory.
//
// Usage: node scripts/build-cli.mjs [OUT_DIR]   (default lib/cli)

import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { buildSync } from 'esbuild';

const ROOT = fileURLToPath(new URL('../', import.meta.url));

/** Bundle the command into `outDir/main.cjs` (`import.meta.url` is the file's own URL). */
export function bundleCli(outDir) {
  mkdirSync(outDir, { recursive: true });
  const { outputFiles } = buildSync({
    entryPoints: [join(ROOT, 'src/cli/main.ts')],
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    charset: 'ascii',
    outfile: join(outDir, 'main.cjs'),
    define: { 'import.meta.url': '__ln_diff_url' },
    banner: { js: "var __ln_diff_url = require('node:url').pathToFileURL(__filename).href;" },
    logLevel: 'warning',
    write: false,
  });
  for (const f of outputFiles) writeFileSync(f.path, asciiOnly(f.text));
}

/**
 * The bundle with no character outside ASCII, so that V8 holds its source as
 * one byte a character (half the memory, and faster to read and scan than
 * two). esbuild's `charset: 'ascii'` escapes strings, templates and names but
 * leaves regular expression literals as written: there each character left is
 * written as `\uXXXX` (per UTF-16 unit: a surrogate pair stays one code point
 * under the `u` flag), and a backslash before it (an identity escape, the
 * character itself) is dropped.
 */
export function asciiOnly(code) {
  const out = code.replace(/(\\*)([^\x00-\x7f])/g, (_, slashes, ch) => {
    const escape = `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`;
    return (slashes.length % 2 === 1 ? slashes.slice(1) : slashes) + escape;
  });
  if (!/^[\x00-\x7f]*$/.test(out)) throw new Error('the bundle is not ASCII');
  return out;
}

/** A run of the command, through `bin` (bin/ln-diff.cjs), that leaves its code cache next to the bundle. */
export function writeCodeCache(bin) {
  const request = JSON.stringify({
    format: 'udiff',
    files: { 'a.txt': 'one\ntwo\nthree\nfour\nfive\n' },
    response: '--- a/a.txt\n+++ b/a.txt\n@@ -1,5 +1,5 @@\n one\n two\n-three\n+THREE\n four\n five\n',
  });
  const child = `
    const { writeFileSync } = require('node:fs');
    const { load, FILE } = require(${JSON.stringify(bin)});
    const { script, exports } = load();
    exports.main(['apply', '--json']).then(() => writeFileSync(FILE + '.cache', script.createCachedData()));
  `;
  const run = spawnSync(process.execPath, ['-e', child], { input: request, encoding: 'utf8' });
  if (run.status !== 0 || !run.stdout.includes('"ok":true')) throw new Error(`the command did not run: ${run.stderr || run.stdout}`);
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  const out = resolve(process.argv[2] ?? join(ROOT, 'lib/cli'));
  bundleCli(out);
  writeCodeCache(join(ROOT, 'bin/ln-diff.cjs'));
}
