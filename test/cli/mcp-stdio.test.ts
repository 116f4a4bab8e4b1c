// The MCP server's stdio transport (src/cli/mcp/stdio.ts): any line gets an
// answer or goes to the server, one over the limit an error naming the limit
// for its id, and the next line is read on. In process over a pair of
// streams, then through `ln-diff mcp` run as a child process with the SDK's
// own client: an 11 MB apply_edits call is answered, and so is the next.

import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { constants } from 'node:buffer';
import { usage } from '../../src/cli/main.ts';
import { idOf, LineTransport, MAX_MESSAGE_BYTES, methodOf } from '../../src/cli/mcp/stdio.ts';
import { tempDir } from './helpers.ts';
import { call, connect, text } from './mcp-client.ts';

/** A transport over two fresh streams: what it hands on, and the lines it writes. */
function pair(limit: number) {
  const input = new PassThrough();
  const output = new PassThrough();
  const transport = new LineTransport(input, output, limit);
  const got: unknown[] = [];
  const written: unknown[] = [];
  transport.onmessage = (m) => got.push(m);
  let pending = '';
  output.on('data', (chunk: Buffer) => {
    pending += chunk.toString('utf8');
    for (let nl = pending.indexOf('\n'); nl !== -1; nl = pending.indexOf('\n')) {
      written.push(JSON.parse(pending.slice(0, nl)));
      pending = pending.slice(nl + 1);
    }
  });
  return { input, transport, got, written };
}

/** Let the streams deliver what was written to them. */
const settle = () => new Promise((resolve) => setImmediate(resolve));

const ping = (id: number) => ({ jsonrpc: '2.0', id, method: 'ping' });

describe('LineTransport', () => {
  test('a message split across chunks, two in one chunk, CR LF and blank lines', async () => {
    const { input, transport, got, written } = pair(1000);
    await transport.start();
    const a = JSON.stringify(ping(1));
    input.write(a.slice(0, 5));
    input.write(a.slice(5) + '\r\n\n' + JSON.stringify(ping(2)) + '\n' + JSON.stringify(ping(3)).slice(0, 3));
    await settle();
    assert.deepEqual(got, [ping(1), ping(2)]);
    input.write(JSON.stringify(ping(3)).slice(3) + '\n');
    await settle();
    assert.deepEqual(got, [ping(1), ping(2), ping(3)]);
    assert.deepEqual(written, []);
  });

  test('a line over the limit is dropped and answered with its id, whichever end the id is at; the next is read', async () => {
    const { input, transport, got, written } = pair(1000);
    await transport.start();
    const big = 'x'.repeat(5000);
    // The SDK's client writes method and params first, then jsonrpc and id.
    const call = { method: 'tools/call', params: { name: 'apply_edits', arguments: { reply: big } }, jsonrpc: '2.0', id: 7 };
    const line = JSON.stringify(call) + '\n';
    for (let i = 0; i < line.length; i += 300) input.write(line.slice(i, i + 300));
    input.write(JSON.stringify({ jsonrpc: '2.0', id: 'eight', method: 'resources/list', params: { pad: big } }) + '\n');
    input.write(JSON.stringify(ping(9)) + '\n');
    await settle();
    assert.deepEqual(got, [ping(9)], 'only the message within the limit reaches the server');
    assert.equal(written.length, 2);
    const [first, second] = written as { id: unknown; result?: { isError: boolean; content: { text: string }[] }; error?: { code: number; message: string } }[];
    assert.equal(first.id, 7);
    assert.equal(first.result?.isError, true, 'a tool call gets an error result');
    assert.match(first.result!.content[0].text, new RegExp(`the message is ${line.length - 1} bytes .* over the 1000 bytes .* this server reads in one message`));
    assert.equal(second.id, 'eight');
    assert.equal(second.error?.code, -32600, 'another request gets a JSON-RPC error');
    assert.match(second.error!.message, /over the 1000 bytes/);
  });

  test('a line over the limit with no id to be found is answered with id null', async () => {
    const { input, transport, written } = pair(100);
    await transport.start();
    input.write('[' + '1,'.repeat(200) + '1]\n');
    await settle();
    assert.deepEqual(written.map((w) => (w as { id: unknown }).id), [null]);
  });

  test('a line that is not JSON, or not JSON-RPC, is answered; the next is read', async () => {
    const { input, transport, got, written } = pair(1000);
    await transport.start();
    input.write('{"jsonrpc": "2.0", "id": 1, "method": \n');
    input.write('{"id": 2, "hello": "world"}\n');
    input.write(JSON.stringify(ping(3)) + '\n');
    await settle();
    assert.deepEqual(got, [ping(3)]);
    const answers = written as { id: unknown; error: { code: number } }[];
    assert.deepEqual(answers.map((a) => [a.id, a.error.code]), [[null, -32700], [2, -32600]]);
  });

  test('closes when its input ends', async () => {
    const { input, transport } = pair(1000);
    let closed = 0;
    transport.onclose = () => closed++;
    await transport.start();
    input.end();
    await settle();
    assert.equal(closed, 1);
  });

  test('the id and method of a message known by its ends only', () => {
    assert.equal(idOf('{"jsonrpc":"2.0","id":12,"method":"tools/call","params":{"id":3', ''), 12);
    assert.equal(idOf('{"method":"tools/call","params":{"arguments":{"id":5', '"xx"}},"jsonrpc":"2.0","id":"a\\"b"}\n'), 'a"b');
    assert.equal(idOf('{"method":"x","params":{', 'yy"}}}'), null);
    assert.equal(methodOf('{"method":"tools/call","params":'), 'tools/call');
    assert.equal(methodOf('{"jsonrpc":"2.0","id":4,"method":"tools/call","params":'), 'tools/call');
    assert.equal(methodOf('{"params":{"method":"tools/call"'), null);
  });

  test('the limit is as much as apply --json reads (the longest string Node.js holds), and README and the help say it', () => {
    assert.equal(MAX_MESSAGE_BYTES, constants.MAX_STRING_LENGTH);
    const said = MAX_MESSAGE_BYTES.toLocaleString('en-US');
    assert.match(readFileSync(new URL('../../README.md', import.meta.url), 'utf8'), new RegExp(`A message may be up to ${said} bytes`));
    assert.match(usage(), new RegExp(`A message may be up to ${said} bytes`));
  });
});

