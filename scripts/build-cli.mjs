// Build the command: src/cli/main.ts bundled into one CommonJS file for
// Node.js (lib/cli/main.cjs; `bench` and `conformance`, each loaded only for
// that subcommand, in lib/cli/bench.cjs and lib/cli/conformance.cjs), then
// V8's code cache for main.cjs
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

/**
 * The command's modules loaded only for one subcommand, each bundled on its
 * own (`outDir/<name>.cjs`) and left out of main.cjs: `apply` neither reads
 * nor compiles them. main.ts loads one with `await import('./<name>.ts')`.
 */
const LAZY = ['bench', 'conformance', 'mcp'];

/** Bundle the command into `outDir/main.cjs` and each lazy subcommand into `outDir/<name>.cjs` (`import.meta.url` is each file's own URL). */
export function bundleCli(outDir) {
  mkdirSync(outDir, { recursive: true });
  const common = {
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    charset: 'ascii',
    define: { 'import.meta.url': '__ln_diff_url' },
    banner: { js: "var __ln_diff_url = require('node:url').pathToFileURL(__filename).href;" },
    logLevel: 'warning',
    write: false,
  };
  const builds = [
    buildSync({ ...common, entryPoints: [join(ROOT, 'src/cli/main.ts')], outfile: join(outDir, 'main.cjs'), external: LAZY.map((name) => `./${name}.ts`) }),
    ...LAZY.map((name) => buildSync({ ...common, entryPoints: [join(ROOT, `src/cli/${name}.ts`)], outfile: join(outDir, `${name}.cjs`) })),
  ];
  for (const { outputFiles } of builds)
    for (const f of outputFiles) {
      let text = f.text;
      // main.cjs imports each lazy module by its source name: require its bundle instead (a dynamic
      // import() would need a module loader that bin/ln-diff.cjs's vm.Script does not have).
      for (const name of LAZY) {
        const from = `import("./${name}.ts")`;
        const count = text.split(from).length - 1;
        if (f.path.endsWith('main.cjs') && count !== 1) throw new Error(`main.cjs should import ./${name}.ts once, not ${count} times`);
        text = text.replaceAll(from, `Promise.resolve().then(() => require("./${name}.cjs"))`);
      }
      writeFileSync(f.path, asciiOnly(text));
    }
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
