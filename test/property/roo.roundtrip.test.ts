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
import { CODES } from '../../src/core/diagnostics.ts';
import { applySplices, formatText, parseText, type Splice } from '../../src/core/text.ts';
import type { ApplyResult, Span } from '../../src/core/types.ts';
import { applyRequest } from '../../src/formats/index.ts';
import { roo } from '../../src/formats/roo/index.ts';
import { PATHS, codeLine, fileLine, line, version, style, lineEdit, type Version } from './arbitraries.ts';

const SCALE = Number(process.env.PROPERTY_RUNS_SCALE ?? 1);
const RUNS = 300 * SCALE;

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

const rooVersion = (max = 30): fc.Arbitrary<Version> =>
  fc
    .tuple(
      fc.array(rooLine, { maxLength: max }),
      fc.array(fc.record({ at: lineEdit.map((e) => e.at), remove: lineEdit.map((e) => e.remove), insert: fc.array(rooLine, { maxLength: 4 }) }), { maxLength: 5 }),
      style,
    )
    .map(([b, e, s]) => version(b, e, s));

function apply(files: Record<string, string>, response: string): ApplyResult {
  return applyRequest({ format: 'roo', files, response });
}

const show = (v: unknown) => JSON.stringify(v);

const manyFiles = (v: fc.Arbitrary<Version>, max = 4) =>
  fc
    .uniqueArray(fc.constantFrom(...PATHS), { minLength: 1, maxLength: max })
    .chain((paths) => fc.tuple(fc.constant(paths), fc.array(v, { minLength: paths.length, maxLength: paths.length })));

describe('roo round trip: write(before, after) applied to before gives after', () => {
  it('one file', () => {
    fc.assert(
      fc.property(rooVersion(), (v) => {
        const reply = roo.write([{ file: 'f.txt', before: v.before, after: v.after }]);
        const r = apply({ 'f.txt': v.before }, reply);
        assert.equal(r.files['f.txt'], v.after, `reply:\n${reply}\nresult: ${show(r.edits)}`);
        assert.equal(r.ok, true, show(r.edits));
        for (const e of r.edits) {
          assert.equal(e.status, 'applied');
          assert.equal(e.match, 'exact');
          assert.equal(e.offset, 0);
          assert.equal(e.code, null);
          assert.deepEqual(e.warnings, []);
        }
        assert.deepEqual(r.diagnostics.map((d) => d.code), v.before === v.after ? ['no-edits'] : []);
      }),
      { numRuns: RUNS },
    );
  });

  it('several files in one reply, and the reply is detected as roo', () => {
    fc.assert(
      fc.property(manyFiles(rooVersion(15)), ([paths, versions]) => {
        const reply = roo.write(paths.map((file, k) => ({ file, before: versions[k].before, after: versions[k].after })));
        const files = Object.fromEntries(paths.map((p, k) => [p, versions[k].before]));
        const r = apply(files, reply);
        assert.deepEqual(r.files, Object.fromEntries(paths.map((p, k) => [p, versions[k].after])), `reply:\n${reply}`);
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
        const files = Object.fromEntries(paths.map((p, k) => [p, versions[k].before]));
        const reply = roo.write(paths.map((file, k) => ({ file, before: versions[k].before, after: versions[k].after })));
        const full = apply(files, reply);
        const parsedFull = roo.parse(reply, { files: paths });
        const heads: number[] = [];
        const ends: number[] = [];
        let pos = 0;
        for (const row of reply.split('\n')) {
          if (row === '<<<<<<< SEARCH') heads.push(pos + row.length);
          if (row === '>>>>>>> REPLACE') ends.push(pos + row.length);
          pos += row.length + 1;
        }
        assert.equal(heads.length, full.edits.length);
        for (let cut = 0; cut <= reply.length; cut++) {
          const prefix = reply.slice(0, cut);
          const r = apply(files, prefix);
          const started = heads.filter((h) => h <= cut).length;
          const complete = ends.filter((e) => e <= cut).length;
          const where = `cut at ${cut}: ${show(prefix.slice(-40))}`;
          assert.equal(r.edits.length, started, where);
          for (let k = 0; k < complete; k++) {
            assert.equal(r.edits[k].status, 'applied', where);
            assert.deepEqual(r.edits[k].range, full.edits[k].range, where);
          }
          if (started > complete) {
            assert.equal(r.edits[complete].status, 'failed', where);
            assert.ok(['truncated', 'missing-end-marker', 'missing-divider'].includes(r.edits[complete].code ?? ''), where);
          }
          for (const path of paths) {
            const mine = full.edits.slice(0, complete).filter((e) => e.file === path);
            const splices = mine.map((e) => ({ from: e.range!.start - 1, to: e.range!.end, lines: parsedFull.edits[e.index].new }));
            assert.equal(r.files[path], formatText(applySplices(parseText(files[path]), splices)), `${where}: ${path}`);
          }
        }
      }),
      { numRuns: 60 * SCALE },
    );
  });
});

