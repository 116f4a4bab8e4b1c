// The closed set of diagnostic codes and the severity of each: a leaf module
// (it imports nothing), so every other module of the core may name a code.
// Each code is explained, with what to do about it, in spec/errors.md (a test
// keeps the two in step).

/** How serious a finding is: `error` (the edit, or the reply, failed), `warning` (a problem forgiven), `info` (a remark). */
export type Severity = 'error' | 'warning' | 'info';

/** Every diagnostic code, a closed list in spec/errors.md's order. */
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
  // The edit was read but could not be placed, or is refused where it goes.
  'file-not-found',
  'file-exists',
  'tag-mismatch',
  'stale-file',
  'no-match',
  'ambiguous',
  'overlap',
  'already-applied',
  // Applied, with a remark.
  'duplicate',
  'deterministic-merge',
  'no-change',
  'confusable-path',
  'bidi-control',
  // Form problems that were forgiven.
  'bar-substitute',
  'numbered-insert',
  'inferred-marker',
  'stray-marker',
  'ambiguous-structure',
  'no-edits',
] as const;

/** One of `CODES`: a finding's stable name. */
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
  'already-applied': 'error',
  duplicate: 'info',
  'deterministic-merge': 'info',
  'no-change': 'warning',
  'confusable-path': 'warning',
  'bidi-control': 'warning',
  'bar-substitute': 'warning',
  'numbered-insert': 'warning',
  'inferred-marker': 'warning',
  'stray-marker': 'warning',
  'ambiguous-structure': 'warning',
  'no-edits': 'warning',
};

/** Whether a value is one of `CODES`. */
export function isCode(value: unknown): value is Code {
  return typeof value === 'string' && (CODES as readonly string[]).includes(value);
}
