// `ln-diff bench` as users run it: the built command (and once the sources
// through tsx) against the scripted chat server of test/bench/server.ts on a
// free loopback port, each task and format answered with a chosen behaviour.

import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readRun } from '../../src/bench/file.ts';
import { formatPlan, promptTable, sectionFor } from '../../src/bench/prompts.ts';
import { BENCH_FORMATS, QUICK_TASKS, selectTasks } from '../../src/bench/select.ts';
import { parseSuite } from '../../src/bench/tasks.ts';
import type { BenchRun } from '../../src/bench/types.ts';
import { startBenchServer, type BenchServer, type Stall } from '../bench/server.ts';
import type { Behaviour } from '../bench/replies.ts';
import { runBench, start, type Finished } from './bench-process.ts';
import { ROOT, tempDir } from './helpers.ts';

const suite = parseSuite(JSON.parse(readFileSync(join(ROOT, 'bench/tasks/suite.json'), 'utf8')));
const table = promptTable(BENCH_FORMATS.map((format) => ({ format, markdown: readFileSync(join(ROOT, 'spec/prompts', `${format}.md`), 'utf8') })));
const MODEL = 'gpt-4.1';
const KEY = 'sk-cli-test-4d1f0a9b7c-SECRET';
/** Three quick tasks, in suite order (the order a run's replies are in). */
const TASKS = selectTasks(suite, QUICK_TASKS.slice(0, 3));
const IDS = TASKS.map((t) => t.id);
const FORMATS = ['ln-diff', 'search-replace'];

/** A server for TASKS × every bench format, answering as `behaviour` says; closed after the file's tests. */
const servers: BenchServer[] = [];
async function server(behaviour: (task: string, format: string) => Behaviour, more: { key?: string; onStall?: (s: Stall) => void } = {}): Promise<BenchServer> {
  const s = await startBenchServer({ tasks: TASKS, plans: BENCH_FORMATS.map((f) => formatPlan(table, f, MODEL)), behaviour, ...more });
  servers.push(s);
  return s;
}
after(() => Promise.all(servers.map((s) => s.close())));

const args = (s: BenchServer, ...more: string[]) => ['bench', '--endpoint', s.base, '--model', MODEL, ...more];

function runOf(text: string): BenchRun {
  const read = readRun(text);
  assert.ok(read.ok, read.ok ? '' : read.error);
  return read.run;
}

function exited(r: Finished, status: number): void {
  assert.equal(r.status, status, `exit ${r.status} (${r.signal ?? 'no signal'})\nstdout: ${r.stdout}\nstderr: ${r.stderr}`);
}

const rates = (run: BenchRun, format: string) => {
  const mine = run.replies.filter((r) => r.format === format);
  return { replies: mine.length, parsed: mine.filter((r) => r.score.parsed).length, exact: mine.filter((r) => r.score.exact).length };
};

/** A server the refused command lines name: it must never see a request. */
let untouched: BenchServer;
before(async () => {
  untouched = await server(() => 'right');
});

test('--json prints the run (what the page opens): right replies score exact, prose-only ones parse nothing', async () => {
  const s = await server((_task, format) => (format === 'ln-diff' ? 'right' : 'prose-only'));
  const r = await runBench(args(s, '--formats', FORMATS.join(','), '--tasks', IDS.join(','), '--json'));
  exited(r, 0);
  assert.equal(r.stderr, '', 'nothing but the result: no progress off a terminal');
  const run = runOf(r.stdout);
  assert.equal(run.stopped, false);
  assert.equal(run.engine, `ln-diff ${JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).version}`);
  assert.deepEqual(run.config.endpoint, { api: 'openai', baseUrl: s.base, model: MODEL });
  assert.deepEqual(run.config.tasks, IDS);
  assert.deepEqual(run.config.formats.map((p) => [p.format, p.family]), FORMATS.map((f) => [f, formatPlan(table, f, MODEL).family]));
  assert.deepEqual(
    run.replies.map((x) => [x.task, x.format, x.status]),
    IDS.flatMap((id) => FORMATS.map((f) => [id, f, 'done'])),
    'every task in every format, task then format',
  );
  assert.deepEqual(rates(run, 'ln-diff'), { replies: 3, parsed: 3, exact: 3 });
  assert.deepEqual(rates(run, 'search-replace'), { replies: 3, parsed: 0, exact: 0 });
  assert.ok(run.replies.every((x) => x.tokens.method === 'usage' && x.tokens.output === 56));
  assert.equal(s.posts().length, 6);
});

