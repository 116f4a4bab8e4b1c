// Replies written to hurt, in the whole format: each must write the whole
// file it names or fail with its reason; never write a file cut short, never
// write another file, never lose a line.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ApplyResult } from '../../src/core/types.ts';
import { applyRequest } from '../../src/formats/index.ts';

const F = '```';
const README = '# Tool\n';
const APP = 'import os\nprint(os.getcwd())\n';

const apply = (response: string, files: Record<string, string>, format = 'whole'): ApplyResult => applyRequest({ format, files, response });

/** Nothing was written: every given file is as it was, and nothing was created. */
function untouched(r: ApplyResult, files: Record<string, string>): void {
  assert.deepEqual(r.files, files);
  assert.equal(r.ok, false);
}

/** The reply's block for `path` was written whole: exactly `lines`, and no other file changed. */
function writtenWhole(r: ApplyResult, files: Record<string, string>, path: string, lines: string[]): void {
  assert.deepEqual(r.files, { ...files, [path]: lines.map((l) => l + '\n').join('') });
  assert.equal(r.edits.length, 1);
  assert.equal(r.edits[0].status, 'applied');
}

describe('whole: inner fences', () => {
  const files = { 'README.md': README };
  const refused: [string, string][] = [
    ['a bare code sample in a README', `README.md\n${F}\n# Tool\n\nInstall:\n${F}\nnpm install tool\n${F}\nDone.\n${F}\n`],
    ['a bare code sample whose first line names a script', `README.md\n${F}\n# Tool\n${F}\n./run.sh\n${F}\nDone.\n${F}\n`],
    ['a sample followed by a blank line, and a path line later in the file', `README.md\n${F}\n# Tool\n${F}\n./install.sh\n${F}\n\nSet the port in\nconfig.yaml\n${F}\nport: 80\n${F}\n${F}\n`],
    ['a single bare fence line in a string', `README.md\n${F}markdown\nFENCE = """\n${F}\n"""\n\nprint(FENCE)\n${F}\n`],
    ['an indented fence line in a heredoc', `README.md\n${F}ruby\nDOC = <<~MD\n  ${F}\nMD\ndef x\nend\n${F}\n`],
    ['a longer fence line inside the content', `README.md\n${F}\n# Tool\n${F}\`\nmore\n${F}\n`],
    ['a tag fence holding its own closing tag', `README.md\n<source>\n# Tool\n</source>\nmore\n</source>\n`],
    ['a nested fence that never closes', `README.md\n${F}markdown\n# Tool\n${F}bash\nnpm i\n`],
  ];
  for (const [what, reply] of refused) {
    it(`refuses ${what}, and writes nothing`, () => {
      const r = apply(reply, files);
      untouched(r, files);
      assert.ok(r.edits.every((e) => e.status === 'failed'));
      assert.ok(r.edits.some((e) => e.code === 'ambiguous-end' || e.code === 'truncated'), r.edits.map((e) => e.code).join());
    });
  }

  const whole: [string, string, string[]][] = [
    ['a sample with a language in a fence of the same length (nested)', `README.md\n${F}markdown\n# Tool\n${F}bash\nnpm i\n${F}\nDone.\n${F}\n`, ['# Tool', `${F}bash`, 'npm i', F, 'Done.']],
    ['a bare sample in a longer fence', `README.md\n${F}\`\n# Tool\n${F}\nnpm i\n${F}\nDone.\n${F}\`\n`, ['# Tool', F, 'npm i', F, 'Done.']],
    ['a bare sample in a tilde fence', `README.md\n~~~\n# Tool\n${F}\nnpm i\n${F}\n~~~\n`, ['# Tool', F, 'npm i', F]],
    ['tilde lines in a backtick fence', `README.md\n${F}\n~~~\nx\n~~~\n${F}\n`, ['~~~', 'x', '~~~']],
    ['a bare sample in <source>', `README.md\n<source>markdown\n# Tool\n${F}\nnpm i\n${F}\n</source>\n`, ['# Tool', F, 'npm i', F]],
    ['a bare sample in <pre>, closed in capitals', `README.md\n<pre>\n${F}\nx\n${F}\n</PRE>\n`, [F, 'x', F]],
    ['backticks after text, and a fence indented four spaces', `README.md\n${F}\nsee ${F} here\n    ${F}\nx\n${F}\n`, [`see ${F} here`, `    ${F}`, 'x']],
  ];
  for (const [what, reply, lines] of whole) {
    it(`writes ${what} whole`, () => writtenWhole(apply(reply, files), files, 'README.md', lines));
  }

  it('a block refused for its inner fence does not stop the next file', () => {
    const two = { 'README.md': README, 'b.txt': 'b\n' };
    const r = apply(`README.md\n${F}\n# T\n${F}\nx\n${F}\ny\n${F}\n\nb.txt\n${F}python\nB\n${F}\n`, two);
    assert.deepEqual(r.files, { 'README.md': README, 'b.txt': 'B\n' });
    assert.deepEqual(r.edits.map((e) => e.code), ['ambiguous-end', null]);
  });
});

