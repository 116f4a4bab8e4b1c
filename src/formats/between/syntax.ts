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

const SPACE = /\s/;
const isSpace = (c: string | undefined): boolean => c !== undefined && SPACE.test(c);

/**
 * The two anchors of `@BETWEEN@` arguments, with their columns in `args`
 * (0-based, half-open): what `BETWEEN_ARGS` matches, found in linear time
 * (the regex's two greedy groups backtrack over every `" AND "` of a long
 * line). The second anchor ends at the last `"` (only blanks after it); the
 * first ends at the last `"␣AND␣"` that leaves both anchors non-empty.
 */
export function betweenAnchors(args: string): { a: string; b: string; aAt: [number, number]; bAt: [number, number] } | null {
  let open = 0;
  while (isSpace(args[open])) open++;
  if (args[open] !== '"') return null;
  let close = args.length - 1;
  while (close >= 0 && isSpace(args[close])) close--;
  if (close <= open || args[close] !== '"') return null;
  const aFrom = open + 1;
  // `AND` occurrences from the right: the first that fits gives the longest first anchor.
  for (let k = args.lastIndexOf('AND', close - 1); k > aFrom; k = args.lastIndexOf('AND', k - 1)) {
    let q = k - 1;
    while (q >= 0 && isSpace(args[q])) q--;
    let r = k + 3;
    while (isSpace(args[r])) r++;
    if (q === k - 1 || r === k + 3) continue; // no blank before or after AND
    if (args[q] !== '"' || q < aFrom + 1) continue; // the first anchor is empty or not quoted
    if (args[r] !== '"' || r + 1 >= close) continue; // the second anchor is empty or not quoted
    return { a: args.slice(aFrom, q), b: args.slice(r + 1, close), aAt: [aFrom, q], bAt: [r + 1, close] };
  }
  return null;
}

/** Anchors are compared without the white space around them. */
export const anchorKey = (line: string): string => line.trim();
