// Which exact tokenizer a model uses, when one runs on this side: OpenAI's
// o200k_base (GPT-4o, GPT-4.1, GPT-5, the o-series), cl100k_base (GPT-4,
// GPT-3.5) and Llama 3's. A run asks it only for replies whose API reported
// no usage; other models (Claude, Gemini, Qwen, ...) have no exact tokenizer
// here, and the run then estimates, marked as such. No DOM, no `node:`.

import type { TokenMethod } from './types.ts';

/** Characters per token, for an estimate where no tokenizer counts. */
export const CHARS_PER_TOKEN = 4;

/** Characters to estimated tokens (rounded up). */
export const estimateTokens = (chars: number): number => Math.ceil(chars / CHARS_PER_TOKEN);

export type Tokenizer = Extract<TokenMethod, 'o200k' | 'cl100k' | 'llama3'>;

/** The exact tokenizer of a model, by its name (a provider prefix such as `openai/` is ignored); null when there is none here. */
export function tokenizerOf(model: string): Tokenizer | null {
  const name = (model.split('/').pop() ?? '').trim().toLowerCase();
  if (/^(gpt-4o|gpt-4\.1|gpt-4\.5|gpt-5|chatgpt-4o|o[134](-|$))/.test(name)) return 'o200k';
  if (/^(gpt-4|gpt-3\.5)/.test(name)) return 'cl100k';
  // Llama 3, 3.1, 3.2 and 3.3 share one tokenizer (Ollama writes llama3.2, others llama-3.1-8b...).
  if (/^(meta-)?llama-?3/.test(name)) return 'llama3';
  return null;
}

/**
 * A run's `count` from a loader of the tokenizers (src/tokens' loadTokenizers,
 * loaded only when a count is first needed): exact counts for a model with a
 * tokenizer here, null (estimate) for any other.
 */
export function exactCounter(
  load: () => Promise<Record<Tokenizer, (text: string) => number>>,
): (text: string, model: string) => Promise<{ count: number; method: TokenMethod } | null> {
  return async (text, model) => {
    const kind = tokenizerOf(model);
    if (!kind) return null;
    const tokenizers = await load();
    return { count: tokenizers[kind](text), method: kind };
  };
}
