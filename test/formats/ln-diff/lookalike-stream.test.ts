// Two files an ln-diff reply creates with paths that look alike each other
// (spec/ln-diff.md, Paths): the later one is warned (`confusable-path`), so
// each editblock's result is settled when it completes, streamed or read
// whole (spec/ln-diff.md, Streaming).

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { EditResult } from '../../../src/core/types.ts';
import { applyRequest } from '../../../src/formats/index.ts';
import { streamReply } from '../../../src/formats/stream.ts';

const block = (path: string, line: string) => `${path}\n<editblock>\n<<<<<<< REMOVE\n=======\n │${line}\n>>>>>>> INSERT\n</editblock>\n\n`;

// config.py, then the same name with a Cyrillic о (U+043E), then a second editblock of the first file.
const files = { 'app.py': 'print("hi")\n' };
const reply = block('config.py', 'A = 1') + block('c\u043enfig.py', 'B = 2') + block('config.py', 'C = 3');
const codes = (edits: readonly EditResult[]) => edits.map((e) => e.warnings.map((w) => w.code));

describe('ln-diff: created look-alike paths', () => {
  it('read whole: only the later path is warned, on the first editblock that writes it', () => {
    const result = applyRequest({ format: 'ln-diff', files, response: reply });
    assert.deepEqual(codes(result.edits), [[], ['confusable-path'], []]);
    assert.match(result.edits[1].warnings[0].message, /looks like "config\.py"/);
  });

  it('streamed line by line: each editblock completes with the result the whole reply gives, and nothing is revised', () => {
    const stream = streamReply('ln-diff', files);
    const complete: EditResult[] = [];
    for (const line of reply.split(/(?<=\n)/))
      for (const event of stream.push(line)) if (event.type === 'edit-complete') complete[event.index] = event.result;
    const final = stream.end();
    assert.deepEqual(codes(complete.slice(0, 2)), [[], ['confusable-path']], 'the first two complete before the reply ends');
    assert.deepEqual(codes(final.edits), [[], ['confusable-path'], []]);
    assert.deepEqual(stream.current().revised, []);
  });
});
