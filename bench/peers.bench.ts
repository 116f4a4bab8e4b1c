// Benchmark: the engine against the appliers people use from npm, in one run
// on identical inputs.
//
//   npm run bench:peers                  (node --import tsx --expose-gc bench/peers.bench.ts)
//   npm run bench:peers -- --runs 9 --sizes 1000,10000,100000
//
// One unified diff per file size (jsdiff's createTwoFilesPatch, three lines of
// context) is applied by:
//   engine            applyRequest({ format: 'udiff', ... }): parse, place, apply
//   jsdiff            `diff` 9 applyPatch(text, patch) (default options)
//   jsdiff fuzz 1     the same with { fuzzFactor: 1 } (one context line may differ)
//   diff-match-patch  patch_apply(patch_fromText(p), text), p = patch_toText(patch_make(before, after))
// to three versions of the file:
//   exact   the file the diff was made from
//   offset  the same with 37 lines inserted at its top (every hunk's numbers are off)
//   fuzzy   the same with one character changed in one context line of every hunk
// Each result is checked against the expected text (the after, with the 37
// lines or the changed character kept). See bench/README.md for the columns and
// the goals. The script asserts no times; it exits 1 only when the engine
// gives a wrong result.

import assert from 'node:assert/strict';
import { applyPatch, createTwoFilesPatch } from 'diff';
import DiffMatchPatch from 'diff-match-patch';
import { applyRequest } from '../src/formats/index.ts';
import { prng } from '../test/prng.ts';

function arg(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1] : undefined;
}
const SIZES = (arg('sizes') ?? '1000,10000,100000').split(',').map(Number);
const RUNS = Number(arg('runs') ?? 7);
const WARMUP_MS = 300;
const TIMED_MS = 500;
/** A timing sample lasts at least this long (a batch of runs). */
const SAMPLE_MS = 5;
/** Single runs, each after a forced collection, for the heap column. */
const HEAP_RUNS = 3;
/** A run of one tool on one input stops being repeated after this long (its first run counts then). */
const SLOW_MS = 5_000;
/** A tool that took longer than this on a case is not run on that case for the larger files (shown as `skipped`). */
const SKIP_MS = 5_000;
const PATH = 'src/big/module.ts';
const SHIFT = 37;

const gc: () => void =
  (globalThis as { gc?: () => void }).gc ??
  (() => {
    throw new Error('run with --expose-gc (npm run bench:peers)');
  });

// ---------------------------------------------------------------------------
// Deterministic input (the same generator as apply.bench.ts, smaller).

const WORDS = ['user', 'order', 'item', 'price', 'total', 'config', 'cache', 'request', 'result', 'buffer', 'index', 'count', 'value', 'name', 'token'];
const FUNCS = ['compute', 'fetch', 'parse', 'validate', 'render', 'update', 'resolve', 'normalize'];

/** `n` code-like lines, each distinct and at least 40 characters long (so one typo stays similar). */
function makeFile(n: number, seed: number): string[] {
  const random = prng(seed);
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(random() * xs.length)];
  const lines: string[] = [];
  for (let i = 0; i < n; i++) {
    const ind = '  '.repeat(1 + Math.floor(random() * 3));
    switch (Math.floor(random() * 4)) {
      case 0:
        lines.push(`${ind}const ${pick(WORDS)}${i} = await ${pick(FUNCS)}(${pick(WORDS)}, ${Math.floor(random() * 1000)}, "k${i}");`);
        break;
      case 1:
        lines.push(`${ind}if (${pick(WORDS)}_${i} > ${Math.floor(random() * 100)} && !seen.has(${pick(WORDS)}Id_${i})) {`);
        break;
      case 2:
        lines.push(`${ind}// ${pick(WORDS)} ${pick(WORDS)} handling for step ${i.toString(36)} of the module`);
        break;
      default:
        lines.push(`${ind}return ${pick(FUNCS)}(${pick(WORDS)}, { limit: ${Math.floor(random() * 500)}, tag: 'r${i}' });`);
    }
  }
  return lines;
}

/** One character changed in the middle of a line (to one the line does not have there). */
function typo(line: string): string {
  const at = Math.floor(line.length / 2);
  return line.slice(0, at) + (line[at] === 'Q' ? 'Z' : 'Q') + line.slice(at + 1);
}

interface Input {
  lines: number;
  edits: number;
  before: string;
  after: string;
  patch: string;
  dmpPatch: string;
  cases: { name: string; file: string; expected: string }[];
}

