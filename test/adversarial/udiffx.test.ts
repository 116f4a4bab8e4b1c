// Replies written to hurt, in udiffx (`<FILE_CHANGES>`): each must apply
// where it belongs or fail with its reason, never land elsewhere, never lose
// a line.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ApplyResult } from '../../src/core/types.ts';
import { hunkBody, indentationCases, sides } from './indentation.ts';
import { invisibleCases } from './invisible.ts';
import { applyRequest } from '../../src/formats/index.ts';

const FILES = { 'app.py': 'def main():\n    load()\n    run()\n', 'notes.txt': 'keep me\n' };
const apply = (body: string, files: Record<string, string> = FILES): ApplyResult =>
  applyRequest({ format: 'udiffx', files, response: `<FILE_CHANGES>\n${body}\n</FILE_CHANGES>\n` });
const codes = (r: ApplyResult) => r.edits.map((e) => e.code ?? e.status);

/** Nothing was written: every given file is as it was, and nothing was created. */
function untouched(r: ApplyResult, files: Record<string, string> = FILES): void {
  assert.deepEqual(r.files, files);
  assert.equal(r.ok, false);
}

describe('udiffx: closing tags in content', () => {
  it('a content holding </FILE_NEW>, then the real one: nothing written, not a cut file', () => {
    const r = apply('<FILE_NEW path="app.py">\nprint("</FILE_NEW>")\n</FILE_NEW>\nprint("done")\n</FILE_NEW>');
    untouched(r);
    assert.deepEqual(codes(r), ['ambiguous-end']);
  });

  it('</FILE_NEW> inside a sentence, then a quoted FILE_DELETE of a given file: neither applies', () => {
    const r = apply('<FILE_NEW path="docs/format.md">\nEnd a file with </FILE_NEW>, then:\n<FILE_DELETE path="notes.txt"/>\n</FILE_NEW>');
    untouched(r);
    assert.deepEqual(codes(r), ['ambiguous-end', 'ambiguous-end']);
  });

  it('a page quoting a whole envelope that overwrites and deletes given files: nothing applies', () => {
    const r = apply(
      '<FILE_NEW path="docs/format.md">\n<FILE_CHANGES>\n<FILE_NEW path="app.py">\nprint(1)\n</FILE_NEW>\n<FILE_DELETE path="notes.txt"/>\n</FILE_CHANGES>\n</FILE_NEW>',
    );
    untouched(r);
    assert.deepEqual(codes(r), ['ambiguous-end']);
  });

  it('a missing closing tag between two files: neither is written with the other\'s lines', () => {
    const r = apply('<FILE_NEW path="notes.txt">\nnew notes\n<FILE_NEW path="app.py">\nprint(1)\n</FILE_NEW>');
    untouched(r);
    assert.deepEqual(codes(r), ['ambiguous-end', 'ambiguous-end']);
  });

  it('a stray </FILE_PATCH> after a patch, and a hunk line written without its prefix: the patch fails whole', () => {
    for (const body of [
      '<FILE_PATCH path="app.py">\n@@\n-    run()\n+    run(fast=True)\n</FILE_PATCH>\n</FILE_PATCH>',
      '<FILE_PATCH path="app.py">\n@@\n-    run()\n+    print("""\n</FILE_PATCH>\n+""")\n</FILE_PATCH>',
    ]) {
      const r = apply(body);
      untouched(r);
      assert.deepEqual(codes(r), ['ambiguous-end'], body);
    }
  });

  it('other tags in a content are content, byte for byte', () => {
    const content = 'a </FILE_NEW> in FILE_APPEND is text\n</FILE_CHANGES>\n<FILE_DELETE path="notes.txt"/>\n';
    const r = apply(`<FILE_APPEND path="docs/tags.md">\n${content}</FILE_APPEND>`);
    assert.deepEqual(r.files, { ...FILES, 'docs/tags.md': content });
    assert.equal(r.ok, true);
  });

  it('an envelope closed inside a content whose own closing tag is missing: the next envelope is not swallowed into a file', () => {
    const r = applyRequest({
      format: 'udiffx',
      files: FILES,
      response: '<FILE_CHANGES>\n<FILE_NEW path="notes.txt">\nx\n</FILE_CHANGES>\nLater:\n<FILE_CHANGES>\n<FILE_NEW path="app.py">\nprint(1)\n</FILE_NEW>\n</FILE_CHANGES>\n',
    });
    untouched(r);
  });
});

