// Benchmark: the whole `ln-diff apply --json` process, start to exit, on a
// large file, next to an empty Node.js process and GNU patch.
//
//   npm run bench:cli                 (npm run build:lib, then node --import tsx bench/cli.bench.ts)
//   npm run bench:cli -- --runs 15 --lines 20000 --hunks 50
//   npm run bench:cli -- --against /elsewhere/bin/ln-diff.cjs   (another build, timed in the same rounds)
//
// One file of 20,000 distinct code-like lines and one unified diff of 50
// hunks (one line changed in each, three lines of context, jsdiff's
// createTwoFilesPatch) make one JSON request. Each command runs once
// untimed, then `--runs` times (default 7, in rounds of one run of each);
// the median wall time of the whole process (spawn to exit, stdin and
// stdout included) counts:
//   node -e 0        Node.js starting and stopping, nothing loaded
//   ln-diff (lib)    bin/ln-diff.cjs over lib/cli/main.cjs (and its code cache): the bundled command, what `npm install ln-diff` runs
//   ln-diff (tsx)    bin/ln-diff-src.mjs: the same command compiled from the sources at start (how it ran before)
//   GNU patch        `patch -o OUT FILE PATCH` on the same change, when `patch` is installed
//   ln-diff (against) `--against BIN`: another build of the command (an older checkout), to compare
// Both ln-diff results are checked (every hunk applied, the file equal to the
// expected text), and so is patch's output. The goal: ln-diff (lib) within
// 1.5 times `node -e 0`. Then where the time goes, measured in a fresh
// process: importing the command, importing the library, reading the
// request, the engine's work. The script exits 1 on a wrong result; it
// asserts no times.

import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createTwoFilesPatch } from 'diff';
import { prng } from '../test/prng.ts';

function arg(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1] : undefined;
}
const RUNS = Number(arg('runs') ?? 7);
const LINES = Number(arg('lines') ?? 20_000);
const HUNKS = Number(arg('hunks') ?? 50);
const GOAL = 1.5;
const PATH = 'src/big/module.ts';
const root = (p: string) => fileURLToPath(new URL(`../${p}`, import.meta.url));

// ---------------------------------------------------------------------------
// The input: distinct lines, one changed in each of HUNKS equal stretches.

const WORDS = ['user', 'order', 'item', 'price', 'total', 'config', 'cache', 'request', 'result', 'buffer'];
const random = prng(0xc11);
const pick = <T>(xs: readonly T[]) => xs[Math.floor(random() * xs.length)];
const before: string[] = [];
for (let i = 0; i < LINES; i++) {
  const ind = '  '.repeat(1 + Math.floor(random() * 3));
  before.push(
    i % 3 === 0
      ? `${ind}const ${pick(WORDS)}${i} = compute(${pick(WORDS)}, ${Math.floor(random() * 1000)}, "k${i}");`
      : i % 3 === 1
        ? `${ind}if (${pick(WORDS)}_${i} > ${Math.floor(random() * 100)}) return ${pick(WORDS)}(${i});`
        : `${ind}// ${pick(WORDS)} handling for step ${i.toString(36)} of the module`,
  );
}
const after = before.slice();
const stretch = Math.floor(LINES / HUNKS);
for (let h = 0; h < HUNKS; h++) {
  const at = h * stretch + Math.floor(stretch / 2);
  after[at] = `${after[at]} // changed ${h}`;
}
const beforeText = `${before.join('\n')}\n`;
const afterText = `${after.join('\n')}\n`;
const patch = createTwoFilesPatch(`a/${PATH}`, `b/${PATH}`, beforeText, afterText, '', '', { context: 3 });
const request = JSON.stringify({ format: 'udiff', files: { [PATH]: beforeText }, response: patch });

const dir = mkdtempSync(join(tmpdir(), 'ln-diff-cli-bench-'));
process.on('exit', () => rmSync(dir, { recursive: true, force: true }));
writeFileSync(join(dir, 'file.ts'), beforeText);
writeFileSync(join(dir, 'change.patch'), patch);

// ---------------------------------------------------------------------------
// The commands.

interface Command {
  name: string;
  argv: string[];
  input: string;
  /** Why its output is wrong, or null. */
  check(stdout: string): string | null;
}

