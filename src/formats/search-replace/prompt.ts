// search-replace's short prompt: how to write edits in it, for a model's system
// prompt (the playground's "Run with a model" puts its role text before it),
// and the marker every prompt for it must show (spec/prompts/search-replace.md).

/** How to write search-replace edits, for a system prompt: `Format.prompt`. */
export const PROMPT = `Write each change as a SEARCH/REPLACE block: the file path alone on a line, then

<<<<<<< SEARCH
lines copied exactly from the file, enough to be unique
=======
the lines to put in their place
>>>>>>> REPLACE

To create a file, use an empty SEARCH section.`;

/** What every prompt for search-replace shows the model: `Format.marker`. */
export const MARKER = '<<<<<<< SEARCH';
