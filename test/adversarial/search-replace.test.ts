// Replies written to hurt, in aider's SEARCH/REPLACE blocks: each must apply
// where it belongs or fail with its reason, never land elsewhere, never lose
// a line.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { hunkBody, indentationCases, sides } from './indentation.ts';
import { invisibleCases } from './invisible.ts';
import { applyRequest } from '../../src/formats/index.ts';
import type { ApplyResult } from '../../src/core/types.ts';
import { anchoredPlaces } from '../../src/core/anchors.ts';
import { SEARCH_BUDGET_PER_EDIT } from '../../src/core/match.ts';
import { helpers } from '../core/fixtures-helpers.ts';

const APP = 'def main():\n    load()\n    run()\n    report()\n';
const apply = (response: string, files: Record<string, string> = { 'app.py': APP }, format = 'search-replace'): ApplyResult =>
  applyRequest({ format, files, response });
const block = (path: string | null, search: string[], replace: string[], fence = ['```', '```']) =>
  [...(path === null ? [] : [path]), fence[0], '<<<<<<< SEARCH', ...search, '=======', ...replace, '>>>>>>> REPLACE', fence[1], ''].join('\n');

/** Nothing was written: every given file is as it was, and nothing was created. */
function untouched(r: ApplyResult, files: Record<string, string> = { 'app.py': APP }): void {
  assert.deepEqual(r.files, files);
  assert.equal(r.ok, false);
}

const BODY = ['def main():', '    load()', '    run()', '    report()'];

describe('search-replace: elisions', () => {
  for (const placeholder of ['    # ... existing code ...', '    # rest of function unchanged', '    ...', '    # ...', '    // ... rest of the code ...']) {
    it(`refuses ${JSON.stringify(placeholder)} standing for lines the REPLACE leaves out`, () => {
      const r = apply(block('app.py', BODY, ['def main(verbose=False):', '    load(verbose)', placeholder]));
      untouched(r);
      assert.equal(r.edits[0].code, 'elided');
      assert.match(r.edits[0].message, /write the lines in full/);
    });
  }

  it('refuses an elision in a new file', () => {
    untouched(apply(block('util.py', [], ['def helper():', '    # ... existing code ...'])));
  });

  it("keeps aider's `...` on both sides: the lines between are kept, not lost", () => {
    const r = apply(block('app.py', ['def main():', '...', '    report()'], ['def main(verbose=False):', '...', '    report()', '    done()']));
    assert.equal(r.files['app.py'], 'def main(verbose=False):\n    load()\n    run()\n    report()\n    done()\n');
    assert.equal(r.ok, true);
  });

  it('takes Python `...` as a body, a spread, and a comment the file has as code', () => {
    const files = { 'a.py': 'class A:\n    # ... existing code ...\n    pass\n' };
    const r = apply(block('a.py', ['    pass'], ['    def run(self, *args):', '        ...', '    # ... existing code ...']), files);
    assert.equal(r.files['a.py'], 'class A:\n    # ... existing code ...\n    def run(self, *args):\n        ...\n    # ... existing code ...\n');
    const js = { 'a.js': 'f(a, b);\n' };
    assert.equal(apply(block('a.js', ['f(a, b);'], ['f(...args);']), js).files['a.js'], 'f(...args);\n');
  });
});

