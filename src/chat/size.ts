// How large a live run's request is, before it is sent: an estimate of its
// tokens from its length (characters ÷ 4, as the bench estimates; counting
// with a real tokenizer would take the page hundreds of milliseconds on a
// large source, at every keystroke), the tokenizer family the model
// counts with where that is known, and the size above which the page asks
// before sending. Pure (no DOM, no fetch).

import { CHARS_PER_TOKEN, estimateTokens, tokenizerOf } from '../bench/count.ts';

/** Above this many (estimated) tokens a live run asks before it sends the request. */
export const LARGE_REQUEST_TOKENS = 100_000;

export interface RequestSize {
  /** The characters sent: the system prompt and the user message. */
  chars: number;
  /** The estimate: characters ÷ 4, rounded up. */
  tokens: number;
  /** The model's tokenizer family where this page knows it (its count can differ from the estimate), else null. */
  family: string | null;
  /** Over LARGE_REQUEST_TOKENS: Run asks first. */
  large: boolean;
}

export function requestSize(system: string, user: string, model: string): RequestSize {
  const chars = system.length + user.length;
  const tokens = estimateTokens(chars);
  return { chars, tokens, family: tokenizerOf(model), large: tokens > LARGE_REQUEST_TOKENS };
}

const number = (n: number) => n.toLocaleString('en-US');

/** The size as the panel says it. */
export function sizeText(size: RequestSize): string {
  const family = size.family ? `; the model counts with the ${size.family} tokenizer, which may give another number` : '';
  const large = size.large ? ` More than ${number(LARGE_REQUEST_TOKENS)}: Run asks before sending.` : '';
  return `About ${number(size.tokens)} tokens to send (an estimate: ${number(size.chars)} characters ÷ ${CHARS_PER_TOKEN}${family}).${large}`;
}

/** What the confirm step asks. */
export function confirmText(size: RequestSize): string {
  return (
    `This request is about ${number(size.tokens)} tokens (an estimate), more than ${number(LARGE_REQUEST_TOKENS)}: ` +
    'it may cost a lot, or be more than the model can take. Send it?'
  );
}
