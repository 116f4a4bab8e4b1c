// Benchmark: apply 200 ln-diff editblocks to a 100,000-line file.
//
//   npm run bench            (node --import tsx --expose-gc bench/apply.bench.ts)
//   npm run bench -- --runs 15
//
// Three cases, each a reply of 200 editblocks (3 lines removed, 3 inserted)
// spread over the file:
//   exact     every block cites its lines at their true numbers
//   offset-1  every block cites numbers one line off (alternately +1 and -1)
//   typo      true numbers, one character changed in one cited line per block
// The script checks every result (each block applied with the expected match
// kind, the file equal to the expected text) and exits with status 1 if any
// check fails. See bench/README.md for the columns.

import assert from 'node:assert/strict';
import { runFormat } from '../src/core/run.ts';
import { lnDiff } from '../src/formats/ln-diff/index.ts';
import type { ApplyResult, MatchKind } from '../src/core/types.ts';
import { prng } from '../test/prng.ts';

const LINES = 100_000;
const BLOCKS = 200;
const SEED = 0x5eed_1234;
const runsArg = process.argv.indexOf('--runs');
const RUNS = runsArg > 0 ? Number(process.argv[runsArg + 1]) : 9;
const WARMUP = 2;
const PATH = 'src/big/module.ts';

// ---------------------------------------------------------------------------
// Deterministic input.

const random = prng(SEED);
const pick = <T>(xs: readonly T[]): T => xs[Math.floor(random() * xs.length)];
const int = (n: number) => Math.floor(random() * n);

const WORDS = ['user', 'order', 'item', 'price', 'total', 'config', 'cache', 'request', 'result', 'buffer', 'index', 'count', 'value', 'name', 'token', 'session', 'record', 'entry', 'limit', 'offset'];
const FUNCS = ['compute', 'fetch', 'parse', 'validate', 'render', 'update', 'resolve', 'normalize', 'serialize', 'lookup'];
const cap = (s: string) => s[0].toUpperCase() + s.slice(1);

/** One code-like line; `n` (the line's index) keeps long lines distinct. */
function codeLine(n: number, depth: number): string {
  const ind = '  '.repeat(depth);
  const a = pick(WORDS);
  const b = pick(WORDS);
  switch (int(12)) {
    case 0:
      return '';
    case 1:
      return `${ind}}`;
    case 2:
      return `${ind}// ${cap(a)} ${b} handling, see note ${n.toString(36)}`;
    case 3:
      return `${ind}if (${a}${cap(b)} > ${int(1000)} && !${b}Cache.has(${a}Id_${n})) {`;
    case 4:
      return `${ind}return ${pick(FUNCS)}${cap(a)}(${b}, { limit: ${int(500)}, tag: 'r${n}' });`;
    case 5:
      return `${ind}${a}s.push({ id: ${n}, ${b}: ${pick(FUNCS)}${cap(b)}(${a}), weight: ${(random() * 10).toFixed(3)} });`;
    default:
      return `${ind}const ${a}${cap(b)}${n} = await ${pick(FUNCS)}${cap(a)}(${b}, ${int(10000)}, "${pick(WORDS)}-${n}");`;
  }
}

function makeFile(): string[] {
  const lines: string[] = [];
  let depth = 1;
  for (let n = 0; n < LINES; n++) {
    if (n % 40 === 0) {
      lines.push(`export async function ${pick(FUNCS)}${cap(pick(WORDS))}${n}(input: Input): Promise<Output> {`);
      depth = 1;
      continue;
    }
    if (n % 40 === 39) {
      lines.push('}');
      continue;
    }
    lines.push(codeLine(n, depth));
    depth = Math.max(1, Math.min(4, depth + int(3) - 1));
  }
  return lines;
}

const fileLines = makeFile();
const fileText = fileLines.join('\n') + '\n';

// Where the blocks go: one per stretch of 500 lines, at a place whose three
// lines each occur once in the file and whose middle line is long enough
// (>= 40 characters) for one typo to stay above the 0.95 threshold.
const counts = new Map<string, number>();
for (const l of fileLines) counts.set(l, (counts.get(l) ?? 0) + 1);
const unique = (i: number) => counts.get(fileLines[i]) === 1;

