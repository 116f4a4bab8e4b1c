import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { applyPatch, parsePatch } from 'diff';
import { strFromU8, Unzip, UnzipInflate, unzipSync } from 'fflate';
import { applyRequest } from '../../src/formats/index.ts';
import { unifiedDiff } from '../../src/playground/takeaway/patch.ts';
import { zipChanged } from '../../src/playground/takeaway/zip.ts';
import { actionStates, changedFiles, downloadName, zipNames, type FileText } from '../../src/playground/takeaway/plan.ts';

/** The cases the brief names: every one applies back exactly through the engine's own udiff reader too. */
const COMMON: FileText[] = [
  { name: 'src/app.ts', before: 'one\ntwo\nthree\nfour\nfive\nsix\nseven\neight\nnine\nten\n', after: 'one\n2\nthree\nfour\nfive\nsix\nseven\neight\nnine\n10\neleven\n' },
  { name: 'src/new/created.ts', before: null, after: 'export const x = 1;\nexport const y = 2;\n' },
  { name: 'old/gone.txt', before: 'bye\nfor now\n', after: null },
  { name: 'win/crlf.txt', before: 'a\r\nb\r\nc\r\nd\r\n', after: 'a\r\nB\r\nc\r\nd\r\ne\r\n' },
  { name: 'no-final.txt', before: 'x\ny', after: 'x\nz' },
  { name: 'gains-final.txt', before: 'x\ny', after: 'x\ny\n' },
  { name: 'loses-final.txt', before: 'x\r\ny\r\n', after: 'x\r\ny' },
  { name: 'docs/café/ü ✓.md', before: '# Titel\n\nText.\n', after: '# Titel\n\nMehr Text.\n' },
  { name: 'with space.txt', before: 'a\n', after: 'b\n' },
  { name: 'dashes.txt', before: 'x\n-- x\nz\n', after: 'x\n++ y\nz\n' },
  { name: 'unchanged.txt', before: 'same\n', after: 'same\n' },
];

/** Byte-level cases a tolerant reader (the engine keeps a file's own line endings) does not promise; git and jsdiff do. */
const EXACT: FileText[] = [
  { name: 'mixed.txt', before: 'a\nb\r\nc\n', after: 'a\nB\r\nc\n' },
  { name: 'eol-only.txt', before: 'a\nb\nc\n', after: 'a\r\nb\nc\n' },
  { name: 'bom.txt', before: '\ufeffa\nb\n', after: 'a\nb\n' },
  { name: 'lone-cr.txt', before: 'a\rb\n', after: 'a\rc\n' },
  { name: 'quote"back\\slash.txt', before: 'q\n', after: 'Q\n' },
  { name: 'created-empty', before: null, after: '' },
  { name: 'deleted-empty', before: '', after: null },
  { name: 'deleted-crlf-no-final', before: 'a\r\nb', after: null },
  { name: 'created-crlf-no-final', before: null, after: 'a\r\nb' },
];

const beforeTexts = (files: FileText[]) => Object.fromEntries(files.filter((f) => f.before !== null).map((f) => [f.name, f.before as string]));
const afterTexts = (files: FileText[]) => Object.fromEntries(changedFiles(files).map((f) => [f.name, f.after]));

