// Short default system prompts, one per format, for "Run with a model", and
// the user message: the source as the format shows it, then the request.
// Pure (no DOM); loaded only with the live-run panel.

import { fenced } from '../fence.ts';

const COMMON = 'You are an expert programmer. Change the files below as the user asks. Answer with a short explanation and the edits, in the format described here, and nothing else.';

const PROMPTS: Record<string, string> = {
  'ln-diff': `${COMMON}

Every file is shown with numbered lines: "12│    return x". Write each change as an editblock:

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
5. To move code, remove it in one editblock and insert it in another.`,
  'search-replace': `${COMMON}

Write each change as a SEARCH/REPLACE block: the file path alone on a line, then

<<<<<<< SEARCH
lines copied exactly from the file, enough to be unique
=======
the lines to put in their place
>>>>>>> REPLACE

To create a file, use an empty SEARCH section.`,
  whole: `${COMMON}

For every file you change, write its path alone on a line, then the file's complete new text in a fenced code block. Never abbreviate or leave out unchanged parts.`,
  udiff: `${COMMON}

Write the changes as a unified diff, like \`diff -u\`: "--- a/path" and "+++ b/path" headers, then hunks starting with "@@ ... @@", each line prefixed with " " (context), "-" (removed) or "+" (added). Copy context and removed lines exactly; put the diff in a \`\`\`diff fence.`,
  roo: `${COMMON}

Every file is shown with numbered lines ("12 | text"). Edit with an apply_diff tool call:

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
</apply_diff>`,
  udiffx: `${COMMON}

Put all changes in one <FILE_CHANGES> envelope, with <FILE_PATCH path="..."> holding unified-diff hunks ("@@" headers, lines prefixed " ", "-" or "+"), <FILE_NEW path="..."> holding a new file's whole text, <FILE_APPEND path="...">, <FILE_RENAME from="..." to="..."/> and <FILE_DELETE path="..."/>.`,
  hashline: `${COMMON}

Every line of a file is shown as "number:TAG text", where TAG is a short checksum of the line. Edit with JSON tool calls, one per line of your answer, citing lines by number and tag:

{"tool": "edit", "path": "file.c", "line": 10, "tag": "Q8fA", "new": "int count = 11;"}
{"tool": "edit", "path": "file.c", "lines": "11:rA3_\\n12:Kq9z", "new": "replacement lines"}`,
  between: `${COMMON}

For each change, write the file path alone on a line, then a fenced code block whose first line says where the code goes: @BETWEEN@ "an existing line" AND "a later existing line", or @WHOLE FILE@ for a file's complete new text. The rest of the block replaces everything between the two lines.`,
  'apply-patch': `${COMMON}

Write the changes as an apply_patch patch:

*** Begin Patch
*** Update File: path/to/file.py
@@ def the_function():
 context line
-removed line
+added line
*** End Patch

Use "*** Add File: path" (every line prefixed "+") and "*** Delete File: path" to add and delete files. Context and removed lines must match the file exactly.`,
  'str-replace': `${COMMON}

Edit with text-editor tool calls, one JSON object per call:

{"command": "str_replace", "path": "file.py", "old_str": "text copied exactly, unique in the file", "new_str": "its replacement"}
{"command": "insert", "path": "file.py", "insert_line": 3, "new_str": "lines to insert after line 3"}
{"command": "create", "path": "new.py", "file_text": "the whole file"}`,
};

/** The format a live run asks for: the chosen one, ln-diff for auto. */
export const askedFormat = (format: string): string => (format in PROMPTS ? format : 'ln-diff');

/** The default system prompt for a format (ln-diff's for auto or an unknown name). */
export function defaultPrompt(format: string): string {
  return PROMPTS[askedFormat(format)];
}

/** True when a prompt is one of the defaults (so switching formats may replace it). */
export const isDefaultPrompt = (text: string): boolean => Object.values(PROMPTS).includes(text);

/**
 * The source as a format shows it to a model: each file's path on a line,
 * then its view (numbered lines, tags) when the format has one, else the
 * file as it is in a fence.
 */
export function sourceText(files: readonly { name: string; text: string }[], view?: (text: string) => string): string {
  return files.map((f) => `${f.name}\n${view ? view(f.text).replace(/\n$/, '') : fenced(f.text)}`).join('\n\n');
}

/** The user message: the source, then what to do. */
export function userMessage(source: string, instruction: string): string {
  const request = instruction.trim() || 'Improve the code.';
  return source ? `${source}\n\n${request}` : request;
}
