// Properties of the Roo apply_diff pipeline: writer -> reply -> parser ->
// locate -> applier.
//
// - round trip: writing the change from `before` to `after` and applying the
//   reply to `before` gives `after` byte for byte, every block exact;
// - truncation: a written reply cut anywhere applies exactly its complete
//   blocks, and the block cut short fails;
// - garbage: any reply is read without throwing, and a file changes only
//   through the edits reported as applied, each at its reported range.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { placeholderShape } from '../../src/core/elision.ts';
import { parseText } from '../../src/core/text.ts';
import { roo } from '../../src/formats/roo/index.ts';
import { PATHS, afters, befores, changesOf, codeLine, fileLine, line, linesReply, manyFiles, piecesReply, textFiles, versionOf } from './arbitraries.ts';
import { RUNS, SCALE, applier, byMatch, checkCompletePrefix, checkGarbage, checkOneFileRoundTrip, forEachCut, lineEnds, type InvariantOptions } from './invariants.ts';

/** Lines that look like the format's own syntax, escaped or not. */
const ROO_MARKERS = [
  '<<<<<<< SEARCH',
  '<<<<<<< SEARCH>',
  '  <<<<<<< SEARCH',
  '<<<<<<<< SEARCH',
  '=======',
  '  =======  ',
  '-------',
  '    -------',
  '>>>>>>> REPLACE',
  '>>>>>>>REPLACE',
  ' >>>>>>> REPLACEMENT',
  '  <<<<<<< SEARCHING',
  '<<<<<<< HEAD',
  '>>>>>>> main',
  ':start_line:12',
  ':start_line=3',
  '  :end_line:4',
  '\\=======',
  '\\\\=======',
  '\\<<<<<<< SEARCH',
  '\\-------',
  '\\:start_line:1',
  '\\ x',
  '\\',
  '12 | foo',
  ' 3 | ',
  '4 || x',
  '| a | b |',
  '</diff>',
  '</content>',
  '<diff>',
  '<path>a.txt</path>',
  '</apply_diff>',
  '<apply_diff>',
  '```',
  '',
  '   ',
  'smart “quotes” — dash…',
  'smart "quotes" - dash...',
];

const rooLine: fc.Arbitrary<string> = fc.oneof(
  { weight: 4, arbitrary: fileLine },
  { weight: 2, arbitrary: fc.constantFrom(...ROO_MARKERS) },
  { weight: 1, arbitrary: codeLine },
  { weight: 1, arbitrary: line },
);

/**
 * Whether `after` can be written from `before`: a new line that reads as a
 * lazy elision (`...`, `// ... existing code ...`) and is not in the file
 * fails with `elided` (spec/ln-diff.md, "Elisions"), so no reply adds one.
 */
const writable = (before: readonly string[], after: readonly string[]): boolean => {
  const known = new Set(before.map((l) => l.trim()));
  return after.every((l) => placeholderShape(l.trim()) === null || known.has(l.trim()));
};

const rooVersion = (max = 30) => versionOf(rooLine, max).filter((v) => writable(v.beforeLines, v.afterLines));

const apply = applier('roo');

