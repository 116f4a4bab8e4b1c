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
import { applyPatch } from '../../src/formats/apply-patch/index.ts';
import { befores, build, changesOf, fileLine, fileVersion, line, manyFiles, textFiles } from './arbitraries.ts';
import { RUNS, SCALE, applier, byMatch, checkAppliedAsFull, checkGarbage, checkOneFileRoundTrip, forEachCut, show, type InvariantOptions } from './invariants.ts';


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

const apply = applier('apply-patch');

describe('apply-patch round trip: write(before, after) applied to before gives after', () => {
  it('one file', () => {
    checkOneFileRoundTrip(applyPatch, versions);
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

/** Only an applied write (`*** Add File`) creates a file, besides a `*** Move to` target. */
const invariants: InvariantOptions = { creates: ['write'] };

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

const smallFiles = textFiles(fileOrRepeated, 15, true);

describe('apply-patch garbage replies', () => {
  it('random text never throws and changes no file', () => {
    checkGarbage(applyPatch, {
      files: smallFiles,
      reply: () => fc.oneof(fc.string({ maxLength: 200 }), fc.string({ unit: 'grapheme', maxLength: 100 })),
      numRuns: 500 * SCALE,
      invariants,
      check: (files, reply, r) => {
        if (!reply.includes('***')) assert.deepEqual(r.files, files);
      },
    });
  });

  it('patch-shaped replies keep the invariants and reach the interesting outcomes', () => {
    checkGarbage(applyPatch, {
      files: smallFiles,
      reply: patchish,
      // A fixed seed: the coverage check must not depend on luck.
      numRuns: 500 * SCALE,
      seed: 99,
      invariants,
      key: byMatch,
      expected: ['applied exact', 'applied whitespace', 'failed no-match', 'failed ambiguous', 'failed malformed', 'failed truncated'],
    });
  });
});

// ---------------------------------------------------------------------------
// Truncation.

describe('apply-patch truncated replies', () => {
  it('a reply cut anywhere applies only edits the whole reply applies, at the same place; at most the last is truncated', () => {
    fc.assert(
      fc.property(manyFiles(fileVersion(fc.array(patchLine, { maxLength: 10 })), 2), ([paths, vs]) => {
        const files = befores(paths, vs);
        const reply = applyPatch.write(changesOf(paths, vs));
        const full = apply(files, reply);
        const fullParse = applyPatch.parse(reply, { files: paths });
        forEachCut(reply, 1, 40, (prefix, cut, where) => {
          const r = apply(files, prefix);
          checkAppliedAsFull(applyPatch, paths, full, fullParse, prefix, r, where);
          // A reply cut before its end marker never passes for a complete one.
          if (prefix.includes('*** Begin Patch') && cut < reply.length - 1) assert.ok(!r.ok || r.diagnostics.some((d) => d.code === 'truncated'), where);
        });
      }),
      { numRuns: 60 * SCALE },
    );
  });
});
