// The between format's tag lines (spec/formats/between.md, "Snippets").

/** A tag line: `@NAME@` first on the line (aider's `tag_pattern`), then the tag's arguments. */
export const TAG = /^\s*(@[A-Z0-9\s_-]+@)(.*)$/s;

export const BETWEEN = '@BETWEEN@';
export const WHOLE_FILE = '@WHOLE FILE@';

/**
 * The arguments of `@BETWEEN@`: two quoted lines joined by `AND` (aider's
 * `between_args_pattern`, with the blank before the first quote made
 * optional). The first group is greedy: the split is at the last
 * `"␣AND␣"`.
 */
export const BETWEEN_ARGS = /^\s*"(.+)"\s+AND\s+"(.+)"\s*$/ds;

/** The tag that starts a line, with its arguments, or null. */
export function tagOf(text: string): { tag: string; args: string; argsAt: number } | null {
  const m = TAG.exec(text);
  if (!m) return null;
  return { tag: m[1], args: m[2], argsAt: text.length - m[2].length };
}

/** The two anchors of `@BETWEEN@` arguments, with their columns in `args` (0-based, half-open). */
export function betweenAnchors(args: string): { a: string; b: string; aAt: [number, number]; bAt: [number, number] } | null {
  const m = BETWEEN_ARGS.exec(args);
  if (!m || !m.indices) return null;
  const [, ia, ib] = m.indices as unknown as [number, number][];
  return { a: m[1], b: m[2], aAt: ia, bAt: ib };
}

/** Anchors are compared without the white space around them. */
export const anchorKey = (line: string): string => line.trim();
