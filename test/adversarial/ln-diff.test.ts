// Replies written to hurt, in ln-diff: each must apply where it belongs or
// fail with its reason, never land elsewhere, never lose a line.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { hunkBody, indentationCases, sides } from './indentation.ts';
import { invisibleCases } from './invisible.ts';
import { applyRequest } from '../../src/formats/index.ts';
import type { ApplyResult } from '../../src/core/types.ts';

const APP = 'def main():\n    load()\n    run()\n    report()\n';
const apply = (response: string, files: Record<string, string> = { 'app.py': APP }, format = 'ln-diff'): ApplyResult =>
  applyRequest({ format, files, response });
const block = (path: string, remove: string[], insert: string[]) =>
  `${path}\n<editblock>\n<<<<<<< REMOVE\n${remove.join('\n')}${remove.length ? '\n' : ''}=======\n${insert.map((l) => ' │' + l).join('\n')}${insert.length ? '\n' : ''}>>>>>>> INSERT\n</editblock>\n`;

/** Nothing was written: every given file is as it was, and nothing was created. */
function untouched(r: ApplyResult, files: Record<string, string> = { 'app.py': APP }): void {
  assert.deepEqual(r.files, files);
  assert.equal(r.ok, false);
}

describe('ln-diff: elisions', () => {
  for (const placeholder of ['    # ... existing code ...', '    # rest of function unchanged', '    ...', '    # ...']) {
    it(`refuses ${JSON.stringify(placeholder)} standing for removed lines`, () => {
      const r = apply(block('app.py', ['1│def main():', '2│    load()', '3│    run()', '4│    report()'], ['def main(verbose=False):', '    load(verbose)', placeholder]));
      untouched(r);
      assert.equal(r.edits[0].code, 'elided');
      assert.match(r.edits[0].message, /write the lines in full/);
    });
  }
  it('refuses an elision in a new file too', () => {
    const r = apply(block('util.py', [], ['def helper():', '    # ... existing code ...']));
    untouched(r);
  });
});

describe('ln-diff: markers in content', () => {
  it('a bare end marker among the lines to insert makes the block ambiguous, never cut', () => {
    const reply = 'app.py\n<<<<<<< REMOVE\n4│    report()\n=======\n    print(">>>>>>> INSERT")\n>>>>>>> INSERT\n    report()\n>>>>>>> INSERT\n';
    const r = apply(reply);
    untouched(r);
    assert.equal(r.edits[0].code, 'ambiguous-end');
  });
  it('a closing tag among the lines to insert, then the real end: ambiguous', () => {
    const reply = 'app.py\n<editblock>\n<<<<<<< REMOVE\n4│    report()\n=======\n │    report()\n</editblock>\n │    done()\n>>>>>>> INSERT\n</editblock>\n';
    const r = apply(reply);
    untouched(r);
    assert.equal(r.edits[0].code, 'ambiguous-end');
  });
  it('a stray marker after a block closed by its tag changes nothing in the block', () => {
    const r = apply(block('app.py', ['4│    report()'], ['    report(True)']) + '>>>>>>> INSERT\n');
    assert.equal(r.edits[0].status, 'applied');
    assert.deepEqual(r.diagnostics.map((d) => d.code), ['stray-marker']);
  });
});

describe('ln-diff: odd paths', () => {
  for (const name of ['Makefile', 'Dockerfile', 'LICENSE', 'README', 'Procfile', 'Gemfile', '.gitignore', 'docs/My Notes.md']) {
    it(`${name} above a block names ${name}, never the only file`, () => {
      const r = apply(block(name, [], ['line']));
      assert.equal(r.files['app.py'], APP);
      assert.equal(r.files[name], 'line\n');
      assert.equal(r.edits[0].file, name);
    });
  }
  for (const label of ['Output:', '## Summary', 'Done.', 'Sure!']) {
    it(`${JSON.stringify(label)} above a block is missing-path, never the only file`, () => {
      const r = apply(block(label, [], ['line']));
      untouched(r);
      assert.equal(r.edits[0].code, 'missing-path');
    });
  }
  it('a path in another case, with \\ or ./ names the given file', () => {
    const files = { 'src/App.js': 'a\n' };
    for (const path of ['src/app.js', 'src\\App.js', './src/App.js', '.\\SRC\\APP.JS']) {
      const r = apply(block(path, ['1│a'], ['b']), files);
      assert.deepEqual(r.files, { 'src/App.js': 'b\n' }, path);
    }
  });
  it('a file named __proto__ is a file like any other (JSON request)', () => {
    const request = JSON.parse('{"format":"ln-diff","files":{"__proto__":"x = 1\\n"},"response":"__proto__\\n<editblock>\\n<<<<<<< REMOVE\\n1│x = 1\\n=======\\n │x = 2\\n>>>>>>> INSERT\\n</editblock>\\n"}');
    const r = applyRequest(request);
    assert.equal(r.ok, true);
    assert.deepEqual(Object.keys(r.files), ['__proto__']);
    assert.equal(Object.getOwnPropertyDescriptor(r.files, '__proto__')?.value, 'x = 2\n');
    assert.equal(JSON.parse(JSON.stringify(r)).files.__proto__, 'x = 2\n');
  });
});

