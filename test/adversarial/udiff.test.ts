// Replies written to hurt, in unified diffs: each must apply where it
// belongs or fail with its reason, never land elsewhere, never lose a line.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { hunkBody, indentationCases, sides } from './indentation.ts';
import { invisibleCases } from './invisible.ts';
import { applyRequest } from '../../src/formats/index.ts';
import type { ApplyResult } from '../../src/core/types.ts';

const CONFIG = 'DEBUG = False\nPORT = 8000\nHOST = "localhost"\n';
const NOTES = 'Changes:\n-- old\nend\n';
const apply = (response: string, files: Record<string, string>, format = 'udiff'): ApplyResult => applyRequest({ format, files, response });

/** Nothing was written: every given file is as it was, nothing was created, and the result is not ok. */
function untouched(r: ApplyResult, files: Record<string, string>): void {
  assert.deepEqual(r.files, files);
  assert.equal(r.ok, false);
}

/** Every given file is either as it was or as `after` says; nothing else was created or deleted. */
function nowhereElse(r: ApplyResult, files: Record<string, string>, after: Record<string, string | null>): void {
  for (const path of new Set([...Object.keys(files), ...Object.keys(r.files)])) {
    const got = r.files[path];
    if (Object.hasOwn(after, path)) assert.ok(got === files[path] || got === after[path], `${path}: ${JSON.stringify(got)}`);
    else assert.equal(got, files[path], `${path} changed`);
  }
}

describe('udiff: deletions that check nothing', () => {
  const files = { 'config.py': CONFIG, 'keep.py': 'x = 1\n' };
  const cases: [string, string[]][] = [
    ['a line that is not in the file', ['@@ -1 +0,0 @@', '-SECRET = "x"']],
    ['one line of three', ['@@ -1 +0,0 @@', '-DEBUG = False']],
    ['the last two lines of three', ['@@ -2,2 +0,0 @@', '-PORT = 8000', '-HOST = "localhost"']],
    ['every line but one misspelt', ['@@ -1,3 +0,0 @@', '-DEBUG = False', '-PORT = 8080', '-HOST = "localhost"']],
    ['every line with trailing blanks', ['@@ -1,3 +0,0 @@', '-DEBUG = False ', '-PORT = 8000', '-HOST = "localhost"']],
    ['every line and one more', ['@@ -1,4 +0,0 @@', '-DEBUG = False', '-PORT = 8000', '-HOST = "localhost"', '-WORKERS = 4']],
    ['the lines out of order', ['@@ -1,3 +0,0 @@', '-PORT = 8000', '-DEBUG = False', '-HOST = "localhost"']],
    ['no hunk', []],
    ['a hunk that removes nothing', ['@@ -0,0 +0,0 @@']],
    ['a context line', ['@@ -1,3 +0,0 @@', ' DEBUG = False', '-PORT = 8000', '-HOST = "localhost"']],
  ];
  for (const [what, hunk] of cases) {
    it(`keeps the file for a deletion quoting ${what}`, () => {
      const r = apply(['--- a/config.py', '+++ /dev/null', ...hunk].join('\n') + '\n', files);
      untouched(r, files);
      assert.equal(r.edits.length, 1);
      assert.ok(['no-match', 'malformed'].includes(r.edits[0].code ?? ''), r.edits[0].code ?? '');
    });
  }
  it('deletes the file when the hunks quote all of it, and nothing else', () => {
    const r = apply('--- a/config.py\n+++ /dev/null\n@@ -1,3 +0,0 @@\n-DEBUG = False\n-PORT = 8000\n-HOST = "localhost"\n', files);
    assert.equal(r.ok, true);
    assert.deepEqual(r.files, { 'config.py': null, 'keep.py': 'x = 1\n' });
  });
  it('a deletion inside a fence cut off before its lines deletes nothing', () => {
    const r = apply('```diff\n--- a/config.py\n+++ /dev/null\n@@ -1,3 +0,0 @@\n-DEBUG = False\n', files);
    untouched(r, files);
  });
});