test('the table: a line per format with its rates, the match kinds and the reported token median', async () => {
  const s = await server((task, format) => (format === 'search-replace' ? 'prose-only' : task === IDS[0] ? 'off-by-one' : 'right'));
  const r = await runBench(args(s, '--formats', FORMATS.join(','), '--tasks', IDS.join(',')));
  exited(r, 0);
  assert.equal(r.stderr, '');
  assert.ok(!r.stdout.includes('\x1b'), 'no colour off a terminal');
  const lines = r.stdout.split('\n');
  assert.equal(lines[0], `ln-diff bench: ${MODEL} at ${s.base} (openai), 3 tasks × 2 formats, 6 replies`);
  assert.match(lines[1], /^format +replies +parsed +applied +exact +matches +output tokens +first token +total time$/);
  const time = String.raw`(\d+ms|\d+\.\ds|\d+m\d\ds)`;
  assert.match(lines[2], new RegExp(String.raw`^ln-diff +3 +100% +100% +100% +exact \d+ · offset \d+ +56 +${time} +${time}$`));
  assert.match(lines[3], new RegExp(String.raw`^search-replace +3 +0% +0% +0% +– +56 +${time} +${time}$`));
  assert.equal(lines.length, 5, 'no problem lines and no ~ note: nothing failed, every count was reported');
  assert.equal(lines[4], '');
});

test('--json with --out: the same run on stdout and in the file', async (t) => {
  const out = join(tempDir(t), 'run.json');
  const r = await runBench(args(await server(() => 'right'), '--formats', 'whole', '--tasks', IDS[0], '--json', '--out', out));
  exited(r, 0);
  assert.equal(readFileSync(out, 'utf8'), r.stdout);
  assert.deepEqual(runOf(r.stdout).replies.map((x) => [x.format, x.score.exact]), [['whole', true]]);
});

test('--family and --prompt choose what each format is asked with, and the run records it', async (t) => {
  const file = join(tempDir(t), 'udiff-prompt.md');
  const custom = 'Reply with one unified diff per changed file.\n';
  writeFileSync(file, custom);
  const local = sectionFor(table, 'ln-diff', 'local', MODEL)!;
  assert.match(local.family, /^Llama/);
  const plans = [
    { format: 'ln-diff', family: local.family, system: local.system, reminder: local.reminder },
    { format: 'udiff', family: 'custom', system: custom, reminder: null },
  ];
  const s = await startBenchServer({ tasks: TASKS, plans, behaviour: () => 'right' });
  servers.push(s);
  const r = await runBench(args(s, '--formats', 'ln-diff,udiff', '--tasks', IDS[0], '--family', 'local', '--prompt', `udiff=${file}`, '--json'));
  exited(r, 0);
  const run = runOf(r.stdout);
  assert.deepEqual(run.config.formats, plans);
  assert.deepEqual(run.replies.map((x) => [x.format, x.status, x.score.exact]), [['ln-diff', 'done', true], ['udiff', 'done', true]]);
});

test('--min-exact: a format below it fails with exit 1 and is named; the table still prints', async () => {
  const s = await server((_task, format) => (format === 'ln-diff' ? 'right' : 'prose-only'));
  const r = await runBench(args(s, '--formats', FORMATS.join(','), '--tasks', IDS[0], '--min-exact', '90%'));
  exited(r, 1);
  assert.match(r.stdout, /^ln-diff bench: /);
  assert.equal(r.stderr, 'ln-diff: search-replace: exact 0% (0 of 1), below --min-exact 90%\n');
  const met = await runBench(args(s, '--formats', 'ln-diff', '--tasks', IDS[0], '--min-exact', '1', '--min-applied', '1'));
  exited(met, 0);
});

