// apply-patch's short prompt: how to write edits in it, for a model's system
// prompt (the playground's "Run with a model" puts its role text before it),
// and the marker every prompt for it must show (spec/prompts/apply-patch.md).

/** How to write apply-patch edits, for a system prompt: `Format.prompt`. */
export const PROMPT = `Write the changes as an apply_patch patch:

*** Begin Patch
*** Update File: path/to/file.py
@@ def the_function():
 context line
-removed line
+added line
*** End Patch

Use "*** Add File: path" (every line prefixed "+") and "*** Delete File: path" to add and delete files. Context and removed lines must match the file exactly.`;

/** What every prompt for apply-patch shows the model: `Format.marker`. */
export const MARKER = '*** Begin Patch';
