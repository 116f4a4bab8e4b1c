// The bench client against streams as real servers send them (OpenAI,
// Anthropic, llama.cpp, Ollama, LM Studio, vLLM and the proxies before
// them): a reply cut by the token cap, a whole JSON answer from a server
// that ignores `stream: true`, a page that is not a stream at all, and an
// error event in the middle of a stream. Through an injected fetch.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { streamReply, type StreamResult } from '../../src/bench/client.ts';
import { readRun, runJson } from '../../src/bench/file.ts';
import { runBench } from '../../src/bench/run.ts';
import { summarize } from '../../src/bench/summary.ts';
import type { BenchApi, BenchEvent } from '../../src/bench/types.ts';
import { problemsLine } from '../../src/cli/bench-table.ts';
import { TestClock } from './clock.ts';
import { plansFor, task } from './harness.ts';

const ENDPOINT: Record<BenchApi, { api: BenchApi; baseUrl: string; model: string }> = {
  openai: { api: 'openai', baseUrl: 'http://127.0.0.1:9/v1', model: 'qwen3-coder' },
  anthropic: { api: 'anthropic', baseUrl: 'http://127.0.0.1:9', model: 'claude-sonnet-4-5' },
};
const SSE = { 'content-type': 'text/event-stream' };
const data = (o: unknown) => `data: ${JSON.stringify(o)}\n\n`;
const event = (name: string, o: unknown) => `event: ${name}\n${data(o)}`;
const fetchOf = (body: string, headers: Record<string, string> = SSE, status = 200) =>
  (async () => new Response(body, { status, headers })) as typeof globalThis.fetch;

async function stream(api: BenchApi, fetch: typeof globalThis.fetch): Promise<StreamResult> {
  return streamReply({ endpoint: ENDPOINT[api], key: 'sk-test-key', system: 's', user: 'u', idleTimeoutMs: 1000, signal: new AbortController().signal, clock: new TestClock(), fetch });
}

/** The OpenAI-compatible chunks of a reply: a role-only delta, a null content, the text, the finish, usage with no choices, [DONE]. */
function openaiStream(text: string, finish: 'stop' | 'length'): string {
  return (
    data({ choices: [{ index: 0, delta: { role: 'assistant' }, finish_reason: null }] }) +
    data({ choices: [{ index: 0, delta: { content: null }, finish_reason: null }] }) +
    data({ choices: [{ index: 0, delta: { content: text }, finish_reason: null }] }) +
    data({ choices: [{ index: 0, delta: {}, finish_reason: finish }] }) +
    data({ choices: [], usage: { prompt_tokens: 12, completion_tokens: 7 } }) +
    'data: [DONE]\n\n'
  );
}

function anthropicStream(text: string, stop: 'end_turn' | 'max_tokens'): string {
  return (
    event('message_start', { type: 'message_start', message: { usage: { input_tokens: 12, output_tokens: 1 } } }) +
    event('ping', { type: 'ping' }) +
    event('content_block_start', { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } }) +
    event('content_block_delta', { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text } }) +
    event('content_block_stop', { type: 'content_block_stop', index: 0 }) +
    event('message_delta', { type: 'message_delta', delta: { stop_reason: stop }, usage: { output_tokens: 7 } }) +
    event('message_stop', { type: 'message_stop' })
  );
}

describe('bench client: a reply cut by the token cap', () => {
  it('OpenAI finish_reason "length" and Anthropic stop_reason "max_tokens" mark the reply cut off; a normal end does not', async () => {
    const cut = await stream('openai', fetchOf(openaiStream('half a reply', 'length')));
    assert.deepEqual([cut.status, cut.text, cut.cutOff, cut.usage], ['done', 'half a reply', true, { input: 12, output: 7 }]);
    const whole = await stream('openai', fetchOf(openaiStream('a whole reply', 'stop')));
    assert.deepEqual([whole.status, whole.cutOff], ['done', undefined]);
    const capped = await stream('anthropic', fetchOf(anthropicStream('half a reply', 'max_tokens')));
    assert.deepEqual([capped.status, capped.text, capped.cutOff, capped.usage], ['done', 'half a reply', true, { input: 12, output: 7 }]);
    const ended = await stream('anthropic', fetchOf(anthropicStream('a whole reply', 'end_turn')));
    assert.deepEqual([ended.status, ended.cutOff], ['done', undefined]);
  });

  it('the run records it on the reply, counts it per format, says it in the CLI table, and a run file keeps it', async () => {
    const t = task('ms-index');
    const bodies = [openaiStream('no edits, cut', 'length'), openaiStream('no edits', 'stop')];
    let k = 0;
    const fetch = (async () => new Response(bodies[k++], { status: 200, headers: SSE })) as typeof globalThis.fetch;
    const run = await runBench({
      config: { endpoint: ENDPOINT.openai, formats: plansFor('openai', ['udiff', 'search-replace']), tasks: [t.id], concurrency: 1, retries: 0, idleTimeoutMs: 1000 },
      tasks: [t],
      key: '',
      engine: 'ln-diff 0.1.0',
      clock: new TestClock(),
      fetch,
    });
    assert.deepEqual(run.replies.map((r) => [r.format, r.status, r.cutOff]), [['udiff', 'done', true], ['search-replace', 'done', undefined]]);
    assert.ok(!('cutOff' in run.replies[1]), 'a reply not cut off has no cutOff field');
    const [udiff, sr] = summarize(run);
    assert.deepEqual([udiff.cutOff, sr.cutOff], [1, 0]);
    assert.match(problemsLine(udiff) ?? '', /^udiff: cut off at the token cap: 1/);
    assert.equal(problemsLine(sr), null);
    const back = readRun(runJson(run));
    assert.ok(back.ok);
    assert.deepEqual(back.run, run);
    const bad = readRun(runJson(run).replace('"cutOff": true', '"cutOff": "yes"'));
    assert.deepEqual(bad, { ok: false, error: 'replies[0].cutOff must be true when present' });
  });
});

