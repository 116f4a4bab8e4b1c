import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { BenchReply, BenchRun, FormatSummary } from '../../src/bench/types.ts';
import {
  benchTable,
  duration,
  headLine,
  matchesText,
  percent,
  problemsLine,
  progressAfter,
  progressLine,
  skippedLine,
  startLine,
  startProgress,
  thresholdFailures,
  tokens,
} from '../../src/cli/bench-table.ts';
import type { Style } from '../../src/cli/summary.ts';

const plain: Style = { ok: (s) => s, warn: (s) => s, fail: (s) => s, dim: (s) => s };
const noMatches = { exact: 0, offset: 0, whitespace: 0, fuzzy: 0, failed: 0 };

function summary(format: string, over: Partial<FormatSummary> = {}): FormatSummary {
  return {
    format,
    replies: 8,
    parsed: 8,
    applied: 7,
    exact: 6,
    rates: { parsed: 1, applied: 7 / 8, exact: 6 / 8 },
    matches: { ...noMatches, exact: 20, offset: 2, failed: 1 },
    codes: {},
    statuses: {},
    cutOff: 0,
    median: { input: 5000, output: 412, firstToken: 850, total: 8400 },
    estimated: false,
    ...over,
  };
}

function run(over: Partial<BenchRun> = {}): BenchRun {
  return {
    version: 1,
    engine: 'ln-diff 0.1.0',
    started: '2026-01-01T00:00:00.000Z',
    finished: '2026-01-01T00:01:00.000Z',
    stopped: false,
    config: {
      endpoint: { api: 'openai', baseUrl: 'http://127.0.0.1:8080/v1', model: 'gpt-4o-mini' },
      formats: [
        { format: 'ln-diff', family: 'x', system: '', reminder: null },
        { format: 'search-replace', family: 'x', system: '', reminder: null },
      ],
      tasks: ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h'],
      concurrency: 4,
      retries: 2,
      idleTimeoutMs: 1000,
    },
    replies: [],
    ...over,
  };
}

test('numbers: rates rounded but never to 0% or 100% unless exact (as the page), tokens and times are short', () => {
  assert.equal(percent(7 / 8, 8), '88%');
  assert.equal(percent(199 / 200, 200), '99%');
  assert.equal(percent(1 / 400, 400), '1%');
  assert.equal(percent(0, 4), '0%');
  assert.equal(percent(0.29, 100), '29%');
  assert.equal(percent(1, 3), '100%');
  assert.equal(percent(0, 0), '–');
  assert.deepEqual([412, 3210, 48_900, 1_250_000].map(tokens), ['412', '3.2k', '48k', '1.2M']);
  assert.deepEqual([850, 1290, 65_000].map(duration), ['850ms', '1.2s', '1m05s']);
  assert.equal(matchesText({ ...noMatches, exact: 3, fuzzy: 1, failed: 2 }), 'exact 3 · fuzzy 1 · failed 2');
  assert.equal(matchesText(noMatches), '–');
});

test('the table: a head line, column heads, one aligned line per format', () => {
  const lines = benchTable(
    run(),
    [summary('ln-diff'), summary('search-replace', { replies: 8, parsed: 0, applied: 0, exact: 0, rates: { parsed: 0, applied: 0, exact: 0 }, matches: noMatches, median: { input: 10, output: 1500, firstToken: null, total: 61_000 }, estimated: true })],
    plain,
  );
  assert.deepEqual(lines.slice(0, 4), [
    'ln-diff bench: gpt-4o-mini at http://127.0.0.1:8080/v1 (openai), 8 tasks × 2 formats, 0 replies',
    'format          replies  parsed  applied  exact  matches                         output tokens  first token  total time',
    'ln-diff               8    100%      88%    75%  exact 20 · offset 2 · failed 1            412        850ms        8.4s',
    'search-replace        8      0%       0%     0%  –                                       ~1.5k            –       1m01s',
  ]);
  assert.equal(lines.at(-1), '~ estimated (characters / 4): the API reported no token counts');
});

test('no ~ note when every count was reported', () => {
  const lines = benchTable(run(), [summary('ln-diff')], plain);
  assert.equal(lines.length, 3);
  assert.ok(!lines.join('\n').includes('~'));
});

test('a stopped run says so and how many replies were not counted', () => {
  const reply = { status: 'done' } as BenchReply;
  const stopped = { status: 'stopped' } as BenchReply;
  assert.equal(
    headLine(run({ stopped: true, replies: [reply, reply, stopped] })),
    'ln-diff bench: gpt-4o-mini at http://127.0.0.1:8080/v1 (openai), 8 tasks × 2 formats, 2 replies; stopped by the user (14 not counted)',
  );
  const model = run();
  model.config.endpoint.model = '';
  model.config.tasks = ['a'];
  model.config.formats.length = 1;
  assert.match(headLine(model), /\(the server’s model\) .*1 task × 1 format, 0 replies$/);
});

test('problems: statuses not done and failure codes, most frequent first', () => {
  assert.equal(problemsLine(summary('ln-diff')), null);
  assert.equal(
    problemsLine(summary('udiff', { statuses: { stalled: 1, http: 2 }, codes: { elided: 1, 'no-match': 3 } })),
    'udiff: replies not done: 2 http, 1 stalled; failures: no-match 3, elided 1',
  );
  const lines = benchTable(run(), [summary('ln-diff'), summary('udiff', { codes: { 'no-match': 1 } })], plain);
  assert.deepEqual(lines.slice(4), ['', 'udiff: failures: no-match 1']);
});

