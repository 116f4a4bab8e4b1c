// A playground session as a URL: compressed JSON in the hash (lz-string, as
// the TypeScript playground does). Links are untrusted input: decoding never
// throws, checks sizes and shapes, and says what was wrong.

import LZString from 'lz-string';
import type { EngineOptions } from '../core/types.ts';

export interface SessionFile {
  name: string;
  text: string;
}

export interface Session {
  format: string;
  files: SessionFile[];
  reply: string;
  options?: EngineOptions;
  /** Index of the selected edit, if any. */
  selected?: number;
  /** A system prompt shown alongside (prompt examples open with theirs). */
  prompt?: string;
}

/** Limits on what a link may carry (decompressed). */
export const LIMITS = { hash: 4_000_000, text: 10_000_000, files: 50, name: 500 } as const;

const PREFIX = 's=';

/** The hash part (without `#`) for a session. */
export function encodeSession(session: Session): string {
  const body: Record<string, unknown> = { v: 1, f: session.format, fs: session.files.map((f) => [f.name, f.text]), r: session.reply };
  if (session.options && Object.keys(session.options).length) body.o = session.options;
  if (session.selected !== undefined) body.e = session.selected;
  if (session.prompt !== undefined) body.p = session.prompt;
  return PREFIX + LZString.compressToEncodedURIComponent(JSON.stringify(body));
}

/** The playground URL (relative to the site root) that opens a session. */
export function sessionHref(session: Session, base = '/playground/'): string {
  return `${base}#${encodeSession(session)}`;
}

export type Decoded = { ok: true; session: Session } | { ok: false; error: string };

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Read a hash (with or without `#`). Never throws. */
export function decodeSession(hash: string): Decoded {
  const raw = hash.replace(/^#/, '');
  if (!raw.startsWith(PREFIX)) return { ok: false, error: 'the link holds no playground session' };
  const packed = raw.slice(PREFIX.length);
  if (packed.length > LIMITS.hash) return { ok: false, error: `the link is too long (${packed.length} characters)` };
  if (!/^[A-Za-z0-9+\-$_]*$/.test(packed)) return { ok: false, error: 'the link contains characters a session never has; it may have been cut or altered' };
  let json: string | null = null;
  try {
    json = LZString.decompressFromEncodedURIComponent(packed);
  } catch {
    json = null;
  }
  if (!json) return { ok: false, error: 'the link could not be decompressed; it may have been cut short' };
  if (json.length > LIMITS.text * 2) return { ok: false, error: 'the session in the link is too large' };
  let value: unknown;
  try {
    value = JSON.parse(json);
  } catch {
    return { ok: false, error: 'the session in the link is not valid JSON; it may have been cut short' };
  }
  if (!isObject(value) || value.v !== 1) return { ok: false, error: 'the link holds a session of an unknown version' };
  const { f, fs, r, o, e, p } = value;
  if (typeof f !== 'string' || f.length > 50) return { ok: false, error: 'the session names no valid format' };
  if (typeof r !== 'string') return { ok: false, error: 'the session has no reply text' };
  if (!Array.isArray(fs) || fs.length > LIMITS.files) return { ok: false, error: 'the session\'s files are missing or too many' };
  const files: SessionFile[] = [];
  let total = r.length;
  for (const item of fs) {
    if (!Array.isArray(item) || typeof item[0] !== 'string' || typeof item[1] !== 'string')
      return { ok: false, error: 'a file in the session is not a name and a text' };
    if (item[0].length > LIMITS.name) return { ok: false, error: 'a file name in the session is too long' };
    total += item[1].length;
    files.push({ name: item[0], text: item[1] });
  }
  if (total > LIMITS.text) return { ok: false, error: 'the session in the link is too large' };
  const session: Session = { format: f, files, reply: r };
  if (o !== undefined) {
    if (!isObject(o)) return { ok: false, error: 'the session\'s options are not an object' };
    const options: EngineOptions = {};
    if (typeof o.window === 'number' && Number.isInteger(o.window) && o.window >= 0) options.window = o.window;
    if (typeof o.fuzzyThreshold === 'number' && o.fuzzyThreshold >= 0 && o.fuzzyThreshold <= 1) options.fuzzyThreshold = o.fuzzyThreshold;
    if (typeof o.whitespace === 'boolean') options.whitespace = o.whitespace;
    if (typeof o.fuzzy === 'boolean') options.fuzzy = o.fuzzy;
    session.options = options;
  }
  if (typeof e === 'number' && Number.isInteger(e) && e >= 0) session.selected = e;
  if (p !== undefined) {
    if (typeof p !== 'string' || p.length > LIMITS.text) return { ok: false, error: 'the session\'s prompt is not text' };
    session.prompt = p;
  }
  return { ok: true, session };
}