test('the key is read from the environment, sent as a header, and is nowhere in the output or the --out file', async (t) => {
  const dir = tempDir(t);
  for (const [api, variable, header, model] of [
    ['openai', 'OPENAI_API_KEY', 'authorization', MODEL],
    ['anthropic', 'ANTHROPIC_API_KEY', 'x-api-key', 'claude-sonnet-4-5'],
    ['openai', 'LN_DIFF_API_KEY', 'authorization', MODEL],
  ] as const) {
    const s = await startBenchServer({ tasks: TASKS, plans: FORMATS.map((f) => formatPlan(table, f, model)), behaviour: () => 'right', key: KEY });
    servers.push(s);
    const out = join(dir, `${api}-${variable}.json`);
    const r = await runBench(
      ['bench', '--api', api, '--endpoint', s.base, '--model', model, '--formats', FORMATS.join(','), '--tasks', IDS[0], '--out', out],
      { [variable]: KEY },
    );
    exited(r, 0);
    const posts = s.posts();
    assert.equal(posts.length, 2);
    for (const p of posts) assert.equal(p.headers[header], api === 'openai' ? `Bearer ${KEY}` : KEY, `${variable} → ${header}`);
    const written = readFileSync(out, 'utf8');
    assert.deepEqual(runOf(written).replies.map((x) => x.score.exact), [true, true], 'the server accepted the key');
    for (const [where, text] of [['stdout', r.stdout], ['stderr', r.stderr], ['--out', written]])
      assert.ok(!text.includes(KEY) && !text.includes('SECRET'), `no key in ${where}`);
  }
});

test('a key the API refuses every time: the replies say auth, the command exits 2 and names the variables', async () => {
  const s = await startBenchServer({ tasks: TASKS, plans: [formatPlan(table, 'ln-diff', MODEL)], behaviour: () => 'right', key: KEY });
  servers.push(s);
  const wrong = 'sk-wrong-7e3c1d9f00';
  const r = await runBench(args(s, '--formats', 'ln-diff', '--tasks', IDS.slice(0, 2).join(','), '--json'), { OPENAI_API_KEY: wrong });
  exited(r, 2);
  assert.deepEqual(runOf(r.stdout).replies.map((x) => x.status), ['auth', 'auth']);
  assert.equal(s.posts().length, 2, 'a refused key is not retried');
  const lines = r.stderr.split('\n');
  assert.match(lines[0], /^ln-diff: 2 replies: .*401/);
  assert.equal(lines[1], 'ln-diff: the API refused the key for every request: check LN_DIFF_API_KEY or OPENAI_API_KEY');
  assert.ok(!r.stdout.includes(wrong) && !r.stderr.includes(wrong));
});

test('a server\'s error text reaches stderr with its control characters shown, not sent to the terminal', async () => {
  const { createServer } = await import('node:http');
  // An endpoint (a proxy, a hostile server) whose error body holds terminal escapes: clear the screen, set the title, ring.
  const evil = createServer((_req, res) => {
    res.writeHead(500, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ error: { message: 'oops \u001b[2J\u001b]0;owned\u0007 done' } }));
  });
  await new Promise<void>((resolve) => evil.listen(0, '127.0.0.1', resolve));
  try {
    const port = (evil.address() as { port: number }).port;
    const r = await runBench(['bench', '--endpoint', `http://127.0.0.1:${port}/v1`, '--model', MODEL, '--formats', 'ln-diff', '--tasks', IDS[0], '--retries', '0'], { OPENAI_API_KEY: KEY });
    exited(r, 1); // every request failed: nothing was measured
    assert.ok(!/[\u0000-\u0009\u000b-\u001f\u007f]/.test(r.stderr), JSON.stringify(r.stderr));
    assert.match(r.stderr, /^ln-diff: 1 reply: The server answered HTTP 500 Internal Server Error\. The server said: “oops \\x1b\[2J\\x1b\]0;owned\\x07 done”\nln-diff: no reply came back \(see the errors above\): nothing was measured\n$/);
  } finally {
    evil.close();
  }
});

