// Properties of the whole hashline pipeline: writer -> reply -> parser ->
// locate -> applier.
//
// - round trip: writing the change from `before` to `after` and applying the
//   reply to `before` gives `after` byte for byte (new files included);
// - check and set: a damaged tag, or a changed cited line, fails exactly the
//   edits that cite it, with tag-mismatch, and the others still apply;
// - truncation: a reply cut anywhere applies exactly its complete calls;
// - garbage: any reply is read without throwing, and a file changes only
//   through the edits reported as applied.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { CODES } from '../../src/core/diagnostics.ts';
import { applySplices, formatText, parseText, type Splice } from '../../src/core/text.ts';
import type { ApplyResult, Span } from '../../src/core/types.ts';
import { applyRequest } from '../../src/formats/index.ts';
import { hashline } from '../../src/formats/hashline/index.ts';
import { fileTag, lineTag } from '../../src/formats/hashline/tag.ts';
import { PATHS, fileLine, line, style, version, lineEdit, codeLine, type Version } from './arbitraries.ts';

const SCALE = Number(process.env.PROPERTY_RUNS_SCALE ?? 1);
const RUNS = 300 * SCALE;

const apply = (files: Record<string, string>, response: string): ApplyResult => applyRequest({ format: 'hashline', files, response });
const show = (v: unknown) => JSON.stringify(v);

/** Lines that look like the format's own syntax: calls, view rows, tags, fences, JSON punctuation. */
const HASHLINE_MARKERS = [
  '{"tool": "edit", "path": "a.txt", "line": 1, "tag": "AAAA", "new": "x"}',
  '{"tool":"write","path":"f.txt","content":""}',
  '[{"tool": "edit"}]',
  '{"lines": "1:AAAA\\n2:t75D"}',
  '12:AAAA',
  '3:t75D a',
  'file_tag:00000000',
  '```json',
  '```',
  '{',
  '}',
  '"',
  '\\',
  '\\n',
  '{"tool": "edit", "path": "f.txt", "new": "',
  "{'tool': 'edit'}",
];

const hashLine: fc.Arbitrary<string> = fc.oneof(
  { weight: 4, arbitrary: fileLine },
  { weight: 1, arbitrary: fc.constantFrom(...HASHLINE_MARKERS) },
  { weight: 1, arbitrary: fc.tuple(fc.constantFrom('', '  ', '\t'), fc.constantFrom(...HASHLINE_MARKERS), fc.constantFrom('', ' ', '\t', '  ')).map(([a, b, c]) => a + b + c) },
);

/** A file's before and after, from hashline-flavoured lines. */
const fileVersion = (max = 30): fc.Arbitrary<Version> =>
  fc
    .tuple(fc.array(hashLine, { maxLength: max }), fc.array(fc.record({ at: lineEdit.map((e) => e.at), remove: lineEdit.map((e) => e.remove), insert: fc.array(hashLine, { maxLength: 4 }) }), { maxLength: 5 }), style)
    .map(([b, e, s]) => version(b, e, s));

const manyFiles = (v: fc.Arbitrary<Version>, max = 4) =>
  fc
    .uniqueArray(fc.constantFrom(...PATHS), { minLength: 1, maxLength: max })
    .chain((paths) => fc.tuple(fc.constant(paths), fc.array(v, { minLength: paths.length, maxLength: paths.length })));

const befores = (paths: string[], vs: Version[]) => Object.fromEntries(paths.map((p, k) => [p, vs[k].before]));
const afters = (paths: string[], vs: Version[]) => Object.fromEntries(paths.map((p, k) => [p, vs[k].after]));
const writeAll = (paths: string[], vs: Version[]) => hashline.write(paths.map((file, k) => ({ file, before: vs[k].before, after: vs[k].after })));