function makeInput(n: number): Input {
  const lines = makeFile(n, 0x5eed1234 + n);
  const edits = Math.min(200, Math.floor(n / 50));
  const stride = Math.floor(n / edits);
  const afterLines = [...lines];
  const changed: number[] = [];
  for (let e = 0; e < edits; e++) {
    const at = e * stride + Math.floor(stride / 2);
    afterLines[at] = `${lines[at].replace(/\S.*$/, '')}// edited ${e}: ${lines[at].trim().slice(0, 30)}`;
    changed.push(at);
  }
  const before = lines.join('\n') + '\n';
  const after = afterLines.join('\n') + '\n';
  const patch = createTwoFilesPatch(`a/${PATH}`, `b/${PATH}`, before, after, '', '', { context: 3 });
  const dmp = new DiffMatchPatch();
  const dmpPatch = dmp.patch_toText(dmp.patch_make(before, after));

  const head = Array.from({ length: SHIFT }, (_, i) => `// a line added at the top of the file, number ${i}`);
  // The fuzzy file: in every hunk, the context line two above the change has a typo.
  const fuzzyBefore = [...lines];
  const fuzzyAfter = [...afterLines];
  for (const at of changed) {
    fuzzyBefore[at - 2] = typo(lines[at - 2]);
    fuzzyAfter[at - 2] = fuzzyBefore[at - 2];
  }
  return {
    lines: n,
    edits,
    before,
    after,
    patch,
    dmpPatch,
    cases: [
      { name: 'exact', file: before, expected: after },
      { name: 'offset', file: head.join('\n') + '\n' + before, expected: head.join('\n') + '\n' + after },
      { name: 'fuzzy', file: fuzzyBefore.join('\n') + '\n', expected: fuzzyAfter.join('\n') + '\n' },
    ],
  };
}

// ---------------------------------------------------------------------------
// Tools.

type Tool = { name: string; apply: (file: string, input: Input) => string | null };

/**
 * Read a character of the result: a string built by concatenation is a
 * rope that V8 flattens on first access, so this charges the flattening to
 * the tool that built it (not to the correctness check after the timing).
 */
function flat(text: string | null): string | null {
  if (text !== null && text.length > 0) text.charCodeAt(text.length >> 1);
  return text;
}

const dmp = new DiffMatchPatch();
const TOOLS: Tool[] = [
  {
    name: 'engine',
    apply: (file, input) => {
      const r = applyRequest({ format: 'udiff', files: { [PATH]: file }, response: input.patch });
      return r.ok ? (r.files[PATH] ?? null) : null;
    },
  },
  { name: 'jsdiff', apply: (file, input) => applyPatch(file, input.patch) || null },
  { name: 'jsdiff fuzz 1', apply: (file, input) => applyPatch(file, input.patch, { fuzzFactor: 1 }) || null },
  {
    name: 'diff-match-patch',
    apply: (file, input) => {
      const [text, results] = dmp.patch_apply(dmp.patch_fromText(input.dmpPatch), file);
      return results.every(Boolean) ? text : null;
    },
  },
];

// ---------------------------------------------------------------------------
// Measurement.

const MB = 1024 * 1024;

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

interface Timing {
  median: number;
  runs: number;
  /** Largest heapUsed growth over a run (after a forced collection before it): a rough peak of what the run allocates. */
  heap: number;
  result: string | null;
}

/**
 * Warm up (until WARMUP_MS have passed or 50 runs, so that the JIT has
 * compiled the tool), then time samples until RUNS samples and TIMED_MS have
 * passed (at most 200 samples). A sample is a batch of back-to-back runs
 * lasting at least SAMPLE_MS, divided by its count: a single run of a small
 * case takes a few microseconds, close to the timer's resolution, and runs in
 * a batch pay their share of the collections they cause, as they would in a
 * program. The median sample counts. The heap growth is measured apart, over
 * HEAP_RUNS single runs each after a forced collection (forcing one before
 * every timed run would leave each run a cold heap, which is not what a
 * program sees either). A tool whose first run takes longer than SLOW_MS is
 * timed by that run alone.
 */
