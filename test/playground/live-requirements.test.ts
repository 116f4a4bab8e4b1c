// What a live run needs before Run (src/chat/requirements.ts):
// each API's model and key, the base URL's form, the ports the browser
// refuses, and the page's CSP.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { liveOrigins } from '../../src/chat/origins.ts';
import type { Endpoint, Provider } from '../../src/chat/protocol.ts';
import { needsOf, runBlocker } from '../../src/chat/requirements.ts';

const allowed = liveOrigins('http://gpu.lan:8000');
const ep = (provider: Provider, baseUrl: string, model = '', key = ''): Endpoint => ({ provider, baseUrl, model, key });
const reason = (e: Endpoint) => runBlocker(e, allowed)?.reason ?? null;
const field = (e: Endpoint) => runBlocker(e, allowed)?.field ?? null;

describe('hosted APIs need a model name and a key', () => {
  it('OpenAI (the default endpoint): both, then the key, then nothing', () => {
    const base = 'https://api.openai.com/v1';
    assert.equal(reason(ep('openai', base)), 'Enter a model name and an API key for OpenAI.');
    assert.equal(field(ep('openai', base)), 'model');
    assert.equal(reason(ep('openai', base, 'gpt-4.1-mini')), 'Enter an API key for OpenAI.');
    assert.equal(field(ep('openai', base, 'gpt-4.1-mini')), 'key');
    assert.equal(reason(ep('openai', base, '', 'sk-1')), 'Enter a model name.');
    assert.equal(reason(ep('openai', base, '  ', ' ')), 'Enter a model name and an API key for OpenAI.');
    assert.equal(runBlocker(ep('openai', base, 'gpt-4.1-mini', 'sk-1'), allowed), null);
  });

  it('names the hosted API an OpenAI-compatible address belongs to', () => {
    assert.equal(reason(ep('openai', 'https://generativelanguage.googleapis.com/v1beta/openai', 'gemini-2.5-flash')), 'Enter an API key for Gemini.');
    assert.equal(reason(ep('openai', 'https://openrouter.ai/api/v1', 'x')), 'Enter an API key for OpenRouter.');
    assert.equal(reason(ep('openai', 'https://api.mistral.ai/v1')), 'Enter a model name and an API key for Mistral.');
  });

  it('Anthropic Messages: a model and a key, wherever it is served', () => {
    assert.equal(reason(ep('anthropic', 'https://api.anthropic.com')), 'Enter a model name and an API key for Anthropic.');
    assert.equal(reason(ep('anthropic', 'https://api.anthropic.com', 'claude-sonnet-4-5')), 'Enter an API key for Anthropic.');
    assert.equal(reason(ep('anthropic', 'https://api.anthropic.com', '', 'k')), 'Enter a model name.');
    assert.equal(reason(ep('anthropic', 'http://127.0.0.1:8080', 'm')), 'Enter an API key for Anthropic.');
    assert.equal(runBlocker(ep('anthropic', 'https://api.anthropic.com', 'claude-sonnet-4-5', 'k'), allowed), null);
  });
});

describe('local servers need no key', () => {
  it('llama.cpp and LM Studio: neither a key nor a model', () => {
    for (const base of ['http://127.0.0.1:8080/v1', 'http://localhost:1234/v1', 'http://127.0.0.1:39123/v1']) {
      assert.equal(runBlocker(ep('openai', base), allowed), null, base);
    }
  });

  it('Ollama (its port): a model name, no key', () => {
    assert.equal(reason(ep('openai', 'http://127.0.0.1:11434/v1')), 'Enter a model name: Ollama needs one (for example llama3.2).');
    assert.equal(runBlocker(ep('openai', 'http://localhost:11434/v1', 'llama3.2'), allowed), null);
  });

  it('another address the page may call: the page cannot know, so nothing is required', () => {
    assert.equal(runBlocker(ep('openai', 'http://gpu.lan:8000/v1'), allowed), null);
  });

  it('needsOf says which fields matter, for the placeholders', () => {
    assert.deepEqual(needsOf('openai', new URL('http://127.0.0.1:8080/v1')), { model: { required: false, example: null }, keyFor: null, local: true });
    assert.deepEqual(needsOf('openai', new URL('https://api.openai.com/v1')), { model: { required: true, example: 'gpt-4.1-mini' }, keyFor: 'OpenAI', local: false });
    assert.equal(needsOf('openai', new URL('http://[::1]:8080/v1')).local, true);
    assert.equal(needsOf('openai', new URL('http://127.0.0.1.example.com/v1')).local, false);
  });
});

