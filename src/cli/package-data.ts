// The package's large data files: the bench's task suite and the
// conformance suite. A checkout has them as written (bench/tasks/suite.json,
// spec/conformance.json); the tarball carries them brotli-compressed in
// lib/data/ (written by scripts/build-cli.mjs), a quarter of the size, and
// they are decompressed here when read. node:zlib is loaded only then.

import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The package's root: two levels up from src/cli/ and from the bundles in lib/cli/ alike. */
const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** Where the tarball keeps a data file: `lib/data/<name>.br`. */
export const packedPath = (rel: string) => path.join(ROOT, 'lib', 'data', `${path.basename(rel)}.br`);

/**
 * A data file of the package by its path in a checkout (`rel`, from the
 * package's root), as UTF-8 text: the file itself when it is there, else its
 * compressed copy. Throws the first file's error when neither can be read.
 */
export function readPackageData(rel: string): string {
  try {
    return readFileSync(path.join(ROOT, rel), 'utf8');
  } catch (err) {
    let packed: Buffer;
    try {
      packed = readFileSync(packedPath(rel));
    } catch {
      throw err;
    }
    const zlib = process.getBuiltinModule('node:zlib') as typeof import('node:zlib');
    return zlib.brotliDecompressSync(packed).toString('utf8');
  }
}
