// The two chat APIs a live run speaks, as pure functions: the request for
// each (OpenAI-compatible chat completions, Anthropic Messages), a reader
// of server-sent events, the text each event adds, and what an HTTP error
// means, and the token counts a stream reports (`usageOf`). No DOM and no
// fetch: unit-tested in node.

export type Provider = 'openai' | 'anthropic';

export interface Endpoint {
  provider: Provider;
  /** The base URL as typed: `https://api.openai.com/v1`, `http://127.0.0.1:11434/v1`, `https://api.anthropic.com`. */
  baseUrl: string;
  model: string;
  /** The user's key; never stored in a link. Empty: no key header (local servers). */
  key: string;
}

export const DEFAULT_BASE: Record<Provider, string> = {
  openai: 'https://api.openai.com/v1',
  anthropic: 'https://api.anthropic.com',
};

/** Replies are capped at this many tokens where the API needs a cap (Anthropic). */
export const MAX_TOKENS = 8192;

export interface ChatRequest {
  url: string;
  headers: Record<string, string>;
  body: string;
}

export class EndpointError extends Error {
  override name = 'EndpointError';
}

/** The full URL of the chat call; throws EndpointError for a base that is not an http(s) URL. */
export function chatUrl(provider: Provider, baseUrl: string): string {
  let url: URL;
  try {
    url = new URL(baseUrl.trim());
  } catch {
    throw new EndpointError('the base URL is not a web address; write it as http://127.0.0.1:11434/v1 or https://api.openai.com/v1');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new EndpointError(`the base URL must start with http:// or https://, not ${url.protocol}`);
  if (url.username || url.password) throw new EndpointError('put the key in the API key field, not in the URL');
  const path = url.pathname.replace(/\/+$/, '');
  url.search = '';
  url.hash = '';
  if (provider === 'openai') {
    url.pathname = path.endsWith('/chat/completions') ? path : `${path}/chat/completions`;
  } else {
    url.pathname = path.endsWith('/messages') ? path : path.endsWith('/v1') ? `${path}/messages` : `${path}/v1/messages`;
  }
  return url.href;
}

/** What a caller may add to a chat request. */
export interface ChatOptions {
  /** Ask the API to report token counts in the stream (OpenAI-compatible: `stream_options.include_usage`; Anthropic always does). */
  usage?: boolean;
  /** Cap the reply at this many tokens (Anthropic: `max_tokens`, default `MAX_TOKENS`; OpenAI-compatible: `max_tokens`, default none). */
  maxTokens?: number;
}

/** The streaming chat request: the system prompt and one user message. */
export function chatRequest(endpoint: Endpoint, system: string, user: string, options: ChatOptions = {}): ChatRequest {
  const url = chatUrl(endpoint.provider, endpoint.baseUrl);
  const model = endpoint.model.trim();
  const key = endpoint.key.trim();
  if (endpoint.provider === 'anthropic') {
    if (!model) throw new EndpointError('name the model (for example claude-sonnet-4-5)');
    if (!key) throw new EndpointError('the Anthropic API needs a key');
    return {
      url,
      headers: {
        'content-type': 'application/json',
        'x-api-key': key,
        'anthropic-version': '2023-06-01',
        'anthropic-dangerous-direct-browser-access': 'true',
      },
      body: JSON.stringify({ model, max_tokens: options.maxTokens ?? MAX_TOKENS, stream: true, ...(system ? { system } : {}), messages: [{ role: 'user', content: user }] }),
    };
  }
  const messages = [...(system ? [{ role: 'system', content: system }] : []), { role: 'user', content: user }];
  return {
    url,
    headers: { 'content-type': 'application/json', ...(key ? { authorization: `Bearer ${key}` } : {}) },
    body: JSON.stringify({
      ...(model ? { model } : {}),
      stream: true,
      ...(options.usage ? { stream_options: { include_usage: true } } : {}),
      ...(options.maxTokens !== undefined ? { max_tokens: options.maxTokens } : {}),
      messages,
    }),
  };
}

/** One server-sent event. */
export interface SseEvent {
  event: string;
  data: string;
}

/** Reads `text/event-stream` as it arrives, in chunks cut anywhere. */
export class SseReader {
  private buffer = '';
  private event = '';
  private data: string[] = [];

  /** Feed a chunk; returns the events it completed. */
  push(chunk: string): SseEvent[] {
    this.buffer += chunk;
    const out: SseEvent[] = [];
    let start = 0;
    for (;;) {
      const nl = this.buffer.slice(start).search(/\r\n|\r|\n/);
      if (nl < 0) break;
      const end = start + nl;
      // A lone CR at the end of a chunk may be the first half of CR LF.
      if (this.buffer[end] === '\r' && end + 1 === this.buffer.length) break;
      const line = this.buffer.slice(start, end);
      start = end + (this.buffer.startsWith('\r\n', end) ? 2 : 1);
      this.line(line, out);
    }
    this.buffer = this.buffer.slice(start);
    return out;
  }

  /** The stream ended: a last event without its blank line still counts. */
  end(): SseEvent[] {
    const out: SseEvent[] = [];
    if (this.buffer) this.line(this.buffer, out);
    this.buffer = '';
    this.line('', out);
    return out;
  }

  private line(line: string, out: SseEvent[]): void {
    if (line === '') {
      if (this.data.length) out.push({ event: this.event || 'message', data: this.data.join('\n') });
      this.event = '';
      this.data = [];
      return;
    }
    if (line.startsWith(':')) return;
    const colon = line.indexOf(':');
    const field = colon < 0 ? line : line.slice(0, colon);
    let value = colon < 0 ? '' : line.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    if (field === 'data') this.data.push(value);
    else if (field === 'event') this.event = value;
  }
}

/** What one event means for the reply. */
export type Delta = { text: string } | { done: true } | { error: string } | null;

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * The server's own words in an error value, wherever a chat API puts them:
 * the value itself when it is a string, its `message`, or the same inside
 * its `error` (OpenAI's `{ error: { message } }`, Anthropic's
 * `{ type: 'error', error: { message } }`, a proxy's `{ error: '…' }`); null
 * when it holds none. The one reader of server messages: error bodies,
 * errors in a stream, errors in a whole JSON answer.
 */
export function serverWords(value: unknown): string | null {
  if (typeof value === 'string') return value;
  if (isObject(value)) {
    if (typeof value.message === 'string') return value.message;
    if (isObject(value.error) || typeof value.error === 'string') return serverWords(value.error);
  }
  return null;
}

/** What one event of a provider's stream adds to the reply (`value`: the event's JSON, `type`: Anthropic's event type). */
function deltaIn(provider: Provider, value: Record<string, unknown>, type: unknown): Delta {
  if (provider === 'anthropic') {
    if (type === 'content_block_delta' && isObject(value.delta) && typeof value.delta.text === 'string') return { text: value.delta.text };
    if (type === 'message_stop') return { done: true };
    if (type === 'error') return { error: serverWords(value.error) ?? 'the stream reported an error' };
    return null;
  }
  if (value.error !== undefined && value.error !== null) return { error: serverWords(value.error) ?? 'the stream reported an error' };
  const choice = Array.isArray(value.choices) ? value.choices[0] : undefined;
  if (isObject(choice) && isObject(choice.delta) && typeof choice.delta.content === 'string' && choice.delta.content !== '')
    return { text: choice.delta.content };
  return null;
}

/** Read one event of a provider's stream: what it adds to the reply. */
export function deltaOf(provider: Provider, event: SseEvent): Delta {
  return readEvent(provider, event).delta;
}

/** Token counts one event reports; a field is absent when the event does not say. */
export interface Usage {
  input?: number;
  output?: number;
}

const tokenCount = (v: unknown): number | undefined => (typeof v === 'number' && Number.isInteger(v) && v >= 0 ? v : undefined);

function usageFields(input: unknown, output: unknown): Usage | null {
  const usage: Usage = {};
  const i = tokenCount(input);
  const o = tokenCount(output);
  if (i !== undefined) usage.input = i;
  if (o !== undefined) usage.output = o;
  return i === undefined && o === undefined ? null : usage;
}

/**
 * The token counts one event of a provider's stream reports, or null. OpenAI-
 * compatible: the chunk with `usage` (`prompt_tokens`, `completion_tokens`),
 * sent last when the request asked for it. Anthropic: `message_start` gives
 * `message.usage.input_tokens`, `message_delta` the running `usage.output_tokens`
 * (the last one is the total).
 */
export function usageOf(provider: Provider, event: SseEvent): Usage | null {
  return readEvent(provider, event).usage;
}

function usageIn(provider: Provider, value: Record<string, unknown>, type: unknown): Usage | null {
  if (provider === 'anthropic') {
    if (type === 'message_start' && isObject(value.message) && isObject(value.message.usage))
      return usageFields(value.message.usage.input_tokens, undefined);
    if (type === 'message_delta' && isObject(value.usage)) return usageFields(value.usage.input_tokens, value.usage.output_tokens);
    return null;
  }
  if (!isObject(value.usage)) return null;
  return usageFields(value.usage.prompt_tokens, value.usage.completion_tokens);
}

/**
 * One event of a provider's stream, its JSON parsed once: what it adds to
 * the reply, the token counts it reports, and, for an error, the server's
 * error value as sent (for a caller that judges it: is it worth trying again?).
 */
export function readEvent(provider: Provider, event: SseEvent): { delta: Delta; usage: Usage | null; error?: unknown } {
  if (provider === 'openai' && event.data.trim() === '[DONE]') return { delta: { done: true }, usage: null };
  let value: unknown;
  try {
    value = JSON.parse(event.data);
  } catch {
    return { delta: null, usage: null };
  }
  if (!isObject(value)) return { delta: null, usage: null };
  const type = provider === 'anthropic' ? (typeof value.type === 'string' ? value.type : event.event) : undefined;
  const delta = deltaIn(provider, value, type);
  return { delta, usage: usageIn(provider, value, type), ...(delta !== null && 'error' in delta ? { error: value.error } : {}) };
}

/** The server's own words about an error response: `error.message`, `error`, or the start of the body. */
export function serverMessage(body: string): string {
  let text: string | null = null;
  try {
    text = serverWords(JSON.parse(body));
  } catch {
    text = null;
  }
  const raw = (text ?? body).replace(/\s+/g, ' ').trim();
  return raw.length > 300 ? `${raw.slice(0, 300)}…` : raw;
}

/**
 * The start of an error answer's body, as `httpErrorMessage` quotes it ('' when
 * it cannot be read). `read` waits for the text (the bench gives up on a
 * server that stops sending: it returns null).
 */
export async function errorBody(response: Response, read: (text: Promise<string>) => Promise<string | null> = (text) => text): Promise<string> {
  try {
    return ((await read(response.text())) ?? '').slice(0, 20_000);
  } catch {
    return '';
  }
}

/** A sentence about an HTTP error answer. */
export function httpErrorMessage(status: number, statusText: string, body: string): string {
  const said = serverMessage(body);
  const code = `HTTP ${status}${statusText ? ` ${statusText}` : ''}`;
  const quote = said ? ` The server said: “${said}”` : '';
  if (status === 401 || status === 403)
    return `The server refused the key (${code}). Check the API key, and that it is a key for this API.${quote}`;
  if (status === 404) return `The server has no such address or model (${code}). Check the base URL and the model name.${quote}`;
  if (status === 429) return `The server is limiting requests (${code}); wait a moment and run again.${quote}`;
  return `The server answered ${code}.${quote}`;
}

/** What to say when the browser refused a cross-origin request (CORS). */
export function corsMessage(target: string, pageOrigin: string): string {
  return (
    `The browser blocked the answer from ${target}: the server does not allow requests from this page (CORS). ` +
    `Allow ${pageOrigin} on the server: for Ollama set OLLAMA_ORIGINS=${pageOrigin} and restart it; ` +
    'for LM Studio turn on “Enable CORS” in the server settings (or run lms server start --cors); ' +
    'for llama.cpp and other servers use their CORS option (such as --cors) or a proxy that adds Access-Control-Allow-Origin.'
  );
}

/** What to say when the server could not be reached at all. */
export function networkMessage(target: string, pageIsHttps: boolean): string {
  const mixed =
    pageIsHttps && /^http:/.test(target) && !/^http:\/\/(localhost|127\.\d+\.\d+\.\d+|\[::1\])(:|\/)/.test(target)
      ? ' This page is served over https, so the browser also refuses plain http addresses other than localhost.'
      : '';
  return `Could not reach ${target}: the server is not running, the address is wrong, or the network is down.${mixed}`;
}
