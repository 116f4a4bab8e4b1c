// Findings as data: building a diagnostic, quoting a line in a message,
// writing a position. The codes themselves are in codes.ts.

import type { Code, Severity } from './codes.ts';
import type { Diagnostic, Position, Span } from './types.ts';

export { CODES, SEVERITY, isCode, type Code } from './codes.ts';

/** A diagnostic with no source place: `reply` only when given. */
export function diagnostic(
  code: Code,
  severity: Severity,
  message: string,
  reply?: Span,
): Diagnostic {
  return reply ? { code, severity, message, reply } : { code, severity, message };
}

/** Characters of a line quoted in a message, at most. */
export const QUOTED_MAX = 200;

/**
 * A line as messages quote it: in JSON quotes, cut after `QUOTED_MAX`
 * characters (a 10 MB line would make a 10 MB message), saying how long it is.
 */
export function quote(line: string): string {
  if (line.length <= QUOTED_MAX) return JSON.stringify(line);
  return `${JSON.stringify(line.slice(0, QUOTED_MAX))}… (${line.length} characters)`;
}

/** `line 12, column 3`: how positions are written in messages. */
export function at(position: Position): string {
  return `line ${position.line}, column ${position.column}`;
}

/** `U+202E`: how messages name a character (its code point, at least four hex digits). */
export function codePoint(ch: string): string {
  return `U+${ch.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`;
}
