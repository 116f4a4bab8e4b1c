// Properties of the whole search-replace pipeline: writer -> reply -> parser
// -> matcher -> applier.
//
// - round trip: writing the change from `before` to `after` and applying the
//   reply to `before` gives `after` byte for byte (one file, several files,
//   new and deleted files);
// - garbage: any reply is read without throwing, and a file changes only
//   through the edits reported as applied, each at its reported range;
// - truncation: a reply cut anywhere applies exactly its complete blocks.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { placeholderShape } from '../../src/core/elision.ts';
import { BOM, parseText } from '../../src/core/text.ts';
import { searchReplace } from '../../src/formats/search-replace/index.ts';
import { isEnd, isHead } from '../../src/formats/search-replace/syntax.ts';
import { PATHS, befores, changesOf, codeLine, line as anyLine, linesReply, piecesReply, textFiles, versionOf, type Version } from './arbitraries.ts';
import { RUNS, SCALE, applier, byMatch, checkCompletePrefix, checkGarbage, checkOneFileRoundTrip, forEachCut, lineEnds, show, type InvariantOptions } from './invariants.ts';

/** Lines that look like this format's syntax but can be content (heads and end markers cannot). */
const SR_MARKERS = [
  '=======',
  '=====',
  '=========',
  '========',
  '  =======',
  '=======  ',
  '==========',
  '...',
  '  ...',
  '```',
  '````',
  '```python',
  '~~~',
  '<<<<<<< HEAD',
  '>>>>>>> feature',
  '<<<<<<< REMOVE',
  ':start_line:3',
  '-------',
  '',
  '   ',
  '\t',
  'a.txt',
  '**src/b.ts**:',
  '# README.md',
  'Makefile',
  '    return x',
  '\treturn x',
];

const srLine: fc.Arbitrary<string> = fc
  .oneof({ weight: 4, arbitrary: anyLine }, { weight: 2, arbitrary: fc.constantFrom(...SR_MARKERS) }, { weight: 1, arbitrary: codeLine })
  .filter((l) => !isHead(l) && !isEnd(l));

const pooled: fc.Arbitrary<string> = fc.constantFrom('}', '', '  return x;', 'end', '=======', '...', '    pass');
const fileLine: fc.Arbitrary<string> = fc.oneof({ weight: 4, arbitrary: srLine }, { weight: 2, arbitrary: pooled });

/**
 * Whether `after` can be written from `before`: a new line that reads as a
 * lazy elision (`...`, `// ... existing code ...`) and is not in the file
 * fails with `elided` (spec/ln-diff.md, "Elisions"), so no reply adds one.
 */
const writable = (before: readonly string[], after: readonly string[]): boolean => {
  const known = new Set(before.map((l) => l.trim()));
  return after.every((l) => placeholderShape(l.trim()) === null || known.has(l.trim()));
};

const fileVersion = (max = 30): fc.Arbitrary<Version> => versionOf(fileLine, max).filter((v) => writable(v.beforeLines, v.afterLines));

/** A change of one file: edited, created (LF, final newline) or deleted. */
type Change = { kind: 'edit'; v: Version } | { kind: 'new'; after: string } | { kind: 'delete'; v: Version };

const change: fc.Arbitrary<Change> = fc.oneof(
  { weight: 4, arbitrary: fileVersion().map((v): Change => ({ kind: 'edit', v })) },
  { weight: 1, arbitrary: fc.array(fileLine, { maxLength: 6 }).filter((ls) => writable([], ls)).map((ls): Change => ({ kind: 'new', after: ls.map((l) => l + '\n').join('') })) },
  { weight: 1, arbitrary: fileVersion().map((v): Change => ({ kind: 'delete', v })) },
);

const apply = applier('search-replace');

