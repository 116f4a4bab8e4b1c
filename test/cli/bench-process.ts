// The built command (test/cli/helpers.ts) run as a child process that the
// test can talk to while it runs: `ln-diff bench` needs the test's own server
// to answer, so the test's event loop must keep going (no spawnSync). The
// package's run-time data (package.json "files": the prompts; and the suite,
// which the tarball carries compressed in lib/data/, as the checkout has it)
// is copied next to the built command, as installing the packed tarball lays it out.

import { spawn, type ChildProcess } from 'node:child_process';
import { cpSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { DATA } from '../../scripts/build-cli.mjs';
import { BIN, ROOT } from './helpers.ts';

const PACKAGE = dirname(dirname(BIN));

/** `dir/*.md` → the files it names (the one kind of pattern "files" uses); a plain path → itself. */
function expand(entry: string): string[] {
  const star = entry.lastIndexOf('*');
  if (star < 0) return [entry];
  const dir = dirname(entry);
  const [head, tail] = entry.slice(dir.length + 1).split('*');
  return readdirSync(join(ROOT, dir))
    .filter((name) => name.startsWith(head) && name.endsWith(tail))
    .map((name) => `${dir}/${name}`);
}

/** Every "files" entry of package.json besides the command and the library, copied into the built package. */
function copyPackageData(): void {
  const { files } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { files: string[] };
  for (const entry of files) {
    // The library, the command, and what "files" leaves out (`!…`) are not data.
    if (entry === 'lib' || entry.startsWith('bin/') || entry.startsWith('!')) continue;
    for (const file of expand(entry))
      cpSync(join(ROOT, file), join(PACKAGE, file), { recursive: true });
  }
  // The built command reads a data file as the checkout has it when it is there (src/cli/package-data.ts).
  for (const file of DATA) cpSync(join(ROOT, file), join(PACKAGE, file));
}
copyPackageData();

export interface Finished {
  status: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

export interface Running {
  child: ChildProcess;
  done: Promise<Finished>;
}

/** The variables a key could come from, removed so that only what a test sets is there. */
const KEY_VARIABLES = ['LN_DIFF_API_KEY', 'OPENAI_API_KEY', 'ANTHROPIC_API_KEY'];

/** Start `ln-diff ARGS` with the test's environment minus any key, plus `env`. */
export function start(args: string[], env: Record<string, string> = {}, cwd = ROOT): Running {
  const full: NodeJS.ProcessEnv = { ...process.env };
  delete full.NODE_OPTIONS;
  for (const k of KEY_VARIABLES) delete full[k];
  Object.assign(full, env);
  const child = spawn(process.execPath, [BIN, ...args], { cwd, env: full, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout!.setEncoding('utf8').on('data', (s: string) => (stdout += s));
  child.stderr!.setEncoding('utf8').on('data', (s: string) => (stderr += s));
  const done = new Promise<Finished>((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (status, signal) => resolve({ status, signal, stdout, stderr }));
  });
  return { child, done };
}

/** Run `ln-diff ARGS` to the end. */
export function runBench(args: string[], env: Record<string, string> = {}, cwd = ROOT): Promise<Finished> {
  return start(args, env, cwd).done;
}
