// Run files: a run written by runJson reads back equal; a file that is not a
// run (malformed, wrong field, too long) is refused with the field named and
// never throws, for any input; fields a run lacks are dropped; two runs
// compare by format and by reply.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { compareRuns, MAX_RUN_CHARS, readRun, runJson } from '../../src/bench/file.ts';
import type { BenchRun } from '../../src/bench/types.ts';

const score = (exact: boolean) => ({ parsed: true, applied: exact, exact, edits: 1, matches: { exact: exact ? 1 : 0, offset: 0, whitespace: 0, fuzzy: 0, failed: exact ? 0 : 1 }, codes: exact ? {} : { 'no-match': 1 }, warnings: {} });
const run = (exacts: Record<string, boolean>): BenchRun => ({
  version: 1,
  engine: 'ln-diff 0.1.0',
  started: '2025-01-02T03:04:05.000Z',
  finished: '2025-01-02T03:05:05.000Z',
  stopped: false,
  config: {
    endpoint: { api: 'anthropic', baseUrl: 'https://api.anthropic.com', model: 'claude-sonnet-4-5' },
    formats: [{ format: 'ln-diff', family: 'Anthropic Claude', system: 'S', reminder: 'R' }, { format: 'udiff', family: 'Anthropic Claude', system: 'S2', reminder: null }],
    tasks: ['a', 'b'],
    concurrency: 2,
    retries: 2,
    idleTimeoutMs: 60000,
  },
  replies: Object.entries(exacts).map(([k, exact]) => {
    const [task, format] = k.split(' ');
    return { task, format, status: 'done' as const, error: null, reply: 'r', attempts: 1, score: score(exact), tokens: { input: 10, output: 2, method: 'usage' as const }, ms: { firstToken: 1, total: 2 }, retry: exact ? null : 'Your edit #1 ...' };
  }),
});

const good = run({ 'a ln-diff': true, 'a udiff': false, 'b ln-diff': true, 'b udiff': true });