describe('roo round trip: write(before, after) applied to before gives after', () => {
  it('one file', () => {
    checkOneFileRoundTrip(roo, rooVersion(), { edit: (e) => assert.equal(e.offset, 0) });
  });

  it('several files in one reply, and the reply is detected as roo', () => {
    fc.assert(
      fc.property(manyFiles(rooVersion(15)), ([paths, versions]) => {
        const reply = roo.write(changesOf(paths, versions));
        const r = apply(befores(paths, versions), reply);
        assert.deepEqual(r.files, afters(paths, versions), `reply:\n${reply}`);
        assert.equal(r.ok, true);
        assert.ok(r.edits.every((e) => e.status === 'applied' && e.match === 'exact' && e.code === null));
        if (r.edits.length > 0) assert.equal(roo.detect(reply).score, 1);
      }),
      { numRuns: RUNS },
    );
  });

  it('every SEARCH occurs once in the file, so it is placed without its hint too', () => {
    fc.assert(
      fc.property(rooVersion(), (v) => {
        const reply = roo.write([{ file: 'f.txt', before: v.before, after: v.after }]);
        const hintless = reply.replace(/^:start_line:\d+\n/gm, '');
        const r = apply({ 'f.txt': v.before }, hintless);
        assert.equal(r.files['f.txt'], v.after, `reply:\n${hintless}`);
        assert.ok(r.edits.every((e) => e.status === 'applied' && e.match === 'exact' && e.offset === null));
      }),
      { numRuns: RUNS },
    );
  });

  it('the view numbers every line, right-aligned, and parses back with its prefixes stripped', () => {
    fc.assert(
      fc.property(rooVersion(), (v) => {
        const lines = parseText(v.before).lines;
        const view = roo.view!(v.before);
        const rows = view === '' ? [] : view.slice(0, -1).split('\n');
        assert.equal(rows.length, lines.length);
        const width = String(lines.length).length;
        rows.forEach((row, i) => assert.equal(row, `${String(i + 1).padStart(width)} | ${lines[i]}`));
      }),
      { numRuns: RUNS },
    );
  });
});

// ---------------------------------------------------------------------------
// Truncation: the prefix of a written reply applies its complete blocks only.

describe('roo truncated replies', () => {
  it('a reply cut at any position applies exactly its complete blocks', () => {
    fc.assert(
      fc.property(manyFiles(rooVersion(8), 2), ([paths, versions]) => {
        const files = befores(paths, versions);
        const reply = roo.write(changesOf(paths, versions));
        const full = apply(files, reply);
        const parsedFull = roo.parse(reply, { files: paths });
        const heads = lineEnds(reply, (row) => row === '<<<<<<< SEARCH');
        const ends = lineEnds(reply, (row) => row === '>>>>>>> REPLACE');
        assert.equal(heads.length, full.edits.length);
        forEachCut(reply, 0, 40, (prefix, cut, where) => {
          const started = heads.filter((h) => h <= cut).length;
          const complete = ends.filter((e) => e <= cut).length;
          checkCompletePrefix(files, full, parsedFull, apply(files, prefix), started, complete, where, ['truncated', 'missing-end-marker', 'missing-divider']);
        });
      }),
      { numRuns: 60 * SCALE },
    );
  });
});

// ---------------------------------------------------------------------------
// Garbage in: never throws, changes only what it says it changed.

/**
 * Only an applied append creates a file. The new lines of an applied edit are
 * its REPLACE lines, re-indented for whitespace and fuzzy matches: a file
 * with such a match is compared by its line count and BOM only.
 */
const invariants: InvariantOptions = {
  creates: ['append'],
  compare: (got, want, mine, original, path) => {
    if (mine.every((e) => e.match === 'exact' || e.match === 'offset')) {
      assert.equal(got, want, `${path} is not its applied edits`);
    } else {
      const result = parseText(got ?? '');
      assert.equal(result.lines.length, parseText(want).lines.length, `${path}: line count`);
      assert.equal(result.bom, original.bom);
    }
  },
};

const replyLine: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(...ROO_MARKERS),
  fc.constantFrom('<apply_diff>', '</apply_diff>', '<diff>', '</diff>', '<args>', '<file>', '</file>', '<content>', '</content>', '<start_line>3</start_line>', '<start_line>x</start_line>'),
  fc.constantFrom(...PATHS).map((p) => `<path>${p}</path>`),
  fc.constantFrom('<path>/etc/passwd</path>', '<path>../up.txt</path>', '<path>new/file.txt</path>', '<path>', '</path>'),
  fc.tuple(fc.nat({ max: 40 }), line).map(([n, t]) => `${n} | ${t}`),
  fc.constantFrom('Here is the change:', 'Sure!', 'foo.bar'),
  line,
);

