import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import {
  chatRequest,
  chatUrl,
  corsMessage,
  deltaOf,
  errorBody,
  httpErrorMessage,
  networkMessage,
  serverMessage,
  SseReader,
  type SseEvent,
} from '../../src/chat/protocol.ts';

test('chat URLs from the base URLs people type', () => {
  assert.equal(chatUrl('openai', 'https://api.openai.com/v1'), 'https://api.openai.com/v1/chat/completions');
  assert.equal(chatUrl('openai', 'http://127.0.0.1:11434/v1/'), 'http://127.0.0.1:11434/v1/chat/completions');
  assert.equal(chatUrl('openai', ' http://localhost:8080/v1/chat/completions '), 'http://localhost:8080/v1/chat/completions');
  assert.equal(chatUrl('anthropic', 'https://api.anthropic.com'), 'https://api.anthropic.com/v1/messages');
  assert.equal(chatUrl('anthropic', 'https://api.anthropic.com/v1'), 'https://api.anthropic.com/v1/messages');
  assert.equal(chatUrl('anthropic', 'https://proxy.example/v1/messages?x=1#y'), 'https://proxy.example/v1/messages');
  assert.throws(() => chatUrl('openai', 'localhost:8080'), /must start with http:\/\/ or https:\/\//);
  assert.throws(() => chatUrl('openai', 'not a url'), /the base URL is not a web address/);
  assert.throws(() => chatUrl('openai', 'javascript:alert(1)'), /must start with http/);
  assert.throws(() => chatUrl('openai', 'https://user:sk@api.example/v1'), /not in the URL/);
});

test('OpenAI-compatible request: system and user messages, stream, Bearer key only when given', () => {
  const r = chatRequest({ provider: 'openai', baseUrl: 'http://127.0.0.1:8080/v1', model: ' m ', key: 'sk-1' }, 'SYS', 'USER');
  assert.equal(r.url, 'http://127.0.0.1:8080/v1/chat/completions');
  assert.deepEqual(r.headers, { 'content-type': 'application/json', authorization: 'Bearer sk-1' });
  assert.deepEqual(JSON.parse(r.body), { model: 'm', stream: true, messages: [{ role: 'system', content: 'SYS' }, { role: 'user', content: 'USER' }] });
  const local = chatRequest({ provider: 'openai', baseUrl: 'http://127.0.0.1:8080/v1', model: '', key: '' }, '', 'USER');
  assert.deepEqual(local.headers, { 'content-type': 'application/json' });
  assert.deepEqual(JSON.parse(local.body), { stream: true, messages: [{ role: 'user', content: 'USER' }] });
});

test('Anthropic request: version and browser-access headers, x-api-key, system apart, max_tokens', () => {
  const r = chatRequest({ provider: 'anthropic', baseUrl: 'https://api.anthropic.com', model: 'claude-x', key: 'k' }, 'SYS', 'USER');
  assert.deepEqual(r.headers, {
    'content-type': 'application/json',
    'x-api-key': 'k',
    'anthropic-version': '2023-06-01',
    'anthropic-dangerous-direct-browser-access': 'true',
  });
  assert.deepEqual(JSON.parse(r.body), { model: 'claude-x', max_tokens: 8192, stream: true, system: 'SYS', messages: [{ role: 'user', content: 'USER' }] });
  assert.throws(() => chatRequest({ provider: 'anthropic', baseUrl: 'https://api.anthropic.com', model: '', key: 'k' }, '', ''), /name the model/);
  assert.throws(() => chatRequest({ provider: 'anthropic', baseUrl: 'https://api.anthropic.com', model: 'm', key: ' ' }, '', ''), /needs a key/);
});

const STREAM =
  ': comment\n\nevent: message_start\ndata: {"type":"message_start"}\n\ndata: {"a":1}\r\n\r\ndata: line one\ndata: line two\n\nretry: 10\nid: 4\ndata:no-space\n\ndata: last';

test('SSE: events from chunks cut anywhere, CR LF and LF, multi-line data, a last event without a blank line', () => {
  const expected: SseEvent[] = [
    { event: 'message_start', data: '{"type":"message_start"}' },
    { event: 'message', data: '{"a":1}' },
    { event: 'message', data: 'line one\nline two' },
    { event: 'message', data: 'no-space' },
    { event: 'message', data: 'last' },
  ];
  const whole = new SseReader();
  assert.deepEqual([...whole.push(STREAM), ...whole.end()], expected);
  fc.assert(
    fc.property(fc.array(fc.integer({ min: 0, max: STREAM.length }), { maxLength: 12 }), (cuts) => {
      const points = [...new Set(cuts)].sort((a, b) => a - b);
      const reader = new SseReader();
      const out: SseEvent[] = [];
      let at = 0;
      for (const p of [...points, STREAM.length]) {
        out.push(...reader.push(STREAM.slice(at, p)));
        at = p;
      }
      out.push(...reader.end());
      assert.deepEqual(out, expected);
    }),
    { numRuns: 300 },
  );
});

test('deltas: OpenAI choices[0].delta.content and [DONE]; Anthropic content_block_delta and message_stop; errors', () => {
  const ev = (data: unknown, event = 'message'): SseEvent => ({ event, data: typeof data === 'string' ? data : JSON.stringify(data) });
  assert.deepEqual(deltaOf('openai', ev({ choices: [{ delta: { role: 'assistant', content: 'Hi' } }] })), { text: 'Hi' });
  assert.equal(deltaOf('openai', ev({ choices: [{ delta: { role: 'assistant' } }] })), null);
  // Some servers send "error": null in every chunk: no error.
  assert.deepEqual(deltaOf('openai', ev({ error: null, choices: [{ delta: { content: 'Hi' } }] })), { text: 'Hi' });
  assert.equal(deltaOf('openai', ev({ choices: [{ delta: { content: '' }, finish_reason: 'stop' }] })), null);
  assert.deepEqual(deltaOf('openai', ev('[DONE]')), { done: true });
  assert.deepEqual(deltaOf('openai', ev({ error: { message: 'overloaded' } })), { error: 'overloaded' });
  assert.equal(deltaOf('openai', ev('not json')), null);
  assert.deepEqual(deltaOf('anthropic', ev({ type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'x' } }, 'content_block_delta')), { text: 'x' });
  assert.equal(deltaOf('anthropic', ev({ type: 'content_block_delta', delta: { type: 'input_json_delta', partial_json: '{' } })), null);
  assert.equal(deltaOf('anthropic', ev({ type: 'ping' }, 'ping')), null);
  assert.deepEqual(deltaOf('anthropic', ev({ type: 'message_stop' })), { done: true });
  assert.deepEqual(deltaOf('anthropic', ev({ type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } }, 'error')), { error: 'Overloaded' });
});

