// Benchmark: the whole `ln-diff apply --json` process, start to exit, on a
// large file, next to an empty Node.js process and GNU patch.
//
//   npm run bench:cli                 (npm run build:lib, then node --import tsx bench/cli.bench.ts)
//   npm run bench:cli -- --runs 15 --batch 5 --lines 20000 --hunks 50
//   npm run bench:cli -- --against /elsewhere/bin/ln-diff.cjs   (another build, timed in the same rounds)
//
// One file of 20,000 distinct code-like lines and one unified diff of 50
// hunks (one line changed in each, three lines of context, jsdiff's
// createTwoFilesPatch) make one JSON request. Each command runs once
// untimed, then in `--runs` rounds (default 7) of a batch of `--batch` runs
// (default 5) of each command. What counts is the CPU time of the whole
// process (user + system, all its threads, spawn to exit, stdin and stdout
// included) per run: a batch's total, read from /proc/self/stat (the
// children's CPU, in 10 ms clock ticks: hence batches), divided by its runs;
// the median over the rounds. CPU time depends less than wall time on what
// else the machine runs. The median wall time per run is shown too (on a
// system without /proc, only that). The commands:
//   node -e 0        Node.js starting and stopping, nothing loaded
//   ln-diff (lib)    bin/ln-diff.cjs over lib/cli/main.cjs (and its code cache): the bundled command, what `npm install ln-diff` runs
//   ln-diff (tsx)    bin/ln-diff-src.mjs: the same command compiled from the sources at start (how it ran before)
//   GNU patch        `patch -o OUT FILE PATCH` on the same change, when `patch` is installed
//   ln-diff (against) `--against BIN`: another build of the command (an older checkout), to compare
// Both ln-diff results are checked (every hunk applied, the file equal to the
// expected text), and so is patch's output. The goal: ln-diff (lib) within
// 1.3 times the CPU of `node -e 0`. Then where the time goes, measured in a fresh
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
const BATCH = Number(arg('batch') ?? 5);
const LINES = Number(arg('lines') ?? 20_000);
const HUNKS = Number(arg('hunks') ?? 50);
const GOAL = 1.3;
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

/** Clock ticks a second, the unit of /proc/self/stat's times. */
const TICKS = Number(spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).stdout?.trim()) || 100;

/**
 * The CPU time (user + system, ms) of this process's children that have
 * ended and been waited for (spawnSync waits), from /proc/self/stat
 * (cutime and cstime, fields 16 and 17, in clock ticks); null without /proc.
 */
function childrenCpu(): number | null {
  try {
    const stat = readFileSync('/proc/self/stat', 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' '); // from field 3 on
    return ((Number(fields[13]) + Number(fields[14])) * 1000) / TICKS;
  } catch {
    return null;
  }
}

const median = (xs: number[]) => {
  const s = xs.toSorted((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

interface Row {
  name: string;
  /** Median CPU ms per run (null without /proc). */
  cpu: number | null;
  /** Median wall ms per run. */
  wall: number;
}
const problems: string[] = [];
// One untimed run of each, then rounds that run a batch of every command, so
// that a change in the machine's load falls on all of them alike.
const timed = commands.filter((c) => {
  const warm = once(c);
  if (warm.problem) problems.push(`${c.name}: ${warm.problem}`);
  return !warm.problem;
});
const walls = new Map<Command, number[]>(timed.map((c) => [c, []]));
const cpus = new Map<Command, number[]>(timed.map((c) => [c, []]));
for (let k = 0; k < RUNS; k++) {
  for (const c of timed) {
    const before = childrenCpu();
    for (let b = 0; b < BATCH; b++) {
      const r = once(c);
      if (r.problem) problems.push(`${c.name}: ${r.problem}`);
      walls.get(c)!.push(r.ms);
    }
    const after = childrenCpu();
    if (before !== null && after !== null) cpus.get(c)!.push((after - before) / BATCH);
  }
}
const rows: Row[] = timed.map((c) => ({
  name: c.name,
  cpu: cpus.get(c)!.length > 0 ? median(cpus.get(c)!) : null,
  wall: median(walls.get(c)!),
}));

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
  `ln-diff apply --json, whole process: ${LINES.toLocaleString('en')} lines (${(beforeText.length / 1024).toFixed(0)} KB), a ${HUNKS}-hunk unified diff; ` +
    `${RUNS} rounds of ${BATCH} runs of each command after one untimed run; CPU (user + system) per run: the median over the rounds of each batch's mean; wall: the median run\n`,
);
const ratio = (x: number | null, of: number | null | undefined) => (x !== null && of ? (x / of).toFixed(2) : '-');
const table = [
  ['command', 'CPU ms', 'CPU x node -e 0', 'wall ms', 'wall x node -e 0'],
  ...rows.map((r) => [r.name, r.cpu === null ? '-' : ms(r.cpu), ratio(r.cpu, base?.cpu), ms(r.wall), ratio(r.wall, base?.wall)]),
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
  if (lib.cpu !== null && base.cpu !== null) {
    const x = lib.cpu / base.cpu;
    console.log(`\ngoal: ln-diff (lib) within ${GOAL}x the CPU of node -e 0: ${x <= GOAL ? 'met' : 'NOT MET'} (${x.toFixed(2)}x: ${ms(lib.cpu)} ms against ${ms(base.cpu)} ms)`);
  } else console.log(`\ngoal: ln-diff (lib) within ${GOAL}x the CPU of node -e 0: not measured (no /proc/self/stat); wall ${(lib.wall / base.wall).toFixed(2)}x`);
}
if (problems.length) {
  console.log(`\nWRONG RESULTS:\n${problems.join('\n')}`);
  process.exitCode = 1;
}