describe('udiffx: fences around bodies', () => {
  it('a FILE_NEW in a code fence, as the crate\'s prompt asks, writes the code only', () => {
    const r = apply('<FILE_NEW file_path="src/hello.rs">\n```rust\npub fn hello() {}\n```\n</FILE_NEW>', {});
    assert.deepEqual(r.files, { 'src/hello.rs': 'pub fn hello() {}\n' });
  });

  it('a Markdown file keeps its own fences, in a longer fence or in none', () => {
    const md = '# Use\n\n```sh\nmake\n```\n\nThen run it.\n';
    assert.deepEqual(apply(`<FILE_NEW path="README.md">\n\`\`\`\`markdown\n${md}\`\`\`\`\n</FILE_NEW>`, {}).files, { 'README.md': md });
    assert.deepEqual(apply(`<FILE_NEW path="README.md">\n${md}</FILE_NEW>`, {}).files, { 'README.md': md });
  });

  it('fence lines that are no pair are content', () => {
    for (const body of ['```\nx\n~~~\n', '````\nx\n```\n', '```py\nx\n```\ntext\n']) {
      assert.deepEqual(apply(`<FILE_NEW path="f.md">\n${body}</FILE_NEW>`, {}).files, { 'f.md': body }, body);
    }
  });

  it('a FILE_PATCH in a diff fence, and the envelope in an xml fence, apply', () => {
    const r = applyRequest({
      format: 'udiffx',
      files: FILES,
      response: '```xml\n<FILE_CHANGES>\n<FILE_PATCH path="app.py">\n```diff\n@@\n-    run()\n+    run(fast=True)\n```\n</FILE_PATCH>\n</FILE_CHANGES>\n```\n',
    });
    assert.deepEqual(r.files, { ...FILES, 'app.py': 'def main():\n    load()\n    run(fast=True)\n' });
  });
});

