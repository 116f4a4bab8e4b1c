// Properties of the between format: writer -> reply -> parser -> anchors ->
// applier.
//
// - round trip: writing the change from `before` to `after` and applying the
//   reply to `before` gives `after` byte for byte; the writer refuses exactly
//   the changes whose snippets would hold a tag line;
// - garbage: any reply is read without throwing, and a file changes only by
//   the edits reported as applied, each at its reported range;
// - truncation: a reply cut anywhere applies only complete snippets.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { CODES } from '../../src/core/diagnostics.ts';
import { applySplices, formatText, parseText, type Splice } from '../../src/core/text.ts';
import type { ApplyResult, FileChange } from '../../src/core/types.ts';
import { between } from '../../src/formats/between/index.ts';
import { TAG } from '../../src/formats/between/syntax.ts';
import { UnwritableChange } from '../../src/formats/between/write.ts';
import { applyRequest } from '../../src/formats/index.ts';
import { MARKERS, PATHS, codeLine, fileLine, line, style, version, type LineEdit, type Version } from './arbitraries.ts';

const SCALE = Number(process.env.PROPERTY_RUNS_SCALE ?? 1);
const RUNS = 300 * SCALE;

/** Lines that look like the format's syntax: tags, quoted anchors, fences. */
const BETWEEN_MARKERS = [
  '@BETWEEN@ "a" AND "b"', '@WHOLE FILE@', '  @BETWEEN@', '@X@', '"a" AND "b"', 'x" AND "y', 'say("hi")', '  say("hi")  ',
  '```', '````', '```python', '~~~', '<source>', '</source>', '@Override', '@@ -1 +1 @@', 'AND', '"',
];

const betweenLine: fc.Arbitrary<string> = fc.oneof(
  { weight: 4, arbitrary: fileLine },
  { weight: 2, arbitrary: codeLine },
  { weight: 1, arbitrary: fc.constantFrom(...BETWEEN_MARKERS) },
);

const edits: fc.Arbitrary<LineEdit[]> = fc.array(
  fc.record({ at: fc.nat({ max: 1000 }), remove: fc.nat({ max: 4 }), insert: fc.array(betweenLine, { maxLength: 4 }) }),
  { maxLength: 5 },
);

const betweenVersion: fc.Arbitrary<Version> = fc
  .tuple(fc.array(betweenLine, { maxLength: 30 }), edits, style)
  .map(([b, e, s]) => version(b, e, s));

const apply = (files: Record<string, string>, response: string): ApplyResult => applyRequest({ format: 'between', files, response });
const show = (v: unknown) => JSON.stringify(v);

/** Write, or null when the writer refuses; a refusal must be justified by a tag-like line in `after`. */
function tryWrite(changes: FileChange[]): string | null {
  try {
    return between.write(changes);
  } catch (e) {
    assert.ok(e instanceof UnwritableChange, String(e));
    assert.ok(
      changes.some((c) => c.after !== null && parseText(c.after).lines.some((l) => TAG.test(l))),
      `refused without a tag line in after: ${e.message}`,
    );
    return null;
  }
}

describe('between round trip', () => {
  it('one file: write(before, after) applied to before gives after', () => {
    let written = 0;
    fc.assert(
      fc.property(betweenVersion, (v) => {
        const reply = tryWrite([{ file: 'f.txt', before: v.before, after: v.after }]);
        if (reply === null) return;
        written++;
        const r = apply({ 'f.txt': v.before }, reply);
        assert.equal(r.files['f.txt'], v.after, `reply:\n${reply}\nresult: ${show(r.edits)}`);
        assert.equal(r.ok, true, show(r.edits));
        for (const e of r.edits) {
          assert.equal(e.status, 'applied');
          assert.equal(e.code, null);
          assert.ok(e.match === 'exact', `match ${e.match}`);
          for (const w of e.warnings) assert.ok(w.code === 'deterministic-merge' || w.code === 'ambiguous-structure', w.code);
          assert.equal(e.warnings.some((w) => w.code === 'deterministic-merge'), e.kind === 'replace');
        }
        assert.deepEqual(r.diagnostics.map((d) => d.code), v.before === v.after ? ['no-edits'] : []);
      }),
      { numRuns: RUNS },
    );
    assert.ok(written > RUNS / 2, `only ${written} of ${RUNS} changes were writable`);
  });

  it('uses @BETWEEN@ for changes with unique lines around them', () => {
    // Lines distinct by construction: every change gets anchors, none is written whole.
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.nat({ max: 10_000 }), { minLength: 3, maxLength: 30 }).map((ns) => ns.map((n) => `line ${n}`)),
        fc.nat(),
        fc.array(fc.string({ maxLength: 8 }).map((s) => `new ${s}`), { maxLength: 3 }),
        style,
        (lines, at, insert, s) => {
          const k = 1 + (at % (lines.length - 2));
          const v = version(lines, [{ at: k, remove: 1, insert }], s);
          const reply = between.write([{ file: 'f.txt', before: v.before, after: v.after }]);
          assert.doesNotMatch(reply, /@WHOLE FILE@/);
          const r = apply({ 'f.txt': v.before }, reply);
          assert.equal(r.files['f.txt'], v.after, reply);
          assert.deepEqual(r.edits.map((e) => [e.status, e.range]), [['applied', { start: k + 1, end: k + 1 }]]);
        },
      ),
      { numRuns: RUNS },
    );
  });

  it('several files in one reply', () => {
    fc.assert(
      fc.property(
        fc
          .uniqueArray(fc.constantFrom(...PATHS), { minLength: 1, maxLength: 4 })
          .chain((paths) => fc.tuple(fc.constant(paths), fc.array(betweenVersion, { minLength: paths.length, maxLength: paths.length }))),
        ([paths, versions]) => {
          const reply = tryWrite(paths.map((file, k) => ({ file, before: versions[k].before, after: versions[k].after })));
          if (reply === null) return;
          const r = apply(Object.fromEntries(paths.map((p, k) => [p, versions[k].before])), reply);
          assert.deepEqual(r.files, Object.fromEntries(paths.map((p, k) => [p, versions[k].after])), `reply:\n${reply}`);
          assert.equal(r.ok, true);
        },
      ),
      { numRuns: RUNS },
    );
  });
});

