// Properties of the whole format: writer -> reply -> parser -> applier.
//
// - round trip: writing the change from `before` to `after` and applying the
//   reply to `before` gives `after` byte for byte;
// - garbage: any reply is read without throwing, and a file changes only by
//   the writes reported as applied;
// - truncation: a reply cut anywhere writes exactly its complete blocks.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { CODES } from '../../src/core/diagnostics.ts';
import { applySplices, formatText, parseText } from '../../src/core/text.ts';
import type { ApplyResult } from '../../src/core/types.ts';
import { applyRequest } from '../../src/formats/index.ts';
import { whole } from '../../src/formats/whole/index.ts';
import { MARKERS, PATHS, fileLine, line, style, version, type LineEdit, type Version } from './arbitraries.ts';

const SCALE = Number(process.env.PROPERTY_RUNS_SCALE ?? 1);
const RUNS = 300 * SCALE;

/** Lines that look like the whole format's own syntax: fences of every kind, path lines. */
const WHOLE_MARKERS = [
  '```', '````', '`````', '```python', '````md', '  ```', '   ````', '~~~', '~~~~ js', '<source>', '<source>python', '</source>',
  '<code>', '</code>', '<pre>', '</pre>', 'src/b.ts', '### `a.txt`:', 'File: a.txt', '```bash', '@WHOLE FILE@',
];

const wholeLine: fc.Arbitrary<string> = fc.oneof({ weight: 4, arbitrary: fileLine }, { weight: 1, arbitrary: fc.constantFrom(...WHOLE_MARKERS) });

const edits: fc.Arbitrary<LineEdit[]> = fc.array(
  fc.record({ at: fc.nat({ max: 1000 }), remove: fc.nat({ max: 4 }), insert: fc.array(wholeLine, { maxLength: 4 }) }),
  { maxLength: 5 },
);

const wholeVersion: fc.Arbitrary<Version> = fc
  .tuple(fc.array(wholeLine, { maxLength: 25 }), edits, style)
  .map(([b, e, s]) => version(b, e, s));

const apply = (files: Record<string, string>, response: string): ApplyResult => applyRequest({ format: 'whole', files, response });
const show = (v: unknown) => JSON.stringify(v);

const manyFiles = (max = 4) =>
  fc
    .uniqueArray(fc.constantFrom(...PATHS), { minLength: 1, maxLength: max })
    .chain((paths) => fc.tuple(fc.constant(paths), fc.array(wholeVersion, { minLength: paths.length, maxLength: paths.length })));

describe('whole round trip', () => {
  it('one file: write(before, after) applied to before gives after', () => {
    fc.assert(
      fc.property(wholeVersion, (v) => {
        const reply = whole.write([{ file: 'f.txt', before: v.before, after: v.after }]);
        const r = apply({ 'f.txt': v.before }, reply);
        assert.equal(r.files['f.txt'], v.after, `reply:\n${reply}`);
        assert.equal(r.ok, true);
        for (const e of r.edits) {
          assert.deepEqual([e.status, e.match, e.code, e.kind, e.warnings], ['applied', 'exact', null, 'write', []]);
        }
        assert.deepEqual(r.diagnostics.map((d) => d.code), v.before === v.after ? ['no-edits'] : []);
      }),
      { numRuns: RUNS },
    );
  });

  it('several files, some new, in one reply', () => {
    fc.assert(
      fc.property(manyFiles(), fc.array(fc.boolean(), { minLength: 4, maxLength: 4 }), ([paths, versions], fresh) => {
        // A new file is created from nothing: its after text gets LF endings and a final newline.
        const changes = paths.map((file, k) => {
          if (!fresh[k]) return { file, before: versions[k].before as string | null, after: versions[k].after };
          return { file, before: null, after: versions[k].afterLines.map((l) => l + '\n').join('') };
        });
        const files = Object.fromEntries(changes.filter((c) => c.before !== null).map((c) => [c.file, c.before!]));
        const reply = whole.write(changes);
        const r = apply(files, reply);
        const expected = Object.fromEntries(changes.map((c) => [c.file, c.after]));
        assert.deepEqual(r.files, expected, `reply:\n${reply}`);
        assert.equal(r.ok, true, show(r.edits));
      }),
      { numRuns: RUNS },
    );
  });
});

// ---------------------------------------------------------------------------
// Garbage in: never throws, changes only what it says it changed.

