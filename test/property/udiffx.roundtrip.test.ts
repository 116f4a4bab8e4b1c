// Properties of the udiffx pipeline: writer -> reply -> parser -> matcher ->
// applier.
//
// - round trip: the written envelope applied to `before` gives `after` byte
//   for byte, for changed, created and deleted files, with prose around;
// - garbage: any reply is read without throwing, and a file changes only
//   through the edits reported as applied;
// - truncation: a reply cut anywhere never applies part of a directive.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { CODES } from '../../src/core/diagnostics.ts';
import { applySplices, formatText, parseText } from '../../src/core/text.ts';
import type { ApplyResult, Span, FileChange } from '../../src/core/types.ts';
import { applyRequest } from '../../src/formats/index.ts';
import { prose, udiffx } from '../../src/formats/udiffx/index.ts';
import { PATHS, build, fileLine, lineEdit, version, type Version } from './arbitraries.ts';

const SCALE = Number(process.env.PROPERTY_RUNS_SCALE ?? 1);
const RUNS = 300 * SCALE;

/** Lines that look like udiffx syntax (and unified-diff syntax), in files and in replies. */
const MARKERS = [
  '<FILE_CHANGES>',
  '</FILE_CHANGES>',
  '<FILE_PATCH path="a.txt">',
  '</FILE_PATCH>',
  ' </FILE_PATCH>',
  '<FILE_NEW path="a.txt">',
  '<FILE_DELETE path="a.txt"/>',
  '<FILE_RENAME from="a.txt" to="b.txt"/>',
  '<FILE_CONTENT path="a.txt">',
  '</FILE_NEW',
  '@@ -1,2 +1,2 @@',
  '@@ ... @@',
  '@@',
  '--- a/x.txt',
  '+++ b/x.txt',
  '-- x',
  '++ y',
  '\\ No newline at end of file',
  '```',
  '```xml',
  ' ',
  '-',
  '+',
];

const xLine: fc.Arbitrary<string> = fc.oneof(
  { weight: 4, arbitrary: fileLine },
  { weight: 1, arbitrary: fc.constantFrom(...MARKERS) },
  { weight: 1, arbitrary: fc.tuple(fc.constantFrom(' ', '-', '+', '<', '</'), fc.constantFrom(...MARKERS, 'x')).map(([p, l]) => p + l) },
);

const xVersion: fc.Arbitrary<Version> = fc
  .tuple(
    fc.array(xLine, { maxLength: 25 }),
    fc.array(lineEdit, { maxLength: 5 }),
    fc.record({ eol: fc.constantFrom<'\n' | '\r\n'>('\n', '\r\n'), bom: fc.boolean(), final: fc.boolean() }),
    fc.array(xLine, { maxLength: 3 }),
  )
  .map(([b, e, s, extra]) => version(b, e.map((x, k) => (k === 0 ? { ...x, insert: [...x.insert, ...extra] } : x)), s));

/** A new file (LF, final newline, no BOM) that FILE_NEW can carry: no `</FILE_NEW>` in it. */
const newText: fc.Arbitrary<string> = fc
  .array(xLine, { maxLength: 12 })
  .map((ls) => build(ls, { eol: '\n', bom: false, final: true }))
  .filter((t) => !t.includes('</FILE_NEW>'));

const apply = (files: Record<string, string>, response: string): ApplyResult => applyRequest({ format: 'udiffx', files, response });
const show = (v: unknown) => JSON.stringify(v);

const changeArb = fc.oneof(
  { weight: 3, arbitrary: xVersion.map((v) => ({ before: v.before as string | null, after: v.after as string | null })) },
  { weight: 1, arbitrary: newText.map((t) => ({ before: null as string | null, after: t as string | null })) },
  { weight: 1, arbitrary: xVersion.map((v) => ({ before: v.before as string | null, after: null as string | null })) },
);

