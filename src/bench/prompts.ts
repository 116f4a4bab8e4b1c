// The system prompts a bench run sends: every format's prompt page
// (spec/prompts/<format>.md) read into a table of one entry per model
// family, the family a model name belongs to, and the plan for one format
// (the section's system prompt exactly as written, its reminder). The pages
// are passed in as text, so the page and the CLI load them their own way.
// No DOM, no `node:`.

import { readPromptPage } from '../prompt/sections.ts';
import type { FormatPlan } from './types.ts';

/** One `### ` section of a prompt page: its heading, its system prompt and its reminder. */
export interface PromptEntry {
  family: string;
  system: string;
  reminder: string | null;
}

/** Every format's sections, in page order; a section without a system prompt is left out. */
export type PromptTable = Record<string, PromptEntry[]>;

/** The model families the prompt pages have a section for (what the CLI's `--family` may name). */
export const FAMILIES = ['openai', 'anthropic', 'gemini', 'deepseek', 'qwen', 'local'] as const;
export type FamilyKey = (typeof FAMILIES)[number];

/** Read the prompt pages into a table. */
export function promptTable(pages: readonly { format: string; markdown: string }[]): PromptTable {
  const table: PromptTable = {};
  for (const { format, markdown } of pages) {
    table[format] = readPromptPage(markdown, format).sections.flatMap((s) =>
      s.prompt === null ? [] : [{ family: s.family, system: s.prompt, reminder: s.reminder }],
    );
  }
  return table;
}

/**
 * The family of a model name, by its last path segment, case-insensitive:
 * `gpt-*`, `o1`/`o3`/`o4*` and `chatgpt*` are OpenAI's; names holding
 * `claude`, `gemini` (not `gemma`), `deepseek` or `qwen` are those families';
 * anything else (llama, mistral, phi, gemma, an empty name) is a local model.
 */
export function familyOf(model: string): FamilyKey {
  const name = model.trim().toLowerCase().split('/').pop() ?? '';
  if (/^(gpt-|chatgpt|o[134](?![0-9a-z]))/.test(name)) return 'openai';
  if (name.includes('claude')) return 'anthropic';
  if (name.includes('gemini')) return 'gemini';
  if (name.includes('deepseek')) return 'deepseek';
  if (name.includes('qwen') || name.startsWith('qwq')) return 'qwen';
  return 'local';
}

/** How each family's heading starts. */
const HEADINGS: Record<FamilyKey, RegExp> = {
  openai: /^OpenAI\b/,
  anthropic: /^Anthropic\b/,
  gemini: /^Google\b/,
  deepseek: /^DeepSeek\b/,
  qwen: /^Qwen\b/,
  local: /^Llama\b/,
};

/**
 * The section of `format` for a family, or null when the page has none. When
 * a page splits the family in two (ln-diff: "OpenAI GPT-4o and GPT-4o-mini",
 * "OpenAI GPT-4.1 and GPT-5"), a `gpt-4o*` model takes the first section and
 * every other model of the family the last.
 */
export function sectionFor(table: PromptTable, format: string, family: FamilyKey, model: string): PromptEntry | null {
  const sections = (Object.hasOwn(table, format) ? table[format] : []).filter((s) => HEADINGS[family].test(s.family));
  if (sections.length <= 1) return sections[0] ?? null;
  const name = model.trim().toLowerCase().split('/').pop() ?? '';
  return name.startsWith('gpt-4o') ? sections[0] : sections[sections.length - 1];
}

/** The plan that asks `format` with a prompt page's section. */
export function planOf(format: string, section: PromptEntry): FormatPlan {
  return { format, family: section.family, system: section.system, reminder: section.reminder };
}

/**
 * What `format` is asked with for `model`: the section of the model's family,
 * or `override` (family `custom`). Throws an Error naming the format when its
 * page has no section for the family.
 */
export function formatPlan(table: PromptTable, format: string, model: string, override?: { system: string; reminder: string | null }): FormatPlan {
  if (override) return { format, family: 'custom', system: override.system, reminder: override.reminder };
  const family = familyOf(model);
  const section = sectionFor(table, format, family, model);
  if (!section) throw new Error(`the prompt page of ${format} has no section for ${family} models`);
  return planOf(format, section);
}
