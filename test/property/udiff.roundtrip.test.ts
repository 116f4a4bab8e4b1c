// Properties of the udiff pipeline: writer -> reply -> parser -> matcher ->
// applier.
//
// - round trip: the written diff applied to `before` gives `after` byte for
//   byte, for changed, created and deleted files (a deleted file has lines:
//   a deletion quotes them, and one that quotes none is refused);
// - garbage: any reply is read without throwing, and a file changes only
//   through the edits reported as applied;
// - truncation: a fenced diff cut anywhere never applies part of a hunk.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { parseText } from '../../src/core/text.ts';
import type { FileChange } from '../../src/core/types.ts';
import { udiff } from '../../src/formats/udiff/index.ts';
import { PATHS, build, fileLine, fitLines, lineEdit, manyFiles, textFiles, unplaceheld, version, type Version } from './arbitraries.ts';
import { RUNS, SCALE, applier, checkAppliedAsFull, checkGarbage, checkOneFileRoundTrip, forEachCut, show } from './invariants.ts';

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
const newText: fc.Arbitrary<string> = fc.array(diffLine, { maxLength: 12 }).map((ls) => build(fitLines(unplaceheld(ls), { eol: '\n', bom: false, final: true }), { eol: '\n', bom: false, final: true }));

const apply = applier('udiff');

describe('udiff round trip: write(before, after) applied to before gives after', () => {
  it('one file', () => {
    checkOneFileRoundTrip(udiff, diffVersion);
  });

  it('several files, created and deleted ones too, in a fence or bare', () => {
    const change = fc.oneof(
      { weight: 3, arbitrary: diffVersion.map((v) => ({ before: v.before as string | null, after: v.after as string | null })) },
      { weight: 1, arbitrary: newText.map((t) => ({ before: null, after: t })) },
      // (A file with no lines cannot be deleted: a deletion must quote the file's lines, see the spec.)
      { weight: 1, arbitrary: diffVersion.filter((v) => parseText(v.before).lines.length > 0).map((v) => ({ before: v.before, after: null })) },
    );
    fc.assert(
      fc.property(
        manyFiles(change, 4),
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
    checkGarbage(udiff, {
      files: textFiles(diffLine, 15),
      reply: (files) => fc.oneof(fc.string({ maxLength: 200 }), diffish(files)),
      numRuns: 500 * SCALE,
      // A hunk against an empty range (`@@ -0,0 ...`) creates a missing file, as a write does.
      invariants: {
        creates: ['insert', 'append', 'write'],
        // A hunk placed with its indentation changed (spec/matching.md, Indentation) writes its added lines re-indented
        // through the evidence: such a file equals the recomputed one line for line but for leading blanks.
        compare: (got, want, mine) => {
          if (!mine.some((e) => e.match === 'whitespace' && /with the indentation changed/.test(e.message))) return assert.equal(got, want);
          const unindent = (t: string) => t.split('\n').map((l) => l.replace(/^[ \t]+/, ''));
          assert.deepEqual(unindent(got ?? ''), unindent(want));
        },
      },
      key: (e) => (e.status === 'applied' ? `applied ${e.kind} ${e.match}` : `failed ${e.code}`),
      expected: ['applied replace exact', 'applied replace offset', 'failed malformed', 'failed no-match', 'failed truncated'],
    });
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
          forEachCut(reply, 5, 40, (prefix, cut, where) => {
            const r = apply(files, prefix);
            checkAppliedAsFull(udiff, paths, full, fullParse, prefix, r, where, false);
            // A hunk that had started when the reply was cut is not applied: the fence is still open.
            const open = full.edits.filter((e) => e.kind === 'replace' || e.kind === 'insert').find((e) => e.reply.from < cut && cut <= e.reply.to + 1);
            if (open) assert.ok(r.edits.every((e) => e.status !== 'applied' || e.reply.to < open.reply.from), where);
          });
        },
      ),
      { numRuns: 60 * SCALE },
    );
  });
});
