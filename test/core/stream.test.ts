// The streaming reader (src/core/stream.ts) with the formats' own rules
// (`Format.stream`, through src/formats/stream.ts): exact event sequences
// for ln-diff fed line by line and one character at a time, cut-off replies,
// CR LF, and for every format the line at which an edit becomes known and
// applicable (what the "Streaming" section of each spec page says).

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createStream, sameValue, settledUnlessProbed, type Stream, type StreamEvent } from '../../src/core/stream.ts';
import type { ApplyResult } from '../../src/core/types.ts';
import { applyRequest } from '../../src/formats/index.ts';
import { runFormat } from '../../src/core/run.ts';
import { lnDiff } from '../../src/formats/ln-diff/index.ts';
import { streamReply } from '../../src/formats/stream.ts';

interface Seen {
  /** Complete reply lines received when the event was reported (the line whose break set it off). */
  line: number;
  event: StreamEvent;
}

function feed(stream: Stream, pieces: readonly string[]): Seen[] {
  const out: Seen[] = [];
  let lines = 0;
  for (const piece of pieces) {
    lines += piece.split('\n').length - 1;
    for (const event of stream.push(piece)) out.push({ line: lines, event });
  }
  return out;
}

const byLine = (text: string) => text.split(/(?<=\n)/).filter((s) => s !== '');
const byChar = (text: string) => [...text];

/** The events without the results of `edit-complete` (checked separately). */
function outline(seen: readonly Seen[]): unknown[] {
  return seen.map(({ line, event }) => (event.type === 'edit-complete' ? { line, type: event.type, index: event.index } : { line, ...event }));
}

const APP = 'def f():\n    return 1\n\ndef g():\n    return 2\n';

/** Two editblocks, each in `<editblock>` tags (18 lines). */
const TWO_BLOCKS = [
  'app.py', //                      1
  '<editblock>', //                 2
  '<<<<<<< REMOVE', //              3
  '4│def g():', //                  4
  '5│    return 2', //              5
  '=======', //                     6
  '│def g():', //                   7
  '│    return 3', //               8
  '>>>>>>> INSERT', //              9
  '</editblock>', //               10
  'app.py', //                     11
  '<editblock>', //                12
  '<<<<<<< REMOVE', //             13
  '2│    return 1', //             14
  '=======', //                    15
  '│    return 0', //              16
  '>>>>>>> INSERT', //             17
  '</editblock>', //               18
]
  .map((l) => l + '\n')
  .join('');

const whole = (response: string, files: Record<string, string> = { 'app.py': APP }, format = 'ln-diff'): ApplyResult =>
  applyRequest({ format, files, response });

/** The span of reply lines `a..b` (1-based) of `text`: their content, without the last line's ending. */
function span(text: string, a: number, b: number) {
  const lines = text.split('\n');
  const startOf = (k: number) => lines.slice(0, k - 1).reduce((n, l) => n + l.length + 1, 0);
  const content = lines[b - 1].replace(/\r$/, '').length;
  return { from: startOf(a), to: startOf(b) + content, start: { line: a, column: 1 }, end: { line: b, column: content + 1 } };
}

const expectedTwoBlocks = (text: string) => [
  { line: 2, type: 'edit-started', index: 0, file: 'app.py', span: span(text, 1, 2) },
  { line: 4, type: 'lines-known', index: 0, file: 'app.py', known: 1, cited: { start: 4, end: 4 }, placed: { start: 4, end: 4 }, match: 'exact' },
  { line: 5, type: 'lines-known', index: 0, file: 'app.py', known: 2, cited: { start: 4, end: 5 }, placed: { start: 4, end: 5 }, match: 'exact' },
  { line: 10, type: 'edit-complete', index: 0 },
  { line: 12, type: 'edit-started', index: 1, file: 'app.py', span: span(text, 11, 12) },
  { line: 14, type: 'lines-known', index: 1, file: 'app.py', known: 1, cited: { start: 2, end: 2 }, placed: { start: 2, end: 2 }, match: 'exact' },
  { line: 18, type: 'edit-complete', index: 1 },
];

