// When an edit read from a streamed reply is settled (src/core/stream.ts
// asks): the rules a format carries (`Format.stream`), and the probes most
// formats build theirs from. Apart from the stream itself, so that a format
// names its rules without reaching the engine that runs it.

import type { Edit, SettleContext, StreamRules } from './types.ts';

/** The default rules (`Format.stream` unset): an edit is settled once a later edit has begun. */
export const LATER_EDIT_RULES: StreamRules = {
  settled: (edit, context) => context.edits.length > edit.index + 1,
};

/** Structural equality of JSON-like values (key order ignored). */
export function sameValue(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a)) {
    const bb = b as unknown[];
    return a.length === bb.length && a.every((v, i) => sameValue(v, bb[i]));
  }
  const ka = Object.keys(a).filter((k) => (a as Record<string, unknown>)[k] !== undefined);
  const kb = Object.keys(b).filter((k) => (b as Record<string, unknown>)[k] !== undefined);
  return (
    ka.length === kb.length &&
    ka.every((k) => Object.hasOwn(b, k) && sameValue((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]))
  );
}

/**
 * Rules from probes: an edit is settled when appending each probe text to the
 * reply leaves it unchanged. A format's probes are the lines that would
 * still join or change a read edit (a closing tag its block may take, a line
 * its hunk would take, a tag that would rename its file).
 */
export function settledUnlessProbed(probes: (edit: Edit, context: SettleContext) => readonly string[]): StreamRules {
  return {
    settled(edit, context) {
      return probes(edit, context).every((probe) => {
        const after = context.parse(context.reply + probe).edits[edit.index];
        return after !== undefined && sameValue(after, edit);
      });
    },
  };
}

