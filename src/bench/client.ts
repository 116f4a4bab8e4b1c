// One bench request: POST the chat request, read the streamed reply and the
// token counts the API reports, and say how it ended, as a value (never an
// exception): done, refused key, another HTTP error (transient or not, with
// the wait the server asked for), a stall (no bytes for the idle timeout,
// timed by the injected clock), a broken connection, no text, or stopped.
// No DOM, no `node:`: fetch, AbortSignal and TextDecoder are globals in
// Node and in browsers (the page runs this in a worker).

import {
  chatRequest,
  corsMessage,
  EndpointError,
  errorBody,
  httpErrorMessage,
  readEvent,
  SseReader,
  type Endpoint,
} from '../chat/protocol.ts';
import { runBlocker } from '../chat/requirements.ts';
import { transientError, wholeAnswer } from './answer.ts';
import type { BenchEndpoint, ReplyStatus } from './types.ts';

/** The most of a body without events kept to read as one JSON answer (characters). */
const MAX_WHOLE = 8 * 1024 * 1024;

/** Time as the bench sees it: the real one, or a test's. */
export interface BenchClock {
  /** Milliseconds (the real clock: since the epoch). */
  now(): number;
  /** Resolves after `ms`; rejects when `signal` aborts first. */
  sleep(ms: number, signal: AbortSignal): Promise<void>;
}

/** The origin of the page running this (a window or a worker), or null in Node. */
function pageOrigin(): string | null {
  const where = (globalThis as { location?: { origin?: unknown } }).location;
  return typeof where?.origin === 'string' && where.origin !== 'null' ? where.origin : null;
}

/** In a page and cross-origin: whether the server answers a no-cors request (so the real one was refused by CORS). */
async function refusedByCors(url: string, doFetch: typeof fetch, signal: AbortSignal): Promise<boolean> {
  const origin = pageOrigin();
  if (origin === null || new URL(url).origin === origin) return false;
  try {
    await doFetch(url, { method: 'GET', mode: 'no-cors', cache: 'no-store', credentials: 'omit', signal });
    return true;
  } catch {
    return false;
  }
}

const abortError = () => new DOMException('The operation was aborted.', 'AbortError');

export const realClock: BenchClock = {
  now: () => Date.now(),
  sleep: (ms, signal) =>
    new Promise<void>((resolve, reject) => {
      if (signal.aborted) return reject(abortError());
      const done = () => {
        signal.removeEventListener('abort', stop);
        resolve();
      };
      const timer = setTimeout(done, Math.max(0, ms));
      const stop = () => {
        clearTimeout(timer);
        reject(abortError());
      };
      signal.addEventListener('abort', stop, { once: true });
    }),
};

export interface StreamArgs {
  endpoint: BenchEndpoint;
  /** Sent as a header only (OpenAI: `Authorization: Bearer`, Anthropic: `x-api-key`); empty: none. */
  key: string;
  system: string;
  user: string;
  signal: AbortSignal;
  clock: BenchClock;
  /** No bytes for this long ends the reply as `stalled`. */
  idleTimeoutMs: number;
  fetch?: typeof fetch;
  /** Each piece of text as it arrives. */
  onText?(text: string): void;
  /** The origins the page may connect to (its CSP): another endpoint is refused before any request. */
  allowed?: readonly string[];
  /** Ask an OpenAI-compatible API to report token counts (`stream_options`); default true. */
  usage?: boolean;
}

export interface StreamResult {
  status: ReplyStatus;
  /** The reply text received (all of it, also when cut off). */
  text: string;
  /** What went wrong, for a status other than `done`. */
  error: string | null;
  /** As the API reported them; null where it did not. */
  usage: { input: number | null; output: number | null };
  /** Milliseconds from sending to the first text; null when none came. */
  firstTokenMs: number | null;
  totalMs: number;
  /** Worth trying again: HTTP 408, 429 or 5xx, or a connection that broke. */
  transient: boolean;
  /** The wait the server asked for (Retry-After), if any. */
  retryAfterMs: number | null;
  /** The server refused `stream_options` (some OpenAI-compatible servers accept no field OpenAI added later): the request was sent again without it. */
  usageRefused?: boolean;
  /** The API said the reply stopped at its token cap (OpenAI-compatible `finish_reason: "length"`, Anthropic `stop_reason: "max_tokens"`). */
  cutOff?: boolean;
}

/**
 * How one event says the reply ended: `cap` at the token cap (OpenAI-compatible
 * `finish_reason: "length"`, Anthropic `stop_reason: "max_tokens"`), `end`
 * for any other finish (a `finish_reason`, `[DONE]`, a `stop_reason`,
 * `message_stop`), null when it says nothing of it.
 */