describe('ln-diff mcp: messages of any size', () => {
  test('an 11 MB apply_edits call is answered, and so is the next call', async (t) => {
    const dir = tempDir(t, 'ln-diff-mcp-big-');
    writeFileSync(join(dir, 'a.txt'), 'one\ntwo\n');
    const c = await connect({ args: ['--root', dir] });
    t.after(() => c.close());
    // 11 MB of prose after one edit: more than the SDK's own transport reads (10 MiB).
    const edit = 'a.txt\n<editblock>\n<<<<<<< REMOVE\n2│two\n=======\n │TWO\n>>>>>>> INSERT\n</editblock>\n';
    const reply = edit + 'prose line of the reply\n'.repeat(Math.ceil((11 * 1024 * 1024) / 24));
    const big = await call(c.client, 'apply_edits', { reply, format: 'ln-diff' });
    assert.equal(big.isError ?? false, false, text(big));
    assert.equal(readFileSync(join(dir, 'a.txt'), 'utf8'), 'one\nTWO\n');
    const next = await call(c.client, 'list_formats', {});
    assert.equal(next.isError ?? false, false);
    assert.match(text(next), /ln-diff/);
  });

  test('a call over the limit gets an error result naming the limit, and the server serves the next call', async (t) => {
    const dir = tempDir(t, 'ln-diff-mcp-limit-');
    writeFileSync(join(dir, 'a.txt'), 'one\n');
    const c = await connect({ args: ['--root', dir], env: { LN_DIFF_MCP_TEST_LIMIT: '65536' } });
    t.after(() => c.close());
    const over = await call(c.client, 'apply_edits', { reply: 'x'.repeat(100_000) });
    assert.equal(over.isError, true);
    assert.match(text(over), /^the message is \d+ bytes \(\d+\.\d KiB\), over the 65536 bytes \(64\.0 KiB\) this server reads in one message/);
    const next = await call(c.client, 'apply_edits', { reply: 'a.txt\n<editblock>\n<<<<<<< REMOVE\n1│one\n=======\n │ONE\n>>>>>>> INSERT\n</editblock>\n' });
    assert.equal(next.isError ?? false, false, text(next));
    assert.equal(readFileSync(join(dir, 'a.txt'), 'utf8'), 'ONE\n');
  });
});
