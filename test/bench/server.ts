// A scripted chat endpoint for the bench, on 127.0.0.1 and a free port: it
// speaks the OpenAI chat-completions stream (/v1/chat/completions) and
// Anthropic's Messages stream (/v1/messages), both with token counts, and
// answers each request with the behaviour the test chose for its task and
// format (see ./replies.ts). It knows the task from the SOURCE of the user
// message and the format from the system prompt (one of the plans it is
// given); a request it cannot place gets HTTP 400 saying why. Each event is
// written in two pieces, as a network may cut it. It records every request,
// counts the most streams open at once, and tells the test when a `stalled`
// reply has gone silent (so the test fires the idle timeout on its own
// clock). CORS is answered, so a page may call it too.

import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { getFormat } from '../../src/formats/index.ts';
import { sourceOf } from '../../src/bench/message.ts';
import type { BenchTask } from '../../src/bench/tasks.ts';
import type { FormatPlan } from '../../src/bench/types.ts';
import { scriptedReply, type Behaviour } from './replies.ts';

export interface Recorded {
  method: string;
  /** The path and query as requested. */
  url: string;
  headers: IncomingMessage['headers'];
  body: string;
}

export interface Stall {
  task: string;
  format: string;
  /** The text sent before the silence. */
  sent: string;
}

export interface BenchServerOptions {
  tasks: readonly BenchTask[];
  /** The plans the run sends: a request's system prompt must be one of them. */
  plans: readonly FormatPlan[];
  /** The behaviour for a task in a format (both APIs alike). */
  behaviour: (task: string, format: string) => Behaviour;
  /** The token counts the stream reports (default 1234 in, 56 out). */
  usage?: { input: number; output: number };
  /** The key the server accepts (OpenAI: `Authorization: Bearer KEY`; Anthropic: `x-api-key`); unset: any. */
  key?: string;
  /** Characters of reply text per streamed event (default 40). */
  chunk?: number;
  /** Hold every stream until this many have been open at once (then let them all run). */
  gate?: number;
  /** Told each time a `stalled` reply goes silent. */
  onStall?: (stall: Stall) => void;
}

export interface BenchServer {
  /** `http://127.0.0.1:PORT/v1` */
  base: string;
  origin: string;
  /** Every request, preflights included, in arrival order. */
  requests: Recorded[];
  /** The chat requests only (POST), in arrival order. */
  posts(): Recorded[];
  /** The most reply streams that were open at once (a stream is open until the server ends it or the client goes away). */
  maxStreams(): number;
  /** The stalls so far. */
  stalls: Stall[];
  close(): Promise<void>;
}

const ALLOW_HEADERS = 'authorization, content-type, x-api-key, anthropic-version, anthropic-dangerous-direct-browser-access';
const tick = () => new Promise<void>((resolve) => setImmediate(resolve));

/** The request's task and format, or why the server cannot tell. */
function identify(options: BenchServerOptions, system: string, user: string): { task: BenchTask; format: string } | string {
  const plan = options.plans.find((p) => p.system === system);
  if (!plan) return 'the system prompt is none of the planned formats\' prompts';
  const format = getFormat(plan.format);
  if (!format) return `the plan names an unknown format ${plan.format}`;
  const task = options.tasks.find((t) => user.startsWith(`SOURCE\n\n${sourceOf(t, format)}\n\nTARGET\n\n`));
  if (!task) return `the SOURCE of the user message is no known task's files in the ${plan.format} view`;
  return { task, format: plan.format };
}

/** The system prompt and user message of a request body, by API. */
function readBody(api: 'openai' | 'anthropic', body: string): { system: string; user: string; usage: boolean } | string {
  let value: unknown;
  try {
    value = JSON.parse(body);
  } catch {
    return 'the body is not JSON';
  }
  const v = value as Record<string, unknown>;
  const messages = Array.isArray(v.messages) ? (v.messages as { role?: unknown; content?: unknown }[]) : [];
  const user = messages.find((m) => m.role === 'user')?.content;
  if (typeof user !== 'string') return 'no user message';
  if (v.stream !== true) return 'stream is not true';
  if (api === 'anthropic') {
    if (typeof v.system !== 'string') return 'no system prompt';
    if (typeof v.max_tokens !== 'number') return 'no max_tokens';
    return { system: v.system, user, usage: true };
  }
  const system = messages.find((m) => m.role === 'system')?.content;
  if (typeof system !== 'string') return 'no system message';
  const usage = (v.stream_options as { include_usage?: unknown } | undefined)?.include_usage === true;
  return { system, user, usage };
}