describe('round trip: write(before, after) applied to before gives after', () => {
  it('one file', () => {
    checkOneFileRoundTrip(searchReplace, fileVersion(), { warning: (w) => w.code === 'ambiguous-structure' });
  });

  it('several files, new and deleted ones included, in one reply', () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.constantFrom(...PATHS, 'Makefile', 'src/README.md'), { minLength: 1, maxLength: 4 }),
        fc.array(change, { minLength: 4, maxLength: 4 }),
        (paths, changes) => {
          const files: Record<string, string> = {};
          const expected: Record<string, string> = {};
          const list = paths.map((file, k) => {
            const c = changes[k];
            if (c.kind === 'new') {
              expected[file] = c.after;
              return { file, before: null, after: c.after };
            }
            files[file] = c.v.before;
            if (c.kind === 'delete') {
              expected[file] = c.v.style.bom ? BOM : '';
              return { file, before: c.v.before, after: null };
            }
            expected[file] = c.v.after;
            return { file, before: c.v.before, after: c.v.after };
          });
          const reply = searchReplace.write(list);
          const r = apply(files, reply);
          assert.deepEqual(r.files, expected, `reply:\n${reply}\n${show(r.edits)}`);
          assert.equal(r.ok, true, show(r.edits));
          assert.ok(r.edits.every((e) => e.status === 'applied' && e.match === 'exact' && e.code === null));
        },
      ),
      { numRuns: RUNS },
    );
  });
});

// ---------------------------------------------------------------------------
// Garbage in: never throws, changes only what it says it changed.

/**
 * Only an applied append creates a file; an applied replace is where the
 * format's own locate puts it, and its new lines are the ones locate gives
 * (re-indented for a whitespace match, elisions filled in); no offsets.
 */
const invariants: InvariantOptions = {
  creates: ['append'],
  edit: (e) => {
    if (e.status === 'applied') assert.equal(e.offset, null);
  },
  newLines: (edit, e, original) => {
    if (edit.kind !== 'replace') return edit.new;
    const outcome = searchReplace.locate!(original.lines, edit, {});
    assert.ok(outcome.ok, `applied edit ${e.index} does not locate`);
    assert.deepEqual([outcome.start + 1, outcome.end], [e.range!.start, e.range!.end]);
    return outcome.newLines ?? edit.new;
  },
};

const replyLine: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(...SR_MARKERS, '<<<<<<< SEARCH', '>>>>>>> REPLACE', '<<<<< SEARCH>', '>>>>>>>>>REPLACE', '```', '```diff'),
  fc.constantFrom(...PATHS, './a.txt', '`src/b.ts`', '## README.md', '/etc/passwd', '../up.txt', 'new/file.txt', 'b.ts'),
  fc.constantFrom('Here is the change:', 'I updated the function.', 'Sure!', 'foo.bar'),
  anyLine,
);