function checkInvariants(files: Record<string, string>, reply: string, r: ApplyResult): void {
  const parsed = whole.parse(reply, { files: Object.keys(files) });
  assert.equal(r.edits.length, parsed.edits.length);
  assert.equal(r.ok, r.edits.every((e) => e.status === 'applied'));
  r.edits.forEach((e, k) => {
    assert.equal(e.index, k);
    assert.equal(e.kind, 'write');
    if (e.code !== null) assert.ok((CODES as readonly string[]).includes(e.code), e.code);
    if (e.status === 'failed') {
      assert.equal(e.range, null);
      assert.notEqual(e.code, null);
      assert.ok(e.message.length > 0);
    }
    assert.ok(0 <= e.reply.from && e.reply.from <= e.reply.to && e.reply.to <= reply.length);
  });
  const applied = r.edits.filter((e) => e.status === 'applied' && e.code !== 'duplicate');
  for (const path of new Set([...Object.keys(files), ...Object.keys(r.files)])) {
    const mine = applied.filter((e) => e.file === path);
    if (mine.length === 0) {
      assert.equal(r.files[path], files[path], `${path} changed without an applied edit`);
      continue;
    }
    assert.equal(mine.length, 1, 'two applied writes to one file');
    const original = parseText(files[path] ?? '');
    const text = formatText(applySplices(original, [{ from: 0, to: original.lines.length, lines: parsed.edits[mine[0].index].new }]));
    assert.equal(r.files[path], text, `${path} is not its applied write`);
  }
}

const replyLine: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(...WHOLE_MARKERS, ...MARKERS),
  fc.constantFrom(...PATHS, './a.txt', '`src/b.ts`', '## README.md', '/etc/passwd', '../up.txt', 'new/file.txt', 'b.ts', 'path/to/a.txt'),
  fc.constantFrom('Here is the change:', 'Run `a.txt`:', 'Sure!', 'foo.bar', '```python:src/b.ts', '```sh', ''),
  line,
);

const smallFiles: fc.Arbitrary<Record<string, string>> = fc
  .uniqueArray(fc.constantFrom(...PATHS), { minLength: 0, maxLength: 3 })
  .chain((paths) =>
    fc
      .tuple(...paths.map(() => fc.tuple(fc.array(wholeLine, { maxLength: 10 }), fc.constantFrom('\n', '\r\n'), fc.boolean())))
      .map((contents) => Object.fromEntries(paths.map((p, k) => [p, contents[k][0].join(contents[k][1]) + (contents[k][2] ? contents[k][1] : '')]))),
  );

describe('whole garbage replies', () => {
  it('never throw, and files change only by the applied writes', () => {
    const seen = new Set<string>();
    fc.assert(
      fc.property(
        smallFiles,
        fc.oneof(
          fc.string({ maxLength: 200 }),
          fc.tuple(fc.array(replyLine, { maxLength: 40 }), fc.constantFrom('\n', '\r\n')).map(([ls, eol]) => ls.join(eol)),
        ),
        (files, reply) => {
          const r = apply(files, reply);
          checkInvariants(files, reply, r);
          for (const e of r.edits) seen.add(e.status === 'applied' ? 'applied' : `failed ${e.code}`);
        },
      ),
      { numRuns: 1000 * SCALE },
    );
    for (const key of ['applied', 'failed truncated', 'failed missing-path']) assert.ok(seen.has(key), `no ${key} in the run: ${show([...seen])}`);
  });
});

// ---------------------------------------------------------------------------
// Truncation: the prefix of a written reply writes its complete blocks only.

describe('whole truncated replies', () => {
  it('a reply cut at any position writes exactly its complete blocks', () => {
    fc.assert(
      fc.property(manyFiles(3), ([paths, versions]) => {
        const files = Object.fromEntries(paths.map((p, k) => [p, versions[k].before]));
        const reply = whole.write(paths.map((file, k) => ({ file, before: versions[k].before, after: versions[k].after })));
        const full = whole.parse(reply, { files: paths });
        for (let cut = 0; cut <= reply.length; cut++) {
          const prefix = reply.slice(0, cut);
          const r = apply(files, prefix);
          const where = `cut at ${cut}: ${show(prefix.slice(-30))}`;
          const parsed = whole.parse(prefix, { files: paths });
          r.edits.forEach((e, k) => {
            if (e.status === 'applied') {
              assert.equal(e.file, full.edits[k].file, where);
              assert.deepEqual(parsed.edits[k].new, full.edits[k].new, where);
            } else {
              assert.equal(e.code, 'truncated', where);
              assert.equal(k, r.edits.length - 1, where);
            }
          });
          const done = r.edits.filter((e) => e.status === 'applied');
          for (const path of paths) {
            const mine = done.find((e) => e.file === path);
            const want = mine ? versions[paths.indexOf(path)].after : files[path];
            assert.equal(r.files[path], want, `${where}: ${path}`);
          }
          // Once the whole reply is there, every block is written.
          if (cut === reply.length) assert.equal(done.length, full.edits.length);
        }
      }),
      { numRuns: 60 * SCALE },
    );
  });
});
