// Properties of the whole ln-diff pipeline: writer -> reply -> parser ->
// matcher -> applier.
//
// - round trip: writing the change from `before` to `after` and applying the
//   reply to `before` gives `after` byte for byte;
// - garbage: any reply is read without throwing, and a file changes only
//   through the edits reported as applied;
// - truncation: a reply cut anywhere applies exactly its complete editblocks;
// - damage: shifting the numbers of one editblock either still lands it at
//   the right place or makes it fail, never elsewhere;
// - order and repeats: blocks may come in any order, and a repeated block
//   applies once.
//
// PROPERTY_RUNS_SCALE=20 multiplies every run count, for a longer hunt;
// PROPERTY_STATS=1 prints the outcomes the garbage generator reached.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { reindentedPlaces } from '../../src/core/indent.ts';
import { parseText } from '../../src/core/text.ts';
import { applyRequest } from '../../src/formats/index.ts';
import { lnDiff } from '../../src/formats/ln-diff/index.ts';
import { parseView } from '../../src/formats/ln-diff/syntax.ts';
import {
  MARKERS,
  PATHS,
  afters,
  befores,
  changesOf,
  distinctVersion,
  codeLine,
  fileLine,
  fileVersion,
  line,
  lineEdit,
  linesReply,
  manyFiles,
  piecesReply,
  style,
  textFiles,
  version,
  type Version,
} from './arbitraries.ts';
import { RUNS, SCALE, applier, byMatch, checkCompletePrefix, checkGarbage, checkOneFileRoundTrip, checkInvariants, forEachCut, lineEnds, show, type InvariantOptions } from './invariants.ts';

const apply = applier('ln-diff');

/** Only an applied append creates a file. */
const invariants: InvariantOptions = { creates: ['append'] };

const writeAll = (paths: string[], versions: Version[]): string => lnDiff.write(changesOf(paths, versions));

