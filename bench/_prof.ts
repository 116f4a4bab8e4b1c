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
import { applyPatch, createTwoFilesPatch, parsePatch } from 'diff';
import DiffMatchPatch from 'diff-match-patch';
import { applyRequest } from '../src/formats/index.ts';

function arg(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1] : undefined;
}
const SIZES = (arg('sizes') ?? '1000,10000,100000').split(',').map(Number);
const RUNS = Number(arg('runs') ?? 7);
const WARMUP_MS = 300;
const TIMED_MS = 500;
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

function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

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


const N = Number(process.argv[2] ?? 10000);
const input = makeInput(N);
const kase = input.cases.find((c) => c.name === (process.argv[3] ?? 'exact'))!;
const t0 = performance.now();
let k = 0;
while (performance.now() - t0 < 5000) {
  const r = applyRequest({ format: 'udiff', files: { [PATH]: kase.file }, response: input.patch });
  if (!r.ok) throw new Error('failed');
  k++;
}
console.log(N, kase.name, ((performance.now() - t0) / k).toFixed(3), 'ms/run', k);
if (process.argv[5]) process.exit(0);
if (!process.argv[4]) {
const t0 = performance.now();
let k = 0;
while (performance.now() - t0 < 3000) {
  const r = applyPatch(kase.file, input.patch);
  if (!r) throw new Error('failed');
  k++;
}
console.log(N, kase.name, 'jsdiff', ((performance.now() - t0) / k).toFixed(3), 'ms/run', k);
}
if (!process.argv[4]) {
const t0 = performance.now();
let k = 0;
while (performance.now() - t0 < 3000) {
  const r = kase.file.split('\n').join('\n');
  k++;
}
console.log(N, kase.name, 'split+join', ((performance.now() - t0) / k).toFixed(3), 'ms/run', k);
}
{
  const { parseText, formatText } = await import('../src/core/text.ts');
  const { udiff } = await import('../src/formats/udiff/index.ts');
  const { replyLines } = await import('../src/core/reply.ts');
  const time = (name: string, f: () => unknown) => {
    for (let i = 0; i < 2000; i++) f();
    const t0 = performance.now(); let k = 0;
    while (performance.now() - t0 < 1500) { f(); k++; }
    console.log(name.padEnd(20), ((performance.now() - t0) / k * 1000).toFixed(1), 'us');
  };
  const tf = parseText(kase.file);
  time('parseText', () => parseText(kase.file));
  time('formatText', () => formatText(tf));
  time('split', () => kase.file.split('\n'));
  time('replyLines', () => replyLines(input.patch));
  time('udiff.parse', () => udiff.parse(input.patch, { files: [PATH] }));
  time('jsdiff parsePatch', () => parsePatch(input.patch));
}
console.log('patch chars', input.patch.length, 'lines', input.patch.split('\n').length);
{
  const { replyLines } = await import('../src/core/reply.ts');
  const { rowsOf, scanDiff } = await import('../src/formats/udiff/hunks.ts');
  const time = (name: string, f: () => unknown) => {
    for (let i = 0; i < 2000; i++) f();
    const t0 = performance.now(); let k = 0;
    while (performance.now() - t0 < 1500) { f(); k++; }
    console.log(name.padEnd(20), ((performance.now() - t0) / k * 1000).toFixed(1), 'us');
  };
  const rl = replyLines(input.patch);
  time('rowsOf', () => rowsOf(rl));
  const rows = rowsOf(rl);
  time('scanDiff', () => scanDiff(rows, 'reply'));
}
