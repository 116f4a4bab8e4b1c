// `Format` is the only extension point: a harness's own format, defined
// here and in no registry or table, is run (`runFormat`), detected among the
// registered ones, streamed with its own rules (`createStream`,
// `streamReply`), prompted (the playground's default prompts) and, when its
// blocks are whole files, chosen by `auto`'s whole-file reader.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { linesSpan, replyLines, type ReplyLine } from '../../src/core/reply.ts';
import { runFormat } from '../../src/core/run.ts';
import { createStream, type Stream } from '../../src/core/stream.ts';
import type { Edit, Format } from '../../src/core/types.ts';
import { wholeFormat } from '../../src/formats/read.ts';
import { between } from '../../src/formats/between/index.ts';
import { detectFormat, formats, getFormat } from '../../src/formats/index.ts';
import { streamReply } from '../../src/formats/stream.ts';
import { whole } from '../../src/formats/whole/index.ts';
import { askedFormat, defaultPrompt, defaultPrompts } from '../../src/prompt/prompts.ts';

/**
 * A tiny format: `=== path`, then `- old` and `+ new` lines, then `===`. A
 * block cut off before its `===` is still read (so only the format's own
 * stream rules know it may grow).
 */
function parseSwap(reply: string): { edits: Edit[]; diagnostics: [] } {
  const edits: Edit[] = [];
  let open: { head: ReplyLine; last: ReplyLine; file: string; old: string[]; new: string[] } | null = null;
  const close = () => {
    if (open) edits.push({ index: edits.length, kind: 'replace', file: open.file, old: open.old, new: open.new, span: linesSpan(open.head, open.last), warnings: [] });
    open = null;
  };
  for (const line of replyLines(reply)) {
    if (line.text.startsWith('=== ')) {
      close();
      open = { head: line, last: line, file: line.text.slice(4), old: [], new: [] };
    } else if (open && (line.text.startsWith('- ') || line.text.startsWith('+ '))) {
      (line.text[0] === '-' ? open.old : open.new).push(line.text.slice(2));
      open.last = line;
    } else if (open && line.text === '===') {
      open.last = line;
      close();
    }
  }
  close();
  return { edits, diagnostics: [] };
}

const swap: Format = {
  name: 'swap',
  title: 'swap blocks',
  parse: parseSwap,
  detect: (reply) => (/^=== \S/m.test(reply) ? { score: 1, reason: 'a `=== path` line' } : { score: 0, reason: 'no `=== path` line' }),
  write: (changes) => changes.map((c) => `=== ${c.file}\n${c.before}\n${c.after}\n===\n`).join(''),
  // A block is final once its `===` has arrived.
  stream: { settled: (edit, context) => context.reply.slice(edit.span.from, edit.span.to).endsWith('\n===') },
  prompt: 'Write each change as `=== path`, the old lines each after `- `, the new lines each after `+ `, then `===`.',
  marker: '=== ',
};

const APP = 'def f():\n    return 1\n\ndef g():\n    return 2\n';
const FILES = { 'app.py': APP };
const REPLY = [
  'Two changes.', //     1
  '=== app.py', //       2
  '-     return 1', //   3
  '+     return 0', //   4
  '===', //              5
  '=== app.py', //       6
  '-     return 2', //   7
  '+     return 3', //   8
  '===', //              9
  '',
].join('\n');
const AFTER = 'def f():\n    return 0\n\ndef g():\n    return 3\n';

/** The reply line at which each `edit-complete` was reported, fed line by line. */
function completedAt(stream: Stream): number[] {
  const lines: number[] = [];
  REPLY.split(/(?<=\n)/).forEach((line, k) => {
    for (const event of stream.push(line)) if (event.type === 'edit-complete') lines.push(k + 1);
  });
  return lines;
}

describe('a format of its own, in no registry', () => {
  it('is not registered, and the registry is unchanged', () => {
    assert.equal(getFormat('swap'), undefined);
    assert.ok(!formats.includes(swap));
  });

  it('runs: parsed, matched and applied by runFormat', () => {
    const result = runFormat(swap, { format: 'swap', files: FILES, response: REPLY });
    assert.equal(result.ok, true);
    assert.equal(result.format, 'swap');
    assert.deepEqual(result.files, { 'app.py': AFTER });
    assert.deepEqual(result.edits.map((e) => [e.status, e.match, e.range]), [
      ['applied', 'exact', { start: 2, end: 2 }],
      ['applied', 'exact', { start: 5, end: 5 }],
    ]);
  });

  it('is detected among the registered formats when passed with them', () => {
    assert.equal(detectFormat(REPLY, [...formats, swap]).format, swap);
  });

  it('streams with its own rules: each block is final at its `===`, before the next block begins', () => {
    const stream = createStream(swap, FILES);
    assert.deepEqual(completedAt(stream), [5, 9]);
    assert.deepEqual(stream.end(), runFormat(swap, { format: 'swap', files: FILES, response: REPLY }));
    assert.deepEqual(stream.current().revised, []);
    // Without rules, a block is final only once a later one has begun.
    assert.deepEqual(completedAt(createStream({ ...swap, stream: undefined }, FILES)), [6]);
  });

  it('streams through streamReply too, ending as runFormat reads it', () => {
    const stream = streamReply(swap, FILES);
    assert.deepEqual(completedAt(stream), [5, 9]);
    assert.deepEqual(stream.end().files, { 'app.py': AFTER });
  });

  it('has its own default prompt in the playground, with its marker', () => {
    const prompts = defaultPrompts([...formats, swap]);
    assert.equal(askedFormat('swap', prompts), 'swap');
    assert.ok(defaultPrompt('swap', prompts).endsWith(`\n\n${swap.prompt}`));
    assert.ok(swap.prompt!.includes(swap.marker!));
    assert.equal(askedFormat('swap', defaultPrompts([{ ...swap, prompt: undefined }])), 'ln-diff');
  });

  it('is auto\'s whole-file reader when its blocks are whole files (by member, not by name)', () => {
    assert.equal(wholeFormat(formats), whole);
    const mine: Format = { ...whole, name: 'mine' };
    assert.equal(wholeFormat([between, swap, mine]), mine);
    assert.equal(wholeFormat([between, swap]), undefined);
  });
});
