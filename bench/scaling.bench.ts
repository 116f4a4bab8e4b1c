// Benchmark: how the engine's time grows with the input, on the pathological
// inputs of test/pathological/inputs.ts, for every format, at 1x, 10x and
// 100x their base size.
//
//   npm run bench:scaling
//   npm run bench:scaling -- --families blocks,long-line --formats ln-diff,udiff --scales 1,10,100 --limit 120
//
// Each (family, format) runs in a worker thread with a time limit per scale
// (default 120 s): a run that does not finish is stopped and shown as
// `>LIMIT`. Linear work shows as a 10x step in time for each 10x step in
// size; see bench/README.md for the columns. The script checks the results'
// shape (test/pathological/work.ts, `check`) and exits with status 1 when a
// run throws, fails a check or hits the limit. It asserts no times.

import { FAMILIES, SPLICE_FORMATS } from '../test/pathological/inputs.ts';
import { Runner, TimedOut, type Done } from '../test/pathological/runner.ts';

function arg(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1] : undefined;
}
const list = (name: string) => arg(name)?.split(',').map((s) => s.trim()).filter(Boolean);

const families = FAMILIES.filter((f) => !list('families') || list('families')!.includes(f.name));
const formats = SPLICE_FORMATS.filter((f) => !list('formats') || list('formats')!.includes(f));
const scales = (list('scales') ?? ['1', '10', '100']).map(Number);
const LIMIT_S = Number(arg('limit') ?? 120);

const MB = 1024 * 1024;
/**
 * Time growth per 10x step above which a run is reported SUPERLINEAR: linear
 * work grows 10x, quadratic work 100x, and this is the point halfway between
 * them on a log scale (sqrt(10 * 100) = 31.6x): a growth above it is nearer
 * quadratic than linear.
 */
const GROWTH_LIMIT = Math.sqrt(1000);
const ms = (x: number) => (x >= 100 ? x.toFixed(0) : x.toFixed(1));

interface Row {
  family: string;
  format: string;
  /** Per scale: total time of the family's inputs, or null past the limit. */
  times: (number | null)[];
  sizes: number[];
  inputs: number;
  kinds: string;
  problems: string[];
  /** The last step was measured a second time (see the loop). */
  rechecked?: boolean;
}

const rows: Row[] = [];
const started = performance.now();

for (const family of families) {
  const runner = new Runner();
  for (const format of formats.filter((f) => !family.formats || family.formats.includes(f))) {
    const row: Row = { family: family.name, format, times: [], sizes: [], inputs: 0, kinds: '', problems: [] };
    let stopped = false;
    for (const [k, scale] of scales.entries()) {
      if (stopped) {
        row.times.push(null);
        continue;
      }
      let done: Done;
      try {
        // Small scales are run untimed first (so as not to time the compiler); every input is
        // timed 3 times (2 at the largest scale) and the fastest counts, to leave out most of the
        // garbage collector's pauses.
        const small = k < scales.length - 1;
        done = await runner.run({ family: family.name, format, scale, warmup: k === 0 ? 3 : small ? 1 : 0, repeat: small ? 3 : 2 }, LIMIT_S * 1000);
      } catch (err) {
        if (!(err instanceof TimedOut)) throw err;
        row.times.push(null);
        row.problems.push(`scale ${scale}: no result within ${LIMIT_S} s`);
        stopped = true;
        continue;
      }
      row.times.push(done.outcomes.reduce((n, o) => n + o.ms, 0));
      row.sizes.push(done.size);
      row.inputs = done.inputs;
      done.outcomes.forEach((o, i) => {
        if (o.threw) row.problems.push(`scale ${scale} input ${i}: threw ${o.threw.split('\n')[0]}`);
        for (const p of o.problems) row.problems.push(`scale ${scale} input ${i}: ${p}`);
      });
      if (k === scales.length - 1) {
        const kinds = new Map<string, number>();
        for (const o of done.outcomes)
          for (const part of o.kinds.split(', ').filter(Boolean)) {
            const [name, n] = part.split(': ');
            kinds.set(name, (kinds.get(name) ?? 0) + Number(n));
          }
        row.kinds = [...kinds].map(([name, n]) => `${name} ${n}`).join(', ');
      }
    }
    // A step that grew more than GROWTH_LIMIT is measured again, warmed up and repeated (the
    // largest scale runs cold the first time, and one collector pause can double a short run):
    // each of the two scales keeps its faster measurement. Work that really grows faster than
    // linear grows as much the second time.
    const n = row.times.length;
    const [prev, last] = [row.times[n - 2], row.times[n - 1]];
    if (n >= 2 && prev != null && last != null && last >= 50 && last / prev > GROWTH_LIMIT) {
      try {
        for (const k of [n - 2, n - 1]) {
          const again = await runner.run({ family: family.name, format, scale: scales[k], warmup: 1, repeat: 3 }, LIMIT_S * 1000);
          row.times[k] = Math.min(row.times[k]!, again.outcomes.reduce((t, o) => t + o.ms, 0));
        }
        row.rechecked = true;
      } catch (err) {
        if (!(err instanceof TimedOut)) throw err;
      }
    }
    rows.push(row);
    process.stderr.write(`${family.name} ${format}: ${row.times.map((t) => (t === null ? '>limit' : ms(t))).join(' / ')} ms\n`);
  }
  await runner.close();
}

