// writeResult (src/cli/write-result.ts) writes exactly the bytes of
// JSON.stringify(result) + '\n', whatever the file texts hold where a chunk
// of them ends (surrogate pairs, lone surrogates, control characters,
// non-ASCII), whatever the paths (`__proto__`, a path or text holding the
// mark it puts in a text's place). It writes to file descriptor 1, so each
// case runs in a child process.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { JSON_CHUNK } from '../../src/cli/stdout.ts';

const C = JSON_CHUNK;
const MARK = '\u0000ln-diff text ';
const text = (n: number, f: (i: number) => string) => Array.from({ length: n }, (_, i) => f(i)).join('');

/** Each case: the result's files as [path, text] pairs (in order), and its edits. */
const cases: { name: string; files: [string, string | null][]; edits?: unknown[] }[] = [
  { name: 'several chunks of printable ASCII', files: [['a', text(3 * C, (i) => String.fromCharCode(32 + (i % 90)))]] },
  { name: 'a surrogate pair across a chunk end', files: [['a', 'x'.repeat(C - 1) + '\u{1F600}' + 'y'.repeat(C)]] },
  { name: 'a lone high surrogate at a chunk end', files: [['a', 'x'.repeat(C - 1) + '\ud800' + 'y'.repeat(C)]] },
  { name: 'a lone low surrogate after a chunk end', files: [['a', 'x'.repeat(C) + '\udc00' + 'y'.repeat(C)]] },
  { name: 'control characters', files: [['a', text(2 * C, (i) => String.fromCharCode(i % 0x30))]] },
  { name: 'non-ASCII, quotes, backslashes', files: [['a', 'é'.repeat(2 * C) + '"\\\n\t\u2028']] },
  {
    name: 'a __proto__ path, a deleted file, a short text, an index-like path',
    files: [['__proto__', 'z'.repeat(2 * C)], ['b', null], ['c', 'short'], ['1', 'q'.repeat(C)]],
  },
  { name: 'a short text that is the mark', files: [['a', `${MARK}0`], ['b', 'w'.repeat(C)]] },
  { name: 'a path that is the mark', files: [[`${MARK}0`, 'w'.repeat(C)]] },
  { name: 'a message holding the mark', files: [['a', 'x'.repeat(C)], ['b', 'y'.repeat(C + 5)]], edits: [{ message: `${MARK}1` }] },
  { name: 'an exactly chunk-long text', files: [['a', 'v'.repeat(C)]] },
  { name: 'small texts only', files: [['a', ''], ['b', 'one\n']] },
];

function resultOf(c: (typeof cases)[number]) {
  // Own properties whatever the path (`__proto__` too), as the engine sets them.
  const files: Record<string, string | null> = {};
  for (const [path, t] of c.files) Object.defineProperty(files, path, { value: t, enumerable: true, writable: true, configurable: true });
  return { ok: true, files, edits: c.edits ?? [], format: 'udiff', detection: null, diagnostics: [] };
}

const CHILD = `
import { writeResult } from ${JSON.stringify(fileURLToPath(new URL('../../src/cli/write-result.ts', import.meta.url)))};
import { readFileSync } from 'node:fs';
for (const c of JSON.parse(readFileSync(0, 'utf8'))) {
  const files = {};
  for (const [path, t] of c.files) Object.defineProperty(files, path, { value: t, enumerable: true, writable: true, configurable: true });
  writeResult({ ok: true, files, edits: c.edits ?? [], format: 'udiff', detection: null, diagnostics: [] });
}
`;

test('writeResult writes the bytes of JSON.stringify(result) and a newline', () => {
  const env = { ...process.env };
  delete env.NODE_OPTIONS;
  const r = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', CHILD], {
    input: JSON.stringify(cases),
    env,
    maxBuffer: 1 << 30,
  });
  assert.equal(r.status, 0, String(r.stderr));
  const lines = r.stdout.toString('utf8').split('\n');
  assert.equal(lines.pop(), '', 'every result ends with a newline');
  assert.equal(lines.length, cases.length);
  for (const [k, c] of cases.entries()) {
    const want = JSON.stringify(resultOf(c));
    assert.ok(lines[k] === want, `${c.name}: the line differs from JSON.stringify's`);
  }
});