export function finishOf(provider: BenchEndpoint['api'], data: string): 'cap' | 'end' | null {
  if (provider === 'openai' && data.trim() === '[DONE]') return 'end';
  if (!/finish_reason|stop_reason|message_stop/.test(data)) return null;
  let value: unknown;
  try {
    value = JSON.parse(data);
  } catch {
    return null;
  }
  if (typeof value !== 'object' || value === null) return null;
  const v = value as { choices?: unknown; delta?: { stop_reason?: unknown } | null; type?: unknown };
  if (provider === 'anthropic') {
    if (v.type === 'message_stop') return 'end';
    const reason = v.type === 'message_delta' ? v.delta?.stop_reason : undefined;
    return reason === 'max_tokens' ? 'cap' : typeof reason === 'string' ? 'end' : null;
  }
  const reasons = Array.isArray(v.choices) ? v.choices.map((c: unknown) => (c as { finish_reason?: unknown } | null)?.finish_reason) : [];
  return reasons.includes('length') ? 'cap' : reasons.some((r) => typeof r === 'string') ? 'end' : null;
}

const IDLE: unique symbol = Symbol('idle');

/** Retry-After in milliseconds: seconds, or an HTTP date (measured from `now`); null when absent or unreadable. */
export function retryAfter(header: string | null, now: number): number | null {
  if (header === null || header.trim() === '') return null;
  const value = header.trim();
  if (/^\d+(\.\d+)?$/.test(value)) return Math.round(Number(value) * 1000);
  const at = Date.parse(value);
  return Number.isNaN(at) ? null : Math.max(0, at - now);
}

const isTransientStatus = (status: number) => status === 408 || status === 429 || status >= 500;