describe('bench client: answers that are not a stream of text', () => {
  it('a whole JSON completion from a server that ignores stream: true is the reply, with its counts and its cap', async () => {
    const openai = JSON.stringify({ object: 'chat.completion', choices: [{ index: 0, message: { role: 'assistant', content: 'the whole reply' }, finish_reason: 'length' }], usage: { prompt_tokens: 30, completion_tokens: 4 } });
    const got = await stream('openai', fetchOf(openai, { 'content-type': 'application/json' }));
    assert.deepEqual([got.status, got.text, got.cutOff, got.usage, got.error], ['done', 'the whole reply', true, { input: 30, output: 4 }, null]);
    assert.equal(typeof got.firstTokenMs, 'number');
    const anthropic = JSON.stringify({ type: 'message', role: 'assistant', content: [{ type: 'text', text: 'all of it' }], stop_reason: 'end_turn', usage: { input_tokens: 30, output_tokens: 3 } });
    const whole = await stream('anthropic', fetchOf(anthropic, { 'content-type': 'application/json' }));
    assert.deepEqual([whole.status, whole.text, whole.cutOff, whole.usage], ['done', 'all of it', undefined, { input: 30, output: 3 }]);
  });

  it('an HTML page with status 200 is an HTTP failure that says what came, not an empty reply; comments alone are an empty one', async () => {
    const page = await stream('openai', fetchOf('<!doctype html>\n<html><title>Sign in</title></html>', { 'content-type': 'text/html; charset=utf-8' }));
    assert.deepEqual([page.status, page.transient, page.text], ['http', false, '']);
    assert.match(page.error ?? '', /not with a reply: .*\(text\/html; it began “<!doctype html> <html><title>Sign in/);
    const pings = await stream('openai', fetchOf(': ping\r\n\r\n: ping\r\n\r\n'));
    assert.deepEqual([pings.status, pings.error], ['empty', 'The model sent no text.']);
  });

  it('a JSON error with status 200 is an HTTP failure, transient when the server is overloaded', async () => {
    const busy = await stream('anthropic', fetchOf(JSON.stringify({ type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } }), { 'content-type': 'application/json' }));
    assert.deepEqual([busy.status, busy.transient, busy.error], ['http', true, 'The server answered with an error: Overloaded']);
    const bad = await stream('openai', fetchOf(JSON.stringify({ error: { message: 'model not loaded', type: 'invalid_request_error' } }), { 'content-type': 'application/json' }));
    assert.deepEqual([bad.status, bad.transient], ['http', false]);
  });

  it('an overloaded_error event mid-stream is retried by the run; an error the server will repeat is not', async () => {
    const overloaded =
      event('content_block_delta', { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'partial' } }) +
      event('error', { type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } });
    const busy = await stream('anthropic', fetchOf(overloaded));
    assert.deepEqual([busy.status, busy.transient], ['network', true]);
    const refused = await stream('openai', fetchOf(data({ error: { message: 'context length exceeded', type: 'invalid_request_error' } })));
    assert.deepEqual([refused.status, refused.transient], ['network', false]);

    const t = task('ms-index');
    const bodies = [overloaded, anthropicStream('no edits', 'end_turn')];
    let k = 0;
    const fetch = (async () => new Response(bodies[k++], { status: 200, headers: SSE })) as typeof globalThis.fetch;
    const clock = new TestClock();
    const events: BenchEvent[] = [];
    const run = await runBench({
      config: { endpoint: ENDPOINT.anthropic, formats: plansFor('anthropic', ['udiff']), tasks: [t.id], concurrency: 1, retries: 2, idleTimeoutMs: 1000 },
      tasks: [t],
      key: 'sk-ant-test',
      engine: 'ln-diff 0.1.0',
      clock,
      fetch,
      onEvent: (e) => {
        events.push(e);
        if (e.type === 'retry') queueMicrotask(() => clock.advance(e.waitMs));
      },
    });
    assert.deepEqual(run.replies.map((r) => [r.status, r.attempts, r.reply]), [['done', 2, 'no edits']]);
    assert.equal(events.filter((e) => e.type === 'retry').length, 1);
  });
});

describe('bench client: how a stream ends', () => {
  it('a finish reason ends a reply without [DONE], in CRLF, with `data:` and no space, among keep-alive comments', async () => {
    const body = [': ping', '', `data:${JSON.stringify({ choices: [{ delta: { content: 'a reply' } }] })}`, '', ': ping', '', `data:${JSON.stringify({ choices: [{ delta: {}, finish_reason: 'stop' }] })}`, '', ''].join('\r\n');
    const got = await stream('openai', fetchOf(body));
    assert.deepEqual([got.status, got.text, got.error], ['done', 'a reply', null]);
    const anthropic = anthropicStream('all of it', 'end_turn').replace(/event: message_stop\n.*\n\n$/, '');
    assert.deepEqual((await stream('anthropic', fetchOf(anthropic))).status, 'done');
  });

  it('a stream that just stops (no finish reason, no [DONE], no message_stop) is a broken connection: retried, the text kept', async () => {
    const cut = await stream('openai', fetchOf(data({ choices: [{ delta: { content: 'half a rep' } }] })));
    assert.deepEqual([cut.status, cut.transient, cut.text], ['network', true, 'half a rep']);
    assert.match(cut.error ?? '', /^The stream ended before the reply did/);
    const anthropic = event('content_block_delta', { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'half' } });
    assert.deepEqual((await stream('anthropic', fetchOf(anthropic))).status, 'network');
  });
});
