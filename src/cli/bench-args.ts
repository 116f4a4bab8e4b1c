// `ln-diff bench`: its usage text, its command line read into plain data,
// and where the API key comes from (the environment, never a flag). Only the
// shape of the values is checked here; which formats and tasks exist, and
// whether the endpoint can be called, are checked by src/cli/bench.ts.

import type { BenchApi } from '../bench/types.ts';
import { parse } from './args.ts';
import { CliError } from './errors.ts';
import { DEFAULT_RETRIES, IDLE_SECONDS } from '../bench/defaults.ts';
import { FAMILIES } from '../bench/prompts.ts';

const BENCH_HINT = " (try 'ln-diff bench --help')";

export const DEFAULT_CONCURRENCY = 4;
export { DEFAULT_RETRIES };

/** The prompt families `--family` may name. */
export { FAMILIES };

/** The environment variables a key is read from, first set one wins. */
export function keyVariables(api: BenchApi): string[] {
  return ['LN_DIFF_API_KEY', api === 'anthropic' ? 'ANTHROPIC_API_KEY' : 'OPENAI_API_KEY'];
}

export const BENCH_USAGE = `Usage: ln-diff bench --endpoint URL --model NAME [options]

Ask a model for every chosen task of the bench suite (real changes between two
npm releases) in every chosen edit format, apply each reply with the engine and
score it; then print one line per format.

  --endpoint URL          Base URL of the chat API (http://127.0.0.1:11434/v1,
                          https://api.openai.com/v1, https://api.anthropic.com)
  --model NAME            Model name sent (also picks the prompt family)
  --api openai|anthropic  The API it speaks (default: openai, any OpenAI-compatible server)
  --formats a,b,c         Edit formats to compare (default: every format with a prompt)
  --tasks quick|all|id,id Tasks: the 8 quick ones (default), all, or these ids
  --concurrency N         Requests in flight at once (default: ${DEFAULT_CONCURRENCY})
  --retries N             Retries of a transient failure: HTTP 429, 5xx, a dropped
                          connection (default: ${DEFAULT_RETRIES}; 0 for none)
  --idle-timeout SECONDS  A reply that sends nothing for this long, the wait for its
                          first byte included, is cut off as stalled (default: ${IDLE_SECONDS.default}, at most ${IDLE_SECONDS.max};
                          raise it for a slow local model reading a long prompt)
  --family NAME           Prompt family instead of the model's own: ${FAMILIES.join(', ')}
  --prompt FORMAT=FILE    Send FILE as FORMAT's system prompt (no reminder); repeatable
  --json                  Print the run as JSON (what the Bench page opens) instead of the table
  --out FILE              Write the run as JSON to FILE (the table still prints, unless --json)
  --min-exact RATE        Exit 1 unless every format's exact rate is at least RATE (0.8 or 80%)
  --min-applied RATE      Exit 1 unless every format's applied rate is at least RATE

The API key is read from the environment: LN_DIFF_API_KEY, else OPENAI_API_KEY
(--api openai) or ANTHROPIC_API_KEY (--api anthropic). There is no key flag:
command lines end up in shell history and in process lists other users can read.
The key is sent to the endpoint only, and never printed or written. A server
on this machine (llama.cpp, LM Studio, Ollama) needs none.

Ctrl-C stops the run: replies in flight are marked stopped and the partial run
is still printed (and written with --out).

Exit status: 0 the run finished and met every --min-* threshold; 1 some format
missed a threshold (named on stderr), or no reply came back at all (nothing was
measured); 2 usage error (unknown format or task,
bad URL, missing key: nothing is sent), or the API refused the key for every
request; 3 internal error; 130 stopped by Ctrl-C.
`;

export interface BenchArgs {
  endpoint: string;
  model: string;
  api: BenchApi;
  /** Format names as given; null: every format with a prompt. */
  formats: string[] | null;
  tasks: 'quick' | 'all' | string[];
  concurrency: number;
  retries: number;
  /** A reply that sends nothing for this long (the first byte included) is cut off as stalled. */
  idleTimeoutMs: number;
  /** A prompt family to use for every format instead of the model's. */
  family: string | null;
  /** `--prompt FORMAT=FILE`, in order. */
  prompts: { format: string; file: string }[];
  json: boolean;
  out: string | null;
  /** Rates 0..1. */
  minExact: number | null;
  minApplied: number | null;
}

export type BenchCommandLine = { help: true } | ({ help: false } & BenchArgs);

/** A comma-separated list: every item non-empty and named once. */
function list(flag: string, value: string): string[] {
  const items = value.split(',').map((s) => s.trim());
  items.forEach((item, k) => {
    if (item === '') throw new CliError(`--${flag} has an empty name at position ${k + 1} in '${value}'`);
    if (items.indexOf(item) !== k) throw new CliError(`--${flag} names '${item}' twice`);
  });
  return items;
}

