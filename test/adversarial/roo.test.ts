// Replies written to hurt, in Roo Code's apply_diff: each must apply where it
// belongs or fail with its reason, never land elsewhere, never lose a line.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { hunkBody, indentationCases, sides } from './indentation.ts';
import { invisibleCases } from './invisible.ts';
import { applyRequest } from '../../src/formats/index.ts';
import type { ApplyResult, EngineOptions } from '../../src/core/types.ts';

const APP = 'def main():\n    load()\n    run()\n    report()\n';
const apply = (response: string, files: Record<string, string> = { 'app.py': APP }, options?: EngineOptions): ApplyResult =>
  applyRequest({ format: 'roo', files, response, ...(options ? { options } : {}) });
/** One block; `start` is its `:start_line:` hint (none when null). */
const block = (start: number | null, search: string[], replace: string[]) =>
  ['<<<<<<< SEARCH', ...(start === null ? [] : [`:start_line:${start}`, '-------']), ...search, '=======', ...replace, '>>>>>>> REPLACE', ''].join('\n');
const call = (path: string, ...blocks: string[]) => `<apply_diff>\n<path>${path}</path>\n<diff>\n${blocks.join('')}</diff>\n</apply_diff>\n`;

/** Nothing was written: every given file is as it was, and nothing was created. */
function untouched(r: ApplyResult, files: Record<string, string> = { 'app.py': APP }): void {
  assert.deepEqual(r.files, files);
  assert.equal(r.ok, false);
}

const BODY = ['def main():', '    load()', '    run()', '    report()'];

describe('roo: elisions', () => {
  for (const placeholder of ['    # ... existing code ...', '    # rest of function unchanged', '    ...', '    # ...']) {
    it(`refuses ${JSON.stringify(placeholder)} standing for lines the REPLACE leaves out`, () => {
      const r = apply(call('app.py', block(1, BODY, ['def main(verbose=False):', '    load(verbose)', placeholder])));
      untouched(r);
      assert.equal(r.edits[0].code, 'elided');
    });
  }

  it('refuses an elision in a new file', () => {
    untouched(apply(call('util.py', block(null, [], ['def helper():', '    # ... existing code ...']))));
  });

  it('takes a spread, Python `...` as a body, and a comment the file has as code', () => {
    const files = { 'a.py': 'class A:\n    # ... existing code ...\n    pass\n' };
    const r = apply(call('a.py', block(3, ['    pass'], ['    def run(self, *args):', '        ...', '    # ... existing code ...'])), files);
    assert.equal(r.files['a.py'], 'class A:\n    # ... existing code ...\n    def run(self, *args):\n        ...\n    # ... existing code ...\n');
    assert.equal(apply(call('a.js', block(1, ['f(a, b);'], ['f(...args);'])), { 'a.js': 'f(a, b);\n' }).files['a.js'], 'f(...args);\n');
  });
});

describe('roo: end markers in content', () => {
  it('an unescaped REPLACE marker in the REPLACE lines, then the real one: ambiguous, never cut', () => {
    const reply = call('app.py', block(4, ['    report()'], ['    print("the end marker is")', '>>>>>>> REPLACE', '    print("That is all.")']));
    const r = apply(reply);
    untouched(r);
    assert.equal(r.edits[0].code, 'ambiguous-end');
    assert.deepEqual(r.diagnostics, []);
  });

  it('escaped, the same line is content', () => {
    const r = apply(call('app.py', block(4, ['    report()'], ['    report()', '\\>>>>>>> REPLACE'])));
    assert.equal(r.files['app.py'], APP + '>>>>>>> REPLACE\n');
  });

  it('a repeated marker is ambiguous, and the next call still applies to its own file', () => {
    const files = { 'app.py': APP, 'b.txt': 'b\n' };
    const reply = call('app.py', block(3, ['    run()'], ['    run(fast=True)']).replace('>>>>>>> REPLACE\n', '>>>>>>> REPLACE\n>>>>>>> REPLACE\n')) + call('b.txt', block(1, ['b'], ['B']));
    const r = apply(reply, files);
    assert.deepEqual(r.edits.map((e) => [e.file, e.status, e.code]), [['app.py', 'failed', 'ambiguous-end'], ['b.txt', 'applied', null]]);
    assert.deepEqual(r.files, { 'app.py': APP, 'b.txt': 'B\n' });
  });

  it('a REPLACE marker in the SEARCH lines: ambiguous', () => {
    const r = apply('<<<<<<< SEARCH\n:start_line:2\n-------\n    load()\n>>>>>>> REPLACE\n    run()\n=======\n    go()\n>>>>>>> REPLACE\n');
    untouched(r);
    assert.equal(r.edits[0].code, 'ambiguous-end');
  });

  it('an unescaped divider in the REPLACE lines: malformed, never split', () => {
    const files = { 'R.md': 'Title\n-----\n' };
    const r = apply(block(1, ['Title', '-----'], ['Title', '=======']), files);
    untouched(r, files);
    assert.equal(r.edits[0].code, 'malformed');
  });

  it('a closing tag inside a block that never reaches its marker cuts it: nothing applies', () => {
    const r = apply('<apply_diff>\n<path>app.py</path>\n<diff>\n<<<<<<< SEARCH\n:start_line:3\n-------\n    run()\n=======\n    go()\n</diff>\n</apply_diff>\n');
    untouched(r);
    assert.equal(r.edits[0].code, 'missing-end-marker');
  });
});