describe('round trip: write(before, after) applied to before gives after', () => {
  it('one file', () => {
    checkOneFileRoundTrip(lnDiff, fileVersion(), {
      // Format detection recognises the writer's replies.
      after: (v, reply) => {
        if (reply === '') return;
        const auto = applyRequest({ format: 'auto', files: { 'f.txt': v.before }, response: reply });
        assert.equal(auto.detection?.format, 'ln-diff', auto.detection?.reason);
        assert.equal(auto.files['f.txt'], v.after);
      },
    });
  });

  it('long files (numbers of 1 to 3 digits) with many changes', () => {
    fc.assert(
      fc.property(
        fc
          .tuple(
            fc.integer({ min: 5, max: 150 }).chain((n) => fc.array(fc.oneof(fileLine, codeLine), { minLength: n, maxLength: n })),
            fc.array(lineEdit, { maxLength: 15, size: 'medium' }),
            style,
          )
          .map(([b, e, s]) => version(b, e, s)),
        (v) => {
          const reply = lnDiff.write([{ file: 'src/b.ts', before: v.before, after: v.after }]);
          const r = apply({ 'src/b.ts': v.before }, reply);
          assert.equal(r.files['src/b.ts'], v.after, `reply:\n${reply}`);
          assert.ok(r.ok && r.edits.every((e) => e.match === 'exact'));
        },
      ),
      { numRuns: 100 * SCALE },
    );
  });

  it('several files in one reply', () => {
    fc.assert(
      fc.property(manyFiles(fileVersion()), ([paths, versions]) => {
        const reply = writeAll(paths, versions);
        const r = apply(befores(paths, versions), reply);
        assert.deepEqual(r.files, afters(paths, versions), `reply:\n${reply}`);
        assert.equal(r.ok, true);
        assert.ok(r.edits.every((e) => e.status === 'applied' && e.match === 'exact' && e.code === null));
      }),
      { numRuns: RUNS },
    );
  });

  it('the blocks of a reply can come in any order', () => {
    fc.assert(
      fc.property(manyFiles(fileVersion(), 3), fc.nat(), ([paths, versions], seed) => {
        const blocks = writeAll(paths, versions).split('\n\n').filter((b) => b !== '');
        // a deterministic shuffle of the blocks (each carries its own path line)
        const order = blocks.map((b, k) => ({ b, key: (k * 7919 + seed) % 104729 })).sort((x, y) => x.key - y.key);
        const reply = order.map((x) => x.b).join('\n');
        const r = apply(befores(paths, versions), reply);
        assert.deepEqual(r.files, afters(paths, versions), `reply:\n${reply}`);
        assert.equal(r.ok, true);
      }),
      { numRuns: RUNS },
    );
  });

  it('a replace block given twice is applied once, the repeat reported as duplicate', () => {
    fc.assert(
      fc.property(fileVersion(), fc.nat(), (v, pick) => {
        const reply = lnDiff.write([{ file: 'f.txt', before: v.before, after: v.after }]);
        const blocks = reply.split('\n\n').filter((b) => b !== '');
        const { edits } = lnDiff.parse(reply, { files: ['f.txt'] });
        const replaces = edits.map((e, k) => [e, k] as const).filter(([e]) => e.kind === 'replace');
        fc.pre(replaces.length > 0);
        const k = replaces[pick % replaces.length][1];
        const r = apply({ 'f.txt': v.before }, [...blocks, blocks[k]].join('\n'));
        assert.equal(r.files['f.txt'], v.after);
        assert.equal(r.ok, true);
        const repeat = r.edits[blocks.length];
        assert.deepEqual([repeat.status, repeat.code, repeat.duplicateOf], ['applied', 'duplicate', k]);
      }),
      { numRuns: RUNS },
    );
  });

  it('the view of before parses back to its lines, and the reply cites them', () => {
    fc.assert(
      fc.property(fileVersion(), (v) => {
        assert.deepEqual(parseView(lnDiff.view!(v.before)), v.beforeLines);
        const reply = lnDiff.write([{ file: 'f.txt', before: v.before, after: v.after }]);
        const { edits } = lnDiff.parse(reply, { files: ['f.txt'] });
        for (const e of edits) {
          assert.equal(e.error, undefined);
          if (e.kind === 'append') continue;
          // Every cited line is the file's line at its number.
          assert.deepEqual(e.old, v.beforeLines.slice(e.cited! - 1, e.cited! - 1 + e.old.length));
          // ...and each old span covers exactly the cited text.
          e.oldSpans!.forEach((s, k) => assert.equal(reply.slice(s.from, s.to), e.old[k]));
        }
      }),
      { numRuns: RUNS },
    );
  });
});

// ---------------------------------------------------------------------------
// Garbage in: never throws, changes only what it says it changed.

const replyLine: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(...MARKERS),
  fc.constantFrom(...PATHS, './a.txt', '`src/b.ts`', '## README.md', '/etc/passwd', '../up.txt', 'new/file.txt', 'b.ts'),
  fc.tuple(fc.nat({ max: 40 }), fc.constantFrom('│', '|', ' │', '┃', '｜'), line).map(([n, bar, t]) => `${n}${bar}${t}`),
  fc.tuple(fc.constantFrom(' ', '  ', '12'), line).map(([p, t]) => `${p}│${t}`),
  fc.constantFrom('Here is the change:', 'I updated the function.', 'Sure!', 'foo.bar'),
  line,
);

/**
 * Something shaped like an editblock for one of `files`, with any part
 * possibly missing or mangled. The lines to remove are mostly real lines of
 * the file (sometimes with a typo or trailing blanks), cited near their place.
 */