describe('udiff: content lines that read as a file header', () => {
  const files = { 'notes.md': NOTES, 'b.md': 'p\n' };
  it('a removed "-- x" and an added "++ y" counted by the header apply as lines', () => {
    const r = apply('--- a/notes.md\n+++ b/notes.md\n@@ -1,3 +1,3 @@\n Changes:\n--- old\n+++ new\n end\n', files);
    assert.equal(r.ok, true);
    assert.equal(r.files['notes.md'], 'Changes:\n++ new\nend\n');
  });
  for (const header of ['@@ -1,4 +1,4 @@', '@@ -1,2 +1,2 @@', '@@ ... @@', '@@']) {
    it(`the same lines under ${header} change nothing, never a part of the hunk`, () => {
      const r = apply(`--- a/notes.md\n+++ b/notes.md\n${header}\n Changes:\n--- old\n+++ new\n end\n`, files);
      nowhereElse(r, files, { 'notes.md': 'Changes:\n++ new\nend\n' });
      assert.notEqual(r.files['notes.md'], 'Changes:\nend\n');
    });
  }
  it('a removed line and an added line cut at a pair never apply alone', () => {
    const reply = '--- a/notes.md\n+++ b/notes.md\n@@ -1,4 +1,4 @@\n-Changes:\n+Changes so far:\n--- old\n+++ new\n end\n@@ -9 +9 @@\n-zzz\n+yyy\n';
    const r = apply(reply, files);
    untouched(r, files);
  });
  it('counts one too high before the next file: neither file changes', () => {
    const reply = '--- a/notes.md\n+++ b/notes.md\n@@ -1,4 +1,4 @@\n Changes:\n--- old\n+++ new\n end\n--- a/b.md\n+++ b/b.md\n@@ -1 +1 @@\n-p\n+q\n';
    untouched(apply(reply, files), files);
  });
  it('a header naming another file after a number-less hunk line: nothing lands in the wrong file', () => {
    const reply = '```diff\n--- notes.md\n+++ notes.md\n@@ ... @@\n end\n+more\n--- a/notes.md\n+++ b/b.md\n@@ ... @@\n-p\n+q\n```\n';
    untouched(apply(reply, files), files);
  });
  it('a diff of a diff, counted right, applies whole', () => {
    const patch = 'fix:\n--- a/x.py\n+++ b/x.py\n@@ -1 +1 @@\n-a\n+b\n';
    const reply = '--- a/fix.patch\n+++ b/fix.patch\n@@ -1,6 +1,6 @@\n fix:\n---- a/x.py\n-+++ b/x.py\n+--- a/y.py\n++++ b/y.py\n @@ -1 +1 @@\n -a\n +b\n';
    const r = apply(reply, { 'fix.patch': patch });
    assert.equal(r.ok, true, JSON.stringify(r.edits));
    assert.equal(r.files['fix.patch'], 'fix:\n--- a/y.py\n+++ b/y.py\n@@ -1 +1 @@\n-a\n+b\n');
  });
});

describe('udiff: fences and markers in content', () => {
  const files = { 'README.md': '# Tool\nDone.\n' };
  it('added fence lines written with their prefix apply', () => {
    const r = apply('````diff\n--- a/README.md\n+++ b/README.md\n@@ -1,2 +1,5 @@\n # Tool\n+```sh\n+make\n+```\n Done.\n````\n', files);
    assert.equal(r.ok, true);
    assert.equal(r.files['README.md'], '# Tool\n```sh\nmake\n```\nDone.\n');
  });
  it('a fence line written without its prefix never cuts the hunk', () => {
    const r = apply('```diff\n--- a/README.md\n+++ b/README.md\n@@ -1,2 +1,6 @@\n # Tool\n+Build it with:\n```\n+make\n+```\n Done.\n```\n', files);
    untouched(r, files);
  });
  it('@@ and diff lines as content are content', () => {
    const r = apply('--- a/README.md\n+++ b/README.md\n@@ -1,2 +1,4 @@\n # Tool\n+@@ not a hunk @@\n+diff --git is not a header here\n Done.\n', files);
    assert.equal(r.ok, true);
    assert.equal(r.files['README.md'], '# Tool\n@@ not a hunk @@\ndiff --git is not a header here\nDone.\n');
  });
  it('a reply cut inside a fenced hunk applies nothing of it', () => {
    const r = apply('```diff\n--- a/README.md\n+++ b/README.md\n@@ -1,2 +1,2 @@\n # Tool\n-Done.\n', files);
    untouched(r, files);
  });
});

