// Properties of the apply_patch (V4A) pipeline: writer -> reply -> parser ->
// matcher -> applier.
//
// - round trip: writing the change from `before` to `after` and applying the
//   reply to `before` gives `after` byte for byte (also for new and deleted
//   files, and several files at once);
// - garbage: any reply is read without throwing, every finding is a known
//   code with a span inside the reply, and a file changes only through edits
//   reported as applied;
// - truncation: a written reply cut anywhere applies exactly the edits it
//   completed, as the whole reply places them, and at most one is truncated.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { CODES } from '../../src/core/diagnostics.ts';
import type { ApplyResult, Span } from '../../src/core/types.ts';
import { applyPatch } from '../../src/formats/apply-patch/index.ts';
import { applyRequest } from '../../src/formats/index.ts';
import { PATHS, build, fileLine, fileVersion, line, type Version } from './arbitraries.ts';

const SCALE = Number(process.env.PROPERTY_RUNS_SCALE ?? 1);
const RUNS = 300 * SCALE;

/** Lines that look like the format's own syntax. */
const PATCH_MARKERS = [
  '*** Begin Patch',
  '*** End Patch',
  '*** Update File: a.txt',
  '*** Add File: b.txt',
  '*** Delete File: a.txt',
  '*** Move to: c.txt',
  '*** End of File',
  '***',
  '@@',
  '@@ def foo():',
  '+added',
  '-removed',
  ' context',
  '```',
  'def foo():',
  '  “quoted” – dash',
  '  "quoted" - dash',
];

const patchLine: fc.Arbitrary<string> = fc.oneof({ weight: 4, arbitrary: fileLine }, { weight: 1, arbitrary: fc.constantFrom(...PATCH_MARKERS) });
const versions = fileVersion(fc.array(patchLine, { maxLength: 30 }));

const apply = (files: Record<string, string>, response: string): ApplyResult => applyRequest({ format: 'apply-patch', files, response });
const show = (v: unknown) => JSON.stringify(v);

const manyFiles = (version: fc.Arbitrary<Version>, max = 4) =>
  fc
    .uniqueArray(fc.constantFrom(...PATHS), { minLength: 1, maxLength: max })
    .chain((paths) => fc.tuple(fc.constant(paths), fc.array(version, { minLength: paths.length, maxLength: paths.length })));

describe('apply-patch round trip: write(before, after) applied to before gives after', () => {
  it('one file', () => {
    fc.assert(
      fc.property(versions, (v) => {
        const reply = applyPatch.write([{ file: 'f.txt', before: v.before, after: v.after }]);
        const r = apply({ 'f.txt': v.before }, reply);
        assert.equal(r.files['f.txt'], v.after, `reply:\n${reply}\nresult: ${show(r.edits)}`);
        assert.equal(r.ok, true, show(r.edits));
        for (const e of r.edits) {
          assert.equal(e.match, 'exact');
          assert.equal(e.code, null);
          assert.deepEqual(e.warnings, []);
        }
        assert.deepEqual(r.diagnostics.map((d) => d.code), v.before === v.after ? ['no-edits'] : []);
      }),
      { numRuns: RUNS },
    );
  });

  it('several files, new files and deleted files in one patch', () => {
    const kinds = fc.array(fc.constantFrom('change', 'change', 'add', 'delete'), { minLength: 4, maxLength: 4 });
    const added = fc.array(patchLine, { maxLength: 8 });
    fc.assert(
      fc.property(manyFiles(versions), kinds, fc.array(added, { minLength: 4, maxLength: 4 }), ([paths, vs], kind, adds) => {
        const files: Record<string, string> = {};
        const expected: Record<string, string | null> = {};
        const changes = paths.map((file, k) => {
          if (kind[k] === 'add') {
            const after = build(adds[k], { eol: '\n', bom: false, final: true });
            expected[file] = after;
            return { file, before: null, after };
          }
          files[file] = vs[k].before;
          if (kind[k] === 'delete') {
            expected[file] = null;
            return { file, before: vs[k].before, after: null };
          }
          expected[file] = vs[k].after;
          return { file, before: vs[k].before, after: vs[k].after };
        });
        const reply = applyPatch.write(changes);
        const r = apply(files, reply);
        assert.deepEqual(r.files, expected, `reply:\n${reply}\nresult: ${show(r.edits)}`);
        assert.equal(r.ok, true);
      }),
      { numRuns: RUNS },
    );
  });
});

