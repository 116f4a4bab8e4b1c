// The closed set of diagnostic codes. Each is explained, with what to do about
// it, in spec/errors.md (a test keeps the two in step).

import type { Diagnostic, Position, Severity, Span } from './types.ts';

export const CODES = [
  // The reply could not be read as an edit.
  'missing-path',
  'unsafe-path',
  'unnumbered-remove-line',
  'remove-number-gap',
  'remove-number-repeat',
  'missing-divider',
  'missing-end-marker',
  'truncated',
  'malformed',
  'ambiguous-end',
  'elided',
  'mixed-formats',
  // The edit was read but could not be placed.
  'file-not-found',
  'file-exists',
  'tag-mismatch',
  'stale-file',
  'no-match',
  'ambiguous',
  'overlap',
  // Applied, with a remark.
  'duplicate',
  'deterministic-merge',
  // Form problems that were forgiven.
  'bar-substitute',
  'numbered-insert',
  'inferred-marker',
  'stray-marker',
  'ambiguous-structure',
  'no-edits',
] as const;

export type Code = (typeof CODES)[number];

/** The severity every finding with a code has (spec/errors.md's tables). */
export const SEVERITY: Readonly<Record<Code, Severity>> = {
  'missing-path': 'error',
  'unsafe-path': 'error',
  'unnumbered-remove-line': 'error',
  'remove-number-gap': 'error',
  'remove-number-repeat': 'error',
  'missing-divider': 'error',
  'missing-end-marker': 'error',
  truncated: 'error',
  malformed: 'error',
  'ambiguous-end': 'error',
  elided: 'error',
  'mixed-formats': 'error',
  'file-not-found': 'error',
  'file-exists': 'error',
  'tag-mismatch': 'error',
  'stale-file': 'error',
  'no-match': 'error',
  ambiguous: 'error',
  overlap: 'error',
  duplicate: 'info',
  'deterministic-merge': 'info',
  'bar-substitute': 'warning',
  'numbered-insert': 'warning',
  'inferred-marker': 'warning',
  'stray-marker': 'warning',
  'ambiguous-structure': 'warning',
  'no-edits': 'warning',
};

export function isCode(value: unknown): value is Code {
  return typeof value === 'string' && (CODES as readonly string[]).includes(value);
}

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