describe('udiff: elisions', () => {
  const APP = 'def main():\n    load()\n    run()\n    report()\n';
  for (const placeholder of ['    # ... existing code ...', '    # rest of function unchanged', '    ...', '    # ...']) {
    it(`refuses ${JSON.stringify(placeholder)} standing for removed lines`, () => {
      const r = apply(`--- a/app.py\n+++ b/app.py\n@@ -1,4 +1,3 @@\n-def main():\n-    load()\n-    run()\n-    report()\n+def main(verbose=False):\n+    load(verbose)\n+${placeholder}\n`, { 'app.py': APP });
      untouched(r, { 'app.py': APP });
      assert.equal(r.edits[0].code, 'elided');
    });
  }
  it('refuses an elision in a new file', () => {
    const r = apply('--- /dev/null\n+++ b/util.py\n@@ -0,0 +1,2 @@\n+def helper():\n+    # ... existing code ...\n', { 'app.py': APP });
    untouched(r, { 'app.py': APP });
  });
  it("applies Python's ... body and a comment the file already has", () => {
    const files = { 'app.py': 'class A:\n    # ...\n    pass\n' };
    const r = apply('--- a/app.py\n+++ b/app.py\n@@ -1,3 +1,5 @@\n class A:\n     # ...\n     pass\n+    def f(self):\n+        ...\n', files);
    assert.equal(r.ok, true, JSON.stringify(r.edits));
    assert.equal(r.files['app.py'], 'class A:\n    # ...\n    pass\n    def f(self):\n        ...\n');
  });
});

describe('udiff: odd paths', () => {
  const files = { 'src/App.js': 'let x = 1;\n' };
  const hunk = '@@ -1 +1 @@\n-let x = 1;\n+let x = 2;\n';
  for (const [minus, plus] of [
    ['./src/App.js', './src/App.js'],
    ['a/src\\App.js', 'b/src\\App.js'],
    ['a/SRC/app.js', 'b/SRC/app.js'],
    ['src/App.js\t2024-05-01 10:00:00', 'src/App.js\t2024-05-01 10:05:00'],
    ['"a/src/App.js"', '"b/src/App.js"'],
  ]) {
    it(`${minus} names the given file`, () => {
      const r = apply(`--- ${minus}\n+++ ${plus}\n${hunk}`, files);
      assert.equal(r.ok, true, JSON.stringify(r.edits));
      assert.deepEqual(r.files, { 'src/App.js': 'let x = 2;\n' });
    });
  }
  for (const [path, code] of [
    ['a/../App.js', 'unsafe-path'],
    ['/etc/passwd', 'unsafe-path'],
    ['a/Makefile', 'file-not-found'],
    ['a/src/App.jsx', 'file-not-found'],
  ]) {
    it(`${path} changes no given file (${code})`, () => {
      const plus = path.startsWith('a/') ? 'b/' + path.slice(2) : path;
      const r = apply(`--- ${path}\n+++ ${plus}\n${hunk}`, files);
      untouched(r, files);
      assert.equal(r.edits[0].code, code);
    });
  }
  it('a path that fits two given files by case alone names neither', () => {
    const two = { 'README.md': 'a\n', 'readme.md': 'a\n' };
    const r = apply('--- a/Readme.md\n+++ b/Readme.md\n@@ -1 +1 @@\n-a\n+b\n', two);
    untouched(r, two);
  });
  it('a hunk without a header in a reply read by auto changes no file', () => {
    const r = apply('Like this:\n\n```diff\n@@ -1 +1 @@\n-let x = 1;\n+let x = 2;\n```\n', files, 'auto');
    untouched(r, files);
  });
});

