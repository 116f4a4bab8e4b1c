// The bench client's endings other than a good stream, through an injected
// fetch: a refused key (its echo redacted), transient errors retried by the
// run up to its limit with a backoff on the test clock, a dropped
// connection, an endpoint that cannot be called, and Stop before sending.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { streamReply } from '../../src/bench/client.ts';
import { runBench } from '../../src/bench/run.ts';
import type { BenchEvent } from '../../src/bench/types.ts';
import { TestClock } from './clock.ts';
import { plansFor, task } from './harness.ts';

const KEY = 'sk-live-abcdefghijklmnop';
const endpoint = { api: 'openai' as const, baseUrl: 'http://127.0.0.1:9/v1', model: 'gpt-4.1' };
const base = { endpoint, key: KEY, system: 's', user: 'u', idleTimeoutMs: 1000 };
const answer = (status: number, body: string, headers: Record<string, string> = {}) => new Response(body, { status, headers });

describe('bench client endings', () => {
  it('a refused key is auth, not transient, and the key the server echoes is redacted', async () => {
    const fetch = (async () => answer(401, JSON.stringify({ error: { message: `Incorrect API key provided: ${KEY}.` } }))) as typeof globalThis.fetch;
    const got = await streamReply({ ...base, signal: new AbortController().signal, clock: new TestClock(), fetch });
    assert.equal(got.status, 'auth');
    assert.equal(got.transient, false);
    assert.match(got.error ?? '', /refused the key/);
    assert.ok(!(got.error ?? '').includes(KEY));
    assert.match(got.error ?? '', /\[key\]/);
  });

  it('in a page, a server that answers only without CORS is named as a CORS refusal, with the fix, and not retried', async () => {
    const methods: string[] = [];
    const fetch = (async (_url: string, init: RequestInit) => {
      methods.push(`${init.method} ${init.mode ?? 'cors'}`);
      if (init.mode === 'no-cors') return new Response(null, { status: 200 });
      throw new TypeError('Failed to fetch');
    }) as unknown as typeof globalThis.fetch;
    const g = globalThis as { location?: unknown };
    g.location = { origin: 'https://ln-diff.example' };
    try {
      const got = await streamReply({ ...base, signal: new AbortController().signal, clock: new TestClock(), fetch });
      assert.deepEqual([got.status, got.transient], ['network', false]);
      assert.match(got.error ?? '', /^The browser blocked the answer from http:\/\/127\.0\.0\.1:9: .*OLLAMA_ORIGINS=https:\/\/ln-diff\.example/);
      assert.deepEqual(methods, ['POST cors', 'GET no-cors']);
      // Not answering at all is another matter: transient, retried.
      const down = (async () => {
        throw new TypeError('Failed to fetch');
      }) as typeof globalThis.fetch;
      const gone = await streamReply({ ...base, signal: new AbortController().signal, clock: new TestClock(), fetch: down });
      assert.deepEqual([gone.status, gone.transient], ['network', true]);
      assert.match(gone.error ?? '', /^Could not reach http:\/\/127\.0\.0\.1:9 /);
    } finally {
      delete g.location;
    }
  });

  it('a thrown fetch is a transient network failure; an unusable base URL is never sent', async () => {
    let calls = 0;
    const fetch = (async () => {
      calls++;
      throw new TypeError('fetch failed');
    }) as typeof globalThis.fetch;
    const got = await streamReply({ ...base, signal: new AbortController().signal, clock: new TestClock(), fetch });
    assert.deepEqual([got.status, got.transient], ['network', true]);
    const bad = await streamReply({ ...base, endpoint: { ...endpoint, baseUrl: 'ftp://x' }, signal: new AbortController().signal, clock: new TestClock(), fetch });
    assert.equal(bad.status, 'http');
    assert.match(bad.error ?? '', /^Not sent: /);
    assert.equal(calls, 1);
    const stopped = new AbortController();
    stopped.abort();
    assert.equal((await streamReply({ ...base, signal: stopped.signal, clock: new TestClock(), fetch })).status, 'stopped');
    assert.equal(calls, 1);
  });

  it('the run retries a 503 up to its limit, waiting 1 s then 2 s on its clock, then records the failure', async () => {
    let calls = 0;
    const fetch = (async () => {
      calls++;
      return answer(503, 'overloaded');
    }) as typeof globalThis.fetch;
    const clock = new TestClock();
    const events: BenchEvent[] = [];
    const t = task('ms-index');
    const run = await runBench({
      config: { endpoint, formats: plansFor('openai', ['udiff']), tasks: [t.id], concurrency: 1, retries: 2, idleTimeoutMs: 1000 },
      tasks: [t],
      key: KEY,
      engine: 'ln-diff 0.1.0',
      clock,
      fetch,
      onEvent: (e) => {
        events.push(e);
        if (e.type === 'retry') queueMicrotask(() => clock.advance(e.waitMs));
      },
    });
    assert.equal(calls, 3);
    assert.deepEqual(events.filter((e) => e.type === 'retry').map((e) => (e.type === 'retry' ? [e.attempt, e.waitMs] : [])), [[2, 1000], [3, 2000]]);
    const [r] = run.replies;
    assert.equal(r.status, 'http');
    assert.equal(r.attempts, 3);
    assert.match(r.error ?? '', /HTTP 503/);
    assert.deepEqual(r.tokens, { input: null, output: null, method: 'estimate' });
    assert.equal(r.score.parsed, false);
    assert.equal(r.retry, null);
  });

  it('a server that refuses stream_options is asked again without it, and the rest of the run never asks', async () => {
    const bodies: string[] = [];
    const fetch = (async (_url: string, init: RequestInit) => {
      const body = String(init.body);
      bodies.push(body);
      if (JSON.parse(body).stream_options) return answer(400, JSON.stringify({ error: { message: 'Unrecognized request argument supplied: stream_options' } }));
      const sse = 'data: {"choices":[{"delta":{"content":"no edits here"}}]}\n\ndata: [DONE]\n\n';
      return new Response(sse, { status: 200, headers: { 'content-type': 'text/event-stream' } });
    }) as unknown as typeof globalThis.fetch;
    const tasks = [task('ms-index'), task('normalize-css')];
    const run = await runBench({
      config: { endpoint, formats: plansFor('openai', ['udiff']), tasks: tasks.map((t) => t.id), concurrency: 1, retries: 2, idleTimeoutMs: 1000 },
      tasks,
      key: KEY,
      engine: 'ln-diff 0.1.0',
      clock: new TestClock(),
      fetch,
    });
    // The first task: refused, then sent without the option; the second: sent without it at once.
    assert.deepEqual(bodies.map((b) => 'stream_options' in JSON.parse(b)), [true, false, false]);
    assert.deepEqual(run.replies.map((r) => [r.status, r.attempts, r.reply]), [['done', 1, 'no edits here'], ['done', 1, 'no edits here']]);
    // No counts came, so they are made here: gpt-4.1 has no tokenizer passed in, so estimated.
    assert.equal(run.replies[0].tokens.method, 'estimate');
  });

  it('a Retry-After longer than the bench waits ends the reply instead of stalling the run', async () => {
    let calls = 0;
    const fetch = (async () => {
      calls++;
      return answer(429, 'slow down', { 'retry-after': '3600' });
    }) as typeof globalThis.fetch;
    const t = task('ms-index');
    const events: BenchEvent[] = [];
    const run = await runBench({
      config: { endpoint, formats: plansFor('openai', ['udiff']), tasks: [t.id], concurrency: 1, retries: 2, idleTimeoutMs: 1000 },
      tasks: [t],
      key: KEY,
      engine: 'ln-diff 0.1.0',
      clock: new TestClock(),
      fetch,
      onEvent: (e) => events.push(e),
    });
    assert.equal(calls, 1);
    assert.equal(events.filter((e) => e.type === 'retry').length, 0);
    const [r] = run.replies;
    assert.deepEqual([r.status, r.attempts], ['http', 1]);
    assert.match(r.error ?? '', /asked to wait 3600 s before trying again, longer than the bench waits \(120 s\)/);
  });
});