const manyChanges = fc
  .uniqueArray(fc.constantFrom(...PATHS), { minLength: 1, maxLength: 4 })
  .chain((paths) => fc.tuple(fc.constant(paths), fc.array(changeArb, { minLength: paths.length, maxLength: paths.length })))
  .map(([paths, cs]) => paths.map((file, k): FileChange => ({ file, ...cs[k] })));

const beforeFiles = (changes: FileChange[]) =>
  Object.fromEntries(changes.filter((c) => c.before !== null).map((c) => [c.file, c.before as string]));

describe('udiffx round trip: write(before, after) applied to before gives after', () => {
  it('one changed file', () => {
    fc.assert(
      fc.property(xVersion, (v) => {
        const reply = udiffx.write([{ file: 'f.txt', before: v.before, after: v.after }]);
        const r = apply({ 'f.txt': v.before }, reply);
        assert.equal(r.files['f.txt'], v.after, `reply:\n${reply}\nedits: ${show(r.edits)}`);
        assert.equal(r.ok, true, show(r.edits));
        for (const e of r.edits) {
          assert.deepEqual([e.status, e.match, e.code, e.warnings], ['applied', 'exact', null, []]);
        }
        assert.deepEqual(r.diagnostics.map((d) => d.code), v.before === v.after ? ['no-edits'] : []);
      }),
      { numRuns: RUNS },
    );
  });

  it('several files, created and deleted too, with prose and a fence around', () => {
    fc.assert(
      fc.property(manyChanges, fc.constantFrom('', 'Sure, here it is:\n\n'), fc.boolean(), (changes, intro, fenced) => {
        const written = udiffx.write(changes);
        const reply = written && (fenced ? `${intro}\`\`\`xml\n${written}\`\`\`\nDone.\n` : `${intro}${written}Done.\n`);
        const files = beforeFiles(changes);
        const r = apply(files, reply);
        const expected: Record<string, string | null> = { ...files };
        for (const c of changes) if (c.before !== c.after) expected[c.file] = c.after;
        assert.deepEqual(r.files, expected, `reply:\n${reply}\nedits: ${show(r.edits)}`);
        assert.equal(r.ok, true, show(r.edits));
        if (written) assert.equal(prose(reply), `${intro}Done.\n`);
      }),
      { numRuns: RUNS },
    );
  });
});

// ---------------------------------------------------------------------------

/** Offset -> 1-based line/column, counting `\n` as the line break. */
function positionAt(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let lineStart = 0;
  for (let k = 0; k < offset; k++) {
    if (text.charCodeAt(k) === 10) {
      line++;
      lineStart = k + 1;
    }
  }
  return { line, column: offset - lineStart + 1 };
}

function checkSpan(reply: string, span: Span, what: string): void {
  assert.ok(0 <= span.from && span.from <= span.to && span.to <= reply.length, `${what}: ${show(span)} outside the reply`);
  assert.deepEqual(span.start, positionAt(reply, span.from), `${what}: start of ${show(span)}`);
  assert.deepEqual(span.end, positionAt(reply, span.to), `${what}: end of ${show(span)}`);
}