describe('whole: markers of other formats in content', () => {
  const files = { 'docs/format.md': 'old\n' };
  const contents: [string, string[]][] = [
    ['a SEARCH/REPLACE example', ['Example:', '<<<<<<< SEARCH', 'old', '=======', 'new', '>>>>>>> REPLACE']],
    ['an editblock example', ['<editblock>', '<<<<<<< REMOVE', '1│old', '=======', ' │new', '>>>>>>> INSERT', '</editblock>']],
    ['a @BETWEEN@ example', ['@BETWEEN@ "a" AND "b"', 'x']],
    ['a diff', ['--- a/x', '+++ b/x', '@@ -1 +1 @@', '-a', '+b']],
    ['an apply_patch envelope', ['*** Begin Patch', '*** Update File: x', '@@', '-a', '+b', '*** End Patch']],
    ['a str_replace call', ['{"command": "str_replace", "path": "x", "old_str": "a", "new_str": "b"}']],
  ];
  for (const [what, lines] of contents) {
    it(`writes a file holding ${what} as it is`, () => {
      const text = ['# Formats', '', 'An example:', ...lines];
      const r = apply(`docs/format.md\n${F}\`markdown\n${text.join('\n')}\n${F}\`\n`, files);
      writtenWhole(r, files, 'docs/format.md', text);
      assert.equal(r.ok, true);
    });
  }
  it('never writes another format\'s edit, fenced under its path, as the file (mixed-formats)', () => {
    const given = { 'app.py': 'x = 1\n' };
    const r = apply(`app.py\n${F}python\n<<<<<<< SEARCH\nx = 1\n=======\nx = 2\n>>>>>>> REPLACE\n${F}\n`, given);
    untouched(r, given);
    assert.equal(r.edits[0].code, 'mixed-formats');
  });
});

describe('whole: odd paths', () => {
  const files = { 'app.py': APP };
  for (const name of ['Makefile', 'Dockerfile', 'LICENSE', 'README', 'Procfile', 'Gemfile', '.gitignore', 'docs/My Notes.md']) {
    for (const written of [name, `\`${name}\``, `**${name}**:`]) {
      it(`${written} above a block creates ${name}, never the only file`, () => {
        const r = apply(`${written}\n${F}\nline\n${F}\n`, files);
        assert.deepEqual(r.files, { 'app.py': APP, [name]: 'line\n' });
        assert.equal(r.edits[0].file, name);
      });
    }
  }
  for (const label of ['Output:', '## Summary', 'Solution:', '}', '**Result:**']) {
    it(`${JSON.stringify(label)} above a block is missing-path, never the only file`, () => {
      const r = apply(`${label}\n${F}\nline\n${F}\n`, files);
      untouched(r, files);
      assert.equal(r.edits[0].code, 'missing-path');
    });
  }
  for (const unsafe of ['/etc/passwd', '../secrets.env', 'C:\\Windows\\x.ini']) {
    it(`${unsafe} is refused, and nothing else is written`, () => {
      const r = apply(`${unsafe}\n${F}\nx\n${F}\n`, files);
      untouched(r, files);
    });
  }
  it('a path in another case, with \\ or ./ names the given file', () => {
    const given = { 'src/App.js': 'a\n' };
    for (const path of ['src/app.js', 'src\\App.js', './src/App.js', '.\\SRC\\APP.JS', 'App.js', 'path/to/src/App.js']) {
      const r = apply(`${path}\n${F}\nb\n${F}\n`, given);
      if (path.startsWith('path/to/')) assert.equal(r.files['src/App.js'], 'a\n', path);
      else assert.deepEqual(r.files, { 'src/App.js': 'b\n' }, path);
    }
  });
});