test('error messages: the key, the address, limits, and what the server said', () => {
  assert.equal(serverMessage('{"error":{"message":"Incorrect API key provided"}}'), 'Incorrect API key provided');
  assert.equal(serverMessage('{"error":"model not found"}'), 'model not found');
  assert.equal(serverMessage('<html>\n  Bad  gateway </html>'), '<html> Bad gateway </html>');
  assert.equal(serverMessage('x'.repeat(400)), `${'x'.repeat(300)}…`);
  assert.equal(
    httpErrorMessage(401, 'Unauthorized', '{"error":{"message":"bad key"}}'),
    'The server refused the key (HTTP 401 Unauthorized). Check the API key, and that it is a key for this API. The server said: “bad key”',
  );
  assert.match(httpErrorMessage(403, '', ''), /^The server refused the key \(HTTP 403\)\. Check the API key, and that it is a key for this API\.$/);
  assert.match(httpErrorMessage(404, 'Not Found', ''), /no such address or model/);
  assert.match(httpErrorMessage(429, '', ''), /limiting requests/);
  assert.equal(httpErrorMessage(500, 'Internal Server Error', 'boom'), 'The server answered HTTP 500 Internal Server Error. The server said: “boom”');
  assert.match(corsMessage('http://127.0.0.1:11434', 'https://ln-diff.dev'), /OLLAMA_ORIGINS=https:\/\/ln-diff\.dev.*--cors/);
  assert.doesNotMatch(networkMessage('http://127.0.0.1:1/v1', true), /https/);
  assert.match(networkMessage('http://192.0.2.1/v1', true), /served over https/);
  assert.doesNotMatch(networkMessage('http://192.0.2.1/v1', false), /served over https/);
});

test("errorBody: the start of an error answer's body, '' when it cannot be read or the wait gives up", async () => {
  assert.equal(await errorBody(new Response('{"error":"no"}', { status: 400 })), '{"error":"no"}');
  assert.equal((await errorBody(new Response('x'.repeat(30_000), { status: 500 }))).length, 20_000);
  const broken = new Response(new ReadableStream({ start: (c) => c.error(new Error('reset')) }), { status: 502 });
  assert.equal(await errorBody(broken), '');
  assert.equal(await errorBody(new Response('late', { status: 503 }), async () => null), '');
});
