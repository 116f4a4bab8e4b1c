// A playground session as a URL: compressed JSON in the hash (lz-string, as
// the TypeScript playground does), the version that made it in the query
// (`?v=`), and as a JSON file for sessions too long for a link. Links and
// files are untrusted input: reading never throws, checks sizes and shapes
// (before decompressing more than a session may hold), and says what was
// wrong. Pure: runs in the link worker, at build time and in tests.

import LZString from 'lz-string';
import type { EngineOptions } from '../core/types.ts';
import { inflateUriComponent } from './lz.ts';
import { LIMITS, cleanVersion, type Session, type SessionFile } from '../session/session.ts';

export { LIMITS, LONG_LINK, cleanVersion, linkVersion, type Session, type SessionFile } from '../session/session.ts';

const PREFIX = 's=';

/** The JSON body of a link, with short keys. */
function toBody(session: Session): Record<string, unknown> {
  const body: Record<string, unknown> = { v: 1, f: session.format, fs: session.files.map((f) => [f.name, f.text]), r: session.reply };
  if (session.options && Object.keys(session.options).length) body.o = session.options;
  if (session.selected !== undefined) body.e = session.selected;
  if (session.prompt !== undefined) body.p = session.prompt;
  if (session.digest !== undefined) body.d = session.digest;
  return body;
}

/** The hash part (without `#`) for a session. */
export function encodeSession(session: Session): string {
  return PREFIX + LZString.compressToEncodedURIComponent(JSON.stringify(toBody(session)));
}

/**
 * The playground URL (relative to the site root) that opens a session. With
 * a `version`, the query names it (`?v=`): the engine and spec version whose
 * result the link records.
 */
export function sessionHref(session: Session, base = '/playground/', version?: string): string {
  const v = cleanVersion(version);
  return `${base}${v ? `?v=${encodeURIComponent(v)}` : ''}#${encodeSession(session)}`;
}

export type Decoded = { ok: true; session: Session } | { ok: false; error: string };

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Check a link's JSON body and turn it into a session. */
function fromBody(value: Record<string, unknown>): Decoded {
  const { f, fs, r, o, e, p, d } = value;
  if (typeof f !== 'string' || f.length > 50) return { ok: false, error: 'the session names no valid format' };
  if (typeof r !== 'string') return { ok: false, error: 'the session has no reply text' };
  if (!Array.isArray(fs) || fs.length > LIMITS.files) return { ok: false, error: `the session's files are missing or too many (at most ${LIMITS.files})` };
  const files: SessionFile[] = [];
  let total = r.length;
  for (const item of fs) {
    if (!Array.isArray(item) || typeof item[0] !== 'string' || typeof item[1] !== 'string')
      return { ok: false, error: 'a file in the session is not a name and a text' };
    if (item[0].length > LIMITS.name) return { ok: false, error: `a file name in the session is too long (over ${LIMITS.name} characters)` };
    total += item[1].length;
    files.push({ name: item[0], text: item[1] });
  }
  if (total > LIMITS.text) return { ok: false, error: 'the session is too large' };
  const session: Session = { format: f, files, reply: r };
  if (o !== undefined) {
    if (!isObject(o)) return { ok: false, error: 'the session\'s options are not an object' };
    const options: EngineOptions = {};
    if (typeof o.window === 'number' && Number.isInteger(o.window) && o.window >= 0) options.window = o.window;
    if (typeof o.fuzzyThreshold === 'number' && o.fuzzyThreshold >= 0 && o.fuzzyThreshold <= 1) options.fuzzyThreshold = o.fuzzyThreshold;
    if (typeof o.whitespace === 'boolean') options.whitespace = o.whitespace;
    if (typeof o.fuzzy === 'boolean') options.fuzzy = o.fuzzy;
    if (Object.keys(options).length) session.options = options;
  }
  if (typeof e === 'number' && Number.isInteger(e) && e >= 0) session.selected = e;
  if (p !== undefined) {
    if (typeof p !== 'string' || p.length > LIMITS.text) return { ok: false, error: 'the session\'s prompt is not text' };
    session.prompt = p;
  }
  if (typeof d === 'string' && /^[0-9a-f]{8}$/.test(d)) session.digest = d;
  return { ok: true, session };
}

/** Read a hash (with or without `#`). Never throws. */
export function decodeSession(hash: string): Decoded {
  const raw = hash.replace(/^#/, '');
  if (!raw.startsWith(PREFIX)) return { ok: false, error: 'the link holds no playground session' };
  const packed = raw.slice(PREFIX.length);
  if (packed.length > LIMITS.hash) return { ok: false, error: `the link is too long (${packed.length} characters)` };
  if (!/^[A-Za-z0-9+\-$_]*$/.test(packed)) return { ok: false, error: 'the link contains characters a session never has; it may have been cut or altered' };
  // A session's JSON escapes at most every character of its texts as \uXXXX.
  const inflated = inflateUriComponent(packed, LIMITS.text * 6 + 100_000);
  if (!inflated.ok)
    return {
      ok: false,
      error: inflated.reason === 'too-large' ? 'the session is too large' : 'the link could not be decompressed; it may have been cut short',
    };
  const json = inflated.text;
  if (!json) return { ok: false, error: 'the link could not be decompressed; it may have been cut short' };
  let value: unknown;
  try {
    value = JSON.parse(json);
  } catch {
    return { ok: false, error: 'the session in the link is not valid JSON; it may have been cut short' };
  }
  if (!isObject(value) || value.v !== 1) return { ok: false, error: 'the link holds a session of an unknown version' };
  return fromBody(value);
}

/**
 * Check an untrusted session in its long form (an example, a session file):
 * the same checks as a link. Never throws.
 */
export function checkSession(value: unknown): Decoded {
  if (!isObject(value)) return { ok: false, error: 'it is not a playground session' };
  const files = Array.isArray(value.files) ? value.files.slice(0, LIMITS.files + 1).map((x: unknown) => (isObject(x) ? [x.name, x.text] : null)) : value.files;
  return fromBody({ f: value.format, fs: files, r: value.reply, o: value.options, e: value.selected, p: value.prompt, d: value.digest });
}

/** What "Download session" saves: the session in its long form, with the version that made it. */
export function sessionFile(session: Session, version: string): string {
  const { format, files, reply, options, selected, prompt, digest } = session;
  return `${JSON.stringify({ lnDiffSession: 1, version, format, files, reply, options, selected, prompt, digest }, null, 2)}\n`;
}

export type SessionFileRead = { ok: true; session: Session; version: string | null } | { ok: false; error: string };

/** Read a file written by `sessionFile` (or any JSON holding a session). Never throws. */
export function readSessionFile(text: string): SessionFileRead {
  if (text.length > LIMITS.text * 6 + 100_000) return { ok: false, error: 'the file is too large to be a session' };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { ok: false, error: 'the file is not JSON' };
  }
  const checked = checkSession(value);
  if (!checked.ok) return checked;
  return { ok: true, session: checked.session, version: isObject(value) ? cleanVersion(value.version as string) : null };
}
