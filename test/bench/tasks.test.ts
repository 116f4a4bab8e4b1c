// The bench's task suite (bench/tasks/suite.json): what it covers, that it
// is what bench/tasks/sources.json asks for, and a round trip over its real
// changes: each task's change written by our own writer in every format and
// applied back with the engine must give the newer release's files byte for
// byte, except where the format cannot express the change (listed below,
// with the reason).

import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { parseSuite, PERMISSIVE_LICENSES, SuiteError, taskChanges, taskFiles, taskTarget, type BenchTask } from '../../src/bench/tasks.ts';
import { lineCount, measureTask, taskKinds } from '../../src/bench/measure.ts';
import { changesFromReply, writeWith } from '../../src/formats/compare.ts';
import { applyRequest, formats } from '../../src/formats/index.ts';

const read = (name: string) => JSON.parse(readFileSync(new URL(`../../bench/tasks/${name}`, import.meta.url), 'utf8')) as unknown;
const suite = parseSuite(read('suite.json'));
const sources = read('sources.json') as {
  packages: { package: string; from: string; to: string; integrity: { from: string; to: string }; tasks: { id: string; files: (string | { path: string; renamedFrom: string })[]; license?: string }[] }[];
};

const ALL = formats.map((f) => f.name);
const WITHOUT_DELETE = ['ln-diff', 'search-replace', 'whole', 'roo', 'hashline', 'between', 'str-replace'];
const DELETE = /does not carry deleting a file/;
const LINE_BREAKS = /does not carry which line break \(LF, CR LF\) each line ends with/;

/**
 * The changes a format cannot express, by task: every other (task, format)
 * must round-trip exactly.
 */
const UNSUPPORTED: Record<string, { formats: string[]; reason: RegExp }> = {
  // Files deleted (and renames: the old path is deleted): these formats have no way to delete a file.
  'commander-esm-entry': { formats: WITHOUT_DELETE, reason: DELETE },
  'ini-move-to-lib': { formats: WITHOUT_DELETE, reason: DELETE },
  'abbrev-move-to-lib': { formats: WITHOUT_DELETE, reason: DELETE },
  'bcrypt-ci': { formats: WITHOUT_DELETE, reason: DELETE },
  // test/bool.js gains its missing final line break: only the unified diffs say "\ No newline at end of file".
  'minimist-bool-test': { formats: ALL.filter((f) => f !== 'udiff' && f !== 'udiffx'), reason: /does not carry adding the final line break/ },
  // TypeScript's lib files mix CR LF (the licence header) and LF lines: every format, whole included, keeps the
  // ending of each line it leaves unchanged (spec/formats.md, Line endings), so those tasks round-trip everywhere.
  // A new file with mixed line breaks (no format can create one), and a CR LF line added to a mostly-LF file.
  'ts-lib-es2019-intl': { formats: ALL, reason: LINE_BREAKS },
};

/**
 * Real changes the engine or a writer gets wrong (a finding, kept in the
 * suite): task id -> format -> why. They must fail; if one starts passing,
 * remove it from here.
 */
const KNOWN_FAILURES: Record<string, Record<string, string>> = {};

const byId = new Map(suite.tasks.map((t) => [t.id, t]));
const sortChanges = <T extends { file: string }>(c: T[]) => [...c].sort((a, b) => a.file.localeCompare(b.file));

describe('bench task suite: what it covers', () => {
  it('holds at least 40 tasks in at least 5 languages, every file from 20 to 3,000 lines', () => {
    assert.ok(suite.tasks.length >= 40, `${suite.tasks.length} tasks`);
    const languages = new Set(suite.tasks.map((t) => t.language));
    assert.ok(languages.size >= 5, [...languages].join(', '));
    for (const need of ['javascript', 'typescript', 'css', 'markdown', 'json', 'yaml', 'shell', 'python', 'cpp']) assert.ok(languages.has(need), need);
    for (const t of suite.tasks) assert.ok(t.lines >= 20 && t.lines <= 3000, `${t.id}: ${t.lines} lines`);
    const lines = suite.tasks.map((t) => t.lines);
    assert.ok(Math.min(...lines) < 50 && Math.max(...lines) > 2000, 'the sizes span the range');
  });

  it('has every kind of change at least once', () => {
    const kinds = new Set(suite.tasks.flatMap(taskKinds));
    for (const k of ['addition-only', 'deletion-only', 'rename', 'crlf', 'no-final-newline', 'one-hunk', 'many-hunk', 'new-file', 'deleted-file', 'multi-file'] as const)
      assert.ok(kinds.has(k), k);
  });

  it('records a permissive licence, the package and two releases for every task', () => {
    for (const t of suite.tasks) {
      assert.ok(PERMISSIVE_LICENSES.includes(t.license), `${t.id}: ${t.license}`);
      assert.match(t.from, /^\d+\.\d+\.\d+$/);
      assert.match(t.to, /^\d+\.\d+\.\d+$/);
      assert.notEqual(t.from, t.to);
    }
  });

  it('is what sources.json pins: the same tasks, packages, releases and paths, each tarball pinned by integrity', () => {
    const pinned = sources.packages.flatMap((p) => {
      assert.match(p.integrity.from, /^sha512-/, p.package);
      assert.match(p.integrity.to, /^sha512-/, p.package);
      return p.tasks.map((t) => ({ id: t.id, package: p.package, from: p.from, to: p.to, files: t.files }));
    });
    assert.deepEqual(suite.tasks.map((t) => t.id), pinned.map((t) => t.id));
    for (const p of pinned) {
      const t = byId.get(p.id)!;
      assert.deepEqual([t.package, t.from, t.to], [p.package, p.from, p.to], p.id);
      assert.deepEqual(
        t.files.map((f) => (f.renamedFrom ? { path: f.path, renamedFrom: f.renamedFrom } : f.path)),
        p.files,
        p.id,
      );
    }
  });

  it('records lines and hunks as measured from the texts', () => {
    for (const t of suite.tasks) assert.deepEqual({ lines: t.lines, hunks: t.hunks }, measureTask(t.files), t.id);
    assert.equal(lineCount('a\nb'), 2);
    assert.equal(lineCount('a\nb\n'), 2);
    assert.equal(lineCount(''), 0);
  });

  it('hands a rename to the engine as the old path deleted and the new one created', () => {
    const t = byId.get('ini-move-to-lib')!;
    const [f] = t.files;
    assert.deepEqual(Object.keys(taskFiles(t)), ['ini.js']);
    assert.deepEqual(taskTarget(t), { 'ini.js': null, 'lib/ini.js': f.after });
    assert.deepEqual(taskChanges(t), [
      { file: 'ini.js', before: f.before, after: null },
      { file: 'lib/ini.js', before: null, after: f.after },
    ]);
  });
});

