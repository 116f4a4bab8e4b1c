// Spawn the real `ln-diff` command, the way users and outside checks do:
// the compiled command, laid out as installing the packed tarball lays it out, but
// built from the sources as they are when the test starts (never a stale
// lib/). test/package runs the one from the packed tarball.

import { spawnSync } from 'node:child_process';
import { chmodSync, copyFileSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { bundleCli, writeCodeCache } from '../../scripts/build-cli.mjs';

export const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/**
 * The command, built once per test process into a temporary directory the
 * way `npm run build:lib` builds it (scripts/build-cli.mjs: lib/cli/main.cjs
 * and its code cache), next to copies of bin/ln-diff.cjs and package.json.
 * It starts several times faster than the sources through tsx
 * (bin/ln-diff-src.mjs), and building it takes a fraction of a second.
 */
function buildCommand(): string {
  const dir = mkdtempSync(join(tmpdir(), 'ln-diff-bin-'));
  chmodSync(dir, 0o755); // some tests run it as another user
  process.on('exit', () => rmSync(dir, { recursive: true, force: true }));
  bundleCli(join(dir, 'lib/cli'));
  mkdirSync(join(dir, 'bin'));
  copyFileSync(join(ROOT, 'bin/ln-diff.cjs'), join(dir, 'bin/ln-diff.cjs'));
  copyFileSync(join(ROOT, 'package.json'), join(dir, 'package.json'));
  writeCodeCache(join(dir, 'bin/ln-diff.cjs'));
  return join(dir, 'bin/ln-diff.cjs');
}

export const BIN = buildCommand();

export interface Run {
  status: number | null;
  stdout: string;
  stderr: string;
}

/** A user to run the CLI as (needs root): ids only. */
export interface User {
  uid: number;
  gid: number;
}

export interface RunOptions {
  input?: string | Buffer;
  cwd?: string;
  env?: NodeJS.ProcessEnv;
  /** Run as this user (with no supplementary groups); the test process must be root. */
  user?: User;
  /** Node options before the binary (`--import` a module that stops the run part way). */
  node?: string[];
}

export function run(args: string[], opts: RunOptions = {}): Run {
  const env = { ...process.env, ...opts.env };
  // The child loads only what the command loads, however the test runner was started.
  delete env.NODE_OPTIONS;
  const r = spawnSync(process.execPath, [...(opts.node ?? []), BIN, ...args], {
    input: opts.input ?? '',
    cwd: opts.cwd ?? ROOT,
    env,
    encoding: 'utf8',
    timeout: 60_000,
    ...(opts.user ? { uid: opts.user.uid, gid: opts.user.gid } : {}),
  });
  if (r.error) throw r.error;
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** A reply with one ln-diff editblock: `remove` as [lineNumber, text] pairs, `insert` as texts. */
export function block(path: string, remove: [number, string][], insert: string[]): string {
  const width = Math.max(1, ...remove.map(([n]) => String(n).length));
  return [
    path,
    '<editblock>',
    '<<<<<<< REMOVE',
    ...remove.map(([n, t]) => `${String(n).padStart(width)}│${t}`),
    '=======',
    ...insert.map((t) => `${' '.repeat(width)}│${t}`),
    '>>>>>>> INSERT',
    '</editblock>',
    '',
  ].join('\n');
}

export function tempDir(t: { after(fn: () => void): void }, prefix = 'ln-diff-cli-'): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/** stderr is exactly one `ln-diff: …` line. */
export function oneErrorLine(stderr: string): string {
  const lines = stderr.split('\n');
  if (lines.length !== 2 || lines[1] !== '' || !lines[0].startsWith('ln-diff: '))
    throw new Error(`expected one "ln-diff: …" line on stderr, got ${JSON.stringify(stderr)}`);
  return lines[0];
}
