// roo's short prompt: how to write edits in it, for a model's system
// prompt (the playground's "Run with a model" puts its role text before it),
// and the marker every prompt for it must show (spec/prompts/roo.md).

/** How to write roo edits, for a system prompt: `Format.prompt`. */
export const PROMPT = `Every file is shown with numbered lines ("12 | text"). Edit with an apply_diff tool call:

<apply_diff>
<path>path/to/file.py</path>
<diff>
<<<<<<< SEARCH
:start_line:12
-------
lines copied exactly from the file
=======
the new lines
>>>>>>> REPLACE
</diff>
</apply_diff>`;

/** What every prompt for roo shows the model: `Format.marker`. */
export const MARKER = ':start_line:';
