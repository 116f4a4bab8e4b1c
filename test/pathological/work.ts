// The worker side of the pathological runs: build a family's inputs for one
// format and scale, apply each, and send back a small summary (the results
// themselves can be tens of megabytes). Started by `runner.ts` through
// `worker.mjs`.

import { parentPort } from 'node:worker_threads';
import { parseText } from '../../src/core/text.ts';
import type { ApplyResult } from '../../src/core/types.ts';
import { applyRequest } from '../../src/formats/index.ts';
import { FAMILIES, inputsOf, type Input } from './inputs.ts';
import type { SpliceFormat } from './replies.ts';

export interface Job {
  id: number;
  family: string;
  format: SpliceFormat;
  scale: number;
  /** Run the inputs this many times first, untimed (JIT warm-up for timing). */
  warmup?: number;
  /** Time each input this many times and keep the fastest (default 1). */
  repeat?: number;
  /** Run only the inputs at these indexes (all by default). */
  only?: number[];
  /** Leave out the inputs at these indexes. */
  skip?: number[];
}

/** What one input gave. */
export interface Outcome {
  /** The engine threw (a bug): its message. */
  threw: string | null;
  ms: number;
  edits: number;
  applied: number;
  /** `status code` counts, e.g. `applied exact: 3, failed no-match: 1`. */
  kinds: string;
  /** Problems with the result's shape or its files (empty when fine). */
  problems: string[];
  /** The first and the last failed edit's message (for reports and checks), cut to 2,000 characters. */
  firstFailure: string | null;
  lastFailure: string | null;
}

export interface Done {
  id: number;
  size: number;
  inputs: number;
  outcomes: Outcome[];
}

/** Everything checkable without knowing the intended outcome. */
export function check(input: Input, r: ApplyResult): string[] {
  const problems: string[] = [];
  const files = input.request.files;
  if (r.ok !== (r.edits.every((e) => e.status === 'applied') && !r.diagnostics.some((d) => d.severity === 'error'))) problems.push('ok disagrees with the edits and findings');
  const lineCounts = new Map<string, number>();
  const linesIn = (path: string) => {
    let n = lineCounts.get(path);
    if (n === undefined) lineCounts.set(path, (n = parseText(files[path] ?? '').lines.length));
    return n;
  };
  r.edits.forEach((e, k) => {
    if (e.index !== k) problems.push(`edit ${k} has index ${e.index}`);
    if (e.status === 'failed') {
      if (e.range !== null || e.code === null || e.message === '') problems.push(`failed edit ${k} has a range, no code or no message`);
    } else if (e.status === 'applied') {
      const n = linesIn(e.file);
      const r = e.range;
      if (r === null && e.kind !== 'delete' && e.kind !== 'rename') problems.push(`applied edit ${k} has no range`);
      if (r && (r.start < 1 || r.end > n || r.end < r.start - 1)) problems.push(`applied edit ${k} has range ${r.start}-${r.end} in a file of ${n} lines`);
    } else problems.push(`edit ${k} has status ${String(e.status)}`);
  });
  const touched = new Set(r.edits.filter((e) => e.status === 'applied' && e.code !== 'duplicate').map((e) => e.file));
  for (const [path, text] of Object.entries(files)) {
    if (!touched.has(path) && r.files[path] !== text) problems.push(`${path} changed without an applied edit`);
  }
  if (input.after !== undefined) {
    const path = Object.keys(files)[0];
    if (r.files[path] !== input.after) problems.push(`${path} is not the expected text after every edit applied`);
    if (!r.ok) problems.push('not every edit applied');
  }
  if (input.edits !== undefined && r.edits.length !== input.edits) problems.push(`${r.edits.length} edits read, expected ${input.edits}`);
  return problems;
}

function outcome(input: Input): Outcome {
  const t0 = performance.now();
  let r: ApplyResult;
  try {
    r = applyRequest(input.request);
  } catch (err) {
    return {
      threw: String((err as Error)?.stack ?? err),
      ms: performance.now() - t0,
      edits: 0,
      applied: 0,
      kinds: '',
      problems: [],
      firstFailure: null,
      lastFailure: null,
    };
  }
  const ms = performance.now() - t0;
  const kinds = new Map<string, number>();
  for (const e of r.edits) {
    const k = e.status === 'applied' ? `applied ${e.match}` : `failed ${e.code}`;
    kinds.set(k, (kinds.get(k) ?? 0) + 1);
  }
  const failed = r.edits.filter((e) => e.status === 'failed');
  return {
    threw: null,
    ms,
    edits: r.edits.length,
    applied: r.edits.filter((e) => e.status === 'applied').length,
    kinds: [...kinds].map(([k, n]) => `${k}: ${n}`).join(', '),
    problems: check(input, r),
    firstFailure: failed.length ? failed[0].message.slice(0, 2000) : null,
    lastFailure: failed.length ? failed[failed.length - 1].message.slice(0, 2000) : null,
  };
}

export function runJob(job: Job): Done {
  const family = FAMILIES.find((f) => f.name === job.family);
  if (!family) throw new Error(`no family ${job.family}`);
  const keep = (i: number) => (!job.only || job.only.includes(i)) && !job.skip?.includes(i);
  const inputs = inputsOf(family, job.format, job.scale, keep);
  for (let w = 0; w < (job.warmup ?? 0); w++) for (const input of inputs) applyRequest(input.request);
  const outcomes = inputs.map((input) => {
    let best = outcome(input);
    for (let k = 1; k < (job.repeat ?? 1); k++) {
      const again = outcome(input);
      if (again.ms < best.ms) best = again;
    }
    return best;
  });
  return { id: job.id, size: inputs.reduce((n, i) => n + i.size, 0), inputs: inputs.length, outcomes };
}

parentPort?.on('message', (job: Job) => {
  parentPort!.postMessage(runJob(job));
});