describe('ln-diff: similar is not the same', () => {
  const values = 'value_0000 = compute_the_thing(alpha, beta, gamma, 5);\nvalue_0001 = compute_the_thing(alpha, beta, gamma, 6);\n';
  it('a different value one line off is not forgiven', () => {
    const r = apply(block('v.py', ['2│value_0500 = compute_the_thing(alpha, beta, gamma, 9);'], ['x = 1']), { 'v.py': values });
    untouched(r, { 'v.py': values });
    assert.equal(r.edits[0].code, 'no-match');
    assert.match(r.edits[0].message, /a number differs/);
  });
  it('a one-letter typo in a long line still recovers', () => {
    const r = apply(block('v.py', ['1│value_0000 = compute_the_thign(alpha, beta, gamma, 5);'], ['x = 1']), { 'v.py': values });
    assert.equal(r.edits[0].match, 'fuzzy');
    assert.equal(r.files['v.py'], 'x = 1\n' + values.split('\n')[1] + '\n');
  });
  it('no closest candidate is named when nothing shares half the text', () => {
    const r = apply(block('app.py', ['2│    completely different text here'], ['x']));
    assert.deepEqual(r.edits[0].candidates, []);
    assert.doesNotMatch(r.edits[0].message, /closest/);
  });
});

describe('mixed formats', () => {
  const files = { 'a.py': 'x = 1\ny = 2\n', 'b.py': 'p = 1\nq = 2\n' };
  const ln = block('a.py', ['1│x = 1'], ['x = 10']);
  const sr = 'b.py\n```python\n<<<<<<< SEARCH\np = 1\n=======\np = 100\n>>>>>>> REPLACE\n```\n';
  const ud = '--- a/b.py\n+++ b/b.py\n@@ -2,1 +2,1 @@\n-q = 2\n+q = 3\n';
  const ap = '*** Begin Patch\n*** Update File: a.py\n@@\n x = 1\n-y = 2\n+y = 20\n*** End Patch\n';
  const str = '{"command": "str_replace", "path": "a.py", "old_str": "y = 2", "new_str": "y = 5"}\n';
  const cases: [string, string, Record<string, string>][] = [
    ['ln-diff + search-replace', ln + '\n' + sr, { 'a.py': 'x = 10\ny = 2\n', 'b.py': 'p = 100\nq = 2\n' }],
    ['search-replace + udiff', sr + '\n' + ud, { 'a.py': files['a.py'], 'b.py': 'p = 100\nq = 3\n' }],
    ['udiff + apply-patch', ud + '\n' + ap, { 'a.py': 'x = 1\ny = 20\n', 'b.py': 'p = 1\nq = 3\n' }],
    ['str-replace + ln-diff', str + '\n' + block('b.py', ['1│p = 1'], ['p = 7']), { 'a.py': 'x = 1\ny = 5\n', 'b.py': 'p = 7\nq = 2\n' }],
  ];
  for (const [name, reply, after] of cases) {
    it(`${name}: auto applies each part in its own format`, () => {
      const r = applyRequest({ format: 'auto', files, response: reply });
      assert.equal(r.ok, true, JSON.stringify(r.edits.map((e) => e.message)));
      assert.deepEqual(r.files, after);
      assert.equal(r.detection?.formats?.length, 2);
      assert.equal(new Set(r.edits.map((e) => e.format)).size, 2);
    });
    it(`${name}: a named format reports the other part, ok false`, () => {
      const named = applyRequest({ format: 'auto', files, response: reply }).format;
      const r = applyRequest({ format: named, files, response: reply });
      assert.equal(r.ok, false);
      assert.ok(r.diagnostics.some((d) => d.code === 'mixed-formats' && d.severity === 'error'));
    });
  }
});

describe('ln-diff: differences that do not show', () => {
  invisibleCases('ln-diff', (path, old, replacement, line) =>
    `${path}\n<editblock>\n<<<<<<< REMOVE\n${old.map((l, i) => `${line + i}│${l}`).join('\n')}\n=======\n${replacement.map((l) => ` │${l}`).join('\n')}\n>>>>>>> INSERT\n</editblock>\n`,
  );
});

describe('ln-diff: re-indented replies', () => {
  indentationCases(
    'ln-diff',
    (path, c) =>
      `${path}\n<editblock>\n<<<<<<< REMOVE\n${sides(c).old.map((l, i) => `${c.line + i}│${l}`).join('\n')}\n=======\n${sides(c).new.map((l) => ` │${l}`).join('\n')}\n>>>>>>> INSERT\n</editblock>\n`,
  );
});

describe('ln-diff: markers without an editblock, and editblocks that change nothing', () => {
  for (const reply of [
    'app.py\n<editblock>\n</editblock>\n',
    'app.py\n<<<< REMOVE\n3│    run()\n====\n │    go()\n>>>> INSERT\n',
    'Done, see below.\n>>>>>>> INSERT\n',
  ]) {
    it(`${JSON.stringify(reply.slice(0, 30))}...: malformed, nothing written`, () => {
      const r = apply(reply);
      untouched(r);
      assert.ok(r.diagnostics.some((d) => d.code === 'malformed'), JSON.stringify(r.diagnostics));
      assert.ok(!r.diagnostics.some((d) => d.code === 'no-edits'));
    });
  }

  it('an editblock that puts back the line it removes applies with no-change', () => {
    const r = apply(block('app.py', ['3│    run()'], ['    run()']));
    assert.equal(r.ok, true);
    assert.deepEqual(r.edits[0].warnings.map((w) => w.code), ['no-change']);
    assert.deepEqual(r.files, { 'app.py': APP });
  });
});