// ---------------------------------------------------------------------------
// Garbage in: never throws, changes only what it says it changed.

function positionAt(text: string, offset: number): { line: number; column: number } {
  let ln = 1;
  let lineStart = 0;
  for (let k = 0; k < offset; k++) {
    if (text.charCodeAt(k) === 10) {
      ln++;
      lineStart = k + 1;
    }
  }
  return { line: ln, column: offset - lineStart + 1 };
}

function checkSpan(reply: string, span: Span, what: string): void {
  assert.ok(0 <= span.from && span.from <= span.to && span.to <= reply.length, `${what}: ${show(span)} outside the reply`);
  assert.deepEqual(span.start, positionAt(reply, span.from), `${what}: start of ${show(span)}`);
  assert.deepEqual(span.end, positionAt(reply, span.to), `${what}: end of ${show(span)}`);
}

function checkInvariants(files: Record<string, string>, reply: string, r: ApplyResult): void {
  const parsed = roo.parse(reply, { files: Object.keys(files) });
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

  const applied = r.edits.filter((e) => e.status === 'applied' && e.code !== 'duplicate');
  for (const path of new Set([...Object.keys(files), ...Object.keys(r.files)])) {
    const mine = applied.filter((e) => e.file === path);
    if (!Object.hasOwn(files, path)) assert.ok(mine.length > 0 && mine.every((e) => e.kind === 'append'), `unexpected file ${show(path)}`);
    if (mine.length === 0) {
      assert.equal(r.files[path], files[path], `${path} changed without an applied edit`);
      continue;
    }
    // Applied edits change exactly their ranges; the new lines are the REPLACE lines, possibly re-indented
    // (whitespace and fuzzy matches), so only the untouched lines are compared here.
    const original = parseText(files[path] ?? '');
    const result = parseText(r.files[path] ?? '');
    const splices: Splice[] = mine.map((e) => ({ from: e.range!.start - 1, to: e.range!.end, lines: parsed.edits[e.index].new }));
    const expected = parseText(formatText(applySplices(original, splices)));
    if (mine.every((e) => e.match === 'exact' || e.match === 'offset')) {
      assert.equal(r.files[path], formatText(applySplices(original, splices)), `${path} is not its applied edits`);
    } else {
      assert.equal(result.lines.length, expected.lines.length, `${path}: line count`);
      assert.equal(result.bom, original.bom);
    }
  }
}

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
      .tuple(...paths.map(() => fc.tuple(fc.array(fc.oneof(rooLine, codeLine), { maxLength: 20 }), fc.constantFrom('\n', '\r\n'), fc.boolean())))
      .map((contents) => Object.fromEntries(paths.map((p, k) => [p, contents[k][0].join(contents[k][1]) + (contents[k][2] ? contents[k][1] : '')]))),
  );

describe('roo garbage replies', () => {
  it('never throw, and files change only by the applied edits', () => {
    const seen = new Map<string, number>();
    fc.assert(
      fc.property(smallFiles.chain((files) => fc.tuple(fc.constant(files), garbageReply(files))), ([files, reply]) => {
        const r = apply(files, reply);
        checkInvariants(files, reply, r);
        roo.detect(reply);
        for (const e of r.edits) {
          const key = e.status === 'applied' ? `applied ${e.match}` : `failed ${e.code}`;
          seen.set(key, (seen.get(key) ?? 0) + 1);
        }
      }),
      { numRuns: 1000 * SCALE },
    );
    if (process.env.PROPERTY_STATS) console.log(seen);
    for (const key of ['applied exact', 'applied offset', 'applied whitespace', 'failed truncated', 'failed no-match', 'failed malformed']) {
      assert.ok(seen.has(key), `no ${key} edit in the run: ${show([...seen])}`);
    }
  });

  it('fuzzy matching (threshold 0.8) keeps the invariants', () => {
    fc.assert(
      fc.property(smallFiles.chain((files) => fc.tuple(fc.constant(files), garbageReply(files))), ([files, reply]) => {
        const r = applyRequest({ format: 'roo', files, response: reply, options: { fuzzyThreshold: 0.8 } });
        checkInvariants(files, reply, r);
      }),
      { numRuns: 300 * SCALE },
    );
  });
});
