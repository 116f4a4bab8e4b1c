// Find the spec files and read their examples (Node side: tests, dump, pages).

import { readFileSync, readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { extractExamples, type SpecExample } from './extract.ts';

export const SPEC_DIR = new URL('../../spec/', import.meta.url);

export interface SpecFile {
  /** Path relative to spec/, e.g. `ln-diff.md`. */
  path: string;
  format: string;
  examples: SpecExample[];
}

/** The page's default format: `format:` in the front matter, else `ln-diff`. */
export function pageFormat(markdown: string): string {
  const fm = /^---\n([\s\S]*?)\n---/.exec(markdown);
  const m = fm && /^format:\s*(\S+)\s*$/m.exec(fm[1]);
  return m ? m[1] : 'ln-diff';
}

export function specFiles(dir: string = SPEC_DIR.pathname): SpecFile[] {
  const out: SpecFile[] = [];
  const walk = (d: string) => {
    for (const entry of readdirSync(d, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
      const full = join(d, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (entry.name.endsWith('.md')) {
        const text = readFileSync(full, 'utf8');
        const format = pageFormat(text);
        out.push({ path: relative(dir, full), format, examples: extractExamples(text, format) });
      }
    }
  };
  walk(dir);
  return out;
}
