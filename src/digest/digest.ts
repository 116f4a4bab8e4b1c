// A short fingerprint of a result, recorded in share links: a page that opens
// a link made by another version of the engine compares it with its own
// result and says when they differ. And a digest of each edit's row in the
// diagnostics panel, so that the page keeps the rows whose digest it has
// already drawn. Pure; computed in the engine worker.

import type { ApplyResult, EditResult } from '../core/types.ts';

/** 32-bit FNV-1a of a text's UTF-8 bytes, as 8 hex digits. */
export function fnv1a(text: string): string {
  let hash = 0x811c9dc5;
  const bytes = new TextEncoder().encode(text);
  for (let i = 0; i < bytes.length; i++) {
    hash ^= bytes[i];
    hash = Math.imul(hash, 0x01000193);
  }
  return (hash >>> 0).toString(16).padStart(8, '0');
}

/**
 * The canonical JSON a digest is taken of: the files after the edits, sorted
 * by name (null for a deleted file), and per edit, in reply order, its index,
 * file, status, match, offset, range and code.
 */
export function canonicalResult(result: ApplyResult): string {
  const files = Object.keys(result.files)
    .sort()
    .map((name) => [name, result.files[name]]);
  const edits = result.edits.map((e) => [e.index, e.file, e.status, e.match, e.offset, e.range ? [e.range.start, e.range.end] : null, e.code]);
  return JSON.stringify({ files, edits });
}

/** The digest of a result: `fnv1a(canonicalResult(result))`. */
export function resultDigest(result: ApplyResult): string {
  return fnv1a(canonicalResult(result));
}

/**
 * A 53-bit hash of a text's UTF-16 code units (cyrb53: two 32-bit lanes
 * mixed with Math.imul), as 14 hex digits.
 */
export function hash53(text: string): string {
  let h1 = 0xdeadbeef;
  let h2 = 0x41c6ce57;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    h1 = Math.imul(h1 ^ c, 2654435761);
    h2 = Math.imul(h2 ^ c, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return (4294967296 * (2097151 & h2) + (h1 >>> 0)).toString(16).padStart(14, '0');
}

/**
 * The digest of an edit's row: its result and what the page shows beside it
 * (any plain data: the cited lines, the comparisons, the retry message),
 * as `length:hash53` of their JSON. Two rows with the same digest show the
 * same thing; a row whose digest changed is drawn again.
 */
export function rowDigest(edit: EditResult | object, extra: unknown): string {
  const text = JSON.stringify([edit, extra ?? null]);
  return `${text.length.toString(36)}:${hash53(text)}`;
}