describe('search-replace: end markers in content', () => {
  it('a literal end marker in the REPLACE lines, then the real one: ambiguous, never cut', () => {
    const reply = 'app.py\n```\n<<<<<<< SEARCH\n    report()\n=======\n    print("Example: the end marker is")\n>>>>>>> REPLACE\n    print("That is all.")\n>>>>>>> REPLACE\n```\n';
    const r = apply(reply);
    untouched(r);
    assert.equal(r.edits[0].code, 'ambiguous-end');
    assert.deepEqual(r.diagnostics, []);
  });

  it('a repeated end marker: ambiguous too, and the next block still applies to its own file', () => {
    const files = { 'app.py': APP, 'b.txt': 'b\n' };
    const reply = block('app.py', ['    run()'], ['    run(fast=True)']).replace('>>>>>>> REPLACE\n', '>>>>>>> REPLACE\n>>>>>>> REPLACE\n') + block('b.txt', ['b'], ['B']);
    const r = apply(reply, files);
    assert.deepEqual(r.edits.map((e) => [e.file, e.status, e.code]), [['app.py', 'failed', 'ambiguous-end'], ['b.txt', 'applied', null]]);
    assert.deepEqual(r.files, { 'app.py': APP, 'b.txt': 'B\n' });
  });

  it('an end marker in the SEARCH lines: ambiguous, not missing-divider', () => {
    const reply = 'app.py\n```\n<<<<<<< SEARCH\n    load()\n>>>>>>> REPLACE\n    run()\n=======\n    go()\n>>>>>>> REPLACE\n```\n';
    const r = apply(reply);
    untouched(r);
    assert.equal(r.edits[0].code, 'ambiguous-end');
  });

  it('a head among the REPLACE lines cuts the block: nothing applies', () => {
    const reply = 'app.py\n```\n<<<<<<< SEARCH\n    run()\n=======\n    print("use:")\n<<<<<<< SEARCH\n    run()\n>>>>>>> REPLACE\n```\n';
    const r = apply(reply);
    untouched(r);
    assert.deepEqual(r.edits.map((e) => e.code), ['missing-end-marker', 'missing-divider']);
  });

  it('divider lines in content that the markers cannot tell apart: malformed, never split', () => {
    const files = { 'R.md': 'Title\n=======\nOld.\n' };
    untouched(apply(block('R.md', ['Title', '=======', 'Old.'], ['Title', '=======', 'New.']), files), files);
  });
});

describe('search-replace: odd paths', () => {
  for (const name of ['Makefile', 'Dockerfile', 'LICENSE', 'README', 'Procfile', 'Gemfile', '.gitignore', 'docs/My Notes.md']) {
    for (const gap of ['', '\n']) {
      it(`${name}${gap ? ' with a blank line before the fence' : ''} names ${name}, never the only file`, () => {
        const r = apply(`${name}\n${gap}` + block(null, [], ['line']));
        assert.equal(r.files['app.py'], APP);
        assert.equal(r.files[name], 'line\n');
        assert.equal(r.edits[0].file, name);
      });
    }
  }

  for (const label of ['Output:', '## Summary', 'Sure.', 'src/app.py...', 'https://example.com/app.py', 'Done\n']) {
    it(`${JSON.stringify(label)} where the path goes is missing-path, never the only file`, () => {
      const r = apply(block(label, ['    run()'], ['    run(fast=True)']));
      untouched(r);
      assert.equal(r.edits[0].code, 'missing-path');
    });
  }

  it("after a path line that is not one, later blocks without a path never take the first block's file", () => {
    const files = { 'app.py': APP, 'util.py': 'x = 1\n' };
    const reply = block('app.py', ['    load()'], ['    load(cache=True)']) + block('util.py...', ['x = 1'], ['x = 2']) + block(null, ['    run()'], ['    run(fast=True)']);
    const r = apply(reply, files);
    assert.deepEqual(r.edits.map((e) => e.code), [null, 'missing-path', 'missing-path']);
    assert.deepEqual(r.files, { 'app.py': APP.replace('load()', 'load(cache=True)'), 'util.py': 'x = 1\n' });
  });

  it('a path in another case, with \\ or ./ names the given file, and creates nothing', () => {
    const files = { 'src/App.py': 'a = 1\n' };
    for (const path of ['src/app.py', 'src\\App.py', './src/App.py', '.\\SRC\\APP.PY', '**`SRC/App.py`**:']) {
      const r = apply(block(path, ['a = 1'], ['a = 2']), files);
      assert.deepEqual(r.files, { 'src/App.py': 'a = 2\n' }, path);
    }
  });

  it('a path on the opening fence line names that file: new lines never go to the only file', () => {
    const r = apply('```src/helpers.py\n<<<<<<< SEARCH\n=======\ndef helper():\n    return 1\n>>>>>>> REPLACE\n```\n');
    assert.deepEqual(r.files, { 'app.py': APP, 'src/helpers.py': 'def helper():\n    return 1\n' });
  });

  it('paths that leave the project are refused', () => {
    for (const path of ['../secrets.txt', '/etc/passwd', 'src/../../x.txt']) {
      const r = apply(block(path, [], ['stolen']));
      untouched(r);
      assert.equal(r.edits[0].code, 'unsafe-path', path);
    }
  });

  it('two files with one name: the name alone names neither', () => {
    const files = { 'a/util.py': 'x = 1\n', 'b/util.py': 'x = 1\n' };
    const r = apply(block('util.py', ['x = 1'], ['x = 2']), files);
    assert.equal(r.edits[0].code, 'file-not-found');
    assert.deepEqual(r.files, files);
  });

  it('a chat answer read by auto never edits the only file', () => {
    const r = apply('Here is how it looks:\n```\n<<<<<<< SEARCH\n    run()\n=======\n    run(fast=True)\n>>>>>>> REPLACE\n```\n', { 'app.py': APP }, 'auto');
    assert.equal(r.files['app.py'], APP);
  });
});

