// Streaming rules for JSON tool calls (str-replace, and hashline's calls):
// when a call read from a reply still arriving is final.

import type { StreamRules } from '../../core/types.ts';

/**
 * The offsets of the `{` still open at the end of `text`: brackets outside
 * any `{` or `[` are prose and ignored, strings inside them are skipped. Run
 * twice (a string ends at a line break, or only at its quote) and the open
 * braces of both runs are returned, so that a broken string can only make
 * the answer more cautious.
 */
function openBraces(text: string): Set<number> {
  const open = new Set<number>();
  for (const stringEndsAtLine of [true, false]) {
    const stack: number[] = [];
    let inString = false;
    for (let i = 0; i < text.length; i++) {
      const c = text[i];
      if (inString) {
        if (c === '\\') i++;
        else if (c === '"' || (c === '\n' && stringEndsAtLine)) inString = false;
        continue;
      }
      if (c === '{' || c === '[') stack.push(i);
      else if (stack.length > 0) {
        if (c === '"') inString = true;
        else if (c === '}' || c === ']') stack.pop();
      }
    }
    for (const at of stack) if (text[at] === '{') open.add(at);
  }
  return open;
}

/**
 * A call is final once its own braces have closed and no object around it
 * is still open (an object that closes later can turn out to be a tool-use
 * wrapper, or to hold the call in a member it ignores). An array around
 * calls changes none of them.
 */
export const JSON_CALLS_STREAM: StreamRules = {
  settled(edit, context) {
    for (const at of openBraces(context.reply)) if (at <= edit.span.from) return false;
    return true;
  },
};