describe('ln-diff, fed line by line and one character at a time', () => {
  for (const [how, cut] of [
    ['line by line', byLine],
    ['one character at a time', byChar],
  ] as const) {
    it(`reports each edit's start, its REMOVE lines placed as each line ends, and completion at </editblock> (${how})`, () => {
      const stream = streamReply('ln-diff', { 'app.py': APP });
      const seen = feed(stream, cut(TWO_BLOCKS));
      assert.deepEqual(outline(seen), expectedTwoBlocks(TWO_BLOCKS));
      const result = stream.end();
      assert.deepEqual(result, whole(TWO_BLOCKS));
      assert.equal(result.files['app.py'], 'def f():\n    return 0\n\ndef g():\n    return 3\n');
      const completed = seen.flatMap(({ event }) => (event.type === 'edit-complete' ? [event.result] : []));
      assert.deepEqual(completed, result.edits);
      assert.equal(completed[0].message, 'applied at lines 4-5');
      assert.deepEqual(stream.current().revised, []);
    });
  }

  it('hands each completed edit\'s files with its result: those of runFormat for that edit alone', () => {
    const stream = streamReply('ln-diff', { 'app.py': APP });
    const done = feed(stream, byLine(TWO_BLOCKS)).flatMap(({ event }) => (event.type === 'edit-complete' ? [event] : []));
    assert.equal(done.length, 2);
    const parsed = lnDiff.parse(TWO_BLOCKS, { files: ['app.py'] }).edits;
    for (const event of done) {
      const alone = runFormat({ ...lnDiff, parse: () => ({ edits: [parsed[event.index]], diagnostics: [] }) }, { format: 'ln-diff', files: { 'app.py': APP }, response: TWO_BLOCKS });
      assert.deepEqual(event.files, alone.files);
      assert.deepEqual(event.result, alone.edits[0]);
    }
    assert.equal(done[0].files['app.py'], 'def f():\n    return 1\n\ndef g():\n    return 3\n');
  });

  it('places a REMOVE line the moment its line break arrives, not before', () => {
    const stream = streamReply('ln-diff', { 'app.py': APP });
    const head = 'app.py\n<editblock>\n<<<<<<< REMOVE\n';
    assert.deepEqual(outline(feed(stream, [head])), [{ line: 3, type: 'edit-started', index: 0, file: 'app.py', span: span(head, 1, 3) }]);
    assert.deepEqual(stream.push('4│def g():'), []);
    assert.deepEqual(stream.push('\n'), [
      { type: 'lines-known', index: 0, file: 'app.py', known: 1, cited: { start: 4, end: 4 }, placed: { start: 4, end: 4 }, match: 'exact' },
    ]);
    const state = stream.current();
    assert.equal(state.parsed, head.length + '4│def g():\n'.length);
    assert.deepEqual(state.edits.map((e) => [e.index, e.complete, e.placed]), [[0, false, { start: 4, end: 4 }]]);
  });

  it('places lines cited one off where they really are, by the match ladder', () => {
    const stream = streamReply('ln-diff', { 'app.py': APP });
    const events = stream.push('app.py\n<<<<<<< REMOVE\n5│def g():\n');
    assert.deepEqual(events.at(-1), {
      type: 'lines-known',
      index: 0,
      file: 'app.py',
      known: 1,
      cited: { start: 5, end: 5 },
      placed: { start: 4, end: 4 },
      match: 'offset',
    });
  });

  it('completes nothing before >>>>>>> INSERT, and a block without tags when the next block begins', () => {
    const reply = 'app.py\n<<<<<<< REMOVE\n2│    return 1\n=======\n│    return 0\n>>>>>>> INSERT\n\nDone.\napp.py\n<<<<<<< REMOVE\n';
    const seen = outline(feed(streamReply('ln-diff', { 'app.py': APP }), byChar(reply)));
    assert.deepEqual(
      seen.filter((e) => (e as { type: string }).type === 'edit-complete'),
      [{ line: 10, type: 'edit-complete', index: 0 }],
    );
  });

  it('a block without tags is not complete while a second end marker could still follow', () => {
    const reply = 'app.py\n<<<<<<< REMOVE\n2│    return 1\n=======\n│    return 0\n>>>>>>> INSERT\n\nDone.\n';
    const stream = streamReply('ln-diff', { 'app.py': APP });
    assert.ok(feed(stream, byLine(reply)).every(({ event }) => event.type !== 'edit-complete'));
    stream.push('>>>>>>> INSERT\n');
    assert.equal(stream.end().edits[0].code, 'ambiguous-end');
  });

  it('a block that ends the reply at >>>>>>> INSERT completes only at end()', () => {
    const reply = 'app.py\n<<<<<<< REMOVE\n2│    return 1\n=======\n│    return 0\n>>>>>>> INSERT\n';
    const stream = streamReply('ln-diff', { 'app.py': APP });
    const seen = feed(stream, byLine(reply));
    assert.ok(seen.every(({ event }) => event.type !== 'edit-complete'));
    const result = stream.end();
    assert.deepEqual(result, whole(reply));
    assert.equal(result.edits[0].status, 'applied');
    assert.deepEqual(stream.current().edits.map((e) => [e.complete, e.result?.status]), [[true, 'applied']]);
  });
});

