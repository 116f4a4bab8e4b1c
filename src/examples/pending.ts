// Fields that whole-result comparison needs and that some examples of
// spec/ln-diff.md do not write yet (that page is being revised apart).
// Each entry is the exact change to make to one `//// edits` line: append
// its fields there, then delete the entry. An entry whose example no longer
// has the request it was written for, or whose line already writes one of
// its fields, is reported by test/spec.test.ts so it cannot go stale.
//
// Entries are found by the example's request (`fingerprint`), not its
// number, so that examples added above them do not misplace them.

import { createHash } from 'node:crypto';
import type { LineRange } from '../core/types.ts';
import type { SpecExample } from './extract.ts';

export interface PendingFields {
  file?: string;
  offset?: number | null;
  range?: LineRange;
}

export interface Pending {
  page: string;
  /** The example's number and fence line when the entry was written (for people). */
  example: number;
  line: number;
  fingerprint: string;
  edit: number;
  /** The edit line as the page writes it now. */
  written: string;
  /** What to append to it, as `key=value`. */
  append: string;
  add: PendingFields;
}

/** A short hash of an example's request: format, files and reply. */
export function fingerprint(example: SpecExample): string {
  return createHash('sha256')
    .update(JSON.stringify([example.format, example.files, example.reply]))
    .digest('hex')
    .slice(0, 12);
}

export const PENDING: readonly Pending[] = [];

/** The pending fields of one example's edits, by edit index (empty for most examples). */
export function pendingFields(page: string, example: SpecExample): Map<number, Pending> {
  const out = new Map<number, Pending>();
  if (!PENDING.some((p) => p.page === page)) return out;
  const print = fingerprint(example);
  for (const p of PENDING) if (p.page === page && p.fingerprint === print) out.set(p.edit, p);
  return out;
}

/**
 * Entries that no longer apply: their example's request is gone from the
 * page, or its edit line now writes a field the entry adds. Empty when the
 * list is current.
 */
export function stalePending(pages: readonly { path: string; examples: readonly SpecExample[] }[]): string[] {
  const out: string[] = [];
  for (const p of PENDING) {
    const page = pages.find((s) => s.path === p.page);
    const example = page?.examples.find((e) => fingerprint(e) === p.fingerprint);
    const where = `src/examples/pending.ts: the entry for spec/${p.page} example ${p.example} edit ${p.edit}`;
    if (!example) out.push(`${where}: no example of that page has its request any more; delete the entry`);
    else {
      const written = example.expected.edits[p.edit]?.fields ?? {};
      const already = Object.keys(p.add).filter((k) => k in written);
      if (already.length)
        out.push(`${where}: the page now writes ${already.join(', ')} (example ${example.number}); delete the entry`);
    }
  }
  return out;
}