function checkResult(stdout: string): string | null {
  let result: { ok: boolean; edits: { status: string }[]; files: Record<string, string | null> };
  try {
    result = JSON.parse(stdout);
  } catch {
    return `not JSON: ${stdout.slice(0, 200)}`;
  }
  const applied = result.edits.filter((e) => e.status === 'applied').length;
  if (!result.ok || applied !== HUNKS) return `ok ${result.ok}, ${applied} of ${HUNKS} hunks applied`;
  if (result.files[PATH] !== afterText) return 'the file is not the expected text';
  return null;
}

const node = process.execPath;
const commands: Command[] = [
  { name: 'node -e 0', argv: [node, '-e', '0'], input: '', check: () => null },
  { name: 'ln-diff (lib)', argv: [node, root('bin/ln-diff.cjs'), 'apply', '--json'], input: request, check: checkResult },
  { name: 'ln-diff (tsx)', argv: [node, root('bin/ln-diff-src.mjs'), 'apply', '--json'], input: request, check: checkResult },
];
const against = arg('against');
if (against) commands.push({ name: 'ln-diff (against)', argv: [node, against, 'apply', '--json'], input: request, check: checkResult });
const hasPatch = spawnSync('patch', ['--version'], { encoding: 'utf8' }).status === 0;
if (hasPatch) {
  const out = join(dir, 'out.ts');
  commands.push({
    name: 'GNU patch',
    argv: ['patch', '-s', '-o', out, join(dir, 'file.ts'), join(dir, 'change.patch')],
    input: '',
    check: () => (readFileSync(out, 'utf8') === afterText ? null : 'patch wrote another text'),
  });
}

function once(c: Command): { ms: number; problem: string | null } {
  const env = { ...process.env };
  delete env.NODE_OPTIONS; // the timed process loads only what it loads itself
  const t0 = process.hrtime.bigint();
  const r = spawnSync(c.argv[0], c.argv.slice(1), { input: c.input, env, encoding: 'utf8', maxBuffer: 1 << 30 });
  const ms = Number(process.hrtime.bigint() - t0) / 1e6;
  if (r.error) return { ms, problem: String(r.error) };
  if (r.status !== 0) return { ms, problem: `exit ${r.status}: ${r.stderr.slice(0, 300)}` };
  return { ms, problem: c.check(r.stdout) };
}

