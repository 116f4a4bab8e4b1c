// The whole result a spec example expects: the fields its `//// edits` lines
// list, and every other compared field at its default. The defaults are
// written down once, here and in spec/conformance.md ("Defaults"); the
// conformance suite (spec/conformance.json) holds their outcome, so a reader
// of the suite needs no defaults at all.

import { isCode, SEVERITY } from '../core/diagnostics.ts';
import type { LineRange } from '../core/types.ts';
import { ExampleSyntaxError, type EditExpectation, type SpecExample } from './extract.ts';
import { pendingFields } from './pending.ts';

/** A finding as the suite compares it: its code, and the severity the code has. */
export interface ExpectedFinding {
  code: string;
  severity: string;
}

/** One edit's result as the suite compares it (its `message` is free). */
export interface ExpectedEdit {
  file: string;
  index: number;
  status: 'applied' | 'failed';
  match: string | null;
  offset: number | null;
  similarity: number | null;
  range: LineRange | null;
  code: string | null;
  duplicateOf: number | null;
  warnings: ExpectedFinding[];
}

/** A whole result as the suite compares it. */
export interface ExpectedResult {
  ok: boolean;
  /** Every file of the request and every created file; null = deleted. */
  files: Record<string, string | null>;
  edits: ExpectedEdit[];
  diagnostics: ExpectedFinding[];
}

/**
 * Formats whose edits cite line numbers: in these an applied edit's default
 * offset is 0; in the others (whose edits cite none, or `auto`) it is null.
 */
export const LINE_CITING_FORMATS: readonly string[] = ['ln-diff', 'hashline', 'roo', 'udiff'];

function finding(code: string, line: number): ExpectedFinding {
  if (!isCode(code)) throw new ExampleSyntaxError(`unknown code ${JSON.stringify(code)}`, line);
  return { code, severity: SEVERITY[code] };
}

/** Paths of the example: the files given and the files expected after. */
function examplePaths(example: SpecExample): string[] {
  return [...new Set([...Object.keys(example.files), ...Object.keys(example.expected.files)])];
}

/**
 * The whole expected result of one edit line. `line` is the example's line
 * (for messages). Throws ExampleSyntaxError when a field that has no default
 * is missing: `code` of a failed edit, `range` of an applied one, `file` in an
 * example of several files.
 */
export function expectedEdit(want: EditExpectation, index: number, example: SpecExample): ExpectedEdit {
  const f = want.fields;
  const applied = want.status === 'applied';
  const where = `edit ${index} (${want.source})`;
  const required = (what: string) =>
    new ExampleSyntaxError(`${where}: ${what} has no default and must be written`, example.line);
  const code = 'code' in f ? (f.code ?? null) : null;
  if (!applied && code === null) throw required('code= of a failed edit');
  if (code !== null && !isCode(code)) throw new ExampleSyntaxError(`${where}: unknown code ${JSON.stringify(code)}`, example.line);
  let file: string;
  if ('file' in f) file = f.file!;
  else if (code === 'missing-path') file = '';
  else {
    const paths = examplePaths(example);
    if (paths.length !== 1) throw required('file= in an example of several files');
    file = paths[0];
  }
  if (applied && !('range' in f)) throw required('range= of an applied edit');
  const citing = LINE_CITING_FORMATS.includes(example.format);
  return {
    file,
    index,
    status: want.status,
    match: 'match' in f ? (f.match ?? null) : applied ? 'exact' : null,
    offset: 'offset' in f ? (f.offset ?? null) : applied && citing ? 0 : null,
    similarity: 'similarity' in f ? (f.similarity ?? null) : applied ? 1 : null,
    range: 'range' in f ? (f.range ?? null) : null,
    code,
    duplicateOf: 'duplicateOf' in f ? (f.duplicateOf ?? null) : null,
    warnings: (f.warnings ?? []).map((c) => finding(c, example.line)),
  };
}

/**
 * The whole result an example expects. `page` (the path under spec/, e.g.
 * `ln-diff.md`) adds the fields src/examples/pending.ts holds for it.
 */
export function expectedResult(example: SpecExample, page?: string): ExpectedResult {
  const pending = page === undefined ? new Map() : pendingFields(page, example);
  return {
    ok: example.expected.ok,
    files: example.expected.files,
    edits: example.expected.edits.map((e, i) => {
      const add = pending.get(i)?.add;
      return expectedEdit(add ? { ...e, fields: { ...e.fields, ...add } } : e, i, example);
    }),
    diagnostics: example.expected.diagnostics.map((c) => finding(c, example.line)),
  };
}
