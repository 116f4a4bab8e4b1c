// Hostile disk layouts for `ln-diff apply` (disk mode): read-only files and
// directories, world-writable and sticky directories holding another user's
// file, symlinks inside and outside the base, `.git/`, two names for one
// file, and the leftovers of a run killed part way. The rules are listed at
// the top of src/cli/disk.ts.
//
// Rules that depend on who runs ln-diff are checked as an unprivileged user:
// when the tests run as root, the CLI is started as `nobody` (with no
// supplementary groups) on files made for it; otherwise the CLI runs as the
// current user, and the tests that need a file of another user are skipped.

import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import {
  chmodSync,
  chownSync,
  existsSync,
  linkSync,
  lstatSync,
  mkdirSync,
  readFileSync,
  readdirSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { STALE_TEMP, gitSegment, tempName } from '../../src/cli/disk.ts';
import { block, oneErrorLine, run, tempDir, type RunOptions, type User } from '../cli/helpers.ts';

const ROOT = process.geteuid?.() === 0;
const NOT_ROOT = ROOT ? false : 'needs root: the file of another user cannot be made otherwise';

/** The ids of `nobody` and `nogroup` (from /etc/passwd and /etc/group; 65534 when absent). */
function idOf(file: string, names: string[]): number {
  try {
    for (const line of readFileSync(file, 'utf8').split('\n')) {
      const [name, , id] = line.split(':');
      if (names.includes(name)) return Number(id);
    }
  } catch {}
  return 65534;
}

/** Who runs the CLI in these tests: `nobody` when we are root, else ourselves. */
const USER: User = ROOT
  ? { uid: idOf('/etc/passwd', ['nobody']), gid: idOf('/etc/group', ['nogroup', 'nobody']) }
  : { uid: process.geteuid!(), gid: process.getegid!() };
const asUser: RunOptions = ROOT ? { user: USER } : {};

/** A base directory the CLI's user owns (and every directory above it lets that user through). */
function base(t: Parameters<typeof tempDir>[0]): string {
  const outer = tempDir(t, 'ln-diff-adv-');
  chmodSync(outer, 0o755);
  const dir = join(outer, 'base');
  mkdirSync(dir);
  giveToUser(dir);
  return dir;
}

/** Make `file` the CLI user's (a no-op when that is us). */
function giveToUser(file: string): void {
  if (ROOT) chownSync(file, USER.uid, USER.gid);
}

/** Write a file the CLI's user owns, with `mode`. */
function userFile(file: string, text: string, mode = 0o644): void {
  writeFileSync(file, text);
  giveToUser(file);
  chmodSync(file, mode);
}

/** Every entry under `dir`, relative, sorted. */
const listing = (dir: string) => (readdirSync(dir, { recursive: true }) as string[]).sort();

const apply = (dir: string, reply: string, extra: string[] = [], opts: RunOptions = asUser) =>
  run(['apply', ...extra, '--base', dir], { ...opts, input: reply });

/** An apply-patch reply (its paths are read as written: odd names reach the disk checks). */
const patch = (...lines: string[]) => ['*** Begin Patch', ...lines, '*** End Patch', ''].join('\n');

function assertRefused(r: ReturnType<typeof run>, ...names: string[]): string {
  assert.equal(r.status, 2, r.stdout + r.stderr);
  assert.equal(r.stdout, '', 'nothing is applied or written');
  const line = oneErrorLine(r.stderr);
  for (const name of names) assert.ok(line.includes(name), `the error names ${name}: ${line}`);
  return line;
}

// ------------------------------------------------------------ 19: a move never loses its source

test('disk 19: a move into a directory that cannot be written keeps the source (and says so)', (t) => {
  const dir = base(t);
  userFile(join(dir, 'src.txt'), 'keep me\n');
  mkdirSync(join(dir, 'ro'));
  giveToUser(join(dir, 'ro'));
  chmodSync(join(dir, 'ro'), 0o555);
  const reply = patch('*** Update File: src.txt', '*** Move to: ro/dst.txt', '@@', '-keep me', '+kept');
  for (const extra of [[], ['--atomic']]) {
    const r = apply(dir, reply, extra);
    assert.equal(r.status, 1, r.stdout + r.stderr);
    assert.equal(r.stderr, '');
    assert.match(r.stdout, /^ {2}✗ not created ro\/dst\.txt: cannot create files in ro \(EACCES[^)]*\)$/m);
    assert.match(r.stdout, /^ {2}✗ not deleted src\.txt: /m);
    assert.equal(readFileSync(join(dir, 'src.txt'), 'utf8'), 'keep me\n', `the source is whole (${extra.join(' ') || 'default'})`);
    assert.deepEqual(listing(dir), ['ro', 'src.txt']);
  }
});

test('disk 19: a move whose destination cannot be put in place keeps the source, even as root', (t) => {
  const dir = base(t);
  userFile(join(dir, 'src.txt'), 'keep me\n');
  // Another program makes `dst` a directory while ln-diff writes, so the moved file cannot land (root or not).
  const reply = patch('*** Add File: other.txt', '+x', '*** Update File: src.txt', '*** Move to: dst', '@@', '-keep me', '+kept');
  const hook = meanwhile(dir);
  const r = run(['apply', '--base', dir], { input: reply, node: ['--import', hook], env: { LN_MEANWHILE: JSON.stringify([join(dir, 'dst/inner.txt'), 'theirs\n']) } });
  assert.equal(r.status, 1, r.stdout + r.stderr);
  assert.match(r.stdout, /^ {2}created other\.txt$/m);
  assert.match(r.stdout, /^ {2}✗ not created dst: a directory is there now/m);
  assert.match(r.stdout, /^ {2}✗ not deleted src\.txt: a file could not be written, so no file is deleted \(a moved file keeps its old name\)$/m);
  assert.match(r.stdout, /; 1 file changed, 1 could not be written, 1 deletion held back\n$/);
  assert.equal(readFileSync(join(dir, 'src.txt'), 'utf8'), 'keep me\n');
});