// ---------------------------------------------------------------------------
// Garbage in.

function positionAt(text: string, offset: number): { line: number; column: number } {
  let ln = 1;
  let start = 0;
  for (let k = 0; k < offset; k++) {
    if (text.charCodeAt(k) === 10) {
      ln++;
      start = k + 1;
    }
  }
  return { line: ln, column: offset - start + 1 };
}

function checkSpan(reply: string, span: Span, what: string): void {
  assert.ok(0 <= span.from && span.from <= span.to && span.to <= reply.length, `${what}: ${show(span)} outside the reply`);
  assert.deepEqual(span.start, positionAt(reply, span.from), `${what}: start of ${show(span)}`);
  assert.deepEqual(span.end, positionAt(reply, span.to), `${what}: end of ${show(span)}`);
}

function checkInvariants(files: Record<string, string>, reply: string, r: ApplyResult): void {
  const parsed = applyPatch.parse(reply, { files: Object.keys(files) });
  assert.equal(r.edits.length, parsed.edits.length);
  r.edits.forEach((e, k) => {
    assert.equal(e.index, k);
    if (e.code !== null) assert.ok((CODES as readonly string[]).includes(e.code), e.code);
    if (e.status === 'failed') {
      assert.equal(e.range, null);
      assert.notEqual(e.code, null);
      assert.ok(e.message.length > 0);
    }
    checkSpan(reply, e.reply, `edit ${k}`);
    const p = parsed.edits[k];
    if (p.error?.reply) checkSpan(reply, p.error.reply, `edit ${k} error`);
    p.oldSpans?.forEach((s, j) => {
      checkSpan(reply, s, `edit ${k} old span ${j}`);
      assert.equal(reply.slice(s.from, s.to), p.old[j]);
    });
  });
  for (const d of r.diagnostics) if (d.reply) checkSpan(reply, d.reply, `diagnostic ${d.code}`);
  assert.equal(r.ok, r.edits.every((e) => e.status === 'applied'));
  const touched = new Set<string>();
  for (const e of r.edits) {
    if (e.status !== 'applied') continue;
    touched.add(e.file);
    const moveTo = parsed.edits[e.index].moveTo;
    if (moveTo) touched.add(moveTo);
  }
  for (const path of new Set([...Object.keys(files), ...Object.keys(r.files)])) {
    if (!touched.has(path)) assert.equal(r.files[path], files[path], `${path} changed without an applied edit`);
  }
}

const replyLine: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(...PATCH_MARKERS, '*** Update File: src/b.ts', '*** Add File: a.txt', '*** Delete File: nope.txt', '*** Update File: ', '*** Frob File: x'),
  fc.tuple(fc.constantFrom(' ', '-', '+', '@@ ', ''), line).map(([p, t]) => p + t),
  fc.constantFrom('Here is the patch:', 'Done.', '', '\t'),
  line,
);

