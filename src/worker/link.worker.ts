// Share links off the main thread: lz-string needs seconds for a session of
// a few megabytes, which would freeze typing if the page did it.

import { expose } from 'comlink';
import { decodeSession, encodeSession, type Decoded, type Session } from '../playground/share.ts';

const api = {
  encode(session: Session): string {
    return encodeSession(session);
  },
  decode(hash: string): Decoded {
    return decodeSession(hash);
  },
  /** Put untrusted data (an example) through the same checks as a link. */
  normalize(value: unknown): Decoded {
    try {
      return decodeSession(encodeSession(value as Session));
    } catch {
      return { ok: false, error: 'it is not a playground session' };
    }
  },
};

export type LinkApi = typeof api;

expose(api);
