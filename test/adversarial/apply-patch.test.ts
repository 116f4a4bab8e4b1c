// Replies written to hurt, in OpenAI apply_patch (V4A): each must apply where
// it belongs or fail with its reason, never land elsewhere, never lose a line.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { hunkBody, indentationCases, sides } from './indentation.ts';
import { invisibleCases } from './invisible.ts';
import { applyRequest } from '../../src/formats/index.ts';
import type { ApplyResult } from '../../src/core/types.ts';

const APP = 'function main() {\n  load();\n  run();\n}\n';
const apply = (response: string, files: Record<string, string> = { 'app.js': APP }): ApplyResult =>
  applyRequest({ format: 'apply-patch', files, response });
const patch = (...lines: string[]) => ['*** Begin Patch', ...lines, '*** End Patch'].join('\n') + '\n';

/** Nothing was written: every given file is as it was, nothing was created, and the result is not ok. */
function untouched(r: ApplyResult, files: Record<string, string> = { 'app.js': APP }): void {
  assert.deepEqual(r.files, files);
  assert.equal(r.ok, false);
}

describe('apply-patch: deletions', () => {
  const files = { 'app.js': APP, 'keep.js': 'kept\n' };
  it('with the file\'s lines after the header delete nothing (the format gives a deletion no content)', () => {
    untouched(apply(patch('*** Delete File: app.js', '-function main() {', '-  load();'), files), files);
  });
  it('of a file not given delete nothing, whatever else is given', () => {
    untouched(apply(patch('*** Delete File: src/app.js'), files), files);
    untouched(apply(patch('*** Delete File: app'), files), files);
  });
  it('of a path that fits two given files by case alone delete neither', () => {
    const two = { 'README.md': 'a\n', 'readme.md': 'b\n' };
    untouched(apply(patch('*** Delete File: Readme.md'), two), two);
  });
  it('cut inside the path delete nothing', () => {
    untouched(apply('*** Begin Patch\n*** Delete File: app.j', files), files);
  });
  it('a deletion ended by an end marker that may be content deletes nothing', () => {
    untouched(apply('*** Begin Patch\n*** Delete File: app.js\n*** End Patch\n+x\n*** End Patch\n', files), files);
  });
});

describe('apply-patch: markers in content', () => {
  it('prefixed marker lines are content, written as given', () => {
    const r = apply(patch('*** Add File: docs/p.md', '+*** Begin Patch', '+*** Update File: x', '+*** End of File', '+*** End Patch', '+@@', '+done'), {});
    assert.equal(r.ok, true, JSON.stringify(r.edits));
    assert.deepEqual(r.files, { 'docs/p.md': '*** Begin Patch\n*** Update File: x\n*** End of File\n*** End Patch\n@@\ndone\n' });
  });
  it('context lines that read as markers are content', () => {
    const files = { 'p.md': '*** End Patch\nend\n' };
    const r = apply(patch('*** Update File: p.md', '@@', ' *** End Patch', '-end', '+END'), files);
    assert.equal(r.ok, true, JSON.stringify(r.edits));
    assert.equal(r.files['p.md'], '*** End Patch\nEND\n');
  });
  it('an unprefixed *** End Patch inside an added file writes nothing', () => {
    untouched(apply('*** Begin Patch\n*** Add File: docs/p.md\n+A patch ends with:\n*** End Patch\n+and that is all.\n*** End Patch\n', {}), {});
  });
  it('an unprefixed *** End Patch inside a chunk applies nothing of it', () => {
    const r = apply('*** Begin Patch\n*** Update File: app.js\n@@\n-  run();\n+  run();\n*** End Patch\n+  report();\n*** End Patch\n');
    untouched(r);
    assert.equal(r.edits[0].code, 'ambiguous-end');
  });
  it('an unprefixed *** End of File inside a chunk applies nothing of it', () => {
    const r = apply('*** Begin Patch\n*** Update File: app.js\n@@\n-}\n+}\n*** End of File\n+// end\n*** End Patch\n');
    untouched(r);
  });
  it('a fence that ends the patch inside a chunk, with the chunk going on after it, applies nothing of it', () => {
    const r = apply('```\n*** Begin Patch\n*** Update File: app.js\n@@\n-  run();\n+  run();\n```\n+  report();\n*** End Patch\n```\n');
    untouched(r);
  });
  it('an *** End Patch written twice applies the patch', () => {
    const r = apply(patch('*** Update File: app.js', '@@', '-  run();', '+  run(true);') + '*** End Patch\n');
    assert.equal(r.ok, true);
    assert.equal(r.files['app.js'], APP.replace('run()', 'run(true)'));
  });
});