describe("search-replace: aider's fences", () => {
  const files = { 'src/a.py': 'A = "```"\n', 'src/b.py': 'B = 1\n' };
  for (const [open, close] of [['<source>python', '</source>'], ['<code>', '</code>'], ['<pre>', '</pre>'], ['<codeblock>', '</codeblock>'], ['<sourcecode>', '</sourcecode>'], ['````python', '````'], ['~~~', '~~~']]) {
    it(`${open} ... ${close}: the path above it is read, in both layouts`, () => {
      const diff = apply(block('src/b.py', ['B = 1'], ['B = 2'], [open, close]), files);
      assert.deepEqual(diff.files, { ...files, 'src/b.py': 'B = 2\n' }, open);
      const fenced = apply([open, 'src/b.py', '<<<<<<< SEARCH', 'B = 1', '=======', 'B = 2', '>>>>>>> REPLACE', close, ''].join('\n'), files);
      assert.deepEqual(fenced.files, { ...files, 'src/b.py': 'B = 2\n' }, open);
    });
  }

  it('an aider reply with tag fences is detected as search-replace by auto', () => {
    const r = apply(block('src/b.py', ['B = 1'], ['B = 2'], ['<source>python', '</source>']), files, 'auto');
    assert.equal(r.format, 'search-replace');
    assert.equal(r.files['src/b.py'], 'B = 2\n');
  });
});

describe('search-replace: indentation traps', () => {
  const CART = 'class Cart:\n    def total(self):\n        return sum(self.items)\n';
  const search = ['def total(self):', '    return sum(self.items)'];
  const want = 'class Cart:\n    def total(self):\n        return round(sum(self.items), 2)\n';

  it('REPLACE written at the SEARCH indentation is shifted once', () => {
    const r = apply(block('cart.py', search, ['def total(self):', '    return round(sum(self.items), 2)']), { 'cart.py': CART });
    assert.equal(r.files['cart.py'], want);
  });

  it('REPLACE already written at the file indentation is not shifted twice', () => {
    const r = apply(block('cart.py', search, ['    def total(self):', '        return round(sum(self.items), 2)']), { 'cart.py': CART });
    assert.equal(r.files['cart.py'], want);
  });

  it('REPLACE indented like neither fails, and the file is untouched', () => {
    const r = apply(block('cart.py', search, ['  def total(self):', '      return round(sum(self.items), 2)']), { 'cart.py': CART });
    untouched(r, { 'cart.py': CART });
    assert.equal(r.edits[0].code, 'no-match');
  });

  it('a shift that fits two places is ambiguous', () => {
    const files = { 'j.py': 'if a:\n    run()\nif b:\n        run()\n' };
    const r = apply(block('j.py', ['run()'], ['stop()']), files);
    untouched(r, files);
    assert.equal(r.edits[0].code, 'ambiguous');
  });

  it('a shift that is not the same for every line does not match', () => {
    const files = { 'j.py': 'if a:\n    run()\n        stop()\n' };
    untouched(apply(block('j.py', ['run()', 'stop()'], ['go()']), files), files);
  });

  it('the REPLACE lines of a tab-indented file take its tabs', () => {
    const files = { 'm.go': 'func main() {\n\tfmt.Println("hi")\n}\n' };
    const r = apply(block('m.go', ['    fmt.Println("hi")'], ['    fmt.Println("hello")', '    os.Exit(0)']), files);
    assert.equal(r.files['m.go'], 'func main() {\n\tfmt.Println("hello")\n\tos.Exit(0)\n}\n');
  });
});

