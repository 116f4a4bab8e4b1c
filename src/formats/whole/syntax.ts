// Markers that only other edit formats use: their presence means a reply
// with fences is not a whole-file reply ("Detection" in spec/formats/whole.md).

/** A line that marks another format, with the format's name for the reason. */
export const OTHER_FORMAT_MARKERS: readonly [RegExp, string][] = [
  [/^\s*<{5,9}\s*(SEARCH|REMOVE)\b/, 'a SEARCH/REPLACE or editblock head'],
  [/^\s*>{5,9}\s*(REPLACE|INSERT)\b/, 'a SEARCH/REPLACE or editblock end marker'],
  [/^\s*<\/?editblock>/, 'an ln-diff editblock tag'],
  [/^@@ .*@@|^@@ -\d/, 'a unified diff hunk header'],
  [/^\+\+\+ \S/, 'a unified diff file header'],
  [/^\*\*\* (Begin Patch|Update File:|Add File:|Delete File:)/, 'an apply_patch header'],
  [/^\s*@(BETWEEN|WHOLE FILE)@/, 'an aider @BETWEEN@ tag'],
  [/^\s*<FILE_(CHANGES|NEW|PATCH|APPEND|RENAME|DELETE)\b/, 'a udiffx FILE_CHANGES tag'],
  [/^\s*:start_line:/, 'a Roo :start_line: hint'],
  [/"(old_str|old_string|new_str)"\s*:/, 'a str_replace tool call'],
];
