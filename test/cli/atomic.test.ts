// `ln-diff apply` on disk: --atomic (all or nothing), file modes, atomic
// replacement, and errors that name the file and the edit.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { chmodSync, existsSync, linkSync, mkdirSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { block, oneErrorLine, run, tempDir } from './helpers.ts';

/** Every file under `dir`, relative, sorted. */
const listing = (dir: string) => (readdirSync(dir, { recursive: true }) as string[]).sort();

/** Two files; `b.txt` cannot take the second edit (it cites a line b.txt does not have). */
function twoFiles(t: Parameters<typeof tempDir>[0]) {
  const dir = tempDir(t);
  writeFileSync(join(dir, 'a.txt'), 'alpha\nbeta\n');
  writeFileSync(join(dir, 'b.txt'), 'one\ntwo\n');
  const good = block('a.txt', [[2, 'beta']], ['BETA']) + '\n' + block('new/c.txt', [], ['created']);
  const bad = block('b.txt', [[2, 'not in b.txt at all']], ['x']);
  return { dir, good, bad };
}

test('apply --atomic: one failed edit leaves every file as it was, and creates nothing', (t) => {
  const { dir, good, bad } = twoFiles(t);
  const before = listing(dir);
  const r = run(['apply', '--atomic', '--base', dir], { input: good + '\n' + bad });
  assert.equal(r.status, 1, r.stderr);
  assert.equal(r.stderr, '');
  assert.equal(readFileSync(join(dir, 'a.txt'), 'utf8'), 'alpha\nbeta\n');
  assert.equal(readFileSync(join(dir, 'b.txt'), 'utf8'), 'one\ntwo\n');
  assert.equal(existsSync(join(dir, 'new')), false);
  assert.deepEqual(listing(dir), before, 'no file or directory created, no temp file left');
  const lines = r.stdout.split('\n');
  assert.equal(lines[0], '✓ a.txt lines 2-2 exact');
  assert.match(r.stdout, /^✗ b\.txt no-match \(edit at reply line 18\): the cited line 2 does not match b\.txt/m);
  assert.doesNotMatch(r.stdout, /modified|created/);
  assert.match(r.stdout, /3 edits: 2 applied, 1 failed; --atomic: an edit failed, so nothing was written \(2 files would have changed\)\n$/);
});

test('apply without --atomic writes the edits that applied (the default)', (t) => {
  const { dir, good, bad } = twoFiles(t);
  const r = run(['apply', '--base', dir], { input: good + '\n' + bad });
  assert.equal(r.status, 1, r.stderr);
  assert.equal(readFileSync(join(dir, 'a.txt'), 'utf8'), 'alpha\nBETA\n');
  assert.equal(readFileSync(join(dir, 'new/c.txt'), 'utf8'), 'created\n');
  assert.equal(readFileSync(join(dir, 'b.txt'), 'utf8'), 'one\ntwo\n');
  assert.match(r.stdout, /3 edits: 2 applied, 1 failed; 2 files changed\n$/);
});

test('apply --atomic: when every edit applies, every file is written', (t) => {
  const { dir, good } = twoFiles(t);
  const r = run(['apply', '--atomic', '--base', dir], { input: good });
  assert.equal(r.status, 0, r.stderr);
  assert.equal(readFileSync(join(dir, 'a.txt'), 'utf8'), 'alpha\nBETA\n');
  assert.equal(readFileSync(join(dir, 'new/c.txt'), 'utf8'), 'created\n');
  assert.deepEqual(listing(dir), ['a.txt', 'b.txt', 'new', 'new/c.txt']);
  assert.match(r.stdout, /^ {2}modified a\.txt$/m);
  assert.match(r.stdout, /^ {2}created new\/c\.txt$/m);
  assert.match(r.stdout, /2 edits: 2 applied, 0 failed; 2 files changed\n$/);
});

