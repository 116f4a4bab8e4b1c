// Share links and session files off the main thread: lz-string needs seconds
// for a session of a few megabytes, which would freeze typing if the page
// did it, and a hostile link must not be able to hang the page.

import { expose } from 'comlink';
import { checkSession, decodeSession, encodeSession, readSessionFile, sessionFile, type Decoded, type Session, type SessionFileRead } from '../share/share.ts';

const api = {
  encode(session: Session): string {
    return encodeSession(session);
  },
  decode(hash: string): Decoded {
    return decodeSession(hash);
  },
  /** Put untrusted data (an example) through the same checks as a link. */
  normalize(value: unknown): Decoded {
    return checkSession(value);
  },
  /** The JSON text of "Download session". */
  file(session: Session, version: string): string {
    return sessionFile(session, version);
  },
  /** Read an opened session file. */
  readFile(text: string): SessionFileRead {
    return readSessionFile(text);
  },
};

export type LinkApi = typeof api;

expose(api);
