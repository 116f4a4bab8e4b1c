// Keeping what the user typed across a reload: the session (files, reply,
// format, options, selection, prompt) is saved in localStorage once typing
// pauses (the pause grows with the session: src/session/pause.ts), at once
// when the page is hidden or left, and only when it is small enough (about
// 4 MB). Never anything else: no API key, no endpoint; only the fields of a
// session are written. What is read back is untrusted (another tab, an older
// version, a hand edit): the page passes it through the same checks as a
// share link before using it.

import type { Session } from '../session/session.ts';
import { pauseFor, SAVE_PAUSE } from '../session/pause.ts';
import { hash53 } from '../digest/digest.ts';

/** The localStorage key of the saved session. */
export const SAVE_KEY = 'ln-diff:playground:session';
/** Sessions larger than this (characters of saved JSON) are not saved. */
export const SAVE_LIMIT = 4_000_000;

export type Saved = { ok: true; text: string } | { ok: false; size: number };

/** A cheap upper-ish estimate of a session's saved size, without building the JSON. */
export function sessionSize(session: Session): number {
  let n = session.reply.length + (session.prompt?.length ?? 0) + 200;
  for (const f of session.files) n += f.text.length + f.name.length + 30;
  return n;
}

/** Only a session's own fields, in a versioned envelope; refused when over `limit`. */
export function serializeSession(session: Session, limit = SAVE_LIMIT): Saved {
  const estimate = sessionSize(session);
  if (estimate > limit) return { ok: false, size: estimate };
  const clean: Session = {
    format: session.format,
    files: session.files.map((f) => ({ name: f.name, text: f.text })),
    reply: session.reply,
    ...(session.options ? { options: { ...session.options } } : {}),
    ...(session.selected !== undefined ? { selected: session.selected } : {}),
    ...(session.prompt !== undefined ? { prompt: session.prompt } : {}),
  };
  const text = JSON.stringify({ v: 1, session: clean });
  if (text.length > limit) return { ok: false, size: text.length };
  return { ok: true, text };
}

/** The session object a saved text holds (still to be checked), or null. */
export function parseSaved(text: string | null): unknown {
  if (text === null || text === '') return null;
  try {
    const data: unknown = JSON.parse(text);
    if (typeof data !== 'object' || data === null || (data as { v?: unknown }).v !== 1) return null;
    const session = (data as { session?: unknown }).session;
    return typeof session === 'object' && session !== null ? session : null;
  } catch {
    return null;
  }
}

export type SaveState = 'saved' | 'too-large' | 'failed' | 'cleared';

export interface SaverOptions {
  storage: () => Storage | null;
  session: () => Session;
  /** Told after every save attempt (to show or hide a note). */
  report: (state: SaveState, size: number) => void;
  /** The session's size in characters, cheaply (without building it): the pause before a save grows with it. */
  size?: () => number;
  /** A fixed pause instead (tests). */
  delayMs?: number;
  limit?: number;
}

/**
 * Saving the session once typing pauses: `schedule` after every change
 * (cheap: it only moves a timer), so a burst of keystrokes costs one save;
 * `flush` saves now (the page is hidden or left), `clear` forgets.
 */
export class Saver {
  private timer: ReturnType<typeof setTimeout> | undefined;
  /** The last save stored the session, and nothing changed since. */
  private stored = false;
  constructor(private readonly options: SaverOptions) {}

  /** The wait before the next save: `delayMs`, else the pause for the session's size. */
  delay(): number {
    return this.options.delayMs ?? pauseFor(this.options.size?.() ?? 0, SAVE_PAUSE);
  }

  schedule(): void {
    this.stored = false;
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.flush(), this.delay());
  }

  get pending(): boolean {
    return this.timer !== undefined;
  }

  /** The browser holds the session as the page has it (the last save stored it and nothing changed since). */
  get current(): boolean {
    return this.stored && this.timer === undefined;
  }

  flush(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    this.stored = false;
    const storage = this.options.storage();
    if (!storage) return;
    const saved = serializeSession(this.options.session(), this.options.limit ?? SAVE_LIMIT);
    if (!saved.ok) {
      // An older, smaller state must not come back on reload in place of this one.
      try {
        storage.removeItem(SAVE_KEY);
      } catch {
        /* storage unavailable */
      }
      this.options.report('too-large', saved.size);
      return;
    }
    try {
      storage.setItem(SAVE_KEY, saved.text);
      this.stored = true;
      this.options.report('saved', saved.text.length);
    } catch {
      this.options.report('failed', saved.text.length);
    }
  }

  read(): unknown {
    try {
      return parseSaved(this.options.storage()?.getItem(SAVE_KEY) ?? null);
    } catch {
      return null;
    }
  }

  clear(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    this.stored = false;
    try {
      this.options.storage()?.removeItem(SAVE_KEY);
    } catch {
      /* storage unavailable */
    }
    this.options.report('cleared', 0);
  }
}

/**
 * The sessionStorage key (this tab only, kept across its reloads) naming the
 * link the saved copy was typed over: the tab was left before the address
 * caught up with the session, so a reload of that link opens the saved copy.
 */
export const OVER_KEY = 'ln-diff:playground:saved-over';

const linkMark = (hash: string) => `${hash.length}:${hash53(hash)}`;

/** The tab is being left with `hash` in its address, older than the saved copy. */
export function markSavedOver(storage: Storage | null, hash: string): void {
  try {
    storage?.setItem(OVER_KEY, linkMark(hash));
  } catch {
    /* storage unavailable */
  }
}

/** Whether the saved copy was typed over the link `hash` in this tab (asked once: the mark is removed). */
export function takeSavedOver(storage: Storage | null, hash: string): boolean {
  try {
    const mark = storage?.getItem(OVER_KEY) ?? null;
    if (mark !== null) storage?.removeItem(OVER_KEY);
    return hash !== '' && mark === linkMark(hash);
  } catch {
    return false;
  }
}

/** sessionStorage, or null where it is unavailable. */
export function tabStore(): Storage | null {
  try {
    return window.sessionStorage ?? null;
  } catch {
    return null;
  }
}

/** localStorage, or null where it is unavailable (privacy settings, sandboxed frames). */
export function localStore(): Storage | null {
  try {
    const s = window.localStorage;
    return s ?? null;
  } catch {
    return null;
  }
}