test('apply --atomic --dry-run: says nothing would be written when an edit fails', (t) => {
  const { dir, good, bad } = twoFiles(t);
  const before = listing(dir);
  const r = run(['apply', '--atomic', '--dry-run', '--base', dir], { input: good + '\n' + bad });
  assert.equal(r.status, 1, r.stderr);
  assert.deepEqual(listing(dir), before);
  assert.doesNotMatch(r.stdout, /would (modify|create)/);
  assert.match(r.stdout, /dry run, --atomic: an edit failed, so nothing would be written \(2 files would otherwise change\)\n$/);
  const ok = run(['apply', '--atomic', '--dry-run', '--base', dir], { input: good });
  assert.equal(ok.status, 0, ok.stderr);
  assert.match(ok.stdout, /would modify a\.txt/);
  assert.deepEqual(listing(dir), before);
});

/**
 * A module to `--import` into the CLI that, when the last new copy is
 * flushed (every other one is written, nothing is in place yet), writes
 * `LN_MEANWHILE` (JSON `[path, text]`) as another program could: the file
 * there is then not the one ln-diff saw, and putting that copy in place fails.
 */
function meanwhile(dir: string, flushes: number): string {
  const file = join(dir, '..', `meanwhile-${flushes}.mjs`);
  writeFileSync(
    file,
    "import fs from 'node:fs';\nimport { syncBuiltinESMExports } from 'node:module';\n" +
      `const fsync = fs.fsyncSync;\nlet n = 0;\n` +
      `fs.fsyncSync = (fd) => {\n  fsync(fd);\n  if (++n !== ${flushes}) return;\n` +
      '  const [path, text] = JSON.parse(process.env.LN_MEANWHILE);\n  fs.writeFileSync(path, text);\n};\n' +
      'syncBuiltinESMExports();\n',
  );
  return file;
}

test('apply --atomic: a write that fails half way puts back the files already written', (t) => {
  // Another program makes `z.txt` while ln-diff writes: the new copies of
  // a.txt and out/x.txt are put in place first, then z.txt cannot be, and
  // the writes done before it are undone.
  const outer = tempDir(t);
  const dir = join(outer, 'base');
  mkdirSync(dir);
  writeFileSync(join(dir, 'a.txt'), 'alpha\n');
  chmodSync(join(dir, 'a.txt'), 0o640);
  const reply = [block('a.txt', [[1, 'alpha']], ['ALPHA']), block('out/x.txt', [], ['x']), block('z.txt', [], ['z'])].join('\n');
  const hook = meanwhile(dir, 3);
  const r = run(['apply', '--atomic', '--base', dir], { input: reply, node: ['--import', hook], env: { LN_MEANWHILE: JSON.stringify([join(dir, 'z.txt'), 'theirs\n']) } });
  assert.equal(r.status, 1, r.stdout + r.stderr);
  assert.equal(r.stderr, '');
  assert.match(r.stdout, /^ {2}✗ not created z\.txt: a file is there now, where there was none when ln-diff looked; not overwritten$/m);
  assert.match(r.stdout, /^ {2}✗ not modified a\.txt: --atomic: z\.txt could not be written$/m);
  assert.match(r.stdout, /^ {2}✗ not created out\/x\.txt: --atomic: z\.txt could not be written$/m);
  assert.match(r.stdout, /3 edits: 3 applied, 0 failed; --atomic: 1 could not be written, so nothing was written \(3 files would have changed\)\n$/);
  assert.equal(readFileSync(join(dir, 'a.txt'), 'utf8'), 'alpha\n');
  assert.equal(statSync(join(dir, 'a.txt')).mode & 0o777, 0o640, 'the file put back keeps its mode');
  assert.equal(readFileSync(join(dir, 'z.txt'), 'utf8'), 'theirs\n', 'the other program\'s file stays');
  assert.deepEqual(listing(dir), ['a.txt', 'z.txt'], 'no out/, no out/x.txt, no temp file');
});

