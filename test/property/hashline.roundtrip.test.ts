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
import { parseText } from '../../src/core/text.ts';
import { hashline } from '../../src/formats/hashline/index.ts';
import { fileTag, lineTag } from '../../src/formats/hashline/tag.ts';
import { afters, befores, changesOf, codeLine, fileLine, line, linesReply, manyFiles, textFiles, versionOf, type Version } from './arbitraries.ts';
import { RUNS, SCALE, applier, byKind, checkCompletePrefix, checkGarbage, checkOneFileRoundTrip, checkInvariants, forEachCut, show, type InvariantOptions } from './invariants.ts';

const apply = applier('hashline');

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
const fileVersion = (max = 30): fc.Arbitrary<Version> => versionOf(hashLine, max);

const writeAll = (paths: string[], vs: Version[]) => hashline.write(changesOf(paths, vs));

describe('hashline round trip: write(before, after) applied to before gives after', () => {
  it('one file', () => {
    checkOneFileRoundTrip(hashline, fileVersion(), {
      edit: (e) => {
        assert.equal(e.offset, 0);
        assert.equal(e.similarity, 1);
      },
    });
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
        forEachCut(reply, 0, 40, (prefix, cut, where) => {
          const r = apply(files, prefix);
          const complete = ends.filter((e) => e <= cut).length;
          const started = starts.filter((s) => s < cut).length;
          // A call cut short reads as a truncated edit, or not at all.
          assert.ok(r.edits.length === complete || (r.edits.length === complete + 1 && started > complete), `${where}: ${r.edits.length} edits`);
          checkCompletePrefix(files, full, { edits: parsedFull, diagnostics: [] }, r, r.edits.length, complete, where);
        });
      }),
      { numRuns: 60 * SCALE },
    );
  });
});

// ---------------------------------------------------------------------------
// Garbage in: never throws, changes only what it says it changed.

/** Only an applied write creates a file, and an applied edit always matches exactly (tags check each cited line). */
const invariants: InvariantOptions = {
  creates: ['write'],
  edit: (e) => {
    if (e.status === 'applied') assert.equal(e.match, 'exact');
  },
};

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
    linesReply(replyLine, 30),
    fc
      .tuple(
        fc.array(fc.oneof({ weight: 3, arbitrary: callish(files) }, { weight: 1, arbitrary: fc.array(replyLine, { maxLength: 3 }).map((ls) => ls.join('\n')) }), { maxLength: 6 }),
        fc.constantFrom('\n', '\r\n', ' ', ',\n'),
        fc.constantFrom(['', ''], ['[', ']'], ['```json\n', '\n```'], ['{"calls": [', ']}']),
      )
      .map(([parts, sep, [open, close]]) => open + parts.join(sep) + close),
  );

describe('garbage replies', () => {
  it('never throw, and files change only by the applied edits', () => {
    checkGarbage(hashline, {
      files: textFiles(fc.oneof(hashLine, codeLine), 12),
      reply: garbageReply,
      numRuns: 1000 * SCALE,
      invariants,
      key: byKind,
      expected: ['applied replace', 'failed tag-mismatch', 'failed malformed', 'failed truncated', 'failed no-match', 'failed stale-file'],
    });
  });

  it('a valid reply with garbage lines mixed in keeps the invariants', () => {
    fc.assert(
      fc.property(manyFiles(fileVersion(), 3), fc.array(fc.tuple(fc.nat(), replyLine), { maxLength: 6 }), ([paths, vs], inserts) => {
        const rows = writeAll(paths, vs).split('\n');
        for (const [at, l] of inserts) rows.splice(at % (rows.length + 1), 0, l);
        const files = befores(paths, vs);
        const reply = rows.join('\n');
        checkInvariants(hashline, files, reply, apply(files, reply), invariants);
      }),
      { numRuns: RUNS },
    );
  });
});
