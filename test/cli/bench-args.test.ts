import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { BENCH_USAGE, DEFAULT_CONCURRENCY, DEFAULT_RETRIES, keyFrom, parseBenchArgs, parseRate, type BenchArgs } from '../../src/cli/bench-args.ts';
import { CliError } from '../../src/cli/errors.ts';

const base = ['--endpoint', 'http://127.0.0.1:8080/v1', '--model', 'gpt-4o-mini'];

function parsed(extra: string[] = []): BenchArgs {
  const c = parseBenchArgs([...base, ...extra]);
  assert.equal(c.help, false);
  return c as BenchArgs;
}

function usageError(args: string[], pattern: RegExp): void {
  assert.throws(
    () => parseBenchArgs(args),
    (e: unknown) => e instanceof CliError && e.exitCode === 2 && pattern.test(e.message),
    `${JSON.stringify(args)} → ${pattern}`,
  );
}

test('defaults: openai, every format, the quick tasks, no thresholds', () => {
  assert.deepEqual(parsed(), {
    help: false,
    endpoint: 'http://127.0.0.1:8080/v1',
    model: 'gpt-4o-mini',
    api: 'openai',
    formats: null,
    tasks: 'quick',
    concurrency: DEFAULT_CONCURRENCY,
    retries: DEFAULT_RETRIES,
    idleTimeoutMs: 120_000,
    family: null,
    prompts: [],
    json: false,
    out: null,
    minExact: null,
    minApplied: null,
  });
});

test('every option is read', () => {
  const a = parsed([
    '--api', 'anthropic', '--formats', 'ln-diff, udiff', '--tasks', 'ms-index,bcrypt-ci', '--concurrency', '2',
    '--retries', '0', '--family', 'local', '--prompt', 'ln-diff=p.md', '--prompt', 'udiff=a=b.md', '--json',
    '--out', 'run.json', '--min-exact', '80%', '--min-applied', '0.95',
  ]);
  assert.equal(a.api, 'anthropic');
  assert.deepEqual(a.formats, ['ln-diff', 'udiff']);
  assert.deepEqual(a.tasks, ['ms-index', 'bcrypt-ci']);
  assert.equal(a.concurrency, 2);
  assert.equal(a.retries, 0);
  assert.equal(a.family, 'local');
  assert.deepEqual(a.prompts, [{ format: 'ln-diff', file: 'p.md' }, { format: 'udiff', file: 'a=b.md' }]);
  assert.equal(a.json, true);
  assert.equal(a.out, 'run.json');
  assert.equal(a.minExact, 0.8);
  assert.equal(a.minApplied, 0.95);
  assert.equal(parsed(['--tasks', 'all']).tasks, 'all');
  assert.equal(parsed(['--idle-timeout', '900']).idleTimeoutMs, 900_000);
});

test("a flag's own malformation points to the bench's help", () => {
  for (const argv of [['--formats'], ['--frobnicate']])
    assert.throws(
      () => parsed(argv),
      (e: Error) => /\(try 'ln-diff bench --help'\)$/.test(e.message),
      argv.join(' '),
    );
  assert.throws(() => parsed(['--idle-timeout', '0']), /--idle-timeout must be a whole number from 10 to 3600, found '0'/);
});

test('--help anywhere gives the help', () => {
  assert.deepEqual(parseBenchArgs(['--help']), { help: true });
  assert.deepEqual(parseBenchArgs([...base, '-h']), { help: true });
});

