// whole's short prompt: how to write edits in it, for a model's system
// prompt (the playground's "Run with a model" puts its role text before it),
// and the marker every prompt for it must show (spec/prompts/whole.md).

/** How to write whole edits, for a system prompt: `Format.prompt`. */
export const PROMPT = `For every file you change, write its path alone on a line, then the file's complete new text in a fenced code block. Never abbreviate or leave out unchanged parts.`;

/** What every prompt for whole shows the model: `Format.marker`. */
export const MARKER = '```';