const blockish = (files: Record<string, string>): fc.Arbitrary<string[]> => {
  const paths = Object.keys(files);
  return fc
    .record({
      file: paths.length ? fc.constantFrom(...paths) : fc.constant('a.txt'),
      path: fc.option(fc.constantFrom('', 'a.txt:', '`src/b.ts`', 'nope.txt', '/abs.txt', '../x.txt', 'b.ts', 'README.md'), { freq: 6 }),
      open: fc.boolean(),
      head: fc.oneof({ weight: 6, arbitrary: fc.constant('<<<<<<< REMOVE') }, fc.constantFrom('<<<<< REMOVE', '  <<<<<<<REMOVE ', '<<<<<<< remove', '')),
      at: fc.nat(),
      count: fc.integer({ min: 1, max: 4 }),
      shift: fc.constantFrom(0, 0, 0, 0, 1, -1, 2, -3, 60),
      steps: fc.oneof({ weight: 4, arbitrary: fc.constant([]) }, fc.array(fc.constantFrom(1, 1, 1, 0, 2, -1), { maxLength: 5 })),
      bar: fc.constantFrom('│', '│', '│', '|', '┃'),
      damage: fc.constantFrom('none', 'none', 'none', 'typo', 'trailing', 'random'),
      random: fileLine,
      divider: fc.oneof({ weight: 6, arbitrary: fc.constant('=======') }, fc.constantFrom('=====', '', '== =')),
      insert: fc.array(fc.tuple(fc.constantFrom(' │', ' │', '│', '', '12│', ' |', '  '), fileLine).map(([p, l]) => p + l), { maxLength: 4 }),
      end: fc.oneof({ weight: 6, arbitrary: fc.constant('>>>>>>> INSERT') }, fc.constantFrom('>>>>>INSERT', '', '>>>>>>> insert')),
      close: fc.constantFrom('</editblock>', '', '</editblock>'),
    })
    .map((b) => {
      const lines = parseText(files[b.file] ?? '').lines;
      const from = lines.length ? b.at % lines.length : 0;
      const old = lines.slice(from, from + b.count);
      if (old.length > 0 && b.damage !== 'none') {
        const k = b.at % old.length;
        old[k] = b.damage === 'typo' ? old[k].slice(0, -1) + '?' : b.damage === 'trailing' ? old[k] + '  ' : b.random;
      }
      const out: string[] = [];
      out.push(b.path === null ? b.file : b.path);
      if (b.open) out.push('<editblock>');
      if (b.head) out.push(b.head);
      let n = from + 1 + b.shift;
      old.forEach((l, k) => {
        out.push(`${n}${b.bar}${l}`);
        n += b.steps[k] ?? 1;
      });
      if (b.divider) out.push(b.divider);
      out.push(...b.insert);
      if (b.end) out.push(b.end);
      if (b.close) out.push(b.close);
      return out;
    });
};

const garbageReply = (files: Record<string, string>): fc.Arbitrary<string> =>
  fc.oneof(
    fc.string({ maxLength: 200 }),
    fc.string({ unit: 'grapheme', maxLength: 100 }),
    linesReply(replyLine, 40),
    piecesReply(blockish(files), replyLine, 6),
  );

describe('garbage replies', () => {
  it('never throw, and files change only by the applied edits', () => {
    checkGarbage(lnDiff, {
      files: textFiles(fc.oneof(fileLine, codeLine), 20),
      reply: garbageReply,
      numRuns: 1000 * SCALE,
      invariants,
      key: byMatch,
      // (fuzzy matches and overlaps occur too, but too rarely to require in every run)
      expected: ['applied exact', 'applied offset', 'applied whitespace', 'failed truncated', 'failed no-match'],
    });
  });

  it('a valid reply with garbage lines mixed in keeps the invariants', () => {
    fc.assert(
      fc.property(
        manyFiles(fileVersion(), 3),
        fc.array(fc.tuple(fc.nat(), replyLine), { maxLength: 6 }),
        ([paths, versions], inserts) => {
          const rows = writeAll(paths, versions).split('\n');
          for (const [at, l] of inserts) rows.splice(at % (rows.length + 1), 0, l);
          const files = befores(paths, versions);
          const reply = rows.join('\n');
          checkInvariants(lnDiff, files, reply, apply(files, reply), invariants);
        },
      ),
      { numRuns: RUNS },
    );
  });
});

// ---------------------------------------------------------------------------
// Truncation: the prefix of a valid reply applies its complete blocks only.

/**
 * How many editblocks a prefix of a written reply has begun: those whose head
 * marker it holds whole, plus one when it holds the next block's opening tag
 * whole (spec: a reply that ends after an opening tag, before the block's
 * head, is cut there). `tags` and `heads` are the offsets just past those lines.
 */
