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
import { parseText, type TextFile } from '../../src/core/text.ts';
import type { Edit, EditResult, FileChange } from '../../src/core/types.ts';
import { prose, udiffx } from '../../src/formats/udiffx/index.ts';
import { build, fileLine, lineEdit, manyFiles, textFiles, version, type Version } from './arbitraries.ts';
import { RUNS, SCALE, applier, byKind, checkAppliedAsFull, checkGarbage, forEachCut, show } from './invariants.ts';

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
  '</FILE_NEW>',
  '<FILE_APPEND path="a.txt">',
  '</FILE_APPEND>',
  '~~~~',
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

/** Whether a text holds the closing tag, or a line starting with a tag, of directive `name`. */
const holdsTag = (t: string, name: string) => t.includes(`</${name}>`) || new RegExp(`(?:^|\\n)[ \\t]*<${name}[\\s/>]`).test(t);

/**
 * A new file (LF, final newline, no BOM) that FILE_NEW or FILE_APPEND can
 * carry: not the tags of both (fences, and the tags of one, are written).
 */
const newText: fc.Arbitrary<string> = fc
  .array(xLine, { maxLength: 12 })
  .map((ls) => build(ls, { eol: '\n', bom: false, final: true }))
  .filter((t) => !(holdsTag(t, 'FILE_NEW') && holdsTag(t, 'FILE_APPEND')));

const apply = applier('udiffx');

const changeArb = fc.oneof(
  { weight: 3, arbitrary: xVersion.map((v) => ({ before: v.before as string | null, after: v.after as string | null })) },
  { weight: 1, arbitrary: newText.map((t) => ({ before: null as string | null, after: t as string | null })) },
  { weight: 1, arbitrary: xVersion.map((v) => ({ before: v.before as string | null, after: null as string | null })) },
);

const manyChanges = manyFiles(changeArb, 4).map(([paths, cs]) => paths.map((file, k): FileChange => ({ file, ...cs[k] })));

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

/**
 * The new lines of a udiffx hunk at its reported range: context lines are
 * the file's; after a `~` range removal (`meta.gap`) they are counted from
 * the range's end; blank context lines past the file's end are not written.
 */
const udiffxLines = (edit: Edit, e: EditResult, original: TextFile): string[] => {
  if (!edit.keep) return edit.new;
  const actual = original.lines.slice(e.range!.start - 1, e.range!.end);
  const gap = edit.meta?.gap;
  return edit.new.flatMap((line, i) => {
    const j = edit.keep![i];
    if (j === null) return [line];
    const k = typeof gap === 'number' && j >= gap ? actual.length - (edit.old.length - j) : j;
    return k < actual.length ? [actual[k]] : [];
  });
};

describe('udiffx garbage replies', () => {
  it('never throw, and files change only by the applied edits', () => {
    checkGarbage(udiffx, {
      files: textFiles(xLine, 12),
      reply: (files) => fc.oneof(fc.string({ maxLength: 200 }), envelopeish(files)),
      numRuns: 500 * SCALE,
      // A hunk against a missing file creates it, as FILE_NEW and FILE_APPEND do.
      invariants: { creates: ['insert', 'append', 'write'], newLines: udiffxLines },
      check: (_files, reply) => assert.doesNotThrow(() => prose(reply)),
      key: byKind,
      expected: ['applied replace', 'applied write', 'applied delete', 'failed malformed', 'failed unsafe-path', 'failed truncated', 'failed no-match'],
    });
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
          forEachCut(reply, 1, 40, (prefix, _cut, where) => {
            checkAppliedAsFull(udiffx, Object.keys(files), full, fullParse, prefix, apply(files, prefix), where, false);
          });
        },
      ),
      { numRuns: 60 * SCALE },
    );
  });
});
