// Lazy elisions: a placeholder a model writes instead of code it left out
// (`// ... existing code ...`, `# rest of function unchanged`, a bare
// `...`). Applied as written, the placeholder replaces the code it stands
// for: the code is gone. spec/ln-diff.md, "Elisions", is the contract; the
// rule is narrow on purpose, so that real code is never refused:
//
// A new line is a placeholder when, trimmed, it is
//   1. a line comment (`//`, `#`, `--`, `;`, `%`, each or more) or a block comment
//      (`/* … */`, `<!-- … -->`, `{/* … */}`) on its own, whose text is only
//      dots (`// ...`), or holds `...`/`…` and a word saying code was left out
//      (existing, rest, remaining, unchanged, omitted, …), or says so in words
//      (`rest of the file unchanged`, `other methods unchanged`,
//      `existing code`, `code omitted`);
//   2. a bare `...` or `…` (or `[...]`), except right after a line ending in
//      `:` and indented deeper than it (Python's `...` as a body);
// and the same trimmed line is neither among the edit's old lines nor in the
// original file (a comment the file already has is text, not a placeholder).
// JavaScript's spread (`...args`) and a `...` inside code are never
// placeholders.

const LINE_COMMENT = /^(?:\/\/+|#+|-{2,}|;+|%+)\s*(.*)$/;
const BLOCK_COMMENT = /^(?:\{\s*)?(?:\/\*+|<!--)\s*(.*?)\s*(?:\*+\/|-->)(?:\s*\})?$/;
const DOTS = /(?:\.{3,}|…)/;
const LEFT_OUT_WORD =
  /\b(?:existing|rest|remaining|unchanged|omitted|elided|skipped|previous|original|same|other|more|etc|snip|as before|keep|kept|code|lines)\b/i;
const LEADING_WORD = /^[(\[]*(?:existing|rest|remaining|other|previous|original|same|unchanged|omitted|keep)\b/i;
const LEFT_OUT_PHRASE = new RegExp(
  [
    String.raw`^(?:the\s+)?rest\s+of\s+(?:the\s+)?[\w .-]{0,40}?\b(?:unchanged|remains?|stays?|is\s+the\s+same|as\s+(?:is|before)|omitted|here)\b`,
    String.raw`^(?:the\s+)?rest\s+(?:unchanged|omitted|as\s+before)\b`,
    String.raw`^(?:[\w-]+\s+){0,3}(?:code|lines?|methods?|functions?|imports?|implementation|body|content|contents|logic|tests?|fields?|properties|cases?|styles?|rules?|sections?)\s+(?:\w+\s+)?(?:unchanged|omitted|elided|not\s+shown|remains?\s+(?:the\s+same|unchanged)|stays?\s+the\s+same|as\s+before)\b`,
    String.raw`^(?:\.\.\.\s*)?(?:keep|keeps|keeping)\s+(?:the\s+)?(?:existing|rest|remaining|original)\b`,
    String.raw`^existing\s+(?:code|lines|content|implementation|methods|functions|imports)\b`,
    String.raw`^(?:unchanged|omitted|snip(?:ped)?)[.!)]*$`,
  ].join('|'),
  'i',
);

/** A word every `LEFT_OUT_PHRASE` holds: a cheap test first (most comments are not placeholders). */
const LEFT_OUT_HINT = /rest|unchanged|omitted|elided|shown|remain|stay|before|keep|existing|snip/i;

/** Whether the text of a comment (leader and trailer removed) says code was left out. */
function saysLeftOut(text: string): boolean {
  const t = text.trim();
  if (t === '') return false;
  if (/^[\s.…()[\]]+$/.test(t)) return DOTS.test(t);
  const inner = t.replace(/^[(\[]*(?:\.{3,}|…)/, '');
  if (inner !== t) return LEFT_OUT_WORD.test(inner); // `... existing code ...`, `(... rest unchanged)`
  if (/(?:\.{3,}|…)[)\]]*$/.test(t) && LEADING_WORD.test(t)) return true; // `existing code ...`
  return LEFT_OUT_HINT.test(t) && LEFT_OUT_PHRASE.test(t);
}

/** Whether a trimmed line, on its own, is shaped like a placeholder (before the context checks). */
export function placeholderShape(trimmed: string): 'comment' | 'dots' | null {
  if (trimmed === '...' || trimmed === '…' || trimmed === '[...]' || trimmed === '[…]') return 'dots';
  if (trimmed.length > 200) return null;
  const block = BLOCK_COMMENT.exec(trimmed);
  if (block) return saysLeftOut(block[1]) ? 'comment' : null;
  const line = LINE_COMMENT.exec(trimmed);
  if (line && !/^#!/.test(trimmed) && !/^#\s*(?:include|define|if|endif|else|pragma|region|endregion)\b/.test(trimmed))
    return saysLeftOut(line[1]) ? 'comment' : null;
  return null;
}

/** How every placeholder shape starts (dots, a comment's leader): a cheap test before `placeholderShape`. */
const MAY_BE_PLACEHOLDER = /^(?:[.…[{#;%]|\/[/*]|--|<!--)/;

/**
 * What every placeholder holds somewhere (dots, or a word of `LEFT_OUT_HINT`):
 * a line without it is no placeholder, told without the costlier shape test.
 */
const SAYS_LEFT_OUT_SOMEWHERE = new RegExp(`${DOTS.source}|${LEFT_OUT_HINT.source}`, 'i');

const indentOf = (line: string) => line.length - line.trimStart().length;

/**
 * The index in `newLines` of the first placeholder line, or -1. `oldLines`
 * are the edit's cited lines; `fileLines` gives the original file's lines
 * (called only when a placeholder-shaped line is found, so that the common
 * case reads nothing more).
 */
export function findElision(
  newLines: readonly string[],
  oldLines: readonly string[],
  fileLines: () => readonly string[],
): number {
  let known: Set<string> | null = null;
  let old: Set<string> | null = null;
  for (let i = 0; i < newLines.length; i++) {
    const line = newLines[i];
    if (line.length > 300) continue;
    const trimmed = line.trim();
    if (!MAY_BE_PLACEHOLDER.test(trimmed) || !SAYS_LEFT_OUT_SOMEWHERE.test(trimmed)) continue;
    // One of the edit's old lines (a diff's context line) is known text, whatever its shape:
    // skipped before the costlier shape test.
    if ((old ??= new Set(oldLines)).has(line)) continue;
    const shape = placeholderShape(trimmed);
    if (shape === null) continue;
    if (shape === 'dots' && trimmed !== '[...]' && trimmed !== '[…]') {
      let p = i - 1;
      while (p >= 0 && newLines[p].trim() === '') p--;
      if (p >= 0 && newLines[p].trimEnd().endsWith(':') && indentOf(line) > indentOf(newLines[p])) continue;
    }
    if (!known) {
      known = new Set<string>();
      for (const l of oldLines) known.add(l.trim());
      for (const l of fileLines()) if (l.length <= 300) known.add(l.trim());
    }
    if (known.has(trimmed)) continue;
    return i;
  }
  return -1;
}
