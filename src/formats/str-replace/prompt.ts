// str-replace's short prompt: how to write edits in it, for a model's system
// prompt (the playground's "Run with a model" puts its role text before it),
// and the marker every prompt for it must show (spec/prompts/str-replace.md).

/** How to write str-replace edits, for a system prompt: `Format.prompt`. */
export const PROMPT = `Edit with text-editor tool calls, one JSON object per call:

{"command": "str_replace", "path": "file.py", "old_str": "text copied exactly, unique in the file", "new_str": "its replacement"}
{"command": "insert", "path": "file.py", "insert_line": 3, "new_str": "lines to insert after line 3"}
{"command": "create", "path": "new.py", "file_text": "the whole file"}`;

/** What every prompt for str-replace shows the model: `Format.marker`. */
export const MARKER = '"str_replace"';
