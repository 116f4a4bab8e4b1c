// Token counts with real tokenizers, in pure JavaScript (no WebAssembly, no
// `node:` modules), loaded on first use with dynamic `import()`: a page or a
// script that never counts loads none of them (together about 7 MB of
// vocabulary data).
//
// Exact: OpenAI's o200k_base and cl100k_base (gpt-tokenizer, a port of
// tiktoken) and Llama 3 (llama3-tokenizer-js). Estimated: Claude and Gemini,
// whose tokenizers have no exact client-side implementation; see `method`.

/** Token counts of one text. */
export interface TokenCounts {
  /** OpenAI o200k_base (GPT-4o, GPT-4.1, GPT-5, o-series): exact. */
  o200k: number;
  /** OpenAI cl100k_base (GPT-4, GPT-3.5): exact. */
  cl100k: number;
  /** Llama 3 / 3.1: exact, without the begin- and end-of-text tokens. */
  llama3: number;
  /** Claude: an estimate, `CLAUDE_FACTOR` × the o200k count, rounded up. */
  claudeEstimate: number;
  /** Gemini: an estimate, characters ÷ `GEMINI_CHARS_PER_TOKEN`, rounded up. */
  geminiEstimate: number;
}

/** Claude tokens per o200k token, for the estimate. */
export const CLAUDE_FACTOR = 1.2;
/** Characters per Gemini token, for the estimate. */
export const GEMINI_CHARS_PER_TOKEN = 4;

/** How each count is made, for a label or a page. */
export const method =
  'o200k and cl100k: exact, gpt-tokenizer 4.0.0 (a JavaScript port of tiktoken). ' +
  'Llama 3: exact, llama3-tokenizer-js 1.2.0, without the begin- and end-of-text tokens. ' +
  'Text that looks like a special token (such as <|endoftext|>) is counted as ordinary text. ' +
  'Claude and Gemini are estimates: there is no exact client-side tokenizer for either (the exact counts come from each vendor\'s count-tokens API). ' +
  `Claude estimate = the o200k count × ${CLAUDE_FACTOR}, rounded up (third-party comparisons with Anthropic's count_tokens put Claude models up to Opus 4.6 at about 1.15–1.2× o200k; ` +
  'Anthropic states that the tokenizer of Opus 4.7 and later uses about 1.0–1.35× as many tokens again). ' +
  `Gemini estimate = characters ÷ ${GEMINI_CHARS_PER_TOKEN}, rounded up (Google's documented rule of thumb, "a token is about 4 characters"; code usually has fewer characters per token).`;

/** Claude, estimated from the exact o200k count. */
export const estimateClaude = (o200k: number): number => Math.ceil(Math.round(o200k * CLAUDE_FACTOR * 1e6) / 1e6);

/** Gemini, estimated from the length in characters (Unicode code points). */
export const estimateGemini = (text: string): number => Math.ceil(codePoints(text) / GEMINI_CHARS_PER_TOKEN);

function codePoints(text: string): number {
  let n = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0xd800 || c > 0xdbff || i + 1 >= text.length) n++;
    else {
      const d = text.charCodeAt(i + 1);
      n++;
      if (d >= 0xdc00 && d <= 0xdfff) i++;
    }
  }
  return n;
}

interface Tokenizers {
  o200k: (text: string) => number;
  cl100k: (text: string) => number;
  llama3: (text: string) => number;
}

/** Special tokens are ordinary text here: an empty set disallows none and allows none. */
const PLAIN_TEXT = { disallowedSpecial: new Set<string>() };
/**
 * llama3-tokenizer-js splits out its special tokens with this regex (an
 * option its own `optimisticCount` uses); one that never matches makes
 * them ordinary text.
 */
const NO_SPECIAL_TOKENS = /(?!)/g;

let loading: Promise<Tokenizers> | null = null;

/** Load the three tokenizers once (dynamic imports: separate chunks in a browser bundle). */
export function loadTokenizers(): Promise<Tokenizers> {
  loading ??= Promise.all([
    import('gpt-tokenizer/encoding/o200k_base'),
    import('gpt-tokenizer/encoding/cl100k_base'),
    import('llama3-tokenizer-js'),
  ]).then(([o200k, cl100k, llama]) => {
    const llama3 = llama.default;
    const llamaOptions = { bos: false, eos: false, specialTokenRegex: NO_SPECIAL_TOKENS } as { bos: boolean; eos: boolean };
    return {
      o200k: (text: string) => o200k.countTokens(text, PLAIN_TEXT),
      cl100k: (text: string) => cl100k.countTokens(text, PLAIN_TEXT),
      llama3: (text: string) => (text === '' ? 0 : llama3.encode(text, llamaOptions).length),
    };
  });
  loading.catch(() => (loading = null)); // a failed load may be retried
  return loading;
}

/** Whether the tokenizers have been asked for (a UI can say "loading tokenizers…" otherwise). */
export const tokenizersRequested = (): boolean => loading !== null;

/** Count `text` with every tokenizer, loading them on first use. */
export async function countTokens(text: string): Promise<TokenCounts> {
  const t = await loadTokenizers();
  const o200k = t.o200k(text);
  return {
    o200k,
    cl100k: t.cl100k(text),
    llama3: t.llama3(text),
    claudeEstimate: estimateClaude(o200k),
    geminiEstimate: estimateGemini(text),
  };
}