test('disk 19: a move that can be written deletes its source after the new file is in place', (t) => {
  const dir = base(t);
  userFile(join(dir, 'src.txt'), 'keep me\n', 0o640);
  const r = apply(dir, patch('*** Update File: src.txt', '*** Move to: sub/dst.txt', '@@', '-keep me', '+moved'));
  assert.equal(r.status, 0, r.stdout + r.stderr);
  assert.deepEqual(listing(dir), ['sub', 'sub/dst.txt']);
  assert.equal(readFileSync(join(dir, 'sub/dst.txt'), 'utf8'), 'moved\n');
});

// ------------------------------------------------------------ 20: two names for one file

test('disk 20: two names for one file through a symlinked directory are refused, and nothing is lost', (t) => {
  const dir = base(t);
  mkdirSync(join(dir, 'b'));
  giveToUser(join(dir, 'b'));
  userFile(join(dir, 'b/x.txt'), '1\n2\n3\n');
  symlinkSync('b', join(dir, 'a'));
  const reply = block('a/x.txt', [[1, '1']], ['one']) + '\n' + block('b/x.txt', [[3, '3']], ['three']);
  for (const extra of [[], ['--atomic'], ['--dry-run']]) {
    const r = apply(dir, reply, extra);
    assertRefused(r, 'a/x.txt', 'b/x.txt', 'name the same file');
    assert.equal(readFileSync(join(dir, 'b/x.txt'), 'utf8'), '1\n2\n3\n');
  }
  // Either name alone is fine.
  const one = apply(dir, block('a/x.txt', [[1, '1']], ['one']));
  assert.equal(one.status, 0, one.stdout + one.stderr);
  assert.equal(readFileSync(join(dir, 'b/x.txt'), 'utf8'), 'one\n2\n3\n');
});

test('disk 20: a new file made under two names, a move onto its own other name, and hard links are refused', (t) => {
  const dir = base(t);
  mkdirSync(join(dir, 'b'));
  giveToUser(join(dir, 'b'));
  userFile(join(dir, 'b/x.txt'), 'x\n');
  symlinkSync('b', join(dir, 'a'));
  userFile(join(dir, 'h1.txt'), 'h\n');
  linkSync(join(dir, 'h1.txt'), join(dir, 'h2.txt'));
  const before = listing(dir);

  assertRefused(apply(dir, patch('*** Add File: a/new.txt', '+one', '*** Add File: b/new.txt', '+two')), 'a/new.txt', 'b/new.txt');
  // A move of b/x.txt to a/x.txt would write the file, then delete it.
  assertRefused(apply(dir, patch('*** Update File: b/x.txt', '*** Move to: a/x.txt', '@@', '-x', '+y')), 'a/x.txt', 'b/x.txt');
  assertRefused(apply(dir, block('h1.txt', [[1, 'h']], ['one']) + '\n' + block('h2.txt', [[1, 'h']], ['two'])), 'h1.txt', 'h2.txt');
  assert.deepEqual(listing(dir), before);
  assert.equal(readFileSync(join(dir, 'b/x.txt'), 'utf8'), 'x\n');
  assert.equal(readFileSync(join(dir, 'h2.txt'), 'utf8'), 'h\n');
});

test('disk 20: symlinks that leave the base stay refused (a directory, a file, a dangling link)', (t) => {
  const dir = base(t);
  const outside = join(dir, '..', 'outside');
  mkdirSync(outside);
  writeFileSync(join(outside, 'secret.txt'), 'secret\n');
  symlinkSync(outside, join(dir, 'out'));
  symlinkSync(join(outside, 'secret.txt'), join(dir, 'secret.txt'));
  symlinkSync(join(outside, 'nowhere'), join(dir, 'dangling'));
  assertRefused(apply(dir, block('out/secret.txt', [[1, 'secret']], ['pwned'])), 'out/secret.txt', 'resolves outside');
  assertRefused(apply(dir, block('secret.txt', [[1, 'secret']], ['pwned'])), 'secret.txt', 'symlink');
  assertRefused(apply(dir, patch('*** Add File: dangling/x.txt', '+pwned')), 'dangling/x.txt');
  assertRefused(apply(dir, patch('*** Add File: dangling', '+pwned')), 'dangling');
  assert.equal(readFileSync(join(outside, 'secret.txt'), 'utf8'), 'secret\n');
  assert.deepEqual(readdirSync(outside), ['secret.txt']);
});

// ------------------------------------------------------------ 21: permissions and owners

