// Replies written to hurt, in text-editor tool calls (str_replace, insert,
// create): each must apply where it belongs or fail with its reason, never
// land elsewhere, never lose a line.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ApplyResult } from '../../src/core/types.ts';
import { invisibleCases } from './invisible.ts';
import { applyRequest } from '../../src/formats/index.ts';

const FILES = { 'app.py': 'def main():\n    load()\n    run()\n    run()\n', 'notes.txt': 'keep me\n' };
const call = (c: Record<string, unknown>) => JSON.stringify({ path: 'app.py', ...c });
const apply = (calls: string[], files: Record<string, string> = FILES): ApplyResult =>
  applyRequest({ format: 'str-replace', files, response: calls.join('\n') + '\n' });
const codes = (r: ApplyResult) => r.edits.map((e) => e.code ?? e.status);

/** Nothing was written: every given file is as it was, and nothing was created. */
function untouched(r: ApplyResult, files: Record<string, string> = FILES): void {
  assert.deepEqual(r.files, files);
  assert.equal(r.ok, false);
}

describe('str-replace: never a guess', () => {
  it('an old_str that occurs twice, overlapping or not, is refused', () => {
    const r = apply([call({ command: 'str_replace', old_str: '    run()\n', new_str: '    go()\n' }), call({ command: 'str_replace', old_str: 'un()', new_str: 'X' })]);
    untouched(r);
    assert.deepEqual(codes(r), ['ambiguous', 'ambiguous']);
  });

  it('an old_str that differs in whitespace or case from the file is refused, not forgiven', () => {
    const r = apply([call({ command: 'str_replace', old_str: 'def main():\n  load()', new_str: 'x' }), call({ command: 'str_replace', old_str: 'DEF MAIN', new_str: 'x' })]);
    untouched(r);
    assert.deepEqual(codes(r), ['no-match', 'no-match']);
  });

  it('two calls on the same lines both fail; an insert past the end fails', () => {
    const r = apply([
      call({ command: 'str_replace', old_str: 'def main():\n    load()', new_str: 'def main(a):\n    load()' }),
      call({ command: 'str_replace', old_str: '    load()\n    run()\n    run()', new_str: '    load(a)' }),
      call({ command: 'insert', insert_line: 9, new_str: 'x' }),
    ]);
    untouched(r);
    assert.deepEqual(codes(r), ['overlap', 'overlap', 'no-match']);
  });

  it('a call cut off in the middle writes nothing; the complete call before it applies', () => {
    const whole = call({ command: 'str_replace', old_str: '    load()', new_str: '    load(cache=True)' });
    const cut = call({ command: 'create', path: 'notes.txt', file_text: 'x' }).slice(0, 40);
    const r = applyRequest({ format: 'str-replace', files: FILES, response: `${whole}\n${cut}` });
    assert.deepEqual(r.files, { ...FILES, 'app.py': FILES['app.py'].replace('load()', 'load(cache=True)') });
    assert.deepEqual(codes(r), ['applied', 'truncated']);
  });
});

describe('str-replace: markers and fences in the text', () => {
  it('new_str holding fences, braces, quotes and other formats\' markers is written byte for byte', () => {
    const text = '```json\n{"command": "str_replace", "old_str": "x"}\n```\n<<<<<<< SEARCH\n=======\n>>>>>>> REPLACE\n</FILE_NEW>\n';
    const r = apply([call({ command: 'str_replace', old_str: '    load()\n', new_str: `    load()\n${text}` })]);
    assert.equal(r.ok, true);
    assert.equal(r.files['app.py'], `def main():\n    load()\n${text}    run()\n    run()\n`);
  });

  it('a create whose text is JSON of another call creates that text, and applies nothing else', () => {
    const inner = '{"command": "str_replace", "path": "notes.txt", "old_str": "keep me", "new_str": "lost"}';
    const r = apply([call({ command: 'create', path: 'example.json', file_text: inner + '\n' })]);
    assert.deepEqual(r.files, { ...FILES, 'example.json': inner + '\n' });
    assert.equal(r.edits.length, 1);
  });
});

