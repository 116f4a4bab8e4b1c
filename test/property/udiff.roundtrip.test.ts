// Properties of the udiff pipeline: writer -> reply -> parser -> matcher ->
// applier.
//
// - round trip: the written diff applied to `before` gives `after` byte for
//   byte, for changed, created and deleted files;
// - garbage: any reply is read without throwing, and a file changes only
//   through the edits reported as applied;
// - truncation: a fenced diff cut anywhere never applies part of a hunk.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { CODES } from '../../src/core/diagnostics.ts';
import { applySplices, formatText, parseText } from '../../src/core/text.ts';
import type { ApplyResult, Span, Edit, FileChange } from '../../src/core/types.ts';
import { applyRequest } from '../../src/formats/index.ts';
import { udiff } from '../../src/formats/udiff/index.ts';
import { PATHS, build, fileLine, fitLines, lineEdit, version, type Version } from './arbitraries.ts';

const SCALE = Number(process.env.PROPERTY_RUNS_SCALE ?? 1);
const RUNS = 300 * SCALE;

/** Lines that look like unified-diff syntax, in files and in replies. */
export const DIFF_MARKERS = [
  '--- a/x.txt',
  '+++ b/x.txt',
  '-- x',
  '++ y',
  '---',
  '+++',
  '@@ -1,2 +1,2 @@',
  '@@ ... @@',
  '@@',
  '\\ No newline at end of file',
  '\\',
  'diff --git a/x b/x',
  'index 83db48f..bf269f4 100644',
  '```',
  '```diff',
  '~~~',
  ' ',
  '-',
  '+',
  '/dev/null',
];

const diffLine: fc.Arbitrary<string> = fc.oneof(
  { weight: 4, arbitrary: fileLine },
  { weight: 1, arbitrary: fc.constantFrom(...DIFF_MARKERS) },
  { weight: 1, arbitrary: fc.tuple(fc.constantFrom(' ', '-', '+', '\\', '@@ '), fileLine).map(([p, l]) => p + l) },
);

const diffVersion: fc.Arbitrary<Version> = fc
  .tuple(
    fc.array(diffLine, { maxLength: 30 }),
    fc.array(lineEdit.map((e) => ({ ...e, insert: e.insert.map((l, k) => (k % 2 ? l : `${l}`)) })), { maxLength: 5 }),
    fc.record({ eol: fc.constantFrom<'\n' | '\r\n'>('\n', '\r\n'), bom: fc.boolean(), final: fc.boolean() }),
    fc.array(diffLine, { maxLength: 3 }),
  )
  .map(([b, e, s, extra]) => version(b, e.map((x, k) => (k === 0 ? { ...x, insert: [...x.insert, ...extra] } : x)), s));

/** A new file: LF, a final newline, no BOM (what an edit can create). */
const newText: fc.Arbitrary<string> = fc.array(diffLine, { maxLength: 12 }).map((ls) => build(fitLines(ls, { eol: '\n', bom: false, final: true }), { eol: '\n', bom: false, final: true }));

function apply(files: Record<string, string>, response: string): ApplyResult {
  return applyRequest({ format: 'udiff', files, response });
}

const show = (v: unknown) => JSON.stringify(v);

describe('udiff round trip: write(before, after) applied to before gives after', () => {
  it('one file', () => {
    fc.assert(
      fc.property(diffVersion, (v) => {
        const reply = udiff.write([{ file: 'f.txt', before: v.before, after: v.after }]);
        const r = apply({ 'f.txt': v.before }, reply);
        assert.equal(r.files['f.txt'], v.after, `reply:\n${reply}\nedits: ${show(r.edits)}`);
        assert.equal(r.ok, true, show(r.edits));
        for (const e of r.edits) {
          assert.equal(e.status, 'applied');
          assert.equal(e.match, 'exact');
          assert.equal(e.code, null);
          assert.deepEqual(e.warnings, []);
        }
        assert.deepEqual(r.diagnostics.map((d) => d.code), v.before === v.after ? ['no-edits'] : []);
      }),
      { numRuns: RUNS },
    );
  });

  it('several files, created and deleted ones too, in a fence or bare', () => {
    const change = fc.oneof(
      { weight: 3, arbitrary: diffVersion.map((v) => ({ before: v.before as string | null, after: v.after as string | null })) },
      { weight: 1, arbitrary: newText.map((t) => ({ before: null, after: t })) },
      { weight: 1, arbitrary: diffVersion.map((v) => ({ before: v.before, after: null })) },
    );
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.constantFrom(...PATHS), { minLength: 1, maxLength: 4 }).chain((paths) =>
          fc.tuple(fc.constant(paths), fc.array(change, { minLength: paths.length, maxLength: paths.length })),
        ),
        fc.boolean(),
        ([paths, versions], fenced) => {
          const changes: FileChange[] = paths.map((file, k) => ({ file, ...versions[k] }));
          const written = udiff.write(changes);
          const reply = fenced ? `Here you go:\n\n\`\`\`diff\n${written}\`\`\`\n\nDone.` : written;
          const files = Object.fromEntries(changes.filter((c) => c.before !== null).map((c) => [c.file, c.before as string]));
          const r = apply(files, reply);
          const expected: Record<string, string | null> = { ...files };
          for (const c of changes) if (c.before !== c.after) expected[c.file] = c.after;
          assert.deepEqual(r.files, expected, `reply:\n${reply}\nedits: ${show(r.edits)}`);
          assert.equal(r.ok, true, show(r.edits));
        },
      ),
      { numRuns: RUNS },
    );
  });
});

