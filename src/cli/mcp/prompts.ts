// MCP prompts: every format's system prompt for every model family its
// prompt page has (spec/prompts/<format>.md, the pages the site's Prompts
// section shows), named `<format>-<family>`, e.g. `ln-diff-anthropic-claude`.
// The pages ship with the package and are read when the server starts.

import { readFileSync, readdirSync } from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { readPromptPage } from '../../prompt/sections.ts';

export interface FormatPrompt {
  /** `<format>-<section id>`. */
  name: string;
  format: string;
  family: string;
  /** What the prompt was written for, and why (the section's first paragraph). */
  note: string;
  system: string;
  /** Text the page asks to put at the end of the last user message, if any. */
  reminder: string | null;
}

/** The package's prompt pages: two levels up from src/cli/mcp/ and from the bundle lib/cli/mcp.cjs alike. */
export function promptDir(): string {
  const up = import.meta.url.endsWith('.ts') ? '../../../' : '../../';
  return fileURLToPath(new URL(`${up}spec/prompts/`, import.meta.url));
}

/** Every prompt of every page in `dir` (a page that cannot be read is left out). */
export function loadPrompts(dir = promptDir()): FormatPrompt[] {
  let names: string[];
  try {
    names = readdirSync(dir).filter((n) => n.endsWith('.md')).sort();
  } catch {
    return [];
  }
  const out: FormatPrompt[] = [];
  for (const name of names) {
    const format = name.slice(0, -3);
    const page = readPromptPage(readFileSync(path.join(dir, name), 'utf8'), format);
    for (const s of page.sections) {
      if (s.prompt === null) continue;
      out.push({ name: `${format}-${s.id}`, format, family: s.family, note: s.note.replace(/\s+/g, ' '), system: s.prompt, reminder: s.reminder });
    }
  }
  return out;
}
