// How long the playground waits after the last change before doing work
// whose cost grows with the session: saving it in the browser, writing its
// link into the address, redrawing the result view. Such work runs once per
// pause in typing, not once per keystroke, and the pause it waits for grows
// with the session, so that typing in a large file is never interrupted by
// a save of the whole file. Pure: the page measures the session's size
// (characters of every file and the reply) and keeps the timers.

/** A wait that grows with the session's size: `least` ms, plus `perMillion` ms per million characters, at most `most` ms. */
export interface Pause {
  least: number;
  perMillion: number;
  most: number;
}

/**
 * The saved copy in the browser (serialising and storing every character on
 * the main thread): 400 ms for a small session, 1.5 s for a file of a million
 * characters, at most 3 s.
 */
export const SAVE_PAUSE: Pause = { least: 400, perMillion: 1100, most: 3000 };

/** The link in the address (the session is copied to the link worker and the address rewritten): from 500 ms to 3 s. */
export const LINK_PAUSE: Pause = { least: 500, perMillion: 1100, most: 3000 };

/** The result view of a large session while typing (see `MERGE_WAITS_FROM`): from 300 ms to 1 s. */
export const MERGE_PAUSE: Pause = { least: 300, perMillion: 300, most: 1000 };

/**
 * Sessions of at least this many characters have the result view follow
 * typing once it pauses: below it, the view follows every keystroke.
 */
export const MERGE_WAITS_FROM = 100_000;

/**
 * A change of at most this many characters (inserted and deleted) is a
 * keystroke; a larger one (a paste, a replaced file) is shown at once.
 */
export const KEYSTROKE_CHARS = 1000;

/** How long to wait after the last change, for a session of `size` characters (a whole number of ms). */
export function pauseFor(size: number, pause: Pause): number {
  const grown = pause.least + (Math.max(0, size) / 1_000_000) * pause.perMillion;
  return Math.round(Math.min(pause.most, Math.max(pause.least, grown)));
}
