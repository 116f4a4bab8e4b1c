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
import { CODES } from '../../src/core/diagnostics.ts';
import { applySplices, BOM, formatText, parseText, type Splice } from '../../src/core/text.ts';
import type { ApplyResult, Span } from '../../src/core/types.ts';
import { applyRequest } from '../../src/formats/index.ts';
import { searchReplace } from '../../src/formats/search-replace/index.ts';
import { isEnd, isHead } from '../../src/formats/search-replace/syntax.ts';
import { PATHS, codeLine, line as anyLine, style, version, type LineEdit, type Version } from './arbitraries.ts';

const SCALE = Number(process.env.PROPERTY_RUNS_SCALE ?? 1);
const RUNS = 300 * SCALE;

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

const lineEdit: fc.Arbitrary<LineEdit> = fc.record({
  at: fc.nat({ max: 1000 }),
  remove: fc.nat({ max: 4 }),
  insert: fc.array(fileLine, { maxLength: 4 }),
});

const fileVersion = (max = 30): fc.Arbitrary<Version> =>
  fc.tuple(fc.array(fileLine, { maxLength: max }), fc.array(lineEdit, { maxLength: 5 }), style).map(([b, e, s]) => version(b, e, s));

/** A change of one file: edited, created (LF, final newline) or deleted. */
type Change = { kind: 'edit'; v: Version } | { kind: 'new'; after: string } | { kind: 'delete'; v: Version };

const change: fc.Arbitrary<Change> = fc.oneof(
  { weight: 4, arbitrary: fileVersion().map((v): Change => ({ kind: 'edit', v })) },
  { weight: 1, arbitrary: fc.array(fileLine, { maxLength: 6 }).map((ls): Change => ({ kind: 'new', after: ls.map((l) => l + '\n').join('') })) },
  { weight: 1, arbitrary: fileVersion().map((v): Change => ({ kind: 'delete', v })) },
);

function apply(files: Record<string, string>, response: string): ApplyResult {
  return applyRequest({ format: 'search-replace', files, response });
}

const show = (v: unknown) => JSON.stringify(v);

