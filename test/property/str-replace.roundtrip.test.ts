// Properties of the text-editor tool call (str_replace) pipeline: writer ->
// reply -> parser -> matcher -> applier.
//
// - round trip: writing the change from `before` to `after` and applying the
//   reply to `before` gives `after` byte for byte (also for new files, and
//   several files at once);
// - garbage: any reply is read without throwing, every finding is a known
//   code with a span inside the reply, and a file changes only through edits
//   reported as applied;
// - truncation: a written reply cut anywhere applies only edits the whole
//   reply applies, at the same place, and at most the last one is truncated.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { CODES } from '../../src/core/diagnostics.ts';
import type { ApplyResult, Span } from '../../src/core/types.ts';
import { applyRequest } from '../../src/formats/index.ts';
import { strReplace } from '../../src/formats/str-replace/index.ts';
import { PATHS, build, fileLine, fileVersion, line, style, type Version } from './arbitraries.ts';

const SCALE = Number(process.env.PROPERTY_RUNS_SCALE ?? 1);
const RUNS = 300 * SCALE;

/** Lines that look like the format's own syntax: JSON, escapes, fences. */
const JSON_MARKERS = [
  '{"command": "str_replace", "path": "a.txt", "old_str": "x", "new_str": "y"}',
  '{"command": "view", "path": "a.txt"}',
  '"old_str": "\\n"',
  '\\n',
  '\\"',
  '{',
  '}',
  '[{',
  '```json',
  '```',
  '  x = 1',
  'x = 1',
];

const strLine: fc.Arbitrary<string> = fc.oneof({ weight: 4, arbitrary: fileLine }, { weight: 1, arbitrary: fc.constantFrom(...JSON_MARKERS) });
const versions = fileVersion(fc.array(strLine, { maxLength: 30 }));

const apply = (files: Record<string, string>, response: string): ApplyResult => applyRequest({ format: 'str-replace', files, response });
const show = (v: unknown) => JSON.stringify(v);

const manyFiles = (version: fc.Arbitrary<Version>, max = 4) =>
  fc
    .uniqueArray(fc.constantFrom(...PATHS), { minLength: 1, maxLength: max })
    .chain((paths) => fc.tuple(fc.constant(paths), fc.array(version, { minLength: paths.length, maxLength: paths.length })));

