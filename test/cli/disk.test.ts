import { test } from 'node:test';
import assert from 'node:assert/strict';
import { chmodSync, existsSync, mkdirSync, readFileSync, readdirSync, realpathSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { block, oneErrorLine, run, tempDir } from './helpers.ts';
import { notOnDisk } from '../../src/cli/plan.ts';
import type { ApplyResult } from '../../src/core/types.ts';

const APP = 'def f():\n    print("old")\n    return 1\n';
const fixReply = 'Here is the change:\n\n' + block('src/app.py', [[2, '    print("old")']], ['    print("new")']);

function project(t: Parameters<typeof tempDir>[0]): string {
  const dir = tempDir(t);
  mkdirSync(join(dir, 'src'));
  writeFileSync(join(dir, 'src/app.py'), APP);
  return dir;
}

/** Every file under `dir`, relative, sorted (to prove nothing else was written). */
function listing(dir: string): string[] {
  return (readdirSync(dir, { recursive: true }) as string[]).sort();
}

test('apply: applies a reply from stdin to files under --base and writes them', (t) => {
  const dir = project(t);
  const r = run(['apply', '--base', dir], { input: fixReply });
  assert.equal(r.status, 0, r.stderr);
  assert.equal(r.stderr, '');
  assert.equal(readFileSync(join(dir, 'src/app.py'), 'utf8'), 'def f():\n    print("new")\n    return 1\n');
  const lines = r.stdout.split('\n');
  assert.equal(lines[0], '✓ src/app.py lines 2-2 exact');
  assert.match(r.stdout, /1 edit: 1 applied, 0 failed; 1 file changed\n$/);
  assert.doesNotMatch(r.stdout, /\x1b\[/, 'no colour when stdout is not a TTY');
  assert.deepEqual(listing(dir), ['src', 'src/app.py'], 'no temp files left behind');
});

test('apply: reply from a file, "-" for stdin, and the cwd as the default base', (t) => {
  const dir = project(t);
  const replyFile = join(tempDir(t), 'reply.md');
  writeFileSync(replyFile, fixReply);
  const r = run(['apply', replyFile], { cwd: dir });
  assert.equal(r.status, 0, r.stderr);
  assert.match(readFileSync(join(dir, 'src/app.py'), 'utf8'), /print\("new"\)/);

  const back = block('src/app.py', [[2, '    print("new")']], ['    print("old")']);
  const r2 = run(['apply', '-'], { cwd: dir, input: back });
  assert.equal(r2.status, 0, r2.stderr);
  assert.equal(readFileSync(join(dir, 'src/app.py'), 'utf8'), APP);
});

test('apply: a reply with no edit (empty, a chat answer, a hunk that changes nothing) exits 4 and writes nothing', (t) => {
  const dir = project(t);
  const replies: [string, string[], string][] = [
    ['', [], /no-edits/.source],
    ['Looks good to me, nothing to change.\n', [], /no-edits/.source],
    ['--- a/src/app.py\n+++ b/src/app.py\n@@ -1,2 +1,2 @@\n def f():\n     print("old")\n', ['--format', 'udiff'], /no-change/.source],
  ];
  for (const [reply, args, finding] of replies) {
    const r = run(['apply', '--base', dir, ...args], { input: reply });
    assert.equal(r.status, 4, `${JSON.stringify(reply)}: ${r.stdout}${r.stderr}`);
    assert.equal(r.stderr, '');
    assert.match(r.stdout, new RegExp(finding));
    assert.match(r.stdout, /0 edits: 0 applied, 0 failed; 0 files changed\n$/);
    assert.equal(readFileSync(join(dir, 'src/app.py'), 'utf8'), APP);
  }
  // The same with --dry-run and --atomic; a malformed reply (no edit read, but structure) is a failure, 1.
  assert.equal(run(['apply', '--base', dir, '--dry-run', '--atomic'], { input: 'no change needed\n' }).status, 4);
  assert.equal(run(['apply', '--base', dir], { input: 'src/app.py\n<editblock>\n</editblock>\n' }).status, 1);
  assert.match(run(['--help']).stdout, /4 \(apply on disk\) the reply holds no edit/);
});

test('apply: offset matches are reported with their offset', (t) => {
  const dir = project(t);
  // Cited at line 1, really at line 2.
  const r = run(['apply', '--base', dir], { input: block('src/app.py', [[1, '    print("old")']], ['    print("new")']) });
  assert.equal(r.status, 0, r.stderr);
  assert.equal(r.stdout.split('\n')[0], '✓ src/app.py lines 2-2 offset +1');
});

test('apply: keeps CRLF, BOM, no final newline and the file mode', (t) => {
  const dir = tempDir(t);
  writeFileSync(join(dir, 'win.txt'), '\uFEFFa\r\nb\r\nc');
  chmodSync(join(dir, 'win.txt'), 0o751);
  const r = run(['apply', '--base', dir], { input: block('win.txt', [[2, 'b']], ['B', 'B2']) });
  assert.equal(r.status, 0, r.stderr);
  assert.deepEqual(readFileSync(join(dir, 'win.txt')), Buffer.from('\uFEFFa\r\nB\r\nB2\r\nc', 'utf8'));
  assert.equal(statSync(join(dir, 'win.txt')).mode & 0o777, 0o751);
});

test('apply: creates new files and their parent directories inside the base', (t) => {
  const dir = tempDir(t);
  const r = run(['apply', '--base', dir], { input: block('new/deep/hello.txt', [], ['hello', 'world']) });
  assert.equal(r.status, 0, r.stderr);
  assert.equal(readFileSync(join(dir, 'new/deep/hello.txt'), 'utf8'), 'hello\nworld\n');
  assert.match(r.stdout, /created new\/deep\/hello\.txt/);
});

test('apply --dry-run: reports the edits but writes nothing', (t) => {
  const dir = project(t);
  const reply = fixReply + '\n' + block('brand/new.txt', [], ['x']);
  const r = run(['apply', '--dry-run', '--base', dir], { input: reply });
  assert.equal(r.status, 0, r.stderr);
  assert.equal(readFileSync(join(dir, 'src/app.py'), 'utf8'), APP);
  assert.equal(existsSync(join(dir, 'brand')), false);
  assert.deepEqual(listing(dir), ['src', 'src/app.py']);
  assert.match(r.stdout, /^✓ src\/app\.py lines 2-2 exact$/m);
  assert.match(r.stdout, /would modify src\/app\.py/);
  assert.match(r.stdout, /would create brand\/new\.txt/);
  assert.match(r.stdout, /dry run.*nothing written/);
  // After the summary, a blank line and the change as a unified diff.
  const diff = r.stdout.slice(r.stdout.indexOf('nothing written\n') + 'nothing written\n'.length);
  assert.equal(
    diff,
    [
      '',
      '--- a/src/app.py',
      '+++ b/src/app.py',
      '@@ -1,3 +1,3 @@',
      ' def f():',
      '-    print("old")',
      '+    print("new")',
      '     return 1',
      '--- /dev/null',
      '+++ b/brand/new.txt',
      '@@ -0,0 +1,1 @@',
      '+x',
      '',
    ].join('\n'),
  );
});

test('apply --dry-run: no diff when nothing would be written (--atomic held back by a failed edit)', (t) => {
  const dir = project(t);
  const reply = fixReply + '\n' + block('src/app.py', [[3, 'no such line']], ['x']);
  const r = run(['apply', '--dry-run', '--atomic', '--base', dir], { input: reply });
  assert.equal(r.status, 1, r.stderr);
  assert.doesNotMatch(r.stdout, /^--- |^\+\+\+ |^@@ /m);
});

test('apply: a failed edit exits 1, names the file and code, and the applied edits are written', (t) => {
  const dir = project(t);
  writeFileSync(join(dir, 'other.txt'), 'keep\n');
  const reply = fixReply + '\n' + block('other.txt', [[1, 'something else entirely']], ['x']);
  const r = run(['apply', '--base', dir], { input: reply });
  assert.equal(r.status, 1, r.stderr);
  assert.match(r.stdout, /^✗ other\.txt no-match \(edit at reply line 12\): .+$/m);
  assert.match(r.stdout, /2 edits: 1 applied, 1 failed/);
  assert.equal(readFileSync(join(dir, 'other.txt'), 'utf8'), 'keep\n');
  assert.match(readFileSync(join(dir, 'src/app.py'), 'utf8'), /print\("new"\)/);
});

test('apply: unknown --format, missing --base, unreadable reply file are usage errors', (t) => {
  const dir = project(t);
  for (const args of [
    ['apply', '--format', 'nope', '--base', dir],
    ['apply', '--base', join(dir, 'missing')],
    ['apply', '--base', join(dir, 'src/app.py')],
    ['apply', '--base', dir, join(dir, 'no-reply.md')],
    ['apply', '--base', dir, 'a', 'b'],
    ['apply', '--base'],
    ['apply', '--nope'],
  ]) {
    const r = run(args, { input: fixReply });
    assert.equal(r.status, 2, args.join(' '));
    assert.equal(r.stdout, '');
    oneErrorLine(r.stderr);
  }
  assert.equal(readFileSync(join(dir, 'src/app.py'), 'utf8'), APP);
});

/** A base inside an outer directory, to prove nothing lands outside the base. */
function nested(t: Parameters<typeof tempDir>[0]) {
  const outer = tempDir(t);
  const base = join(outer, 'base');
  mkdirSync(base);
  writeFileSync(join(base, 'safe.txt'), 'safe\n');
  writeFileSync(join(outer, 'secret.txt'), 'secret\n');
  return { outer, base };
}

function assertRefused(r: ReturnType<typeof run>, file: string) {
  assert.equal(r.status, 2, r.stdout + r.stderr);
  assert.equal(r.stdout, '');
  const line = oneErrorLine(r.stderr);
  assert.ok(line.includes(file), `the error names ${file}: ${line}`);
}

test('apply: refuses paths with ".." that leave the base, and writes nothing at all', (t) => {
  const { outer, base } = nested(t);
  const reply =
    block('safe.txt', [[1, 'safe']], ['changed']) +
    '\n' +
    block('../secret.txt', [[1, 'secret']], ['pwned']) +
    '\n' +
    block('../escaped.txt', [], ['pwned']);
  const r = run(['apply', '--base', base], { input: reply });
  assertRefused(r, '../secret.txt');
  assert.equal(readFileSync(join(outer, 'secret.txt'), 'utf8'), 'secret\n');
  assert.equal(readFileSync(join(base, 'safe.txt'), 'utf8'), 'safe\n', 'the safe edit is not applied either');
  assert.deepEqual(listing(outer), ['base', 'base/safe.txt', 'secret.txt']);
});

test('apply: refuses absolute paths', (t) => {
  const { outer, base } = nested(t);
  const abs = join(outer, 'secret.txt');
  const r = run(['apply', '--base', base], { input: block(abs, [[1, 'secret']], ['pwned']) });
  assertRefused(r, abs);
  assert.equal(readFileSync(abs, 'utf8'), 'secret\n');
  const r2 = run(['apply', '--base', base], { input: block(join(outer, 'new.txt'), [], ['pwned']) });
  assertRefused(r2, join(outer, 'new.txt'));
  assert.deepEqual(listing(outer), ['base', 'base/safe.txt', 'secret.txt']);
});

test('apply: refuses a path whose directory is a symlink leading outside the base', (t) => {
  const { outer, base } = nested(t);
  symlinkSync(outer, join(base, 'link'));
  const r = run(['apply', '--base', base], { input: block('link/secret.txt', [[1, 'secret']], ['pwned']) });
  assertRefused(r, 'link/secret.txt');
  const r2 = run(['apply', '--base', base], { input: block('link/sub/new.txt', [], ['pwned']) });
  assertRefused(r2, 'link/sub/new.txt');
  assert.equal(readFileSync(join(outer, 'secret.txt'), 'utf8'), 'secret\n');
  assert.equal(existsSync(join(outer, 'sub')), false);
});

test('apply: refuses to write through a symlinked file, even one pointing inside the base', (t) => {
  const { outer, base } = nested(t);
  symlinkSync(join(outer, 'secret.txt'), join(base, 'out.txt'));
  symlinkSync(join(base, 'safe.txt'), join(base, 'in.txt'));
  const r = run(['apply', '--base', base], { input: block('out.txt', [[1, 'secret']], ['pwned']) });
  assertRefused(r, 'out.txt');
  const r2 = run(['apply', '--base', base], { input: block('in.txt', [[1, 'safe']], ['pwned']) });
  assertRefused(r2, 'in.txt');
  assert.equal(readFileSync(join(outer, 'secret.txt'), 'utf8'), 'secret\n');
  assert.equal(readFileSync(join(base, 'safe.txt'), 'utf8'), 'safe\n');
});

test('apply: a symlinked base directory is fine, and so are symlinks that stay inside it', (t) => {
  const { outer, base } = nested(t);
  mkdirSync(join(base, 'real'));
  writeFileSync(join(base, 'real/x.txt'), 'x\n');
  symlinkSync(join(base, 'real'), join(base, 'alias'));
  symlinkSync(base, join(outer, 'base-link'));
  const r = run(['apply', '--base', join(outer, 'base-link')], { input: block('alias/x.txt', [[1, 'x']], ['y']) });
  assert.equal(r.status, 0, r.stderr);
  assert.equal(readFileSync(join(base, 'real/x.txt'), 'utf8'), 'y\n');
});

test('apply: refuses a file that is not UTF-8 text, naming it', (t) => {
  const dir = tempDir(t);
  writeFileSync(join(dir, 'bin.dat'), Buffer.from([0xff, 0xfe, 0x00, 0x41, 0x0a]));
  const r = run(['apply', '--base', dir], { input: block('bin.dat', [[1, 'A']], ['B']) });
  assertRefused(r, 'bin.dat');
  assert.deepEqual(readFileSync(join(dir, 'bin.dat')), Buffer.from([0xff, 0xfe, 0x00, 0x41, 0x0a]));
});

test('apply: a path in another letter case or Unicode form edits the file the directory holds, by its listing', (t) => {
  const dir = tempDir(t);
  mkdirSync(join(dir, 'Src'));
  writeFileSync(join(dir, 'Src/App.py'), 'x = 1\n');
  writeFileSync(join(dir, 'cafe\u0301.md'), '# Old\n');
  const reply = block('src/app.py', [[1, 'x = 1']], ['x = 2']) + '\n' + block('caf\u00e9.md', [[1, '# Old']], ['# New']) + '\n' + block('SRC/new.py', [], ['y = 1']);
  const r = run(['apply', '--base', dir], { input: reply });
  assert.equal(r.status, 0, r.stdout + r.stderr);
  assert.equal(readFileSync(join(dir, 'Src/App.py'), 'utf8'), 'x = 2\n');
  assert.equal(readFileSync(join(dir, 'cafe\u0301.md'), 'utf8'), '# New\n');
  assert.equal(readFileSync(join(dir, 'Src/new.py'), 'utf8'), 'y = 1\n', 'a new file goes into the directory there');
  assert.deepEqual(listing(dir), ['Src', 'Src/App.py', 'Src/new.py', 'cafe\u0301.md']);
  assert.deepEqual(
    r.stdout.split('\n').filter((line) => line.startsWith('  ')),
    ['  modified Src/App.py', '  modified cafe\u0301.md', '  created Src/new.py'],
  );
});

test('apply: a path that fits two entries only by letter case is refused, naming both', (t) => {
  const dir = tempDir(t);
  writeFileSync(join(dir, 'README.md'), 'a\n');
  writeFileSync(join(dir, 'Readme.md'), 'b\n');
  const exact = run(['apply', '--base', dir], { input: block('Readme.md', [[1, 'b']], ['B']) });
  assert.equal(exact.status, 0, exact.stdout + exact.stderr);
  assert.equal(readFileSync(join(dir, 'Readme.md'), 'utf8'), 'B\n');
  const r = run(['apply', '--base', dir], { input: block('readme.md', [[1, 'a']], ['A']) });
  assert.equal(r.status, 2, r.stdout + r.stderr);
  assert.equal(
    oneErrorLine(r.stderr),
    'ln-diff: "readme.md": 2 entries of the base directory differ from "readme.md" only in letter case or Unicode normalisation ("README.md", "Readme.md"); refusing to guess: name the one meant exactly as it is on disk',
  );
  assert.deepEqual(listing(dir), ['README.md', 'Readme.md']);
  assert.equal(readFileSync(join(dir, 'README.md'), 'utf8'), 'a\n');
});

test('apply: a file neither given nor under the base says so, names the resolved base and --base', (t) => {
  const dir = project(t);
  const reply = block('src/app.py', [[2, '    print("old")']], ['    print("new")']) + '\n' + block('lib/gone.py', [[1, 'x = 1']], ['x = 2']);
  const r = run(['apply', '--dry-run', '--base', join(dir, 'src', '..')], { input: reply });
  assert.equal(r.status, 1, r.stderr);
  const line = r.stdout.split('\n').find((l) => l.startsWith('✗ lib/gone.py file-not-found'));
  assert.ok(line, r.stdout);
  assert.ok(line.includes(`: lib/gone.py was not given in the request and is not under the base directory ${realpathSync(dir)};`), line);
  assert.ok(line.endsWith("; if the reply's paths are relative to another directory, run again with --base DIR"), line);
  assert.doesNotMatch(line, /among the files given/);
  assert.match(r.stdout, /^✓ src\/app\.py lines 2-2 exact$/m, 'the file that is there still applies');
  assert.equal(readFileSync(join(dir, 'src/app.py'), 'utf8'), APP, 'a dry run writes nothing');
});

test('the disk-mode words replace the whole list of files given, whatever their names hold', () => {
  const given = ['a (copy).txt', 'b.txt'];
  const result = { edits: [{ status: 'failed', code: 'file-not-found', message: 'lib/gone.py is not among the files given (a (copy).txt, b.txt); to make a new file, use the create command' }] } as unknown as ApplyResult;
  assert.equal(
    notOnDisk(result, '/base $&', given).edits[0].message,
    "lib/gone.py was not given in the request and is not under the base directory /base $&; to make a new file, use the create command; if the reply's paths are relative to another directory, run again with --base DIR",
  );
});

test("apply: the format's own hint on a missing file is kept after the disk-mode words", (t) => {
  const dir = project(t);
  const r = run(['apply', '--base', dir], { input: '*** Begin Patch\n*** Update File: gone.txt\n@@\n-a\n+b\n*** End Patch\n' });
  assert.equal(r.status, 1, r.stderr);
  assert.match(r.stdout, /cannot update gone\.txt: it was not given in the request and is not under the base directory .+; to create it, use `\*\*\* Add File: gone\.txt`; .*--base DIR\n/);
});

// A file on disk is a file given: an edit of another format than the reply's own on it is
// read (under auto applied in its own format; with a format named, reported as mixed), never
// dropped as a quote of a file the request does not hold.
test('apply: a reply of two formats reads the files both name', (t) => {
  const dir = project(t);
  writeFileSync(join(dir, 'b.py'), 'def g():\n    return 2\n');
  const reply = fixReply + '\n\nb.py\n```python\n<<<<<<< SEARCH\n    return 2\n=======\n    return 20\n>>>>>>> REPLACE\n```\n';
  const auto = run(['apply', '--dry-run', '--base', dir], { input: reply });
  assert.equal(auto.status, 0, auto.stdout + auto.stderr);
  assert.match(auto.stdout, /^✓ src\/app\.py lines 2-2 exact$/m);
  assert.match(auto.stdout, /^✓ b\.py lines 2-2 exact$/m);
  const named = run(['apply', '--dry-run', '--format', 'ln-diff', '--base', dir], { input: reply });
  assert.equal(named.status, 1, named.stdout + named.stderr);
  assert.match(named.stdout, /mixed-formats/);
  assert.equal(readFileSync(join(dir, 'b.py'), 'utf8'), 'def g():\n    return 2\n', 'a dry run writes nothing');
});