/** Something shaped like a block against one of `files`, any part possibly missing or mangled. */
const blockish = (files: Record<string, string>): fc.Arbitrary<string[]> => {
  const paths = Object.keys(files);
  return fc
    .record({
      file: paths.length ? fc.constantFrom(...paths) : fc.constant('a.txt'),
      call: fc.constantFrom('call', 'call', 'args', 'bare'),
      head: fc.oneof({ weight: 6, arbitrary: fc.constant('<<<<<<< SEARCH') }, fc.constantFrom('<<<<<<< SEARCH>', '<<<<< SEARCH', '<<<<<<< search', '')),
      hint: fc.oneof({ weight: 4, arbitrary: fc.constant('start') }, fc.constantFrom('none', 'bad', 'numbers')),
      at: fc.nat(),
      count: fc.integer({ min: 1, max: 4 }),
      shift: fc.constantFrom(0, 0, 0, 0, 1, -1, 2, -3, 60),
      sep: fc.boolean(),
      damage: fc.constantFrom('none', 'none', 'none', 'typo', 'indent', 'random'),
      random: fileLine,
      divider: fc.oneof({ weight: 6, arbitrary: fc.constant('=======') }, fc.constantFrom('=====', '', '\\=======')),
      insert: fc.array(rooLine, { maxLength: 4 }),
      end: fc.oneof({ weight: 6, arbitrary: fc.constant('>>>>>>> REPLACE') }, fc.constantFrom('>>>>> REPLACE', '', '>>>>>>> replace')),
      close: fc.boolean(),
    })
    .map((b) => {
      const lines = parseText(files[b.file] ?? '').lines;
      const from = lines.length ? b.at % lines.length : 0;
      const old = lines.slice(from, from + b.count);
      if (old.length > 0 && b.damage !== 'none') {
        const k = b.at % old.length;
        old[k] = b.damage === 'typo' ? old[k].slice(0, -1) + '?' : b.damage === 'indent' ? '  ' + old[k] : b.random;
      }
      const out: string[] = [];
      if (b.call === 'call') out.push('<apply_diff>', `<path>${b.file}</path>`, '<diff>');
      if (b.call === 'args') out.push('<apply_diff>', '<args>', '<file>', `<path>${b.file}</path>`, '<diff>', '<content>');
      if (b.head) out.push(b.head);
      const n = from + 1 + b.shift;
      if (b.hint === 'start') out.push(`:start_line:${n}`);
      if (b.hint === 'bad') out.push(`:start_line=${n}`);
      if (b.sep) out.push('-------');
      out.push(...(b.hint === 'numbers' ? old.map((l, k) => `${n + k} | ${l}`) : old.map((l) => (/^\\*(=======|<<<<<<<|>>>>>>>)/.test(l) ? '\\' + l : l))));
      if (b.divider) out.push(b.divider);
      out.push(...b.insert);
      if (b.end) out.push(b.end);
      if (b.close && b.call === 'call') out.push('</diff>', '</apply_diff>');
      if (b.close && b.call === 'args') out.push('</content>', '</diff>', '</file>', '</args>', '</apply_diff>');
      return out;
    });
};

const garbageReply = (files: Record<string, string>): fc.Arbitrary<string> =>
  fc.oneof(fc.string({ maxLength: 200 }), linesReply(replyLine, 40), piecesReply(blockish(files), replyLine, 6));

const smallFiles = textFiles(fc.oneof(rooLine, codeLine), 20);

describe('roo garbage replies', () => {
  it('never throw, and files change only by the applied edits', () => {
    checkGarbage(roo, {
      files: smallFiles,
      reply: garbageReply,
      numRuns: 1000 * SCALE,
      invariants,
      check: (_files, reply) => void roo.detect(reply),
      key: byMatch,
      expected: ['applied exact', 'applied offset', 'applied whitespace', 'failed truncated', 'failed no-match', 'failed malformed'],
    });
  });

  it('fuzzy matching (threshold 0.8) keeps the invariants', () => {
    checkGarbage(roo, { files: smallFiles, reply: garbageReply, numRuns: 300 * SCALE, options: { fuzzyThreshold: 0.8 }, invariants });
  });
});
