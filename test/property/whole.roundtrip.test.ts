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
import { whole } from '../../src/formats/whole/index.ts';
import { MARKERS, PATHS, befores, changesOf, fileLine, line, linesReply, manyFiles as filesOf, textFiles, versionOf, writable } from './arbitraries.ts';
import { RUNS, SCALE, applier, checkAppliedAsFull, checkGarbage, checkOneFileRoundTrip, forEachCut, refusedAsOtherFormat as refusedBy, show, type InvariantOptions } from './invariants.ts';

/** Lines that look like the whole format's own syntax: fences of every kind, path lines. */
const WHOLE_MARKERS = [
  '```', '````', '`````', '```python', '````md', '  ```', '   ````', '~~~', '~~~~ js', '<source>', '<source>python', '</source>',
  '<code>', '</code>', '<pre>', '</pre>', 'src/b.ts', '### `a.txt`:', 'File: a.txt', '```bash', '@WHOLE FILE@',
];

const wholeLine: fc.Arbitrary<string> = fc.oneof({ weight: 4, arbitrary: fileLine }, { weight: 1, arbitrary: fc.constantFrom(...WHOLE_MARKERS) });

const wholeVersion = versionOf(wholeLine, 25);

const apply = applier('whole');

const manyFiles = (max = 4) => filesOf(wholeVersion, max);

const refusedAsOtherFormat = (files: Record<string, string>, reply: string) => refusedBy(apply, files, reply);

describe('whole round trip', () => {
  it('one file: write(before, after) applied to before gives after', () => {
    checkOneFileRoundTrip(whole, wholeVersion, {
      edit: (e) => assert.equal(e.kind, 'write'),
      write: (v) => {
        const reply = whole.write([{ file: 'f.txt', before: v.before, after: v.after }]);
        return refusedAsOtherFormat({ 'f.txt': v.before }, reply) ? null : reply;
      },
    });
  });

  it('several files, some new, in one reply', () => {
    fc.assert(
      fc.property(manyFiles(), fc.array(fc.boolean(), { minLength: 4, maxLength: 4 }), ([paths, versions], fresh) => {
        // A new file is created from nothing: its after text gets LF endings and a final newline.
        const changes = paths.map((file, k) => {
          // (A line that reads as an elision may stay in a file that has it, never come into a new one: `writable`.)
          if (!fresh[k] || !writable([], versions[k].afterLines)) return { file, before: versions[k].before as string | null, after: versions[k].after };
          return { file, before: null, after: versions[k].afterLines.map((l) => l + '\n').join('') };
        });
        const files = Object.fromEntries(changes.filter((c) => c.before !== null).map((c) => [c.file, c.before!]));
        const reply = whole.write(changes);
        if (refusedAsOtherFormat(files, reply)) return;
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

/**
 * Every edit is a write, a file gets at most one applied write, and that
 * write replaces the whole original.
 */
const invariants: InvariantOptions = {
  creates: ['write'],
  edit: (e) => assert.equal(e.kind, 'write'),
  file: (path, mine, original) => {
    assert.equal(mine.length, 1, 'two applied writes to one file');
    assert.deepEqual(mine[0].range, { start: 1, end: original.lines.length }, `${path}: a write covers the whole file`);
  },
};

const replyLine: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(...WHOLE_MARKERS, ...MARKERS),
  fc.constantFrom(...PATHS, './a.txt', '`src/b.ts`', '## README.md', '/etc/passwd', '../up.txt', 'new/file.txt', 'b.ts', 'path/to/a.txt'),
  fc.constantFrom('Here is the change:', 'Run `a.txt`:', 'Sure!', 'foo.bar', '```python:src/b.ts', '```sh', ''),
  line,
);

describe('whole garbage replies', () => {
  it('never throw, and files change only by the applied writes', () => {
    checkGarbage(whole, {
      files: textFiles(wholeLine, 10),
      reply: () => fc.oneof(fc.string({ maxLength: 200 }), linesReply(replyLine, 40)),
      numRuns: 1000 * SCALE,
      invariants,
      key: (e) => (e.status === 'applied' ? 'applied' : `failed ${e.code}`),
      expected: ['applied', 'failed truncated', 'failed missing-path'],
    });
  });
});

// ---------------------------------------------------------------------------
// Truncation: the prefix of a written reply writes its complete blocks only.

describe('whole truncated replies', () => {
  it('a reply cut at any position writes exactly its complete blocks', () => {
    fc.assert(
      fc.property(manyFiles(3), ([paths, versions]) => {
        const files = befores(paths, versions);
        const reply = whole.write(changesOf(paths, versions));
        if (refusedAsOtherFormat(files, reply)) return;
        const full = apply(files, reply);
        const fullParse = whole.parse(reply, { files: paths });
        forEachCut(reply, 0, 30, (prefix, cut, where) => {
          // A cut can leave a text that another format reads as its own edit: refused, and nothing written.
          if (refusedAsOtherFormat(files, prefix)) return;
          const r = apply(files, prefix);
          checkAppliedAsFull(whole, paths, full, fullParse, prefix, r, where);
          const done = r.edits.filter((e) => e.status === 'applied');
          for (const path of paths) {
            const mine = done.find((e) => e.file === path);
            const want = mine ? versions[paths.indexOf(path)].after : files[path];
            assert.equal(r.files[path], want, `${where}: ${path}`);
          }
          // Once the whole reply is there, every block is written.
          if (cut === reply.length) assert.equal(done.length, fullParse.edits.length);
        });
      }),
      { numRuns: 60 * SCALE },
    );
  });
});
