#!/usr/bin/env node
// The ln-diff command: the CLI compiled and bundled into one CommonJS file,
// lib/cli/main.cjs (`npm run build:lib` writes it; `npm pack` runs that
// first). It is compiled with V8's code cache, lib/cli/main.cjs.cache, which
// build:lib writes for the Node.js that built it. The tarball does not carry
// it (a cache serves one Node.js version only): a run that finds none, or
// one its Node.js rejects, compiles as usual and then leaves a cache for
// the Node.js running it, when it may write there. In a checkout,
// bin/ln-diff-src.mjs runs the same command from the TypeScript sources,
// with no build.
'use strict';

const { readFileSync, renameSync, unlinkSync, writeFileSync } = require('node:fs');
const { join } = require('node:path');
const Module = require('node:module');
const vm = require('node:vm');

const FILE = join(__dirname, '..', 'lib', 'cli', 'main.cjs');

/** Compile and run lib/cli/main.cjs (with its code cache when there is one); its exports and the compiled script. */
function load() {
  // The bundle is ASCII (scripts/build-cli.mjs makes it so): read as Latin-1, the same text, copied rather than decoded.
  const source = readFileSync(FILE, 'latin1');
  let cachedData;
  try {
    cachedData = readFileSync(`${FILE}.cache`);
  } catch {
    cachedData = undefined;
  }
  const script = new vm.Script(Module.wrap(source), { filename: FILE, cachedData });
  const module = { exports: {} };
  script.runInThisContext().call(module.exports, module.exports, Module.createRequire(FILE), module, FILE, join(FILE, '..'));
  return { script, exports: module.exports, cached: cachedData !== undefined && !script.cachedDataRejected };
}

/** Leave the script's code cache for the next run (written whole, then renamed into place); nothing when the directory cannot be written. */
function saveCache(script) {
  const tmp = `${FILE}.cache.${process.pid}.tmp`;
  try {
    writeFileSync(tmp, script.createCachedData());
    renameSync(tmp, `${FILE}.cache`);
  } catch {
    try {
      unlinkSync(tmp);
    } catch {}
  }
}

if (require.main === module) {
  let loaded;
  try {
    loaded = load();
  } catch (err) {
    if (err?.code !== 'ENOENT' || err.path !== FILE) throw err;
    process.stderr.write('ln-diff: lib/cli/main.cjs is missing: run `npm run build:lib` (or run bin/ln-diff-src.mjs)\n');
    process.exit(3);
  }
  loaded.exports.main(process.argv.slice(2)).then((code) => {
    process.exitCode = code;
    if (!loaded.cached) saveCache(loaded.script);
    // Once the command is done and nothing is left for the event loop (no
    // handle, request or timer: the output went out with synchronous writes)
    // nor for a 'beforeExit' listener, Node.js would only tear the process
    // down: free the heap page by page, run its cleanup. process.exit() ends
    // it at once, with the same exit code and 'exit' event, and spares that
    // (about 10 ms of CPU after apply --json on a 1 MB file).
    setImmediate(() => {
      if (process.getActiveResourcesInfo().length === 0 && process.listenerCount('beforeExit') === 0) process.exit(code);
    });
  });
} else {
  module.exports = { load, FILE };
}