// ---------------------------------------------------------------------------

/** What a file is after its applied edits, recomputed from the parse: the engine must agree. */
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
  const parsed = udiff.parse(reply, { files: Object.keys(files) });
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
  for (const path of new Set([...Object.keys(files), ...Object.keys(r.files)])) {
    const mine = applied.filter((e) => e.file === path);
    if (mine.length === 0) {
      assert.equal(r.files[path], files[path], `${path} changed without an applied edit`);
      continue;
    }
    if (mine.some((e) => e.kind === 'delete')) {
      assert.equal(r.files[path], null);
      continue;
    }
    const original = parseText(files[path] ?? '');
    const edits: Edit[] = mine.map((e) => parsed.edits[e.index]);
    const splices = mine.map((e, k) => {
      const edit = edits[k];
      const actual = original.lines.slice(e.range!.start - 1, e.range!.end);
      const lines = edit.keep ? edit.new.map((l, i) => (edit.keep![i] === null ? l : actual[edit.keep![i]!])) : edit.new;
      return { from: e.range!.start - 1, to: e.range!.end, lines };
    });
    const spliced = applySplices(original, splices);
    const fn = edits.find((e) => e.finalNewline !== undefined)?.finalNewline;
    if (fn !== undefined && spliced.lines.length) spliced.eols[spliced.eols.length - 1] = fn ? (spliced.eols[spliced.eols.length - 1] || (spliced.eols.includes('\r\n') && !spliced.eols.includes('\n') ? '\r\n' : '\n')) : '';
    const got = r.files[path];
    if (fn === true) assert.equal(got?.replace(/\r?\n$/, ''), formatText(spliced).replace(/\r?\n$/, ''), `${path} is not its applied edits`);
    else assert.equal(got, formatText(spliced), `${path} is not its applied edits`);
  }
}

const smallFiles: fc.Arbitrary<Record<string, string>> = fc
  .uniqueArray(fc.constantFrom(...PATHS), { maxLength: 3 })
  .chain((paths) =>
    fc.tuple(...paths.map(() => fc.tuple(fc.array(diffLine, { maxLength: 15 }), fc.constantFrom('\n', '\r\n'), fc.boolean()))).map((contents) =>
      Object.fromEntries(paths.map((p, k) => [p, contents[k][0].join(contents[k][1]) + (contents[k][2] ? contents[k][1] : '')])),
    ),
  );