export async function startBenchServer(options: BenchServerOptions): Promise<BenchServer> {
  const requests: Recorded[] = [];
  const stalls: Stall[] = [];
  const attempts = new Map<string, number>();
  const usage = options.usage ?? { input: 1234, output: 56 };
  const size = options.chunk ?? 40;
  let open = 0;
  let most = 0;
  let openGate!: () => void;
  const gate = new Promise<void>((resolve) => (openGate = resolve));

  const cors = (res: ServerResponse) => {
    res.setHeader('Access-Control-Allow-Origin', '*');
    res.setHeader('Access-Control-Allow-Headers', ALLOW_HEADERS);
    res.setHeader('Access-Control-Allow-Methods', 'POST, OPTIONS');
    res.setHeader('Access-Control-Expose-Headers', 'retry-after');
  };
  const json = (res: ServerResponse, status: number, data: unknown, headers: Record<string, string> = {}) => {
    res.writeHead(status, { 'content-type': 'application/json', ...headers });
    res.end(JSON.stringify(data));
  };

  /** Write events, each in two pieces; after `stallAfter` events, go silent until the connection closes. */
  async function stream(res: ServerResponse, events: string[], stallAfter: number | null, onSilent: () => void): Promise<void> {
    let closed = false;
    let counted = true;
    // A stream counts as open until the server ends it or the client goes away, whichever is first.
    const over = () => {
      if (counted) open--;
      counted = false;
    };
    open++;
    most = Math.max(most, open);
    if (options.gate !== undefined && most >= options.gate) openGate();
    res.on('close', () => {
      closed = true;
      over();
    });
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    if (options.gate !== undefined) await gate;
    for (let i = 0; i < events.length; i++) {
      if (closed) return;
      if (stallAfter !== null && i === stallAfter) {
        onSilent();
        return; // the response stays open, silent, until the client gives up
      }
      const event = events[i];
      const cut = Math.floor(event.length / 2);
      res.write(event.slice(0, cut));
      await tick();
      if (closed) return;
      res.write(event.slice(cut));
      await tick();
    }
    over();
    res.end();
  }

  const pieces = (text: string) => {
    const out: string[] = [];
    for (let i = 0; i < text.length; i += size) out.push(text.slice(i, i + size));
    return out;
  };

  function answer(api: 'openai' | 'anthropic', req: IncomingMessage, res: ServerResponse, body: string): void {
    if (options.key !== undefined) {
      const given = api === 'openai' ? req.headers.authorization : req.headers['x-api-key'];
      if (given !== (api === 'openai' ? `Bearer ${options.key}` : options.key)) {
        json(res, 401, { error: { message: 'invalid key', type: 'authentication_error' } });
        return;
      }
    }
    const read = readBody(api, body);
    if (typeof read === 'string') return json(res, 400, { error: { message: `scripted bench server: ${read}` } });
    const found = identify(options, read.system, read.user);
    if (typeof found === 'string') return json(res, 400, { error: { message: `scripted bench server cannot place this request: ${found}` } });
    const { task, format } = found;
    const behaviour = options.behaviour(task.id, format);
    const key = `${api} ${task.id} ${format}`;
    const attempt = (attempts.get(key) ?? 0) + 1;
    attempts.set(key, attempt);
    if (behaviour === '429-then-ok' && attempt === 1) {
      return json(res, 429, { error: { message: 'Rate limit reached; try again in 1s.', type: 'rate_limit_error' } }, { 'retry-after': '1' });
    }
    const script = scriptedReply(task, format, behaviour);
    const sentText = script.sent === undefined ? script.text : script.text.slice(0, script.sent);
    // The text to stream: for a stall, what is sent before the silence, in the usual pieces.
    const textPieces = pieces(sentText);
    const events: string[] = [];
    if (api === 'openai') {
      const chunk = (data: unknown) => `data: ${JSON.stringify(data)}\n\n`;
      textPieces.forEach((content, i) =>
        events.push(chunk({ id: 'chatcmpl-1', object: 'chat.completion.chunk', choices: [{ index: 0, delta: i === 0 ? { role: 'assistant', content } : { content }, finish_reason: null }] })),
      );
      const textEvents = events.length;
      events.push(chunk({ id: 'chatcmpl-1', object: 'chat.completion.chunk', choices: [{ index: 0, delta: {}, finish_reason: 'stop' }] }));
      if (read.usage) events.push(chunk({ id: 'chatcmpl-1', object: 'chat.completion.chunk', choices: [], usage: { prompt_tokens: usage.input, completion_tokens: usage.output, total_tokens: usage.input + usage.output } }));
      events.push('data: [DONE]\n\n');
      void stream(res, events, script.sent === undefined ? null : textEvents, () => signal(task.id, format, sentText));
      return;
    }
    const sse = (type: string, data: object) => `event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`;
    events.push(
      sse('message_start', { message: { id: 'msg_1', type: 'message', role: 'assistant', content: [], usage: { input_tokens: usage.input, output_tokens: 1 } } }),
      sse('content_block_start', { index: 0, content_block: { type: 'text', text: '' } }),
      ': keep-alive\n\n',
    );
    for (const text of textPieces) events.push(sse('content_block_delta', { index: 0, delta: { type: 'text_delta', text } }));
    const textEvents = events.length;
    events.push(
      sse('content_block_stop', { index: 0 }),
      sse('message_delta', { delta: { stop_reason: 'end_turn' }, usage: { output_tokens: usage.output } }),
      sse('message_stop', {}),
    );
    void stream(res, events, script.sent === undefined ? null : textEvents, () => signal(task.id, format, sentText));
  }

  function signal(task: string, format: string, sent: string): void {
    const stall = { task, format, sent };
    stalls.push(stall);
    options.onStall?.(stall);
  }

  const server = createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => (body += chunk));
    req.on('end', () => {
      const url = req.url ?? '/';
      requests.push({ method: req.method ?? '', url, headers: req.headers, body });
      cors(res);
      if (req.method === 'OPTIONS') {
        res.writeHead(204);
        res.end();
        return;
      }
      const path = new URL(url, 'http://127.0.0.1').pathname;
      if (req.method === 'POST' && path === '/v1/chat/completions') return answer('openai', req, res, body);
      if (req.method === 'POST' && path === '/v1/messages') return answer('anthropic', req, res, body);
      json(res, 404, { error: { message: `scripted bench server: no ${req.method} ${path}` } });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const origin = `http://127.0.0.1:${port}`;
  return {
    base: `${origin}/v1`,
    origin,
    requests,
    posts: () => requests.filter((r) => r.method === 'POST'),
    maxStreams: () => most,
    stalls,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