describe('str-replace round trip: write(before, after) applied to before gives after', () => {
  it('one file', () => {
    fc.assert(
      fc.property(versions, (v) => {
        const reply = strReplace.write([{ file: 'f.txt', before: v.before, after: v.after }]);
        const r = apply({ 'f.txt': v.before }, reply);
        assert.equal(r.files['f.txt'], v.after, `reply:\n${reply}\nresult: ${show(r.edits)}`);
        assert.equal(r.ok, true, show(r.edits));
        for (const e of r.edits) {
          assert.equal(e.match, 'exact');
          assert.equal(e.code, null);
        }
        assert.deepEqual(r.diagnostics.map((d) => d.code), v.before === v.after ? ['no-edits'] : []);
      }),
      { numRuns: RUNS },
    );
  });

  it('several files, and new files of any style, in one reply', () => {
    const created = fc.tuple(fc.array(strLine, { maxLength: 8 }), style).map(([ls, s]) => build(ls, s));
    fc.assert(
      fc.property(manyFiles(versions), fc.array(fc.boolean(), { minLength: 4, maxLength: 4 }), fc.array(created, { minLength: 4, maxLength: 4 }), ([paths, vs], fresh, texts) => {
        const files: Record<string, string> = {};
        const expected: Record<string, string> = {};
        const changes = paths.map((file, k) => {
          if (fresh[k]) {
            expected[file] = texts[k];
            return { file, before: null, after: texts[k] };
          }
          files[file] = vs[k].before;
          expected[file] = vs[k].after;
          return { file, before: vs[k].before, after: vs[k].after };
        });
        const reply = strReplace.write(changes);
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

function positionAt(text: string, offset: number): { line: number; column: number } {
  let ln = 1;
  let start = 0;
  for (let k = 0; k < offset; k++) {
    if (text.charCodeAt(k) === 10) {
      ln++;
      start = k + 1;
    }
  }
  return { line: ln, column: offset - start + 1 };
}

function checkSpan(reply: string, span: Span, what: string): void {
  assert.ok(0 <= span.from && span.from <= span.to && span.to <= reply.length, `${what}: ${show(span)} outside the reply`);
  assert.deepEqual(span.start, positionAt(reply, span.from), `${what}: start of ${show(span)}`);
  assert.deepEqual(span.end, positionAt(reply, span.to), `${what}: end of ${show(span)}`);
}

function checkInvariants(files: Record<string, string>, reply: string, r: ApplyResult): void {
  const parsed = strReplace.parse(reply, { files: Object.keys(files) });
  assert.equal(r.edits.length, parsed.edits.length);
  r.edits.forEach((e, k) => {
    assert.equal(e.index, k);
    if (e.code !== null) assert.ok((CODES as readonly string[]).includes(e.code), e.code);
    if (e.status === 'failed') {
      assert.equal(e.range, null);
      assert.notEqual(e.code, null);
      assert.ok(e.message.length > 0);
    }
    checkSpan(reply, e.reply, `edit ${k}`);
    const p = parsed.edits[k];
    if (p.error?.reply) checkSpan(reply, p.error.reply, `edit ${k} error`);
    p.oldSpans?.forEach((s, j) => checkSpan(reply, s, `edit ${k} old span ${j}`));
    if (k > 0) assert.ok(parsed.edits[k - 1].span.to <= p.span.from, 'edits in reply order, not overlapping');
  });
  assert.equal(r.ok, r.edits.every((e) => e.status === 'applied'));
  const touched = new Set(r.edits.filter((e) => e.status === 'applied').map((e) => e.file));
  for (const path of new Set([...Object.keys(files), ...Object.keys(r.files)])) {
    if (!touched.has(path)) assert.equal(r.files[path], files[path], `${path} changed without an applied edit`);
  }
}

/** Something shaped like tool calls for `files`: real text mostly, JSON sometimes damaged. */
const callish = (files: Record<string, string>): fc.Arbitrary<string> => {
  const paths = Object.keys(files);
  const call = fc
    .record({
      file: fc.oneof({ weight: 4, arbitrary: paths.length ? fc.constantFrom(...paths) : fc.constant('a.txt') }, { weight: 1, arbitrary: fc.constantFrom('nope.txt', '/abs/a.txt', '../x', '') }),
      command: fc.constantFrom('str_replace', 'str_replace', 'str_replace', 'insert', 'create', 'view', 'undo_edit', 'delete'),
      at: fc.nat(),
      count: fc.integer({ min: 0, max: 30 }),
      insertLine: fc.oneof(fc.nat({ max: 25 }), fc.constant(-1), fc.constant('3')),
      added: fc.array(line, { maxLength: 2 }),
      wrap: fc.constantFrom('bare', 'bare', 'tool_use', 'named', 'array', 'fence'),
      damage: fc.constantFrom('none', 'none', 'none', 'cut', 'comma', 'newline', 'drop'),
    })
    .map((c) => {
      const text = (files[c.file] ?? '').replace(/\r\n/g, '\n');
      const from = text.length ? c.at % text.length : 0;
      const args: Record<string, unknown> = { command: c.command, path: c.file };
      if (c.command === 'str_replace') Object.assign(args, { old_str: text.slice(from, from + c.count), new_str: c.added.join('\n') });
      if (c.command === 'insert') Object.assign(args, { insert_line: c.insertLine, new_str: c.added.join('\n') });
      if (c.command === 'create') Object.assign(args, { file_text: c.added.join('\n') });
      if (c.damage === 'drop') delete args[Object.keys(args)[c.at % Object.keys(args).length]];
      let json = JSON.stringify(args);
      if (c.wrap === 'tool_use') json = `{"type":"tool_use","id":"t1","name":"str_replace_based_edit_tool","input":${json}}`;
      if (c.wrap === 'named') json = `{"name":"str_replace_editor","input":${json}}`;
      if (c.wrap === 'array') json = `[${json}]`;
      if (c.damage === 'cut') json = json.slice(0, c.at % json.length);
      if (c.damage === 'comma') json = json.replace(',', ',,');
      if (c.damage === 'newline') json = json.replace('\\n', '\n');
      return c.wrap === 'fence' ? '```json\n' + json + '\n```' : json;
    });
  return fc
    .tuple(fc.array(fc.oneof({ weight: 3, arbitrary: call }, { weight: 1, arbitrary: fc.constantFrom(...JSON_MARKERS, 'Here you go:', 'Done.') }), { maxLength: 5 }), fc.constantFrom('\n', '\r\n', '\n\n'))
    .map(([parts, sep]) => parts.join(sep));
};

const smallFiles: fc.Arbitrary<Record<string, string>> = fc
  .uniqueArray(fc.constantFrom(...PATHS), { minLength: 0, maxLength: 3 })
  .chain((paths) =>
    fc.tuple(...paths.map(() => fc.tuple(fc.array(strLine, { maxLength: 15 }), fc.constantFrom('\n', '\r\n')))).map((contents) =>
      Object.fromEntries(paths.map((p, k) => [p, contents[k][0].join(contents[k][1]) + contents[k][1]])),
    ),
  );

describe('str-replace garbage replies', () => {
  it('random text never throws and changes no file', () => {
    fc.assert(
      fc.property(smallFiles, fc.oneof(fc.string({ maxLength: 200 }), fc.string({ unit: 'grapheme', maxLength: 100 }), fc.json()), (files, reply) => {
        const r = apply(files, reply);
        checkInvariants(files, reply, r);
        if (!reply.includes('command')) assert.deepEqual(r.files, files);
      }),
      { numRuns: 500 * SCALE },
    );
  });

  it('call-shaped replies keep the invariants and reach the interesting outcomes', () => {
    const seen = new Set<string>();
    fc.assert(
      fc.property(smallFiles.chain((files) => fc.tuple(fc.constant(files), callish(files))), ([files, reply]) => {
        const r = apply(files, reply);
        checkInvariants(files, reply, r);
        for (const e of r.edits) seen.add(e.status === 'applied' ? `applied ${e.match}` : `failed ${e.code}`);
      }),
      { numRuns: 500 * SCALE },
    );
    const expected = ['applied exact', 'failed no-match', 'failed ambiguous', 'failed malformed', 'failed truncated', 'failed file-not-found', 'failed missing-path', 'failed overlap'];
    for (const key of expected) assert.ok(seen.has(key), `no ${key} edit in the run: ${show([...seen])}`);
  });
});

// ---------------------------------------------------------------------------
// Truncation.

describe('str-replace truncated replies', () => {
  it('a reply cut anywhere applies only edits the whole reply applies, at the same place; at most the last is truncated', () => {
    fc.assert(
      fc.property(manyFiles(fileVersion(fc.array(strLine, { maxLength: 10 })), 2), ([paths, vs]) => {
        const files = Object.fromEntries(paths.map((p, k) => [p, vs[k].before]));
        const reply = strReplace.write(paths.map((file, k) => ({ file, before: vs[k].before, after: vs[k].after })));
        const full = apply(files, reply);
        for (let cut = 0; cut < reply.length; cut++) {
          const prefix = reply.slice(0, cut);
          const r = apply(files, prefix);
          const where = `cut at ${cut}: ${show(prefix.slice(-40))}`;
          assert.ok(r.edits.length <= full.edits.length, where);
          r.edits.forEach((e, k) => {
            if (e.status === 'applied') {
              assert.deepEqual(e.range, full.edits[k].range, where);
              assert.equal(e.file, full.edits[k].file, where);
            } else {
              assert.equal(e.code, 'truncated', `${where}: ${e.message}`);
              assert.equal(k, r.edits.length - 1, where);
            }
          });
        }
      }),
      { numRuns: 40 * SCALE },
    );
  });
});
