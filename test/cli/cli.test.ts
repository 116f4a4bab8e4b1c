import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT, oneErrorLine, run, tempDir } from './helpers.ts';

const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string };

test('--help, -h and help print the usage on stdout and exit 0', () => {
  const outputs = new Set<string>();
  for (const args of [['--help'], ['-h'], ['help'], ['apply', '--help'], ['read', '-h']]) {
    const r = run(args);
    assert.equal(r.status, 0, args.join(' '));
    assert.equal(r.stderr, '');
    assert.match(r.stdout, /^Usage: ln-diff <command>/);
    for (const word of ['apply --json', '--dry-run', '--atomic', '--base DIR', '--format NAME', 'read', '--version'])
      assert.ok(r.stdout.includes(word), `usage mentions ${word}`);
    outputs.add(r.stdout);
  }
  assert.equal(outputs.size, 1, 'the same usage text every way');
  assert.match([...outputs][0], /--dry-run +Write nothing; print what would change, then the change as a\n +unified diff/);
});

test('--version and -v print the package version', () => {
  for (const flag of ['--version', '-v']) {
    const r = run([flag]);
    assert.equal(r.status, 0);
    assert.equal(r.stdout, `${pkg.version}\n`);
    assert.equal(r.stderr, '');
  }
});

test('unknown commands and options, and no command, exit 2 with one stderr line', () => {
  for (const args of [[], ['frobnicate'], ['--frobnicate'], ['-x'], ['read', '--bogus', 'f.txt']]) {
    const r = run(args);
    assert.equal(r.status, 2, JSON.stringify(args));
    assert.equal(r.stdout, '');
    oneErrorLine(r.stderr);
  }
  assert.match(run(['frobnicate']).stderr, /unknown command 'frobnicate'/);
  assert.match(run(['--frobnicate']).stderr, /unknown option '--frobnicate'/);
});

test('works from any cwd', (t) => {
  const r = run(['--version'], { cwd: tempDir(t) });
  assert.equal(r.status, 0, r.stderr);
  assert.equal(r.stdout, `${pkg.version}\n`);
});

test('read prints the numbered view of a file', (t) => {
  const dir = tempDir(t);
  writeFileSync(join(dir, 'a.py'), 'def f():\n    return 1\n');
  const r = run(['read', 'a.py'], { cwd: dir });
  assert.equal(r.status, 0, r.stderr);
  assert.equal(r.stdout, '1│def f():\n2│    return 1\n');
  const same = run(['read', '--format', 'ln-diff', join(dir, 'a.py')]);
  assert.equal(same.stdout, r.stdout);
  const stdin = run(['read', '-'], { input: 'def f():\n    return 1\n' });
  assert.equal(stdin.stdout, r.stdout);
});

test('read: CRLF and a missing final newline still give one line per source line', (t) => {
  const dir = tempDir(t);
  writeFileSync(join(dir, 'w.txt'), 'x\r\ny');
  const r = run(['read', join(dir, 'w.txt')]);
  assert.equal(r.status, 0, r.stderr);
  assert.equal(r.stdout, '1│x\n2│y\n');
});

test('read: errors exit 2 with one stderr line', (t) => {
  const dir = tempDir(t);
  writeFileSync(join(dir, 'a.txt'), 'a\n');
  for (const args of [
    ['read'],
    ['read', join(dir, 'missing.txt')],
    ['read', dir],
    ['read', '--format', 'auto', join(dir, 'a.txt')],
    ['read', '--format', 'nope', join(dir, 'a.txt')],
    ['read', join(dir, 'a.txt'), 'extra'],
  ]) {
    const r = run(args);
    assert.equal(r.status, 2, args.join(' '));
    assert.equal(r.stdout, '');
    oneErrorLine(r.stderr);
  }
});