const median = (xs: number[]) => {
  const s = xs.toSorted((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

interface Row {
  name: string;
  median: number;
  min: number;
}
const problems: string[] = [];
// One untimed run of each, then rounds that run every command once, so that
// a change in the machine's load falls on all of them alike.
const timed = commands.filter((c) => {
  const warm = once(c);
  if (warm.problem) problems.push(`${c.name}: ${warm.problem}`);
  return !warm.problem;
});
const times = new Map<Command, number[]>(timed.map((c) => [c, []]));
for (let k = 0; k < RUNS; k++) {
  for (const c of timed) {
    const r = once(c);
    if (r.problem) problems.push(`${c.name}: ${r.problem}`);
    times.get(c)!.push(r.ms);
  }
}
const rows: Row[] = timed.map((c) => ({ name: c.name, median: median(times.get(c)!), min: Math.min(...times.get(c)!) }));

// ---------------------------------------------------------------------------
// Where the compiled CLI's time goes, in a fresh process: importing the CLI
// (lib/cli/main.cjs, one bundled file, through bin/ln-diff.cjs's loader and its code cache), importing the library as a program
// that depends on ln-diff does (lib/index.js, one module per source file),
// reading the request, and the engine on it (applyRequest, then the JSON).

const PROFILE = `
const t0 = performance.now();
createRequire(import.meta.url)(${JSON.stringify(fileURLToPath(new URL('../bin/ln-diff.cjs', import.meta.url)))}).load();
const t1 = performance.now();
const { applyRequest } = await import(${JSON.stringify(new URL('../lib/index.js', import.meta.url).href)});
const t2 = performance.now();
const request = JSON.parse(readFileSync(0, 'utf8'));
const t3 = performance.now();
const json = JSON.stringify(applyRequest(request));
const t4 = performance.now();
console.log(JSON.stringify({ start: t0, cli: t1 - t0, library: t2 - t1, read: t3 - t2, apply: t4 - t3 }));
`;
function profile(): Record<string, number> | null {
  const env = { ...process.env };
  delete env.NODE_OPTIONS;
  const runs: Record<string, number>[] = [];
  for (let k = 0; k < RUNS; k++) {
    const r = spawnSync(node, ['--input-type=module', '-e', `import { readFileSync } from 'node:fs'; import { createRequire } from 'node:module';${PROFILE}`], {
      input: request,
      env,
      encoding: 'utf8',
      maxBuffer: 1 << 30,
    });
    if (r.status !== 0) {
      problems.push(`profile: ${r.stderr.slice(0, 300)}`);
      return null;
    }
    runs.push(JSON.parse(r.stdout));
  }
  return Object.fromEntries(Object.keys(runs[0]).map((k) => [k, median(runs.map((r) => r[k]))]));
}
const parts = profile();

// The Node.js modules a run loads that `node -e 0` does not (each costs start-up
// time; the socket, stream and TTY modules a few milliseconds together).
function modulesLoaded(argv: string[], input: string): string[] {
  const env = { ...process.env };
  delete env.NODE_OPTIONS;
  const list = `process.on('exit', () => process.stderr.write('\\n' + JSON.stringify(process.moduleLoadList) + '\\n'))`;
  const run = (args: string[], stdin: string) => {
    const r = spawnSync(node, ['--require', join(dir, 'list-modules.cjs'), ...args], { input: stdin, env, encoding: 'utf8', maxBuffer: 1 << 30 });
    return JSON.parse(r.stderr.trim().split('\n').pop() ?? '[]') as string[];
  };
  writeFileSync(join(dir, 'list-modules.cjs'), list);
  const base = new Set(run(['-e', '0'], ''));
  return run(argv, input).filter((m) => !base.has(m) && m.startsWith('NativeModule ')).map((m) => m.slice('NativeModule '.length));
}
const loaded = modulesLoaded([root('bin/ln-diff.cjs'), 'apply', '--json'], request);

// ---------------------------------------------------------------------------
// Report.

const base = rows.find((r) => r.name === 'node -e 0');
const ms = (x: number) => x.toFixed(x >= 100 ? 0 : 1);
console.log(
  `ln-diff apply --json, whole process: ${LINES.toLocaleString('en')} lines (${(beforeText.length / 1024).toFixed(0)} KB), a ${HUNKS}-hunk unified diff; median of ${RUNS} runs (in rounds of one run of each command) after one untimed run\n`,
);
const table = [
  ['command', 'median ms', 'min ms', 'x node -e 0', 'min x min'],
  ...rows.map((r) => [r.name, ms(r.median), ms(r.min), base ? (r.median / base.median).toFixed(2) : '-', base ? (r.min / base.min).toFixed(2) : '-']),
];
const widths = table[0].map((_, i) => Math.max(...table.map((row) => row[i].length)));
for (const [k, row] of table.entries()) {
  console.log(row.map((cell, i) => (i === 0 ? cell.padEnd(widths[i]) : cell.padStart(widths[i]))).join('  '));
  if (k === 0) console.log(widths.map((w) => '-'.repeat(w)).join('  '));
}
if (!hasPatch) console.log('(GNU patch is not installed: not measured)');
if (parts) {
  console.log(
    `\nIn one process (median of ${RUNS}): Node ready at ${ms(parts.start)} ms; importing the CLI (lib/cli/main.cjs, bundled) ${ms(parts.cli)} ms; ` +
      `importing the library (lib/index.js, one bundled module) ${ms(parts.library)} ms; reading and parsing the request ${ms(parts.read)} ms; applyRequest and JSON.stringify ${ms(parts.apply)} ms`,
  );
}
console.log(`\nNode.js modules ln-diff (lib) loads beyond node -e 0: ${loaded.join(', ') || 'none'}`);
const lib = rows.find((r) => r.name === 'ln-diff (lib)');
if (lib && base) {
  const ratio = lib.median / base.median;
  console.log(`\ngoal: ln-diff (lib) within ${GOAL}x node -e 0: ${ratio <= GOAL ? 'met' : 'NOT MET'} (${ratio.toFixed(2)}x: ${ms(lib.median)} ms against ${ms(base.median)} ms)`);
}
if (problems.length) {
  console.log(`\nWRONG RESULTS:\n${problems.join('\n')}`);
  process.exitCode = 1;
}