describe('udiffx: renames and patches in either order', () => {
  const patch = (path: string) => `<FILE_PATCH path="${path}">\n@@\n-    run()\n+    run(fast=True)\n</FILE_PATCH>`;
  const moved = { 'app.py': null, 'notes.txt': 'keep me\n', 'main.py': 'def main():\n    load()\n    run(fast=True)\n' };

  for (const [name, body] of [
    ['rename, then patch the new path', `<FILE_RENAME from="app.py" to="main.py"/>\n${patch('main.py')}`],
    ['patch, then rename', `${patch('app.py')}\n<FILE_RENAME from="app.py" to="main.py"/>`],
  ]) {
    it(`${name}: the file is patched and moved`, () => {
      const r = apply(body);
      assert.deepEqual(r.files, moved);
      assert.equal(r.ok, true);
    });
  }

  it('rename, then patch the old path: the patch fails (the file is not there any more), the rename applies', () => {
    const r = apply(`<FILE_RENAME from="app.py" to="main.py"/>\n${patch('app.py')}`);
    assert.deepEqual(codes(r), ['applied', 'file-not-found']);
    assert.match(r.edits[1].message, /app\.py is not there at this point of the reply: it was renamed to main\.py by <FILE_RENAME> at line \d+, and directives run in reply order; name the file main\.py$/);
    assert.equal(r.files['app.py'], null);
  });

  it('a rename onto a given file fails, and a patch of that name after it does not touch the given file', () => {
    const r = apply(`<FILE_RENAME from="app.py" to="notes.txt"/>\n<FILE_PATCH path="notes.txt">\n@@\n-keep me\n+lost\n</FILE_PATCH>`);
    untouched(r);
    assert.deepEqual(codes(r), ['file-exists', 'file-exists']);
  });

  it('a whole-file write or a deletion of the new path: refused with the rename, nothing lost', () => {
    for (const body of [
      '<FILE_RENAME from="app.py" to="main.py"/>\n<FILE_NEW path="main.py">\nprint(1)\n</FILE_NEW>',
      '<FILE_RENAME from="app.py" to="main.py"/>\n<FILE_DELETE path="main.py"/>',
    ]) {
      const r = apply(body);
      untouched(r);
      assert.deepEqual(codes(r), ['overlap', 'overlap'], body);
    }
  });

  it('a second move of a moved file is refused; the first applies, and the result says where the file is', () => {
    const r = apply('<FILE_RENAME from="app.py" to="main.py"/>\n<FILE_RENAME from="main.py" to="cli.py"/>');
    assert.deepEqual(r.files, { 'app.py': null, 'notes.txt': 'keep me\n', 'main.py': FILES['app.py'] });
    assert.deepEqual(codes(r), ['applied', 'overlap']);
    assert.match(r.edits[1].message, /a file moves once per reply: rename app\.py to cli\.py instead/);
  });

  it('a rename onto a path written earlier in the reply keeps the written file and the source', () => {
    const r = apply('<FILE_NEW path="main.py">\nprint(1)\n</FILE_NEW>\n<FILE_RENAME from="app.py" to="main.py"/>');
    assert.deepEqual(r.files, { ...FILES, 'main.py': 'print(1)\n' });
    assert.deepEqual(codes(r), ['applied', 'file-exists']);
  });

  it('a patch of the new path that does not match leaves the moved file as it was', () => {
    const r = apply(`<FILE_RENAME from="app.py" to="main.py"/>\n<FILE_PATCH path="main.py">\n@@\n-    stop()\n+    halt()\n</FILE_PATCH>`);
    assert.deepEqual(r.files, { 'app.py': null, 'notes.txt': 'keep me\n', 'main.py': FILES['app.py'] });
    assert.deepEqual(codes(r), ['applied', 'no-match']);
  });
});

describe('udiffx: elisions', () => {
  it('a FILE_NEW that elides the old body, and a hunk that adds a placeholder, are refused', () => {
    for (const body of [
      '<FILE_NEW path="app.py">\ndef main():\n    # ... existing code ...\n    report()\n</FILE_NEW>',
      '<FILE_PATCH path="app.py">\n@@\n def main():\n-    load()\n-    run()\n+    # rest of function unchanged\n</FILE_PATCH>',
      '<FILE_NEW path="app.py">\n```python\ndef main():\n    load()\n    ...\n    report()\n```\n</FILE_NEW>',
    ]) {
      const r = apply(body);
      untouched(r);
      assert.deepEqual(codes(r), ['elided'], body);
    }
  });

  it('Python\'s ... as a body is code', () => {
    const r = apply('<FILE_NEW path="stubs.py">\ndef save(path):\n    ...\n</FILE_NEW>');
    assert.deepEqual(r.files, { ...FILES, 'stubs.py': 'def save(path):\n    ...\n' });
  });
});

