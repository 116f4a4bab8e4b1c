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
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { brotliCompressSync, constants } from 'node:zlib';
import { join, relative, resolve, sep } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { buildSync } from 'esbuild';

const ROOT = fileURLToPath(new URL('../', import.meta.url));

/**
 * The command's modules loaded only for one subcommand, each bundled on its
 * own (`outDir/<name>.cjs`) and left out of main.cjs: `apply` neither reads
 * nor compiles them. main.ts loads one with `await import('./<name>.ts')`.
 */
const LAZY = ['bench', 'conformance', 'mcp'];

/**
 * Packages the MCP SDK imports that `ln-diff mcp` never runs, each replaced
 * by a stub that throws (scripts/stubs/): ajv and ajv-formats (checks of
 * answers to elicitation requests, which the server never sends), and
 * zod 3 and zod-to-json-schema (for zod 3 schemas; ours are zod 4: the
 * folder scripts/stubs/zod/ passes zod 4's entries on to the real ones).
 */
const ALIAS = {
  ajv: join(ROOT, 'scripts/stubs/ajv.cjs'),
  'ajv-formats': join(ROOT, 'scripts/stubs/ajv.cjs'),
  'zod-to-json-schema': join(ROOT, 'scripts/stubs/zod-to-json-schema.cjs'),
  zod: join(ROOT, 'scripts/stubs/zod'),
};

/** The name under which main.cjs exports the modules the lazy bundles take from it. */
const SHARED = '__ln_diff_shared';

/**
 * Bundle the command into `outDir/main.cjs` and each lazy subcommand into
 * `outDir/<name>.cjs` (`import.meta.url` is each file's own URL).
 *
 * A lazy bundle holds only the modules main.cjs does not: every module of
 * main.cjs it imports (the engine, disk mode, ...) is taken from main.cjs at
 * run time, the same instance, so the package carries the engine once. Such
 * a bundle is a function of main.cjs's table of modules (`SHARED`, each
 * module's namespace by its path from the package root), and main.cjs calls
 * it with that table when the subcommand is run. Every bundle is minified
 * (the tarball's size; V8 also reads a smaller script faster).
 */
export function bundleCli(outDir) {
  mkdirSync(outDir, { recursive: true });
  const common = {
    absWorkingDir: ROOT,
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    charset: 'ascii',
    minify: true,
    define: { 'import.meta.url': '__ln_diff_url' },
    banner: { js: "var __ln_diff_url = require('node:url').pathToFileURL(__filename).href;" },
    logLevel: 'warning',
    write: false,
  };
  const lazyExternal = LAZY.map((name) => `./${name}.ts`);
  const mainEntry = join(ROOT, 'src/cli/main.ts');
  // 1. Which modules main.cjs holds.
  const probe = buildSync({ ...common, entryPoints: [mainEntry], outfile: join(outDir, 'main.cjs'), external: lazyExternal, metafile: true });
  const inMain = Object.keys(probe.metafile.inputs).map((p) => resolve(ROOT, p));

  // 2. Each lazy module without them: esbuild leaves `require("<path from outDir>")` for each, read back here.
  const shared = new Set();
  const lazy = LAZY.map((name) => {
    const outfile = join(outDir, `${name}.cjs`);
    const { outputFiles } = buildSync({
      ...common,
      entryPoints: [join(ROOT, `src/cli/${name}.ts`)],
      outfile,
      external: inMain,
      alias: ALIAS,
    });
    let text = outputFiles[0].text.replace(/require\("([^"]+)"\)/g, (call, spec) => {
      if (!spec.startsWith('.')) return call;
      const key = relative(ROOT, resolve(outDir, spec)).split(sep).join('/');
      shared.add(key);
      return `${SHARED}[${JSON.stringify(key)}]`;
    });
    // The bundle becomes a function of main.cjs's table, returning its exports.
    text = `module.exports = function (${SHARED}) {\nvar module = { exports: {} }, exports = module.exports;\n${text}\nreturn module.exports;\n};\n`;
    return { path: outfile, text };
  });

  // 3. main.cjs, with the table of the modules the lazy bundles take from it.
  const keys = [...shared].sort();
  const entry = [
    `export * from ${JSON.stringify('./' + relative(ROOT, mainEntry).split(sep).join('/'))};`,
    ...keys.map((key, i) => `import * as m${i} from ${JSON.stringify('./' + key)};`),
    `export const ${SHARED} = { ${keys.map((key, i) => `${JSON.stringify(key)}: m${i}`).join(', ')} };`,
  ].join('\n');
  const main = buildSync({
    ...common,
    stdin: { contents: entry, resolveDir: ROOT, sourcefile: 'main-entry.ts', loader: 'ts' },
    outfile: join(outDir, 'main.cjs'),
    external: lazyExternal,
  });
  let text = main.outputFiles[0].text;
  // main.cjs imports each lazy module by its source name: require its bundle and give it the table
  // (a dynamic import() would need a module loader that bin/ln-diff.cjs's vm.Script does not have).
  for (const name of LAZY) {
    const from = `import("./${name}.ts")`;
    const count = text.split(from).length - 1;
    if (count !== 1) throw new Error(`main.cjs should import ./${name}.ts once, not ${count} times`);
    text = text.replaceAll(from, `Promise.resolve().then(() => require("./${name}.cjs")(module.exports.${SHARED}))`);
  }
  for (const f of [{ path: join(outDir, 'main.cjs'), text }, ...lazy]) writeFileSync(f.path, asciiOnly(f.text));
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

/**
 * The package's large data files (read by `bench` and `conformance` through
 * src/cli/package-data.ts), each written brotli-compressed (the best
 * quality, a 16 MB window) as `dataDir/<name>.br`: the tarball carries these
 * instead of the files themselves.
 */
export const DATA = ['bench/tasks/suite.json', 'spec/conformance.json'];

export function writePackageData(dataDir) {
  mkdirSync(dataDir, { recursive: true });
  for (const rel of DATA) {
    const bytes = readFileSync(join(ROOT, rel));
    const packed = brotliCompressSync(bytes, {
      params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_LGWIN]: 24, [constants.BROTLI_PARAM_SIZE_HINT]: bytes.length },
    });
    writeFileSync(join(dataDir, `${rel.split('/').pop()}.br`), packed);
  }
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
  writePackageData(join(out, '..', 'data'));
}
