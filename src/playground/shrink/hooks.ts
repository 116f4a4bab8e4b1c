// What the shrink's panel gives its view (loaded on first use) and what the
// view gives back: types only, so panel.ts and view.ts do not import each other.

import type { EditResult } from '../../core/types.ts';
import type { Session } from '../../session/session.ts';

export interface ShrinkHooks {
  /** The session as the page shows it now. */
  session(): Session;
  /** The full address that opens a session, from its hash (made once, by the shrink worker), or null when it is too large for a link. */
  linkFor(hash: string): string | null;
  /** Replace the page's session with this one; `hash`: its link's hash, when made, for the address. */
  open(session: Session, hash: string | null): void;
  /** Announce a short message (the page's status line). */
  say(text: string): void;
}

/** Called with the shrunk session (and its link's hash, when made) once a shrink removed something. */
export type Shrunk = (session: Session, hash: string | null) => void;

export interface ShrinkView {
  /** Shrink the page's session keeping this failed edit's failure (a shrink under way is stopped); `then` once it shrank. */
  start(edit: EditResult, then?: Shrunk): void;
}