describe('udiffx: odd paths', () => {
  it('another case, \\ and ./ name the given file; a new path is written with /', () => {
    const r = apply('<FILE_PATCH path=".\\APP.PY">\n@@\n-    run()\n+    run(fast=True)\n</FILE_PATCH>\n<FILE_NEW path="docs\\My Notes.md">\nx\n</FILE_NEW>');
    assert.deepEqual(r.files, { ...FILES, 'app.py': 'def main():\n    load()\n    run(fast=True)\n', 'docs/My Notes.md': 'x\n' });
  });

  it('paths that leave the project are refused, whatever the directive', () => {
    const r = apply('<FILE_NEW path="../up.txt">\nx\n</FILE_NEW>\n<FILE_DELETE path="/etc/passwd"/>\n<FILE_RENAME from="notes.txt" to="C:\\x.txt"/>\n<FILE_APPEND path="a/../../b">\nx\n</FILE_APPEND>');
    untouched(r);
    assert.deepEqual(codes(r), ['unsafe-path', 'unsafe-path', 'unsafe-path', 'unsafe-path']);
  });

  it('files named __proto__ and constructor are files like any other (JSON request)', () => {
    const files = JSON.parse('{"__proto__": "one\\n", "constructor": "c\\n"}');
    const r = apply('<FILE_PATCH path="__proto__">\n@@\n-one\n+two\n</FILE_PATCH>\n<FILE_RENAME from="constructor" to="toString"/>', files);
    assert.equal(r.ok, true, JSON.stringify(r.edits));
    assert.deepEqual(Object.keys(r.files).sort(), ['__proto__', 'constructor', 'toString']);
    assert.equal(Object.getOwnPropertyDescriptor(r.files, '__proto__')?.value, 'two\n');
    assert.deepEqual([r.files.constructor, r.files.toString], [null, 'c\n']);
  });
});

describe('udiffx: many failing directives', () => {
  it('2,000 hunks that match nowhere in a 20,000-line file: each fails with its reason, the file is untouched', () => {
    const lines = Array.from({ length: 20_000 }, (_, i) => `const value${i} = compute(${i});`);
    const files = { 'big.js': lines.join('\n') + '\n' };
    const hunks = Array.from({ length: 2000 }, (_, k) => `@@\n-const value${k * 10} = compote(${k * 10});\n+const x = 1;`).join('\n');
    const r = apply(`<FILE_PATCH path="big.js">\n${hunks}\n</FILE_PATCH>`, files);
    untouched(r, files);
    assert.equal(r.edits.length, 2000);
    assert.ok(r.edits.every((e) => e.code === 'no-match'));
  });
});

describe('udiffx: line endings, byte order marks, No newline markers', () => {
  const MIXED = 'a\r\nb\nc\r\nd\n';
  const patch = (...lines: string[]) => `<FILE_PATCH path="m.txt">\n${lines.join('\n')}\n</FILE_PATCH>`;

  it('keeps every context line\'s ending in a file that mixes CR LF and LF', () => {
    const r = apply(patch('@@', ' a', ' b', '-c', '+C', ' d'), { 'm.txt': MIXED });
    assert.equal(r.files['m.txt'], 'a\r\nb\nC\r\nd\n');
  });
  it('an added line between context lines takes the ending of the line before it', () => {
    const r = apply(patch('@@', ' a', '+x', ' b'), { 'm.txt': MIXED });
    assert.equal(r.files['m.txt'], 'a\r\nx\r\nb\nc\r\nd\n');
  });
  it('a marker in the middle of a hunk fails it, and no line break is lost', () => {
    const files = { 'm.txt': 'a\nb\nc\n' };
    for (const body of [
      ['@@', '-a', '+A', '\\ No newline at end of file', ' b'],
      ['@@ -1,2 +1,2 @@', ' a', '\\ No newline at end of file', '-b', '+B'],
    ]) {
      const r = apply(patch(...body), files);
      untouched(r, files);
      assert.deepEqual(codes(r), ['malformed']);
    }
  });
  it('a marker on a hunk that does not end the file is ignored with a warning', () => {
    const r = apply(patch('@@', '-a', '+A', '\\ No newline at end of file'), { 'm.txt': 'a\nb\nc\n' });
    assert.equal(r.files['m.txt'], 'A\nb\nc\n');
    assert.deepEqual(r.edits[0].warnings.map((w) => w.code), ['stray-marker']);
  });
  it('a byte order mark copied into a patch or a new file is not doubled', () => {
    const BOM = '\uFEFF';
    const r = apply(patch('@@', `-${BOM}a`, `+${BOM}A`, ' b'), { 'm.txt': `${BOM}a\nb\n` });
    assert.equal(r.files['m.txt'], `${BOM}A\nb\n`);
    const whole = apply(`<FILE_NEW path="m.txt">\n${BOM}A\nb\n</FILE_NEW>`, { 'm.txt': `${BOM}a\nb\n` });
    assert.equal(whole.files['m.txt'], `${BOM}A\nb\n`);
    const created = apply(`<FILE_NEW path="n.txt">\n${BOM}${BOM}x\n</FILE_NEW>`, {});
    assert.equal(created.files['n.txt'], `${BOM}x\n`);
  });
  it('a reply whose lines end with CR CR LF puts no CR into an LF file', () => {
    const response = `<FILE_CHANGES>\n${patch('@@', '-a', '+A', '+x', ' b')}\n<FILE_NEW path="n.txt">\none\ntwo\n</FILE_NEW>\n</FILE_CHANGES>\n`.replace(/\n/g, '\r\r\n');
    const r = applyRequest({ format: 'udiffx', files: { 'm.txt': 'a\nb\n' }, response });
    assert.equal(r.files['m.txt'], 'A\nx\nb\n');
    assert.equal(r.files['n.txt'], 'one\ntwo\n');
  });
});