// ---------------------------------------------------------------------------
// Garbage in: never throws, changes only what it says it changed.

function checkInvariants(files: Record<string, string>, reply: string, r: ApplyResult): void {
  const parsed = between.parse(reply, { files: Object.keys(files) });
  assert.equal(r.edits.length, parsed.edits.length);
  assert.equal(r.ok, r.edits.every((e) => e.status === 'applied'));
  r.edits.forEach((e, k) => {
    assert.equal(e.index, k);
    if (e.code !== null) assert.ok((CODES as readonly string[]).includes(e.code), e.code);
    if (e.status === 'failed') {
      assert.equal(e.range, null);
      assert.notEqual(e.code, null);
      assert.ok(e.message.length > 0);
    } else {
      assert.notEqual(e.range, null);
    }
    assert.ok(0 <= e.reply.from && e.reply.from <= e.reply.to && e.reply.to <= reply.length);
    parsed.edits[k].oldSpans?.forEach((s, j) => assert.equal(reply.slice(s.from, s.to), parsed.edits[k].old[j]));
  });
  const applied = r.edits.filter((e) => e.status === 'applied' && e.code !== 'duplicate');
  for (const path of new Set([...Object.keys(files), ...Object.keys(r.files)])) {
    const mine = applied.filter((e) => e.file === path);
    if (mine.length === 0) {
      assert.equal(r.files[path], files[path], `${path} changed without an applied edit`);
      continue;
    }
    if (!Object.hasOwn(files, path)) assert.ok(mine.every((e) => e.kind === 'write'), `${path} created by a non-write`);
    const original = parseText(files[path] ?? '');
    const splices: Splice[] = mine.map((e) => ({ from: e.range!.start - 1, to: e.range!.end, lines: parsed.edits[e.index].new }));
    assert.equal(r.files[path], formatText(applySplices(original, splices)), `${path} is not its applied edits`);
    // A @BETWEEN@ edit keeps its anchors: the lines just outside its range are the quoted ones.
    const lines = original.lines;
    for (const e of mine) {
      if (e.kind !== 'replace') continue;
      const [a, b] = parsed.edits[e.index].old;
      assert.equal(lines[e.range!.start - 2].trim(), a.trim());
      assert.equal(lines[e.range!.end].trim(), b.trim());
    }
  }
}

/** Something shaped like a between block for one of `files`, with anchors mostly taken from the file. */
const blockish = (files: Record<string, string>): fc.Arbitrary<string[]> => {
  const paths = Object.keys(files);
  return fc
    .record({
      file: paths.length ? fc.constantFrom(...paths) : fc.constant('a.txt'),
      path: fc.option(fc.constantFrom('', 'new.txt', '../x.txt', '`src/b.ts`:', 'b.ts'), { freq: 5 }),
      fence: fc.constantFrom('```', '```python', '````', '~~~', '  ```', ' ```js'),
      close: fc.constantFrom(true, true, true, false),
      snippets: fc.array(
        fc.record({
          tag: fc.constantFrom('between', 'between', 'between', 'whole', 'bad', 'unknown'),
          a: fc.nat(),
          b: fc.nat(),
          body: fc.array(betweenLine, { maxLength: 4 }),
        }),
        { minLength: 1, maxLength: 3 },
      ),
    })
    .map((x) => {
      const lines = parseText(files[x.file] ?? '').lines;
      const pick = (n: number) => (lines.length ? lines[n % lines.length] : 'nothing');
      const out: string[] = [x.path === null ? x.file : x.path, x.fence];
      for (const s of x.snippets) {
        if (s.tag === 'between') out.push(`@BETWEEN@ "${pick(s.a).trim()}" AND "${pick(s.a + 1 + (s.b % 3)).trim()}"`);
        else if (s.tag === 'whole') out.push('@WHOLE FILE@');
        else if (s.tag === 'bad') out.push(`@BETWEEN@ '${pick(s.a)}'`);
        else out.push('@MERGE@');
        out.push(...s.body.filter((l) => !TAG.test(l)));
      }
      if (x.close) out.push(x.fence.startsWith('~') ? '~~~' : x.fence.replace(/[a-z]+$/, ''));
      return out;
    });
};