describe('str-replace: elisions', () => {
  it('a new_str that elides code the old_str held is refused', () => {
    for (const placeholder of ['    # ... existing code ...', '    # rest of function unchanged', '    ...']) {
      const r = apply([call({ command: 'str_replace', old_str: '    load()\n    run()\n    run()\n', new_str: `    load(fast=True)\n${placeholder}\n` })]);
      untouched(r);
      assert.deepEqual(codes(r), ['elided'], placeholder);
    }
  });

  it('a placeholder that old_str already holds, and Python\'s ... as a body, are text', () => {
    const files = { 'a.py': 'def f():\n    # ... existing code ...\n    pass\n' };
    const r = apply([
      JSON.stringify({ command: 'str_replace', path: 'a.py', old_str: '    # ... existing code ...\n    pass', new_str: '    # ... existing code ...\n    return 1' }),
      JSON.stringify({ command: 'create', path: 'b.py', file_text: 'class B:\n    def g(self):\n        ...\n' }),
    ], files);
    assert.deepEqual(r.files, { 'a.py': 'def f():\n    # ... existing code ...\n    return 1\n', 'b.py': 'class B:\n    def g(self):\n        ...\n' });
  });
});

describe('str-replace: odd paths', () => {
  it('another case, \\, ./ and an absolute path ending in a given file name that file', () => {
    const files = { 'src/App.js': 'a\nb\nc\nd\n' };
    const r = apply(
      [
        JSON.stringify({ command: 'str_replace', path: 'src\\App.js', old_str: 'a\n', new_str: 'A\n' }),
        JSON.stringify({ command: 'str_replace', path: './SRC/app.js', old_str: 'b\n', new_str: 'B\n' }),
        JSON.stringify({ command: 'str_replace', path: '/home/me/proj/src/App.js', old_str: 'c\n', new_str: 'C\n' }),
        JSON.stringify({ command: 'str_replace', path: 'D:\\proj\\src\\app.JS', old_str: 'd\n', new_str: 'D\n' }),
      ],
      files,
    );
    assert.deepEqual(r.files, { 'src/App.js': 'A\nB\nC\nD\n' });
  });

  it('a create over a given file in another case is file-exists, not a second file', () => {
    const r = apply([call({ command: 'create', path: 'APP.PY', file_text: 'x\n' })]);
    untouched(r);
    assert.deepEqual(codes(r), ['file-exists']);
  });

  it('paths that leave the project are refused', () => {
    const r = apply([
      call({ command: 'create', path: '/etc/cron.d/job', file_text: 'x\n' }),
      call({ command: 'create', path: '../up.txt', file_text: 'x\n' }),
      call({ command: 'create', path: 'C:\\Windows\\x.txt', file_text: 'x\n' }),
    ]);
    untouched(r);
    assert.deepEqual(codes(r), ['unsafe-path', 'unsafe-path', 'unsafe-path']);
  });

  it('files named __proto__, constructor and toString are files like any other (JSON request)', () => {
    const files = JSON.parse('{"__proto__": "x = 1\\n", "constructor": "c\\n"}');
    const r = apply(
      [
        JSON.stringify({ command: 'str_replace', path: '__proto__', old_str: 'x = 1', new_str: 'x = 2' }),
        JSON.stringify({ command: 'insert', path: 'constructor', insert_line: 1, new_str: 'd' }),
        JSON.stringify({ command: 'create', path: 'toString', file_text: 't\n' }),
      ],
      files,
    );
    assert.equal(r.ok, true, JSON.stringify(r.edits));
    assert.deepEqual(Object.keys(r.files).sort(), ['__proto__', 'constructor', 'toString']);
    assert.equal(Object.getOwnPropertyDescriptor(r.files, '__proto__')?.value, 'x = 2\n');
    assert.deepEqual([r.files.constructor, r.files.toString], ['c\nd\n', 't\n']);
  });
});

describe('str-replace: many failing calls', () => {
  const lines = Array.from({ length: 20_000 }, (_, i) => `  const value${i} = compute(${i}, "line ${i}");`);
  const files = { 'big.js': lines.join('\n') + '\n' };

  it('3,000 calls citing text that is not there fail each with its reason; a correct call among them applies', () => {
    const calls = Array.from({ length: 3000 }, (_, k) =>
      JSON.stringify({ command: 'str_replace', path: 'big.js', old_str: k % 2 ? `value${k} = compote(${k}` : `${lines[k].replace('compute', 'compote')}\n`, new_str: 'x' }),
    );
    calls.splice(1500, 0, JSON.stringify({ command: 'str_replace', path: 'big.js', old_str: `${lines[7]}\n`, new_str: '  const seven = 7;\n' }));
    const r = apply(calls, files);
    assert.equal(r.edits.length, 3001);
    assert.deepEqual(codes(r).filter((c) => c !== 'no-match'), ['applied']);
    assert.equal(r.files['big.js'], files['big.js'].replace(`${lines[7]}\n`, '  const seven = 7;\n'));
    assert.ok(r.edits.every((e) => e.status === 'applied' || /does not occur/.test(e.message)));
  });
});

