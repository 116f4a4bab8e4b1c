// The given files as the engine's stages read them: each parsed into lines
// (src/core/text.ts) once, on first use, and only if an edit names it.

import { parseText, type TextFile } from './text.ts';

/** A request's given files: their texts, their names, and each one's lines on demand. */
export interface Originals {
  /** The texts, by the name they were given. */
  readonly texts: Readonly<Record<string, string>>;
  /** Their names, in the order given. */
  readonly given: readonly string[];
  /** Whether a file of exactly that name was given. */
  has(path: string): boolean;
  /** The given file of exactly that name, as lines, or undefined. */
  text(path: string): TextFile | undefined;
}

export function originals(texts: Readonly<Record<string, string>>): Originals {
  const parsed = new Map<string, TextFile>();
  const has = (path: string) => Object.hasOwn(texts, path);
  return {
    texts,
    given: Object.keys(texts),
    has,
    text(path) {
      if (!has(path)) return undefined;
      let t = parsed.get(path);
      if (!t) parsed.set(path, (t = parseText(texts[path])));
      return t;
    },
  };
}
