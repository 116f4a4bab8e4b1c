import { test } from 'node:test';
import assert from 'node:assert/strict';
import { applyRequest } from '../../src/formats/index.ts';
import { cell, issueMarkdown } from '../../src/playground/issue.ts';
import { fenceFor, fenced } from '../../src/prompt/fence.ts';
import { askedFormat, defaultPrompt, defaultPrompts, isDefaultPrompt, readPrompts, sourceText, userMessage } from '../../src/prompt/prompts.ts';
import { formats, getFormat } from '../../src/formats/index.ts';

test('fences are longer than any backtick run in the text', () => {
  assert.equal(fenceFor('plain'), '```');
  assert.equal(fenceFor('a ``` b'), '````');
  assert.equal(fenceFor('`````'), '``````');
  assert.equal(fenced('x'), '```\nx\n```');
  assert.equal(fenced('x\n', 'py'), '```py\nx\n```');
  assert.equal(fenced(''), '```\n```');
});

test('table cells: one line, pipes, backslashes and markup escaped', () => {
  assert.equal(cell('a | b'), 'a \\| b');
  assert.equal(cell('<img src=x onerror=alert(1)>'), '&lt;img src=x onerror=alert(1)&gt;');
  assert.equal(cell('a\\|b'), 'a\\\\\\|b');
  assert.equal(cell('one\r\ntwo\nthree'), 'one two three');
  assert.equal(cell(null), '');
  assert.equal(cell(0), '0');
});

test('the issue: versions, format, options, sources and reply collapsed, the table, the link', () => {
  const files = { 'a|b.py': 'x = 1\r\ny = 2' };
  const reply = 'a|b.py\n<editblock>\n<<<<<<< REMOVE\n1│x = 1\n=======\n │x = 3\n>>>>>>> INSERT\n</editblock>\n\n```\nprose fence\n```\n';
  const result = applyRequest({ format: 'auto', files, response: reply, options: { fuzzy: false } });
  const md = issueMarkdown({
    version: '0.1.0',
    session: { format: 'auto', files: [{ name: 'a|b.py', text: files['a|b.py'] }], reply, options: { fuzzy: false }, prompt: 'P' },
    result,
    link: 'http://x/playground/?v=0.1.0#s=abc',
  });
  assert.equal(
    md,
    [
      '### ln-diff playground session',
      '',
      '- ln-diff (engine and spec): 0.1.0',
      '- format: auto (detected: ln-diff)',
      '- options: `{"fuzzy":false}`',
      '- link: http://x/playground/?v=0.1.0#s=abc',
      '',
      '<details>\n<summary>Prompt (1 line)</summary>\n\n```\nP\n```\n\n</details>',
      '',
      '<details>\n<summary>Source: a|b.py (2 lines, CRLF line endings, no final newline)</summary>\n\n```\nx = 1\r\ny = 2\n```\n\n</details>',
      '',
      `<details>\n<summary>Reply (12 lines)</summary>\n\n\`\`\`\`\n${reply}\`\`\`\`\n\n</details>`,
      '',
      '#### Result',
      '',
      'All 1 edit applied.',
      '',
      '| edit | status | match | offset | code | message |',
      '| --- | --- | --- | --- | --- | --- |',
      '| #1 a\\|b.py | applied | exact | 0 |  | applied at line 1 |',
      '',
      '[Open this session in the playground](http://x/playground/?v=0.1.0#s=abc)',
      '',
    ].join('\n'),
  );
});

test('the issue without a link or a result says so', () => {
  const md = issueMarkdown({ version: '1', session: { format: 'whole', files: [], reply: '' }, result: null, error: 'Boom <x>', link: null });
  assert.match(md, /- link: the session is too large for a link; attach the file from “Download session”/);
  assert.match(md, /The engine failed: Boom &lt;x&gt;/);
  assert.doesNotMatch(md, /Open this session/);
});

test('prompts: one default per format, ln-diff for auto; the source as each format shows it', () => {
  // As the page writes them and the panel reads them back.
  const prompts = readPrompts(JSON.stringify(defaultPrompts(formats)));
  for (const f of formats) {
    assert.ok(defaultPrompt(f.name, prompts).length > 100, f.name);
    assert.ok(defaultPrompt(f.name, prompts).endsWith(`\n\n${f.prompt}`), `${f.name}: the format's own prompt, after the role text`);
  }
  assert.equal(defaultPrompt('auto', prompts), defaultPrompt('ln-diff', prompts));
  assert.equal(askedFormat('toString', prompts), 'ln-diff');
  assert.ok(isDefaultPrompt(defaultPrompt('udiff', prompts), prompts));
  assert.ok(!isDefaultPrompt('mine', prompts));
  assert.deepEqual(readPrompts('[1]'), {});
  assert.deepEqual(readPrompts(undefined), {});
  assert.deepEqual(readPrompts('{"a": "x", "b": 2'), {});
  assert.deepEqual(readPrompts('{"a": "x", "b": 2}'), { a: 'x' });
  const files = [{ name: 'a.py', text: 'x\ny\n' }, { name: 'b.md', text: 'has ``` fence' }];
  assert.equal(sourceText(files, getFormat('ln-diff')!.view), 'a.py\n1│x\n2│y\n\nb.md\n1│has ``` fence');
  assert.equal(sourceText(files), 'a.py\n```\nx\ny\n```\n\nb.md\n````\nhas ``` fence\n````');
  assert.equal(userMessage('SRC', '  do it \n'), 'SRC\n\ndo it');
  assert.equal(userMessage('', ''), 'Improve the code.');
});
