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

export const PENDING: readonly Pending[] = [
  { page: 'ln-diff.md', example: 9, line: 336, fingerprint: 'f9dcc631c80a', edit: 0, written: "applied match=exact offset=0 range=2-2", append: 'file=src/config.ts', add: {file: 'src/config.ts'} },
  { page: 'ln-diff.md', example: 9, line: 336, fingerprint: 'f9dcc631c80a', edit: 1, written: "applied match=exact offset=0 range=4-4", append: 'file=src/server.ts', add: {file: 'src/server.ts'} },
  { page: 'ln-diff.md', example: 67, line: 2001, fingerprint: 'e51c11a4bee0', edit: 0, written: "failed code=missing-end-marker", append: 'file=src/a.py', add: {file: 'src/a.py'} },
  { page: 'ln-diff.md', example: 67, line: 2001, fingerprint: 'e51c11a4bee0', edit: 1, written: "applied match=exact offset=0 range=1-1", append: 'file=src/b.py', add: {file: 'src/b.py'} },
  { page: 'ln-diff.md', example: 73, line: 2185, fingerprint: '662db01a508f', edit: 0, written: "applied file=Makefile", append: 'range=1-0 offset=null', add: {range: {start: 1, end: 0}, offset: null} },
  { page: 'ln-diff.md', example: 74, line: 2206, fingerprint: 'af2571b1dd2b', edit: 0, written: "applied file=docs/My␣Notes.md", append: 'range=1-0 offset=null', add: {range: {start: 1, end: 0}, offset: null} },
  { page: 'ln-diff.md', example: 83, line: 2449, fingerprint: 'e3d633c50797', edit: 0, written: "applied match=exact offset=0 range=1-1", append: 'file=src/b.py', add: {file: 'src/b.py'} },
  { page: 'ln-diff.md', example: 137, line: 3864, fingerprint: 'bce7369e6012', edit: 0, written: "applied range=3-2", append: 'offset=null', add: {offset: null} },
  { page: 'ln-diff.md', example: 138, line: 3893, fingerprint: '887ec59c9c83', edit: 0, written: "applied range=1-0", append: 'offset=null', add: {offset: null} },
  { page: 'ln-diff.md', example: 139, line: 3912, fingerprint: '119adfb2280a', edit: 0, written: "applied range=1-0 file=go.mod", append: 'offset=null', add: {offset: null} },
  { page: 'ln-diff.md', example: 140, line: 3938, fingerprint: '07f0332ac698', edit: 0, written: "applied range=1-0 file=app/__init__.py", append: 'offset=null', add: {offset: null} },
  { page: 'ln-diff.md', example: 141, line: 3956, fingerprint: '5df62ca8b1ef', edit: 0, written: "applied range=2-1", append: 'offset=null', add: {offset: null} },
  { page: 'ln-diff.md', example: 141, line: 3956, fingerprint: '5df62ca8b1ef', edit: 1, written: "applied range=2-1", append: 'offset=null', add: {offset: null} },
  { page: 'ln-diff.md', example: 142, line: 3991, fingerprint: 'df31108243cb', edit: 0, written: "applied range=1-0", append: 'offset=null', add: {offset: null} },
  { page: 'ln-diff.md', example: 142, line: 3991, fingerprint: 'df31108243cb', edit: 1, written: "applied range=1-0", append: 'offset=null', add: {offset: null} },
  { page: 'ln-diff.md', example: 143, line: 4019, fingerprint: 'dede61ff32dd', edit: 0, written: "applied range=3-2", append: 'offset=null', add: {offset: null} },
  { page: 'ln-diff.md', example: 144, line: 4042, fingerprint: 'ef178baa0e9b', edit: 0, written: "applied range=2-1", append: 'offset=null', add: {offset: null} },
  { page: 'ln-diff.md', example: 145, line: 4065, fingerprint: '7775bcdba77e', edit: 0, written: "applied range=3-2", append: 'offset=null', add: {offset: null} },
  { page: 'ln-diff.md', example: 164, line: 4843, fingerprint: '5d526816cfb3', edit: 0, written: "applied range=3-2", append: 'offset=null', add: {offset: null} },
  { page: 'ln-diff.md', example: 165, line: 4865, fingerprint: 'ac74c817fe34', edit: 0, written: "applied range=4-3", append: 'offset=null', add: {offset: null} },
];

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
