// What a playground session is, and the limits on what a link may carry.
// Kept apart from the link codec (share.ts) so the page can know them
// without loading the compressor: encoding and decoding run in a worker.

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
  /** The result's digest when the link was made (`resultDigest`, 8 hex digits). */
  digest?: string;
}

/** Limits on what a link may carry (decompressed). */
export const LIMITS = { hash: 4_000_000, text: 10_000_000, files: 50, name: 500 } as const;

/** Links longer than this are cut by some chat apps, mail clients and issue trackers. */
export const LONG_LINK = 2000;

/** A version as a link may carry it: digits, letters, `.`, `-`, `+`; null otherwise. */
export function cleanVersion(value: string | null | undefined): string | null {
  return typeof value === 'string' && /^[0-9A-Za-z.+-]{1,40}$/.test(value) ? value : null;
}

/** The version a link's query names (`?v=0.1.0`), or null. */
export function linkVersion(search: string): string | null {
  try {
    return cleanVersion(new URLSearchParams(search).get('v'));
  } catch {
    return null;
  }
}