describe('hashline round trip: write(before, after) applied to before gives after', () => {
  it('one file', () => {
    fc.assert(
      fc.property(fileVersion(), (v) => {
        const reply = hashline.write([{ file: 'f.txt', before: v.before, after: v.after }]);
        const r = apply({ 'f.txt': v.before }, reply);
        assert.equal(r.files['f.txt'], v.after, `reply:\n${reply}\nresult: ${show(r.edits)}`);
        assert.equal(r.ok, true, show(r.edits));
        for (const e of r.edits) {
          assert.equal(e.status, 'applied');
          assert.equal(e.match, 'exact');
          assert.equal(e.offset, 0);
          assert.equal(e.similarity, 1);
          assert.equal(e.code, null);
          assert.deepEqual(e.warnings, []);
        }
        assert.deepEqual(r.diagnostics.map((d) => d.code), v.before === v.after ? ['no-edits'] : []);
      }),
      { numRuns: RUNS },
    );
  });

  it('several files in one reply', () => {
    fc.assert(
      fc.property(manyFiles(fileVersion()), ([paths, vs]) => {
        const reply = writeAll(paths, vs);
        const r = apply(befores(paths, vs), reply);
        assert.deepEqual(r.files, afters(paths, vs), `reply:\n${reply}`);
        assert.equal(r.ok, true);
      }),
      { numRuns: RUNS },
    );
  });

  it('new files, written with write calls', () => {
    fc.assert(
      fc.property(fc.array(hashLine, { maxLength: 20 }), (lines) => {
        const after = lines.map((l) => l + '\n').join('');
        const reply = hashline.write([{ file: 'new/file.txt', before: null, after }]);
        const r = apply({}, reply);
        assert.equal(r.ok, true, show(r.edits));
        assert.deepEqual(r.files, { 'new/file.txt': after });
        assert.deepEqual(r.edits.map((e) => e.kind), ['write']);
      }),
      { numRuns: RUNS },
    );
  });

  it('the read view shows every line with its tag, and the reply cites the tags of before', () => {
    fc.assert(
      fc.property(fileVersion(), (v) => {
        const rows = hashline.view!(v.before).split('\n');
        assert.equal(rows.pop(), '');
        assert.equal(rows.shift(), `file_tag:${fileTag(v.beforeLines)}`);
        assert.equal(rows.length, v.beforeLines.length);
        rows.forEach((row, i) => {
          const l = v.beforeLines[i];
          assert.equal(row, `${i + 1}:${lineTag(l)}${l === '' ? '' : ' ' + l}`);
        });
        const reply = hashline.write([{ file: 'f.txt', before: v.before, after: v.after }]);
        for (const e of hashline.parse(reply, { files: ['f.txt'] }).edits) {
          assert.equal(e.error, undefined);
          const lines = e.meta!.lines as number[];
          assert.deepEqual(e.old, lines.map((n) => lineTag(v.beforeLines[n - 1])));
          e.oldSpans?.forEach((s, k) => assert.equal(reply.slice(s.from, s.to), e.old[k]));
        }
      }),
      { numRuns: RUNS },
    );
  });
});

describe('check and set', () => {
  it('a damaged tag fails that edit with tag-mismatch and no other', () => {
    fc.assert(
      fc.property(manyFiles(fileVersion(), 2), fc.nat(), ([paths, vs], pick) => {
        const files = befores(paths, vs);
        const calls = writeAll(paths, vs).split('\n').filter(Boolean);
        const tagged = calls.map((c, i) => [c, i] as const).filter(([c]) => /"tag":"|"lines":"/.test(c));
        fc.pre(tagged.length > 0);
        const [call, k] = tagged[pick % tagged.length];
        // Swap the case of a letter in the first tag (or change a digit): a different tag.
        const damaged = call.replace(/("tag":"|"lines":"\d+:)([A-Za-z0-9_-]{4})/, (_, head: string, tag: string) => head + (tag[0] === 'A' ? 'B' : 'A') + tag.slice(1));
        assert.notEqual(damaged, call);
        const reply = calls.map((c, i) => (i === k ? damaged : c)).join('\n');
        const r = apply(files, reply);
        r.edits.forEach((e, i) => assert.equal(e.status, i === k ? 'failed' : 'applied', show(e)));
        assert.equal(r.edits[k].code, 'tag-mismatch');
        const without = calls.filter((_, i) => i !== k).join('\n');
        assert.deepEqual(r.files, apply(files, without).files);
      }),
      { numRuns: RUNS },
    );
  });

  it('a file changed since the read fails exactly the edits that cite the changed line', () => {
    fc.assert(
      fc.property(fileVersion(), fc.nat(), line, (v, pick, replacement) => {
        fc.pre(v.beforeLines.length > 0 && v.before !== v.after);
        const k = pick % v.beforeLines.length;
        fc.pre(lineTag(replacement) !== lineTag(v.beforeLines[k]) && !replacement.includes('\n') && !replacement.includes('\r'));
        const reply = hashline.write([{ file: 'f.txt', before: v.before, after: v.after }]);
        const changed = [...v.beforeLines];
        changed[k] = replacement;
        const text = v.style.bom ? '\uFEFF' : '';
        const now = text + changed.join(v.style.eol) + (v.style.final ? v.style.eol : '');
        fc.pre(parseText(now).lines.length === changed.length);
        const r = apply({ 'f.txt': now }, reply);
        const parsed = hashline.parse(reply, { files: ['f.txt'] }).edits;
        r.edits.forEach((e, i) => {
          const cites = (parsed[i].meta!.lines as number[]).includes(k + 1);
          assert.equal(e.status, cites ? 'failed' : 'applied', show(e));
          if (cites) assert.equal(e.code, 'tag-mismatch');
        });
      }),
      { numRuns: RUNS },
    );
  });
});

