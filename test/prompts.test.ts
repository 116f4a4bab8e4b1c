// The prompt pages (spec/prompts/<format>.md): one per format, a prompt for
// every model family, each with what it was written for and why, a system
// prompt, and illustrative example replies in the page's format that the
// engine handles as the page says. (Conformance of each example is also
// checked by test/spec.test.ts; this file checks the structure.)

import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { checkExample } from '../src/examples/check.ts';
import { pageFormat } from '../src/examples/load.ts';
import { applyRequest, detectFormat, formats } from '../src/formats/index.ts';
import { inlineHtml, readPromptPage, slugify } from '../src/prompt/sections.ts';
import { decodeSession, sessionHref } from '../src/share/share.ts';

const PROMPTS = new URL('../spec/prompts/', import.meta.url);

const FAMILIES: { name: string; heading: RegExp }[] = [
  { name: 'OpenAI', heading: /\bOpenAI\b|\bGPT/ },
  { name: 'Claude', heading: /\bClaude\b/ },
  { name: 'Gemini', heading: /\bGemini\b/ },
  { name: 'DeepSeek', heading: /\bDeepSeek\b/ },
  { name: 'Qwen', heading: /\bQwen\b/ },
  { name: 'Llama and small local models', heading: /\bLlama\b.*\bsmall local\b/ },
];

const SMALL = /\bLlama\b|\bsmall\b|\bQwen\b|mini\b/;

describe('prompt pages', () => {
  it('every format of the registry has a marker (what every prompt for it must show) and a short prompt', () => {
    assert.deepEqual(formats.filter((f) => !f.marker || !f.prompt).map((f) => f.name), []);
  });

  for (const { name: format, marker = '' } of formats) {
    const url = new URL(`${format}.md`, PROMPTS);
    describe(`spec/prompts/${format}.md`, () => {
      it('exists, with the format in its front matter', () => {
        assert.ok(existsSync(url), `spec/prompts/${format}.md is missing`);
        const text = readFileSync(url, 'utf8');
        assert.equal(pageFormat(text), format);
        assert.match(text, /^---\ntitle: .+\n/);
      });
      if (!existsSync(url)) return;
      const markdown = readFileSync(url, 'utf8');
      const page = readPromptPage(markdown, format);

      it('has a prompt for every model family', () => {
        const missing = FAMILIES.filter((f) => !page.sections.some((s) => f.heading.test(s.family))).map((f) => f.name);
        assert.deepEqual(missing, []);
        const headings = page.sections.map((s) => s.family);
        assert.equal(new Set(headings).size, headings.length, 'a family heading appears twice');
      });

      it('every example belongs to a prompt section', () => {
        const inSections = page.sections.reduce((n, s) => n + s.examples.length, 0);
        assert.ok(inSections > 0);
        assert.equal((markdown.match(/^`{32,}\s*example\s*$/gm) ?? []).length, inSections);
      });

      for (const section of page.sections) {
        describe(section.family, () => {
          it('says what the prompt was written for, and why', () => {
            assert.match(section.note, /^\*\*Written for\*\* /);
            assert.match(section.note, /\*\*Why:\*\*/);
          });

          it('has a system prompt in a text fence that shows the format', () => {
            assert.ok(section.prompt !== null, 'no ```text fence');
            assert.ok(section.prompt!.trim().length > 100, 'the prompt is too short to be one');
            assert.ok(section.prompt!.includes(marker), `the prompt never shows ${marker}`);
            assert.ok(!/\t/.test(section.prompt! + (section.reminder ?? '')), 'a tab in a prompt');
          });

          it('has illustrative examples in the page format, and each conforms', () => {
            assert.ok(section.examples.length >= 1, 'no example');
            for (const { example, lead } of section.examples) {
              const where = `example ${example.number} (line ${example.line})`;
              assert.match(lead, /^Illustrative\b/, `${where} is not labelled "Illustrative"`);
              assert.equal(example.format, format, `${where} overrides the format`);
              if (example.expected.edits.length > 0)
                assert.equal(detectFormat(example.reply).format.name, format, `${where}: auto picks another format`);
              const result = applyRequest({
                format: example.format,
                files: example.files,
                response: example.reply,
                ...(example.options ? { options: example.options } : {}),
              });
              assert.deepEqual(checkExample(example, result), [], where);
            }
          });

          if (format === 'ln-diff') {
            it('never says "diff" to the model', () => {
              assert.doesNotMatch(section.prompt ?? '', /diff/i);
              assert.doesNotMatch(section.reminder ?? '', /diff/i);
            });
          }
        });
      }

      if (format === 'ln-diff') {
        it('has prompts for small models (and the richest page)', () => {
          assert.ok(page.sections.some((s) => SMALL.test(s.family)));
          const others = formats
            .map((f) => f.name)
            .filter((f) => f !== 'ln-diff' && existsSync(new URL(`${f}.md`, PROMPTS)))
            .map((f) => readPromptPage(readFileSync(new URL(`${f}.md`, PROMPTS), 'utf8'), f));
          const count = (p: typeof page) => p.sections.reduce((n, s) => n + s.examples.length, 0);
          for (const other of others) assert.ok(count(page) > count(other), `${other.format} has as many examples as ln-diff`);
        });
      }
    });
  }
});