test('disk 21: a read-only file is not rewritten; the other files of the reply are', (t) => {
  const dir = base(t);
  userFile(join(dir, 'locked.txt'), 'old\n', 0o444);
  userFile(join(dir, 'open.txt'), 'old\n');
  const reply = block('locked.txt', [[1, 'old']], ['new']) + '\n' + block('open.txt', [[1, 'old']], ['new']);
  const opts = asUser;
  const r = apply(dir, reply, [], opts);
  assert.equal(r.status, 1, r.stdout + r.stderr);
  assert.match(r.stdout, /^ {2}✗ not modified locked\.txt: you may not write it \(EACCES[^)]*\); ln-diff changes only files you could edit in place$/m);
  assert.match(r.stdout, /^ {2}modified open\.txt$/m);
  assert.match(r.stdout, /2 edits: 2 applied, 0 failed; 1 file changed, 1 could not be written\n$/);
  assert.equal(readFileSync(join(dir, 'locked.txt'), 'utf8'), 'old\n');
  assert.equal(statSync(join(dir, 'locked.txt')).mode & 0o777, 0o444);
  assert.equal(readFileSync(join(dir, 'open.txt'), 'utf8'), 'new\n');

  // --atomic writes neither; --dry-run says the same without writing.
  userFile(join(dir, 'open.txt'), 'old\n');
  const atomic = apply(dir, reply, ['--atomic'], opts);
  assert.equal(atomic.status, 1, atomic.stdout + atomic.stderr);
  assert.match(atomic.stdout, /^ {2}✗ not modified open\.txt: --atomic: locked\.txt could not be written$/m);
  assert.match(atomic.stdout, /--atomic: 1 could not be written, so nothing was written \(2 files would have changed\)\n$/);
  assert.equal(readFileSync(join(dir, 'open.txt'), 'utf8'), 'old\n');
  const dry = apply(dir, reply, ['--dry-run'], opts);
  assert.equal(dry.status, 1, dry.stdout + dry.stderr);
  assert.match(dry.stdout, /^ {2}✗ would not modify locked\.txt: you may not write it/m);
  assert.match(dry.stdout, /^ {2}would modify open\.txt$/m);
  // The diff shows the change that would be written, not the one that could not be.
  assert.match(dry.stdout, /dry run: 1 file would change, 1 could not be written, nothing written\n\n--- a\/open\.txt\n\+\+\+ b\/open\.txt\n@@ -1,1 \+1,1 @@\n-old\n\+new\n$/);
  assert.equal(readFileSync(join(dir, 'open.txt'), 'utf8'), 'old\n');
});

test('disk 21: a file the user may not delete stays', (t) => {
  const dir = base(t);
  userFile(join(dir, 'locked.txt'), 'old\n', 0o444);
  const r = apply(dir, patch('*** Delete File: locked.txt'));
  assert.equal(r.status, 1, r.stdout + r.stderr);
  assert.match(r.stdout, /^ {2}✗ not deleted locked\.txt: you may not write it/m);
  assert.equal(readFileSync(join(dir, 'locked.txt'), 'utf8'), 'old\n');
});

test('disk 21: in a world-writable directory, another user\'s file is never taken over', { skip: NOT_ROOT }, (t) => {
  const dir = base(t);
  for (const [sticky, mode] of [
    [false, 0o644],
    [false, 0o666],
    [true, 0o666],
  ] as const) {
    const shared = join(dir, `shared-${sticky ? 'sticky' : 'open'}-${mode.toString(8)}`);
    mkdirSync(shared);
    chmodSync(shared, sticky ? 0o1777 : 0o777);
    const theirs = join(shared, 'theirs.txt');
    writeFileSync(theirs, 'old\n');
    chmodSync(theirs, mode);
    const rel = `${shared.slice(dir.length + 1)}/theirs.txt`;
    const r = apply(dir, block(rel, [[1, 'old']], ['mine now']));
    assert.equal(r.status, 1, r.stdout + r.stderr);
    const why = mode === 0o644 ? 'you may not write it' : 'it belongs to another user \\(uid 0\\); a new copy would be yours';
    assert.match(r.stdout, new RegExp(`^ {2}✗ not modified ${rel.replace(/[.]/g, '\\.')}: ${why}`, 'm'));
    const st = statSync(theirs);
    assert.equal(readFileSync(theirs, 'utf8'), 'old\n');
    assert.deepEqual([st.uid, st.mode & 0o777], [0, mode], 'owner and mode kept');
    assert.deepEqual(readdirSync(shared), ['theirs.txt'], 'no temporary left');
  }
});

test('disk 21: root editing a user\'s file keeps its owner, group and mode (set-user-id too)', { skip: NOT_ROOT }, (t) => {
  const dir = base(t);
  const modes: Record<string, number> = { 'plain.txt': 0o640, 'run.sh': 0o4755, 'group.sh': 0o2750 };
  for (const [name, mode] of Object.entries(modes)) userFile(join(dir, name), 'old\n', mode);
  for (const [extra, from, to] of [[[], 'old', 'new'], [['--atomic'], 'new', 'newer']] as const) {
    const reply = Object.keys(modes).map((name) => block(name, [[1, from]], [to])).join('\n');
    const r = apply(dir, reply, [...extra], {});
    assert.equal(r.status, 0, r.stdout + r.stderr);
    for (const [name, mode] of Object.entries(modes)) {
      const st = statSync(join(dir, name));
      assert.deepEqual([st.uid, st.gid, st.mode & 0o7777], [USER.uid, USER.gid, mode], `${name} (${extra.join(' ') || 'default'})`);
      assert.equal(readFileSync(join(dir, name), 'utf8'), `${to}\n`);
    }
  }
});