/** Stream one reply. Never throws. */
export async function streamReply(args: StreamArgs): Promise<StreamResult> {
  const { clock, signal } = args;
  const doFetch = args.fetch ?? globalThis.fetch.bind(globalThis);
  const key = args.key.trim();
  // Nothing the bench keeps may hold the key, even when a server echoes it.
  const redact = (s: string) => (key.length >= 4 ? s.split(key).join('[key]') : s);
  const start = clock.now();
  let text = '';
  let firstTokenMs: number | null = null;
  const usage: { input: number | null; output: number | null } = { input: null, output: null };
  let cutOff = false;
  const end = (status: ReplyStatus, error: string | null, extra: { transient?: boolean; retryAfterMs?: number | null } = {}): StreamResult => ({
    ...(cutOff ? { cutOff: true } : {}),
    status,
    text: redact(text),
    error: error === null ? null : redact(error),
    usage,
    firstTokenMs,
    totalMs: clock.now() - start,
    transient: extra.transient ?? false,
    retryAfterMs: extra.retryAfterMs ?? null,
  });
  const stopped = () => end('stopped', 'Stopped before the reply finished.');
  if (signal.aborted) return stopped();

  const endpoint: Endpoint = { provider: args.endpoint.api, baseUrl: args.endpoint.baseUrl, model: args.endpoint.model, key };
  if (args.allowed) {
    const blocked = runBlocker(endpoint, args.allowed);
    if (blocked) return end('http', `Not sent: ${blocked.reason}`);
  }
  let request;
  try {
    request = chatRequest(endpoint, args.system, args.user, { usage: args.usage !== false });
  } catch (e) {
    return end('http', `Not sent: ${e instanceof EndpointError ? e.message : String(e)}.`);
  }

  // One controller for the request: the caller's Stop and a stall both end it.
  const cut = new AbortController();
  const onStop = () => cut.abort();
  signal.addEventListener('abort', onStop, { once: true });
  const idleMessage = `The model sent nothing for ${Math.round(args.idleTimeoutMs / 1000)} s; the reply so far is scored as cut off.`;
  /** `p`, or IDLE when nothing settles it within the idle timeout. */
  const orIdle = async <T>(p: Promise<T>): Promise<T | typeof IDLE> => {
    const timer = new AbortController();
    const idle = clock.sleep(args.idleTimeoutMs, timer.signal).then(
      (): typeof IDLE => IDLE,
      () => new Promise<never>(() => undefined),
    );
    try {
      return await Promise.race([p, idle]);
    } finally {
      timer.abort();
    }
  };

  try {
    let response: Response | typeof IDLE;
    try {
      response = await orIdle(
        doFetch(request.url, {
          method: 'POST',
          headers: request.headers,
          body: request.body,
          signal: cut.signal,
          credentials: 'omit',
          cache: 'no-store',
          referrerPolicy: 'no-referrer',
        }),
      );
    } catch (e) {
      if (signal.aborted) return stopped();
      const target = new URL(request.url).origin;
      // In a page, a refused cross-origin answer (CORS) and no answer fail alike; a no-cors
      // request, which needs no permission, tells them apart. A refusal is not retried: it will not change.
      if (await refusedByCors(request.url, doFetch, cut.signal)) return end('network', corsMessage(target, pageOrigin()!));
      return end('network', `Could not reach ${target} (${e instanceof Error ? e.message : String(e)}).`, { transient: true });
    }
    if (response === IDLE) {
      cut.abort();
      return end('stalled', idleMessage);
    }
    if (!response.ok) {
      const body = await errorBody(response, async (text) => {
        const read = await orIdle(text);
        return read === IDLE ? null : read;
      });
      // A server that refuses the usage option is asked again without it: the counts are then made here.
      if ((response.status === 400 || response.status === 422) && endpoint.provider === 'openai' && args.usage !== false && /stream_options|include_usage/i.test(body))
        return { ...(await streamReply({ ...args, usage: false })), usageRefused: true };
      const status = response.status === 401 || response.status === 403 ? 'auth' : 'http';
      return end(status, httpErrorMessage(response.status, response.statusText, body), {
        transient: isTransientStatus(response.status),
        retryAfterMs: retryAfter(response.headers.get('retry-after'), clock.now()),
      });
    }
    if (!response.body) return end('empty', 'The server sent an empty answer.');

    const reader = response.body.getReader();
    const decoder = new TextDecoder();
    const sse = new SseReader();
    const provider = endpoint.provider;
    let streamError: string | null = null;
    let streamErrorTransient = false;
    let finished = false;
    // Whether the stream said the reply was over: one that just stops is a connection that broke.
    let ended = false;
    // Until an event arrives, the body is kept: a server may answer with one JSON completion, or a page.
    let events = 0;
    let raw = '';
    const take = (chunk: string, last: boolean) => {
      const got = [...sse.push(chunk), ...(last ? sse.end() : [])];
      if (events === 0 && raw.length < MAX_WHOLE) raw += chunk;
      events += got.length;
      for (const event of got) {
        const finish = finishOf(provider, event.data);
        if (finish !== null) ended = true;
        if (finish === 'cap') cutOff = true;
        const { delta, usage: counts, error: errorValue } = readEvent(provider, event);
        if (counts?.input !== undefined) usage.input = counts.input;
        if (counts?.output !== undefined) usage.output = counts.output;
        if (!delta) continue;
        if ('text' in delta) {
          if (firstTokenMs === null) firstTokenMs = clock.now() - start;
          text += delta.text;
          args.onText?.(delta.text);
        } else if ('error' in delta) {
          streamError = delta.error;
          streamErrorTransient = transientError(errorValue);
          return;
        } else {
          finished = true;
          return;
        }
      }
    };
    try {
      for (;;) {
        const read = await orIdle(reader.read());
        if (read === IDLE) {
          cut.abort();
          void reader.cancel().catch(() => undefined);
          return end('stalled', idleMessage);
        }
        const { done, value } = read;
        take(done ? decoder.decode() : decoder.decode(value, { stream: true }), done);
        if (streamError !== null || finished) {
          if (!done) void reader.cancel().catch(() => undefined);
          break;
        }
        if (done) break;
      }
    } catch (e) {
      if (signal.aborted) return stopped();
      return end('network', `The connection broke off while the reply was arriving (${e instanceof Error ? e.message : String(e)}).`, { transient: true });
    }
    if (streamError !== null) return end('network', `The model's stream reported an error: ${streamError}`, { transient: streamErrorTransient });
    if (events === 0 && !raw.trimStart().startsWith(':')) {
      const whole = wholeAnswer(provider, raw, response.headers.get('content-type'));
      if (whole.kind === 'error') return end('http', whole.message, { transient: whole.transient });
      if (whole.kind === 'none') return end(raw.trim() === '' ? 'empty' : 'http', whole.message);
      text = whole.text;
      cutOff = whole.cutOff;
      if (whole.usage.input !== null) usage.input = whole.usage.input;
      if (whole.usage.output !== null) usage.output = whole.usage.output;
      if (text !== '') {
        firstTokenMs = clock.now() - start;
        args.onText?.(text);
      }
    }
    if (text === '') return end('empty', 'The model sent no text.');
    if (events > 0 && !ended)
      return end('network', 'The stream ended before the reply did (no finish reason, no end event): the connection was cut; the reply so far is scored as cut off.', { transient: true });
    return end('done', null);
  } finally {
    signal.removeEventListener('abort', onStop);
  }
}
