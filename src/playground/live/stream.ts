// One live run: POST the chat request with `fetch`, read the streamed answer
// event by event and hand each piece of text on as it arrives. Every way it
// can end is a value, never an exception: done, refused key, other HTTP
// errors, a blocked cross-origin request, no network, stopped by the user,
// or never sent (an endpoint the browser or the page would refuse).

import { chatRequest, corsMessage, deltaOf, EndpointError, errorBody, httpErrorMessage, networkMessage, SseReader, type Endpoint } from '../../chat/protocol.ts';
import { runBlocker } from '../../chat/requirements.ts';

export type Outcome =
  | { kind: 'done'; text: string }
  | { kind: 'empty'; text: ''; message: string }
  | { kind: 'auth' | 'http' | 'cors' | 'network' | 'stream' | 'endpoint'; text: string; message: string }
  | { kind: 'aborted'; text: string; message: string };

const isAbort = (e: unknown): boolean => e instanceof DOMException && e.name === 'AbortError';

/**
 * A fetch that fails with a TypeError is either refused by CORS or never
 * answered. A no-cors request needs no permission and settles (with an
 * opaque answer) whenever the server answers at all: so it tells the two apart.
 */
async function reachable(url: string, signal: AbortSignal): Promise<boolean> {
  try {
    await fetch(url, { method: 'GET', mode: 'no-cors', cache: 'no-store', credentials: 'omit', signal });
    return true;
  } catch {
    return false;
  }
}

export async function streamChat(
  endpoint: Endpoint,
  system: string,
  user: string,
  signal: AbortSignal,
  onText: (text: string) => void,
  /** The origins the page may connect to (its CSP's connect-src): another endpoint is refused before any request. */
  allowed?: readonly string[],
): Promise<Outcome> {
  // What the panel checks before it enables Run (a bad port, an origin
  // outside the CSP, a missing model or key), checked again here: a request
  // that cannot succeed is never sent.
  const blocked = runBlocker(endpoint, allowed);
  if (blocked) return { kind: 'endpoint', text: '', message: blocked.reason };
  let request;
  try {
    request = chatRequest(endpoint, system, user);
  } catch (e) {
    return { kind: 'endpoint', text: '', message: `Cannot run: ${e instanceof EndpointError ? e.message : String(e)}.` };
  }
  const target = new URL(request.url).origin;
  const stopped = (text: string): Outcome => ({ kind: 'aborted', text, message: 'Stopped. The reply so far is kept in the editor.' });

  let response: Response;
  try {
    response = await fetch(request.url, {
      method: 'POST',
      headers: request.headers,
      body: request.body,
      signal,
      credentials: 'omit',
      cache: 'no-store',
      referrerPolicy: 'no-referrer',
    });
  } catch (e) {
    if (isAbort(e) || signal.aborted) return stopped('');
    const crossOrigin = target !== location.origin;
    if (crossOrigin && (await reachable(request.url, signal))) return { kind: 'cors', text: '', message: corsMessage(target, location.origin) };
    if (signal.aborted) return stopped('');
    return { kind: 'network', text: '', message: networkMessage(request.url, location.protocol === 'https:') };
  }

  if (!response.ok) {
    const body = await errorBody(response);
    const kind = response.status === 401 || response.status === 403 ? 'auth' : 'http';
    return { kind, text: '', message: httpErrorMessage(response.status, response.statusText, body) };
  }
  if (!response.body) return { kind: 'stream', text: '', message: 'The server sent an empty answer.' };

  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  const sse = new SseReader();
  let text = '';
  const take = (events: ReturnType<SseReader['push']>): Outcome | 'done' | null => {
    for (const event of events) {
      const delta = deltaOf(endpoint.provider, event);
      if (!delta) continue;
      if ('text' in delta) {
        text += delta.text;
        onText(delta.text);
      } else if ('error' in delta) {
        return { kind: 'stream', text, message: `The model's stream reported an error: ${delta.error}` };
      } else return 'done';
    }
    return null;
  };
  try {
    for (;;) {
      const { done, value } = await reader.read();
      const events = done ? [...sse.push(decoder.decode()), ...sse.end()] : sse.push(decoder.decode(value, { stream: true }));
      const step = take(events);
      if (step !== null && !done) void reader.cancel().catch(() => undefined);
      if (step === 'done') break;
      if (step) return step;
      if (done) break;
    }
  } catch (e) {
    if (isAbort(e) || signal.aborted) return stopped(text);
    return { kind: 'network', text, message: `The connection broke off while the answer was arriving (${e instanceof Error ? e.message : String(e)}). The reply so far is kept.` };
  }
  if (!text) return { kind: 'empty', text: '', message: 'The model sent no text.' };
  return { kind: 'done', text };
}