describe('search-replace: differences that do not show', () => {
  invisibleCases('search-replace', (path, old, replacement) => block(path, old, replacement));
});

describe('search-replace: re-indented replies', () => {
  indentationCases('search-replace', (path, c) => block(path, sides(c).old, sides(c).new));
});

describe("search-replace: Cline's replace_in_file", () => {
  const call = (path: string | null, ...blocks: string[][]) =>
    ['<replace_in_file>', ...(path === null ? [] : [`<path>${path}</path>`]), '<diff>', ...blocks.flat(), '</diff>', '</replace_in_file>', ''].join('\n');
  const cline = (search: string[], replace: string[]) => ['------- SEARCH', ...search, '=======', ...replace, '+++++++ REPLACE'];
  const FILES = { 'app.py': APP, 'other.py': APP };

  it("a block whose first and last lines match but whose middle does not is refused (Cline's block anchor would replace it)", () => {
    const r = apply(call('app.py', cline(['def main():', '    setup_everything()', '    run()'], ['def main():', '    run()'])));
    untouched(r);
    assert.equal(r.edits[0].code, 'no-match');
  });

  it('a call never edits a file named on a line inside it, nor the only file given when it names none', () => {
    const named = apply(call('app.py', ['other.py'], cline(['    run()'], ['    go()'])), FILES);
    assert.deepEqual(named.files, { ...FILES, 'app.py': APP.replace('run', 'go') });
    const none = apply(call(null, cline(['    run()'], ['    go()'])));
    untouched(none);
    assert.equal(none.edits[0].code, 'missing-path');
  });

  it('the closing tags in REPLACE lines, or a block cut by </diff>, never take the rest of the reply as content', () => {
    const cut = apply(call('app.py', ['------- SEARCH', '    run()', '=======', '    go()']) + call('app.py', cline(['    load()'], ['    fetch()'])));
    assert.deepEqual(cut.edits.map((e) => e.code ?? e.status), ['missing-end-marker', 'applied']);
    assert.equal(cut.files['app.py'], APP.replace('load', 'fetch'));
    const eof = apply(['<replace_in_file>', '<path>app.py</path>', '<diff>', '------- SEARCH', '    run()', '=======', '    go()', ''].join('\n'));
    untouched(eof);
    assert.equal(eof.edits[0].code, 'truncated');
  });

  it('a SEARCH that occurs twice is refused though Cline would take the first', () => {
    const files = { 'app.py': 'x = 1\nx = 1\n' };
    const r = apply(call('app.py', cline(['x = 1'], ['x = 2'])), files);
    untouched(r, files);
    assert.equal(r.edits[0].code, 'ambiguous');
  });

  it('blocks out of file order apply in place, each against the file as given', () => {
    const r = apply(call('app.py', cline(['    report()'], ['    summary()']), cline(['    load()'], ['    fetch()'])));
    assert.deepEqual(r.edits.map((e) => e.code ?? e.status), ['applied', 'applied']);
    assert.equal(r.files['app.py'], APP.replace('load', 'fetch').replace('report', 'summary'));
  });

  it('auto reads a call as this format, even with aider markers inside it', () => {
    const r = apply(call('app.py', ['<<<<<<< SEARCH', '    run()', '=======', '    go()', '>>>>>>> REPLACE']), { 'app.py': APP }, 'auto');
    assert.equal(r.format, 'search-replace');
    assert.equal(r.files['app.py'], APP.replace('run', 'go'));
  });
});

