// The links a shrink reports: the length of the session's hash before, and
// the shrunk session's hash itself (`encodeSession`), made here once: the page
// builds the link and the address from it without encoding it again. Loaded
// by the shrink worker only once a shrink has a result, with the link
// compressor.

import { encodeSession } from '../share/share.ts';
import type { Session } from '../session/session.ts';

export interface ShrunkLinks {
  /** Characters of the hash of the session before. */
  before: number;
  /** The hash of the shrunk session (without `#`). */
  hash: string;
}

export function shrunkLinks(before: Session, after: Session): ShrunkLinks {
  return { before: encodeSession(before).length, hash: encodeSession(after) };
}
