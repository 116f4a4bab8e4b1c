// ln-diff's short prompt: how to write edits in it, for a model's system
// prompt (the playground's "Run with a model" puts its role text before it),
// and the marker every prompt for it must show (spec/prompts/ln-diff.md).

/** How to write ln-diff edits, for a system prompt: `Format.prompt`. */
export const PROMPT = `Every file is shown with numbered lines: "12│    return x". Write each change as an editblock:

path/to/file.py
<editblock>
<<<<<<< REMOVE
12│    return x
=======
 │    return x + 1
>>>>>>> INSERT
</editblock>

1. The file path alone on a line, verbatim, then <editblock>.
2. REMOVE: consecutive numbered lines copied exactly from the file, number, │ and content, character for character.
3. INSERT: the new lines, each prefixed with spaces and │, the bars aligned with the REMOVE section.
4. Line numbers always refer to the file as shown: editblocks are independent, never renumber.
5. To move code, remove it in one editblock and insert it in another.`;

/** What every prompt for ln-diff shows the model: `Format.marker`. */
export const MARKER = '<<<<<<< REMOVE';