describe('readPromptPage', () => {
  const md = [
    '---',
    'title: Prompts for x',
    'format: ln-diff',
    '---',
    '',
    '# Prompts',
    '',
    'Intro text.',
    '',
    '### Family A',
    '',
    '**Written for** A. **Why:** because.',
    '',
    '````text',
    'prompt line',
    '```',
    'inner fence',
    '```',
    '````',
    '',
    '```text',
    'reminder line',
    '```',
    '',
    'Illustrative: one.',
    '',
    '```````````````````````````````` example',
    '//// file a.py',
    'x = 1',
    '//// reply',
    'a.py',
    '<<<<<<< REMOVE',
    '1│x = 1',
    '=======',
    ' │x = 2',
    '>>>>>>> INSERT',
    '//// after a.py',
    'x = 2',
    '//// edits',
    'applied match=exact',
    '````````````````````````````````',
    '',
    '### Family A',
    '',
    '```text',
    'second',
    '```',
  ].join('\n');
  const page = readPromptPage(md, 'ln-diff');

  it('reads the title, the intro and one section per ### heading', () => {
    assert.equal(page.title, 'Prompts for x');
    assert.equal(page.intro, 'Intro text.');
    assert.deepEqual(
      page.sections.map((s) => [s.family, s.id]),
      [
        ['Family A', 'family-a'],
        ['Family A', 'family-a-2'],
      ],
    );
  });

  it('takes the first text fence as the prompt and the second as the reminder, longer fences included', () => {
    const [a, b] = page.sections;
    assert.equal(a.note, '**Written for** A. **Why:** because.');
    assert.equal(a.prompt, 'prompt line\n```\ninner fence\n```');
    assert.equal(a.reminder, 'reminder line');
    assert.equal(b.prompt, 'second');
    assert.equal(b.reminder, null);
  });

  it('attaches each example to its section with the paragraph before it', () => {
    const [a, b] = page.sections;
    assert.equal(a.examples.length, 1);
    assert.equal(a.examples[0].lead, 'Illustrative: one.');
    assert.equal(a.examples[0].example.reply, 'a.py\n<<<<<<< REMOVE\n1│x = 1\n=======\n │x = 2\n>>>>>>> INSERT\n');
    assert.equal(a.examples[0].example.number, 1);
    assert.equal(b.examples.length, 0);
  });

  it('slugs headings', () => {
    assert.equal(slugify('OpenAI GPT-4.1 and GPT-5'), 'openai-gpt-4-1-and-gpt-5');
    assert.equal(slugify('***'), 'section');
  });
});

describe('inlineHtml', () => {
  it('escapes everything that is not code, a link or emphasis', () => {
    assert.equal(inlineHtml('a <script>x</script> & "b"'), 'a &lt;script&gt;x&lt;/script&gt; &amp; &quot;b&quot;');
    assert.equal(inlineHtml('`<editblock>` and **bold** and *em*'), '<code>&lt;editblock&gt;</code> and <strong>bold</strong> and <em>em</em>');
  });

  it('rewrites links to spec pages and keeps only safe targets', () => {
    assert.equal(inlineHtml('[spec](../ln-diff.md#paths)', '/b'), '<a href="/b/spec/ln-diff/#paths">spec</a>');
    assert.equal(inlineHtml('[f](../formats/udiff.md)'), '<a href="/spec/formats/udiff/">f</a>');
    assert.equal(inlineHtml('[x](https://example.com/a?b=1&c=2)'), '<a href="https://example.com/a?b=1&amp;c=2">x</a>');
    assert.equal(inlineHtml('[x](javascript:alert(1))'), '[x](javascript:alert(1))');
  });
});

describe('the playground link of a prompt example', () => {
  it('carries the files, the reply and the prompt', () => {
    const page = readPromptPage(readFileSync(new URL('ln-diff.md', PROMPTS), 'utf8'), 'ln-diff');
    const section = page.sections[0];
    const { example } = section.examples[0];
    const href = sessionHref(
      { format: 'ln-diff', files: Object.entries(example.files).map(([name, text]) => ({ name, text })), reply: example.reply, prompt: section.prompt! },
      '/playground/',
    );
    const decoded = decodeSession(href.slice(href.indexOf('#')));
    assert.ok(decoded.ok);
    assert.equal(decoded.session.prompt, section.prompt);
    assert.equal(decoded.session.reply, example.reply);
    assert.deepEqual(decoded.session.files, Object.entries(example.files).map(([name, text]) => ({ name, text })));
  });
});
