// Token counts against the libraries' own documented examples, and the
// estimates' stated arithmetic.

import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import {
  CLAUDE_FACTOR,
  GEMINI_CHARS_PER_TOKEN,
  countTokens,
  estimateClaude,
  estimateGemini,
  method,
  tokenizersRequested,
} from '../../src/tokens/index.ts';

describe('tokens: loading', () => {
  it('loads no tokenizer until a count is asked for', async () => {
    // This file's first count is below: nothing has asked yet.
    assert.equal(tokenizersRequested(), false);
    await countTokens('x');
    assert.equal(tokenizersRequested(), true);
  });

  it('imports the tokenizers only dynamically, and nothing from node:', () => {
    const source = readFileSync(new URL('../../src/tokens/index.ts', import.meta.url), 'utf8');
    const staticImports = source.split('\n').filter((l) => /^\s*import\s.*\sfrom\s/.test(l) || /^\s*import\s+['"]/.test(l));
    assert.deepEqual(staticImports, []);
    assert.match(source, /import\('gpt-tokenizer\/encoding\/o200k_base'\)/);
    assert.match(source, /import\('gpt-tokenizer\/encoding\/cl100k_base'\)/);
    assert.match(source, /import\('llama3-tokenizer-js'\)/);
    assert.doesNotMatch(source, /['"]node:/);
  });
});

describe('tokens: OpenAI encodings (gpt-tokenizer, exact)', () => {
  // tiktoken's README: cl100k_base encodes "hello world" as [15339, 1917].
  it('"hello world" is 2 tokens in cl100k and in o200k', async () => {
    const t = await countTokens('hello world');
    assert.equal(t.cl100k, 2);
    assert.equal(t.o200k, 2);
  });

  // gpt-tokenizer's own test table (src/GptEncoding.test.ts), o200k_base and cl100k_base ids.
  const table: [string, number, number][] = [
    // text, o200k, cl100k
    ['This is some text', 4, 4],
    ['indivisible', 3, 3],
    ['hello 👋 world 🌍', 6, 7],
    ['hello, I am a text, and I have commas. a,b,c', 15, 15],
    [' ', 1, 1],
    ['\t', 1, 1],
  ];
  for (const [text, o200k, cl100k] of table) {
    it(`${JSON.stringify(text)}: o200k ${o200k}, cl100k ${cl100k}`, async () => {
      const t = await countTokens(text);
      assert.equal(t.o200k, o200k);
      assert.equal(t.cl100k, cl100k);
    });
  }

  it("o200k keeps contractions whole: \"What's\" is one token", async () => {
    assert.equal((await countTokens("What's")).o200k, 1);
  });

  it('the empty text is 0 tokens everywhere', async () => {
    assert.deepEqual(await countTokens(''), { o200k: 0, cl100k: 0, llama3: 0, claudeEstimate: 0, geminiEstimate: 0 });
  });

  it('counts special-token text as ordinary text instead of throwing', async () => {
    // gpt-tokenizer throws on "<|endoftext|>" by default; here it is text: "<", "|", "endo", "ft", "ext", "|", ">".
    const t = await countTokens('<|endoftext|>');
    assert.equal(t.cl100k, 7);
    assert.ok(t.o200k > 1);
  });
});

describe('tokens: Llama 3 (llama3-tokenizer-js, exact)', () => {
  // The package's README and its built-in tests, without the bos/eos tokens.
  const table: [string, number][] = [
    ['Hello world!', 3], // README: [9906, 1917, 0]
    ['This is a test sentence.', 6], // [2028, 374, 264, 1296, 11914, 13]
    ['grabbed', 2], // [59312, 2788]
    [' grabbed', 1], // [30418]
    ['\n', 1], // [198]
    ['\ttabs\t\t\t\tout here', 5], // [3324, 3518, 573, 14294, 1618]
    ['🦙', 3], // [9468, 99, 247]
    ['镇', 1], // [104643]
  ];
  for (const [text, n] of table) {
    it(`${JSON.stringify(text)}: ${n}`, async () => {
      assert.equal((await countTokens(text)).llama3, n);
    });
  }

  it('counts Llama 3 special-token text as ordinary text', async () => {
    // As a special token "<|eot_id|>" would be 1 (id 128009); as text it is several.
    assert.ok((await countTokens('<|eot_id|>')).llama3 > 1);
  });

  it('differs from cl100k where the 28,000 added tokens apply', async () => {
    // gpt-tokenizer's Chinese test prompt: 17 cl100k tokens, 11 in Llama 3.
    const t = await countTokens('我非常渴望与人工智能一起工作');
    assert.equal(t.cl100k, 17);
    assert.equal(t.llama3, 11);
  });
});

describe('tokens: Claude and Gemini estimates', () => {
  it('Claude is the o200k count × the factor, rounded up', async () => {
    assert.equal(CLAUDE_FACTOR, 1.2);
    assert.deepEqual([0, 1, 5, 10, 11, 100].map(estimateClaude), [0, 2, 6, 12, 14, 120]);
    const t = await countTokens('hello, I am a text, and I have commas. a,b,c');
    assert.equal(t.claudeEstimate, 18); // 15 × 1.2
  });

  it('Gemini is the characters ÷ 4, rounded up, counting code points', async () => {
    assert.equal(GEMINI_CHARS_PER_TOKEN, 4);
    assert.equal(estimateGemini(''), 0);
    assert.equal(estimateGemini('abcd'), 1);
    assert.equal(estimateGemini('abcde'), 2);
    assert.equal(estimateGemini('🦙🦙🦙🦙'), 1); // four code points, eight UTF-16 units
    assert.equal((await countTokens('hello world')).geminiEstimate, 3);
  });

  it('the stated method names every tokenizer and says which counts are estimates', () => {
    for (const words of ['gpt-tokenizer 4.0.0', 'llama3-tokenizer-js 1.2.0', 'estimates', `× ${CLAUDE_FACTOR}`, `÷ ${GEMINI_CHARS_PER_TOKEN}`])
      assert.ok(method.includes(words), `method mentions ${words}`);
  });
});
