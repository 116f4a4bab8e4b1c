// Where a live run may connect. The playground's Content-Security-Policy
// lists these origins in `connect-src` (besides the page's own), so the page
// can reach nothing else; the panel checks an endpoint against the same list
// before it calls it, to say why a run cannot go there instead of failing
// with a bare network error. The list is fixed when the site is built:
// well-known chat APIs, local servers, and whatever LN_DIFF_LIVE_ORIGINS
// adds. Pure functions, used by the page at build time and in the browser.

import { HOSTED_APIS } from './apis.ts';

/** The chat APIs people call from a playground, and local servers on any port. */
export const DEFAULT_LIVE_ORIGINS: readonly string[] = [...HOSTED_APIS.map((api) => api.origin), 'http://localhost:*', 'http://127.0.0.1:*'];

/** The environment variable that adds origins at build time (comma or space separated). */
export const LIVE_ORIGINS_ENV = 'LN_DIFF_LIVE_ORIGINS';

// scheme://host[:port] with host a DNS name (optionally `*.` for any subdomain) or
// an IPv4 address, port a number or `*`; nothing after it. Only these forms are
// accepted: the list is written into the page's CSP, so anything else (a `;`, a
// space, a keyword) must never get through.
const SOURCE = /^(https?):\/\/(\*\.)?([a-z0-9](?:[a-z0-9-]*[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]*[a-z0-9])?)*)(?::(\d{1,5}|\*))?$/;

export class OriginListError extends Error {
  override name = 'OriginListError';
}

/**
 * The origins of a list as typed (`https://llm.example.com, http://10.0.0.5:8000`):
 * each one checked, lower-cased, a trailing `/` removed. Throws
 * OriginListError naming the first entry that is not an origin.
 */
export function parseOrigins(list: string): string[] {
  const out: string[] = [];
  for (const raw of list.split(/[\s,]+/)) {
    if (raw === '') continue;
    const entry = raw.toLowerCase().replace(/\/$/, '');
    const m = SOURCE.exec(entry);
    const port = m?.[4];
    if (!m || (port !== undefined && port !== '*' && Number(port) > 65535)) {
      throw new OriginListError(
        `${LIVE_ORIGINS_ENV}: ${JSON.stringify(raw)} is not an origin; write scheme://host or scheme://host:port (http or https, port a number or *), separated by commas`,
      );
    }
    if (!out.includes(entry)) out.push(entry);
  }
  return out;
}

/** The default origins and those the environment adds. */
export function liveOrigins(extra: string | undefined): string[] {
  const out = [...DEFAULT_LIVE_ORIGINS];
  for (const o of parseOrigins(extra ?? '')) if (!out.includes(o)) out.push(o);
  return out;
}

const DEFAULT_PORT: Record<string, string> = { 'http:': '80', 'https:': '443' };

/**
 * Whether `url` is allowed by one of `origins` the way a CSP host-source
 * allows it: the same scheme (an `http` source also allows `https`), the same
 * host (`*.` any subdomain, not the bare domain), the same port (none written:
 * the default port of the URL's scheme; `*`: any).
 */
export function allowedBy(url: string, origins: readonly string[]): boolean {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return false;
  }
  const port = u.port || DEFAULT_PORT[u.protocol] || '';
  const host = u.hostname.toLowerCase();
  return origins.some((origin) => {
    const m = SOURCE.exec(origin);
    if (!m) return false;
    const [, scheme, star, name, p] = m;
    if (!(u.protocol === `${scheme}:` || (scheme === 'http' && u.protocol === 'https:'))) return false;
    if (star ? !host.endsWith(`.${name}`) : host !== name) return false;
    return p === '*' || port === (p ?? DEFAULT_PORT[u.protocol]);
  });
}

/** The message for an endpoint the page may not call. */
export function notAllowedMessage(url: string, origins: readonly string[]): string {
  let origin = url;
  try {
    origin = new URL(url).origin;
  } catch {
    // keep the text as given
  }
  return (
    `This page may not connect to ${origin}: its Content-Security-Policy allows live runs only to ${origins.join(', ')}. ` +
    `To use another endpoint, run the site yourself with ${LIVE_ORIGINS_ENV}=${origin} (see the README).`
  );
}