/** Something shaped like a block for one of `files`, any part possibly missing or mangled. */
const blockish = (files: Record<string, string>): fc.Arbitrary<string[]> => {
  const paths = Object.keys(files);
  return fc
    .record({
      file: paths.length ? fc.constantFrom(...paths) : fc.constant('a.txt'),
      path: fc.oneof(
        { weight: 3, arbitrary: fc.constant(null) },
        { weight: 2, arbitrary: fc.constantFrom('', 'a.txt:', '`src/b.ts`', 'nope.txt', '/abs.txt', '../x.txt', 'b.ts', 'README.md', 'Makefile') },
      ),
      fence: fc.constantFrom('```', '```python', '', '````'),
      inside: fc.boolean(),
      head: fc.oneof({ weight: 12, arbitrary: fc.constant('<<<<<<< SEARCH') }, fc.constantFrom('<<<<< SEARCH>', '  <<<<<<<<SEARCH ', '<<<<<<< search', '')),
      at: fc.nat(),
      count: fc.integer({ min: 0, max: 4 }),
      damage: fc.constantFrom('none', 'none', 'none', 'indent', 'dedent', 'trailing', 'elide', 'elide', 'repeated', 'repeated', 'random'),
      random: fileLine,
      divider: fc.oneof({ weight: 12, arbitrary: fc.constant('=======') }, fc.constantFrom('=====', '', '== =', '========')),
      insert: fc.array(fileLine, { maxLength: 4 }),
      end: fc.oneof({ weight: 12, arbitrary: fc.constant('>>>>>>> REPLACE') }, fc.constantFrom('>>>>>REPLACE', '', '>>>>>>> replace')),
      close: fc.boolean(),
    })
    .map((b) => {
      const lines = parseText(files[b.file] ?? '').lines;
      const from = lines.length ? b.at % lines.length : 0;
      let old = lines.slice(from, from + b.count);
      let insert = b.insert;
      if (b.damage === 'repeated') {
        // A line the file holds more than once: an ambiguous SEARCH.
        const twice = lines.find((l, i) => lines.indexOf(l) !== i);
        if (twice !== undefined) old = [twice];
      } else if (old.length > 0) {
        const k = b.at % old.length;
        if (b.damage === 'indent') {
          old = old.map((l) => '  ' + l);
          insert = insert.map((l) => '  ' + l);
        } else if (b.damage === 'dedent') old = old.map((l) => l.replace(/^[ \t]+/, ''));
        else if (b.damage === 'trailing') old[k] += '  ';
        else if (b.damage === 'elide' && old.length > 1) {
          old = [old[0], '...', old[old.length - 1]];
          insert = [insert[0] ?? 'x', '...', insert[1] ?? 'y'];
        } else if (b.damage === 'random') old[k] = b.random;
      }
      const out: string[] = [];
      const path = b.path === null ? b.file : b.path;
      if (!b.inside) out.push(path);
      if (b.fence) out.push(b.fence);
      if (b.inside) out.push(path);
      if (b.head) out.push(b.head);
      out.push(...old);
      if (b.divider) out.push(b.divider);
      out.push(...insert);
      if (b.end) out.push(b.end);
      if (b.close && b.fence) out.push(b.fence);
      return out;
    });
};

const garbageReply = (files: Record<string, string>): fc.Arbitrary<string> =>
  fc.oneof(fc.string({ maxLength: 200 }), linesReply(replyLine, 40), piecesReply(blockish(files), replyLine, 6));

describe('garbage replies', () => {
  it('never throw, and files change only by the applied edits', () => {
    checkGarbage(searchReplace, {
      files: textFiles(fc.oneof(fileLine, codeLine, pooled), 20),
      reply: garbageReply,
      numRuns: 1000 * SCALE,
      invariants,
      key: (e, parsed) => (e.status === 'applied' && e.kind === 'replace' && parsed.edits[e.index].old.includes('...') ? 'applied elision' : byMatch(e)),
      expected: ['applied exact', 'applied whitespace', 'failed truncated', 'failed no-match', 'failed ambiguous', 'failed missing-divider', 'applied elision'],
    });
  });
});

// ---------------------------------------------------------------------------
// Truncation: the prefix of a valid reply applies its complete blocks only.

describe('truncated replies', () => {
  it('a reply cut at any position applies exactly its complete blocks', () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.constantFrom(...PATHS), { minLength: 1, maxLength: 3 }),
        fc.array(fileVersion(12), { minLength: 3, maxLength: 3 }),
        (paths, versions) => {
          const files = befores(paths, versions);
          const reply = searchReplace.write(changesOf(paths, versions));
          const full = apply(files, reply);
          assert.equal(full.ok, true);
          const parsedFull = searchReplace.parse(reply, { files: paths });
          // Offsets just past each head and each end marker line (content never reads as one).
          const heads = lineEnds(reply, isHead);
          const ends = lineEnds(reply, isEnd);
          assert.equal(heads.length, full.edits.length);
          // A block is begun once three characters of the fence before its head are written (a
          // reply cut inside that fence, after the path line, is cut inside the block: truncated).
          const fences = heads.map((h) => {
            const head = reply.lastIndexOf('\n', h - 1) + 1;
            return reply.lastIndexOf('\n', head - 2) + 1 + 3;
          });
          forEachCut(reply, 0, 30, (prefix, cut, where) => {
            const started = fences.filter((f) => f <= cut).length;
            const complete = ends.filter((e) => e <= cut).length;
            checkCompletePrefix(files, full, parsedFull, apply(files, prefix), started, complete, where);
          });
        },
      ),
      { numRuns: 60 * SCALE },
    );
  });
});
