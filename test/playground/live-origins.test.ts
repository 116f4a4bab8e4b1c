// The origins a live run may reach (src/chat/origins.ts): the
// list written into the playground's CSP, and the check the panel makes
// before it calls an endpoint.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  allowedBy,
  DEFAULT_LIVE_ORIGINS,
  liveOrigins,
  notAllowedMessage,
  OriginListError,
  parseOrigins,
} from '../../src/chat/origins.ts';

describe('parseOrigins', () => {
  it('reads origins separated by commas or blanks, lower-cased, without a trailing slash, once each', () => {
    assert.deepEqual(parseOrigins(' https://LLM.example.com/, http://10.0.0.5:8000  https://*.corp.example:* https://llm.example.com'), [
      'https://llm.example.com',
      'http://10.0.0.5:8000',
      'https://*.corp.example:*',
    ]);
    assert.deepEqual(parseOrigins(''), []);
  });

  it('refuses anything that is not scheme://host[:port]: it is written into the page CSP', () => {
    for (const bad of [
      'llm.example.com',
      'ftp://example.com',
      'https://example.com/v1',
      'https://example.com;',
      "https://example.com;script-src 'unsafe-inline'",
      "'unsafe-inline'",
      '*',
      'https:',
      'https://',
      'https://exa mple.com',
      'https://example.com:99999',
      'https://user@example.com',
      'https://example.com?x',
      'https://-example.com',
      'data:',
    ]) {
      assert.throws(() => parseOrigins(bad), OriginListError, bad);
    }
  });

  it('names the entry it refuses', () => {
    assert.throws(() => parseOrigins('https://ok.example, https://bad.example/path'), /"https:\/\/bad\.example\/path" is not an origin/);
  });
});

describe('liveOrigins', () => {
  it('is the defaults, plus what the environment adds', () => {
    assert.deepEqual(liveOrigins(undefined), [...DEFAULT_LIVE_ORIGINS]);
    assert.deepEqual(liveOrigins('https://llm.example.com,https://api.openai.com'), [...DEFAULT_LIVE_ORIGINS, 'https://llm.example.com']);
  });

  it('never allows every https origin', () => {
    for (const o of liveOrigins(undefined)) assert.match(o, /^https?:\/\/[a-z0-9.]+(:\*)?$/);
  });
});

describe('allowedBy', () => {
  const origins = liveOrigins('https://llm.example.com:8443, https://*.corp.example, http://gpu.lan:8000');
  const cases: [string, boolean][] = [
    ['https://api.openai.com/v1/chat/completions', true],
    ['https://api.openai.com:443/v1/chat/completions', true],
    ['https://api.openai.com:8443/v1/chat/completions', false],
    ['http://api.openai.com/v1/chat/completions', false],
    ['https://api.openai.com.evil.example/v1', false],
    ['https://evil.example/api.openai.com', false],
    ['https://api.anthropic.com/v1/messages', true],
    ['http://127.0.0.1:11434/v1/chat/completions', true],
    ['http://localhost:8080/v1/chat/completions', true],
    ['http://127.0.0.2:8080/v1/chat/completions', false],
    ['https://llm.example.com:8443/v1/chat/completions', true],
    ['https://llm.example.com/v1/chat/completions', false],
    ['https://a.corp.example/v1', true],
    ['https://a.b.corp.example/v1', true],
    ['https://corp.example/v1', false],
    ['https://xcorp.example/v1', false],
    ['http://gpu.lan:8000/v1', true],
    ['https://gpu.lan:8000/v1', true],
    ['http://gpu.lan/v1', false],
    ['not a url', false],
  ];
  for (const [url, want] of cases) {
    it(`${want ? 'allows' : 'refuses'} ${url}`, () => assert.equal(allowedBy(url, origins), want));
  }
});

describe('notAllowedMessage', () => {
  it('names the origin, the allowed ones, and how to add it', () => {
    const m = notAllowedMessage('https://llm.example.com/v1/chat/completions', ['https://api.openai.com']);
    assert.match(m, /may not connect to https:\/\/llm\.example\.com:/);
    assert.match(m, /allows live runs only to https:\/\/api\.openai\.com/);
    assert.match(m, /LN_DIFF_LIVE_ORIGINS=https:\/\/llm\.example\.com /);
  });
});