interface Block {
  start: number; // 0-based first removed line
  old: string[];
  new: string[];
}

const stride = Math.floor(LINES / BLOCKS);
const blocks: Block[] = [];
for (let b = 0; b < BLOCKS; b++) {
  let start = b * stride + 5 + int(stride - 20);
  while (!(unique(start) && unique(start + 1) && unique(start + 2) && fileLines[start + 1].length >= 40)) start++;
  assert.ok(start + 3 <= (b + 1) * stride, 'a block left its stretch');
  const old = fileLines.slice(start, start + 3);
  blocks.push({ start, old, new: old.map((l, k) => `${l.replace(/\S.*$/, '')}// edited ${b}.${k}: ${l.trim().slice(0, 30)}`) });
}

const expectedText = (() => {
  const out = [...fileLines];
  for (let b = blocks.length - 1; b >= 0; b--) out.splice(blocks[b].start, 3, ...blocks[b].new);
  return out.join('\n') + '\n';
})();

/** Change one character in the middle of a line (to a character that is not there). */
function typo(line: string): string {
  const at = Math.floor(line.length / 2);
  const c = line[at] === 'Q' ? 'Z' : 'Q';
  return line.slice(0, at) + c + line.slice(at + 1);
}

function reply(cite: (b: number) => number, oldOf: (block: Block) => string[]): string {
  let out = 'Here are the changes.\n\n';
  blocks.forEach((block, b) => {
    const first = cite(b);
    const width = String(first + 3).length;
    out += `${PATH}\n<editblock>\n<<<<<<< REMOVE\n`;
    oldOf(block).forEach((l, k) => (out += `${String(first + k).padStart(width)}│${l}\n`));
    out += '=======\n';
    for (const l of block.new) out += `${' '.repeat(width)}│${l}\n`;
    out += '>>>>>>> INSERT\n</editblock>\n\n';
  });
  return out;
}

interface Case {
  name: string;
  what: string;
  reply: string;
  kind: MatchKind;
  offset: (b: number) => number;
}

const cases: Case[] = [
  {
    name: 'exact',
    what: 'true numbers, exact lines',
    reply: reply((b) => blocks[b].start + 1, (x) => x.old),
    kind: 'exact',
    offset: () => 0,
  },
  {
    name: 'offset-1',
    what: 'numbers 1 off (+1/-1)',
    reply: reply((b) => blocks[b].start + 1 + (b % 2 ? -1 : 1), (x) => x.old),
    kind: 'offset',
    offset: (b) => (b % 2 ? 1 : -1),
  },
  {
    name: 'typo',
    what: 'one typo per block',
    reply: reply((b) => blocks[b].start + 1, (x) => [x.old[0], typo(x.old[1]), x.old[2]]),
    kind: 'fuzzy',
    offset: () => 0,
  },
];

// ---------------------------------------------------------------------------
// Measurement.

const gc: () => void =
  (globalThis as { gc?: () => void }).gc ??
  (() => {
    throw new Error('run with --expose-gc (npm run bench)');
  });

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

const MB = 1024 * 1024;

interface Timing {
  median: number;
  min: number;
  heapDelta: number;
  rss: number;
}

/** Median and min time of `fn` over RUNS runs (after warm-up), and the heap it leaves before collection. */
function measure<T>(fn: () => T): Timing & { last: T } {
  let last!: T;
  for (let i = 0; i < WARMUP; i++) last = fn();
  const times: number[] = [];
  const heapDeltas: number[] = [];
  let rss = 0;
  for (let i = 0; i < RUNS; i++) {
    gc();
    const before = process.memoryUsage().heapUsed;
    const t0 = performance.now();
    last = fn();
    times.push(performance.now() - t0);
    const after = process.memoryUsage();
    heapDeltas.push(after.heapUsed - before);
    rss = Math.max(rss, after.rss);
  }
  return { median: median(times), min: Math.min(...times), heapDelta: Math.max(...heapDeltas), rss, last };
}

const baseline = measure(() => fileText.split('\n').join('\n'));
assert.equal(baseline.last, fileText);

interface Row {
  name: string;
  what: string;
  timing: Timing;
  applied: number;
  failed: number;
  kinds: string;
  problems: string[];
}

