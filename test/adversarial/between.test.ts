// Replies written to hurt, in the between format: each snippet must land
// between its anchors or fail with its reason; never apply a snippet cut
// short, never edit another file, never lose a line.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ApplyResult } from '../../src/core/types.ts';
import { applyRequest } from '../../src/formats/index.ts';

const F = '```';
const README = '# Tool\n\n## Install\n\n## License\n';
const TOOL = 'import os\nimport sys\n';
const SNIPPET = '@BETWEEN@ "## Install" AND "## License"';

const apply = (response: string, files: Record<string, string>, format = 'between'): ApplyResult => applyRequest({ format, files, response });

/** Nothing was written: every given file is as it was, and nothing was created. */
function untouched(r: ApplyResult, files: Record<string, string>): void {
  assert.deepEqual(r.files, files);
  assert.equal(r.ok, false);
}

describe('between: inner fences', () => {
  const files = { 'README.md': README };
  const refused: [string, string][] = [
    ['a bare code sample in a snippet', `README.md\n${F}\n${SNIPPET}\n${F}\nnpm install tool\n${F}\nSee the docs.\n${F}\n`],
    ['a bare sample followed by a blank line', `README.md\n${F}\n${SNIPPET}\n\n${F}\nnpm install tool\n${F}\n\n${F}\n`],
    ['a single bare fence line', `README.md\n${F}\n${SNIPPET}\nFENCE = """\n${F}\n"""\n${F}\n`],
    ['@WHOLE FILE@ with a bare sample', `README.md\n${F}\n@WHOLE FILE@\n# Tool\n${F}\n./run.sh\n${F}\nDone.\n${F}\n`],
    ['a tag fence holding its closing tag', `README.md\n<code>\n${SNIPPET}\n</code>\nx\n</code>\n`],
  ];
  for (const [what, reply] of refused) {
    it(`refuses ${what}, and writes nothing`, () => {
      const r = apply(reply, files);
      untouched(r, files);
      assert.ok(r.edits.every((e) => e.status === 'failed'));
      assert.ok(r.edits.some((e) => e.code === 'ambiguous-end'), r.edits.map((e) => e.code).join());
    });
  }

  const sample = [F, 'npm install tool', F];
  const placed = `# Tool\n\n## Install\n${sample.join('\n')}\n## License\n`;
  const fences: [string, string, string][] = [
    ['four backticks', `${F}\``, `${F}\``],
    ['<source> with a language', '<source>markdown', '</source>'],
    ['<code>', '<code>', '</code>'],
    ['<pre>', '<pre>', '</pre>'],
    ['<codeblock>', '<codeblock>', '</codeblock>'],
    ['<sourcecode>, closed in capitals', '<sourcecode>', '</SOURCECODE>'],
    ['tildes', '~~~', '~~~'],
  ];
  for (const [what, open, close] of fences) {
    it(`places a bare sample fenced with ${what} whole`, () => {
      const r = apply(`README.md\n${open}\n${SNIPPET}\n${sample.join('\n')}\n${close}\n`, files);
      assert.deepEqual(r.files, { 'README.md': placed });
      assert.equal(r.edits[0].status, 'applied');
    });
  }

  it('a snippet that ends at a tag line before the early closing fence applies; the rest fails', () => {
    const vars = { 'v.py': 'a = 1\nb = 2\nc = 3\nd = 4\ne = 5\n' };
    const r = apply(`v.py\n${F}\n@BETWEEN@ "a = 1" AND "c = 3"\nb = 20\n\n@BETWEEN@ "c = 3" AND "e = 5"\n${F}\nd = 40\n${F}\n`, vars);
    assert.deepEqual(r.files, { 'v.py': 'a = 1\nb = 20\nc = 3\nd = 4\ne = 5\n' });
    assert.deepEqual(r.edits.map((e) => e.code), [null, 'ambiguous-end']);
  });
});

describe('between: markers of other formats in snippets', () => {
  const files = { 'doc.md': 'top\nbottom\n' };
  for (const lines of [
    ['<<<<<<< SEARCH', 'old', '=======', 'new', '>>>>>>> REPLACE'],
    ['--- a/x', '+++ b/x', '@@ -1 +1 @@'],
    ['*** Begin Patch', '*** End Patch'],
    ['<FILE_CHANGES>', '</FILE_CHANGES>'],
  ]) {
    it(`places ${JSON.stringify(lines[0])} lines as content`, () => {
      const r = apply(`doc.md\n${F}\n@BETWEEN@ "top" AND "bottom"\n${lines.join('\n')}\n${F}\n`, files);
      assert.deepEqual(r.files, { 'doc.md': `top\n${lines.join('\n')}\nbottom\n` });
    });
  }
});