describe('whole: prose answers with fences, format detected', () => {
  const files = { 'app.py': APP };
  const answers = [
    `Running it prints:\n\n${F}\n/home/user\n${F}\n\nThat is your working directory.`,
    `Run it with:\n${F}bash\npython app.py\n${F}\n`,
    `You could try this instead:\n${F}python\nprint("hi")\n${F}\n`,
    `Here is how \`app.py\` is used:\n${F}python\nimport app\n${F}\n`,
    `The error was:\n${F}\nTraceback (most recent call last):\n  File "app.py", line 2\nNameError: name 'os' is not defined\n${F}\n`,
    `Output:\n${F}\n/home/user\n${F}\n`,
    `Two ways:\n${F}\na()\n${F}\nor\n${F}\nb()\n${F}\n`,
    `Example\n${F}python\nprint(1)\n${F}\n`,
    `Python\n\n${F}python\nimport app\n${F}\n`,
  ];
  for (const answer of answers) {
    it(`changes no file: ${JSON.stringify(answer.slice(0, 40))}`, () => {
      const r = apply(answer, files, 'auto');
      assert.deepEqual(r.files, files, 'no file changed, none created');
      assert.ok(r.edits.every((e) => e.status === 'failed'));
    });
  }
});

describe('whole: byte order marks', () => {
  it('a file with a mark keeps exactly one when the content starts with one', () => {
    const files = { 'a.csv': '\uFEFFid\r\n1\r\n' };
    const r = apply(`a.csv\n${F}\n\uFEFFid\n2\n${F}\n`, files);
    assert.deepEqual(r.files, { 'a.csv': '\uFEFFid\r\n2\r\n' });
  });
  it('a file without a mark gets none from the content', () => {
    const r = apply(`a.csv\n${F}\n\uFEFF\uFEFFid\n2\n${F}\n`, { 'a.csv': 'id\n1\n' });
    assert.deepEqual(r.files, { 'a.csv': 'id\n2\n' });
  });
  it('a new file gets one mark when the content starts with any', () => {
    const r = apply(`n.csv\n${F}\n\uFEFF\uFEFFid\n${F}\n`, { 'a.csv': 'id\n' });
    assert.deepEqual(r.files, { 'a.csv': 'id\n', 'n.csv': '\uFEFFid\n' });
  });
  it('a mark inside the text is content', () => {
    const r = apply(`a.txt\n${F}\na\n\uFEFFb\n${F}\n`, { 'a.txt': 'x\n' });
    assert.deepEqual(r.files, { 'a.txt': 'a\n\uFEFFb\n' });
  });
});

describe('whole: elisions', () => {
  const files = { 'app.py': 'def a():\n    return 1\n\ndef b():\n    return 2\n' };
  for (const placeholder of ['# ... rest of the file unchanged ...', '# ... existing code ...', '...', '    # rest of function unchanged']) {
    it(`refuses ${JSON.stringify(placeholder)} in the new text`, () => {
      const r = apply(`app.py\n${F}python\ndef a():\n    return 10\n\n${placeholder}\n${F}\n`, files);
      untouched(r, files);
      assert.equal(r.edits[0].code, 'elided');
    });
  }
  it('writes a Python ... body, which is code', () => {
    const r = apply(`app.py\n${F}python\ndef a():\n    ...\n${F}\n`, files);
    assert.deepEqual(r.files, { 'app.py': 'def a():\n    ...\n' });
  });
});

