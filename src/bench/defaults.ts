// A run's settings the page and the CLI share, in a module of their own (no
// imports) so that the page's main thread can read them without the engine.

/** Retries of a transient failure a run makes unless told, in the page and the CLI. */
export const DEFAULT_RETRIES = 2;
/** Seconds a reply may send nothing (the wait for its first byte included) before it is cut off as stalled: the default and the bounds, in the page and the CLI. */
export const IDLE_SECONDS = { default: 120, min: 10, max: 3600 } as const;
