// between's short prompt: how to write edits in it, for a model's system
// prompt (the playground's "Run with a model" puts its role text before it),
// and the marker every prompt for it must show (spec/prompts/between.md).

/** How to write between edits, for a system prompt: `Format.prompt`. */
export const PROMPT = `For each change, write the file path alone on a line, then a fenced code block whose first line says where the code goes: @BETWEEN@ "an existing line" AND "a later existing line", or @WHOLE FILE@ for a file's complete new text. The rest of the block replaces everything between the two lines.`;

/** What every prompt for between shows the model: `Format.marker`. */
export const MARKER = '@BETWEEN@';