test('apply --atomic: a reply writing both a file and a file inside it fails before anything is written', (t) => {
  // `out` and `out/x.txt` cannot both be files: neither is written, and with --atomic nothing at all.
  for (const atomic of [true, false]) {
    const dir = tempDir(t);
    writeFileSync(join(dir, 'a.txt'), 'alpha\n');
    const reply = [block('a.txt', [[1, 'alpha']], ['ALPHA']), block('out/x.txt', [], ['x']), block('./out', [], ['o'])].join('\n');
    for (const dry of [true, false]) {
      const r = run(['apply', ...(atomic ? ['--atomic'] : []), ...(dry ? ['--dry-run'] : []), '--base', dir], { input: reply });
      assert.equal(r.status, 1, r.stdout + r.stderr);
      assert.equal(r.stderr, '');
      const why = 'the reply writes both out and out/x.txt, which would need out to be a directory; neither is written';
      const files = r.stdout.split('\n').filter((line) => line.startsWith('  '));
      const not = dry ? 'would not ' : 'not ';
      const made = (verb: string, past: string) => (dry ? verb : past);
      if (atomic)
        assert.deepEqual(files, [
          `  ✗ ${not}${made('modify', 'modified')} a.txt: --atomic: out/x.txt could not be written`,
          `  ✗ ${not}${made('create', 'created')} out/x.txt: ${why}`,
          // A dry run gives each file its own reason; a run stops at the first.
          `  ✗ ${not}${made('create', 'created')} out: ${dry ? why : '--atomic: out/x.txt could not be written'}`,
        ]);
      else
        assert.deepEqual(files, [
          `  ${dry ? 'would modify' : 'modified'} a.txt`,
          `  ✗ ${not}${made('create', 'created')} out/x.txt: ${why}`,
          `  ✗ ${not}${made('create', 'created')} out: ${why}`,
        ]);
      if (atomic || dry) assert.deepEqual(listing(dir), ['a.txt']);
      assert.equal(readFileSync(join(dir, 'a.txt'), 'utf8'), atomic || dry ? 'alpha\n' : 'ALPHA\n');
    }
    assert.deepEqual(listing(dir), ['a.txt'], 'never out/ nor out');
  }
});

test('apply: keeps each file\'s permission bits, and new files get the default mode', (t) => {
  const dir = tempDir(t);
  const modes: Record<string, number> = { 'run.sh': 0o755, 'secret.txt': 0o600, 'shared.txt': 0o664, 'setgid.sh': 0o2750 };
  // Root may write a read-only file in place, so ln-diff may replace it; anyone else is refused (test/adversarial/disk.test.ts).
  if (process.geteuid?.() === 0) modes['locked.txt'] = 0o444;
  for (const [name, mode] of Object.entries(modes)) {
    writeFileSync(join(dir, name), 'old\n');
    chmodSync(join(dir, name), mode);
  }
  for (const atomic of [false, true]) {
    const from = atomic ? 'new' : 'old';
    const to = atomic ? 'newer' : 'new';
    const reply = Object.keys(modes).map((name) => block(name, [[1, from]], [to])).join('\n') + '\n' + block(`made-${atomic}.txt`, [], ['x']);
    const r = run(['apply', ...(atomic ? ['--atomic'] : []), '--base', dir], { input: reply });
    assert.equal(r.status, 0, r.stderr);
    for (const [name, mode] of Object.entries(modes)) {
      assert.equal(readFileSync(join(dir, name), 'utf8'), `${to}\n`, name);
      assert.equal(statSync(join(dir, name)).mode & 0o7777, mode, `${name} keeps mode ${mode.toString(8)} (atomic: ${atomic})`);
    }
    const umask = process.umask();
    assert.equal(statSync(join(dir, `made-${atomic}.txt`)).mode & 0o777, 0o666 & ~umask);
  }
});