/** Apply a patch with jsdiff: every file patch by its name, byte for byte (no line-ending conversion). */
function applyWithJsdiff(patch: string, files: FileText[]): Record<string, string | null> {
  const out: Record<string, string | null> = {};
  for (const p of parsePatch(patch)) {
    const name = (p.isCreate ? p.newFileName : p.oldFileName)!.replace(/^[ab]\//, '');
    const before = files.find((f) => f.name === name)?.before ?? '';
    const after = applyPatch(before, p, { autoConvertLineEndings: false });
    assert.notEqual(after, false, `jsdiff could not apply the patch of ${name}`);
    out[name] = p.isDelete ? null : (after as string);
  }
  return out;
}

function hasGit(): boolean {
  try {
    execFileSync('git', ['--version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/** Apply a patch with `git apply` in a scratch folder holding the before texts; read every file back. */
function applyWithGit(patch: string, files: FileText[]): Record<string, string | null> {
  const root = mkdtempSync(join(tmpdir(), 'takeaway-'));
  try {
    const dir = join(root, 'tree');
    mkdirSync(dir);
    for (const f of files) {
      if (f.before === null) continue;
      mkdirSync(dirname(join(dir, f.name)), { recursive: true });
      writeFileSync(join(dir, f.name), f.before);
    }
    writeFileSync(join(root, 'changes.patch'), patch);
    execFileSync('git', ['apply', '--whitespace=nowarn', join(root, 'changes.patch')], { cwd: dir, stdio: 'pipe' });
    const out: Record<string, string | null> = {};
    for (const f of changedFiles(files)) out[f.name] = existsSync(join(dir, f.name)) ? readFileSync(join(dir, f.name), 'utf8') : null;
    return out;
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

test('the diff: git headers, /dev/null for created and deleted files, the no-newline marker, quoted names', () => {
  const patch = unifiedDiff([
    { name: 'a.txt', before: 'one\ntwo\n', after: 'one\n2\n' },
    { name: 'n.txt', before: null, after: 'new' },
    { name: 'd.txt', before: 'old\r\n', after: null },
    { name: 'é.txt', before: 'x\n', after: 'x\n' },
    { name: 'ü.txt', before: 'x\n', after: 'y\n' },
  ]);
  assert.equal(
    patch,
    [
      'diff --git a/a.txt b/a.txt',
      '--- a/a.txt',
      '+++ b/a.txt',
      '@@ -1,2 +1,2 @@',
      ' one',
      '-two',
      '+2',
      'diff --git a/n.txt b/n.txt',
      'new file mode 100644',
      '--- /dev/null',
      '+++ b/n.txt',
      '@@ -0,0 +1,1 @@',
      '+new',
      '\\ No newline at end of file',
      'diff --git a/d.txt b/d.txt',
      'deleted file mode 100644',
      '--- a/d.txt',
      '+++ /dev/null',
      '@@ -1,1 +0,0 @@',
      '-old\r',
      'diff --git "a/\\303\\274.txt" "b/\\303\\274.txt"',
      '--- "a/\\303\\274.txt"',
      '+++ "b/\\303\\274.txt"',
      '@@ -1,1 +1,1 @@',
      '-x',
      '+y',
      '',
    ].join('\n'),
  );
});

test('the diff of nothing changed is empty', () => {
  assert.equal(unifiedDiff([]), '');
  assert.equal(unifiedDiff([{ name: 'a', before: 'x\n', after: 'x\n' }]), '');
});

test('the diff applies back exactly through the engine (udiff)', () => {
  for (const budget of [undefined, 0]) {
    const patch = unifiedDiff(COMMON, budget);
    // Without time for a line diff, each file is replaced in one hunk.
    if (budget === 0) assert.match(patch, /\n@@ -1,10 \+1,11 @@\n-one\n-two\n/);
    else assert.match(patch, /\n@@ -1,5 \+1,5 @@\n one\n-two\n\+2\n(.*\n){3}@@ -7,4 \+7,5 @@\n/);
    const result = applyRequest({ format: 'udiff', files: beforeTexts(COMMON), response: patch });
    for (const edit of result.edits) assert.equal(edit.status, 'applied', `${edit.file}: ${edit.message}`);
    const expected = { ...beforeTexts(COMMON), ...afterTexts(COMMON) };
    assert.deepEqual(result.files, expected, budget === 0 ? 'whole-file hunks' : 'line diff');
  }
});

test('the diff applies back byte for byte through jsdiff', () => {
  for (const budget of [undefined, 0]) {
    const files = [...COMMON, ...EXACT];
    const patch = unifiedDiff(files, budget);
    assert.deepEqual(applyWithJsdiff(patch, files), afterTexts(files), budget === 0 ? 'whole-file hunks' : 'line diff');
  }
});

test('the diff applies back byte for byte through git apply', { skip: !hasGit() && 'git is not installed' }, () => {
  for (const budget of [undefined, 0]) {
    const files = [...COMMON, ...EXACT];
    const patch = unifiedDiff(files, budget);
    assert.deepEqual(applyWithGit(patch, files), afterTexts(files), budget === 0 ? 'whole-file hunks' : 'line diff');
  }
});

/** Every entry of a zip, by fflate's streaming reader (names as they are, `__proto__` included). */
function unzipAll(bytes: Uint8Array): Map<string, Uint8Array> {
  const out = new Map<string, Uint8Array>();
  const reader = new Unzip((file) => {
    const parts: Uint8Array[] = [];
    file.ondata = (error, data, final) => {
      if (error) throw error;
      parts.push(data);
      if (final) out.set(file.name, Buffer.concat(parts));
    };
    file.start();
  });
  reader.register(UnzipInflate);
  reader.push(bytes, true);
  return out;
}

test('the zip holds every changed or created file, byte for byte, folders kept', () => {
  const files = [...COMMON, ...EXACT];
  const { bytes, names, deleted } = zipChanged(files);
  const written = changedFiles(files).filter((f) => f.after !== null);
  // A backslash separates folders (as on Windows); every other name is kept as it is.
  assert.deepEqual(names, written.map((f) => f.name.replace('\\', '/')));
  assert.ok(names.includes('quote"back/slash.txt'));
  assert.deepEqual(deleted, ['old/gone.txt', 'deleted-empty', 'deleted-crlf-no-final']);
  const entries = unzipSync(bytes);
  assert.deepEqual(Object.keys(entries), names);
  written.forEach((f, i) => assert.deepEqual(entries[names[i]], new Uint8Array(Buffer.from(f.after as string, 'utf8')), f.name));
  assert.equal(strFromU8(entries['win/crlf.txt']), 'a\r\nB\r\nc\r\nd\r\ne\r\n');
  assert.equal(strFromU8(entries['docs/café/ü ✓.md']), '# Titel\n\nMehr Text.\n');
  assert.ok(!('unchanged.txt' in entries));
});

test('the zip: names stay inside the folder, repeats get a number, any name works', () => {
  const files: FileText[] = [
    { name: '/abs/x.ts', before: null, after: '1' },
    { name: '../../up.ts', before: null, after: '2' },
    { name: 'up.ts', before: 'a', after: '3' },
    { name: 'a\\b\\c.ts', before: null, after: '4' },
    { name: '__proto__', before: null, after: '5' },
    { name: 'x/./../constructor', before: null, after: '6' },
  ];
  const { bytes, names } = zipChanged(files);
  assert.deepEqual(names, ['abs/x.ts', 'up.ts', 'up (2).ts', 'a/b/c.ts', '__proto__', 'x/constructor']);
  const entries = unzipAll(bytes);
  assert.deepEqual([...entries.keys()], names);
  assert.deepEqual(
    [...entries.values()].map((v) => strFromU8(v)),
    ['1', '2', '3', '4', '5', '6'],
  );
});

test('zip names and download names', () => {
  assert.deepEqual(zipNames(['a', 'a', 'a.b.txt', 'a.b.txt', '.env', '.env', '', '..']), ['a', 'a (2)', 'a.b.txt', 'a.b (2).txt', '.env', '.env (2)', 'file', 'file (2)']);
  assert.equal(downloadName('src/v4/core/core.ts'), 'core.ts');
  assert.equal(downloadName('C:\\w\\x.txt'), 'x.txt');
  assert.equal(downloadName('dir/'), 'dir');
  assert.equal(downloadName('..'), 'file');
});

test('the buttons: enabled when there is something to take, otherwise the reason', () => {
  const none = actionStates(null, null);
  for (const state of Object.values(none)) assert.deepEqual([state.enabled, state.title], [false, 'No result yet.']);
  assert.equal(none.zip.hidden, true);

  const one: FileText[] = [
    { name: 'a.ts', before: 'x\n', after: 'y\n' },
    { name: 'b.ts', before: 'same\n', after: 'same\n' },
    { name: 'gone.ts', before: 'z\n', after: null },
  ];
  const s = actionStates(one, 'a.ts');
  assert.equal(s.copy.enabled, true);
  assert.equal(s.download.enabled, true);
  assert.match(s.download.title, /as a\.ts\.$/);
  assert.deepEqual([s.zip.enabled, s.zip.hidden], [false, true], 'one written file: no zip');
  assert.equal(s.copyDiff.enabled, true);
  assert.match(s.copyDiff.title, /2 files/);
  assert.equal(actionStates(one, 'b.ts').copy.enabled, true, 'an unchanged file can still be copied');
  const deleted = actionStates(one, 'gone.ts');
  assert.deepEqual([deleted.copy.enabled, deleted.copy.title], [false, 'The reply deletes gone.ts: it has no result.']);
  assert.equal(deleted.download.enabled, false);
  assert.equal(actionStates(one, null).copy.title, 'No file is shown.');

  const same = actionStates([{ name: 'a', before: 'x', after: 'x' }], 'a');
  assert.deepEqual([same.copyDiff.enabled, same.copyDiff.title], [false, 'The reply changes no file.']);
  assert.equal(same.downloadDiff.enabled, false);

  const several = actionStates([{ name: 'a', before: null, after: 'x' }, { name: 'd/b', before: 'y', after: 'z' }], 'a');
  assert.deepEqual([several.zip.enabled, several.zip.hidden], [true, false]);
  assert.match(several.zip.title, /2 files .* ln-diff-changes\.zip/);
});
