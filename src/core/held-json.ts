// JSON text held in a JSON string: OpenAI's tool-call shape sends a call's
// arguments as a string, `{"name": "edit", "arguments": "{\"path\": …}"}`.
// The formats that read tool calls (str-replace, hashline) read such a
// string as the JSON it holds, each with its own JSON reader; this module
// holds the rule they share and the offset mapping back into the reply.

/** The member whose string value may hold a call's arguments as JSON text. */
export const HELD_JSON_KEY = 'arguments';

/**
 * Where the JSON text held in a member starts: the index of the first
 * non-blank character of `value` when the member is `"arguments"` and that
 * character is `{` (an object: a call's arguments); else -1.
 */
export function heldJsonStart(key: string, value: string): number {
  if (key !== HELD_JSON_KEY) return -1;
  const start = value.length - value.trimStart().length;
  return value[start] === '{' ? start : -1;
}

/**
 * Read the JSON text held in a string's decoded `value` with a reader
 * (`read(text, start)`), and hand back its node with every offset mapped
 * into the reply by `remap` (through the string's own offsets), or null
 * when the member holds no JSON text or the text is not one whole JSON
 * value (blanks may follow it). `failure` receives the reader's result
 * when it could not read the text, for a message.
 */
export function readHeldJson<R extends { ok: boolean }, N>(
  key: string,
  value: string,
  read: (text: string, start: number) => R,
  node: (result: R) => { node: N; end: number } | null,
  remap: (node: N) => N,
): { node: N } | { failed: R } | null {
  const start = heldJsonStart(key, value);
  if (start < 0) return null;
  const result = read(value, start);
  const ok = node(result);
  if (ok === null) return { failed: result };
  if (value.slice(ok.end).trim() !== '') return null;
  return { node: remap(ok.node) };
}