test('thresholds: every format below one is named with its rate', () => {
  const s = [summary('ln-diff'), summary('udiff', { exact: 2, rates: { parsed: 1, applied: 7 / 8, exact: 0.25 } })];
  assert.deepEqual(thresholdFailures(s, { exact: null, applied: null }), []);
  assert.deepEqual(thresholdFailures(s, { exact: 0.75, applied: null }), ['udiff: exact 25% (2 of 8), below --min-exact 75%']);
  assert.deepEqual(thresholdFailures(s, { exact: 0.5, applied: 0.9 }), [
    'ln-diff: applied 88% (7 of 8), below --min-applied 90%',
    'udiff: exact 25% (2 of 8), below --min-exact 50%',
    'udiff: applied 88% (7 of 8), below --min-applied 90%',
  ]);
  const none = summary('whole', { replies: 0, rates: { parsed: 0, applied: 0, exact: 0 } });
  assert.deepEqual(thresholdFailures([none], { exact: 0, applied: null }), []);
  assert.deepEqual(thresholdFailures([none], { exact: 0.1, applied: null }), ['whole: no reply was counted, below --min-exact 10%']);
});

test('progress: done of total, what streams now, tokens out so far', () => {
  const state = startProgress();
  progressAfter(state, { type: 'start', total: 24, estimate: { input: 1, output: 1, method: 'estimate' } });
  assert.equal(progressLine(state), '0/24 · 0 tokens out');
  progressAfter(state, { type: 'request', task: 'ms-index', format: 'ln-diff', attempt: 1 });
  progressAfter(state, { type: 'text', task: 'ms-index', format: 'ln-diff', chars: 400 });
  assert.equal(progressLine(state), '0/24 · ln-diff · ms-index · 100 tokens out');
  const reply = { task: 'ms-index', format: 'ln-diff', reply: 'x'.repeat(800), tokens: { input: 1, output: 3100, method: 'usage' } } as BenchReply;
  progressAfter(state, { type: 'reply', reply, done: 12, total: 24 });
  assert.equal(progressLine(state), '12/24 · ln-diff · ms-index · 3.1k tokens out');
  assert.ok(!/\x1b/.test(progressLine(state)));
});

test('the best value of each column is marked (only when formats are compared)', () => {
  const mark: Style = { ...plain, ok: (s) => `[${s}]` };
  const a = summary('ln-diff');
  const b = summary('udiff', { exact: 2, rates: { parsed: 1, applied: 7 / 8, exact: 0.25 }, median: { input: 1, output: 300, firstToken: 900, total: 9000 } });
  const best = { parsed: ['ln-diff', 'udiff'], applied: ['ln-diff', 'udiff'], exact: ['ln-diff'], input: ['udiff'], output: ['udiff'], firstToken: ['ln-diff'], total: ['ln-diff'] };
  const lines = benchTable(run(), [a, b], mark, best);
  assert.match(lines[2], /^ln-diff +8 +\[100%\] +\[88%\] +\[75%\] +exact 20 · offset 2 · failed 1 +412 +\[850ms\] +\[8\.4s\]$/);
  assert.match(lines[3], /^udiff +8 +\[100%\] +\[88%\] +25% +exact 20 · offset 2 · failed 1 +\[300\] +900ms +9\.0s$/);
  // Marks do not move the columns: the unmarked table lines up the same.
  const bare = benchTable(run(), [a, b], plain, best);
  for (const k of [2, 3]) assert.equal(lines[k].replace(/[[\]]/g, ''), bare[k]);
  assert.ok(!benchTable(run(), [a], mark, { ...best, exact: ['ln-diff'] }).join('\n').includes('['), 'one format: nothing to compare');
});

test('the start line: requests, and the tokens they are estimated to take', () => {
  assert.equal(
    startLine({ tasks: 8, formats: 3 }, { input: 120_400, output: 30_100, method: 'estimate' }),
    '24 requests (8 tasks × 3 formats), about 120k tokens in and 30k out (estimated from lengths)',
  );
  assert.equal(startLine({ tasks: 1, formats: 1 }, { input: 900, output: 40, method: 'o200k' }), '1 request (1 task × 1 format), about 900 tokens in and 40 out (counted)');
});

test('pairs a format cannot say: counted out of the requests, named under the table', () => {
  assert.equal(
    startLine({ tasks: 2, formats: 3, requests: 3 }, { input: 900, output: 40, method: 'estimate' }),
    '3 requests (2 tasks × 3 formats, 3 not asked), about 900 tokens in and 40 out (estimated from lengths)',
  );
  const skipped = [
    { task: 'bcrypt-ci', format: 'ln-diff', reason: 'ln-diff does not carry deleting a file' },
    { task: 'bcrypt-ci', format: 'whole', reason: 'whole does not carry deleting a file' },
    { task: 'ts-lib-promise', format: 'whole', reason: 'whole does not carry which line break' },
  ];
  assert.equal(skippedLine(run()), null);
  const line = skippedLine(run({ skipped }));
  assert.equal(line, 'not asked, because the format cannot say the change (a perfect reply could not reach the target): ln-diff bcrypt-ci; whole bcrypt-ci, ts-lib-promise');
  assert.ok(benchTable(run({ skipped }), [summary('ln-diff')], plain).includes(line!));
});
