// `ln-diff conformance --cmd "PROGRAM"`: run the conformance suite
// (spec/conformance.json) through any program that reads one request on
// stdin and prints one result on stdout, in the manner of toml-test. Each
// result is checked against spec/schema/result.schema.json and compared
// whole with the case's expectation (spec/conformance.md); each failure is
// printed with its differences, whitespace visible, then `N passed, N failed`.

import { readFileSync } from 'node:fs';
import { readPackageData } from './package-data.ts';
import { compareResult, showMismatch } from '../examples/compare.ts';
import { checkSchema, type Schema } from '../examples/schema.ts';
import type { SuiteCase } from '../examples/suite.ts';
import resultSchema from '../../spec/schema/result.schema.json' with { type: 'json' };
import { CliError, EXIT_FAILED, EXIT_OK } from './errors.ts';

export interface ConformanceCommand {
  /** A shell command line: run once per case, request on stdin, result on stdout. */
  cmd: string;
  /** The suite file; null: the suite next to the package (spec/conformance.json). */
  suite: string | null;
  /** Only cases whose request has this format (`auto` included). */
  format: string | null;
  /** Only cases of this spec page: `ln-diff`, `formats/udiff`, `spec/formats/udiff.md`… */
  page: string | null;
  /** Only cases with this example number (on every selected page). */
  example: number | null;
  /** Programs run at once. */
  jobs: number;
  /** Seconds a program may take on one case. */
  timeout: number;
}



/** What one run of the program gave. */
export interface Outcome {
  status: number | null;
  signal: string | null;
  stdout: string;
  stderr: string;
  timedOut: boolean;
  error?: string;
}

function loadSuite(path: string | null): SuiteCase[] {
  let text: string;
  try {
    // The package's suite: spec/conformance.json in a checkout, compressed in the tarball.
    text = path === null ? readPackageData('spec/conformance.json') : readFileSync(path, 'utf8');
  } catch (err) {
    const where = path ?? 'spec/conformance.json next to the package';
    throw new CliError(
      `cannot read the suite (${where}): ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}; pass --suite FILE (the site serves it at /conformance.json)`,
    );
  }
  let suite: unknown;
  try {
    suite = JSON.parse(text);
  } catch (err) {
    throw new CliError(`the suite is not JSON: ${(err as Error).message}`);
  }
  const cases = (suite as { cases?: unknown })?.cases;
  if (!Array.isArray(cases)) throw new CliError('the suite has no "cases" list');
  return cases as SuiteCase[];
}

/** The page part of a case's spec path: `spec/formats/udiff.md` → `formats/udiff`. */
function pageOf(c: SuiteCase): string {
  return c.spec.replace(/^spec\//, '').replace(/\.md$/, '');
}

export function selectCases(cases: readonly SuiteCase[], command: Pick<ConformanceCommand, 'format' | 'page' | 'example'>): SuiteCase[] {
  const page = command.page?.replace(/^\.?\/?(spec\/)?/, '').replace(/\.md$/, '') ?? null;
  return cases.filter(
    (c) =>
      (command.format === null || c.request.format === command.format) &&
      (page === null || pageOf(c) === page) &&
      (command.example === null || c.example === command.example),
  );
}

function runOnce(cmd: string, input: string, timeoutSeconds: number): Promise<Outcome> {
  return new Promise((resolve) => {
    // node:child_process (and the socket and stream modules it loads) only when the suite runs.
    const { spawn } = process.getBuiltinModule('node:child_process') as typeof import('node:child_process');
    const child = spawn(cmd, { shell: true, stdio: ['pipe', 'pipe', 'pipe'], detached: process.platform !== 'win32' });
    const stdout: Buffer[] = [];
    const stderr: Buffer[] = [];
    let timedOut = false;
    let error: string | undefined;
    const timer = setTimeout(() => {
      timedOut = true;
      // The whole process group: the shell and what it started.
      try {
        if (child.pid !== undefined && process.platform !== 'win32') process.kill(-child.pid, 'SIGKILL');
        else child.kill('SIGKILL');
      } catch {
        child.kill('SIGKILL');
      }
    }, timeoutSeconds * 1000);
    child.stdout.on('data', (d: Buffer) => stdout.push(d));
    child.stderr.on('data', (d: Buffer) => stderr.push(d));
    // A program that exits without reading all of stdin is its business, not an error here.
    child.stdin.on('error', () => {});
    child.on('error', (err) => (error = err.message));
    child.on('close', (status, signal) => {
      clearTimeout(timer);
      resolve({
        status,
        signal,
        stdout: Buffer.concat(stdout).toString('utf8'),
        stderr: Buffer.concat(stderr).toString('utf8'),
        timedOut,
        ...(error ? { error } : {}),
      });
    });
    child.stdin.end(input);
  });
}

function exitText(o: Outcome): string {
  if (o.timedOut) return 'it was stopped after the time limit';
  if (o.error) return `it could not be run: ${o.error}`;
  return o.signal ? `it was killed by ${o.signal}` : `it exited with status ${o.status}`;
}

function tail(text: string, lines = 5): string[] {
  const all = text.trimEnd().split('\n').filter((l) => l.trim() !== '');
  return all.slice(-lines);
}

/** Why the program's output is not the expected result: lines to print; empty when it passes. */
export function judge(c: SuiteCase, o: Outcome): string[] {
  const text = o.stdout.trim();
  let result: unknown;
  try {
    if (text === '') throw new Error('empty');
    result = JSON.parse(text);
  } catch {
    const out = [`no JSON result on stdout (${exitText(o)})`];
    if (text !== '') out.push(`  stdout: ${JSON.stringify(text.slice(0, 200))}${text.length > 200 ? '…' : ''}`);
    for (const l of tail(o.stderr)) out.push(`  stderr: ${l}`);
    return out;
  }
  const out: string[] = [];
  const broken = checkSchema(result, resultSchema as Schema, 'result');
  if (broken.length) out.push('the result breaks result.schema.json:', ...broken.slice(0, 10).map((p) => `  ${p}`));
  for (const m of compareResult(c.expected, result)) out.push(...showMismatch(m));
  return out;
}

/** Run the selected cases through the program; print failures and the totals. Exit 0 only when all pass. */
export async function runConformance(command: ConformanceCommand, write: (text: string) => void): Promise<number> {
  const selected = selectCases(loadSuite(command.suite), command);
  if (selected.length === 0) throw new CliError('no case matches the filters');
  const verdicts: (string[] | undefined)[] = new Array(selected.length);
  let printed = 0;
  let passed = 0;
  let failed = 0;
  // Failures are printed in suite order, as soon as every earlier case is known.
  const flush = () => {
    while (printed < selected.length && verdicts[printed] !== undefined) {
      const c = selected[printed];
      const problems = verdicts[printed]!;
      if (problems.length === 0) passed++;
      else {
        failed++;
        write(`✗ ${c.id} (${c.spec}, ${c.section}; format ${c.request.format})\n${problems.map((l) => `  ${l}`).join('\n')}\n\n`);
      }
      printed++;
    }
  };
  let next = 0;
  const worker = async () => {
    while (next < selected.length) {
      const i = next++;
      const c = selected[i];
      const outcome = await runOnce(command.cmd, JSON.stringify(c.request), command.timeout);
      verdicts[i] = judge(c, outcome);
      flush();
    }
  };
  await Promise.all(Array.from({ length: Math.min(command.jobs, selected.length) }, worker));
  flush();
  write(`${passed} passed, ${failed} failed\n`);
  return failed === 0 ? EXIT_OK : EXIT_FAILED;
}
