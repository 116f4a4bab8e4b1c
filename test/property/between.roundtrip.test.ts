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
import { parseText } from '../../src/core/text.ts';
import type { FileChange } from '../../src/core/types.ts';
import { between } from '../../src/formats/between/index.ts';
import { TAG } from '../../src/formats/between/syntax.ts';
import { UnwritableChange } from '../../src/formats/between/write.ts';
import { MARKERS, PATHS, afters, befores, changesOf, codeLine, fileLine, line, linesReply, manyFiles, piecesReply, style, textFiles, version, versionOf } from './arbitraries.ts';
import { RUNS, SCALE, applier, byKind, checkAppliedAsFull, checkGarbage, checkOneFileRoundTrip, checkInvariants, forEachCut, refusedAsOtherFormat, type InvariantOptions } from './invariants.ts';

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

const betweenVersion = versionOf(betweenLine, 30);

const apply = applier('between');

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
    const written = checkOneFileRoundTrip(between, betweenVersion, {
      write: (v) => {
        const reply = tryWrite([{ file: 'f.txt', before: v.before, after: v.after }]);
        return reply === null || refusedAsOtherFormat(apply, { 'f.txt': v.before }, reply) ? null : reply;
      },
      warning: (w) => w.code === 'deterministic-merge' || w.code === 'ambiguous-structure',
      edit: (e) => assert.equal(e.warnings.some((w) => w.code === 'deterministic-merge'), e.kind === 'replace'),
    });
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
      fc.property(manyFiles(betweenVersion, 4), ([paths, versions]) => {
        const reply = tryWrite(changesOf(paths, versions));
        if (reply === null || refusedAsOtherFormat(apply, befores(paths, versions), reply)) return;
        const r = apply(befores(paths, versions), reply);
        assert.deepEqual(r.files, afters(paths, versions), `reply:\n${reply}`);
        assert.equal(r.ok, true);
      }),
      { numRuns: RUNS },
    );
  });
});

// ---------------------------------------------------------------------------
// Garbage in: never throws, changes only what it says it changed.

/** Only an applied write creates a file, and a @BETWEEN@ edit keeps its anchors: the lines just outside its range are the quoted ones. */
const invariants: InvariantOptions = {
  creates: ['write'],
  file: (_path, mine, original, parsed) => {
    for (const e of mine) {
      if (e.kind !== 'replace') continue;
      const [a, b] = parsed.edits[e.index].old;
      assert.equal(original.lines[e.range!.start - 2].trim(), a.trim());
      assert.equal(original.lines[e.range!.end].trim(), b.trim());
    }
  },
};

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

describe('between garbage replies', () => {
  it('never throw, and files change only by the applied edits, anchors kept', () => {
    checkGarbage(between, {
      files: textFiles(fc.oneof(betweenLine, codeLine, fc.constantFrom('}', '  }', 'return x;')), 12),
      reply: (files) => fc.oneof(fc.string({ maxLength: 200 }), linesReply(replyLine, 30), piecesReply(blockish(files), replyLine, 4, false)),
      numRuns: 1000 * SCALE,
      invariants,
      key: byKind,
      expected: ['applied replace', 'applied write', 'failed truncated', 'failed malformed', 'failed ambiguous', 'failed no-match', 'failed ambiguous-end'],
    });
  });
});

// ---------------------------------------------------------------------------
// Truncation: a cut reply applies complete snippets only.

describe('between truncated replies', () => {
  it('a reply cut at any position applies a prefix of the full reply\'s edits, then at most one truncated', () => {
    fc.assert(
      fc.property(manyFiles(betweenVersion, 3), ([paths, versions]) => {
        const files = befores(paths, versions);
        const reply = tryWrite(changesOf(paths, versions));
        if (reply === null || refusedAsOtherFormat(apply, files, reply)) return;
        const full = apply(files, reply);
        const fullParsed = between.parse(reply, { files: paths });
        forEachCut(reply, 0, 30, (prefix, _cut, where) => {
          // A cut can leave a text that another format reads as its own edit: refused, and nothing written.
          if (refusedAsOtherFormat(apply, files, prefix)) return;
          const r = apply(files, prefix);
          checkInvariants(between, files, prefix, r, invariants);
          checkAppliedAsFull(between, paths, full, fullParsed, prefix, r, where);
        });
      }),
      { numRuns: 60 * SCALE },
    );
  });
});