/** Something shaped like a diff for the files: headers, hunks cut from the real lines, damage. */
const diffish = (files: Record<string, string>): fc.Arbitrary<string> => {
  const paths = Object.keys(files);
  const hunk = fc
    .record({
      file: paths.length ? fc.constantFrom(...paths) : fc.constant('a.txt'),
      header: fc.constantFrom('git', 'plain', 'none', 'devnull-old', 'devnull-new', 'bad'),
      numbered: fc.boolean(),
      shift: fc.constantFrom(0, 0, 0, 1, -2, 7, 80),
      at: fc.nat(),
      count: fc.integer({ min: 0, max: 4 }),
      removeMask: fc.array(fc.boolean(), { minLength: 4, maxLength: 4 }),
      added: fc.array(diffLine, { maxLength: 3 }),
      damage: fc.constantFrom('none', 'none', 'typo', 'blank', 'noprefix', 'trailing'),
      noeol: fc.constantFrom(false, false, false, true),
    })
    .map((h) => {
      const lines = parseText(files[h.file] ?? '').lines;
      const from = lines.length ? h.at % lines.length : 0;
      const old = lines.slice(from, from + h.count);
      const body = old.map((l, k) => (h.removeMask[k] ? '-' : ' ') + l);
      body.push(...h.added.map((l) => '+' + l));
      if (body.length && h.damage !== 'none') {
        const k = h.at % body.length;
        body[k] =
          h.damage === 'typo' ? body[k].slice(0, -1) + '?' : h.damage === 'blank' ? '' : h.damage === 'noprefix' ? body[k].slice(1) : body[k] + '  ';
      }
      if (h.noeol) body.push('\\ No newline at end of file');
      const oldCount = body.filter((l) => l[0] === ' ' || l[0] === '-').length;
      const newCount = body.filter((l) => l[0] === ' ' || l[0] === '+').length;
      const start = Math.max(0, from + 1 + h.shift);
      const head = h.numbered ? `@@ -${start},${oldCount} +${start},${newCount} @@` : '@@ ... @@';
      const out: string[] = [];
      if (h.header === 'git') out.push(`--- a/${h.file}`, `+++ b/${h.file}`);
      if (h.header === 'plain') out.push(`--- ${h.file}`, `+++ ${h.file}`);
      if (h.header === 'devnull-old') out.push('--- /dev/null', `+++ b/${h.file}`);
      if (h.header === 'devnull-new') out.push(`--- a/${h.file}`, '+++ /dev/null');
      if (h.header === 'bad') out.push('--- ../up.txt', '+++ /etc/passwd');
      out.push(head, ...body);
      return out;
    });
  return fc
    .tuple(
      fc.array(fc.oneof({ weight: 3, arbitrary: hunk }, { weight: 1, arbitrary: fc.array(diffLine, { maxLength: 3 }) }), { maxLength: 5 }),
      fc.constantFrom('\n', '\r\n'),
      fc.constantFrom('bare', 'fenced', 'open'),
    )
    .map(([parts, eol, wrap]) => {
      const body = parts.flat();
      const rows = wrap === 'bare' ? body : wrap === 'fenced' ? ['```diff', ...body, '```'] : ['```diff', ...body];
      return rows.join(eol);
    });
};

describe('udiff garbage replies', () => {
  it('never throw, and files change only by the applied edits', () => {
    const seen = new Map<string, number>();
    fc.assert(
      fc.property(
        smallFiles.chain((files) => fc.tuple(fc.constant(files), fc.oneof(fc.string({ maxLength: 200 }), diffish(files)))),
        ([files, reply]) => {
          const r = apply(files, reply);
          checkInvariants(files, reply, r);
          for (const e of r.edits) {
            const key = e.status === 'applied' ? `applied ${e.kind} ${e.match}` : `failed ${e.code}`;
            seen.set(key, (seen.get(key) ?? 0) + 1);
          }
        },
      ),
      { numRuns: 500 * SCALE },
    );
    if (process.env.PROPERTY_STATS) console.log(seen);
    for (const key of ['applied replace exact', 'applied replace offset', 'failed malformed', 'failed no-match', 'failed truncated']) {
      assert.ok(seen.has(key), `no ${key} edit in the run: ${show([...seen])}`);
    }
  });
});

describe('udiff truncated replies', () => {
  it('a fenced diff cut anywhere never applies part of a hunk', () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.constantFrom(...PATHS), { minLength: 1, maxLength: 2 }).chain((paths) =>
          fc.tuple(fc.constant(paths), fc.array(diffVersion, { minLength: paths.length, maxLength: paths.length }), fc.boolean()),
        ),
        ([paths, versions, create]) => {
          const changes: FileChange[] = paths.map((file, k) => ({ file, before: create && k === 0 ? null : versions[k].before, after: versions[k].after }));
          const files = Object.fromEntries(changes.filter((c) => c.before !== null).map((c) => [c.file, c.before as string]));
          const reply = '```diff\n' + udiff.write(changes) + '```\n';
          const full = apply(files, reply);
          assert.equal(full.ok, true);
          const fullParse = udiff.parse(reply, { files: paths });
          for (let cut = 0; cut < reply.length - 4; cut++) {
            const prefix = reply.slice(0, cut);
            const r = apply(files, prefix);
            const parsed = udiff.parse(prefix, { files: paths });
            r.edits.forEach((e, k) => {
              if (e.status !== 'applied') return;
              const want = full.edits[k];
              assert.deepEqual([e.file, e.kind, e.range], [want.file, want.kind, want.range], `cut at ${cut}: ${show(prefix.slice(-40))}`);
              assert.deepEqual(parsed.edits[k].new, fullParse.edits[k].new, `cut at ${cut}: a partial hunk applied`);
            });
            // A hunk that had started when the reply was cut is not applied: the fence is still open.
            const open = full.edits.filter((e) => e.kind === 'replace' || e.kind === 'insert').find((e) => e.reply.from < cut && cut <= e.reply.to + 1);
            if (open) assert.ok(r.edits.every((e) => e.status !== 'applied' || e.reply.to < open.reply.from), `cut at ${cut}: ${show(prefix.slice(-40))}`);
          }
        },
      ),
      { numRuns: 60 * SCALE },
    );
  });
});