test('a missing key for an API that needs one: exit 2 naming the variables, no request sent', async () => {
  const anthropic = await runBench(['bench', '--api', 'anthropic', '--endpoint', untouched.base, '--model', 'claude-sonnet-4-5']);
  exited(anthropic, 2);
  assert.equal(anthropic.stdout, '');
  assert.match(anthropic.stderr, /^ln-diff: no API key for Anthropic \(.*\): set LN_DIFF_API_KEY or ANTHROPIC_API_KEY in the environment/);
  const hosted = await runBench(['bench', '--endpoint', 'https://api.openai.com/v1', '--model', MODEL], { ANTHROPIC_API_KEY: KEY });
  exited(hosted, 2);
  assert.match(hosted.stderr, /^ln-diff: no API key for OpenAI \(https:\/\/api\.openai\.com\/v1\): set LN_DIFF_API_KEY or OPENAI_API_KEY/);
  assert.equal(untouched.requests.length, 0);
});

test('unknown formats, tasks and bad URLs: exit 2 naming them, nothing sent', async () => {
  const cases: [string[], RegExp][] = [
    [args(untouched, '--formats', 'ln-diff,frobnicate'), /--formats: unknown format 'frobnicate' \(item 2\); expected some of: ln-diff, /],
    [args(untouched, '--tasks', `${IDS[0]},no-such-task`), /--tasks: the suite has no task "no-such-task"/],
    [args(untouched, '--prompt', 'udiff=x.md', '--formats', 'ln-diff'), /--prompt udiff=…: 'udiff' is not among the formats run \(ln-diff\)/],
    [args(untouched, '--prompt', 'ln-diff=/no/such/prompt.md', '--formats', 'ln-diff'), /--prompt ln-diff=\/no\/such\/prompt\.md: cannot read it \(ENOENT\)/],
    [args(untouched, '--out', '/no/such/dir/run.json'), /--out \/no\/such\/dir\/run\.json: the directory \/no\/such\/dir does not exist/],
    [['bench', '--endpoint', 'https://me:sk-in-url-123@api.openai.com/v1', '--model', MODEL], /--endpoint: a key does not go in the URL; set LN_DIFF_API_KEY or OPENAI_API_KEY in the environment/],
    [['bench', '--endpoint', 'localhost:8080', '--model', MODEL], /--endpoint 'localhost:8080': the base URL must start with http:\/\/ or https:\/\//],
    [['bench', '--endpoint', 'http://127.0.0.1:6000/v1', '--model', MODEL], /--endpoint 'http:\/\/127\.0\.0\.1:6000\/v1': fetch refuses to connect to port 6000/],
    [['bench', '--endpoint', 'http://127.0.0.1:11434/v1', '--model', ''], /--model is empty; name the model: Ollama needs one \(for example llama3\.2\)\.\n/],
    [['bench', '--api', 'anthropic', '--endpoint', 'https://api.anthropic.com', '--model', ''], /--model is empty and no API key is set: name the model, and set LN_DIFF_API_KEY or ANTHROPIC_API_KEY/],
  ];
  for (const [argv, message] of cases) {
    const r = await runBench(argv);
    exited(r, 2);
    assert.equal(r.stdout, '');
    assert.match(r.stderr, new RegExp(`^ln-diff: ${message.source}`), argv.join(' '));
    assert.equal(r.stderr.split('\n').length, 2, 'one line');
    assert.ok(!r.stderr.includes('sk-in-url'), 'a key in the URL is not repeated');
  }
  assert.equal(untouched.requests.length, 0);
});

test('bench --help: the options, and why the key is not one', async () => {
  const r = await runBench(['bench', '--help']);
  exited(r, 0);
  for (const word of ['--endpoint URL', '--model NAME', '--api', '--formats', '--tasks', '--concurrency', '--retries', '--family', '--prompt', '--json', '--out', '--min-exact', '--min-applied', 'LN_DIFF_API_KEY', 'shell history', '130'])
    assert.ok(r.stdout.includes(word), word);
  const main = await runBench(['--help']);
  assert.match(main.stdout, /bench --endpoint URL --model NAME/);
});

test('Ctrl-C while a reply streams: exit 130, the partial run printed and written, the reply in flight marked stopped', async (t) => {
  const out = join(tempDir(t), 'partial.json');
  let interrupt = () => {};
  const s = await server((task) => (task === IDS[1] ? 'stalled' : 'right'), { onStall: () => interrupt() });
  const running = start(args(s, '--formats', 'ln-diff', '--tasks', IDS.join(','), '--concurrency', '1', '--out', out));
  interrupt = () => running.child.kill('SIGINT');
  const r = await running.done;
  exited(r, 130);
  assert.equal(s.stalls.length, 1);
  const run = runOf(readFileSync(out, 'utf8'));
  assert.equal(run.stopped, true);
  assert.deepEqual(
    run.replies.map((x) => [x.task, x.status]),
    [[IDS[0], 'done'], [IDS[1], 'stopped']],
    'the finished reply, the one in flight, and not the one never started',
  );
  assert.equal(run.replies[0].score.exact, true);
  assert.equal(run.replies[1].reply, s.stalls[0].sent, 'what came before the stop is kept');
  assert.equal(s.posts().length, 2);
  assert.match(r.stdout, /^ln-diff bench: .*, 1 reply; stopped by the user \(2 not counted\)\n/);
  assert.match(r.stdout, /\nln-diff +1 +100% +100% +100% /);
  assert.match(r.stderr, new RegExp(`ln-diff: stopped: 1 of 3 replies finished; the partial run is in ${out.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\n$`));
});

test('from the sources (tsx): the suite and the prompts are found next to src/', async () => {
  const s = await server(() => 'right');
  const r = await new Promise<Finished>((resolve, reject) => {
    const env: NodeJS.ProcessEnv = { ...process.env };
    delete env.NODE_OPTIONS;
    const child = spawn(process.execPath, [join(ROOT, 'bin/ln-diff-src.mjs'), ...args(s, '--formats', 'udiff', '--tasks', IDS[0], '--json')], { env, cwd: ROOT });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (x: string) => (stdout += x));
    child.stderr.setEncoding('utf8').on('data', (x: string) => (stderr += x));
    child.on('error', reject);
    child.on('close', (status, signal) => resolve({ status, signal, stdout, stderr }));
  });
  exited(r, 0);
  const run = runOf(r.stdout);
  assert.deepEqual(run.replies.map((x) => [x.task, x.format, x.score.exact]), [[IDS[0], 'udiff', true]]);
});

test('no reply came back at all (nothing listens at the endpoint): exit 1, saying nothing was measured', async () => {
  // A port that was just free: nothing listens there.
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const port = (probe.address() as AddressInfo).port;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  const r = await runBench(['bench', '--endpoint', `http://127.0.0.1:${port}/v1`, '--model', MODEL, '--formats', 'ln-diff', '--tasks', IDS[0], '--retries', '0']);
  exited(r, 1);
  assert.match(r.stderr, /no reply came back \(see the errors above\): nothing was measured\n$/);
  assert.match(r.stderr, /Could not reach http:\/\/127\.0\.0\.1:\d+/);
});

test('a reader that closes the pipe early (ln-diff bench --json | head -c 1) ends the run quietly, exit 0', async () => {
  const s = await server(() => 'right');
  const run = start(args(s, '--formats', 'ln-diff', '--tasks', IDS[0], '--json'));
  // Nobody reads stdout: the first write the run makes meets a closed pipe.
  run.child.stdout!.destroy();
  const r = await run.done;
  exited(r, 0);
  assert.doesNotMatch(r.stderr, /EPIPE|Unhandled|internal error/);
});