test('disk 21: a writable file in a directory the user cannot write is refused with the reason', { skip: NOT_ROOT }, (t) => {
  const dir = base(t);
  const closed = join(dir, 'closed');
  mkdirSync(closed);
  chmodSync(closed, 0o755);
  userFile(join(closed, 'mine.txt'), 'old\n', 0o644);
  const r = apply(dir, block('closed/mine.txt', [[1, 'old']], ['new']));
  assert.equal(r.status, 1, r.stdout + r.stderr);
  assert.match(r.stdout, /^ {2}✗ not modified closed\/mine\.txt: cannot create files in closed \(EACCES[^)]*\)$/m);
  assert.equal(readFileSync(join(closed, 'mine.txt'), 'utf8'), 'old\n');
});

test('disk 21: a file whose group is not one of the user\'s is refused (a new copy could not keep it)', { skip: NOT_ROOT }, (t) => {
  const dir = base(t);
  writeFileSync(join(dir, 'g.txt'), 'old\n');
  chownSync(join(dir, 'g.txt'), USER.uid, 0);
  chmodSync(join(dir, 'g.txt'), 0o664);
  const r = apply(dir, block('g.txt', [[1, 'old']], ['new']));
  assert.equal(r.status, 1, r.stdout + r.stderr);
  assert.match(r.stdout, /^ {2}✗ not modified g\.txt: its group \(gid 0\) is not one of yours/m);
  assert.equal(statSync(join(dir, 'g.txt')).gid, 0);
  assert.equal(readFileSync(join(dir, 'g.txt'), 'utf8'), 'old\n');
});

// ------------------------------------------------------------ 22: .git