describe('between: odd paths', () => {
  const files = { 'app.py': 'print(1)\n' };
  for (const name of ['Makefile', 'Dockerfile', 'LICENSE', 'README', 'Procfile', 'Gemfile', '.gitignore', 'docs/My Notes.md']) {
    it(`${name} above a @WHOLE FILE@ block creates ${name}, never the only file`, () => {
      const r = apply(`${name}\n${F}\n@WHOLE FILE@\nline\n${F}\n`, files);
      assert.deepEqual(r.files, { 'app.py': 'print(1)\n', [name]: 'line\n' });
    });
    it(`${name} above a @BETWEEN@ block is file-not-found, never the only file`, () => {
      const r = apply(`${name}\n${F}\n@BETWEEN@ "a" AND "b"\nline\n${F}\n`, { 'app.py': 'a\nb\n' });
      untouched(r, { 'app.py': 'a\nb\n' });
      assert.equal(r.edits[0].code, 'file-not-found');
    });
  }
  for (const label of ['Output:', '## Summary', 'Solution:']) {
    it(`${JSON.stringify(label)} above a block is missing-path, never the only file`, () => {
      const r = apply(`${label}\n${F}\n@BETWEEN@ "import os" AND "import sys"\nimport re\n${F}\n`, { 'tool.py': TOOL });
      untouched(r, { 'tool.py': TOOL });
      assert.equal(r.edits[0].code, 'missing-path');
    });
  }
  it('a path in another case, with \\ or ./ names the given file', () => {
    for (const path of ['src/tool.py', 'src\\Tool.py', './src/Tool.py', '.\\SRC\\TOOL.PY']) {
      const r = apply(`${path}\n${F}\n@BETWEEN@ "import os" AND "import sys"\nimport re\n${F}\n`, { 'src/Tool.py': TOOL });
      assert.deepEqual(r.files, { 'src/Tool.py': 'import os\nimport re\nimport sys\n' }, path);
    }
  });
  it('a path that leaves the project is refused', () => {
    const r = apply(`../x.py\n${F}\n@WHOLE FILE@\nx\n${F}\n`, files);
    untouched(r, files);
  });
});

describe('between: prose answers with fences, format detected', () => {
  const files = { 'tool.py': TOOL };
  const answers = [
    `Running it prints:\n${F}\n/home/user\n${F}\n`,
    `Add the import:\n${F}python\n@BETWEEN@ "import os" AND "import sys"\nimport re\n${F}\n`,
    `tool.py\n${F}python\n@BETWEEN@ "import os" AND "import sys"\nimport re\n${F}\n\nThen run:\n${F}\npython tool.py\n${F}\n`,
  ];
  it('a chat answer changes no file', () => assert.deepEqual(apply(answers[0], files, 'auto').files, files));
  it('a snippet without a path is not given to the only file', () => {
    const r = apply(answers[1], files, 'auto');
    untouched(r, files);
  });
  it('an unlabelled block after a snippet is prose, not an edit', () => {
    const r = apply(answers[2], files, 'auto');
    assert.deepEqual(r.files, { 'tool.py': 'import os\nimport re\nimport sys\n' });
    assert.equal(r.edits.length, 1);
  });
});

describe('between: byte order marks', () => {
  it('@WHOLE FILE@ content starting with U+FEFF keeps the file\'s own state', () => {
    const r = apply(`a.csv\n${F}\n@WHOLE FILE@\n\uFEFFid\n2\n${F}\n\nb.csv\n${F}\n@WHOLE FILE@\n\uFEFFid\n3\n${F}\n`, { 'a.csv': '\uFEFFid\n1\n', 'b.csv': 'id\n1\n' });
    assert.deepEqual(r.files, { 'a.csv': '\uFEFFid\n2\n', 'b.csv': 'id\n3\n' });
  });
});

describe('between: elisions', () => {
  const files = { 'app.js': 'function main() {\n  setup();\n  run();\n}\n' };
  for (const placeholder of ['  // ... existing code ...', '  // rest of function unchanged', '  ...']) {
    it(`refuses ${JSON.stringify(placeholder)} in a snippet`, () => {
      const r = apply(`app.js\n${F}\n@BETWEEN@ "function main() {" AND "}"\n${placeholder}\n  cleanup();\n${F}\n`, files);
      untouched(r, files);
      assert.equal(r.edits[0].code, 'elided');
    });
  }
  it('places a spread, which is code', () => {
    const r = apply(`app.js\n${F}\n@BETWEEN@ "function main() {" AND "}"\n  run(...args);\n${F}\n`, files);
    assert.deepEqual(r.files, { 'app.js': 'function main() {\n  run(...args);\n}\n' });
  });
});

describe('between: anchors that differ only in what does not show', () => {
  const reply = (a: string, b: string) => `m.py\n\`\`\`python\n@BETWEEN@ ${JSON.stringify(a)} AND ${JSON.stringify(b)}\n    x = 0\n\`\`\`\n`;
  it('finds an anchor cited in another normalisation form, or without the zero-width space the file has', () => {
    const file = 'def caf\u00e9():\n    x = 1\nend\u200b\n';
    const r = apply(reply('def cafe\u0301():', 'end'), { 'm.py': file });
    assert.equal(r.edits[0].status, 'applied', r.edits[0].message);
    assert.equal(r.edits[0].match, 'whitespace');
    assert.deepEqual(r.files, { 'm.py': 'def caf\u00e9():\n    x = 0\nend\u200b\n' });
    assert.match(r.edits[0].message, /U\+0301 COMBINING ACUTE ACCENT/);
  });
  it('does not forgive a no-break space, and names it', () => {
    const file = 'def\u00a0f():\n    x = 1\nend\n';
    const r = apply(reply('def f():', 'end'), { 'm.py': file });
    assert.equal(r.edits[0].status, 'failed');
    assert.deepEqual(r.files, { 'm.py': file });
    assert.match(r.edits[0].message, /column 4 the file has U\+00A0 NO-BREAK SPACE/);
  });
});