/** `0.8`, `1`, `80%`: a rate 0..1. */
export function parseRate(flag: string, value: string): number {
  const percent = value.endsWith('%');
  const number = percent ? value.slice(0, -1) : value;
  const rate = /^[0-9]*\.?[0-9]+$/.test(number) ? Number(number) / (percent ? 100 : 1) : NaN;
  if (!(rate >= 0 && rate <= 1))
    throw new CliError(`--${flag} must be a rate from 0 to 1 or a percentage (0.8 or 80%), found '${value}'`);
  return rate;
}

function whole(flag: string, value: string | undefined, fallback: number, min: number, max = 1000): number {
  if (value === undefined) return fallback;
  if (!/^[0-9]+$/.test(value) || Number(value) < min || Number(value) > max)
    throw new CliError(`--${flag} must be a whole number from ${min} to ${max}, found '${value}'`);
  return Number(value);
}

/** The bench's command line (the words after `bench`); throws CliError (exit 2) for a malformed one. */
export function parseBenchArgs(argv: readonly string[]): BenchCommandLine {
  const { values, positionals } = parse([...argv], {
    help: { type: 'boolean', short: 'h' },
    endpoint: { type: 'string' },
    model: { type: 'string' },
    api: { type: 'string' },
    formats: { type: 'string' },
    tasks: { type: 'string' },
    concurrency: { type: 'string' },
    retries: { type: 'string' },
    family: { type: 'string' },
    prompt: { type: 'string', multiple: true },
    json: { type: 'boolean' },
    out: { type: 'string' },
    'min-exact': { type: 'string' },
    'min-applied': { type: 'string' },
    // Refused by name below, so the message can say why.
    key: { type: 'string' },
    'api-key': { type: 'string' },
    'idle-timeout': { type: 'string' },
  }, BENCH_HINT);
  if (values.help) return { help: true };
  for (const flag of ['key', 'api-key'])
    if (values[flag] !== undefined)
      throw new CliError(`--${flag} is not taken: put the key in LN_DIFF_API_KEY (command lines end up in shell history and process lists)`);
  if (positionals.length > 0) throw new CliError(`bench takes no argument; unexpected '${positionals[0]}'${BENCH_HINT}`);
  const str = (k: string) => values[k] as string | undefined;

  const endpoint = str('endpoint');
  if (endpoint === undefined || endpoint.trim() === '') throw new CliError(`bench needs --endpoint URL${BENCH_HINT}`);
  const model = str('model');
  if (model === undefined) throw new CliError(`bench needs --model NAME, the model to ask${BENCH_HINT}`);
  const api = str('api') ?? 'openai';
  if (api !== 'openai' && api !== 'anthropic') throw new CliError(`--api must be openai or anthropic, found '${api}'`);

  const tasksValue = str('tasks') ?? 'quick';
  const tasks = tasksValue === 'quick' || tasksValue === 'all' ? tasksValue : list('tasks', tasksValue);
  const formats = str('formats') === undefined ? null : list('formats', str('formats')!);

  const family = str('family') ?? null;
  if (family !== null && !(FAMILIES as readonly string[]).includes(family))
    throw new CliError(`--family must be one of ${FAMILIES.join(', ')}, found '${family}'`);

  const prompts = ((values.prompt as string[] | undefined) ?? []).map((p) => {
    const eq = p.indexOf('=');
    if (eq <= 0 || eq === p.length - 1) throw new CliError(`--prompt must be FORMAT=FILE, found '${p}'`);
    return { format: p.slice(0, eq), file: p.slice(eq + 1) };
  });
  prompts.forEach((p, k) => {
    if (prompts.findIndex((q) => q.format === p.format) !== k) throw new CliError(`--prompt names format '${p.format}' twice`);
  });

  const out = str('out') ?? null;
  if (out === '') throw new CliError('--out must name a file');
  const rate = (flag: string) => (str(flag) === undefined ? null : parseRate(flag, str(flag)!));

  return {
    help: false,
    endpoint,
    model,
    api,
    formats,
    tasks,
    concurrency: whole('concurrency', str('concurrency'), DEFAULT_CONCURRENCY, 1),
    retries: whole('retries', str('retries'), DEFAULT_RETRIES, 0),
    idleTimeoutMs: whole('idle-timeout', str('idle-timeout'), IDLE_SECONDS.default, IDLE_SECONDS.min, IDLE_SECONDS.max) * 1000,
    family,
    prompts,
    json: values.json === true,
    out,
    minExact: rate('min-exact'),
    minApplied: rate('min-applied'),
  };
}

/** The API key from the environment (empty counts as unset), with the variable it came from; null when none is set. */
export function keyFrom(env: Record<string, string | undefined>, api: BenchApi): { key: string; variable: string } | null {
  for (const variable of keyVariables(api)) {
    const key = env[variable]?.trim();
    if (key) return { key, variable };
  }
  return null;
}
