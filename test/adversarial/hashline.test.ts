// Replies written to hurt, in hashline (line:tag edit calls): each must apply
// where it belongs or fail with its reason, never land elsewhere, never lose
// a line.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ApplyResult } from '../../src/core/types.ts';
import { fileTag, lineTag } from '../../src/formats/hashline/tag.ts';
import { applyRequest } from '../../src/formats/index.ts';

const LINES = ['def main():', '    load()', '    run()', '    run()', '    report()'];
const FILES = { 'app.py': LINES.join('\n') + '\n', 'notes.txt': 'keep me\n' };
/** `N:TAG` of line N (1-based) of `lines`. */
const cite = (n: number, lines: readonly string[] = LINES) => `${n}:${lineTag(lines[n - 1])}`;
const edit = (c: Record<string, unknown>) => JSON.stringify({ tool: 'edit', path: 'app.py', ...c });
const apply = (calls: string[], files: Record<string, string> = FILES): ApplyResult =>
  applyRequest({ format: 'hashline', files, response: calls.join('\n') + '\n' });
const codes = (r: ApplyResult) => r.edits.map((e) => e.code ?? e.status);

/** Nothing was written: every given file is as it was, and nothing was created. */
function untouched(r: ApplyResult, files: Record<string, string> = FILES): void {
  assert.deepEqual(r.files, files);
  assert.equal(r.ok, false);
}

describe('hashline: tags decide the place', () => {
  it('a tag of another line, or of the line as it was before the file changed, is refused', () => {
    const r = apply([
      edit({ line: 2, tag: lineTag('    run()'), new: 'x' }),
      edit({ line: 5, tag: lineTag('    report(verbose)'), new: 'x' }),
      edit({ lines: `${cite(3)}\n4:${lineTag('    stop()')}`, new: 'x' }),
    ]);
    untouched(r);
    assert.ok(codes(r).every((c) => c === 'tag-mismatch'), JSON.stringify(codes(r)));
  });

  it('two lines with the same text and tag are told apart by their numbers, not moved', () => {
    const r = apply([edit({ line: 4, tag: lineTag('    run()'), new: '    run(again=True)' })]);
    assert.deepEqual(r.files, { ...FILES, 'app.py': FILES['app.py'].replace('    run()\n    report', '    run(again=True)\n    report') });
  });

  it('a line number past the end, a gap and a repeat are refused', () => {
    const r = apply([
      edit({ line: 9, tag: 'AAAA', new: 'x' }),
      edit({ lines: `${cite(1)}\n${cite(3)}`, new: 'x' }),
      edit({ lines: `${cite(2)}\n${cite(2)}`, new: 'x' }),
    ]);
    untouched(r);
    assert.deepEqual(codes(r), ['no-match', 'remove-number-gap', 'remove-number-repeat']);
  });

  it('a stale file tag in whole-file mode refuses every edit that relies on it', () => {
    const r = apply([edit({ file_tag: fileTag(['def main():']), range: [2, 3], new: 'x' })]);
    untouched(r);
    assert.deepEqual(codes(r), ['stale-file']);
  });

  it('a call broken mid-way is refused; a write quoting an edit call writes that text only', () => {
    const quoted = edit({ line: 1, tag: lineTag('keep me'), new: 'lost' }).replace('app.py', 'notes.txt');
    const r = apply([edit({ line: 2, tag: lineTag(LINES[1]), new: 'x', }).slice(0, -1) + ',}', JSON.stringify({ tool: 'write', path: 'example.json', content: quoted + '\n' })]);
    assert.deepEqual(r.files, { ...FILES, 'example.json': quoted + '\n' });
    assert.deepEqual(codes(r), ['malformed', 'applied']);
  });
});

describe('hashline: elisions', () => {
  it('new lines that elide the cited code are refused', () => {
    for (const placeholder of ['    # ... existing code ...', '    # rest of function unchanged', '    ...']) {
      const r = apply([edit({ lines: [cite(1), cite(2), cite(3), cite(4), cite(5)], new: ['def main(fast=False):', '    load()', placeholder] })]);
      untouched(r);
      assert.deepEqual(codes(r), ['elided'], placeholder);
    }
  });

  it('a write that elides the file it replaces is refused; Python\'s ... as a body is code', () => {
    const r = apply([JSON.stringify({ tool: 'write', path: 'app.py', content: 'def main():\n    # ... existing code ...\n' }), JSON.stringify({ tool: 'write', path: 'stubs.py', content: 'def f():\n    ...\n' })]);
    assert.deepEqual(r.files, { ...FILES, 'stubs.py': 'def f():\n    ...\n' });
    assert.deepEqual(codes(r), ['elided', 'applied']);
  });
});