describe('ln-diff, cut off', () => {
  it('never completes the block the reply ends in, at any cut', () => {
    for (let cut = 0; cut <= TWO_BLOCKS.length; cut++) {
      const reply = TWO_BLOCKS.slice(0, cut);
      const stream = streamReply('ln-diff', { 'app.py': APP });
      const seen = feed(stream, byChar(reply));
      const result = stream.end();
      assert.deepEqual(result, whole(reply), `cut at ${cut}`);
      for (const { event } of seen) {
        if (event.type !== 'edit-complete') continue;
        assert.notEqual(result.edits[event.index].code, 'truncated', `cut at ${cut}`);
        assert.deepEqual(event.result, result.edits[event.index], `cut at ${cut}`);
      }
    }
  });

  it('reports the cut-off block as truncated and leaves the file as the complete block made it', () => {
    const reply = TWO_BLOCKS.slice(0, TWO_BLOCKS.indexOf('│    return 0'));
    const stream = streamReply('ln-diff', { 'app.py': APP });
    const seen = feed(stream, byLine(reply));
    assert.deepEqual(
      seen.filter(({ event }) => event.type === 'edit-complete').map(({ event }) => (event as { index: number }).index),
      [0],
    );
    const result = stream.end();
    assert.deepEqual(
      result.edits.map((e) => [e.status, e.code]),
      [
        ['applied', null],
        ['failed', 'truncated'],
      ],
    );
    assert.equal(result.files['app.py'], 'def f():\n    return 1\n\ndef g():\n    return 3\n');
  });
});

describe('ln-diff, CR LF', () => {
  const CRLF = TWO_BLOCKS.replace(/\n/g, '\r\n');
  const FILE = APP.replace(/\n/g, '\r\n');

  for (const [how, cut] of [
    ['line by line', byLine],
    ['one character at a time', byChar],
  ] as const) {
    it(`reports the same events as with LF, at CR LF offsets (${how})`, () => {
      const stream = streamReply('ln-diff', { 'app.py': FILE });
      const seen = feed(stream, cut(CRLF));
      assert.deepEqual(outline(seen), expectedTwoBlocks(CRLF));
      assert.equal(span(CRLF, 1, 2).to, 'app.py\r\n<editblock>'.length);
      const result = stream.end();
      assert.deepEqual(result, whole(CRLF, { 'app.py': FILE }));
      assert.equal(result.files['app.py'], 'def f():\r\n    return 0\r\n\r\ndef g():\r\n    return 3\r\n');
    });
  }

  it('a CR at the end of a chunk waits for its LF', () => {
    const stream = streamReply('ln-diff', { 'app.py': FILE });
    assert.deepEqual(stream.push('app.py\r\n<editblock>\r'), []);
    assert.equal(stream.current().parsed, 'app.py\r\n'.length);
    assert.deepEqual(stream.push('\n'), [
      { type: 'edit-started', index: 0, file: 'app.py', span: { from: 0, to: 19, start: { line: 1, column: 1 }, end: { line: 2, column: 12 } } },
    ]);
    assert.equal(stream.current().parsed, 'app.py\r\n<editblock>\r\n'.length);
  });
});