describe('roo: odd paths', () => {
  it('a path in another case, with \\ or ./ names the given file, and creates nothing', () => {
    const files = { 'src/App.py': 'a = 1\n' };
    for (const path of ['src/app.py', 'src\\App.py', './src/App.py', '.\\SRC\\APP.PY', ' src/App.py ']) {
      const r = apply(call(path, block(1, ['a = 1'], ['a = 2'])), files);
      assert.deepEqual(r.files, { 'src/App.py': 'a = 2\n' }, path);
    }
  });

  it('paths that leave the project are refused', () => {
    for (const path of ['../secrets.txt', '/etc/passwd', 'src/../../x.txt', 'C:\\Windows\\x.txt']) {
      const r = apply(call(path, block(null, [], ['stolen'])));
      untouched(r);
      assert.equal(r.edits[0].code, 'unsafe-path', path);
    }
  });

  it('a path that was not given is not found, and names no other file', () => {
    const r = apply(call('Makefile', block(1, ['def main():'], ['def main(x):'])));
    untouched(r);
    assert.equal(r.edits[0].code, 'file-not-found');
  });

  it('a path with blanks creates that file', () => {
    const r = apply(call('docs/My Notes.md', block(null, [], ['# Notes'])));
    assert.deepEqual(r.files, { 'app.py': APP, 'docs/My Notes.md': '# Notes\n' });
  });

  it('bare blocks with two files given name neither', () => {
    const files = { 'a.txt': 'one\n', 'b.txt': 'one\n' };
    const r = apply(block(1, ['one'], ['two']), files);
    untouched(r, files);
    assert.equal(r.edits[0].code, 'missing-path');
  });
});

describe('roo: matching traps', () => {
  const TOTALS = 'def total(items, tax_rate):\n    return calculate_total(items, tax_rate)\n';

  it('one misspelt word with a correct hint is placed there', () => {
    const r = apply(block(2, ['    return calculate_totl(items, tax_rate)'], ['    return round(calculate_total(items, tax_rate), 2)']), { 't.py': TOTALS });
    assert.equal(r.files['t.py'], 'def total(items, tax_rate):\n    return round(calculate_total(items, tax_rate), 2)\n');
    assert.equal(r.edits[0].match, 'fuzzy');
  });

  it('a changed number is another line, however similar', () => {
    const files = { 'l.py': 'MAX_CONNECTIONS_PER_WORKER = compute_limit(workers, 16)\n' };
    const r = apply(block(1, ['MAX_CONNECTIONS_PER_WORKER = compute_limit(workers, 18)'], ['MAX_CONNECTIONS_PER_WORKER = 0']), files);
    untouched(r, files);
  });

  it('similar near the hint but in the file unchanged beyond the window: not taken', () => {
    const exact = '    return calculate_total(items, tax_rate)';
    const files = { 'f.py': ['    return calculate_total(items, tax_ratez)', ...Array.from({ length: 60 }, (_, k) => `x${k} = ${k}`), exact, ''].join('\n') };
    const r = apply(block(1, [exact], ['    return 0']), files);
    untouched(r, files);
    assert.match(r.edits[0].message, /occur unchanged at line 62/);
  });

  it('similar one line above and one line below the hint: ambiguous', () => {
    const line = '    result = lookup_value(table, key)';
    const files = { 'f.py': `${line}\nprint(result)\n${line}\n` };
    const r = apply(block(2, ['    result = lookup_valeu(table, key)'], ['    result = 0']), files);
    untouched(r, files);
    assert.equal(r.edits[0].code, 'ambiguous');
  });

  it('without a hint nothing is placed by similarity', () => {
    const files = { 't.py': TOTALS };
    untouched(apply(block(null, ['    return calculate_totl(items, tax_rate)'], ['    return 0']), files), files);
  });

  it('no closest window is named when none shares half the text', () => {
    const r = apply(block(1, ['completely_unrelated_text_here()'], ['x']));
    untouched(r);
    assert.deepEqual(r.edits[0].candidates, []);
  });
});

