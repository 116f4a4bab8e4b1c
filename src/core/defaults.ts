// The engine's defaults, defined once: what a request's `options` mean when
// a field is left out. The ladder, the messages, the CLI and the playground
// all read them from here.

import type { EngineOptions } from './types.ts';

/**
 * The options a request gets for each field it leaves out: a window of 50
 * lines on each side of the cited place, a fuzzy threshold of 0.95, and the
 * whitespace-tolerant and fuzzy rungs on.
 */
export const ENGINE_DEFAULTS: Readonly<Required<EngineOptions>> = Object.freeze({
  window: 50,
  fuzzyThreshold: 0.95,
  whitespace: true,
  fuzzy: true,
});