// ---------------------------------------------------------------------------
// Report.

/** Time growth per 10x step in size: 10 is linear. */
function growth(times: (number | null)[]): string {
  const steps: string[] = [];
  for (let k = 1; k < times.length; k++) {
    const a = times[k - 1];
    const b = times[k];
    steps.push(a === null || b === null ? '-' : `${(b / Math.max(a, 0.01)).toFixed(1)}x`);
  }
  return steps.join(' ');
}

function verdict(row: Row): string {
  if (row.times.some((t) => t === null)) return 'LIMIT';
  const last = row.times[row.times.length - 1]!;
  const prev = row.times[row.times.length - 2];
  if (prev === undefined || prev === null) return '-';
  if (last < 50) return 'fast';
  // 10 is linear, 100 quadratic; the collector and the caches make a larger input cost somewhat more per byte.
  return last / prev <= GROWTH_LIMIT ? 'linear' : 'SUPERLINEAR';
}

const header = ['family', 'format', 'inputs', ...scales.map((s) => `${s}x ms`), 'growth', `${scales[scales.length - 1]}x MB`, 'verdict', `${scales[scales.length - 1]}x outcomes`];
const table: string[][] = [
  header,
  ...rows.map((r) => [
    r.family,
    r.format,
    String(r.inputs),
    ...r.times.map((t) => (t === null ? `>${LIMIT_S * 1000}` : ms(t))),
    growth(r.times),
    r.sizes.length === scales.length ? (r.sizes[r.sizes.length - 1] / MB).toFixed(1) : '-',
    verdict(r) + (r.rechecked ? ' (rechecked)' : ''),
    r.kinds,
  ]),
];
const widths = header.map((_, c) => Math.max(...table.map((row) => row[c].length)));
const right = new Set([2, 3, 4, 5, 3 + scales.length]);
const line = (row: string[]) =>
  row.map((cell, c) => (c === row.length - 1 ? cell : right.has(c) ? cell.padStart(widths[c]) : cell.padEnd(widths[c]))).join('  ');

console.log(
  `ln-diff scaling benchmark: ${families.length} families x ${formats.length} formats at ${scales.join('x, ')}x, ` +
    `limit ${LIMIT_S} s per run, node ${process.version}`,
);
console.log(`growth: time at one scale / time at the one before (10 is linear, 100 quadratic); verdict SUPERLINEAR above ${GROWTH_LIMIT.toFixed(1)}x (nearer 100 than 10 on a log scale), fast under 50 ms`);
for (const f of families) console.log(`  ${f.name}: ${f.what}`);
console.log();
console.log(line(table[0]));
console.log(widths.map((w) => '-'.repeat(w)).join('  '));
for (const row of table.slice(1)) console.log(line(row));
console.log();
const counts = new Map<string, number>();
for (const r of rows) counts.set(verdict(r), (counts.get(verdict(r)) ?? 0) + 1);
console.log(`verdicts: ${[...counts].map(([v, n]) => `${v} ${n}`).join(', ')}; total ${((performance.now() - started) / 1000).toFixed(0)} s`);

const problems = rows.flatMap((r) => r.problems.map((p) => `${r.family} ${r.format}: ${p}`));
if (problems.length > 0) {
  console.error(`\nFAILED: ${problems.length} problem(s)`);
  for (const p of problems.slice(0, 30)) console.error(`  ${p}`);
  if (problems.length > 30) console.error(`  ... and ${problems.length - 30} more`);
  process.exit(1);
}