describe('bench task suite: parseSuite checks untrusted data', () => {
  const task = (over: Partial<Record<keyof BenchTask, unknown>> = {}) => ({
    id: 'x', package: 'p', from: '1.0.0', to: '1.0.1', license: 'MIT', language: 'javascript', lines: 1, hunks: 1,
    files: [{ path: 'a.js', before: 'a\n', after: 'b\n' }],
    ...over,
  });
  it('accepts a well-formed suite and rejects each broken field', () => {
    assert.equal(parseSuite({ version: 1, tasks: [task()] }).tasks.length, 1);
    const bad: [unknown, RegExp][] = [
      [null, /must be an object/],
      [{ version: 2, tasks: [] }, /version 2/],
      [{ version: 1, tasks: [task({ license: 'GPL-3.0' })] }, /GPL-3\.0 is not one of/],
      [{ version: 1, tasks: [task({ id: '' })] }, /id must be/],
      [{ version: 1, tasks: [task({ lines: -1 })] }, /counts/],
      [{ version: 1, tasks: [task({ files: [] })] }, /non-empty array/],
      [{ version: 1, tasks: [task({ files: [{ path: 'a', before: null, after: null }] })] }, /absent both/],
      [{ version: 1, tasks: [task({ files: [{ path: 'a', before: 'x', after: 'x' }] })] }, /does not change/],
      [{ version: 1, tasks: [task({ files: [{ path: 'a', before: 1, after: 'x' }] })] }, /before must be/],
      [{ version: 1, tasks: [task({ files: [{ path: 'a', before: 'x', after: null, renamedFrom: 'b' }] })] }, /renamed file/],
      [{ version: 1, tasks: [task(), task()] }, /appears twice/],
    ];
    for (const [data, message] of bad) assert.throws(() => parseSuite(data), (e: unknown) => e instanceof SuiteError && message.test(e.message));
  });
});

describe('bench task suite: every real change round-trips through every format', () => {
  for (const id of Object.keys(UNSUPPORTED)) assert.ok(byId.has(id), `UNSUPPORTED names ${id}, which is not in the suite`);
  for (const id of Object.keys(KNOWN_FAILURES)) assert.ok(byId.has(id), `KNOWN_FAILURES names ${id}, which is not in the suite`);

  for (const task of suite.tasks) {
    it(`${task.id} (${task.package} ${task.from} -> ${task.to}, ${task.files.map((f) => f.path).join(', ')})`, () => {
      const changes = taskChanges(task);
      const files = taskFiles(task);
      const target = taskTarget(task);
      const unsupported = UNSUPPORTED[task.id];
      for (const format of formats) {
        const w = writeWith(format, changes);
        const where = `${task.id} in ${format.name}`;
        const known = KNOWN_FAILURES[task.id]?.[format.name];
        if (known) {
          assert.equal(w.roundTrip, 'failed', `${where} is listed as a known failure (${known}) but came back ${w.roundTrip}: remove it from KNOWN_FAILURES`);
          continue;
        }
        if (unsupported?.formats.includes(format.name)) {
          assert.equal(w.roundTrip, 'unsupported', `${where}: expected unsupported, got ${w.roundTrip}: ${w.problem ?? ''}`);
          assert.match(w.problem ?? '', unsupported.reason, where);
          continue;
        }
        assert.equal(w.roundTrip, 'ok', `${where}: ${w.problem ?? ''}`);
        // The reply, applied as a request names its format, gives the newer release's files...
        const result = applyRequest({ format: format.name, files, response: w.reply });
        assert.deepEqual(result.edits.filter((e) => e.status === 'failed'), [], where);
        for (const [path, want] of Object.entries(target)) {
          const got = Object.hasOwn(result.files, path) ? result.files[path] : null;
          assert.ok(got === want, `${where}: ${path} differs from ${task.package}@${task.to}`);
        }
        // ...and the change it makes is exactly the real one.
        assert.deepEqual(sortChanges(changesFromReply(format.name, files, w.reply)), sortChanges(changes), where);
      }
    });
  }
});
