// A saved run as a file: written as JSON (`runJson`), read back from
// untrusted text (`readRun`: every field checked, unknown fields dropped,
// sizes bounded, never throws; the error names the first bad field), and two
// runs compared format by format and reply by reply. No DOM, no `node:`.

import { CODES, type Code } from '../core/codes.ts';
import { MATCH_KINDS, summarize } from './summary.ts';
import type {
  BenchApi,
  BenchConfig,
  BenchReply,
  BenchRun,
  FormatPlan,
  FormatSummary,
  ReplyScore,
  ReplyStatus,
  TokenMethod,
} from './types.ts';

/** The hash of a run's share link: `#run=` then the run's JSON, lz-string compressed. */
export const RUN_PREFIX = 'run=';

/** The largest run file read, in characters (UTF-16 code units). */
export const MAX_RUN_CHARS = 64 * 1024 * 1024;
/** The most replies a run file may hold. */
export const MAX_REPLIES = 20_000;

const APIS: readonly BenchApi[] = ['openai', 'anthropic'];
const STATUSES: readonly ReplyStatus[] = ['done', 'auth', 'http', 'stalled', 'network', 'empty', 'stopped'];
const METHODS: readonly TokenMethod[] = ['usage', 'o200k', 'cl100k', 'llama3', 'estimate'];

/** A field that is not what a run holds: `where` names it. */
class Bad {
  constructor(readonly message: string) {}
}

type Obj = Record<string, unknown>;
const isObject = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

function object(v: unknown, where: string): Obj {
  if (!isObject(v)) throw new Bad(`${where} must be an object`);
  return v;
}
function string(v: unknown, where: string): string {
  if (typeof v !== 'string') throw new Bad(`${where} must be a string`);
  return v;
}
function stringOrNull(v: unknown, where: string): string | null {
  if (v !== null && typeof v !== 'string') throw new Bad(`${where} must be a string or null`);
  return v;
}
function boolean(v: unknown, where: string): boolean {
  if (typeof v !== 'boolean') throw new Bad(`${where} must be true or false`);
  return v;
}
function trueOnly(v: unknown, where: string): true {
  if (v !== true) throw new Bad(`${where} must be true when present`);
  return v;
}
function count(v: unknown, where: string): number {
  if (typeof v !== 'number' || !Number.isSafeInteger(v) || v < 0) throw new Bad(`${where} must be a whole number, 0 or more`);
  return v;
}
function countOrNull(v: unknown, where: string): number | null {
  return v === null ? null : count(v, where);
}
function ms(v: unknown, where: string): number {
  if (typeof v !== 'number' || !Number.isFinite(v) || v < 0) throw new Bad(`${where} must be a number of milliseconds, 0 or more`);
  return v;
}
function oneOf<T extends string>(v: unknown, values: readonly T[], where: string): T {
  if (typeof v !== 'string' || !(values as readonly string[]).includes(v)) throw new Bad(`${where} must be one of ${values.join(', ')}`);
  return v as T;
}
function array(v: unknown, where: string, max: number): unknown[] {
  if (!Array.isArray(v)) throw new Bad(`${where} must be an array`);
  if (v.length > max) throw new Bad(`${where} holds ${v.length} entries, more than ${max}`);
  return v;
}
function codeCounts(v: unknown, where: string): Partial<Record<Code, number>> {
  const o = object(v, where);
  const out: Partial<Record<Code, number>> = {};
  for (const [k, c] of Object.entries(o)) out[oneOf(k, CODES, `${where} key ${JSON.stringify(k.slice(0, 40))}`)] = count(c, `${where}.${k}`);
  return out;
}

function plan(v: unknown, where: string): FormatPlan {
  const o = object(v, where);
  return {
    format: string(o.format, `${where}.format`),
    family: string(o.family, `${where}.family`),
    system: string(o.system, `${where}.system`),
    reminder: stringOrNull(o.reminder, `${where}.reminder`),
  };
}

