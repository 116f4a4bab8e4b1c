// A short fingerprint of a result, recorded in share links: a page that opens
// a link made by another version of the engine compares it with its own
// result and says when they differ. Pure; computed in the engine worker.

import type { ApplyResult } from '../core/types.ts';

/** 32-bit FNV-1a of a text's UTF-8 bytes, as 8 hex digits. */
export function fnv1a(text: string): string {
  let hash = 0x811c9dc5;
  for (const byte of new TextEncoder().encode(text)) {
    hash ^= byte;
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
