// Compare an engine result with what a spec example expects.

import type { ApplyResult, EditResult } from '../core/types.ts';
import type { EditExpectation, SpecExample } from './extract.ts';

/** Where the result differs from the example's expectation; empty when it conforms. */
export function checkExample(example: SpecExample, result: ApplyResult): string[] {
  const problems: string[] = [];
  const { expected } = example;
  const paths = new Set([...Object.keys(expected.files), ...Object.keys(result.files)]);
  for (const path of paths) {
    const want = expected.files[path];
    const got = result.files[path];
    if (want === undefined) problems.push(`unexpected file ${path} in the result`);
    else if (got === undefined) problems.push(`file ${path} is missing from the result`);
    else if (want !== got)
      problems.push(`file ${path}:\n  expected ${JSON.stringify(want)}\n  actual   ${JSON.stringify(got)}`);
  }
  if (result.ok !== expected.ok) problems.push(`ok: expected ${expected.ok}, actual ${result.ok}`);
  if (result.edits.length !== expected.edits.length) {
    problems.push(
      `expected ${expected.edits.length} edit(s), actual ${result.edits.length}: ${result.edits
        .map((e) => describe(e))
        .join('; ')}`,
    );
  } else {
    expected.edits.forEach((want, i) => problems.push(...checkEdit(want, result.edits[i], i)));
  }
  const codes = result.diagnostics.map((d) => d.code);
  if (expected.diagnostics.join(',') !== codes.join(','))
    problems.push(`diagnostics: expected [${expected.diagnostics.join(', ')}], actual [${codes.join(', ')}]`);
  return problems;
}

function describe(e: EditResult): string {
  return `${e.status} match=${e.match} offset=${e.offset} range=${e.range ? `${e.range.start}-${e.range.end}` : null} code=${e.code}${
    e.warnings.length ? ` warnings=${e.warnings.map((w) => w.code).join(',')}` : ''
  } (${e.message})`;
}

function checkEdit(want: EditExpectation, got: EditResult, i: number): string[] {
  const out: string[] = [];
  const bad = (what: string) => out.push(`edit ${i}: ${what}\n  expected: ${want.source}\n  actual:   ${describe(got)}`);
  if (got.status !== want.status) bad('status differs');
  const f = want.fields;
  if ('match' in f && got.match !== f.match) bad('match differs');
  if ('offset' in f && got.offset !== f.offset) bad('offset differs');
  if ('code' in f && got.code !== f.code) bad('code differs');
  if ('file' in f && got.file !== f.file) bad('file differs');
  if ('duplicateOf' in f && got.duplicateOf !== f.duplicateOf) bad('duplicateOf differs');
  if ('similarity' in f) {
    const ok =
      f.similarity === null ? got.similarity === null : got.similarity !== null && Math.abs(got.similarity - f.similarity!) < 0.0005;
    if (!ok) bad(`similarity differs (actual ${got.similarity})`);
  }
  if ('range' in f) {
    const ok = f.range === null ? got.range === null : got.range?.start === f.range!.start && got.range?.end === f.range!.end;
    if (!ok) bad('range differs');
  }
  const warnings = got.warnings.map((w) => w.code);
  if ((f.warnings ?? []).join(',') !== warnings.join(',')) bad('warnings differ');
  return out;
}