describe('truncated replies', () => {
  it('a reply cut anywhere applies exactly its complete calls', () => {
    fc.assert(
      fc.property(manyFiles(fileVersion(10), 2), ([paths, vs]) => {
        const files = befores(paths, vs);
        const reply = writeAll(paths, vs);
        const full = apply(files, reply);
        const parsedFull = hashline.parse(reply, { files: paths }).edits;
        const ends = parsedFull.map((e) => e.span.to);
        const starts = parsedFull.map((e) => e.span.from);
        for (let cut = 0; cut <= reply.length; cut++) {
          const prefix = reply.slice(0, cut);
          const r = apply(files, prefix);
          const complete = ends.filter((e) => e <= cut).length;
          const started = starts.filter((s) => s < cut).length;
          const where = `cut at ${cut}: ${show(prefix.slice(-40))}`;
          assert.ok(r.edits.length === complete || (r.edits.length === complete + 1 && started > complete), `${where}: ${r.edits.length} edits`);
          for (let k = 0; k < complete; k++) {
            assert.equal(r.edits[k].status, 'applied', where);
            assert.deepEqual(r.edits[k].range, full.edits[k].range, where);
          }
          if (r.edits.length > complete) {
            assert.equal(r.edits[complete].status, 'failed', where);
            assert.equal(r.edits[complete].code, 'truncated', where);
          }
          for (const path of paths) {
            const mine = full.edits.slice(0, complete).filter((e) => e.file === path);
            const splices = mine.map((e) => ({ from: e.range!.start - 1, to: e.range!.end, lines: parsedFull[e.index].new }));
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
  const parsed = hashline.parse(reply, { files: Object.keys(files) });
  assert.equal(r.edits.length, parsed.edits.length);
  let previous = -1;
  r.edits.forEach((e, k) => {
    assert.equal(e.index, k);
    if (e.code !== null) assert.ok((CODES as readonly string[]).includes(e.code), e.code);
    if (e.status === 'failed') {
      assert.equal(e.range, null);
      assert.notEqual(e.code, null, `failed edit without a code: ${show(e)}`);
      assert.ok(e.message.length > 0);
    } else {
      assert.equal(e.match, 'exact');
      assert.notEqual(e.range, null);
    }
    checkSpan(reply, e.reply, `edit ${k} span`);
    // Edits are in reply order and do not overlap in the reply.
    assert.ok(e.reply.from >= previous, `edit ${k} starts before the previous one ends`);
    previous = e.reply.to;
    const p = parsed.edits[k];
    p.oldSpans?.forEach((s, j) => {
      checkSpan(reply, s, `edit ${k} old span ${j}`);
      assert.equal(reply.slice(s.from, s.to), p.old[j]);
    });
    if (p.error?.reply) checkSpan(reply, p.error.reply, `edit ${k} error`);
  });
  assert.equal(r.ok, r.edits.every((e) => e.status === 'applied'));

  const applied = r.edits.filter((e) => e.status === 'applied' && e.code !== 'duplicate');
  for (const path of new Set([...Object.keys(files), ...Object.keys(r.files)])) {
    const mine = applied.filter((e) => e.file === path);
    if (!Object.hasOwn(files, path)) assert.ok(mine.length > 0 && mine.every((e) => e.kind === 'write'), `unexpected file ${show(path)}`);
    if (mine.length === 0) {
      assert.equal(r.files[path], files[path], `${path} changed without an applied edit`);
      continue;
    }
    const original = parseText(files[path] ?? '');
    const splices: Splice[] = mine.map((e) => ({ from: e.range!.start - 1, to: e.range!.end, lines: parsed.edits[e.index].new }));
    assert.equal(r.files[path], formatText(applySplices(original, splices)), `${path} is not its applied edits`);
  }
}

/** Something shaped like a call for one of `files`, possibly wrong in any part, possibly broken JSON. */
const callish = (files: Record<string, string>): fc.Arbitrary<string> => {
  const paths = Object.keys(files);
  return fc
    .record({
      file: paths.length ? fc.constantFrom(...paths) : fc.constant('a.txt'),
      path: fc.oneof({ weight: 9, arbitrary: fc.constant(null) }, { weight: 1, arbitrary: fc.constantFrom('nope.txt', '/abs.txt', '../x.txt', '', './a.txt', 7) }),
      tool: fc.constantFrom('edit', 'edit', 'edit', 'edit', 'edit', 'write', 'read', 'Edit', null),
      op: fc.constantFrom(null, null, null, null, 'replace', 'insert_after', 'delete', 'append'),
      at: fc.nat(),
      count: fc.constantFrom(0, 1, 1, 1, 2, 3),
      shift: fc.constantFrom(0, 0, 0, 0, 0, 0, 1, -1, 50),
      cite: fc.constantFrom('line', 'line', 'lines', 'lines', 'lines', 'range', 'range', 'lineString', 'none'),
      damage: fc.constantFrom('none', 'none', 'none', 'none', 'none', 'tag', 'gap', 'fileTag'),
      withFileTag: fc.boolean(),
      newValue: fc.oneof(
        { weight: 6, arbitrary: fc.array(hashLine, { maxLength: 3 }).map((ls) => ls.join('\n')) },
        { weight: 2, arbitrary: fc.array(hashLine, { maxLength: 3 }) },
        { weight: 1, arbitrary: fc.constantFrom(null, 5) },
      ),
      hasNew: fc.constantFrom(true, true, true, true, false),
      pretty: fc.boolean(),
      breakAt: fc.oneof({ weight: 5, arbitrary: fc.constant(null) }, { weight: 1, arbitrary: fc.nat() }),
      breakHow: fc.constantFrom('cut', 'drop', 'quote'),
    })
    .map((c) => {
      const lines = parseText(files[c.file] ?? '').lines;
      const from = lines.length ? c.at % lines.length : 0;
      const cited = Array.from({ length: Math.min(c.count, Math.max(0, lines.length - from)) }, (_, k) => from + k);
      const n = (i: number) => i + 1 + c.shift;
      const tag = (i: number) => (c.damage === 'tag' ? 'zzzz' : lineTag(lines[i] ?? ''));
      const call: Record<string, unknown> = {};
      if (c.tool !== null) call.tool = c.tool;
      call.path = c.path === null ? c.file : c.path;
      if (c.op !== null) call.op = c.op;
      if (c.withFileTag || (c.cite === 'range' && c.at % 4 !== 0)) call.file_tag = c.damage === 'fileTag' ? '0badf00d' : fileTag(lines);
      switch (c.cite) {
        case 'line':
          call.line = cited.length ? n(cited[0]) : 0;
          if (cited.length) call.tag = tag(cited[0]);
          break;
        case 'lineString':
          call.line = cited.length ? `${n(cited[0])}:${tag(cited[0])}` : '0';
          break;
        case 'lines':
          call.lines = cited.map((i, k) => `${n(i) + (c.damage === 'gap' && k > 0 ? 1 : 0)}:${tag(i)}`).join('\n');
          break;
        case 'range':
          call.range = cited.length ? [n(cited[0]), n(cited[cited.length - 1])] : [1, 0];
          break;
      }
      if (c.hasNew) call[c.tool === 'write' ? 'content' : 'new'] = c.newValue;
      let text = JSON.stringify(call, null, c.pretty ? 2 : undefined);
      if (c.breakAt !== null) {
        const at = c.breakAt % (text.length + 1);
        text = c.breakHow === 'cut' ? text.slice(0, at) : c.breakHow === 'drop' ? text.slice(0, at) + text.slice(at + 1) : text.slice(0, at) + '"' + text.slice(at);
      }
      return text;
    });
};

const replyLine: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(...HASHLINE_MARKERS),
  fc.constantFrom('Here is the change:', 'Sure!', '```', '```json', '~~~', '{x}', '[1, {2}]', '{"a": [1, 2]}'),
  line,
);

const garbageReply = (files: Record<string, string>): fc.Arbitrary<string> =>
  fc.oneof(
    fc.string({ maxLength: 200 }),
    fc.string({ unit: fc.constantFrom('{', '}', '[', ']', '"', ':', ',', '\\', 'n', ' ', '\n', 'tool', 'edit', 'lines', '1:AAAA', 'null', '0'), maxLength: 60 }),
    fc.tuple(fc.array(replyLine, { maxLength: 30 }), fc.constantFrom('\n', '\r\n')).map(([ls, eol]) => ls.join(eol)),
    fc
      .tuple(
        fc.array(fc.oneof({ weight: 3, arbitrary: callish(files) }, { weight: 1, arbitrary: fc.array(replyLine, { maxLength: 3 }).map((ls) => ls.join('\n')) }), { maxLength: 6 }),
        fc.constantFrom('\n', '\r\n', ' ', ',\n'),
        fc.constantFrom(['', ''], ['[', ']'], ['```json\n', '\n```'], ['{"calls": [', ']}']),
      )
      .map(([parts, sep, [open, close]]) => open + parts.join(sep) + close),
  );

const smallFiles: fc.Arbitrary<Record<string, string>> = fc
  .uniqueArray(fc.constantFrom(...PATHS), { minLength: 0, maxLength: 3 })
  .chain((paths) =>
    fc
      .tuple(...paths.map(() => fc.tuple(fc.array(fc.oneof(hashLine, codeLine), { maxLength: 12 }), fc.constantFrom('\n', '\r\n'), fc.boolean())))
      .map((contents) => Object.fromEntries(paths.map((p, k) => [p, contents[k][0].join(contents[k][1]) + (contents[k][2] ? contents[k][1] : '')]))),
  );

describe('garbage replies', () => {
  it('never throw, and files change only by the applied edits', () => {
    const seen = new Map<string, number>();
    fc.assert(
      fc.property(smallFiles.chain((files) => fc.tuple(fc.constant(files), garbageReply(files))), ([files, reply]) => {
        const r = apply(files, reply);
        checkInvariants(files, reply, r);
        for (const e of r.edits) {
          const key = e.status === 'applied' ? `applied ${e.kind}` : `failed ${e.code}`;
          seen.set(key, (seen.get(key) ?? 0) + 1);
        }
      }),
      { numRuns: 1000 * SCALE },
    );
    if (process.env.PROPERTY_STATS) console.log(seen);
    for (const key of ['applied replace', 'failed tag-mismatch', 'failed malformed', 'failed truncated', 'failed no-match', 'failed stale-file']) {
      assert.ok(seen.has(key), `no ${key} edit in the run: ${show([...seen])}`);
    }
  });

  it('a valid reply with garbage lines mixed in keeps the invariants', () => {
    fc.assert(
      fc.property(manyFiles(fileVersion(), 3), fc.array(fc.tuple(fc.nat(), replyLine), { maxLength: 6 }), ([paths, vs], inserts) => {
        const rows = writeAll(paths, vs).split('\n');
        for (const [at, l] of inserts) rows.splice(at % (rows.length + 1), 0, l);
        const files = befores(paths, vs);
        const reply = rows.join('\n');
        checkInvariants(files, reply, apply(files, reply));
      }),
      { numRuns: RUNS },
    );
  });
});