describe('roo: indentation traps', () => {
  const CART = 'class Cart:\n    def total(self):\n        return sum(self.items)\n';
  const search = ['def total(self):', '    return sum(self.items)'];
  const want = 'class Cart:\n    def total(self):\n        return round(sum(self.items), 2)\n';

  it('REPLACE written at the SEARCH indentation is re-indented once', () => {
    assert.equal(apply(block(2, search, ['def total(self):', '    return round(sum(self.items), 2)']), { 'cart.py': CART }).files['cart.py'], want);
  });

  it('REPLACE already written at the file indentation is not re-indented twice', () => {
    assert.equal(apply(block(2, search, ['    def total(self):', '        return round(sum(self.items), 2)']), { 'cart.py': CART }).files['cart.py'], want);
  });

  it('REPLACE indented like neither fails, and the file is untouched', () => {
    const r = apply(block(2, search, ['  def total(self):', '      return round(sum(self.items), 2)']), { 'cart.py': CART });
    untouched(r, { 'cart.py': CART });
    assert.equal(r.edits[0].code, 'no-match');
  });

  it('a fuzzy match at the right indentation takes the REPLACE lines as written', () => {
    const files = { 'c.py': 'class C:\n    def total(self, items, tax_rate):\n        return calculate_total(items, tax_rate)\n' };
    const r = apply(block(3, ['        return calculate_totl(items, tax_rate)'], ['        return round(calculate_total(items, tax_rate), 2)']), files);
    assert.equal(r.files['c.py'], 'class C:\n    def total(self, items, tax_rate):\n        return round(calculate_total(items, tax_rate), 2)\n');
    assert.equal(r.edits[0].match, 'fuzzy');
  });
});

describe('roo: differences that do not show', () => {
  invisibleCases('roo', (path, old, replacement, line) => call(path, block(line, old, replacement)), false, true);
  invisibleCases('roo', (path, old, replacement) => call(path, block(null, old, replacement)), false, true);
});

describe('roo: a message advises correcting only the hint the reply wrote', () => {
  // The block's lines are at 70-71, out of the window of the hint at 2.
  const lines = Array.from({ length: 80 }, (_, i) => `line_${i + 1} = ${i + 1}`);
  const file = `${lines.join('\n')}\n`;
  const far = ['line_70 = 70', 'line_71 = 71'];
  const files = { 'app.py': file };
  it('a :start_line: hint is corrected as :start_line:', () => {
    const r = apply(call('app.py', block(2, far, ['x = 0'])), files);
    assert.equal(r.edits[0].code, 'no-match');
    assert.match(r.edits[0].message, /correct :start_line: to 70/);
  });
  it('a <start_line> element is corrected as <start_line>, not :start_line:', () => {
    const reply = `<apply_diff>\n<path>app.py</path>\n<diff>\n<content>\n${block(null, far, ['x = 0'])}</content>\n<start_line>2</start_line>\n</diff>\n</apply_diff>\n`;
    const r = apply(reply, files);
    assert.equal(r.edits[0].code, 'no-match', r.edits[0].message);
    assert.deepEqual(r.files, files);
    assert.match(r.edits[0].message, /correct <start_line> to 70/);
    assert.doesNotMatch(r.edits[0].message, /:start_line:/);
  });
  it('numbered SEARCH lines are not told to correct a :start_line: they do not have', () => {
    const r = apply(call('app.py', block(null, ['2 | line_70 = 70', '3 | line_71 = 71'], ['x = 0'])), files);
    assert.equal(r.edits[0].code, 'no-match', r.edits[0].message);
    assert.deepEqual(r.files, files);
    assert.match(r.edits[0].message, /number the SEARCH lines from 70/);
    assert.doesNotMatch(r.edits[0].message, /correct :start_line:/);
  });
  it('a hint past the end names the hint as written', () => {
    const r = apply(call('app.py', block(null, ['900 | line_70 = 70x'], ['x = 0'])), files);
    assert.equal(r.edits[0].code, 'no-match');
    assert.doesNotMatch(r.edits[0].message, /:start_line:/);
  });
});

describe('roo: re-indented replies', () => {
  indentationCases('roo', (path, c) => call(path, block(c.line, sides(c).old, sides(c).new)));
});
