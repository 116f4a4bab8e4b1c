// A session as an agent runs one through `ln-diff mcp`: a scripted "model"
// reads a file, writes an ln-diff editblock whose line numbers are one off
// (the mistake models make most), reads the result, and the file on disk is
// what the model meant. Then it misquotes a line, gets the retry message,
// and sends the edit again from what the message shows.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from './helpers.ts';
import { call, connect, text } from './mcp-client.ts';

const SOURCE = ['import math', '', 'def area(r):', '    return math.pi * r * r', '', 'def perimeter(r):', '    return 2 * math.pi * r', ''].join('\n');

/** The scripted model: the view's lines by number, as it read them. */
function readView(view: string): Map<number, string> {
  const lines = new Map<number, string>();
  for (const line of view.split('\n')) {
    const m = /^ *(\d+)│(.*)$/.exec(line);
    if (m) lines.set(Number(m[1]), m[2]);
  }
  return lines;
}

/** An editblock as the model writes it: `cite` is the number it gives the first removed line. */
function editblock(file: string, cite: number, remove: string[], insert: string[]): string {
  return [
    `I'll change ${file}:`,
    '',
    file,
    '<editblock>',
    '<<<<<<< REMOVE',
    ...remove.map((t, i) => `${cite + i}│${t}`),
    '=======',
    ...insert.map((t) => ` │${t}`),
    '>>>>>>> INSERT',
    '</editblock>',
    '',
  ].join('\n');
}

test('transcript: read, an editblock one line off, the result, the file on disk; then a retry from the message', async (t) => {
  const dir = tempDir(t, 'ln-diff-mcp-session-');
  writeFileSync(join(dir, 'geometry.py'), SOURCE);
  const c = await connect({ args: ['--root', dir, '--format', 'ln-diff'] });
  t.after(() => c.close());

  // Turn 1: the model reads the file.
  const read = await call(c.client, 'read_file', { path: 'geometry.py' });
  const lines = readView((read.structuredContent as { text: string }).text);
  const at = [...lines].find(([, l]) => l.includes('math.pi * r * r'))![0];
  assert.equal(at, 4);

  // Turn 2: it cites the line one below where it is.
  const reply = editblock('geometry.py', at + 1, [lines.get(at)!], ['    return math.pi * r ** 2']);
  const result = await call(c.client, 'apply_edits', { reply });
  const edit = (result.structuredContent as { edits: { status: string; match: string; offset: number; message: string }[] }).edits[0];
  assert.deepEqual([edit.status, edit.match, edit.offset], ['applied', 'offset', -1]);
  assert.match(text(result), /✓ geometry\.py lines 4-4 offset -1/);
  assert.equal(readFileSync(join(dir, 'geometry.py'), 'utf8'), SOURCE.replace('math.pi * r * r', 'math.pi * r ** 2'));

  // Turn 3: a misquoted line (the model's memory of it, not the file's) is refused with what the file has.
  const wrong = editblock('geometry.py', 7, ['    return 2 * pi * r'], ['    return math.tau * r']);
  const refused = await call(c.client, 'apply_edits', { reply: wrong });
  assert.equal(refused.isError, true);
  const retry = (refused.structuredContent as { edits: { retry: string }[] }).edits[0].retry;
  assert.match(retry, /Please send this edit again/);
  assert.equal(readFileSync(join(dir, 'geometry.py'), 'utf8'), SOURCE.replace('math.pi * r * r', 'math.pi * r ** 2'));

  // Turn 4: the model copies the line the message shows and sends the edit again.
  const shown = /geometry\.py has at line (\d+):\n *\d+│(.*)/.exec(retry);
  assert.ok(shown, retry);
  const again = await call(c.client, 'apply_edits', { reply: editblock('geometry.py', Number(shown[1]), [shown[2]], ['    return math.tau * r']) });
  assert.equal(again.isError, false, text(again));
  assert.equal(
    readFileSync(join(dir, 'geometry.py'), 'utf8'),
    SOURCE.replace('math.pi * r * r', 'math.pi * r ** 2').replace('2 * math.pi * r', 'math.tau * r'),
  );
});