function check(c: Case, r: ApplyResult): string[] {
  const problems: string[] = [];
  if (r.edits.length !== BLOCKS) problems.push(`${r.edits.length} edits parsed, expected ${BLOCKS}`);
  r.edits.forEach((e, b) => {
    if (e.status !== 'applied') problems.push(`block ${b}: ${e.status} ${e.code}: ${e.message}`);
    else if (e.match !== c.kind) problems.push(`block ${b}: match ${e.match}, expected ${c.kind}`);
    else if (e.offset !== c.offset(b)) problems.push(`block ${b}: offset ${e.offset}, expected ${c.offset(b)}`);
    else if (e.range?.start !== blocks[b].start + 1) problems.push(`block ${b}: placed at ${e.range?.start}, expected ${blocks[b].start + 1}`);
  });
  if (r.files[PATH] !== expectedText) problems.push('the file differs from the expected text');
  if (!r.ok && problems.length === 0) problems.push('result not ok');
  return problems;
}

const rows: Row[] = [];
for (const c of cases) {
  const request = { format: 'ln-diff', files: { [PATH]: fileText }, response: c.reply };
  const timing = measure(() => runFormat(lnDiff, request));
  const r = timing.last;
  const kinds = new Map<string, number>();
  for (const e of r.edits) {
    const k = e.status === 'applied' ? String(e.match) : `failed:${e.code}`;
    kinds.set(k, (kinds.get(k) ?? 0) + 1);
  }
  rows.push({
    name: c.name,
    what: c.what,
    timing,
    applied: r.edits.filter((e) => e.status === 'applied').length,
    failed: r.edits.filter((e) => e.status === 'failed').length,
    kinds: [...kinds].map(([k, n]) => `${k} ${n}`).join(', '),
    problems: check(c, r),
  });
}

// ---------------------------------------------------------------------------
// Report.

const ms = (x: number) => x.toFixed(1);
const table: string[][] = [
  ['case', 'reply', 'median ms', 'min ms', 'x baseline', 'applied', 'failed', 'match kinds', 'heap delta MB', 'rss MB'],
  ['baseline', 'split+join', ms(baseline.median), ms(baseline.min), '1.0', '-', '-', '-', (baseline.heapDelta / MB).toFixed(1), (baseline.rss / MB).toFixed(0)],
  ...rows.map((r) => [
    r.name,
    r.what,
    ms(r.timing.median),
    ms(r.timing.min),
    (r.timing.median / baseline.median).toFixed(1),
    String(r.applied),
    String(r.failed),
    r.kinds,
    (r.timing.heapDelta / MB).toFixed(1),
    (r.timing.rss / MB).toFixed(0),
  ]),
];
const widths = table[0].map((_, c) => Math.max(...table.map((row) => row[c].length)));
const numeric = new Set([2, 3, 4, 5, 6, 8, 9]);
const format = (row: string[]) => row.map((cell, c) => (numeric.has(c) ? cell.padStart(widths[c]) : cell.padEnd(widths[c]))).join('  ');

console.log(
  `ln-diff apply benchmark: ${LINES.toLocaleString('en')} lines (${(fileText.length / MB).toFixed(1)} MB), ` +
    `${BLOCKS} editblocks of 3 removed + 3 inserted lines, seed ${SEED.toString(16)}, ` +
    `${RUNS} runs after ${WARMUP} warm-up, node ${process.version}`,
);
console.log(`reply sizes: ${cases.map((c) => `${c.name} ${(c.reply.length / 1024).toFixed(0)} KB`).join(', ')}`);
console.log();
console.log(format(table[0]));
console.log(widths.map((w) => '-'.repeat(w)).join('  '));
for (const row of table.slice(1)) console.log(format(row));
console.log();
console.log(`process peak rss: ${(process.resourceUsage().maxRSS / 1024).toFixed(0)} MB`);

const problems = rows.flatMap((r) => r.problems.map((p) => `${r.name}: ${p}`));
if (problems.length > 0) {
  console.error(`\nFAILED: ${problems.length} problem(s)`);
  for (const p of problems.slice(0, 20)) console.error(`  ${p}`);
  if (problems.length > 20) console.error(`  ... and ${problems.length - 20} more`);
  process.exit(1);
}
console.log('all checks passed: every block applied at its place with the expected match kind and offset');
