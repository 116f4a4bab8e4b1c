// `ln-diff conformance --cmd PROGRAM`: our own command passes the suite it
// is run on; a deliberately wrong one (our command wrapped, its result
// changed) fails, with the differences shown and whitespace visible.

import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import type { Suite } from '../../src/examples/suite.ts';
import { spawnSync } from 'node:child_process';
import { BIN, ROOT } from './helpers.ts';

const SUITE = join(ROOT, 'spec/conformance.json');
const suite = JSON.parse(readFileSync(SUITE, 'utf8')) as Suite;
const dir = mkdtempSync(join(tmpdir(), 'ln-diff-conformance-'));
after(() => rmSync(dir, { recursive: true, force: true }));

const quote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;
const OURS = `${quote(process.execPath)} ${quote(BIN)} apply --json`;

/**
 * A wrong implementation: our command, its result changed by MODE.
 * - warning: a `stray-marker` warning added to every edit
 * - round: similarity rounded to one decimal
 * - space: a blank added at the end of every file's first line
 * - silent: prints nothing
 */
const WRONG = join(dir, 'wrong.mjs');
writeFileSync(
  WRONG,
  `import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
const mode = process.argv[2];
if (mode === 'silent') process.exit(2);
const run = spawnSync(process.execPath, [${JSON.stringify(BIN)}, 'apply', '--json'], { input: readFileSync(0) });
const result = JSON.parse(run.stdout.toString());
for (const e of result.edits) {
  if (mode === 'warning') e.warnings.push({ code: 'stray-marker', severity: 'warning', message: 'a stray marker' });
  if (mode === 'round' && e.similarity !== null) e.similarity = Math.round(e.similarity * 10) / 10;
}
if (mode === 'space') for (const [p, t] of Object.entries(result.files)) if (t) result.files[p] = t.replace('\\n', ' \\n');
process.stdout.write(JSON.stringify(result) + '\\n');
process.exitCode = run.status;
`,
);
const wrong = (mode: string) => `${quote(process.execPath)} ${quote(WRONG)} ${mode}`;

/** The command, run to the end (a whole page of cases may take a while on a busy machine). */
function runCli(args: string[]) {
  const env = { ...process.env };
  delete env.NODE_OPTIONS;
  const r = spawnSync(process.execPath, [BIN, ...args], { cwd: ROOT, env, encoding: 'utf8', timeout: 600_000 });
  if (r.error) throw r.error;
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

function conformance(...args: string[]) {
  return runCli(['conformance', '--suite', SUITE, ...args]);
}

function count(filter: (c: Suite['cases'][number]) => boolean): number {
  return suite.cases.filter(filter).length;
}

const lastLine = (text: string) => text.trimEnd().split('\n').at(-1);

describe('ln-diff conformance', () => {
  it('passes our own command, page by page', () => {
    for (const page of ['matching', 'prompts/ln-diff', 'formats']) {
      const n = count((c) => c.spec === `spec/${page}.md`);
      const r = conformance('--cmd', OURS, '--page', page);
      assert.equal(r.stdout, `${n} passed, 0 failed\n`, r.stderr);
      assert.equal(r.status, 0);
    }
  });

  it('fails a command that adds a warning to every edit, showing the difference', () => {
    const page = 'prompts/ln-diff';
    const n = count((c) => c.spec === `spec/${page}.md`);
    const withEdits = count((c) => c.spec === `spec/${page}.md` && c.expected.edits.length > 0);
    const r = conformance('--cmd', wrong('warning'), '--page', page);
    assert.equal(r.status, 1);
    assert.equal(lastLine(r.stdout), `${n - withEdits} passed, ${withEdits} failed`);
    assert.match(r.stdout, /^✗ prompts\/ln-diff#example-1 \(spec\/prompts\/ln-diff\.md, /m);
    assert.match(
      r.stdout,
      /\n {2}edits\[0\]\.warnings:\n {4}- expected \[\]\n {4}\+ actual {3}\[\{"code":"stray-marker","severity":"warning"\}\]\n/,
    );
  });

  it('fails a command that rounds similarity to one decimal, on the fuzzy cases only', () => {
    const fuzzy = (c: Suite['cases'][number]) =>
      c.spec === 'spec/formats/search-replace.md' &&
      c.expected.edits.some((e) => e.similarity !== null && Math.abs(Math.round(e.similarity * 10) / 10 - e.similarity) > 0.0005);
    const numbers = suite.cases.filter(fuzzy).map((c) => c.example);
    assert.ok(numbers.length >= 2);
    for (const n of numbers.slice(0, 2)) {
      const r = conformance('--cmd', wrong('round'), '--page', 'formats/search-replace', '--example', String(n));
      assert.equal(r.status, 1);
      assert.equal(lastLine(r.stdout), '0 passed, 1 failed');
      assert.match(r.stdout, /edits\[0\]\.similarity:\n {4}- expected 0\.\d+\n {4}\+ actual {3}0\.\d\n/);
      const ours = conformance('--cmd', OURS, '--page', 'formats/search-replace', '--example', String(n));
      assert.equal(ours.stdout, '1 passed, 0 failed\n');
    }
  });

  it('shows a file that differs as a line diff with its whitespace visible', () => {
    const r = conformance('--cmd', wrong('space'), '--page', 'matching', '--example', '1');
    assert.equal(r.status, 1);
    assert.match(r.stdout, /files\["[^"]+"\]: the text differs \(- expected, \+ actual\)\n/);
    assert.match(r.stdout, /\n {4}- (\S.*[^␣])\n {4}\+ \1␣\n/);
  });

  it('filters by format, page and example number', () => {
    const auto = count((c) => c.request.format === 'auto');
    assert.equal(conformance('--cmd', OURS, '--format', 'auto').stdout, `${auto} passed, 0 failed\n`);
    // --example alone selects that number on every page.
    const third = count((c) => c.example === 3 && c.spec.startsWith('spec/prompts/'));
    assert.ok(third > 1);
    const r = conformance('--cmd', wrong('silent'), '--page', 'spec/prompts/whole.md', '--example', '3');
    assert.equal(lastLine(r.stdout), '0 passed, 1 failed');
    assert.match(r.stdout, /^✗ prompts\/whole#example-3 /m);
    assert.match(r.stdout, /no JSON result on stdout \(it exited with status 2\)/);
  });

  it('refuses a missing --cmd, a filter that selects nothing, and an unreadable suite (exit 2)', () => {
    let r = runCli(['conformance']);
    assert.equal(r.status, 2);
    assert.match(r.stderr, /conformance needs --cmd "PROGRAM"/);
    r = conformance('--cmd', OURS, '--page', 'no-such-page');
    assert.equal(r.status, 2);
    assert.match(r.stderr, /no case matches the filters/);
    r = runCli(['conformance', '--cmd', OURS, '--suite', join(dir, 'missing.json')]);
    assert.equal(r.status, 2);
    assert.match(r.stderr, /cannot read the suite .*ENOENT/);
    r = conformance('--cmd', OURS, '--example', '0');
    assert.equal(r.status, 2);
  });
});