describe('udiffx: differences that do not show', () => {
  invisibleCases('udiffx', (path, old, replacement) =>
    `<FILE_CHANGES>\n<FILE_PATCH path="${path}">\n@@\n${old.map((l) => `-${l}`).join('\n')}\n${replacement.map((l) => `+${l}`).join('\n')}\n</FILE_PATCH>\n</FILE_CHANGES>\n`,
  );
});

describe('udiffx: re-indented replies', () => {
  indentationCases('udiffx', (path, c) => `<FILE_CHANGES>\n<FILE_PATCH path="${path}">\n@@\n${hunkBody(c)}\n</FILE_PATCH>\n</FILE_CHANGES>\n`);

  it('a `~` range removal quoted with spaces for the file\'s tabs applies as the same hunk without `~` does', () => {
    const files = { 'a.go': 'func f() {\n\ta := 1\n\tb := 2\n\tc := 3\n\td := 4\n\te := 5\n\treturn\n}\n' };
    const added = '+    if a > 0 {\n+        a++\n+    }';
    const ranged = apply(`<FILE_PATCH path="a.go">\n@@\n-    a := 1\n-    b := 2\n~\n-    d := 4\n-    e := 5\n${added}\n     return\n</FILE_PATCH>`, files);
    const whole = apply(`<FILE_PATCH path="a.go">\n@@\n-    a := 1\n-    b := 2\n-    c := 3\n-    d := 4\n-    e := 5\n${added}\n     return\n</FILE_PATCH>`, files);
    assert.deepEqual(codes(whole), ['applied']);
    assert.deepEqual(codes(ranged), ['applied']);
    assert.equal(ranged.files['a.go'], 'func f() {\n\tif a > 0 {\n\t\ta++\n\t}\n\treturn\n}\n');
    assert.equal(ranged.files['a.go'], whole.files['a.go']);
    assert.equal(ranged.edits[0].match, 'whitespace');
  });

  it('a `~` range removal whose two parts show different indentations: nothing changed, the message says why', () => {
    const files = { 'a.py': 'def f():\n    a = 1\n    b = 2\n    c = 3\n    d = 4\n    e = 5\n    return a\n' };
    // Before `~` cited unindented (for four spaces); after it with eight (for four): no one map.
    const r = apply('<FILE_PATCH path="a.py">\n@@\n-a = 1\n-b = 2\n~\n-        d = 4\n-        e = 5\n+x = 0\n</FILE_PATCH>', files);
    untouched(r, files);
    assert.deepEqual(codes(r), ['no-match']);
    assert.match(r.edits[0].message, /range removal's lines match lines 2-3 and 5-6/);
  });
});

describe('udiffx: directives in reply order, range removal, blank lines at the end', () => {
  it('a new file, then a patch of it whose lines occur twice in it: the file is written as it was given, the hunk fails', () => {
    const r = apply('<FILE_NEW path="new.py">\nrun()\nrun()\n</FILE_NEW>\n<FILE_PATCH path="new.py">\n@@\n-run()\n+stop()\n</FILE_PATCH>');
    assert.deepEqual(codes(r), ['applied', 'ambiguous']);
    assert.equal(r.files['new.py'], 'run()\nrun()\n');
  });

  it('a patch written for a given file and aimed at a new file of the same reply never touches the given one', () => {
    const r = apply('<FILE_NEW path="app2.py">\nprint(1)\n</FILE_NEW>\n<FILE_PATCH path="app2.py">\n@@\n     load()\n-    run()\n+    go()\n</FILE_PATCH>');
    assert.deepEqual(codes(r), ['applied', 'no-match']);
    assert.equal(r.files['app.py'], FILES['app.py']);
    assert.equal(r.files['app2.py'], 'print(1)\n');
  });

  it('a numbered patch of a new file is read as part of the envelope, not as a stray unified diff', () => {
    const r = apply('<FILE_APPEND path="n.txt">\na\nb\nc\n</FILE_APPEND>\n<FILE_PATCH path="n.txt">\n@@ -2,1 +2,1 @@\n-b\n+B\n</FILE_PATCH>');
    assert.deepEqual(r.diagnostics, []);
    assert.deepEqual(r.edits.map((e) => [e.status, e.code, e.duplicateOf]), [['applied', null, null], ['applied', 'duplicate', 0]]);
    assert.equal(r.files['n.txt'], 'a\nB\nc\n');
    assert.equal(r.ok, true);
  });

  it('a patch of a file after its deletion, or of the old name after a rename, changes nothing of either', () => {
    const del = apply('<FILE_DELETE path="notes.txt"/>\n<FILE_PATCH path="notes.txt">\n@@\n-keep me\n+kept\n</FILE_PATCH>');
    assert.deepEqual(codes(del), ['applied', 'file-not-found']);
    assert.equal(del.files['notes.txt'], null);
    const ren = apply('<FILE_RENAME from="app.py" to="main.py"/>\n<FILE_PATCH path="app.py">\n@@\n-    run()\n+    go()\n</FILE_PATCH>');
    assert.deepEqual(codes(ren), ['applied', 'file-not-found']);
    assert.deepEqual([ren.files['app.py'], ren.files['main.py']], [null, FILES['app.py']]);
  });

  it('a range removal whose end occurs twice below its start, or not at all, removes nothing', () => {
    const files = { 'list.txt': 'a\nb\nx\ny\nz\ny\nz\n' };
    for (const [tail, code] of [
      ['-y\n-z', 'ambiguous'],
      ['-q\n-r', 'no-match'],
    ] as const) {
      const r = apply(`<FILE_PATCH path="list.txt">\n@@\n-a\n-b\n~\n${tail}\n</FILE_PATCH>`, files);
      untouched(r, files);
      assert.deepEqual(codes(r), [code]);
    }
  });

  it('a range removal whose end is above its start is not found (the end is searched below the start only)', () => {
    const files = { 'list.txt': 'y\nz\nm\na\nb\n' };
    const r = apply('<FILE_PATCH path="list.txt">\n@@\n-a\n-b\n~\n-y\n-z\n</FILE_PATCH>', files);
    untouched(r, files);
    assert.deepEqual(codes(r), ['no-match']);
  });

  it('trailing blank context the file lacks is forgiven at the end of the file only, never moving the hunk elsewhere', () => {
    const files = { 'a.py': 'x = 1\nprint(x)\n\nx = 1\n' };
    const end = apply('<FILE_PATCH path="a.py">\n@@\n-x = 1\n+x = 2\n \n \n</FILE_PATCH>', files);
    // `x = 1` followed by a blank line is only at line 1 (one blank line, not two); at the end it has none.
    assert.deepEqual(codes(end), ['applied']);
    assert.equal(end.files['a.py'], 'x = 1\nprint(x)\n\nx = 2\n');
    const middle = apply('<FILE_PATCH path="a.py">\n@@\n-print(x)\n+print(y)\n \n \n \n</FILE_PATCH>', files);
    untouched(middle, files);
    assert.deepEqual(codes(middle), ['no-match']);
  });

  it('a hunk whose only old lines are blank context the file lacks at its end applies there, before or after its added lines', () => {
    const files = { 'a.txt': 'first\nsecond\n' };
    for (const body of ['@@\n+third\n \n', '@@\n \n+third\n', '@@\n \n \n+third\n']) {
      const r = apply(`<FILE_PATCH path="a.txt">\n${body}</FILE_PATCH>`, files);
      assert.deepEqual(codes(r), ['applied'], body);
      assert.equal(r.files['a.txt'], 'first\nsecond\nthird\n', body);
    }
    // The file's own blank line at its end stays; the one it lacks is not written.
    const tail = apply('<FILE_PATCH path="a.txt">\n@@\n \n \n+third\n</FILE_PATCH>', { 'a.txt': 'first\n\n' });
    assert.equal(tail.files['a.txt'], 'first\n\nthird\n');
    // A blank line in the middle of the file is where the ladder finds it: nothing is moved to the end.
    const middle = apply('<FILE_PATCH path="a.txt">\n@@\n+third\n \n</FILE_PATCH>', { 'a.txt': 'first\n\nsecond\n' });
    assert.equal(middle.files['a.txt'], 'first\nthird\n\nsecond\n');
  });

  it('a hunk of context lines only changes nothing, and says so', () => {
    const r = apply('<FILE_PATCH path="app.py">\n@@\n     load()\n     run()\n</FILE_PATCH>');
    assert.deepEqual(r.files, FILES);
    assert.deepEqual(r.edits.map((e) => [e.status, e.warnings.map((w) => w.code)]), [['applied', ['no-change']]]);
  });

  it('a context-only hunk sharing lines with real hunks (at the start, between two, at the end) blocks none of them', () => {
    const files = { 'a.txt': 'one\ntwo\nthree\nfour\nfive\nsix\nseven\n' };
    const after = 'one\ntwo\nTHREE\nfour\nfive\nSIX\nseven\n';
    const real = ['@@\n two\n-three\n+THREE\n four', '@@\n five\n-six\n+SIX\n seven'];
    for (const [where, hunks] of [
      ['start', ['@@\n one\n two', ...real]],
      ['between', [real[0], '@@\n four\n five', real[1]]],
      ['end', [...real, '@@\n six\n seven']],
    ] as const) {
      const r = apply(`<FILE_PATCH path="a.txt">\n${hunks.join('\n')}\n</FILE_PATCH>`, files);
      assert.equal(r.files['a.txt'], after, where);
      assert.deepEqual(codes(r), ['applied', 'applied', 'applied'], where);
      assert.equal(r.ok, true, where);
    }
    // The same in a file written earlier in the reply.
    const written = apply(`<FILE_NEW path="n.txt">\none\ntwo\nthree\nfour\n</FILE_NEW>\n<FILE_PATCH path="n.txt">\n@@\n one\n two\n@@\n two\n-three\n+THREE\n</FILE_PATCH>`, {});
    assert.equal(written.files['n.txt'], 'one\ntwo\nTHREE\nfour\n');
    assert.equal(written.ok, true);
  });
});

describe('udiffx: envelopes and directives that give no edit', () => {
  for (const response of ['<FILE_CHANGES>\n</FILE_CHANGES>\n', '<FILE_DELETE path="notes.txt"/>\n', 'See:\n<FILE_NEW path="x.txt">\nx\n</FILE_NEW>\n']) {
    it(`${JSON.stringify(response.slice(0, 30))}: malformed, nothing written`, () => {
      const r = applyRequest({ format: 'udiffx', files: FILES, response });
      untouched(r);
      assert.deepEqual(r.diagnostics.map((d) => d.code), ['malformed']);
    });
  }
});