function begun(cut: number, tags: number[], heads: number[]): number {
  const whole = heads.filter((h) => h <= cut).length;
  const tag = tags[whole];
  return tag !== undefined && tag <= cut ? whole + 1 : whole;
}

describe('truncated replies', () => {
  it('a reply cut at any position applies exactly its complete editblocks', () => {
    fc.assert(
      fc.property(manyFiles(fileVersion(fc.array(fileLine, { maxLength: 12 })), 3), ([paths, versions]) => {
        const files = befores(paths, versions);
        const reply = writeAll(paths, versions);
        const full = apply(files, reply);
        const parsedFull = lnDiff.parse(reply, { files: paths });
        const tags = lineEnds(reply, (row) => row === '<editblock>');
        const heads = lineEnds(reply, (row) => row === '<<<<<<< REMOVE');
        const ends = lineEnds(reply, (row) => row === '>>>>>>> INSERT');
        assert.equal(heads.length, full.edits.length);
        assert.equal(ends.length, full.edits.length);
        forEachCut(reply, 0, 30, (prefix, cut, where) => {
          const complete = ends.filter((e) => e <= cut).length;
          checkCompletePrefix(files, full, parsedFull, apply(files, prefix), begun(cut, tags, heads), complete, where);
        });
      }),
      { numRuns: 100 * SCALE },
    );
  });
});

// ---------------------------------------------------------------------------
// Damage: wrong numbers never move an edit to a wrong place.

/** Add `k` to every line number of the remove lines of reply lines `[first, last]` (1-based). */
function shiftNumbers(reply: string, first: number, last: number, k: number): string {
  return reply
    .split('\n')
    .map((row, i) => {
      if (i + 1 < first || i + 1 > last) return row;
      const m = /^( *)(\d+)│/.exec(row);
      return m ? `${m[1]}${Number(m[2]) + k}│${row.slice(m[0].length)}` : row;
    })
    .join('\n');
}

describe('damaged line numbers', () => {
  it('shifting the numbers of one block by -5..5 applies it at the right place or fails it', () => {
    fc.assert(
      fc.property(
        manyFiles(distinctVersion, 2),
        fc.nat(),
        fc.integer({ min: -5, max: 5 }),
        ([paths, versions], pick, k) => {
          const files = befores(paths, versions);
          const reply = writeAll(paths, versions);
          const parsed = lnDiff.parse(reply, { files: paths });
          const replaces = parsed.edits.filter((e) => e.kind === 'replace');
          fc.pre(replaces.length > 0);
          const target = replaces[pick % replaces.length];
          const damaged = shiftNumbers(reply, target.span.start.line, target.span.end.line, k);
          const r = apply(files, damaged);
          const mine = r.edits[target.index];
          // The other blocks are untouched and apply as written.
          r.edits.forEach((e, i) => i === target.index || assert.equal(e.status, 'applied', show(e)));
          if (mine.status === 'applied') {
            assert.deepEqual(r.files, afters(paths, versions), `shift ${k}:\n${damaged}`);
            assert.equal(mine.offset, k === 0 ? 0 : -k);
          } else {
            // Failed: the file is what the reply without that block gives.
            const without = reply.slice(0, target.span.from) + reply.slice(target.span.to);
            assert.deepEqual(r.files, apply(files, without).files, `shift ${k}:\n${damaged}`);
          }
          // With distinct lines the content always finds its place within the
          // window; only a number pushed below 0 (`-2│x` is not a numbered
          // line) makes the block fail, or a cited place more than one line
          // off that holds the same lines with another indentation (two
          // readings: ambiguous, spec/matching.md "Indentation").
          const at = target.cited! + k - 1;
          const lines = parseText(files[target.file] ?? '').lines;
          const reindented = Math.abs(k) > 1 && at >= 0 && reindentedPlaces(lines, target.old, at, at).length > 0;
          if (reindented && mine.status === 'failed') assert.equal(mine.code, 'ambiguous', show(mine));
          else assert.equal(mine.status === 'failed', target.cited! + k < 0, `shift ${k}: ${show(mine)}`);
        },
      ),
      { numRuns: RUNS },
    );
  });
});
