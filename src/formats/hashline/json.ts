// Hashline's words for the JSON reader's errors (core/json.ts): what was
// expected, as the message of a call that is not valid JSON says it
// ("expected `,` or `}` after the value, found …").

import { MAX_JSON_DEPTH, type JsonError } from '../../core/json.ts';

/** What the reader expected where it stopped; `where(offset)` names a place (`line L, column C`). */
export function expectedWords(e: JsonError, where: (offset: number) => string): string {
  switch (e.expected) {
    case 'value':
    case 'word':
      return 'a value';
    case 'digit':
      return 'a digit';
    case 'key':
      return 'a key in double quotes';
    case 'key-or-close':
      return 'a key in double quotes or `}`';
    case 'colon':
      return '`:` after the key';
    case 'comma-or-brace':
      return '`,` or `}` after the value';
    case 'comma-or-bracket':
      return '`,` or `]` after the value';
    case 'quote':
      return 'a closing `"` for the string that starts at ' + where(e.stringAt ?? e.offset);
    case 'escape':
      return e.atEnd ? 'an escape character after `\\`' : 'one of `"`, `\\`, `/`, `b`, `f`, `n`, `r`, `t`, `u` after `\\`';
    case 'hex':
      return 'four hexadecimal digits after `\\u`';
    case 'control':
      return 'no raw control character inside a string';
    case 'depth':
      return `at most ${MAX_JSON_DEPTH} levels of nesting`;
  }
}