describe('search-replace: markers without a block, quotes, and blocks that change nothing', () => {
  const reply = (head: string, divider: string, end: string) =>
    ['app.py', '```', head, '    run()', divider, '    go()', end, '```', ''].join('\n');
  for (const [head, divider, end] of [
    ['<<<< SEARCH', '====', '>>>> REPLACE'],
    ['<<< SEARCH', '===', '>>> REPLACE'],
    ['<<<<<<< ORIGINAL', '=======', '>>>>>>> UPDATED'],
    ['<<<<<<<<<<< SEARCH', '===========', '>>>>>>>>>>> REPLACE'],
  ]) {
    it(`${head} ... ${end}: not read, and not "no edits": malformed at the head, nothing written`, () => {
      const r = apply(reply(head, divider, end));
      untouched(r);
      assert.deepEqual(r.diagnostics.map((d) => d.code), ['malformed']);
      const d = r.diagnostics[0];
      assert.equal(d.reply?.start.line, 3);
      assert.match(d.message, /^reply line 3, column 1: /);
      assert.match(d.message, /<<<<<<< SEARCH/, 'says what was expected');
    });
  }

  it('a lone end marker is enough to say a block was meant', () => {
    const r = apply('Done, see below.\n>>>> REPLACE\n');
    untouched(r);
    assert.deepEqual(r.diagnostics.map((d) => d.code), ['malformed']);
  });

  it('prose that names the markers, a Markdown rule and a setext heading are a chat answer', () => {
    const r = apply(
      'Use a <<<<<<< SEARCH line, the code, =======, the new code and a >>>>>>> REPLACE line.\n\n---\n\nSEARCH\n======\n\nREPLACE\n-------\n\n*** Nothing else.\n',
    );
    assert.equal(r.ok, true);
    assert.deepEqual(r.diagnostics.map((d) => d.code), ['no-edits']);
    assert.deepEqual(r.files, { 'app.py': APP });
  });

  it('a diff quoted from a log, for a file not given, neither applies nor makes the reply mixed', () => {
    const log = 'The CI log:\n```diff\n--- a/other.py\n+++ b/other.py\n@@ -1 +1 @@\n-x = 1\n+x = 2\n```\n\n';
    const r = apply(log + block('app.py', ['    run()'], ['    go()']));
    assert.equal(r.ok, true, JSON.stringify(r.diagnostics));
    assert.deepEqual(r.files, { 'app.py': APP.replace('run()', 'go()') });
  });

  it('the same diff for a given file is another format\'s edit: mixed, and not applied', () => {
    const files = { 'app.py': APP, 'other.py': 'x = 1\n' };
    const log = '```diff\n--- a/other.py\n+++ b/other.py\n@@ -1 +1 @@\n-x = 1\n+x = 2\n```\n\n';
    const r = apply(log + block('app.py', ['    run()'], ['    go()']), files);
    assert.equal(r.ok, false);
    assert.deepEqual(r.diagnostics.map((d) => d.code), ['mixed-formats']);
    assert.equal(r.files['other.py'], 'x = 1\n');
  });

  it('a block whose two sides are the same applies, changes nothing, and says so', () => {
    const r = apply(block('app.py', ['    run()'], ['    run()']));
    assert.equal(r.ok, true);
    assert.deepEqual(r.edits[0].warnings.map((w) => w.code), ['no-change']);
    assert.deepEqual(r.edits[0].range, { start: 3, end: 3 });
    assert.deepEqual(r.files, { 'app.py': APP });
  });
});