function checkInvariants(files: Record<string, string>, reply: string, r: ApplyResult): void {
  const parsed = udiffx.parse(reply, { files: Object.keys(files) });
  assert.equal(r.edits.length, parsed.edits.length);
  assert.equal(r.ok, r.edits.every((e) => e.status === 'applied'));
  r.edits.forEach((e, k) => {
    assert.equal(e.index, k);
    if (e.code !== null) assert.ok((CODES as readonly string[]).includes(e.code), e.code);
    checkSpan(reply, e.reply, `edit ${k} span`);
    for (const w of e.warnings) if (w.reply) checkSpan(reply, w.reply, `edit ${k} warning ${w.code}`);
    if (parsed.edits[k].error?.reply) checkSpan(reply, parsed.edits[k].error!.reply!, `edit ${k} error`);
    parsed.edits[k].oldSpans?.forEach((s, j) => checkSpan(reply, s, `edit ${k} old span ${j}`));
    if (e.status === 'failed') {
      assert.equal(e.range, null);
      assert.notEqual(e.code, null);
      assert.ok(e.message.length > 0);
    }
    parsed.edits[k].oldSpans?.forEach((s, j) => assert.equal(reply.slice(s.from, s.to), parsed.edits[k].old[j]));
  });
  for (const d of r.diagnostics) if (d.reply) checkSpan(reply, d.reply, `diagnostic ${d.code}`);
  const applied = r.edits.filter((e) => e.status === 'applied' && e.code !== 'duplicate');
  const touched = new Set<string>();
  for (const e of applied) {
    touched.add(e.file);
    const to = parsed.edits[e.index].moveTo;
    if (to) touched.add(to);
  }
  for (const path of new Set([...Object.keys(files), ...Object.keys(r.files)])) {
    if (!touched.has(path)) {
      assert.equal(r.files[path], files[path], `${path} changed without an applied edit`);
      continue;
    }
    const mine = applied.filter((e) => e.file === path);
    const simple = mine.length > 0 && mine.every((e) => e.kind === 'replace' || e.kind === 'insert') && !applied.some((e) => parsed.edits[e.index].moveTo === path);
    const edits = mine.map((e) => parsed.edits[e.index]);
    if (!simple || edits.some((e) => e.finalNewline !== undefined) || edits.some((e) => e.moveTo)) continue;
    const original = parseText(files[path] ?? "");
    const splices = mine.map((e, k) => {
      const edit = edits[k];
      const actual = original.lines.slice(e.range!.start - 1, e.range!.end);
      const lines = edit.keep ? edit.new.map((l, i) => (edit.keep![i] === null ? l : actual[edit.keep![i]!])) : edit.new;
      return { from: e.range!.start - 1, to: e.range!.end, lines };
    });
    assert.equal(r.files[path], formatText(applySplices(original, splices)), `${path} is not its applied edits`);
  }
}

const smallFiles: fc.Arbitrary<Record<string, string>> = fc
  .uniqueArray(fc.constantFrom(...PATHS), { maxLength: 3 })
  .chain((paths) =>
    fc.tuple(...paths.map(() => fc.tuple(fc.array(xLine, { maxLength: 12 }), fc.constantFrom('\n', '\r\n'), fc.boolean()))).map((contents) =>
      Object.fromEntries(paths.map((p, k) => [p, contents[k][0].join(contents[k][1]) + (contents[k][2] ? contents[k][1] : '')])),
    ),
  );

