// Every numbered example of every spec page, run through the engine and
// compared whole (spec/conformance.md): fields an example does not write
// are compared at their defaults. Also: the request and result schemas hold
// for every example, the committed suite is the one the pages give, and the
// comparison fails the deviations a wrong implementation would make.

import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { CODES } from '../src/core/diagnostics.ts';
import type { ApplyResult } from '../src/core/types.ts';
import { compareResult, showMismatch } from '../src/examples/compare.ts';
import { expectedResult, type ExpectedResult } from '../src/examples/expected.ts';
import { specFiles } from '../src/examples/load.ts';
import { stalePending } from '../src/examples/pending.ts';
import { checkSchema, type Schema } from '../src/examples/schema.ts';
import { currentSuite, SUITE_FILE, suiteText } from '../src/examples/suite.ts';
import { applyRequest, FORMAT_NAMES } from '../src/formats/index.ts';
import requestSchema from '../spec/schema/request.schema.json' with { type: 'json' };
import resultSchema from '../spec/schema/result.schema.json' with { type: 'json' };

const specs = specFiles();

/** The engine's result as a program would print it: through JSON. */
function run(request: Parameters<typeof applyRequest>[0]): ApplyResult {
  return JSON.parse(JSON.stringify(applyRequest(request))) as ApplyResult;
}

/** An expected result as a result: messages (free wording) filled in, for the result schema. */
function asResult(expected: ExpectedResult): unknown {
  const finding = (f: { code: string; severity: string }) => ({ ...f, message: '' });
  return {
    ...expected,
    edits: expected.edits.map((e) => ({ ...e, message: '', warnings: e.warnings.map(finding) })),
    diagnostics: expected.diagnostics.map(finding),
  };
}

for (const spec of specs) {
  describe(`spec/${spec.path}`, () => {
    for (const example of spec.examples) {
      it(`example ${example.number} (${example.section}, spec/${spec.path}:${example.line})`, () => {
        const request = {
          format: example.format,
          files: example.files,
          response: example.reply,
          ...(example.options ? { options: example.options } : {}),
        };
        const expected = expectedResult(example, spec.path);
        const result = run(request);
        const problems = compareResult(expected, result).flatMap(showMismatch);
        assert.equal(problems.length, 0, `\n${problems.join('\n')}`);
        assert.deepEqual(checkSchema(request, requestSchema as Schema), [], 'the request breaks request.schema.json');
        assert.deepEqual(checkSchema(result, resultSchema as Schema), [], 'the result breaks result.schema.json');
        assert.deepEqual(checkSchema(asResult(expected), resultSchema as Schema), [], 'the expectation breaks result.schema.json');
      });
    }
  });
}

describe('the conformance suite', () => {
  it('spec/conformance.json is the suite the spec pages give (npm run spec:dump rewrites it)', () => {
    const committed = readFileSync(SUITE_FILE, 'utf8');
    assert.ok(committed === suiteText(currentSuite()), 'spec/conformance.json is out of date: run `npm run spec:dump`');
  });

  it('src/examples/pending.ts lists only fields the pages do not write yet', () => {
    assert.deepEqual(stalePending(specs), []);
  });

  it('the schemas name every format and every code, and nothing else', () => {
    assert.deepEqual(requestSchema.properties.format.enum, [...FORMAT_NAMES]);
    assert.deepEqual(resultSchema.$defs.code.enum, [...CODES]);
  });

  it('the schemas refuse what is not a request or a result', () => {
    assert.notDeepEqual(checkSchema({ format: 'ln-diff', files: { a: 1 }, response: '' }, requestSchema as Schema), []);
    assert.notDeepEqual(checkSchema({ response: '', options: { window: -1 } }, requestSchema as Schema), []);
    assert.notDeepEqual(checkSchema({ response: '', extra: true }, requestSchema as Schema), []);
    const good = run({ format: 'ln-diff', files: { 'a.txt': 'a\n' }, response: 'a.txt\n<editblock>\n<<<<<<< REMOVE\n1│a\n=======\n │b\n>>>>>>> INSERT\n</editblock>\n' });
    assert.deepEqual(checkSchema(good, resultSchema as Schema), []);
    const bad = (change: (r: any) => void) => {
      const r = structuredClone(good) as any;
      change(r);
      return checkSchema(r, resultSchema as Schema);
    };
    assert.notDeepEqual(bad((r) => (r.edits[0].range = { start: 0, end: 1 })), []);
    assert.notDeepEqual(bad((r) => (r.edits[0].similarity = 1.5)), []);
    assert.notDeepEqual(bad((r) => (r.edits[0].code = 'made-up')), []);
    assert.notDeepEqual(bad((r) => delete r.edits[0].warnings), []);
    assert.notDeepEqual(bad((r) => (r.files['a.txt'] = 3)), []);
  });
});

describe('whole-result comparison fails a wrong implementation', () => {
  // Each deviation is made to our own results; every example it changes must fail.
  const deviations: Record<string, (r: ApplyResult) => boolean> = {
    'a warning on every edit': (r) => {
      for (const e of r.edits) e.warnings.push({ code: 'stray-marker', severity: 'warning', message: 'x' });
      return r.edits.length > 0;
    },
    'similarity 0.5 on every exact match': (r) => {
      const exact = r.edits.filter((e) => e.match === 'exact');
      for (const e of exact) e.similarity = 0.5;
      return exact.length > 0;
    },
    'similarity rounded to 2 decimals': (r) => {
      const odd = r.edits.filter((e) => e.similarity !== null && Math.abs(Math.round(e.similarity * 100) / 100 - e.similarity) > 0.0005);
      for (const e of odd) e.similarity = Math.round(e.similarity! * 100) / 100;
      return odd.length > 0;
    },
    'offset 0 where nothing was cited': (r) => {
      const none = r.edits.filter((e) => e.status === 'applied' && e.offset === null);
      for (const e of none) e.offset = 0;
      return none.length > 0;
    },
    'a duplicate reported as a plain apply': (r) => {
      const dups = r.edits.filter((e) => e.code === 'duplicate');
      for (const e of dups) Object.assign(e, { code: null, duplicateOf: null });
      return dups.length > 0;
    },
    'a no-edits diagnostic on every reply': (r) => {
      r.diagnostics.push({ code: 'no-edits', severity: 'warning', message: 'x' });
      return true;
    },
    'a warning with the wrong severity': (r) => {
      const some = r.edits.flatMap((e) => e.warnings).concat(r.diagnostics);
      for (const d of some) d.severity = d.severity === 'error' ? 'warning' : 'error';
      return some.length > 0;
    },
    'diagnostics in reverse order': (r) => {
      const codes = r.diagnostics.map((d) => d.code).join();
      r.diagnostics.reverse();
      return r.diagnostics.map((d) => d.code).join() !== codes;
    },
  };
  for (const [name, deviate] of Object.entries(deviations)) {
    it(name, () => {
      let changed = 0;
      let caught = 0;
      for (const spec of specs)
        for (const ex of spec.examples) {
          const result = run({ format: ex.format, files: ex.files, response: ex.reply, ...(ex.options ? { options: ex.options } : {}) });
          if (!deviate(result)) continue;
          changed++;
          if (compareResult(expectedResult(ex, spec.path), result).length > 0) caught++;
        }
      assert.ok(changed > 0, 'the deviation changes no example');
      assert.equal(caught, changed, `${changed - caught} of ${changed} changed results still pass`);
    });
  }
});
