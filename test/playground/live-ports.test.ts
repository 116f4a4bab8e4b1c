// The ports a browser refuses (src/chat/ports.ts): the Fetch
// Standard's "bad port" list, and the sentence that names one.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { BAD_PORTS, badPort, badPortMessage } from '../../src/chat/ports.ts';

describe('badPort', () => {
  it('finds the standard list’s ports, with the service each is reserved for', () => {
    assert.deepEqual(badPort(new URL('http://127.0.0.1:9/v1')), { port: 9, service: 'discard' });
    assert.deepEqual(badPort(new URL('http://localhost:6000/v1')), { port: 6000, service: 'x11' });
    assert.deepEqual(badPort(new URL('https://llm.example.com:10080')), { port: 10080, service: 'amanda' });
    assert.deepEqual(badPort(new URL('http://127.0.0.1:0/')), { port: 0, service: '' });
    for (const port of [1, 7, 11, 22, 25, 587, 2049, 5060, 6566, 6665, 6666, 6667, 6668, 6669, 6679, 6697]) {
      assert.equal(badPort(new URL(`http://127.0.0.1:${port}/v1`))?.port, port, String(port));
    }
  });

  it('passes the ports model servers use, and the default ones', () => {
    for (const url of [
      'http://127.0.0.1:8080/v1',
      'http://127.0.0.1:11434/v1',
      'http://127.0.0.1:1234/v1',
      'http://localhost:8000/v1',
      'http://127.0.0.1:6664/v1',
      'http://127.0.0.1:6670/v1',
      'http://127.0.0.1/v1',
      'http://127.0.0.1:80/v1',
      'https://api.openai.com/v1',
      'https://api.openai.com:443/v1',
    ]) {
      assert.equal(badPort(new URL(url)), null, url);
    }
  });

  it('only looks at http and https', () => {
    assert.equal(badPort(new URL('ftp://example.com:9/')), null);
  });

  it('holds the standard’s 83 ports, 0 to 10080', () => {
    assert.equal(BAD_PORTS.size, 83);
    const ports = [...BAD_PORTS.keys()];
    assert.deepEqual(ports, [...ports].sort((a, b) => a - b));
    assert.equal(ports[0], 0);
    assert.equal(ports.at(-1), 10080);
  });
});

describe('badPortMessage', () => {
  it('says the browser refuses the port, what it is for, and what to do', () => {
    assert.equal(
      badPortMessage({ port: 9, service: 'discard' }),
      'The browser refuses to connect to port 9 (a port reserved for other protocols: discard); use another port.',
    );
    assert.equal(badPortMessage({ port: 0, service: '' }), 'The browser refuses to connect to port 0 (a port reserved for other protocols); use another port.');
  });
});
