// What a server sent when it was not a stream of reply text: a whole JSON
// completion (a server or proxy that ignores `stream: true`), a JSON error
// with status 200, or a body that is no answer at all (an HTML login or
// error page); and whether an error a stream reported is worth trying again
// (Anthropic's overloaded_error, a 5xx or 429 code). Pure: no DOM, no `node:`.

import { serverWords } from '../chat/protocol.ts';
import type { BenchApi } from './types.ts';

export type WholeAnswer =
  | { kind: 'text'; text: string; cutOff: boolean; usage: { input: number | null; output: number | null } }
  | { kind: 'error'; message: string; transient: boolean }
  | { kind: 'none'; message: string };

type Obj = Record<string, unknown>;
const isObject = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const tokenCount = (v: unknown): number | null => (typeof v === 'number' && Number.isSafeInteger(v) && v >= 0 ? v : null);

/** The text of a content value: a string, or parts `{ type: 'text', text }`. */
function contentText(v: unknown): string | null {
  if (typeof v === 'string') return v;
  if (!Array.isArray(v)) return null;
  const parts = v.filter((p): p is Obj => isObject(p) && (p.type === undefined || p.type === 'text') && typeof p.text === 'string');
  return parts.length ? parts.map((p) => p.text as string).join('') : null;
}

/** An error value's words (src/chat's one reader of server messages). */
const errorWords = (v: unknown): string => serverWords(v) ?? 'the server reported an error';

/**
 * Whether an error a server reported in its answer or stream is worth
 * trying again: Anthropic's `overloaded_error`, `api_error` and
 * `rate_limit_error`, OpenAI's `server_error`, or an HTTP-like code of 408,
 * 429 or 5xx (OpenRouter, vLLM and others put one in `code`).
 */
export function transientError(error: unknown): boolean {
  if (!isObject(error)) return false;
  if (typeof error.type === 'string' && /^(overloaded_error|api_error|rate_limit_error|server_error|timeout_error)$/.test(error.type)) return true;
  const code = typeof error.code === 'number' ? error.code : typeof error.code === 'string' && /^\d{3}$/.test(error.code) ? Number(error.code) : NaN;
  return code === 408 || code === 429 || (code >= 500 && code <= 599);
}

/** The start of a body, on one line, for a message. */
const opening = (body: string) => {
  const line = body.replace(/\s+/g, ' ').trim();
  return line.length > 120 ? `${line.slice(0, 120)}…` : line;
};

/**
 * Read a body that held no server-sent event: a whole completion in the
 * API's JSON (the text, whether the token cap cut it, the counts), an error
 * in JSON, or a sentence saying what came instead.
 */
export function wholeAnswer(api: BenchApi, body: string, contentType: string | null): WholeAnswer {
  let value: unknown;
  try {
    value = JSON.parse(body);
  } catch {
    value = undefined;
  }
  if (isObject(value)) {
    if (value.error !== undefined && value.error !== null)
      return { kind: 'error', message: `The server answered with an error: ${errorWords(value.error)}`, transient: transientError(value.error) };
    if (api === 'anthropic' && Array.isArray(value.content)) {
      const text = contentText(value.content) ?? '';
      const usage = isObject(value.usage) ? value.usage : {};
      return { kind: 'text', text, cutOff: value.stop_reason === 'max_tokens', usage: { input: tokenCount(usage.input_tokens), output: tokenCount(usage.output_tokens) } };
    }
    const choice = Array.isArray(value.choices) ? value.choices[0] : undefined;
    if (api === 'openai' && isObject(choice) && isObject(choice.message)) {
      const text = contentText(choice.message.content) ?? '';
      const usage = isObject(value.usage) ? value.usage : {};
      return { kind: 'text', text, cutOff: choice.finish_reason === 'length', usage: { input: tokenCount(usage.prompt_tokens), output: tokenCount(usage.completion_tokens) } };
    }
  }
  if (body.trim() === '') return { kind: 'none', message: 'The server sent an empty answer.' };
  const type = contentType?.split(';')[0].trim() || 'no content type';
  return {
    kind: 'none',
    message:
      `The server answered, but not with a reply: no stream of events and no ${api === 'anthropic' ? 'Anthropic' : 'OpenAI-compatible'} completion ` +
      `(${type}; it began “${opening(body)}”). Check the base URL and the API it speaks.`,
  };
}
