// The link lengths a shrink reports: the hash of the session before and
// after (`encodeSession`). Loaded by the shrink worker only once a shrink has
// a result, with the link compressor.

import { encodeSession } from '../share/share.ts';
import type { Session } from '../session/session.ts';

export function hashLengths(before: Session, after: Session): { before: number; after: number } {
  return { before: encodeSession(before).length, after: encodeSession(after).length };
}
