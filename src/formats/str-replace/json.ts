// str-replace's words for the JSON reader's errors (core/json.ts), and the
// bracket scan that bounds a tool call whose JSON is broken.

import type { JsonError } from '../../core/json.ts';

const CONTROL_NAMES: Record<string, [string, string]> = {
  '\n': ['a raw line break', '\\n'],
  '\t': ['a raw tab', '\\t'],
  '\r': ['a raw carriage return', '\\r'],
};

/** Why the text is not JSON, as a call's message says it ("expected … found …"). */
export function jsonMessage(e: JsonError): string {
  const found = e.found === '' ? 'the end of the text' : JSON.stringify(e.found);
  const notClosed = 'the string is not closed: expected `"`';
  switch (e.expected) {
    case 'value':
      return `expected a value, found ${found}`;
    case 'word':
    case 'digit':
      return 'the text ends inside a value';
    case 'key':
      return `expected a member name in double quotes, found ${found}`;
    case 'key-or-close':
      return `expected a member name in double quotes or "}", found ${found}`;
    case 'colon':
      return `expected ":" after the member name, found ${found}`;
    case 'comma-or-brace':
      return `expected "," or "}" after a member, found ${found}`;
    case 'comma-or-bracket':
      return `expected "," or "]" after an element, found ${found}`;
    case 'quote':
      return notClosed;
    case 'escape':
      return e.atEnd ? notClosed : `invalid escape \\${e.found} in a string; the escapes are \\" \\\\ \\/ \\b \\f \\n \\r \\t and \\uXXXX`;
    case 'hex':
      return e.atEnd ? notClosed : `expected four hexadecimal digits after \\u, found ${found}`;
    case 'control': {
      const code = e.found.charCodeAt(0);
      const [what, fix] = CONTROL_NAMES[e.found] ?? [
        `the control character U+${code.toString(16).toUpperCase().padStart(4, '0')}`,
        `\\u${code.toString(16).padStart(4, '0')}`,
      ];
      return `${what} inside a string; write it as ${fix}`;
    }
    case 'depth':
      return 'the value is nested too deeply';
  }
}

/** Where a call's message places the error: an invalid escape at its `\`, any other at `offset`. */
export function jsonErrorAt(e: JsonError): number {
  return e.expected === 'escape' && !e.atEnd && e.escapeAt !== undefined ? e.escapeAt : e.offset;
}

/**
 * The end (exclusive) of the bracketed stretch that starts at `start` (a `{`
 * or `[`), skipping double-quoted strings; null when the text ends first.
 */
export function matchBracket(text: string, start: number): number | null {
  let depth = 0;
  let inString = false;
  for (let i = start; i < text.length; i++) {
    const c = text[i];
    if (inString) {
      if (c === '\\') i++;
      else if (c === '"') inString = false;
      continue;
    }
    if (c === '"') inString = true;
    else if (c === '{' || c === '[') depth++;
    else if (c === '}' || c === ']') {
      if (--depth === 0) return i + 1;
    }
  }
  return null;
}