function measure(fn: () => string | null): Timing {
  let result: string | null = null;
  const first = performance.now();
  result = fn();
  const once = performance.now() - first;
  if (once > SLOW_MS) return { median: once, runs: 1, heap: 0, result };
  const warm = performance.now();
  for (let i = 0; i < 50 && performance.now() - warm < WARMUP_MS; i++) fn();
  // Runs per sample: enough for SAMPLE_MS, judged from the warm-up's pace.
  const t1 = performance.now();
  fn();
  const batch = Math.max(1, Math.ceil(SAMPLE_MS / Math.max(performance.now() - t1, 1e-3)));
  const samples: number[] = [];
  let runs = 0;
  const timed = performance.now();
  for (let i = 0; i < 200 && (i < RUNS || performance.now() - timed < TIMED_MS); i++) {
    const t0 = performance.now();
    for (let k = 0; k < batch; k++) result = fn();
    samples.push((performance.now() - t0) / batch);
    runs += batch;
  }
  let heap = 0;
  for (let i = 0; i < HEAP_RUNS; i++) {
    gc();
    const h0 = process.memoryUsage().heapUsed;
    result = fn();
    heap = Math.max(heap, process.memoryUsage().heapUsed - h0);
  }
  return { median: median(samples), runs, heap, result };
}

interface Row {
  lines: number;
  edits: number;
  kase: string;
  baseline: number;
  /** Per tool: its timing, or null when it was skipped (too slow on a smaller file). */
  tools: Map<string, (Timing & { correct: boolean }) | null>;
}

const rows: Row[] = [];
const started = performance.now();
/** `tool case` pairs too slow to run on larger files, with the size that was too slow. */
const tooSlow = new Map<string, number>();
for (const n of SIZES) {
  const input = makeInput(n);
  // One untimed round first (diff-match-patch: on the exact case only, it is slow on the others):
  // the first big strings of a size grow the heap (page faults, a larger young generation), which
  // would be charged to whoever runs first.
  for (const c of input.cases) for (const tool of TOOLS) if (tool.name !== 'diff-match-patch' || c.name === 'exact') tool.apply(c.file, input);
  for (const c of input.cases) {
    const baseline = measure(() => c.file.split('\n').join('\n'));
    assert.equal(baseline.result, c.file);
    const row: Row = { lines: n, edits: input.edits, kase: c.name, baseline: baseline.median, tools: new Map() };
    for (const tool of TOOLS) {
      const key = `${tool.name} ${c.name}`;
      if (tooSlow.has(key) && tool.name !== 'engine') {
        row.tools.set(tool.name, null);
        continue;
      }
      const t = measure(() => flat(tool.apply(c.file, input)));
      if (t.median > SKIP_MS) tooSlow.set(key, n);
      row.tools.set(tool.name, { ...t, correct: t.result === c.expected });
    }
    rows.push(row);
    process.stderr.write(`${n} lines ${c.name}: ${TOOLS.map((t) => `${t.name} ${row.tools.get(t.name)?.median.toFixed(1) ?? '-'} ms`).join(', ')}\n`);
  }
}
const cell = (r: Row, tool: string) => r.tools.get(tool) ?? null;

// ---------------------------------------------------------------------------
// Report.

const ms = (x: number) => (x >= 100 ? x.toFixed(0) : x.toFixed(1));
const ratio = (a: number, b: number) => `${(a / b).toFixed(2)}`;

function table(header: string[], body: string[][], right: Set<number>): void {
  const all = [header, ...body];
  const widths = header.map((_, c) => Math.max(...all.map((r) => r[c].length)));
  const line = (r: string[]) => r.map((cell, c) => (right.has(c) ? cell.padStart(widths[c]) : cell.padEnd(widths[c]))).join('  ');
  console.log(line(header));
  console.log(widths.map((w) => '-'.repeat(w)).join('  '));
  for (const r of body) console.log(line(r));
}

