// What a live run needs before it may start, as one rule the panel and the
// run share: a base URL the browser will call (a URL, http or https, a port
// the browser does not refuse, an origin the page's CSP allows), a model
// name where the API needs one, and a key for a hosted API. The panel keeps
// Run disabled and shows the reason; a run that starts anyway stops with it.
// Pure (no DOM, no fetch).

import { hostedApi, isLoopback, OLLAMA_PORT } from './apis.ts';
import { allowedBy, notAllowedMessage } from './origins.ts';
import { badPort, badPortMessage, type BadPort } from './ports.ts';
import { chatUrl, EndpointError, type Endpoint, type Provider } from './protocol.ts';

/** What an endpoint asks of the user besides its address. */
export interface Needs {
  /** Whether a model name is required; `example`, one to show; `server`, the local server that needs it. */
  model: { required: boolean; example: string | null; server?: string };
  /** The API whose key is required (named in the reason), or null when the key is optional. */
  keyFor: string | null;
  /** The address is a server on this machine. */
  local: boolean;
}

/**
 * The needs of a provider at an address. Anthropic's Messages API always
 * names a model and checks a key. An OpenAI-compatible API at a hosted
 * service needs both; a server on this machine needs neither (llama.cpp and
 * LM Studio answer with the model they loaded), except that Ollama (on its
 * port) needs the model named; another address needs what its server asks,
 * which the page cannot know, so nothing is required there.
 */
export function needsOf(provider: Provider, url: URL): Needs {
  const hosted = hostedApi(url);
  const local = isLoopback(url);
  if (provider === 'anthropic') return { model: { required: true, example: 'claude-sonnet-4-5' }, keyFor: 'Anthropic', local };
  if (hosted) return { model: { required: true, example: hosted.model }, keyFor: hosted.name, local };
  if (local && url.port === OLLAMA_PORT) return { model: { required: true, example: 'llama3.2', server: 'Ollama' }, keyFor: null, local };
  return { model: { required: false, example: null }, keyFor: null, local };
}

export type Field = 'base' | 'model' | 'key';

/** What is wrong with a base URL: none given, not a URL the API can be called at, a port browsers refuse, or an origin the page's CSP does not allow. */
export type BaseProblem =
  | { kind: 'empty' }
  | { kind: 'url'; message: string }
  | { kind: 'port'; port: BadPort }
  | { kind: 'origin' };

/**
 * Why Run cannot start yet: the first field to fix and a sentence saying
 * what to do (the page's words), and the same as data for callers that say
 * it in their own words (the CLI): `base` for the base URL, `missing` for the
 * model and the key, with what the endpoint needs.
 */
export type Blocker =
  | { field: 'base'; reason: string; base: BaseProblem }
  | { field: 'model' | 'key'; reason: string; missing: { model: boolean; key: boolean }; needs: Needs };

const sentence = (text: string) => `${text[0].toUpperCase()}${text.slice(1)}${/[.!?]$/.test(text) ? '' : '.'}`;

/**
 * Why this endpoint cannot be called yet, or null when it can. `allowed`: the
 * origins the page's CSP lets it connect to (none given: no CSP check).
 */
export function runBlocker(endpoint: Endpoint, allowed?: readonly string[]): Blocker | null {
  if (endpoint.baseUrl.trim() === '') return { field: 'base', reason: 'Enter the base URL of the API.', base: { kind: 'empty' } };
  let url: string;
  try {
    url = chatUrl(endpoint.provider, endpoint.baseUrl);
  } catch (e) {
    if (e instanceof EndpointError) return { field: 'base', reason: sentence(e.message), base: { kind: 'url', message: e.message } };
    throw e;
  }
  const parsed = new URL(url);
  const bad = badPort(parsed);
  if (bad) return { field: 'base', reason: badPortMessage(bad), base: { kind: 'port', port: bad } };
  if (allowed && !allowedBy(url, allowed)) return { field: 'base', reason: notAllowedMessage(url, allowed), base: { kind: 'origin' } };

  const needs = needsOf(endpoint.provider, parsed);
  const missing = { model: needs.model.required && endpoint.model.trim() === '', key: needs.keyFor !== null && endpoint.key.trim() === '' };
  if (missing.model && missing.key) return { field: 'model', reason: `Enter a model name and an API key for ${needs.keyFor}.`, missing, needs };
  if (missing.model)
    return {
      field: 'model',
      reason: needs.model.server
        ? `Enter a model name: ${needs.model.server} needs one (for example ${needs.model.example}).`
        : 'Enter a model name.',
      missing,
      needs,
    };
  if (missing.key) return { field: 'key', reason: `Enter an API key for ${needs.keyFor}.`, missing, needs };
  return null;
}