function config(v: unknown, where: string): BenchConfig {
  const o = object(v, where);
  const e = object(o.endpoint, `${where}.endpoint`);
  const concurrency = count(o.concurrency, `${where}.concurrency`);
  if (concurrency < 1) throw new Bad(`${where}.concurrency must be 1 or more`);
  return {
    endpoint: {
      api: oneOf(e.api, APIS, `${where}.endpoint.api`),
      baseUrl: string(e.baseUrl, `${where}.endpoint.baseUrl`),
      model: string(e.model, `${where}.endpoint.model`),
    },
    formats: array(o.formats, `${where}.formats`, 100).map((p, k) => plan(p, `${where}.formats[${k}]`)),
    tasks: array(o.tasks, `${where}.tasks`, 10_000).map((t, k) => string(t, `${where}.tasks[${k}]`)),
    concurrency,
    retries: count(o.retries, `${where}.retries`),
    idleTimeoutMs: ms(o.idleTimeoutMs, `${where}.idleTimeoutMs`),
  };
}

function score(v: unknown, where: string): ReplyScore {
  const o = object(v, where);
  const m = object(o.matches, `${where}.matches`);
  const matches = { exact: 0, offset: 0, whitespace: 0, fuzzy: 0, failed: 0 };
  for (const k of MATCH_KINDS) matches[k] = count(m[k], `${where}.matches.${k}`);
  return {
    parsed: boolean(o.parsed, `${where}.parsed`),
    applied: boolean(o.applied, `${where}.applied`),
    exact: boolean(o.exact, `${where}.exact`),
    edits: count(o.edits, `${where}.edits`),
    matches,
    codes: codeCounts(o.codes, `${where}.codes`),
    warnings: codeCounts(o.warnings, `${where}.warnings`),
  };
}

function reply(v: unknown, where: string): BenchReply {
  const o = object(v, where);
  const t = object(o.tokens, `${where}.tokens`);
  const m = object(o.ms, `${where}.ms`);
  return {
    task: string(o.task, `${where}.task`),
    format: string(o.format, `${where}.format`),
    status: oneOf(o.status, STATUSES, `${where}.status`),
    error: stringOrNull(o.error, `${where}.error`),
    reply: string(o.reply, `${where}.reply`),
    attempts: count(o.attempts, `${where}.attempts`),
    score: score(o.score, `${where}.score`),
    tokens: {
      input: countOrNull(t.input, `${where}.tokens.input`),
      output: countOrNull(t.output, `${where}.tokens.output`),
      method: oneOf(t.method, METHODS, `${where}.tokens.method`),
    },
    ms: { firstToken: m.firstToken === null ? null : ms(m.firstToken, `${where}.ms.firstToken`), total: ms(m.total, `${where}.ms.total`) },
    retry: stringOrNull(o.retry, `${where}.retry`),
    ...(o.cutOff === undefined || o.cutOff === false ? {} : { cutOff: trueOnly(o.cutOff, `${where}.cutOff`) }),
  };
}

function time(v: unknown, where: string): string {
  const s = string(v, where);
  if (s.length > 40 || Number.isNaN(Date.parse(s))) throw new Bad(`${where} must be an ISO 8601 time`);
  return s;
}

/** Check untrusted data (parsed JSON) as a run; throws Bad naming the first bad field. */
function checkRun(data: unknown): BenchRun {
  const o = object(data, 'the run');
  if (o.version !== 1) throw new Bad(`version must be 1 (this file says ${JSON.stringify(o.version)?.slice(0, 20) ?? 'nothing'})`);
  return {
    version: 1,
    engine: string(o.engine, 'engine'),
    started: time(o.started, 'started'),
    finished: o.finished === null ? null : time(o.finished, 'finished'),
    stopped: boolean(o.stopped, 'stopped'),
    config: config(o.config, 'config'),
    replies: array(o.replies, 'replies', MAX_REPLIES).map((r, k) => reply(r, `replies[${k}]`)),
    ...(o.skipped === undefined
      ? {}
      : {
          skipped: array(o.skipped, 'skipped', MAX_REPLIES).map((v, k) => {
            const x = object(v, `skipped[${k}]`);
            return { task: string(x.task, `skipped[${k}].task`), format: string(x.format, `skipped[${k}].format`), reason: string(x.reason, `skipped[${k}].reason`) };
          }),
        }),
  };
}

/**
 * Read a run file from untrusted text. Never throws: a text that is too
 * long, not JSON or not a run gives `ok: false` and an error naming the
 * first bad field. Fields a run does not have are dropped.
 */
