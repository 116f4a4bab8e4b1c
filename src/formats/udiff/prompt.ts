// udiff's short prompt: how to write edits in it, for a model's system
// prompt (the playground's "Run with a model" puts its role text before it),
// and the marker every prompt for it must show (spec/prompts/udiff.md).

/** How to write udiff edits, for a system prompt: `Format.prompt`. */
export const PROMPT = `Write the changes as a unified diff, like \`diff -u\`: "--- a/path" and "+++ b/path" headers, then hunks starting with "@@ ... @@", each line prefixed with " " (context), "-" (removed) or "+" (added). Copy context and removed lines exactly; put the diff in a \`\`\`diff fence.`;

/** What every prompt for udiff shows the model: `Format.marker`. */
export const MARKER = '@@';