describe('the stream itself', () => {
  it('end() is the whole-reply result, also for a reply without a final line break, and can be asked again', () => {
    const reply = TWO_BLOCKS.slice(0, -1);
    const stream = streamReply('ln-diff', { 'app.py': APP });
    feed(stream, byLine(reply));
    const first = stream.end();
    assert.deepEqual(first, whole(reply));
    assert.equal(stream.end(), first);
    assert.throws(() => stream.push('more'), /ended/);
    assert.deepEqual(stream.current().done, true);
  });

  it('passes engine options to matching and to the result', () => {
    // With a window of 0 lines, lines cited one off are not found.
    const reply = 'app.py\n<<<<<<< REMOVE\n5│def g():\n=======\n│def h():\n>>>>>>> INSERT\n\n';
    const stream = streamReply('ln-diff', { 'app.py': APP }, { window: 0 });
    const seen = feed(stream, byLine(reply));
    const known = seen.find(({ event }) => event.type === 'lines-known')!.event;
    assert.deepEqual(known, { type: 'lines-known', index: 0, file: 'app.py', known: 1, cited: { start: 5, end: 5 }, placed: null, match: null });
    assert.deepEqual(stream.end(), applyRequest({ format: 'ln-diff', files: { 'app.py': APP }, response: reply, options: { window: 0 } }));
  });

  it('says which completed edits the end revised: an overlap with a later edit', () => {
    const block = (n: number, text: string) =>
      `app.py\n<editblock>\n<<<<<<< REMOVE\n${n}│    return 2\n=======\n│    return ${text}\n>>>>>>> INSERT\n</editblock>\n\n`;
    const reply = block(5, '3') + block(5, '4');
    const stream = streamReply('ln-diff', { 'app.py': APP });
    const seen = feed(stream, byLine(reply));
    const completed = seen.flatMap(({ event }) => (event.type === 'edit-complete' ? [event.result] : []));
    assert.deepEqual(completed.map((r) => [r.index, r.status]), [
      [0, 'applied'],
      [1, 'applied'],
    ]);
    const result = stream.end();
    assert.deepEqual(result.edits.map((r) => [r.status, r.code]), [
      ['failed', 'overlap'],
      ['failed', 'overlap'],
    ]);
    assert.deepEqual(stream.current().revised, [0, 1]);
  });

  it('without a format\'s rules, completes an edit once a later edit has begun', () => {
    const reply = 'app.py\n<<<<<<< REMOVE\n2│    return 1\n=======\n│    return 0\n>>>>>>> INSERT\n</editblock>\n\napp.py\n<<<<<<< REMOVE\n';
    const seen = feed(createStream({ ...lnDiff, stream: undefined }, { 'app.py': APP }), byLine(reply));
    assert.deepEqual(
      seen.filter(({ event }) => event.type === 'edit-complete').map(({ line }) => line),
      [10],
    );
  });

  it('reports an edit that a longer reply no longer has', () => {
    // whole: blocks whose path is a guess (the only file given) give way to a block that names it.
    const files = { 'a.py': 'x\n' };
    const reply = '```python\nprint(1)\n```\n```python\nprint(2)\n```\na.py\n```python\nprint(3)\n```\n';
    const stream = streamReply('whole', files);
    const seen = feed(stream, byLine(reply));
    assert.deepEqual(
      seen.map(({ line, event }) => [line, event.type, event.index]),
      [
        [1, 'edit-started', 0],
        [4, 'edit-started', 1],
        [8, 'edit-dropped', 1],
        [8, 'edit-started', 0],
      ],
    );
    assert.deepEqual(stream.end(), whole(reply, files, 'whole'));
  });

  it('sameValue ignores key order and undefined members', () => {
    assert.equal(sameValue({ a: 1, b: [1, { c: 2 }] }, { b: [1, { c: 2 }], a: 1 }), true);
    assert.equal(sameValue({ a: 1, b: undefined }, { a: 1 }), true);
    assert.equal(sameValue({ a: 1 }, { a: 2 }), false);
    assert.equal(sameValue([1], { 0: 1 }), false);
  });

  it('settledUnlessProbed: an edit is settled when no probe changes it', () => {
    const rules = settledUnlessProbed(() => ['</editblock>\n']);
    const files = { 'app.py': APP };
    const check = (reply: string) => {
      const edits = lnDiff.parse(reply, { files: ['app.py'] }).edits;
      return rules.settled(edits[0], { reply, edits, files: ['app.py'], parse: (t) => lnDiff.parse(t, { files: Object.keys(files) }) });
    };
    const block = 'app.py\n<<<<<<< REMOVE\n2│    return 1\n=======\n│    return 0\n>>>>>>> INSERT\n';
    assert.equal(check(block), false);
    assert.equal(check(block + '</editblock>\n'), true);
    assert.equal(check(block + '\n'), true);
  });
});

