// The default system prompts of "Run with a model" and the user message: the
// source as the format shows it, then the request. A format's prompt is its
// own (`Format.prompt`, in its folder); the playground puts its role text
// before it. The page is built with every format's default prompt
// (`defaultPrompts`), so the panel needs no engine. Pure (no DOM); loaded
// only with the live-run panel.

import type { Format } from '../core/types.ts';
import { fenced } from './fence.ts';

const ROLE = 'You are an expert programmer. Change the files below as the user asks. Answer with a short explanation and the edits, in the format described here, and nothing else.';

/** The format a live run asks for when the chosen one has no prompt (`auto`). */
const FALLBACK = 'ln-diff';

/** Default system prompts by format name. */
export type Prompts = Readonly<Record<string, string>>;

/** The playground's default system prompt for a format: the role text, then the format's own `prompt`; null when it has none. */
export const systemPrompt = (format: Format): string | null => (format.prompt === undefined ? null : `${ROLE}\n\n${format.prompt}`);

/** The default system prompt of every format of `formats` that has a prompt, by name (written into the page when it is built). */
export function defaultPrompts(formats: readonly Format[]): Prompts {
  const out: Record<string, string> = {};
  for (const f of formats) {
    const prompt = systemPrompt(f);
    if (prompt !== null) out[f.name] = prompt;
  }
  return out;
}

/** `defaultPrompts` read back from the page: a JSON object of strings, else no prompts. */
export function readPrompts(json: string | undefined): Prompts {
  try {
    const value: unknown = JSON.parse(json ?? '{}');
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return {};
    return Object.fromEntries(Object.entries(value).filter((e): e is [string, string] => typeof e[1] === 'string'));
  } catch {
    return {};
  }
}

/** The format a live run asks for: the chosen one when it has a prompt, else ln-diff (for auto). */
export const askedFormat = (format: string, prompts: Prompts): string => (Object.hasOwn(prompts, format) ? format : FALLBACK);

/** The default system prompt for a format (ln-diff's for auto or a format without one; empty when there is none). */
export function defaultPrompt(format: string, prompts: Prompts): string {
  return prompts[askedFormat(format, prompts)] ?? '';
}

/** True when a prompt is one of the defaults (so switching formats may replace it). */
export const isDefaultPrompt = (text: string, prompts: Prompts): boolean => Object.values(prompts).includes(text);

/**
 * The source as a format shows it to a model: each file's path on a line,
 * then its view (numbered lines, tags) when the format has one, else the
 * file as it is in a fence.
 */
export function sourceText(files: readonly { name: string; text: string }[], view?: (text: string) => string): string {
  return files.map((f) => `${f.name}\n${view ? view(f.text).replace(/\n$/, '') : fenced(f.text)}`).join('\n\n');
}

/** The user message: the source, then what to do. */
export function userMessage(source: string, instruction: string): string {
  const request = instruction.trim() || 'Improve the code.';
  return source ? `${source}\n\n${request}` : request;
}