describe('run files', () => {
  it('reads back what runJson writes', () => {
    const read = readRun(runJson(good));
    assert.deepEqual(read, { ok: true, run: good });
  });

  it('names the first bad field', () => {
    const bad = (mutate: (r: any) => void) => {
      const r = JSON.parse(runJson(good));
      mutate(r);
      return readRun(JSON.stringify(r));
    };
    const cases: [(r: any) => void, RegExp][] = [
      [(r) => (r.version = 2), /^version must be 1/],
      [(r) => delete r.engine, /^engine must be a string/],
      [(r) => (r.started = 'yesterday'), /^started must be an ISO 8601 time/],
      [(r) => (r.stopped = 'no'), /^stopped must be true or false/],
      [(r) => (r.config.endpoint.api = 'gemini'), /^config\.endpoint\.api must be one of openai, anthropic/],
      [(r) => (r.config.concurrency = 0), /^config\.concurrency must be 1 or more/],
      [(r) => (r.config.formats[1].reminder = 3), /^config\.formats\[1\]\.reminder must be a string or null/],
      [(r) => (r.replies[2].status = 'fine'), /^replies\[2\]\.status must be one of/],
      [(r) => (r.replies[1].score.matches.fuzzy = -1), /^replies\[1\]\.score\.matches\.fuzzy must be a whole number/],
      [(r) => (r.replies[1].score.codes = { 'made-up': 1 }), /^replies\[1\]\.score\.codes key "made-up" must be one of/],
      [(r) => (r.replies[0].tokens.method = 'guess'), /^replies\[0\]\.tokens\.method must be one of/],
      [(r) => (r.replies[3].ms.total = 'fast'), /^replies\[3\]\.ms\.total must be a number/],
      [(r) => (r.replies = {}), /^replies must be an array/],
    ];
    for (const [mutate, message] of cases) {
      const got = bad(mutate);
      assert.equal(got.ok, false);
      assert.match((got as { error: string }).error, message);
    }
    assert.match((readRun('{"version":1,') as { error: string }).error, /^the file is not JSON/);
    assert.match((readRun('[]') as { error: string }).error, /^the run must be an object/);
  });

  it('refuses a file longer than a run may be before parsing it', () => {
    const got = readRun(' '.repeat(MAX_RUN_CHARS + 1));
    assert.equal(got.ok, false);
    assert.match((got as { error: string }).error, /more than a run may be/);
  });

  it('drops fields a run does not have (a key pasted into a file does not come back)', () => {
    const r = JSON.parse(runJson(good));
    r.key = 'sk-secret';
    r.config.endpoint.key = 'sk-secret';
    r.replies[0].extra = 'sk-secret';
    const got = readRun(JSON.stringify(r));
    assert.ok(got.ok);
    assert.ok(!JSON.stringify(got.run).includes('sk-secret'));
  });

  it('never throws, and accepts only what checks out, for any JSON or text', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.json(), fc.jsonValue().map((v) => JSON.stringify({ ...JSON.parse(runJson(good)), replies: [v] }))), (text) => {
        const got = readRun(text);
        if (got.ok) assert.deepEqual(readRun(runJson(got.run)), got);
        else assert.ok(typeof got.error === 'string' && got.error.length > 0);
      }),
      { numRuns: 500 },
    );
    // Deleting any one field of a good run is refused, naming that field.
    const flat: string[][] = [];
    const walk = (v: unknown, path: string[]) => {
      if (v && typeof v === 'object' && !Array.isArray(v)) for (const [k, x] of Object.entries(v)) {
        if (path.at(-1) === 'codes' || path.at(-1) === 'warnings') continue;
        flat.push([...path, k]);
        walk(x, [...path, k]);
      }
      else if (Array.isArray(v)) v.forEach((x, i) => walk(x, [...path, String(i)]));
    };
    walk(good, []);
    for (const path of flat) {
      const r = JSON.parse(runJson(good));
      let at = r;
      for (const p of path.slice(0, -1)) at = at[p];
      delete at[path.at(-1)!];
      const got = readRun(JSON.stringify(r));
      assert.equal(got.ok, false, path.join('.'));
      assert.ok((got as { error: string }).error.includes(path.at(-1)!), `${path.join('.')}: ${(got as { error: string }).error}`);
    }
  });

  it('compares two runs by format and by reply', () => {
    const later = run({ 'a ln-diff': false, 'a udiff': true, 'b ln-diff': true, 'b udiff': true });
    const c = compareRuns(good, later);
    assert.deepEqual(c.formats.map((f) => [f.format, f.delta]), [
      ['ln-diff', { parsed: 0, applied: -0.5, exact: -0.5 }],
      ['udiff', { parsed: 0, applied: 0.5, exact: 0.5 }],
    ]);
    assert.deepEqual(c.replies.filter((r) => r.flip).map((r) => [r.task, r.format, r.flip]), [
      ['a', 'ln-diff', 'lost'],
      ['a', 'udiff', 'gained'],
    ]);
    assert.equal(c.replies.length, 4);
    assert.deepEqual(c.formats.map((f) => f.shared), [2, 2]);
  });

  it('takes the change over the tasks both runs answered when their task sets differ', () => {
    // A: task a only, not exact in udiff. B: tasks a and b, and c, d exact: its own udiff rate is far higher.
    const a = run({ 'a ln-diff': true, 'a udiff': false });
    const b = run({ 'a ln-diff': true, 'a udiff': false, 'b ln-diff': false, 'b udiff': true, 'c udiff': true, 'd udiff': true });
    const c = compareRuns(a, b);
    assert.deepEqual(c.formats.map((f) => [f.format, f.shared, f.delta]), [
      ['ln-diff', 1, { parsed: 0, applied: 0, exact: 0 }],
      ['udiff', 1, { parsed: 0, applied: 0, exact: 0 }],
    ]);
    // Each run's own rates stay as they are.
    assert.deepEqual(c.formats.map((f) => [f.a?.rates.exact, f.b?.rates.exact]), [[1, 0.5], [0, 0.75]]);
    // Runs that share no task have no change to show.
    const other = run({ 'z ln-diff': true });
    assert.deepEqual(compareRuns(a, other).formats.map((f) => [f.shared, f.delta]), [[0, null], [0, null]]);
  });
});