test('disk 22: nothing under .git is read or written, however the path is spelled', (t) => {
  const dir = base(t);
  mkdirSync(join(dir, '.git/hooks'), { recursive: true });
  writeFileSync(join(dir, '.git/config'), '[core]\n');
  mkdirSync(join(dir, 'sub/.git'), { recursive: true });
  symlinkSync('.git', join(dir, 'gitdir'));
  const before = listing(dir);
  for (const path of [
    '.git/hooks/pre-commit',
    '.GIT/hooks/pre-commit',
    'sub/.git/config',
    '.git./hooks/x',
    '.git /x',
    'git~1/config',
    '.g\u200cit/hooks/pre-commit',
    'a/../.git/config',
    'gitdir/hooks/pre-commit',
  ]) {
    const r = apply(dir, patch(`*** Add File: ${path}`, '+#!/bin/sh', '+echo pwned'), [], {});
    const line = assertRefused(r, JSON.stringify(path));
    assert.match(line, /git's own directory/);
  }
  assertRefused(apply(dir, patch('*** Update File: .git/config', '@@', '-[core]', '+[core] pwned'), [], {}), '.git/config');
  assertRefused(apply(dir, block('.git/config', [[1, '[core]']], ['[core] pwned']), [], {}), '.git/config');
  assert.deepEqual(listing(dir), before);
  assert.equal(readFileSync(join(dir, '.git/config'), 'utf8'), '[core]\n');
});

test('disk 22: names that only look like .git are ordinary files', (t) => {
  const dir = base(t);
  const r = apply(dir, patch('*** Add File: .gitignore', '+node_modules/', '*** Add File: .github/ci.yml', '+on: push', '*** Add File: my.git/x', '+x'));
  assert.equal(r.status, 0, r.stdout + r.stderr);
  assert.deepEqual(listing(dir), ['.github', '.github/ci.yml', '.gitignore', 'my.git', 'my.git/x']);
  for (const [path, segment] of [
    ['.git', '.git'],
    ['x/.GiT/y', '.GiT'],
    ['GIT~1', 'GIT~1'],
    ['.git. . ', '.git. . '],
    ['a\\.git\\b', '.git'],
    ['.gitignore', null],
    ['.git2/x', null],
    ['.github', null],
    ['git', null],
  ] as const)
    assert.equal(gitSegment(path), segment, path);
});

// ------------------------------------------------------------ 23: every file's real outcome

test('disk 23: without --atomic a file that cannot be written does not stop the others, and each is reported', (t) => {
  const dir = base(t);
  userFile(join(dir, 'a.txt'), 'a\n');
  userFile(join(dir, 'b.txt'), 'b\n', 0o444);
  userFile(join(dir, 'c.txt'), 'c\n');
  const reply = ['a', 'b', 'c'].map((x) => block(`${x}.txt`, [[1, x]], [x.toUpperCase()])).join('\n') + '\n' + block('d.txt', [], ['d']);
  const r = apply(dir, reply);
  assert.equal(r.status, 1, r.stdout + r.stderr);
  assert.equal(r.stderr, '');
  const files = r.stdout.split('\n').filter((line) => line.startsWith('  '));
  assert.deepEqual(files, [
    '  modified a.txt',
    "  ✗ not modified b.txt: you may not write it (EACCES: permission denied); ln-diff changes only files you could edit in place",
    '  modified c.txt',
    '  created d.txt',
  ]);
  assert.match(r.stdout, /4 edits: 4 applied, 0 failed; 3 files changed, 1 could not be written\n$/);
  assert.deepEqual(['a', 'b', 'c', 'd'].map((x) => readFileSync(join(dir, `${x}.txt`), 'utf8')), ['A\n', 'b\n', 'C\n', 'd\n']);
});

test('disk 23: when every file is written the exit status is 0', (t) => {
  const dir = base(t);
  userFile(join(dir, 'a.txt'), 'a\n');
  const ok = apply(dir, block('a.txt', [[1, 'a']], ['A']));
  assert.equal(ok.status, 0, ok.stdout + ok.stderr);
  assert.match(ok.stdout, /1 edit: 1 applied, 0 failed; 1 file changed\n$/);
});

/**
 * A module to `--import` into the CLI that, once the new copy of a file is
 * written and before it is put in place, does what another program could do
 * at that moment: `LN_MEANWHILE` (JSON `[path, text]`) is written.
 */
function meanwhile(dir: string): string {
  const file = join(dir, '..', 'meanwhile.mjs');
  writeFileSync(
    file,
    "import fs from 'node:fs';\nimport { dirname } from 'node:path';\nimport { syncBuiltinESMExports } from 'node:module';\n" +
      'const fsync = fs.fsyncSync;\nlet done = false;\n' +
      'fs.fsyncSync = (fd) => {\n  fsync(fd);\n  if (done) return;\n  done = true;\n' +
      '  const [path, text] = JSON.parse(process.env.LN_MEANWHILE);\n  fs.mkdirSync(dirname(path), { recursive: true });\n  fs.writeFileSync(path, text);\n};\n' +
      'syncBuiltinESMExports();\n',
  );
  chmodSync(file, 0o644);
  return file;
}

test('disk 23: a file changed by another program while ln-diff runs is not overwritten', (t) => {
  const dir = base(t);
  userFile(join(dir, 'a.txt'), 'a\n');
  const hook = meanwhile(dir);
  for (const [file, reply, why] of [
    ['a.txt', block('a.txt', [[1, 'a']], ['A']), 'it changed on disk since ln-diff read it; not overwritten'],
    ['new.txt', block('new.txt', [], ['mine']), 'a file is there now, where there was none when ln-diff looked; not overwritten'],
  ]) {
    const r = run(['apply', '--base', dir], { ...asUser, input: reply, node: ['--import', hook], env: { LN_MEANWHILE: JSON.stringify([join(dir, file), 'typed meanwhile\n']) } });
    assert.equal(r.status, 1, r.stdout + r.stderr);
    assert.match(r.stdout, new RegExp(`^ {2}✗ not (modified|created) ${file.replace('.', '\\.')}: ${why}$`, 'm'));
    assert.equal(readFileSync(join(dir, file), 'utf8'), 'typed meanwhile\n', 'the other program\'s text stays');
  }
  assert.deepEqual(listing(dir), ['a.txt', 'new.txt'], 'no temporary left');
});

// ------------------------------------------------------------ 24: temporaries of a killed run

test('disk 24: temporary names are recognisable, fit the file system, and match the cleanup pattern exactly', () => {
  assert.equal(tempName('app.py', 42, '0123456789ab'), '.app.py.ln-diff-42-0123456789ab.tmp');
  for (const name of ['app.py', 'n'.repeat(250), 'é'.repeat(200), '🙂'.repeat(80), '.hidden', 'a.ln-diff-1-0123456789ab.tmp']) {
    const tmp = tempName(name, 4194304, 'abcdefabcdef');
    assert.ok(Buffer.byteLength(tmp) <= 255, `${tmp.length} characters, ${Buffer.byteLength(tmp)} bytes`);
    assert.ok(!tmp.includes('\uFFFD'));
    assert.equal(STALE_TEMP.exec(tmp)?.[1], '4194304', tmp);
  }
  assert.equal(STALE_TEMP.exec('.ln-diff-123-0123456789ab.tmp')?.[1], '123', 'the older short name');
  for (const near of [
    'app.py.ln-diff-123-0123456789ab.tmp',
    '.app.py.ln-diff-123-0123456789AB.tmp',
    '.app.py.ln-diff-123-0123456789a.tmp',
    '.app.py.ln-diff-123-0123456789abc.tmp',
    '.app.py.ln-diff-123-0123456789ab.tmp.bak',
    '.app.py.ln-diff-0-0123456789ab.tmp',
    '.app.py.ln-diff--0123456789ab.tmp',
    '.app.py.ln-diff-012-0123456789ab.tmp',
    '.app.py.ln-diff-12345678901-0123456789ab.tmp',
    '.app.py-ln-diff-123-0123456789ab.tmp',
    '..ln-diff-123-0123456789ab.tmp',
    '.app.py.ln-diff-123-0123456789ab.tmp\n',
  ])
    assert.equal(STALE_TEMP.test(near), false, JSON.stringify(near));
});

/** A process id that no process has (above Linux's largest pid_max, 2^22). */
const DEAD = 4194305;

test('disk 24: a run removes stale temporaries of dead processes next to the files it writes, and nothing else', (t) => {
  const dir = base(t);
  mkdirSync(join(dir, 'src'));
  mkdirSync(join(dir, 'other'));
  giveToUser(join(dir, 'src'));
  userFile(join(dir, 'src/app.py'), 'old\n');
  const stale = [`.app.py.ln-diff-${DEAD}-0123456789ab.tmp`, `.ln-diff-${DEAD}-abcdef012345.tmp`, `.gone.txt.ln-diff-${DEAD}-aaaaaaaaaaaa.tmp`];
  const kept = [
    `.app.py.ln-diff-${process.pid}-0123456789ab.tmp`, // a live process (this test)
    `.app.py.ln-diff-${DEAD}-0123456789AB.tmp`,
    `.app.py.ln-diff-${DEAD}-0123456789ab.tmp.bak`,
    `app.py.ln-diff-${DEAD}-0123456789ab.tmp`,
    `.app.py.ln-diff-${DEAD}-0123456789a.tmp`,
  ];
  for (const name of [...stale, ...kept]) userFile(join(dir, 'src', name), 'partial');
  mkdirSync(join(dir, 'src', `.dir.ln-diff-${DEAD}-0123456789ab.tmp`));
  symlinkSync('app.py', join(dir, 'src', `.link.ln-diff-${DEAD}-0123456789ab.tmp`));
  writeFileSync(join(dir, 'other', `.x.ln-diff-${DEAD}-0123456789ab.tmp`), 'elsewhere');
  kept.push(`.dir.ln-diff-${DEAD}-0123456789ab.tmp`, `.link.ln-diff-${DEAD}-0123456789ab.tmp`);

  const reply = block('src/app.py', [[1, 'old']], ['new']);
  const dry = apply(dir, reply, ['--dry-run']);
  assert.equal(dry.status, 0, dry.stdout + dry.stderr);
  assert.equal(readdirSync(join(dir, 'src')).length, 1 + stale.length + kept.length, 'a dry run removes nothing');

  const r = apply(dir, reply);
  assert.equal(r.status, 0, r.stdout + r.stderr);
  for (const name of stale) assert.match(r.stdout, new RegExp(`^ {2}removed src/${name.replace(/[.]/g, '\\.')} \\(a temporary file of an ln-diff run that was stopped\\)$`, 'm'));
  assert.deepEqual(readdirSync(join(dir, 'src')).sort(), ['app.py', ...kept].sort());
  assert.equal(lstatSync(join(dir, 'src', `.link.ln-diff-${DEAD}-0123456789ab.tmp`)).isSymbolicLink(), true);
  assert.equal(existsSync(join(dir, 'other', `.x.ln-diff-${DEAD}-0123456789ab.tmp`)), true, 'only next to the files written');
  assert.equal(readFileSync(join(dir, 'src/app.py'), 'utf8'), 'new\n');
});

test('disk 24: a run killed (SIGKILL) before its rename leaves the file whole and a temporary the next run removes', (t) => {
  const dir = base(t);
  userFile(join(dir, 'app.py'), 'old\n', 0o640);
  // Kill the run where it would put the new copy in place: every earlier step (temp file written, flushed) is done.
  const killer = join(dir, '..', 'kill-at-rename.mjs');
  writeFileSync(
    killer,
    "import fs from 'node:fs';\nimport { syncBuiltinESMExports } from 'node:module';\n" +
      'const rename = fs.renameSync;\n' +
      "fs.renameSync = (from, to) => (String(from).includes('.ln-diff-') ? process.kill(process.pid, 'SIGKILL') : rename(from, to));\n" +
      'syncBuiltinESMExports();\n',
  );
  chmodSync(killer, 0o644);
  const reply = block('app.py', [[1, 'old']], ['new']);
  const killed = run(['apply', '--base', dir], { ...asUser, input: reply, node: ['--import', killer] });
  assert.equal(killed.status, null, killed.stdout + killed.stderr);
  assert.equal(readFileSync(join(dir, 'app.py'), 'utf8'), 'old\n', 'the file is whole');
  const left = readdirSync(dir).filter((name) => name !== 'app.py');
  assert.equal(left.length, 1, left.join(', '));
  const m = STALE_TEMP.exec(left[0]);
  assert.ok(m, `${left[0]} is recognisable`);
  assert.ok(left[0].startsWith('.app.py.ln-diff-'), left[0]);
  assert.equal(readFileSync(join(dir, left[0]), 'utf8'), 'new\n');

  // The killed process is gone (spawnSync waited for it); should its id be in use again, the file must stay.
  let reused = true;
  try {
    process.kill(Number(m[1]), 0);
  } catch (err) {
    reused = (err as NodeJS.ErrnoException).code !== 'ESRCH';
  }
  const r = apply(dir, reply);
  assert.equal(r.status, 0, r.stdout + r.stderr);
  assert.equal(readFileSync(join(dir, 'app.py'), 'utf8'), 'new\n');
  assert.equal(statSync(join(dir, 'app.py')).mode & 0o777, 0o640);
  assert.deepEqual(readdirSync(dir).sort(), reused ? ['app.py', left[0]].sort() : ['app.py']);
});

// ------------------------------------------------------------ 11: a file named __proto__ on disk

test('disk 11: a file named __proto__ is read, edited and written like any other', (t) => {
  const dir = base(t);
  userFile(join(dir, '__proto__'), 'x\n');
  const r = apply(dir, block('__proto__', [[1, 'x']], ['y']));
  assert.equal(r.status, 0, r.stdout + r.stderr);
  assert.match(r.stdout, /^ {2}modified __proto__$/m);
  assert.equal(readFileSync(join(dir, '__proto__'), 'utf8'), 'y\n');
});

// ------------------------------------------------------------ names that look alike, names that forge lines, runs killed part way

describe('disk: one name per file however it is spelled, printed escaped, and what a killed run leaves', () => {
  const NFC = 'caf\u00e9.txt';
  const NFD = 'cafe\u0301.txt';

  test('a name in another Unicode form or letter case edits the one entry that fits, never a second file', (t) => {
    const dir = base(t);
    userFile(join(dir, NFD), 'old\n'); // as macOS writes names
    userFile(join(dir, 'App.py'), 'x = 1\n');
    mkdirSync(join(dir, `Dossie\u0301r`)); // a directory in NFD too
    giveToUser(join(dir, `Dossie\u0301r`));
    userFile(join(dir, `Dossie\u0301r/in.txt`), 'in\n');
    const reply = patch(
      `*** Update File: ${NFC}`, '@@', '-old', '+new',
      '*** Update File: app.py', '@@', '-x = 1', '+x = 2',
      `*** Update File: dossi\u00e9r/IN.txt`, '@@', '-in', '+IN',
      `*** Add File: Dossi\u00e9r/new.txt`, '+made',
    );
    const r = apply(dir, reply);
    assert.equal(r.status, 0, r.stdout + r.stderr);
    assert.equal(readFileSync(join(dir, NFD), 'utf8'), 'new\n');
    assert.equal(readFileSync(join(dir, 'App.py'), 'utf8'), 'x = 2\n');
    assert.equal(readFileSync(join(dir, `Dossie\u0301r/in.txt`), 'utf8'), 'IN\n');
    assert.equal(readFileSync(join(dir, `Dossie\u0301r/new.txt`), 'utf8'), 'made\n', 'a new file goes into the directory that is there');
    assert.deepEqual(listing(dir), ['App.py', `Dossie\u0301r`, `Dossie\u0301r/in.txt`, `Dossie\u0301r/new.txt`, NFD]);
    assert.match(r.stdout, new RegExp(`^ {2}modified ${NFD}$`, 'm'), 'the summary names the file as it is on disk');
    assert.match(r.stdout, /^ {2}modified App\.py$/m);
  });

  test('the exact name wins; two entries that fit otherwise are refused, and nothing is written', (t) => {
    const dir = base(t);
    userFile(join(dir, NFC), 'composed\n');
    userFile(join(dir, NFD), 'decomposed\n');
    userFile(join(dir, 'other.txt'), 'o\n');
    const exact = apply(dir, patch(`*** Update File: ${NFD}`, '@@', '-decomposed', '+D'));
    assert.equal(exact.status, 0, exact.stdout + exact.stderr);
    assert.deepEqual([NFC, NFD].map((n) => readFileSync(join(dir, n), 'utf8')), ['composed\n', 'D\n']);
    const guess = apply(dir, patch('*** Update File: other.txt', '@@', '-o', '+O', '*** Update File: CAFE\u0301.txt', '@@', '-composed', '+C'));
    const line = assertRefused(guess, 'refusing to guess');
    assert.ok(line.includes(`"${NFC}"`) && line.includes(`"${NFD}"`), line);
    assert.equal(readFileSync(join(dir, 'other.txt'), 'utf8'), 'o\n');
  });

  test('an entry that differs only in case and could not be edited (a symlink, not text) does not stop a reply that names the other', (t) => {
    const dir = base(t);
    userFile(join(dir, 'README.md'), 'a\n');
    symlinkSync('README.md', join(dir, 'Readme.md'));
    userFile(join(dir, 'NOTES.md'), 'n\n');
    writeFileSync(join(dir, 'notes.md'), Buffer.from([0xff, 0x0a]));
    giveToUser(join(dir, 'notes.md'));
    const r = apply(dir, patch('*** Update File: README.md', '@@', '-a', '+A', '*** Update File: NOTES.md', '@@', '-n', '+N'));
    assert.equal(r.status, 0, r.stdout + r.stderr);
    assert.equal(readFileSync(join(dir, 'README.md'), 'utf8'), 'A\n');
    assert.equal(readFileSync(join(dir, 'NOTES.md'), 'utf8'), 'N\n');
    assert.equal(lstatSync(join(dir, 'Readme.md')).isSymbolicLink(), true);
    assertRefused(apply(dir, patch('*** Update File: Readme.md', '@@', '-A', '+B')), 'Readme.md', 'symlink');
  });

  test('a path with control or BiDi characters is printed escaped: it cannot forge a line or reach the terminal', (t) => {
    const dir = base(t);
    const name = 'a\x1b[2Jb\rc\u202e.txt';
    const shown = 'a\\x1b[2Jb\\x0dc\\u202e.txt';
    const r = apply(dir, patch(`*** Add File: ${name}`, '+x'));
    assert.equal(r.status, 0, r.stdout + r.stderr);
    assert.equal(readFileSync(join(dir, name), 'utf8'), 'x\n', 'the file has the name the reply gave');
    assert.deepEqual(r.stdout.split('\n'), [`✓ ${shown} write whole file exact`, `  created ${shown}`, '1 edit: 1 applied, 0 failed; 1 file changed', '']);
    // A temporary left with a newline in its name: the line that says it was removed is one line.
    const stale = `.x\n  modified forged.txt\n.ln-diff-${DEAD}-0123456789ab.tmp`;
    userFile(join(dir, stale), 'partial');
    const again = apply(dir, patch(`*** Update File: ${name}`, '@@', '-x', '+y'));
    assert.equal(again.status, 0, again.stdout + again.stderr);
    assert.doesNotMatch(again.stdout, /^ {2}modified forged\.txt$/m);
    assert.match(again.stdout, /^ {2}removed \.x\\x0a {2}modified forged\.txt\\x0a\.ln-diff-4194305-0123456789ab\.tmp \(a temporary file/m);
    assert.ok(!again.stdout.includes('\x1b') && !again.stdout.includes('\r'));
    // An error naming such a path, on stderr.
    mkdirSync(join(dir, 'd\x1b]0;owned\x07'));
    const err = apply(dir, patch('*** Add File: d\x1b]0;owned\x07', '+x'));
    assert.equal(err.status, 2, err.stdout + err.stderr);
    assert.ok(!err.stderr.includes('\x1b') && !err.stderr.includes('\x07'), JSON.stringify(err.stderr));
    assert.match(oneErrorLine(err.stderr), /d\\x1b\]0;owned\\x07/);
  });

  test('a new file whose name looks like another\'s is written, with the confusable-path warning in the summary', (t) => {
    const dir = base(t);
    userFile(join(dir, 'app.py'), 'x\n');
    // The look-alike is on disk, not named by the reply: said on the file's line (a dry run too).
    for (const extra of [['--dry-run'], []]) {
      const r = apply(dir, patch('*** Add File: \u0430pp.py', '+y'), extra);
      assert.equal(r.status, 0, r.stdout + r.stderr);
      assert.match(r.stdout, new RegExp(`^ {2}${extra.length ? 'would create' : 'created'} аpp\\.py \\(confusable-path: created "аpp\\.py", which looks like "app\\.py" but is another file \\(it holds U\\+0430 "а"\\); check the path`, 'm'));
    }
    assert.deepEqual(listing(dir), ['app.py', '\u0430pp.py']);
    // A look-alike directory, and one the reply names too (the engine warns on the edit).
    mkdirSync(join(dir, 'src'));
    giveToUser(join(dir, 'src'));
    const nested = apply(dir, patch('*** Add File: \u0455rc/x.py', '+x'));
    assert.match(nested.stdout, /^ {2}created ѕrc\/x\.py \(confusable-path: created "ѕrc\/x\.py", which looks like "src" /m);
    const named = apply(dir, patch('*** Update File: app.py', '@@', '-x', '+z', '*** Add File: \uff41pp.py', '+w'));
    assert.equal(named.status, 0, named.stdout + named.stderr);
    assert.match(named.stdout, /^ {4}! confusable-path: created "ａpp\.py", which looks like "app\.py"/m);
    assert.match(named.stdout, /^ {2}created ａpp\.py$/m, 'said once, on the edit');
  });

  test('a run killed (SIGKILL) in the middle of writing a temporary, with --atomic: files whole, and the next run removes every temporary', (t) => {
    const dir = base(t);
    mkdirSync(join(dir, 'sub'));
    giveToUser(join(dir, 'sub'));
    userFile(join(dir, 'a.txt'), 'a\n');
    userFile(join(dir, 'sub/b.txt'), 'b\n');
    // Stop at a set point: the second new copy is half written (the first is written and flushed).
    const killer = join(dir, '..', 'kill-mid-write.mjs');
    writeFileSync(
      killer,
      "import fs from 'node:fs';\nimport { syncBuiltinESMExports } from 'node:module';\n" +
        'const write = fs.writeFileSync;\nlet n = 0;\n' +
        'fs.writeFileSync = (file, data, ...rest) => {\n' +
        "  if (typeof file !== 'number' || ++n < 2) return write(file, data, ...rest);\n" +
        '  fs.writeSync(file, String(data).slice(0, 3));\n' +
        "  process.kill(process.pid, 'SIGKILL');\n};\n" +
        'syncBuiltinESMExports();\n',
    );
    chmodSync(killer, 0o644);
    const reply = patch('*** Update File: a.txt', '@@', '-a', '+A long enough line', '*** Update File: sub/b.txt', '@@', '-b', '+B long enough line');
    const killed = run(['apply', '--atomic', '--base', dir], { ...asUser, input: reply, node: ['--import', killer] });
    assert.equal(killed.status, null, killed.stdout + killed.stderr);
    assert.equal(readFileSync(join(dir, 'a.txt'), 'utf8'), 'a\n', 'nothing was put in place');
    assert.equal(readFileSync(join(dir, 'sub/b.txt'), 'utf8'), 'b\n');
    const temps = listing(dir).filter((name) => STALE_TEMP.test(name.split('/').pop()!));
    assert.equal(temps.length, 2, listing(dir).join(', '));
    const halfWritten = temps.find((name) => name.startsWith('sub/'))!;
    assert.equal(readFileSync(join(dir, halfWritten), 'utf8'), 'B l', 'killed in the middle of the write');

    const pid = Number(STALE_TEMP.exec(temps[0].split('/').pop()!)![1]);
    let reused = true;
    try {
      process.kill(pid, 0);
    } catch (err) {
      reused = (err as NodeJS.ErrnoException).code !== 'ESRCH';
    }
    const r = apply(dir, reply, ['--atomic']);
    assert.equal(r.status, 0, r.stdout + r.stderr);
    assert.equal(readFileSync(join(dir, 'a.txt'), 'utf8'), 'A long enough line\n');
    assert.equal(readFileSync(join(dir, 'sub/b.txt'), 'utf8'), 'B long enough line\n');
    if (!reused) {
      for (const name of temps) assert.match(r.stdout, new RegExp(`^ {2}removed ${name.replace(/[.]/g, '\\.')} \\(a temporary file of an ln-diff run that was stopped\\)$`, 'm'));
      assert.deepEqual(listing(dir), ['a.txt', 'sub', 'sub/b.txt']);
    }
  });
});