/** Directive-shaped pieces for the files, some complete, some damaged. */
const envelopeish = (files: Record<string, string>): fc.Arbitrary<string> => {
  const paths = [...Object.keys(files), 'new.txt', '../up.txt', '/abs.txt', ''];
  const directive = fc
    .record({
      kind: fc.constantFrom('NEW', 'PATCH', 'PATCH', 'PATCH', 'APPEND', 'DELETE', 'RENAME', 'COPY'),
      path: fc.constantFrom(...paths),
      to: fc.constantFrom(...paths),
      close: fc.constantFrom(true, true, true, false),
      at: fc.nat(),
      count: fc.integer({ min: 0, max: 3 }),
      numbered: fc.boolean(),
      added: fc.array(xLine, { maxLength: 3 }),
      damage: fc.constantFrom('none', 'none', 'typo', 'noprefix'),
      content: fc.array(xLine, { maxLength: 3 }),
    })
    .map((d) => {
      const attr = d.path ? ` path="${d.path}"` : '';
      switch (d.kind) {
        case 'DELETE':
          return [`<FILE_DELETE${attr}/>`];
        case 'RENAME':
          return [`<FILE_RENAME from="${d.path}" to="${d.to}"/>`];
        case 'COPY':
          return [`<FILE_COPY from="${d.path}" to="${d.to}"/>`];
        case 'NEW':
        case 'APPEND':
          return [`<FILE_${d.kind}${attr}>`, ...d.content, ...(d.close ? [`</FILE_${d.kind}>`] : [])];
        default: {
          const lines = parseText(files[d.path] ?? '').lines;
          const from = lines.length ? d.at % lines.length : 0;
          const body = lines.slice(from, from + d.count).map((l, k) => (k % 2 ? ' ' : '-') + l);
          body.push(...d.added.map((l) => '+' + l));
          if (body.length && d.damage !== 'none') {
            const k = d.at % body.length;
            body[k] = d.damage === 'typo' ? body[k] + '?' : body[k].slice(1);
          }
          const head = d.numbered ? `@@ -${from + 1},${body.length} +${from + 1},${body.length} @@` : '@@';
          return [`<FILE_PATCH${attr}>`, head, ...body, ...(d.close ? ['</FILE_PATCH>'] : [])];
        }
      }
    });
  return fc
    .tuple(
      fc.array(fc.oneof({ weight: 3, arbitrary: directive }, { weight: 1, arbitrary: fc.array(xLine, { maxLength: 2 }) }), { maxLength: 5 }),
      fc.constantFrom('\n', '\r\n'),
      fc.boolean(),
    )
    .map(([parts, eol, closed]) => ['Prose.', '<FILE_CHANGES>', ...parts.flat(), ...(closed ? ['</FILE_CHANGES>'] : [])].join(eol));
};

describe('udiffx garbage replies', () => {
  it('never throw, and files change only by the applied edits', () => {
    const seen = new Map<string, number>();
    fc.assert(
      fc.property(
        smallFiles.chain((files) => fc.tuple(fc.constant(files), fc.oneof(fc.string({ maxLength: 200 }), envelopeish(files)))),
        ([files, reply]) => {
          const r = apply(files, reply);
          checkInvariants(files, reply, r);
          assert.doesNotThrow(() => prose(reply));
          for (const e of r.edits) {
            const key = e.status === 'applied' ? `applied ${e.kind}` : `failed ${e.code}`;
            seen.set(key, (seen.get(key) ?? 0) + 1);
          }
        },
      ),
      { numRuns: 500 * SCALE },
    );
    if (process.env.PROPERTY_STATS) console.log(seen);
    for (const key of ['applied replace', 'applied write', 'applied delete', 'failed malformed', 'failed unsafe-path', 'failed truncated', 'failed no-match']) {
      assert.ok(seen.has(key), `no ${key} edit in the run: ${show([...seen])}`);
    }
  });
});

describe('udiffx truncated replies', () => {
  it('a reply cut anywhere applies only complete directives and hunks, as the full reply does', () => {
    fc.assert(
      fc.property(
        manyChanges.map((cs) => cs.slice(0, 2)),
        (changes) => {
          const files = beforeFiles(changes);
          const reply = udiffx.write(changes);
          const full = apply(files, reply);
          assert.equal(full.ok, true);
          const fullParse = udiffx.parse(reply, { files: Object.keys(files) });
          for (let cut = 0; cut < reply.length; cut++) {
            const prefix = reply.slice(0, cut);
            const r = apply(files, prefix);
            const parsed = udiffx.parse(prefix, { files: Object.keys(files) });
            r.edits.forEach((e, k) => {
              if (e.status !== 'applied') return;
              const want = full.edits[k];
              const where = `cut at ${cut}: ${show(prefix.slice(-40))}`;
              assert.deepEqual([e.file, e.kind, e.range], [want.file, want.kind, want.range], where);
              assert.deepEqual(parsed.edits[k].new, fullParse.edits[k].new, `${where}: part of an edit applied`);
              assert.equal(parsed.edits[k].finalNewline, fullParse.edits[k].finalNewline, where);
            });
          }
        },
      ),
      { numRuns: 60 * SCALE },
    );
  });
});