export function readRun(json: string): { ok: true; run: BenchRun } | { ok: false; error: string; notJson?: true } {
  try {
    if (typeof json !== 'string') return { ok: false, error: 'the run must be text' };
    if (json.length > MAX_RUN_CHARS) return { ok: false, error: `the file is ${json.length} characters long, more than a run may be (${MAX_RUN_CHARS})` };
    let data: unknown;
    try {
      data = JSON.parse(json);
    } catch (e) {
      return { ok: false, notJson: true, error: `the file is not JSON (${e instanceof Error ? e.message : String(e)})` };
    }
    return { ok: true, run: checkRun(data) };
  } catch (e) {
    return { ok: false, error: e instanceof Bad ? e.message : `the run could not be read (${e instanceof Error ? e.message : String(e)})` };
  }
}

/** A run as the file `readRun` reads back (indented JSON, a final newline). */
export function runJson(run: BenchRun): string {
  return `${JSON.stringify(run, null, 2)}\n`;
}

/**
 * The rates of one format in two runs, and b's minus a's (null where a run
 * lacks the format, or the runs share no reply of it). The change is taken
 * over the task × format pairs both runs answered (`shared`), so two runs of
 * different task sets are compared on the same tasks; `a` and `b` are each
 * run's own summary, over all its replies.
 */
export interface FormatComparison {
  format: string;
  a: FormatSummary | null;
  b: FormatSummary | null;
  delta: { parsed: number; applied: number; exact: number } | null;
  /** Replies of this format (not stopped) in both runs, by task: what `delta` is over. */
  shared: number;
}

/** One task in one format in two runs; `flip` says whether it became exact (`gained`) or stopped being (`lost`). */
export interface ReplyComparison {
  task: string;
  format: string;
  a: { status: ReplyStatus; parsed: boolean; applied: boolean; exact: boolean } | null;
  b: { status: ReplyStatus; parsed: boolean; applied: boolean; exact: boolean } | null;
  flip: 'gained' | 'lost' | null;
}

export interface RunComparison {
  formats: FormatComparison[];
  /** Every task × format either run has (stopped replies left out), a's order first. */
  replies: ReplyComparison[];
}

/** Compare two runs: per format (rates) and per task × format (outcome, exact flips). */
export function compareRuns(a: BenchRun, b: BenchRun): RunComparison {
  const sa = summarize(a);
  const sb = summarize(b);
  const key = (r: BenchReply) => `${r.task}\u0000${r.format}`;
  const outcome = (r: BenchReply | undefined) =>
    r ? { status: r.status, parsed: r.score.parsed, applied: r.score.applied, exact: r.score.exact } : null;
  const counted = (run: BenchRun) => new Map(run.replies.filter((r) => r.status !== 'stopped').map((r) => [key(r), r]));
  const ra = counted(a);
  const rb = counted(b);
  const names = [...new Set([...sa.map((s) => s.format), ...sb.map((s) => s.format)])];
  const formats = names.map((format): FormatComparison => {
    const x = sa.find((s) => s.format === format) ?? null;
    const y = sb.find((s) => s.format === format) ?? null;
    const pairs = [...ra].filter(([k, r]) => r.format === format && rb.has(k)).map(([k, r]) => [r, rb.get(k)!] as const);
    const change = (pick: (r: BenchReply) => boolean) => pairs.reduce((n, [p, q]) => n + Number(pick(q)) - Number(pick(p)), 0) / pairs.length;
    const delta =
      x && y && pairs.length > 0
        ? { parsed: change((r) => r.score.parsed), applied: change((r) => r.score.applied), exact: change((r) => r.score.exact) }
        : null;
    return { format, a: x, b: y, delta, shared: pairs.length };
  });
  const keys = [...new Set([...ra.keys(), ...rb.keys()])];
  const replies = keys.map((k): ReplyComparison => {
    const x = ra.get(k);
    const y = rb.get(k);
    const [task, format] = k.split('\u0000');
    const flip = x && y && x.score.exact !== y.score.exact ? (y.score.exact ? 'gained' : 'lost') : null;
    return { task, format, a: outcome(x), b: outcome(y), flip };
  });
  return { formats, replies };
}