const replyLine: fc.Arbitrary<string> = fc.oneof(fc.constantFrom(...BETWEEN_MARKERS, ...MARKERS), fc.constantFrom(...PATHS), line);

const smallFiles: fc.Arbitrary<Record<string, string>> = fc
  .uniqueArray(fc.constantFrom(...PATHS), { minLength: 0, maxLength: 3 })
  .chain((paths) =>
    fc
      .tuple(...paths.map(() => fc.tuple(fc.array(fc.oneof(betweenLine, codeLine, fc.constantFrom('}', '  }', 'return x;')), { maxLength: 12 }), fc.constantFrom('\n', '\r\n'), fc.boolean())))
      .map((contents) => Object.fromEntries(paths.map((p, k) => [p, contents[k][0].join(contents[k][1]) + (contents[k][2] ? contents[k][1] : '')]))),
  );

describe('between garbage replies', () => {
  it('never throw, and files change only by the applied edits, anchors kept', () => {
    const seen = new Set<string>();
    fc.assert(
      fc.property(
        smallFiles.chain((files) =>
          fc.tuple(
            fc.constant(files),
            fc.oneof(
              fc.string({ maxLength: 200 }),
              fc.tuple(fc.array(replyLine, { maxLength: 30 }), fc.constantFrom('\n', '\r\n')).map(([ls, eol]) => ls.join(eol)),
              fc
                .tuple(fc.array(fc.oneof({ weight: 3, arbitrary: blockish(files) }, { weight: 1, arbitrary: fc.array(replyLine, { maxLength: 3 }) }), { maxLength: 4 }), fc.constantFrom('\n', '\r\n'))
                .map(([parts, eol]) => parts.flat().join(eol)),
            ),
          ),
        ),
        ([files, reply]) => {
          const r = apply(files, reply);
          checkInvariants(files, reply, r);
          for (const e of r.edits) seen.add(e.status === 'applied' ? `applied ${e.kind}` : `failed ${e.code}`);
        },
      ),
      { numRuns: 1000 * SCALE },
    );
    for (const key of ['applied replace', 'applied write', 'failed truncated', 'failed malformed', 'failed ambiguous', 'failed no-match'])
      assert.ok(seen.has(key), `no ${key} in the run: ${show([...seen])}`);
  });
});

// ---------------------------------------------------------------------------
// Truncation: a cut reply applies complete snippets only.

describe('between truncated replies', () => {
  it('a reply cut at any position applies a prefix of the full reply\'s edits, then at most one truncated', () => {
    fc.assert(
      fc.property(
        fc
          .uniqueArray(fc.constantFrom(...PATHS), { minLength: 1, maxLength: 3 })
          .chain((paths) => fc.tuple(fc.constant(paths), fc.array(betweenVersion, { minLength: paths.length, maxLength: paths.length }))),
        ([paths, versions]) => {
          const files = Object.fromEntries(paths.map((p, k) => [p, versions[k].before]));
          const reply = tryWrite(paths.map((file, k) => ({ file, before: versions[k].before, after: versions[k].after })));
          if (reply === null) return;
          const full = apply(files, reply);
          const fullParsed = between.parse(reply, { files: paths });
          for (let cut = 0; cut <= reply.length; cut++) {
            const prefix = reply.slice(0, cut);
            const r = apply(files, prefix);
            const parsed = between.parse(prefix, { files: paths });
            const where = `cut at ${cut}: ${show(prefix.slice(-30))}`;
            checkInvariants(files, prefix, r);
            r.edits.forEach((e, k) => {
              if (e.status === 'applied') {
                assert.deepEqual([e.file, e.range, e.kind], [full.edits[k].file, full.edits[k].range, full.edits[k].kind], where);
                assert.deepEqual(parsed.edits[k].new, fullParsed.edits[k].new, where);
              } else {
                assert.equal(e.code, 'truncated', where);
                assert.equal(k, r.edits.length - 1, where);
              }
            });
          }
        },
      ),
      { numRuns: 60 * SCALE },
    );
  });
});