describe('apply-patch: truncation', () => {
  it('a reply cut after *** Begin Patch is an error', () => {
    const r = apply('*** Begin Patch\n');
    untouched(r);
    assert.deepEqual(r.diagnostics.map((d) => [d.code, d.severity]), [['truncated', 'error']]);
  });
  it('a chunk cut before its added lines never applies (it would only delete)', () => {
    untouched(apply('*** Begin Patch\n*** Update File: app.js\n@@\n-  load();\n-  run();\n'));
  });
  it('a chunk cut inside its last added line never applies', () => {
    untouched(apply('*** Begin Patch\n*** Update File: app.js\n@@\n-  run();\n+  run(opt'));
  });
  it('an added file cut short is not written', () => {
    untouched(apply('*** Begin Patch\n*** Add File: b.js\n+one\n+two', {}), {});
  });
});

describe('apply-patch: elisions', () => {
  for (const placeholder of ['  // ... existing code ...', '  // rest of function unchanged', '  ...', '  // ...']) {
    it(`refuses ${JSON.stringify(placeholder)} standing for removed lines`, () => {
      const r = apply(patch('*** Update File: app.js', '@@', ' function main() {', '-  load();', '-  run();', '+  load(env);', `+${placeholder}`));
      untouched(r);
      assert.equal(r.edits[0].code, 'elided');
    });
  }
  it('refuses an elision in an added file', () => {
    untouched(apply(patch('*** Add File: util.js', '+export function f() {', '+  // ... existing code ...', '+}')));
  });
  it('applies JavaScript spread and a comment the file already has', () => {
    const files = { 'app.js': 'function f(...args) {\n  // ...\n  g();\n}\n' };
    const r = apply(patch('*** Update File: app.js', '@@', '   // ...', '-  g();', '+  g(...args);'), files);
    assert.equal(r.ok, true, JSON.stringify(r.edits));
    assert.equal(r.files['app.js'], 'function f(...args) {\n  // ...\n  g(...args);\n}\n');
  });
});

describe('apply-patch: odd paths', () => {
  const files = { 'src/App.js': 'render();\n' };
  for (const p of ['./src/App.js', 'src\\App.js', '.\\src\\App.js', 'SRC/APP.JS', '  src/App.js  ']) {
    it(`${JSON.stringify(p)} names the given file`, () => {
      const r = apply(patch(`*** Update File: ${p}`, '@@', '-render();', '+render(root);'), files);
      assert.equal(r.ok, true, JSON.stringify(r.edits));
      assert.deepEqual(r.files, { 'src/App.js': 'render(root);\n' });
    });
  }
  for (const [p, code] of [['../App.js', 'unsafe-path'], ['/src/App.js', 'unsafe-path'], ['src/App.jsx', 'file-not-found'], ['App.js', 'file-not-found']]) {
    it(`${p} changes no given file (${code})`, () => {
      const r = apply(patch(`*** Update File: ${p}`, '@@', '-render();', '+render(root);'), files);
      untouched(r, files);
      assert.equal(r.edits[0].code, code);
    });
  }
  for (const p of ['../App.js', '/tmp/App.js', 'C:\\App.js']) {
    it(`${p} is never written (unsafe-path)`, () => {
      const r = apply(patch(`*** Add File: ${p}`, '+x'), files);
      untouched(r, files);
      assert.equal(r.edits[0].code, 'unsafe-path');
    });
  }
  it('adding a file that exists under another spelling overwrites nothing', () => {
    untouched(apply(patch('*** Add File: ./SRC/app.js', '+gone();'), files), files);
  });
  it('moving onto a file that exists under another spelling overwrites nothing', () => {
    const two = { 'src/App.js': 'render();\n', 'src/Main.js': 'main();\n' };
    untouched(apply(patch('*** Update File: src/App.js', '*** Move to: ./src/main.js', '@@', '-render();', '+render(root);'), two), two);
  });
});