describe('round trip: write(before, after) applied to before gives after', () => {
  it('one file', () => {
    fc.assert(
      fc.property(fileVersion(), (v) => {
        const reply = searchReplace.write([{ file: 'f.txt', before: v.before, after: v.after }]);
        const r = apply({ 'f.txt': v.before }, reply);
        assert.equal(r.files['f.txt'], v.after, `reply:\n${reply}\nresult: ${show(r.edits)}`);
        assert.equal(r.ok, true, show(r.edits));
        for (const e of r.edits) {
          assert.equal(e.status, 'applied');
          assert.equal(e.match, 'exact');
          assert.equal(e.code, null);
          assert.ok(e.warnings.every((w) => w.code === 'ambiguous-structure'), show(e.warnings));
        }
        assert.deepEqual(r.diagnostics.map((d) => d.code), v.before === v.after ? ['no-edits'] : []);
      }),
      { numRuns: RUNS },
    );
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
  const parsed = searchReplace.parse(reply, { files: Object.keys(files) });
  assert.equal(r.edits.length, parsed.edits.length);
  r.edits.forEach((e, k) => {
    assert.equal(e.index, k);
    if (e.code !== null) assert.ok((CODES as readonly string[]).includes(e.code), e.code);
    if (e.status === 'failed') {
      assert.equal(e.range, null);
      assert.notEqual(e.code, null, `failed edit without a code: ${show(e)}`);
      assert.ok(e.message.length > 0);
    } else {
      assert.notEqual(e.range, null);
      assert.notEqual(e.match, null);
      assert.equal(e.offset, null);
    }
    checkSpan(reply, e.reply, `edit ${k} span`);
    for (const w of e.warnings) if (w.reply) checkSpan(reply, w.reply, `edit ${k} warning ${w.code}`);
    parsed.edits[k].oldSpans?.forEach((s, j) => {
      checkSpan(reply, s, `edit ${k} old span ${j}`);
      assert.equal(reply.slice(s.from, s.to), parsed.edits[k].old[j]);
    });
    if (parsed.edits[k].error?.reply) checkSpan(reply, parsed.edits[k].error!.reply!, `edit ${k} error`);
  });
  for (const d of r.diagnostics) if (d.reply) checkSpan(reply, d.reply, `diagnostic ${d.code}`);
  assert.equal(r.ok, r.edits.every((e) => e.status === 'applied'));

  // Every file changes exactly by its applied edits, each at its reported range.
  const applied = r.edits.filter((e) => e.status === 'applied' && e.code !== 'duplicate');
  for (const path of new Set([...Object.keys(files), ...Object.keys(r.files)])) {
    const mine = applied.filter((e) => e.file === path);
    if (!Object.hasOwn(files, path)) {
      assert.ok(mine.length > 0 && mine.every((e) => e.kind === 'append'), `unexpected file ${show(path)}`);
    }
    if (mine.length === 0) {
      assert.equal(r.files[path], files[path], `${path} changed without an applied edit`);
      continue;
    }
    const original = parseText(files[path] ?? '');
    const splices: Splice[] = mine.map((e) => {
      const edit = parsed.edits[e.index];
      let lines = edit.new;
      if (edit.kind === 'replace') {
        const outcome = searchReplace.locate!(original.lines, edit, {});
        assert.ok(outcome.ok, `applied edit ${e.index} does not locate`);
        assert.deepEqual([outcome.start + 1, outcome.end], [e.range!.start, e.range!.end]);
        lines = outcome.newLines ?? edit.new;
      }
      return { from: e.range!.start - 1, to: e.range!.end, lines };
    });
    assert.equal(r.files[path], formatText(applySplices(original, splices)), `${path} is not its applied edits`);
  }
}

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
  fc.oneof(
    fc.string({ maxLength: 200 }),
    fc.tuple(fc.array(replyLine, { maxLength: 40 }), fc.constantFrom('\n', '\r\n')).map(([ls, eol]) => ls.join(eol)),
    fc
      .tuple(
        fc.array(fc.oneof({ weight: 3, arbitrary: blockish(files) }, { weight: 1, arbitrary: fc.array(replyLine, { maxLength: 3 }) }), { maxLength: 6 }),
        fc.constantFrom('\n', '\r\n'),
        fc.boolean(),
      )
      .map(([parts, eol, final]) => parts.flat().join(eol) + (final ? eol : '')),
  );

const smallFiles: fc.Arbitrary<Record<string, string>> = fc
  .uniqueArray(fc.constantFrom(...PATHS), { minLength: 0, maxLength: 3 })
  .chain((paths) =>
    fc
      .tuple(...paths.map(() => fc.tuple(fc.array(fc.oneof(fileLine, codeLine, pooled), { maxLength: 20 }), fc.constantFrom('\n', '\r\n'), fc.boolean())))
      .map((contents) => Object.fromEntries(paths.map((p, k) => [p, contents[k][0].join(contents[k][1]) + (contents[k][2] ? contents[k][1] : '')]))),
  );

describe('garbage replies', () => {
  it('never throw, and files change only by the applied edits', () => {
    const seen = new Map<string, number>();
    fc.assert(
      fc.property(smallFiles.chain((files) => fc.tuple(fc.constant(files), garbageReply(files))), ([files, reply]) => {
        const r = apply(files, reply);
        checkInvariants(files, reply, r);
        const parsed = searchReplace.parse(reply, { files: Object.keys(files) });
        for (const e of r.edits) {
          const elided = e.status === 'applied' && e.kind === 'replace' && parsed.edits[e.index].old.includes('...');
          const key = elided ? 'applied elision' : e.status === 'applied' ? `applied ${e.match}` : `failed ${e.code}`;
          seen.set(key, (seen.get(key) ?? 0) + 1);
        }
      }),
      { numRuns: 1000 * SCALE },
    );
    if (process.env.PROPERTY_STATS) console.log(seen);
    for (const key of ['applied exact', 'applied whitespace', 'failed truncated', 'failed no-match', 'failed ambiguous', 'failed missing-divider', 'applied elision']) {
      assert.ok(seen.has(key), `no ${key} edit in the run: ${show([...seen])}`);
    }
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
          const files = Object.fromEntries(paths.map((p, k) => [p, versions[k].before]));
          const reply = searchReplace.write(paths.map((file, k) => ({ file, before: versions[k].before, after: versions[k].after })));
          const full = apply(files, reply);
          assert.equal(full.ok, true);
          const parsedFull = searchReplace.parse(reply, { files: paths });
          // Offsets just past each head and each end marker line (content never reads as one).
          const heads: number[] = [];
          const ends: number[] = [];
          let pos = 0;
          for (const row of reply.split('\n')) {
            if (isHead(row)) heads.push(pos + row.length);
            if (isEnd(row)) ends.push(pos + row.length);
            pos += row.length + 1;
          }
          assert.equal(heads.length, full.edits.length);
          for (let cut = 0; cut <= reply.length; cut++) {
            const prefix = reply.slice(0, cut);
            const r = apply(files, prefix);
            const started = heads.filter((h) => h <= cut).length;
            const complete = ends.filter((e) => e <= cut).length;
            const where = `cut at ${cut}: ${show(prefix.slice(-30))}`;
            assert.equal(r.edits.length, started, where);
            for (let k = 0; k < complete; k++) {
              assert.equal(r.edits[k].status, 'applied', where);
              assert.deepEqual(r.edits[k].range, full.edits[k].range, where);
            }
            if (started > complete) assert.equal(r.edits[complete].code, 'truncated', where);
            for (const path of paths) {
              const mine = full.edits.slice(0, complete).filter((e) => e.file === path);
              const splices = mine.map((e) => ({ from: e.range!.start - 1, to: e.range!.end, lines: parsedFull.edits[e.index].new }));
              assert.equal(r.files[path], formatText(applySplices(parseText(files[path]), splices)), `${where}: ${path}`);
            }
          }
        },
      ),
      { numRuns: 60 * SCALE },
    );
  });
});