test('apply: replaces a file by renaming a complete copy over it (a hard link keeps the old text, and the summary says so)', (t) => {
  const dir = tempDir(t);
  writeFileSync(join(dir, 'f.txt'), 'old\n');
  linkSync(join(dir, 'f.txt'), join(dir, 'other-name.txt'));
  const inode = statSync(join(dir, 'f.txt')).ino;
  const r = run(['apply', '--base', dir], { input: block('f.txt', [[1, 'old']], ['new']) });
  assert.equal(r.status, 0, r.stderr);
  assert.equal(readFileSync(join(dir, 'f.txt'), 'utf8'), 'new\n');
  assert.notEqual(statSync(join(dir, 'f.txt')).ino, inode, 'a new file took the name');
  assert.equal(readFileSync(join(dir, 'other-name.txt'), 'utf8'), 'old\n', 'never written in place');
  assert.deepEqual(listing(dir), ['f.txt', 'other-name.txt']);
  // The summary says so, on the file's line (and a dry run says it too).
  assert.match(r.stdout, /^ {2}modified f\.txt \(its other name \(a hard link\) keeps the old text: ln-diff replaces a file by a new copy\)$/m);
  linkSync(join(dir, 'f.txt'), join(dir, 'third.txt'));
  linkSync(join(dir, 'f.txt'), join(dir, 'fourth.txt'));
  const dry = run(['apply', '--dry-run', '--base', dir], { input: block('f.txt', [[1, 'new']], ['newer']) });
  assert.match(dry.stdout, /^ {2}would modify f\.txt \(its 2 other names \(hard links\) keep the old text: ln-diff replaces a file by a new copy\)$/m);
  const single = run(['apply', '--base', dir], { input: block('other-name.txt', [[1, 'old']], ['x']) });
  assert.match(single.stdout, /^ {2}modified other-name\.txt$/m, 'a file with one name: nothing to say');
});

test('apply: a file name of 250 characters can be written (temp names stay short)', (t) => {
  const dir = tempDir(t);
  const name = 'n'.repeat(246) + '.txt';
  writeFileSync(join(dir, name), 'a\n');
  const r = run(['apply', '--base', dir], { input: block(name, [[1, 'a']], ['b']) });
  assert.equal(r.status, 0, r.stderr);
  assert.equal(readFileSync(join(dir, name), 'utf8'), 'b\n');
});

test('apply: errors name the file and the edit that names it', (t) => {
  const outer = tempDir(t);
  const dir = join(outer, 'base');
  mkdirSync(dir);
  writeFileSync(join(dir, 'ok.txt'), 'ok\n');
  writeFileSync(join(dir, 'bin.dat'), Buffer.from([0xff, 0xfe, 0x41, 0x0a]));
  const first = block('ok.txt', [[1, 'ok']], ['fine']);
  const unsafe = run(['apply', '--base', dir], { input: first + '\n' + block('../up.txt', [], ['x']) });
  assert.equal(unsafe.status, 2);
  assert.equal(
    oneErrorLine(unsafe.stderr),
    'ln-diff: unsafe path "../up.txt" (edit at reply line 10): leaves the base directory; refusing to touch it',
  );
  const binary = run(['apply', '--base', dir], { input: first + '\n' + block('bin.dat', [[1, 'A']], ['B']) });
  assert.equal(binary.status, 2);
  assert.equal(oneErrorLine(binary.stderr), 'ln-diff: bin.dat (edit at reply line 10): not valid UTF-8 text; refusing to edit it');
  // A path naming the base directory (ln-diff's path line would not take `sub/..` as a path at all).
  const patch = ['*** Begin Patch', '*** Update File: ok.txt', '-ok', '+fine', '*** Add File: sub/..', '+x', '*** End Patch', ''].join('\n');
  const dirTarget = run(['apply', '--base', dir], { input: patch });
  assert.equal(dirTarget.status, 2);
  assert.match(oneErrorLine(dirTarget.stderr), /^ln-diff: unsafe path "sub\/\.\." \(edit at reply line 5\): names the base directory itself/);
  assert.equal(readFileSync(join(dir, 'ok.txt'), 'utf8'), 'ok\n', 'nothing is written when a path is refused');
  assert.deepEqual(listing(outer), ['base', 'base/bin.dat', 'base/ok.txt']);
});

test('apply --json does not take --atomic (the caller writes the files)', () => {
  const r = run(['apply', '--json', '--atomic'], { input: JSON.stringify({ format: 'ln-diff', files: {}, response: '' }) });
  assert.equal(r.status, 2);
  assert.equal(r.stdout, '');
  assert.match(oneErrorLine(r.stderr), /--atomic cannot be combined with it/);
});