describe('the base URL', () => {
  it('is required, a web address, http or https, without a key in it', () => {
    assert.deepEqual(runBlocker(ep('openai', '  ', 'm', 'k'), allowed), { field: 'base', reason: 'Enter the base URL of the API.', base: { kind: 'empty' } });
    assert.equal(reason(ep('openai', 'localhost:8080/v1')), 'The base URL must start with http:// or https://, not localhost:.');
    assert.equal(reason(ep('openai', 'not a url')), 'The base URL is not a web address; write it as http://127.0.0.1:11434/v1 or https://api.openai.com/v1.');
    assert.equal(reason(ep('openai', 'javascript:alert(1)')), 'The base URL must start with http:// or https://, not javascript:.');
    assert.equal(reason(ep('openai', 'https://u:sk@api.openai.com/v1', 'm', 'k')), 'Put the key in the API key field, not in the URL.');
  });

  it('a port the browser refuses (9, 6000, 10080) is named as such, before anything else', () => {
    assert.deepEqual(runBlocker(ep('openai', 'http://127.0.0.1:9/v1'), allowed), {
      field: 'base',
      reason: 'The browser refuses to connect to port 9 (a port reserved for other protocols: discard); use another port.',
      base: { kind: 'port', port: { port: 9, service: 'discard' } },
    });
    assert.equal(reason(ep('openai', 'http://localhost:6000/v1', 'm', 'k')), 'The browser refuses to connect to port 6000 (a port reserved for other protocols: x11); use another port.');
    assert.match(reason(ep('anthropic', 'http://127.0.0.1:10080')) ?? '', /refuses to connect to port 10080/);
    // even where the CSP would refuse the origin too: the port is the first thing to fix
    assert.match(reason(ep('openai', 'https://llm.example.com:6667/v1')) ?? '', /refuses to connect to port 6667/);
  });

  it('a normal port passes', () => {
    assert.equal(runBlocker(ep('openai', 'http://127.0.0.1:8080/v1'), allowed), null);
    assert.equal(runBlocker(ep('openai', 'http://127.0.0.1:6001/v1'), allowed), null);
  });

  it('an origin outside the page CSP is refused, saying how to allow it; without a list nothing is checked', () => {
    const r = runBlocker(ep('openai', 'https://llm.example.com/v1', 'm', 'k'), allowed);
    assert.equal(r?.field, 'base');
    assert.match(r?.reason ?? '', /^This page may not connect to https:\/\/llm\.example\.com: .*LN_DIFF_LIVE_ORIGINS=https:\/\/llm\.example\.com /);
    assert.match(reason(ep('openai', 'http://127.0.0.2:8080/v1')) ?? '', /may not connect to http:\/\/127\.0\.0\.2:8080/);
    assert.equal(runBlocker(ep('openai', 'https://llm.example.com/v1', 'm', 'k')), null);
  });
});

describe('streamChat checks the same rule', () => {
  it('returns the reason and calls nothing for a bad port, a missing key, an origin outside the CSP', async () => {
    const { streamChat } = await import('../../src/playground/live/stream.ts');
    const calls: unknown[] = [];
    const real = globalThis.fetch;
    globalThis.fetch = (async (...args: unknown[]) => {
      calls.push(args);
      throw new TypeError('no network in this test');
    }) as typeof fetch;
    try {
      const signal = new AbortController().signal;
      for (const [endpoint, said] of [
        [ep('openai', 'http://127.0.0.1:9/v1', 'm', 'k'), /^The browser refuses to connect to port 9 /],
        [ep('openai', 'https://api.openai.com/v1', 'gpt-4.1-mini'), /^Enter an API key for OpenAI\.$/],
        [ep('openai', 'https://llm.example.com/v1', 'm', 'k'), /^This page may not connect to https:\/\/llm\.example\.com/],
      ] as const) {
        const outcome = await streamChat(endpoint, 'SYS', 'USER', signal, () => assert.fail('no text'), allowed);
        assert.equal(outcome.kind, 'endpoint');
        assert.match('message' in outcome ? outcome.message : '', said);
      }
      assert.deepEqual(calls, []);
    } finally {
      globalThis.fetch = real;
    }
  });
});

describe('the blocker as data (for callers that say it in their own words, as the CLI does)', () => {
  it('names the base URL\'s problem by kind', () => {
    const url = runBlocker(ep('openai', 'localhost:8080/v1'), allowed);
    assert.deepEqual(url?.field === 'base' ? url.base : null, { kind: 'url', message: 'the base URL must start with http:// or https://, not localhost:' });
    const origin = runBlocker(ep('openai', 'https://llm.example.com/v1', 'm', 'k'), allowed);
    assert.deepEqual(origin?.field === 'base' ? origin.base : null, { kind: 'origin' });
  });

  it('says which of the model and the key are missing, with what the endpoint needs', () => {
    const both = runBlocker(ep('anthropic', 'https://api.anthropic.com'), allowed);
    assert.ok(both && both.field !== 'base');
    assert.deepEqual(both.missing, { model: true, key: true });
    assert.equal(both.needs.keyFor, 'Anthropic');
    const ollama = runBlocker(ep('openai', 'http://127.0.0.1:11434/v1'), allowed);
    assert.ok(ollama && ollama.field === 'model');
    assert.deepEqual(ollama.missing, { model: true, key: false });
    assert.equal(ollama.needs.model.server, 'Ollama');
    const key = runBlocker(ep('openai', 'https://api.openai.com/v1', 'gpt-4.1'), allowed);
    assert.ok(key && key.field === 'key');
    assert.deepEqual(key.missing, { model: false, key: true });
    assert.equal(key.needs.keyFor, 'OpenAI');
  });
});