describe('apply-patch: paths that look alike', () => {
  const NFC = 'caf\u00e9.js';
  const NFD = 'cafe\u0301.js';
  const warned = (r: ApplyResult) => r.edits.map((e) => e.warnings.map((w) => w.code).join(','));

  it('Update File in the other Unicode form edits the given file; Add File of it is refused as existing', () => {
    const files = { [NFC]: 'a\n' };
    const r = apply(patch(`*** Update File: ${NFD}`, '@@', '-a', '+b'), files);
    assert.deepEqual(r.files, { [NFC]: 'b\n' });
    const added = apply(patch(`*** Add File: ${NFD}`, '+b'), files);
    assert.equal(added.files[NFD], undefined, 'no second file whose name looks the same');
    assert.equal(Object.keys(added.files).length, 1);
  });

  it('Move to a name in the other form of a given file is a move onto that file: refused as existing', () => {
    const files = { 'old.js': 'o\n', [NFD]: 'c\n' };
    const r = apply(patch('*** Update File: old.js', `*** Move to: ${NFC}`, '@@', '-o', '+p'), files);
    assert.deepEqual(r.files, files);
    assert.equal(r.edits[0].code, 'file-exists');
  });

  it('Add File and Move to with a look-alike name create that name, with confusable-path, and leave the given file alone', () => {
    const files = { 'app.js': APP, 'old.js': 'o\n' };
    const r = apply(patch('*** Add File: \u0430pp.js', '+x', '*** Update File: old.js', '*** Move to: \u0430pp\u200b.js', '@@', '-o', '+p'), files);
    assert.equal(r.files['app.js'], APP);
    assert.equal(r.files['\u0430pp.js'], 'x\n');
    assert.equal(r.files['\u0430pp\u200b.js'], 'p\n');
    assert.equal(r.files['old.js'], null);
    assert.deepEqual(warned(r), ['confusable-path', 'confusable-path']);
  });

  it('a BiDi control added by an update hunk is applied as given, named with its line in the file written', () => {
    const r = apply(patch('*** Update File: app.js', '@@', ' function main() {', '+  // \u202e; run()', '   load();'));
    assert.equal(r.files['app.js'], 'function main() {\n  // \u202e; run()\n  load();\n  run();\n}\n');
    assert.deepEqual(warned(r), ['bidi-control']);
    assert.match(r.edits[0].warnings[0].message, /^line 2 of app\.js holds U\+202E/);
  });
});

