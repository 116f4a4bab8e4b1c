// Streaming against parsing whole, on every example of every spec page:
//
// - the reply fed in random chunks (and one character at a time, and line by
//   line) ends with exactly the result of `applyRequest` on the whole reply;
// - every `edit-complete` result equals the final result of that edit,
//   unless the final result is an overlap or a duplicate (known only at the
//   end), and `current().revised` lists exactly the edits where they differ;
// - no edit completes that is cut off (`truncated`) in the final result, and
//   edits complete once each, in reply order;
// - the same for the reply cut at a random place (a reply that stops early).
//
// PROPERTY_RUNS_SCALE=20 multiplies the run counts, for a longer hunt.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { sameValue, type StreamEvent } from '../../src/core/stream.ts';
import type { EditResult, EngineOptions } from '../../src/core/types.ts';
import { specFiles } from '../../src/examples/load.ts';
import { applyRequest } from '../../src/formats/index.ts';
import { streamReply } from '../../src/formats/stream.ts';

const SCALE = Number(process.env.PROPERTY_RUNS_SCALE ?? 1);
const RUNS = 4 * SCALE;

/** Cut `text` into pieces of the given sizes (cycled), the last piece taking the rest. */
function chunk(text: string, sizes: readonly number[]): string[] {
  const out: string[] = [];
  let pos = 0;
  for (let k = 0; pos < text.length; k++) {
    const size = sizes.length ? sizes[k % sizes.length] : text.length;
    out.push(text.slice(pos, pos + size));
    pos += size;
  }
  return out;
}

function byLines(text: string): string[] {
  return text.split(/(?<=\n)/).filter((s) => s !== '');
}

interface Case {
  where: string;
  format: string;
  files: Record<string, string>;
  options?: EngineOptions;
}

/** Stream `chunks`, then check everything against parsing the joined reply whole. */
function check(c: Case, chunks: readonly string[]): void {
  const reply = chunks.join('');
  const expected = applyRequest({ format: c.format, files: c.files, response: reply, ...(c.options ? { options: c.options } : {}) });
  const stream = streamReply(c.format, c.files, c.options ?? {});
  const events: StreamEvent[] = chunks.flatMap((piece) => stream.push(piece));
  const result = stream.end();
  const context = `${c.where}, chunks ${JSON.stringify(chunks)}`;
  assert.deepEqual(result, expected, `end() differs from parsing whole: ${context}`);

  const completed = events.filter((e): e is Extract<StreamEvent, { type: 'edit-complete' }> => e.type === 'edit-complete');
  assert.deepEqual(
    completed.map((e) => e.index),
    completed.map((_, k) => k),
    `edits complete once each, in order: ${context}`,
  );
  const revised: number[] = [];
  for (const e of completed) {
    const final: EditResult | undefined = expected.edits[e.index];
    assert.ok(final, `edit ${e.index} completed but the whole reply has no such edit: ${context}`);
    assert.notEqual(final.code, 'truncated', `edit ${e.index} completed but is cut off in the whole reply: ${context}`);
    if (final.code !== 'overlap' && final.code !== 'duplicate')
      assert.deepEqual(e.result, final, `edit ${e.index} completed with another result than parsing whole gives: ${context}`);
    if (!sameValue(e.result, final)) revised.push(e.index);
  }
  assert.deepEqual(stream.current().revised, revised, `revised: ${context}`);
}

const sizes = fc.array(fc.integer({ min: 1, max: 40 }), { minLength: 1, maxLength: 8 });

/** The offsets where the lines of `text` start, and its end. */
function lineStarts(text: string): number[] {
  const out = [0];
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) out.push(i + 1);
  if (out[out.length - 1] !== text.length) out.push(text.length);
  return out;
}

const files = specFiles();
/** A stream reads one named format: examples read with `auto` (detection needs the whole reply) are not streamed. */
const streamable = <T extends { format: string }>(examples: readonly T[]): T[] => examples.filter((ex) => ex.format !== 'auto');

for (const file of files) {
  if (streamable(file.examples).length === 0) continue;
  describe(`streaming ${file.path}`, () => {
    it('every example, fed whole, line by line, one character at a time and in random chunks, ends as parsed whole', () => {
      for (const ex of streamable(file.examples)) {
        const c: Case = { where: `${file.path} example ${ex.number} (line ${ex.line})`, format: ex.format, files: ex.files, options: ex.options };
        check(c, [ex.reply]);
        check(c, byLines(ex.reply));
        check(c, [...ex.reply]);
        fc.assert(
          fc.property(sizes, (s) => check(c, chunk(ex.reply, s))),
          { numRuns: RUNS },
        );
      }
    });

    it('every example cut after each of its lines and inside the next one never completes a cut-off edit', () => {
      for (const ex of streamable(file.examples)) {
        const c: Case = { where: `${file.path} example ${ex.number} (line ${ex.line}), cut`, format: ex.format, files: ex.files, options: ex.options };
        const starts = lineStarts(ex.reply);
        fc.assert(
          fc.property(fc.nat(), (extra) => {
            for (let k = 0; k < starts.length; k++) {
              const next = k + 1 < starts.length ? starts[k + 1] - starts[k] : 0;
              check(c, byLines(ex.reply.slice(0, starts[k] + (extra % (next + 1)))));
            }
          }),
          { numRuns: SCALE },
        );
      }
    });
  });
}

/**
 * Replies no spec page has: examples of one format joined, with lines
 * deleted, inserted (from any of its examples), repeated or swapped, and cut
 * anywhere. Edits that the format's rules complete too early show up here.
 */
describe('streaming spliced and damaged replies', () => {
  const pools = new Map<string, { lines: string[]; replies: string[][]; files: Record<string, string>[] }>();
  for (const f of files) {
    for (const ex of streamable(f.examples)) {
      const pool = pools.get(ex.format) ?? { lines: [], replies: [], files: [] };
      const lines = ex.reply.split('\n');
      for (const l of lines) if (!pool.lines.includes(l)) pool.lines.push(l);
      pool.replies.push(lines);
      pool.files.push(ex.files);
      pools.set(ex.format, pool);
    }
  }
  for (const [format, pool] of pools) {
    it(format, () => {
      const mutation = fc.record({ kind: fc.constantFrom('delete', 'insert', 'repeat', 'swap'), at: fc.nat(), line: fc.constantFrom(...pool.lines) });
      const reply = fc
        .record({ parts: fc.array(fc.constantFrom(...pool.replies), { minLength: 1, maxLength: 4 }), mutations: fc.array(mutation, { maxLength: 4 }), cut: fc.nat() })
        .map(({ parts, mutations, cut }) => {
          const lines = parts.flat();
          for (const m of mutations) {
            const i = m.at % (lines.length + 1);
            if (m.kind === 'delete') lines.splice(i, 1);
            else if (m.kind === 'insert') lines.splice(i, 0, m.line);
            else if (m.kind === 'repeat' && i < lines.length) lines.splice(i, 0, lines[i]);
            else if (m.kind === 'swap' && i + 1 < lines.length) [lines[i], lines[i + 1]] = [lines[i + 1], lines[i]];
          }
          const text = lines.join('\n');
          return text.slice(0, cut % (text.length + 1));
        });
      fc.assert(
        fc.property(reply, fc.constantFrom(...pool.files), (text, given) => {
          check({ where: `${format}, spliced reply ${JSON.stringify(text)}`, format, files: given }, byLines(text));
        }),
        { numRuns: 30 * SCALE },
      );
    });
  }
});
