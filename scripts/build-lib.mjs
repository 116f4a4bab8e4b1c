// Build the library's JavaScript: src/index.ts and everything it imports,
// bundled by esbuild into one ES module, lib/index.js (tsc writes only the
// declarations, tsconfig.lib.json, which hold every doc comment). One
// minified file is half the size of one file per module in the tarball
// (66 kB against 130 kB compressed). `diff`, the one runtime dependency,
// stays an import. `npm run build:lib` runs this.
//
// The declarations tsc writes for every module the sources reach are then
// pruned to those the library's types reach from lib/index.d.ts (following
// their imports): the others describe modules the package does not export
// (a third of the tarball's declarations, compressed, were the public ones).
//
// Usage: node scripts/build-lib.mjs [OUT_DIR]   (default lib)

import { existsSync, readFileSync, readdirSync, rmSync, rmdirSync } from 'node:fs';
import { dirname, join, normalize, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { buildSync } from 'esbuild';

const ROOT = fileURLToPath(new URL('../', import.meta.url));

export function bundleLibrary(outDir) {
  buildSync({
    absWorkingDir: ROOT,
    entryPoints: [join(ROOT, 'src/index.ts')],
    outfile: join(outDir, 'index.js'),
    bundle: true,
    format: 'esm',
    platform: 'neutral',
    target: 'es2023',
    external: ['diff'],
    minify: true,
    legalComments: 'none',
    logLevel: 'warning',
  });
}

/** The `.d.ts` files under `outDir` that `index.d.ts` reaches through relative imports (`from './x.js'`, `import('./x.js')`). */
export function reachedDeclarations(outDir) {
  const seen = new Set();
  const stack = [join(outDir, 'index.d.ts')];
  while (stack.length > 0) {
    const file = stack.pop();
    if (seen.has(file) || !existsSync(file)) continue;
    seen.add(file);
    for (const m of readFileSync(file, 'utf8').matchAll(/(?:\bfrom|\bimport)\s*\(?\s*['"](\.\.?\/[^'"]+)['"]/g)) {
      const target = normalize(join(dirname(file), m[1]));
      stack.push(target.endsWith('.js') ? target.slice(0, -3) + '.d.ts' : target.endsWith('.d.ts') ? target : target + '.d.ts');
    }
  }
  return seen;
}

/** Remove the declarations `index.d.ts` does not reach, and the folders left empty. */
export function pruneDeclarations(outDir) {
  const keep = reachedDeclarations(outDir);
  const walk = (dir) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) {
        walk(path);
        if (readdirSync(path).length === 0) rmdirSync(path);
      } else if (entry.name.endsWith('.d.ts') && !keep.has(path)) rmSync(path);
    }
  };
  walk(outDir);
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  const out = resolve(process.argv[2] ?? join(ROOT, 'lib'));
  bundleLibrary(out);
  pruneDeclarations(out);
}