describe('whole: paths that look alike', () => {
  const NFC = 'caf\u00e9.py';
  const NFD = 'cafe\u0301.py';
  const warned = (r: ApplyResult) => r.edits.map((e) => e.warnings.map((w) => w.code).join(','));

  it('a path in the other Unicode form replaces the given file, in either direction, never a second file', () => {
    for (const [given, written] of [[NFC, NFD], [NFD, NFC], [`src/${NFD}`, `SRC/${NFC}`]]) {
      const files = { [given]: 'old\n', 'app.py': APP };
      const r = apply(`${written}\n${F}python\nnew\n${F}\n`, files);
      assert.deepEqual(r.files, { ...files, [given]: 'new\n' }, `${JSON.stringify(given)} by ${JSON.stringify(written)}`);
      assert.deepEqual(warned(r), ['']);
    }
  });

  it('two blocks writing one new name in two forms are two writes of one file: they overlap, as with one spelling', () => {
    const r = apply(`${NFD}\n${F}\nfirst\n${F}\n\n${NFC}\n${F}\nsecond\n${F}\n`, {});
    assert.deepEqual(r.files, {}, 'no two files whose names look the same');
    assert.deepEqual(r.edits.map((e) => [e.file, e.code]), [[NFC, 'overlap'], [NFC, 'overlap']]);
  });

  it('a look-alike name creates its own file, with confusable-path, and never writes the given one', () => {
    const files = { 'app.py': APP, 'R&D.txt': 'budget\n' };
    for (const [path, written] of [
      ['\u0430pp.py', '\u0430pp.py'], // Cyrillic а
      ['\u0251pp.py', null], // Latin alpha ɑ: not in the table, an ordinary new name
      ['\uff41pp.py', '\uff41pp.py'], // fullwidth
      ['R&amp;D.txt', '`R&amp;D.txt`'], // an entity left escaped, in backticks
      ['R&#38;D.txt', '`R&#38;D.txt`'],
    ] as const) {
      const r = apply(`${written ?? path}\n${F}\nprint("x")\n${F}\n`, files);
      assert.deepEqual(r.files, { ...files, [path]: 'print("x")\n' }, path);
      assert.deepEqual(warned(r), [written === null ? '' : 'confusable-path'], path);
      assert.equal(r.ok, true);
    }
  });

  it('an invisible character in a bare path line makes it no path: it fails, and never lands in the one given file', () => {
    const files = { 'app.py': APP };
    // A BOM before the path is blank space at the start of the line (JavaScript's trim() removes it): the path is app.py.
    assert.deepEqual(apply(`\ufeffapp.py\n${F}\nprint("x")\n${F}\n`, files).files, { 'app.py': 'print("x")\n' });
    for (const path of ['ap\u200bp.py', 'app\u202e.py', 'app.py\u2066']) {
      const r = apply(`${path}\n${F}\nprint("x")\n${F}\n`, files);
      if (r.edits[0]?.status === 'applied') {
        // Read as a path after all: then as its own file, with the warning.
        assert.equal(r.files['app.py'], APP, JSON.stringify(path));
        assert.deepEqual(warned(r), ['confusable-path'], JSON.stringify(path));
      } else assert.deepEqual(r.files, files, JSON.stringify(path));
    }
  });

  it('a BiDi control in the new text is written as given, with bidi-control naming it; the marks are not', () => {
    const files = { 'app.py': 'a = 1\n' };
    const text = 'a = 1\nif user == "admin\u202e \u2066# check\u2069 \u2066":\n';
    const r = apply(`app.py\n${F}\n${text}${F}\n`, files);
    assert.deepEqual(r.files, { 'app.py': text });
    assert.deepEqual(warned(r), ['bidi-control']);
    assert.match(r.edits[0].warnings[0].message, /^line 2 of app\.py holds U\+202E RIGHT-TO-LEFT OVERRIDE, U\+2066 LEFT-TO-RIGHT ISOLATE, U\+2069 POP DIRECTIONAL ISOLATE/);
    const marks = apply(`app.py\n${F}\nname = "\u200fשלום\u200e"\n${F}\n`, files);
    assert.deepEqual(warned(marks), ['']);
  });
});