/**
 * For each format, a reply and the line at which each edit is started and
 * completed (`end` = only when the reply ends). The spec pages' "Streaming"
 * sections say why.
 */
const WHEN: {
  format: string;
  why: string;
  files: Record<string, string>;
  reply: string[];
  started: number[];
  complete: (number | 'end')[];
}[] = [
  {
    format: 'search-replace',
    why: 'when the next block begins, or at the end (a second end marker could still make the end ambiguous)',
    files: { 'a.py': 'x = 1\ny = 2\n' },
    reply: ['a.py', '```python', '<<<<<<< SEARCH', 'x = 1', '=======', 'x = 3', '>>>>>>> REPLACE', '```', 'a.py', '```python', '<<<<<<< SEARCH', 'y = 2', '=======', 'y = 4', '>>>>>>> REPLACE'],
    // Begun with the fence after the path line (a reply cut there is cut inside the block).
    started: [2, 10],
    complete: [11, 'end'],
  },
  {
    format: 'whole',
    why: 'when the block names its file and the next fence line shows its closing fence was not an early one (here the next opening fence), else at the end',
    files: { 'a.py': 'x\n', 'b.py': 'y\n' },
    reply: ['a.py', '```python', 'x = 2', '```', 'b.py', '```python', 'y = 3', '```'],
    started: [2, 6],
    complete: [6, 'end'],
  },
  {
    format: 'whole',
    why: 'only at the end when the path is a guess (the only file given), and so the blocks after it',
    files: { 'a.py': 'x\n' },
    reply: ['```python', 'x = 2', '```'],
    started: [1],
    complete: ['end'],
  },
  {
    format: 'udiff',
    why: 'a hunk when its section ends: at the next hunk header, or at the closing fence',
    files: { 'a.py': 'a\nb\nc\nd\ne\nf\n' },
    reply: ['```diff', '--- a.py', '+++ a.py', '@@ -1,2 +1,2 @@', '-a', '+A', ' b', '@@ -5,2 +5,2 @@', ' e', '-f', '+F', '```'],
    // The first begun with its file header (a reply cut right after it is cut inside the file's diff).
    started: [3, 8],
    complete: [8, 12],
  },
  {
    format: 'udiff',
    why: 'a new file takes every hunk until the next file header',
    files: { 'a.py': 'a\n' },
    reply: ['--- /dev/null', '+++ b/new.py', '@@ -0,0 +1 @@', '+n', '--- a.py', '+++ a.py', '@@ -1 +1 @@', '-a', '+A', ''],
    started: [2, 6],
    complete: [6, 'end'],
  },
  {
    format: 'roo',
    why: 'inside a tool call, at the end (a later <path> would retarget its blocks, a second end marker make its end ambiguous)',
    files: { 'a.py': 'x = 1\ny = 2\n' },
    reply: ['<apply_diff>', '<path>a.py</path>', '<diff>', '<<<<<<< SEARCH', ':start_line:1', '-------', 'x = 1', '=======', 'x = 3', '>>>>>>> REPLACE', '</diff>', '</apply_diff>'],
    started: [4],
    complete: ['end'],
  },
  {
    format: 'roo',
    why: 'a bare block when the next block begins, or at the end (a second end marker could still make the end ambiguous)',
    files: { 'a.py': 'x = 1\ny = 2\n' },
    reply: ['<<<<<<< SEARCH', ':start_line:2', '-------', 'y = 2', '=======', 'y = 3', '>>>>>>> REPLACE'],
    started: [1],
    complete: ['end'],
  },
  {
    format: 'udiffx',
    why: 'a directive when the next directive begins, and every hunk of a patch then too (a second closing tag could still make its end ambiguous); a self-closing tag at once',
    files: { 'a.rs': 'a\nb\n', 'old.txt': 'o\n' },
    reply: [
      '<FILE_CHANGES>',
      '<FILE_NEW path="n.rs">',
      'fn n() {}',
      '</FILE_NEW>',
      '<FILE_PATCH path="a.rs">',
      '@@ -1 +1 @@',
      '-a',
      '+A',
      '@@ -2 +2 @@',
      '-b',
      '+B',
      '</FILE_PATCH>',
      '<FILE_DELETE path="old.txt" />',
      '</FILE_CHANGES>',
    ],
    started: [2, 5, 9, 13],
    // A new file takes the later patches of its path until the reply ends, and the edits after it wait for it.
    complete: ['end', 'end', 'end', 'end'],
  },
  {
    format: 'udiffx',
    why: 'every hunk of a patch when the next directive begins (a second closing tag could still make its end ambiguous); a self-closing tag at once',
    files: { 'a.rs': 'a\nb\n', 'old.txt': 'o\n' },
    reply: [
      '<FILE_CHANGES>',
      '<FILE_PATCH path="a.rs">',
      '@@ -1 +1 @@',
      '-a',
      '+A',
      '@@ -2 +2 @@',
      '-b',
      '+B',
      '</FILE_PATCH>',
      '<FILE_DELETE path="old.txt" />',
      '</FILE_CHANGES>',
    ],
    started: [2, 6, 10],
    complete: [10, 10, 10],
  },
  {
    format: 'hashline',
    why: 'when the call\'s JSON object closes, also inside an array of calls',
    files: { 'a.txt': 'alpha\nbeta\n' },
    reply: ['[', '  {"tool": "edit", "path": "a.txt", "line": 2, "tag": "nope", "new": "BETA"},', '  {"tool": "edit", "path": "a.txt", "line": 1, "tag": "nope", "new": "ALPHA"}', ']'],
    started: [2, 3],
    complete: [2, 3],
  },
  {
    format: 'str-replace',
    why: 'when every JSON object around the call has closed (a tool-use wrapper can still change it)',
    files: { 'a.py': 'x = 1\n' },
    reply: ['{"type": "tool_use", "name": "str_replace_based_edit_tool",', ' "input": {"command": "str_replace", "path": "a.py", "old_str": "x = 1", "new_str": "x = 2"}', '}'],
    started: [1],
    complete: [3],
  },
  {
    format: 'between',
    why: 'a snippet at the next tag; the last of a block once its closing fence cannot have been an early one (here: at the end)',
    files: { 'a.py': 'import os\nimport sys\n\ndef f():\n    pass\n' },
    reply: ['a.py', '```python', '@BETWEEN@ "import os" AND "import sys"', 'import re', '@BETWEEN@ "def f():" AND "    pass"', '    """Doc."""', '```'],
    started: [2, 5],
    complete: [5, 'end'],
  },
  {
    format: 'apply-patch',
    why: 'a chunk at the next @@ or marker; the last at the end (a second *** End Patch could still make its end ambiguous)',
    files: { 'a.py': 'a\nb\nc\n' },
    reply: ['*** Begin Patch', '*** Update File: a.py', '@@', '-a', '+A', '@@', '-c', '+C', '*** End Patch'],
    started: [2, 6],
    complete: [6, 'end'],
  },
];

describe('when each format makes an edit known and applicable', () => {
  for (const c of WHEN) {
    it(`${c.format}: ${c.why}`, () => {
      const reply = c.reply.map((l) => l + '\n').join('');
      const stream = streamReply(c.format, c.files);
      const seen = feed(stream, byLine(reply));
      const result = stream.end();
      assert.deepEqual(result, whole(reply, c.files, c.format));
      const started = new Map<number, number>();
      const complete = new Map<number, number>();
      for (const { line, event } of seen) {
        if (event.type === 'edit-started' && !started.has(event.index)) started.set(event.index, line);
        if (event.type === 'edit-complete') complete.set(event.index, line);
      }
      assert.deepEqual(result.edits.map((_, k) => started.get(k)), c.started, 'started');
      assert.deepEqual(result.edits.map((_, k) => complete.get(k) ?? 'end'), c.complete, 'complete');
    });
  }
});