describe('udiff: line endings, byte order marks, No newline markers', () => {
  const MIXED = 'a\r\nb\nc\r\nd\ne\r\n';
  const diff = (...lines: string[]) => ['--- a/m.txt', '+++ b/m.txt', ...lines].join('\n') + '\n';

  it('keeps every context line\'s ending in a file that mixes CR LF and LF, numbered or not', () => {
    for (const header of ['@@ -1,5 +1,5 @@', '@@']) {
      const r = apply(diff(header, ' a', ' b', '-c', '+C', ' d', ' e'), { 'm.txt': MIXED });
      assert.equal(r.files['m.txt'], 'a\r\nb\nC\r\nd\ne\r\n', header);
      assert.equal(r.ok, true);
    }
  });
  it('keeps a line removed and added back unchanged, ending and all', () => {
    const r = apply(diff('@@ -1,3 +1,3 @@', '-a', '-b', '-c', '+a', '+B', '+c'), { 'm.txt': MIXED });
    assert.equal(r.files['m.txt'], 'a\r\nB\nc\r\nd\ne\r\n');
  });
  it('keeps the endings around each of several hunks', () => {
    const r = apply(diff('@@ -1,2 +1,2 @@', '-a', '+A', ' b', '@@ -4,2 +4,3 @@', ' d', '+x', ' e'), { 'm.txt': MIXED });
    assert.equal(r.files['m.txt'], 'A\r\nb\nc\r\nd\nx\ne\r\n');
  });
  it('a context line copied with damage keeps the file\'s text and ending', () => {
    const r = apply(diff('@@ -2,3 +2,3 @@', ' b ', '-c', '+C', ' d'), { 'm.txt': MIXED });
    assert.equal(r.files['m.txt'], 'a\r\nb\nC\r\nd\ne\r\n');
  });

  const LIST = 'a\nb\nc\n';
  const malformed: [string, string[]][] = [
    ['after an added line that a context line follows', ['@@ -1,2 +1,2 @@', '-a', '+A', '\\ No newline at end of file', ' b']],
    ['after an added line that another added line follows', ['@@ -1 +1,2 @@', '-a', '+A', '\\ No newline at end of file', '+B']],
    ['after a removed line that another removed line follows', ['@@ -1,2 +1 @@', '-a', '\\ No newline at end of file', '-b', '+A']],
    ['after a context line that an added line follows', ['@@ -3 +3,2 @@', ' c', '\\ No newline at end of file', '+d']],
    ['right after the header', ['@@ -1 +1 @@', '\\ No newline at end of file', '-a', '+A']],
    ['after a context line, in a hunk without numbers', ['@@', ' a', '\\ No newline at end of file', '-b', '+B']],
  ];
  for (const [what, hunk] of malformed) {
    it(`a marker ${what} fails the hunk, and the file keeps its line breaks`, () => {
      const r = apply(diff(...hunk), { 'm.txt': LIST });
      untouched(r, { 'm.txt': LIST });
      assert.equal(r.edits[0].code, 'malformed');
      assert.match(r.edits[0].message, /line \d+, column 1: the "\\ No newline at end of file" marker/);
    });
  }
  it('a marker of the new side that a removed line follows is where a diff writes it', () => {
    const r = apply(diff('@@ -2,2 +2 @@', '-b', '+B', '\\ No newline at end of file', '-c'), { 'm.txt': LIST });
    assert.equal(r.files['m.txt'], 'a\nB');
    assert.equal(r.ok, true);
  });
  it('a marker on a hunk away from the end of the file is ignored with a warning', () => {
    for (const hunk of [
      ['@@ -1 +1 @@', '-a', '+A', '\\ No newline at end of file'],
      ['@@ -1 +1 @@', '-a', '\\ No newline at end of file', '+A'],
      ['@@ -1,2 +1,2 @@', '-a', '+A', ' b', '\\ No newline at end of file'],
      ['@@', '-b', '+B', '\\ No newline at end of file'],
      ['@@ -0,0 +1 @@', '+top', '\\ No newline at end of file'],
    ]) {
      for (const file of [LIST, 'a\nb\nc']) {
        const r = apply(diff(...hunk), { 'm.txt': file });
        const text = r.files['m.txt']!;
        assert.equal(text.endsWith('\n'), file.endsWith('\n'), `${hunk.join('|')}: ${JSON.stringify(text)}`);
        assert.equal(text.split('\n').length, file.split('\n').length + (hunk[0].startsWith('@@ -0') ? 1 : 0), 'no line joined to another');
        assert.deepEqual(r.edits[0].warnings.map((w) => w.code), ['stray-marker']);
      }
    }
  });
  it('of two hunks with markers, only the one at the end of the file sets its final newline', () => {
    const r = apply(diff('@@ -1 +1 @@', '-a', '+A', '\\ No newline at end of file', '@@ -3 +3 @@', '-c', '+C', '\\ No newline at end of file'), { 'm.txt': LIST });
    assert.equal(r.files['m.txt'], 'A\nb\nC');
    assert.deepEqual(r.edits.map((e) => e.warnings.map((w) => w.code)), [['stray-marker'], []]);
  });
  it('a marker at the end of a hunk that ends the file takes the final newline away', () => {
    const r = apply(diff('@@ -3 +3 @@', '-c', '+C', '\\ No newline at end of file'), { 'm.txt': LIST });
    assert.equal(r.files['m.txt'], 'a\nb\nC');
    assert.equal(r.edits[0].warnings.length, 0);
  });

  it('a byte order mark copied into the first cited line is not doubled', () => {
    const BOM = '\uFEFF';
    for (const [file, want] of [
      [`${BOM}a\nb\n`, `${BOM}A\nb\n`],
      ['a\nb\n', 'A\nb\n'],
    ]) {
      for (const added of [`+${BOM}A`, '+A']) {
        for (const removed of [`-${BOM}a`, `-${BOM}${BOM}a`, '-a']) {
          const r = apply(diff('@@ -1 +1 @@', removed, added), { 'm.txt': file });
          assert.equal(r.files['m.txt'], want, `${JSON.stringify(removed)} ${JSON.stringify(added)} on ${JSON.stringify(file)}`);
          assert.equal(r.edits[0].match, 'exact');
        }
      }
    }
  });
  it('a byte order mark as context, or before a line inserted at the top, is not doubled either', () => {
    const BOM = '\uFEFF';
    const r = apply(diff('@@ -1,2 +1,2 @@', ` ${BOM}a`, '-b', '+B'), { 'm.txt': `${BOM}a\nb\n` });
    assert.equal(r.files['m.txt'], `${BOM}a\nB\n`);
    const top = apply(diff('@@ -0,0 +1 @@', `+${BOM}top`), { 'm.txt': `${BOM}a\n` });
    assert.equal(top.files['m.txt'], `${BOM}top\na\n`);
  });
  it('a U+FEFF inside the file is content, kept where the hunk does not start the file', () => {
    const r = apply(diff('@@ -2 +2 @@', '-b', '+\uFEFFb'), { 'm.txt': 'a\nb\n' });
    assert.equal(r.files['m.txt'], 'a\n\uFEFFb\n');
  });

  it('a reply whose lines end with CR CR LF puts no CR into an LF file, nor an extra one into a CR LF file', () => {
    const reply = diff('@@ -1,2 +1,3 @@', ' a', '-b', '+B', '+x', ' c').replace(/\n/g, '\r\r\n');
    const lf = apply(reply, { 'm.txt': LIST });
    assert.equal(lf.files['m.txt'], 'a\nB\nx\nc\n');
    assert.equal(lf.edits[0].match, 'exact');
    const crlf = apply(reply, { 'm.txt': 'a\r\nb\r\nc\r\n' });
    assert.equal(crlf.files['m.txt'], 'a\r\nB\r\nx\r\nc\r\n');
  });
});

