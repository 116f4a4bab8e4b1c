// A numbered hunk whose lines occur unchanged only further from its header's
// number than the window (spec/formats/udiff.md, "Numbers are a hint, not
// noise"): it is not applied there, and its message says which header would
// place it. The ladder already makes that copy the failure's candidate
// (src/core/match.ts); this says it in a hunk's terms: the header's old
// start, not "line numbers". Shared by udiff and udiffx.

import { ENGINE_DEFAULTS } from '../../core/defaults.ts';
import type { Edit, EngineOptions, MatchOutcome } from '../../core/types.ts';

const range = (start: number, n: number) => (n === 1 ? `line ${start}` : `lines ${start}-${start + n - 1}`);
const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

/**
 * `outcome` with a hunk's message when it failed with `no-match` because the
 * hunk's old lines occur unchanged only outside the window (`outside`, and
 * no similar place in it: `fuzzyRefused` keeps the engine's message, which
 * names both). Any other outcome, and an edit that cites no number, is
 * returned as it is.
 */
export function farHunk(outcome: MatchOutcome, edit: Edit, options: EngineOptions): MatchOutcome {
  if (outcome.ok || outcome.code !== 'no-match' || outcome.message !== undefined || outcome.fuzzyRefused !== undefined) return outcome;
  if (edit.cited === undefined || outcome.outside.length === 0) return outcome;
  const window = options.window ?? ENGINE_DEFAULTS.window;
  const n = edit.old.length;
  const at = outcome.outside[0] + 1;
  const others = outcome.outside.length - 1;
  const also = others > 0 ? ` (and at ${plural(others, 'other place')})` : '';
  const message =
    `the hunk's context and removed lines do not match ${edit.file} within ${window} lines of line ${edit.cited}, where its header's old start puts them; ` +
    `they occur unchanged at ${range(at, n)}${also}, ${plural(Math.abs(at - edit.cited), 'line')} ${at > edit.cited ? 'below' : 'above'}, too far from the header's number to be trusted: ` +
    `if that is the place meant, write the header as \`@@ -${at},${n} +${at},${edit.new.length} @@\``;
  return { ...outcome, message };
}