/** Something shaped like a patch for `files`: real lines mostly, markers sometimes missing. */
const patchish = (files: Record<string, string>): fc.Arbitrary<string> => {
  const paths = Object.keys(files);
  const chunk = fc
    .record({
      file: paths.length ? fc.constantFrom(...paths) : fc.constant('a.txt'),
      at: fc.nat(),
      count: fc.integer({ min: 1, max: 4 }),
      ops: fc.array(fc.constantFrom(' ', ' ', '-', '+'), { minLength: 4, maxLength: 4 }),
      damage: fc.constantFrom('none', 'none', 'trailing', 'indent', 'quote', 'random'),
      anchor: fc.option(fc.constantFrom('def foo():', '}', 'x'), { freq: 4 }),
      added: fc.array(fileLine, { maxLength: 2 }),
    })
    .map((c) => {
      const lines = (files[c.file] ?? '').split(/\r?\n/);
      const from = lines.length ? c.at % lines.length : 0;
      const out: string[] = [`*** Update File: ${c.file}`, c.anchor === null ? '@@' : `@@ ${c.anchor}`];
      lines.slice(from, from + c.count).forEach((l, k) => {
        let t = l;
        if (k === 0 && c.damage === 'trailing') t += '  ';
        if (k === 0 && c.damage === 'indent') t = '  ' + t;
        if (k === 0 && c.damage === 'quote') t = t.replace(/"/g, '“');
        if (k === 0 && c.damage === 'random') t = 'zzz';
        out.push((c.ops[k] === '+' ? ' ' : c.ops[k]) + t);
      });
      for (const a of c.added) out.push('+' + a);
      return out;
    });
  return fc
    .tuple(
      fc.boolean(),
      fc.array(fc.oneof({ weight: 3, arbitrary: chunk }, { weight: 1, arbitrary: fc.array(replyLine, { maxLength: 3 }) }), { maxLength: 5 }),
      fc.boolean(),
      fc.constantFrom('\n', '\r\n'),
    )
    .map(([begin, parts, end, eol]) => [...(begin ? ['*** Begin Patch'] : []), ...parts.flat(), ...(end ? ['*** End Patch'] : [])].join(eol));
};

/** File lines, with a good chance of lines that repeat (for ambiguous chunks). */
const fileOrRepeated: fc.Arbitrary<string> = fc.oneof({ weight: 3, arbitrary: patchLine }, { weight: 1, arbitrary: fc.constantFrom('}', '    return x') });

const smallFiles: fc.Arbitrary<Record<string, string>> = fc
  .uniqueArray(fc.constantFrom(...PATHS), { minLength: 0, maxLength: 3 })
  .chain((paths) =>
    fc.tuple(...paths.map(() => fc.tuple(fc.array(fileOrRepeated, { maxLength: 15 }), fc.constantFrom('\n', '\r\n')))).map((contents) =>
      Object.fromEntries(paths.map((p, k) => [p, contents[k][0].join(contents[k][1]) + contents[k][1]])),
    ),
  );

describe('apply-patch garbage replies', () => {
  it('random text never throws and changes no file', () => {
    fc.assert(
      fc.property(smallFiles, fc.oneof(fc.string({ maxLength: 200 }), fc.string({ unit: 'grapheme', maxLength: 100 })), (files, reply) => {
        const r = apply(files, reply);
        checkInvariants(files, reply, r);
        if (!reply.includes('***')) assert.deepEqual(r.files, files);
      }),
      { numRuns: 500 * SCALE },
    );
  });

  it('patch-shaped replies keep the invariants and reach the interesting outcomes', () => {
    const seen = new Set<string>();
    fc.assert(
      fc.property(smallFiles.chain((files) => fc.tuple(fc.constant(files), patchish(files))), ([files, reply]) => {
        const r = apply(files, reply);
        checkInvariants(files, reply, r);
        for (const e of r.edits) seen.add(e.status === 'applied' ? `applied ${e.match}` : `failed ${e.code}`);
      }),
      // A fixed seed: the coverage check below must not depend on luck.
      { numRuns: 500 * SCALE, seed: 99 },
    );
    for (const key of ['applied exact', 'applied whitespace', 'failed no-match', 'failed ambiguous', 'failed malformed', 'failed truncated']) {
      assert.ok(seen.has(key), `no ${key} edit in the run: ${show([...seen])}`);
    }
  });
});

// ---------------------------------------------------------------------------
// Truncation.

describe('apply-patch truncated replies', () => {
  it('a reply cut anywhere applies only edits the whole reply applies, at the same place; at most the last is truncated', () => {
    fc.assert(
      fc.property(manyFiles(fileVersion(fc.array(patchLine, { maxLength: 10 })), 2), ([paths, vs]) => {
        const files = Object.fromEntries(paths.map((p, k) => [p, vs[k].before]));
        const reply = applyPatch.write(paths.map((file, k) => ({ file, before: vs[k].before, after: vs[k].after })));
        const full = apply(files, reply);
        for (let cut = 0; cut < reply.length; cut++) {
          const prefix = reply.slice(0, cut);
          const r = apply(files, prefix);
          const where = `cut at ${cut}: ${show(prefix.slice(-40))}`;
          assert.ok(r.edits.length <= full.edits.length, where);
          r.edits.forEach((e, k) => {
            if (e.status === 'applied') {
              assert.deepEqual(e.range, full.edits[k].range, where);
              assert.equal(e.file, full.edits[k].file, where);
            } else {
              assert.equal(e.code, 'truncated', `${where}: ${e.message}`);
              assert.equal(k, r.edits.length - 1, where);
            }
          });
          // A reply cut before its end marker never passes for a complete one.
          if (prefix.includes('*** Begin Patch') && cut < reply.length - 1)
            assert.ok(!r.ok || r.diagnostics.some((d) => d.code === 'truncated'), where);
        }
      }),
      { numRuns: 60 * SCALE },
    );
  });
});
