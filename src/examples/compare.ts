// Compare a whole result (any program's, parsed from its JSON) with what a
// conformance case expects, by the rules of spec/conformance.md
// ("Comparison"), and show each difference with its whitespace visible.
// Used by the spec tests, `npm run spec:check` and `ln-diff conformance`.

import { diffArrays } from 'diff';
import type { ExpectedFinding, ExpectedResult } from './expected.ts';

/** One difference: where (a JSON path into the result), what was expected, what was there. */
export interface Mismatch {
  path: string;
  expected: unknown;
  /** `undefined` when the field is absent. */
  actual: unknown;
}

/** A similarity passes when it is within this of the expected value (which has 3 decimals). */
export const SIMILARITY_TOLERANCE = 0.0005;

/** Fields of an edit compared for equality as they are (similarity and warnings apart). */
const EDIT_FIELDS = ['file', 'index', 'status', 'match', 'offset', 'range', 'code', 'duplicateOf'] as const;

type Json = Record<string, unknown>;

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function key(path: string, name: string): string {
  return /^[A-Za-z_$][\w$]*$/.test(name) ? `${path}.${name}` : `${path}[${JSON.stringify(name)}]`;
}

function same(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((x, i) => same(x, b[i]));
  if (isObject(a) && isObject(b)) {
    const ka = Object.keys(a);
    return ka.length === Object.keys(b).length && ka.every((k) => Object.hasOwn(b, k) && same(a[k], b[k]));
  }
  return false;
}

/** A finding list as compared: code and severity of each, in order (messages and places are free). */
function findings(value: unknown): unknown {
  if (!Array.isArray(value)) return value;
  return value.map((d) => (isObject(d) ? { code: d.code, severity: d.severity } : d));
}

/** A range as compared: its start and end (anything else on it is ignored). */
function rangeOf(value: unknown): unknown {
  return isObject(value) ? { start: value.start, end: value.end } : value;
}

function compareFindings(path: string, want: ExpectedFinding[], got: unknown, out: Mismatch[]): void {
  const actual = findings(got);
  if (!same(want, actual)) out.push({ path, expected: want, actual });
}

/** Every difference between the expected result and `actual` (a parsed JSON value); empty when it conforms. */
export function compareResult(expected: ExpectedResult, actual: unknown): Mismatch[] {
  const out: Mismatch[] = [];
  if (!isObject(actual)) return [{ path: 'result', expected: 'a JSON object', actual }];
  if (actual.ok !== expected.ok) out.push({ path: 'ok', expected: expected.ok, actual: actual.ok });

  const files = actual.files;
  if (!isObject(files)) out.push({ path: 'files', expected: expected.files, actual: files });
  else {
    const paths = [...Object.keys(expected.files), ...Object.keys(files).filter((p) => !Object.hasOwn(expected.files, p))];
    for (const p of paths) {
      const want = Object.hasOwn(expected.files, p) ? expected.files[p] : undefined;
      const got = Object.hasOwn(files, p) ? files[p] : undefined;
      if (want !== got) out.push({ path: key('files', p), expected: want, actual: got });
    }
  }

  const edits = actual.edits;
  if (!Array.isArray(edits)) out.push({ path: 'edits', expected: `${expected.edits.length} edit(s)`, actual: edits });
  else {
    if (edits.length !== expected.edits.length)
      out.push({ path: 'edits.length', expected: expected.edits.length, actual: edits.length });
    expected.edits.forEach((want, i) => {
      if (i >= edits.length) return;
      const got = edits[i];
      const at = `edits[${i}]`;
      if (!isObject(got)) {
        out.push({ path: at, expected: 'an object', actual: got });
        return;
      }
      for (const field of EDIT_FIELDS) {
        const value = field === 'range' ? rangeOf(got[field]) : got[field];
        if (!same(want[field], value)) out.push({ path: `${at}.${field}`, expected: want[field], actual: got[field] });
      }
      const s = got.similarity;
      const similar =
        want.similarity === null
          ? s === null
          : typeof s === 'number' && Math.abs(s - want.similarity) <= SIMILARITY_TOLERANCE + 1e-12;
      if (!similar) out.push({ path: `${at}.similarity`, expected: want.similarity, actual: s });
      compareFindings(`${at}.warnings`, want.warnings, got.warnings, out);
    });
  }
  compareFindings('diagnostics', expected.diagnostics, actual.diagnostics, out);
  return out;
}

// ---------------------------------------------------------------- showing a difference

/**
 * A line of text with its invisible characters shown as the spec pages write
 * them: tab `→`, carriage return `␍`, a space at the end of a line `␣`, and
 * any other invisible or unusual blank as `<U+XXXX>`.
 */
export function visible(line: string): string {
  const shown = line
    .replace(/\t/g, '→')
    .replace(/\r/g, '␍')
    .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f\u00a0\u1680\u2000-\u200f\u2028\u2029\u202f\u205f\u3000\ufeff]/g, (c) =>
      `<U+${c.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}>`,
    );
  return shown.replace(/ +$/, (spaces) => '␣'.repeat(spaces.length));
}

/** A text's lines, each with its line break (the last one may have none). */
function linesOf(text: string): string[] {
  return text === '' ? [] : text.split(/(?<=\n)/);
}

function showLine(prefix: string, line: string): string[] {
  const body = line.endsWith('\n') ? line.slice(0, -1) : line;
  const out = [`${prefix}${visible(body)}`];
  if (!line.endsWith('\n')) out.push(`${prefix}\\ no line break at the end`);
  return out;
}

/** A line diff of two texts (expected `-`, actual `+`), whitespace visible, with two lines of context. */
export function textDiff(expected: string, actual: string, context = 2): string[] {
  const parts = diffArrays(linesOf(expected), linesOf(actual));
  const rows: { kind: ' ' | '-' | '+'; line: string }[] = [];
  for (const part of parts) {
    const kind = part.added ? '+' : part.removed ? '-' : ' ';
    for (const line of part.value) rows.push({ kind, line });
  }
  const keep = rows.map(() => false);
  rows.forEach((r, i) => {
    if (r.kind === ' ') return;
    for (let k = Math.max(0, i - context); k <= Math.min(rows.length - 1, i + context); k++) keep[k] = true;
  });
  const out: string[] = [];
  let skipped = false;
  rows.forEach((r, i) => {
    if (!keep[i]) {
      skipped = true;
      return;
    }
    if (skipped) out.push('  …');
    skipped = false;
    out.push(...showLine(`${r.kind} `, r.line));
  });
  if (skipped) out.push('  …');
  return out;
}

function json(value: unknown): string {
  return value === undefined ? '(absent)' : JSON.stringify(value);
}

/** One difference as lines of text: a line diff for a file's text, else the two values as JSON. */
export function showMismatch(m: Mismatch): string[] {
  if (m.path.startsWith('files') && typeof m.expected === 'string' && typeof m.actual === 'string')
    return [`${m.path}: the text differs (- expected, + actual)`, ...textDiff(m.expected, m.actual).map((l) => `  ${l}`)];
  const what = m.path.startsWith('files')
    ? (v: unknown) => (v === undefined ? '(absent)' : v === null ? 'null (deleted)' : `a text of ${String(v).length} characters`)
    : json;
  return [`${m.path}:`, `  - expected ${what(m.expected)}`, `  + actual   ${what(m.actual)}`];
}