describe('udiff: differences that do not show', () => {
  invisibleCases('udiff', (path, old, replacement, line) =>
    `--- ${path}\n+++ ${path}\n@@ -${line},${old.length} +${line},${replacement.length} @@\n${old.map((l) => `-${l}`).join('\n')}\n${replacement.map((l) => `+${l}`).join('\n')}\n`,
  );
});

describe('udiff: re-indented replies', () => {
  indentationCases('udiff', (path, c) => `--- ${path}\n+++ ${path}\n@@\n${hunkBody(c)}\n`);
  indentationCases('udiff', (path, c) => {
    const n = c.before.length + c.after.length;
    return `--- ${path}\n+++ ${path}\n@@ -${c.line},${n + c.removed.length} +${c.line},${n + c.added.length} @@\n${hunkBody(c)}\n`;
  });
});

describe('udiff: headers without hunks, rules, quotes, and hunks that change nothing', () => {
  const files = { 'config.py': CONFIG };
  it('a file header with no hunk is malformed at the header, not a reply without edits', () => {
    for (const after of ['something\n', 'Done.\n', '\n\nThat is all.\n']) {
      const r = apply(`--- a/config.py\n+++ b/config.py\n${after}`, files);
      untouched(r, files);
      assert.deepEqual(r.diagnostics.map((d) => d.code), ['malformed'], after);
      assert.equal(r.diagnostics[0].reply?.start.line, 1);
      assert.match(r.diagnostics[0].message, /@@ -START,COUNT \+START,COUNT @@/);
    }
  });

  it('a file header the reply ends right after (blank lines at most, or in a fence never closed) was cut off: truncated, for its file', () => {
    for (const reply of ['--- a/config.py\n+++ b/config.py\n', '--- a/config.py\n+++ b/config.py', '--- a/config.py\n+++ b/config.py\n\n  \n', '```diff\n--- a/config.py\n+++ b/config.py\n']) {
      for (const format of ['udiff', 'auto']) {
        const r = apply(reply, files, format);
        untouched(r, files);
        assert.deepEqual([r.edits.map((e) => [e.file, e.code]), r.diagnostics], [[['config.py', 'truncated']], []], `${format}: ${JSON.stringify(reply)}`);
        assert.match(r.edits[0].message, /^the reply ends after the file header at line \d for config\.py, before any hunk: it was cut off/);
      }
    }
    // A header that deletes or creates a file may mean that alone: it keeps its own reading.
    assert.equal(apply('--- a/config.py\n+++ /dev/null\n', files).edits[0].code, 'malformed');
  });

  it('a git header with no hunk is malformed', () => {
    const r = apply('diff --git a/config.py b/config.py\nindex 83db48f..bf269f4 100644\n', files);
    untouched(r, files);
    assert.deepEqual(r.diagnostics.map((d) => d.code), ['malformed']);
  });

  it('Markdown rules and a --- line in prose are a chat answer', () => {
    const r = apply('Looks fine.\n\n---\n\n--- nothing to change ---\n\n***\n', files);
    assert.equal(r.ok, true);
    assert.deepEqual(r.diagnostics.map((d) => d.code), ['no-edits']);
  });

  it('a hunk with only context lines is dropped with no-change, and the reply is ok', () => {
    const r = apply('--- a/config.py\n+++ b/config.py\n@@ -1,2 +1,2 @@\n DEBUG = False\n PORT = 8000\n', files);
    assert.equal(r.ok, true);
    assert.deepEqual(r.diagnostics.map((d) => d.code), ['no-change']);
    assert.deepEqual(r.files, files);
  });

  it('a hunk whose removed lines come back as added lines applies with no-change', () => {
    const r = apply('--- a/config.py\n+++ b/config.py\n@@ -2 +2 @@\n-PORT = 8000\n+PORT = 8000\n', files);
    assert.equal(r.ok, true);
    assert.deepEqual(r.edits[0].warnings.map((w) => w.code), ['no-change']);
    assert.deepEqual(r.files, files);
  });

  it('an apply_patch envelope quoted for a file not given is not mixing', () => {
    const quoted = '*** Begin Patch\n*** Update File: other.py\n@@\n-a\n+b\n*** End Patch\n\n';
    const r = apply(quoted + '--- a/config.py\n+++ b/config.py\n@@ -2 +2 @@\n-PORT = 8000\n+PORT = 9000\n', files, 'auto');
    assert.equal(r.format, 'udiff', r.detection?.reason);
    assert.equal(r.ok, true, JSON.stringify(r.edits));
    nowhereElse(r, files, { 'config.py': CONFIG.replace('8000', '9000') });
    assert.equal(r.files['config.py'], CONFIG.replace('8000', '9000'));
  });
});