describe('apply-patch: line endings and byte order marks', () => {
  const MIXED = 'a\r\nb\nc\r\nd\n';
  const files = { 'm.txt': MIXED };

  it('keeps every context line\'s ending in a file that mixes CR LF and LF', () => {
    const r = apply(patch('*** Update File: m.txt', '@@', ' a', ' b', '-c', '+C', ' d'), files);
    assert.equal(r.files['m.txt'], 'a\r\nb\nC\r\nd\n');
  });
  it('a context line copied with damage keeps the file\'s text and ending', () => {
    const r = apply(patch('*** Update File: m.txt', '@@', ' a  ', '-b', '+B'), files);
    assert.equal(r.files['m.txt'], 'a\r\nB\nc\r\nd\n');
  });
  it('added lines take the ending of the context line before them, else after them', () => {
    const after = apply(patch('*** Update File: m.txt', '@@', ' a', '+x', ' b'), files);
    assert.equal(after.files['m.txt'], 'a\r\nx\r\nb\nc\r\nd\n');
    const before = apply(patch('*** Update File: m.txt', '@@', '+x', ' b', ' c'), files);
    assert.equal(before.files['m.txt'], 'a\r\nx\nb\nc\r\nd\n');
  });
  it('a line removed and added back keeps its ending', () => {
    const r = apply(patch('*** Update File: m.txt', '@@', '-a', '-b', '+a', '+B'), files);
    assert.equal(r.files['m.txt'], 'a\r\nB\nc\r\nd\n');
  });
  it('a byte order mark copied into the first lines is not doubled', () => {
    const BOM = '\uFEFF';
    for (const body of [[`-${BOM}a`, `+${BOM}A`, ' b'], [`-${BOM}a`, '+A', ' b'], ['-a', `+${BOM}A`, ' b']]) {
      const r = apply(patch('*** Update File: m.txt', '@@', ...body), { 'm.txt': `${BOM}a\nb\n` });
      assert.equal(r.files['m.txt'], `${BOM}A\nb\n`, body.join('|'));
    }
    const plain = apply(patch('*** Update File: m.txt', '@@', `-${BOM}a`, `+${BOM}A`), { 'm.txt': 'a\nb\n' });
    assert.equal(plain.files['m.txt'], 'A\nb\n');
    const added = apply(patch('*** Add File: n.txt', `+${BOM}x`), {});
    assert.equal(added.files['n.txt'], `${BOM}x\n`);
  });
  it('a patch whose lines end with CR CR LF puts no CR into an LF file', () => {
    const r = apply(patch('*** Update File: m.txt', '@@', '-a', '+A', '+x', ' b').replace(/\n/g, '\r\r\n'), { 'm.txt': 'a\nb\n' });
    assert.equal(r.files['m.txt'], 'A\nx\nb\n');
    assert.equal(r.edits[0].match, 'exact');
  });
});

describe('apply-patch: differences that do not show', () => {
  invisibleCases('apply-patch', (path, old, replacement) =>
    patch(`*** Update File: ${path}`, '@@', ...old.map((l) => `-${l}`), ...replacement.map((l) => `+${l}`)),
    false,
    true,
  );
});

describe('apply-patch: re-indented replies', () => {
  indentationCases('apply-patch', (path, c) => patch(`*** Update File: ${path}`, '@@', hunkBody(c)));
});

describe('apply-patch: empty envelopes and quotes', () => {
  it('an envelope with no file operation is malformed, not a reply without edits', () => {
    for (const reply of [patch(), 'Patch:\n*** End Patch\n', '*** Begin Patch\n\n*** End Patch\n']) {
      const r = apply(reply);
      untouched(r);
      assert.deepEqual(r.diagnostics.map((d) => d.code), ['malformed'], reply);
      assert.match(r.diagnostics[0].message, /\*\*\* Update File: PATH/);
    }
    // Cut off after the head: the reading says so itself.
    const cut = apply('*** Begin Patch\n');
    untouched(cut);
    assert.ok(!cut.diagnostics.some((d) => d.code === 'no-edits'));
  });

  it('a unified diff quoted for a file not given is not mixing', () => {
    const quoted = 'The log:\n--- a/other.js\n+++ b/other.js\n@@ -1 +1 @@\n-a\n+b\n\n';
    const r = apply(quoted + patch('*** Update File: app.js', '@@', '-  run();', '+  go();'));
    assert.equal(r.ok, true, JSON.stringify(r.diagnostics));
    assert.deepEqual(r.files, { 'app.js': APP.replace('run()', 'go()') });
  });
});