describe('search-replace: closest candidate anchored on exact lines', () => {
  // 1,600 near-identical functions of 11 lines (17,600 lines): only each header is unique.
  const LINES = helpers(1_600);
  const BIG = { 'lib.js': LINES.join('\n') + '\n' };
  const REAL = 1_500 * 11; // 0-based first line of helper1500
  const real = LINES.slice(REAL, REAL + 7);
  const compared = (message: string): [number, number] => {
    const m = /compared (\d+) of the (\d+) places/.exec(message);
    assert.ok(m, message);
    return [Number(m[1]), Number(m[2])];
  };

  it('a block with one line mistyped deep in a large file names its real place, and applies nowhere', () => {
    const typo = real.map((l, i) => (i === 3 ? '    retrun result;' : l));
    const r = apply(block('lib.js', typo, [...typo, '  // checked']), BIG);
    untouched(r, BIG);
    assert.equal(r.edits[0].code, 'no-match');
    assert.deepEqual(r.edits[0].candidates.map((c) => [c.start, c.end]), [[REAL + 1, REAL + 7]]);
    assert.match(r.edits[0].message, new RegExp(`closest is lines ${REAL + 1}-${REAL + 7} \\(similarity 0\\.9\\d\\d\\), where line ${REAL + 4} is "    return result;"`));
    // The scan alone stopped far before it: the message still says the search was bounded.
    const [n, of] = compared(r.edits[0].message);
    assert.ok(n < REAL && of === LINES.length - 6, `${n} of ${of}`);
  });

  it('two lines mistyped, and the block quoted at another indentation: still its real place', () => {
    const typo = real.map((l, i) => (i === 1 ? '  const reslt = [];' : i === 5 ? '  for (let i = 0; i < value.lenght; i++) {' : l));
    const r = apply(block('lib.js', typo, ['// gone']), BIG);
    untouched(r, BIG);
    assert.equal(r.edits[0].candidates[0]?.start, REAL + 1);
    const tabbed = real.map((l, i) => (i === 3 ? '\t\tretrun result;' : l === '' ? l : l.replace(/^(  )+/, (s) => '\t'.repeat(s.length / 2))));
    const t = apply(block('lib.js', tabbed, ['// gone']), BIG);
    untouched(t, BIG);
    assert.equal(t.edits[0].candidates[0]?.start, REAL + 1);
  });

  it('apply-patch names the same place for the same chunk', () => {
    const typo = real.map((l, i) => (i === 3 ? '    retrun result;' : l));
    const patch = ['*** Begin Patch', '*** Update File: lib.js', '@@', ...typo.map((l) => ' ' + l), '+// more', '*** End Patch', ''].join('\n');
    const r = apply(patch, BIG, 'apply-patch');
    untouched(r, BIG);
    assert.equal(r.edits[0].candidates[0]?.start, REAL + 1);
  });

  it('a block whose only distinctive line is the mistyped one has no anchor: the scan names a look-alike near the start, bounded', () => {
    const typo = real.map((l, i) => (i === 0 ? 'function helpr1500(value, options) {' : l));
    const r = apply(block('lib.js', typo, ['// gone']), BIG);
    untouched(r, BIG);
    const c = r.edits[0].candidates[0];
    assert.ok(c && c.start < 11 * 200, `named ${c?.start}`);
    const [n, of] = compared(r.edits[0].message);
    assert.ok(n < of);
  });

  it('a block of mostly `}` and blank lines in a file made of them costs the scan alone, and says how far it went', () => {
    const lines = Array.from({ length: 200_000 }, (_, i) => ['}', '', '  return;', '  }'][i % 4]);
    const files = { 'braces.js': lines.join('\n') + '\n' };
    const old = ['}', '', '  return;', '  }', '}', '', '  retur;', '  }'];
    assert.deepEqual(anchoredPlaces(lines, old, 0, lines.length - old.length, 0), []);
    const r = apply(block('braces.js', old, ['}']), files);
    untouched(r, files);
    assert.equal(r.edits[0].code, 'no-match');
    const [n, of] = compared(r.edits[0].message);
    // Every place costs at least one unit per line (an equal line costs 1): the budget bounds the places.
    assert.ok(n < of && n <= SEARCH_BUDGET_PER_EDIT / old.length, `${n} of ${of}`);
    assert.equal(r.edits[0].candidates[0]?.start, 1);
  });
});
