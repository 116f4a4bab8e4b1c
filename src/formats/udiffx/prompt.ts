// udiffx's short prompt: how to write edits in it, for a model's system
// prompt (the playground's "Run with a model" puts its role text before it),
// and the marker every prompt for it must show (spec/prompts/udiffx.md).

/** How to write udiffx edits, for a system prompt: `Format.prompt`. */
export const PROMPT = `Put all changes in one <FILE_CHANGES> envelope, with <FILE_PATCH path="..."> holding unified-diff hunks ("@@" headers, lines prefixed " ", "-" or "+"), <FILE_NEW path="..."> holding a new file's whole text, <FILE_APPEND path="...">, <FILE_RENAME from="..." to="..."/> and <FILE_DELETE path="..."/>.`;

/** What every prompt for udiffx shows the model: `Format.marker`. */
export const MARKER = '<FILE_CHANGES>';