const peers = TOOLS.slice(1).map((t) => t.name);
console.log(
  `peer benchmark: one unified diff (3 lines of context) per file, applied by the engine (udiff format) and by ${peers.join(', ')}; ` +
    `median of ${RUNS}+ samples (${TIMED_MS} ms at least; a sample is a batch of runs of ${SAMPLE_MS} ms or more, divided by its count) after ${WARMUP_MS} ms of warm-up, node ${process.version}, diff 9.0.0, diff-match-patch 1.0.5`,
);
console.log(`cases: exact = the diffed file; offset = ${SHIFT} lines added at its top; fuzzy = one character changed in one context line per hunk`);
console.log();
console.log('Times (ms, median) and whether the result is exactly the expected text (ok / WRONG / failed: the tool gave up)');
table(
  ['lines', 'edits', 'case', 'split+join', ...TOOLS.map((t) => t.name)],
  rows.map((r) => [
    r.lines.toLocaleString('en'),
    String(r.edits),
    r.kase,
    ms(r.baseline),
    ...TOOLS.map((t) => {
      const x = cell(r, t.name);
      if (!x) return `skipped`;
      return `${ms(x.median)} ${x.correct ? 'ok' : x.result === null ? 'failed' : 'WRONG'}`;
    }),
  ]),
  new Set([0, 1, 3, 4, 5, 6, 7]),
);
console.log();
console.log('Ratios: engine time / peer time (below 1: the engine is faster), and engine time / split+join');
table(
  ['lines', 'case', 'engine / split+join', ...peers.map((p) => `engine / ${p}`)],
  rows.map((r) => {
    const e = r.tools.get('engine')!.median;
    return [r.lines.toLocaleString('en'), r.kase, ratio(e, r.baseline), ...peers.map((p) => (cell(r, p) ? ratio(e, cell(r, p)!.median) : '-'))];
  }),
  new Set([0, 2, 3, 4, 5]),
);
console.log();
console.log('Memory: largest heap growth over one run (MB, after a forced collection before it)');
table(
  ['lines', 'case', ...TOOLS.map((t) => t.name)],
  rows.map((r) => [r.lines.toLocaleString('en'), r.kase, ...TOOLS.map((t) => (cell(r, t.name) ? (cell(r, t.name)!.heap / MB).toFixed(1) : '-'))]),
  new Set([0, 2, 3, 4, 5]),
);
console.log(`process peak rss: ${(process.resourceUsage().maxRSS / 1024).toFixed(0)} MB`);
for (const [key, n] of tooSlow) console.log(`skipped: ${key} took over ${SKIP_MS / 1000} s on ${n.toLocaleString('en')} lines, so it was not run on larger files`);

// Goals.
const engine = (r: Row) => r.tools.get('engine')!.median;
const largest = Math.max(...SIZES);
const at = (kase: string) => rows.find((r) => r.lines === largest && r.kase === kase)!;
const exactRatios = rows.filter((r) => r.kase === 'exact').map((r) => engine(r) / r.baseline);
const fuzzyVsExact = engine(at('fuzzy')) / engine(at('exact'));
const offsetVsExact = engine(at('offset')) / engine(at('exact'));
// jsdiff as people would run it on each case: plain, or with fuzzFactor 1 where plain jsdiff gives up (the setting that applies the case).
const jsdiffFor = (r: Row): { name: string; median: number } | null => {
  for (const name of ['jsdiff', 'jsdiff fuzz 1']) {
    const c = cell(r, name);
    if (c && c.correct) return { name, median: c.median };
  }
  return null;
};
const versus = rows.map((r) => ({ r, peer: jsdiffFor(r) }));
const slower = versus.filter(({ r, peer }) => peer !== null && engine(r) >= peer.median);
const goals: [string, boolean, string][] = [
  [
    'exact apply within 2x of a bare split-and-join of the file',
    exactRatios.every((x) => x <= 2),
    `engine / split+join on the exact case: ${rows.filter((r) => r.kase === 'exact').map((r) => `${r.lines.toLocaleString('en')} lines ${(engine(r) / r.baseline).toFixed(2)}x`).join(', ')}`,
  ],
  [
    `offset and fuzzy bounded: ${largest.toLocaleString('en')} lines with ${at('fuzzy').edits} fuzzy edits under 20x the exact case`,
    fuzzyVsExact < 20 && offsetVsExact < 20,
    `fuzzy ${fuzzyVsExact.toFixed(2)}x, offset ${offsetVsExact.toFixed(2)}x the exact case`,
  ],
  [
    'faster than jsdiff on every udiff case (against jsdiff fuzz 1 where plain jsdiff gives up)',
    slower.length === 0,
    `engine / jsdiff: ${versus
      .map(({ r, peer }) => `${r.lines.toLocaleString('en')} ${r.kase} ${peer ? `${(engine(r) / peer.median).toFixed(2)}${peer.name === 'jsdiff' ? '' : ' (fuzz 1)'}` : 'jsdiff failed'}`)
      .join(', ')}${slower.length ? `; slower on ${slower.length} of ${versus.length}` : ''}`,
  ],
];
console.log();
console.log('Goals');
for (const [goal, met, detail] of goals) console.log(`  [${met ? 'met' : 'NOT MET'}] ${goal}: ${detail}`);
console.log(`total ${((performance.now() - started) / 1000).toFixed(0)} s`);

const wrong = rows.filter((r) => !r.tools.get('engine')!.correct);
if (wrong.length > 0) {
  console.error(`\nFAILED: the engine gave a wrong result on ${wrong.map((r) => `${r.lines} ${r.kase}`).join(', ')}`);
  process.exit(1);
}