describe('hashline: odd paths', () => {
  it('another case, \\ and ./ name the given file', () => {
    const files = { 'src/App.js': 'a\nb\n' };
    const r = apply(
      [
        JSON.stringify({ tool: 'edit', path: 'SRC\\app.js', line: 1, tag: lineTag('a'), new: 'A' }),
        JSON.stringify({ tool: 'edit', path: './src/APP.JS', line: 2, tag: lineTag('b'), new: 'B' }),
      ],
      files,
    );
    assert.deepEqual(r.files, { 'src/App.js': 'A\nB\n' });
  });

  it('paths that leave the project are refused', () => {
    const r = apply([
      JSON.stringify({ tool: 'write', path: '/tmp/example.c', content: 'x\n' }),
      JSON.stringify({ tool: 'write', path: 'a/../../up.txt', content: 'x\n' }),
      JSON.stringify({ tool: 'write', path: 'C:\\x.txt', content: 'x\n' }),
    ]);
    untouched(r);
    assert.deepEqual(codes(r), ['unsafe-path', 'unsafe-path', 'unsafe-path']);
  });

  it('files named __proto__ and constructor are files like any other (JSON request)', () => {
    const files = JSON.parse('{"__proto__": "x = 1\\n", "constructor": "c\\n"}');
    const r = apply(
      [
        JSON.stringify({ tool: 'edit', path: '__proto__', line: 1, tag: lineTag('x = 1'), new: 'x = 2' }),
        JSON.stringify({ tool: 'write', path: 'toString', content: 't\n' }),
      ],
      files,
    );
    assert.equal(r.ok, true, JSON.stringify(r.edits));
    assert.deepEqual(Object.keys(r.files).sort(), ['__proto__', 'constructor', 'toString']);
    assert.equal(Object.getOwnPropertyDescriptor(r.files, '__proto__')?.value, 'x = 2\n');
    assert.deepEqual([r.files.constructor, r.files.toString], ['c\n', 't\n']);
  });
});

describe('hashline: many failing calls', () => {
  it('2,000 calls with tags of lines that are not there fail each; a correct call among them applies', () => {
    const lines = Array.from({ length: 20_000 }, (_, i) => `const value${i} = compute(${i});`);
    const files = { 'big.js': lines.join('\n') + '\n' };
    const calls = Array.from({ length: 2000 }, (_, k) => JSON.stringify({ tool: 'edit', path: 'big.js', line: k * 10 + 1, tag: lineTag(`const value${k} = compote(${k});`), new: 'x' }));
    calls.splice(1000, 0, JSON.stringify({ tool: 'edit', path: 'big.js', line: 8, tag: lineTag(lines[7]), new: 'const seven = 7;' }));
    const r = apply(calls, files);
    assert.equal(r.edits.length, 2001);
    assert.deepEqual(codes(r).filter((c) => c !== 'tag-mismatch'), ['applied']);
    assert.equal(r.files['big.js'], files['big.js'].replace(`${lines[7]}\n`, 'const seven = 7;\n'));
  });
});

describe('hashline: arguments as JSON text', () => {
  const held = (c: Record<string, unknown>) =>
    JSON.stringify({ tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'edit', arguments: JSON.stringify({ path: 'app.py', ...c }) } }] });

  it('a call whose arguments are JSON text applies exactly where the object form would', () => {
    const c = { line: 4, tag: lineTag('    run()'), new: '    run("again")\n    done()' };
    const a = apply([held(c)]);
    const b = apply([edit(c)]);
    assert.deepEqual(a.files, b.files);
    assert.deepEqual(codes(a), ['applied']);
  });

  it('a key twice in the arguments text is refused; text that is not JSON holds no call', () => {
    const twice = held({ line: 2, tag: lineTag('    load()'), new: 'x' }).replace('\\"line\\":2', '\\"line\\":2,\\"line\\":3');
    const r = apply([twice]);
    untouched(r);
    assert.deepEqual(codes(r), ['malformed']);
    const broken = apply([held({ line: 2, tag: lineTag('    load()'), new: 'x' }).replace(',\\"new\\"', ' \\"new\\"')]);
    assert.deepEqual(broken.files, FILES);
    assert.deepEqual(codes(broken), []);
  });
});

describe('hashline: calls that are not read, and lines replaced by themselves', () => {
  it('a call without its braces is malformed, not a reply without edits', () => {
    const response = `"tool": "edit",\n"path": "app.py",\n"line": 2,\n"tag": "${lineTag(LINES[1])}",\n"new": "    go()"\n`;
    const r = applyRequest({ format: 'hashline', files: FILES, response });
    untouched(r);
    assert.deepEqual(r.diagnostics.map((d) => d.code), ['malformed']);
  });

  it('a read call alone is not an edit', () => {
    const r = apply([JSON.stringify({ tool: 'read', path: 'app.py' })]);
    assert.equal(r.ok, true);
    assert.deepEqual(r.diagnostics.map((d) => d.code), ['no-edits']);
  });

  it('a line replaced by itself applies with no-change', () => {
    const r = apply([edit({ line: 2, tag: lineTag(LINES[1]), new: LINES[1] })]);
    assert.equal(r.ok, true);
    assert.deepEqual(r.edits[0].warnings.map((w) => w.code), ['no-change']);
    assert.deepEqual(r.files, FILES);
  });
});