test('malformed command lines are usage errors that name the flag and the value', () => {
  usageError(['--model', 'm'], /needs --endpoint URL/);
  usageError(['--endpoint', 'http://x'], /needs --model NAME/);
  usageError([...base, '--api', 'gemini'], /--api must be openai or anthropic, found 'gemini'/);
  usageError([...base, '--formats', 'ln-diff,,udiff'], /--formats has an empty name at position 2/);
  usageError([...base, '--tasks', 'a,b,a'], /--tasks names 'a' twice/);
  usageError([...base, '--concurrency', '0'], /--concurrency must be a whole number from 1 to 1000, found '0'/);
  usageError([...base, '--retries', '-1'], /--retries/);
  usageError([...base, '--retries', 'two'], /--retries must be a whole number from 0 to 1000, found 'two'/);
  usageError([...base, '--family', 'llama'], /--family must be one of openai, anthropic, gemini, deepseek, qwen, local, found 'llama'/);
  usageError([...base, '--prompt', 'ln-diff'], /--prompt must be FORMAT=FILE, found 'ln-diff'/);
  usageError([...base, '--prompt', 'a=x', '--prompt', 'a=y'], /--prompt names format 'a' twice/);
  usageError([...base, '--min-exact', '1.5'], /--min-exact must be a rate from 0 to 1 or a percentage \(0.8 or 80%\), found '1.5'/);
  usageError([...base, '--out', ''], /--out must name a file/);
  usageError([...base, 'extra'], /bench takes no argument; unexpected 'extra'/);
  usageError([...base, '--bogus'], /unknown option '--bogus'/);
});

test('a key flag is refused with the reason, and the key is not repeated', () => {
  for (const flag of ['--key', '--api-key'])
    assert.throws(
      () => parseBenchArgs([...base, flag, 'sk-secret-123']),
      (e: unknown) => e instanceof CliError && /LN_DIFF_API_KEY/.test(e.message) && /shell history/.test(e.message) && !e.message.includes('sk-secret'),
    );
});

test('rates: fractions and percentages', () => {
  assert.equal(parseRate('min-exact', '0'), 0);
  assert.equal(parseRate('min-exact', '1'), 1);
  assert.equal(parseRate('min-exact', '.5'), 0.5);
  assert.equal(parseRate('min-exact', '100%'), 1);
  assert.equal(parseRate('min-exact', '12.5%'), 0.125);
  for (const bad of ['', '%', '101%', '-0.1', 'half', '0.5.5'])
    assert.throws(() => parseRate('min-exact', bad), CliError, bad);
});

test('the key: LN_DIFF_API_KEY first, then the API’s own variable; empty counts as unset', () => {
  assert.deepEqual(keyFrom({ LN_DIFF_API_KEY: 'a', OPENAI_API_KEY: 'b' }, 'openai'), { key: 'a', variable: 'LN_DIFF_API_KEY' });
  assert.deepEqual(keyFrom({ LN_DIFF_API_KEY: '', OPENAI_API_KEY: 'b' }, 'openai'), { key: 'b', variable: 'OPENAI_API_KEY' });
  assert.deepEqual(keyFrom({ ANTHROPIC_API_KEY: ' c ' }, 'anthropic'), { key: 'c', variable: 'ANTHROPIC_API_KEY' });
  assert.equal(keyFrom({ OPENAI_API_KEY: 'b' }, 'anthropic'), null);
  assert.equal(keyFrom({ ANTHROPIC_API_KEY: 'c' }, 'openai'), null);
  assert.equal(keyFrom({}, 'openai'), null);
});

test("README's Bench section and the usage text name the same flags, variables and exit statuses", () => {
  const readme = readFileSync(join(import.meta.dirname, '../../README.md'), 'utf8');
  const start = readme.indexOf('\n## Bench\n');
  assert.ok(start >= 0, 'README has a Bench section');
  const section = readme.slice(start, readme.indexOf('\n## ', start + 1));
  const flags = (text: string) => new Set(text.match(/--[a-z][a-z-]*/g)?.filter((f) => f !== '--help'));
  assert.deepEqual(flags(section), flags(BENCH_USAGE));
  for (const word of ['LN_DIFF_API_KEY', 'OPENAI_API_KEY', 'ANTHROPIC_API_KEY', 'shell history', 'process lists', '130'])
    for (const [name, text] of [['README', section], ['usage', BENCH_USAGE]]) assert.ok(text.includes(word), `${name} says ${word}`);
});
