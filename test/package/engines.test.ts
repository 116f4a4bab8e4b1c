// The Node.js versions the README states agree with what the installed
// packages ask for: the version it gives for working on the repository
// satisfies the `engines.node` of every package in node_modules (so `npm
// install` on it warns of no EBADENGINE), and the published package's own
// `engines.node` (the version the README gives for the library and the
// command) satisfies that of every package it depends on at run time.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const semver = createRequire(join(ROOT, 'package.json'))('semver') as {
  satisfies(version: string, range: string, options?: { includePrerelease?: boolean }): boolean;
  minVersion(range: string): { version: string } | null;
  validRange(range: string): string | null;
};

interface Manifest {
  name: string;
  version: string;
  engines?: { node?: string };
  dependencies?: Record<string, string>;
}

const readManifest = (dir: string): Manifest | null => {
  try {
    return JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as Manifest;
  } catch {
    return null;
  }
};

/** Every package installed under `dir` (node_modules), nested ones too, with the directory it is in. */
function installed(dir: string, out: { dir: string; manifest: Manifest }[] = []): { dir: string; manifest: Manifest }[] {
  for (const name of readdirSync(dir)) {
    if (name.startsWith('.')) continue;
    const at = join(dir, name);
    if (name.startsWith('@')) {
      installed(at, out);
      continue;
    }
    const manifest = readManifest(at);
    if (manifest?.name) out.push({ dir: at, manifest });
    if (existsSync(join(at, 'node_modules'))) installed(join(at, 'node_modules'), out);
  }
  return out;
}

const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
const own = readManifest(ROOT)!;

/** The packages in `list` whose engines.node the Node.js version `version` does not satisfy. */
const refusing = (list: { manifest: Manifest }[], version: string) =>
  list
    .filter(({ manifest: m }) => typeof m.engines?.node === 'string' && semver.validRange(m.engines.node) !== null)
    .filter(({ manifest: m }) => !semver.satisfies(version, m.engines!.node!, { includePrerelease: true }))
    .map(({ manifest: m }) => `${m.name}@${m.version} (node ${m.engines!.node})`);

test('the Node.js version the README gives for working on the repository satisfies every installed package', () => {
  const stated = /On a fresh machine with Node\.js (\d+\.\d+) or newer/.exec(readme)?.[1];
  assert.ok(stated, 'README states the Node.js version for npm install');
  const packages = installed(join(ROOT, 'node_modules'));
  assert.ok(packages.length > 100, `${packages.length} packages found`);
  assert.deepEqual(refusing(packages, `${stated}.0`), []);
  // The check can fail: Node.js 20.19 is refused by some of them.
  assert.notDeepEqual(refusing(packages, '20.19.0'), []);
});

test('the published package asks for the Node.js the README gives for the library, and its dependencies run on it', () => {
  const range = own.engines?.node;
  assert.ok(range, 'package.json has engines.node');
  const min = semver.minVersion(range)!.version;
  const stated = /for Node\.js (\d+\.\d+) or newer and\s+for bundlers/.exec(readme)?.[1];
  assert.equal(`${stated}.0`, min, 'README (Library) and engines.node name the same minimum');
  assert.match(readme, new RegExp(`the \`ln-diff\` command need only Node\\.js ${stated!.replace('.', '\\.')}`));
  // The run-time dependencies, and theirs, as installed.
  const seen = new Map<string, Manifest>();
  const visit = (name: string, from: string) => {
    let dir = from;
    for (;;) {
      const at = join(dir, 'node_modules', name);
      const m = readManifest(at);
      if (m) {
        if (seen.has(at)) return;
        seen.set(at, m);
        for (const dep of Object.keys(m.dependencies ?? {})) visit(dep, at);
        return;
      }
      const up = join(dir, '..');
      assert.notEqual(up, dir, `${name} is installed`);
      dir = up.endsWith('node_modules') ? join(up, '..') : up;
    }
  };
  for (const dep of Object.keys(own.dependencies ?? {})) visit(dep, ROOT);
  assert.ok(seen.size >= 1);
  assert.deepEqual(refusing([...seen.values()].map((manifest) => ({ manifest })), min), []);
});
