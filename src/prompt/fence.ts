// Markdown code fences that hold any text: one backtick longer than the
// longest run of backticks in it, and at least three. Pure.

/** The fence (backticks) for a text. */
export function fenceFor(text: string): string {
  let longest = 0;
  for (const run of text.match(/`+/g) ?? []) longest = Math.max(longest, run.length);
  return '`'.repeat(Math.max(3, longest + 1));
}

/** A fenced code block; the text is kept as it is, a final newline added when it has none. */
export function fenced(text: string, info = ''): string {
  const fence = fenceFor(text);
  return `${fence}${info}\n${text}${text.endsWith('\n') || text === '' ? '' : '\n'}${fence}`;
}
