// hashline's short prompt: how to write edits in it, for a model's system
// prompt (the playground's "Run with a model" puts its role text before it),
// and the marker every prompt for it must show (spec/prompts/hashline.md).

/** How to write hashline edits, for a system prompt: `Format.prompt`. */
export const PROMPT = `Every line of a file is shown as "number:TAG text", where TAG is a short checksum of the line. Edit with JSON tool calls, one per line of your answer, citing lines by number and tag:

{"tool": "edit", "path": "file.c", "line": 10, "tag": "Q8fA", "new": "int count = 11;"}
{"tool": "edit", "path": "file.c", "lines": "11:rA3_\\n12:Kq9z", "new": "replacement lines"}`;

/** What every prompt for hashline shows the model: `Format.marker`. */
export const MARKER = '"tag"';
