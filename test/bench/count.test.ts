// The exact tokenizer a model takes, and the counter a run uses with it.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { exactCounter, tokenizerOf } from '../../src/bench/count.ts';
import { loadTokenizers } from '../../src/tokens/index.ts';

describe('bench token counts', () => {
  it('names the tokenizer of OpenAI and Llama 3 models, none for the others', () => {
    const cases: [string, string | null][] = [
      ['gpt-4o-mini', 'o200k'],
      ['gpt-4.1', 'o200k'],
      ['gpt-5', 'o200k'],
      ['o3-mini', 'o200k'],
      ['o1', 'o200k'],
      ['openai/gpt-4.1-mini', 'o200k'],
      ['gpt-4-turbo', 'cl100k'],
      ['gpt-3.5-turbo', 'cl100k'],
      ['llama3.2', 'llama3'],
      ['meta-llama/Llama-3.3-70B-Instruct-Turbo', 'llama3'],
      ['llama-3.1-8b-instant', 'llama3'],
      ['llama2', null],
      ['claude-sonnet-4-5', null],
      ['gemini-2.5-flash', null],
      ['qwen2.5-coder', null],
      ['omni', null],
      ['', null],
    ];
    for (const [model, want] of cases) assert.equal(tokenizerOf(model), want, model);
  });

  it('counts exactly with that tokenizer and loads nothing for a model without one', async () => {
    let loads = 0;
    const count = exactCounter(() => {
      loads++;
      return loadTokenizers();
    });
    assert.equal(await count('hello world', 'claude-sonnet-4-5'), null);
    assert.equal(loads, 0);
    const t = await loadTokenizers();
    const text = 'function add(a, b) {\n  return a + b;\n}\n';
    assert.deepEqual(await count(text, 'gpt-4.1'), { count: t.o200k(text), method: 'o200k' });
    assert.deepEqual(await count(text, 'llama3.2'), { count: t.llama3(text), method: 'llama3' });
    assert.deepEqual(await count(text, 'gpt-4'), { count: t.cl100k(text), method: 'cl100k' });
    assert.notEqual(t.o200k(text), Math.ceil(text.length / 4), 'the exact count is not the estimate');
  });
});
