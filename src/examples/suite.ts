// The conformance suite: every numbered example of every spec page as one
// request (what `ln-diff apply --json` reads) and the whole result it must
// give (spec/conformance.md). Written to spec/conformance.json (committed,
// versioned with the spec) and to the site's /conformance.json.

import { readFileSync } from 'node:fs';
import type { ApplyRequest } from '../core/types.ts';
import { expectedResult, type ExpectedResult } from './expected.ts';
import { SPEC_DIR, specFiles, type SpecFile } from './load.ts';

export interface SuiteCase {
  /** `<page without .md>#example-<n>`: the example's anchor on the site. */
  id: string;
  /** The spec page, e.g. `spec/formats/udiff.md`. */
  spec: string;
  /** The example's number on its page, from 1. */
  example: number;
  section: string;
  request: ApplyRequest;
  expected: ExpectedResult;
}

export interface Suite {
  description: string;
  /** The package version the suite was written with. */
  version: string;
  /** The version of the ln-diff specification (spec/ln-diff.md). */
  specVersion: string;
  cases: SuiteCase[];
}

export const SUITE_DESCRIPTION =
  'ln-diff conformance suite. Each case is a request (the input of `ln-diff apply --json`) and the whole result it must give. ' +
  'Compare as spec/conformance.md says: every field of `expected` is compared (similarity within 0.0005; warnings and diagnostics ' +
  'by code and severity, in order; files byte for byte); messages and any field not in `expected` are free. ' +
  'Run it with `ln-diff conformance --cmd "PROGRAM"`.';

/** One case per example of the given spec files, in page and example order. */
export function buildSuite(specs: readonly SpecFile[], version: string, specVersion: string): Suite {
  const cases = specs.flatMap((spec) =>
    spec.examples.map(
      (ex): SuiteCase => ({
        id: `${spec.path.replace(/\.md$/, '')}#example-${ex.number}`,
        spec: `spec/${spec.path}`,
        example: ex.number,
        section: ex.section,
        request: { format: ex.format, files: ex.files, response: ex.reply, ...(ex.options ? { options: ex.options } : {}) },
        expected: expectedResult(ex, spec.path),
      }),
    ),
  );
  return { description: SUITE_DESCRIPTION, version, specVersion, cases };
}

/** The suite as written to disk: two-space JSON and a final newline. */
export function suiteText(suite: Suite): string {
  return JSON.stringify(suite, null, 2) + '\n';
}

/** Where the committed suite lives. */
export const SUITE_FILE = new URL('conformance.json', SPEC_DIR);

/** The suite of the spec pages as they are now (package version and spec version included). */
export function currentSuite(): Suite {
  const pkg = JSON.parse(readFileSync(new URL('../package.json', SPEC_DIR), 'utf8')) as { version: string };
  const spec = readFileSync(new URL('ln-diff.md', SPEC_DIR), 'utf8');
  const version = /^---\n[\s\S]*?^version:\s*(\S+)\s*$/m.exec(spec)?.[1] ?? '';
  return buildSuite(specFiles(), pkg.version, version);
}
