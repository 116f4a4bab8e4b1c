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
import { strReplace } from '../../src/formats/str-replace/index.ts';
import { befores, build, changesOf, fileLine, fileVersion, line, manyFiles, style, textFiles } from './arbitraries.ts';
import { RUNS, SCALE, applier, byMatch, checkAppliedAsFull, checkGarbage, checkOneFileRoundTrip, forEachCut, show, type InvariantOptions } from './invariants.ts';


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

const apply = applier('str-replace');

describe('str-replace round trip: write(before, after) applied to before gives after', () => {
  it('one file', () => {
    checkOneFileRoundTrip(strReplace, versions);
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

/**
 * Only an applied create (a write) brings a file into being. The old text
 * sits in the reply as a JSON string (escaped), so old spans are checked for
 * their place only; and edits replace text, not whole lines (`old_str` may
 * end inside a line or take a line break with it), so files are not
 * recomputed as line splices.
 */
const invariants: InvariantOptions = { creates: ['write'], oldText: false, recompute: false };

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

const smallFiles = textFiles(strLine, 15, true);

describe('str-replace garbage replies', () => {
  it('random text never throws and changes no file', () => {
    checkGarbage(strReplace, {
      files: smallFiles,
      reply: () => fc.oneof(fc.string({ maxLength: 200 }), fc.string({ unit: 'grapheme', maxLength: 100 }), fc.json()),
      numRuns: 500 * SCALE,
      invariants,
      check: (files, reply, r) => {
        if (!reply.includes('command')) assert.deepEqual(r.files, files);
      },
    });
  });

  it('call-shaped replies keep the invariants and reach the interesting outcomes', () => {
    checkGarbage(strReplace, {
      files: smallFiles,
      reply: callish,
      numRuns: 500 * SCALE,
      invariants,
      key: byMatch,
      expected: ['applied exact', 'failed no-match', 'failed ambiguous', 'failed malformed', 'failed truncated', 'failed file-not-found', 'failed missing-path', 'failed overlap'],
    });
  });
});

// ---------------------------------------------------------------------------
// Truncation.

describe('str-replace truncated replies', () => {
  it('a reply cut anywhere applies only edits the whole reply applies, at the same place; at most the last is truncated', () => {
    fc.assert(
      fc.property(manyFiles(fileVersion(fc.array(strLine, { maxLength: 10 })), 2), ([paths, vs]) => {
        const files = befores(paths, vs);
        const reply = strReplace.write(changesOf(paths, vs));
        const full = apply(files, reply);
        const fullParse = strReplace.parse(reply, { files: paths });
        forEachCut(reply, 1, 40, (prefix, _cut, where) => {
          checkAppliedAsFull(strReplace, paths, full, fullParse, prefix, apply(files, prefix), where);
        });
      }),
      { numRuns: 40 * SCALE },
    );
  });
});