describe('str-replace: differences that do not show (old_str must be exact; the message names them)', () => {
  invisibleCases(
    'str-replace',
    (path, old, replacement) => JSON.stringify({ command: 'str_replace', path, old_str: old.join('\n'), new_str: replacement.join('\n') }),
    true,
  );
});

describe('str-replace: arguments as JSON text, keys twice', () => {
  const held = (c: Record<string, unknown>) =>
    JSON.stringify({ type: 'function', function: { name: 'str_replace_based_edit_tool', arguments: JSON.stringify({ path: 'app.py', ...c }) } });

  it('arguments text with escapes, quotes and markers applies exactly where the object form would', () => {
    const c = { command: 'str_replace', old_str: '    load()\n    run()\n    run()', new_str: '    load("\\"x\\"")\n>>>>>>> REPLACE\n    run()' };
    const a = apply([held(c)]);
    const b = apply([call(c)]);
    assert.deepEqual(a.files, b.files);
    assert.deepEqual(codes(a), ['applied']);
  });

  it('arguments text that breaks off, or holds a second copy of a key, changes nothing', () => {
    const broken = held({ command: 'str_replace', old_str: 'def main():', new_str: 'def go():' }).replace(',\\"new_str\\"', ' \\"new_str\\"');
    const cut = held({ command: 'create', path: 'x.py', file_text: 'y' }).replace('\\"y\\"}', '\\"y');
    const twice = held({ command: 'str_replace', old_str: '    load()', new_str: '    x()' }).replace(',\\"new_str\\":', ',\\"new_str\\":\\"y\\",\\"new_str\\":');
    const r = apply([broken, twice]);
    untouched(r);
    assert.deepEqual(codes(r), ['malformed', 'malformed']);
    const t = apply([cut]);
    untouched(t);
    assert.deepEqual(codes(t), ['truncated']);
  });

  it('a key twice is refused whichever copy would have matched', () => {
    const r = apply([
      '{"command": "str_replace", "path": "app.py", "old_str": "nothing here", "old_str": "    load()", "new_str": "    x()"}',
      '{"command": "str_replace", "path": "notes.txt", "path": "app.py", "old_str": "    load()", "new_str": "    x()"}',
    ]);
    untouched(r);
    assert.deepEqual(codes(r), ['malformed', 'malformed']);
  });
});

describe('str-replace: calls that are not read, and replacements that change nothing', () => {
  it('a call written as XML parameters is malformed, not a reply without edits', () => {
    const response = '<invoke name="str_replace_based_edit_tool">\n<parameter name="command">str_replace</parameter>\n<parameter name="path">app.py</parameter>\n<parameter name="old_str">load()</parameter>\n<parameter name="new_str">go()</parameter>\n</invoke>\n';
    const r = applyRequest({ format: 'str-replace', files: FILES, response });
    untouched(r);
    assert.deepEqual(r.diagnostics.map((d) => d.code), ['malformed']);
    assert.equal(r.diagnostics[0].reply?.start.line, 2);
  });

  it('a view call alone is not an edit: no-edits, ok', () => {
    const r = apply([JSON.stringify({ command: 'view', path: 'app.py' })]);
    assert.equal(r.ok, true);
    assert.deepEqual(r.diagnostics.map((d) => d.code), ['no-edits']);
  });

  it('old_str equal to new_str applies with no-change, and ok stays true', () => {
    const r = apply([call({ command: 'str_replace', old_str: 'load()', new_str: 'load()' })]);
    assert.equal(r.ok, true);
    assert.deepEqual(r.edits.map((e) => e.warnings.map((w) => w.code)), [['no-change']]);
    assert.deepEqual(r.files, FILES);
  });
});
