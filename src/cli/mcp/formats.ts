// `list_formats`: every format the engine reads, with one line on what a
// reply in it looks like and how read_file shows a file for it.

import { formats } from '../../formats/index.ts';
import { viewKind, type ReadView } from './read.ts';

/** One line per format: what a reply in it looks like. */
const LINES: Record<string, string> = {
  'ln-diff': 'editblocks that cite the removed lines with their line numbers (12│text), so a block one line off still lands where it belongs',
  'search-replace': "aider's SEARCH/REPLACE blocks: the exact old lines, then the new ones, after the file's path",
  whole: 'each changed file written out whole in a fenced block under its path',
  udiff: 'a unified diff (--- a/file, +++ b/file, @@ hunks), line numbers optional',
  roo: "Roo Code's apply_diff: SEARCH/REPLACE blocks with a :start_line: hint",
  udiffx: 'the udiffx FILE_CHANGES envelope: new, patched, renamed and deleted files in one reply',
  hashline: 'line:tag edits that name lines by the tags read_file shows, checked against the file as read',
  between: "aider's @BETWEEN@ snippets: new code placed between two quoted lines of the file",
  'apply-patch': "OpenAI's apply_patch (V4A): *** Begin Patch with Add, Update and Delete File sections",
  'str-replace': 'text-editor tool calls (str_replace with old_str and new_str, create, insert) written as JSON',
};

export interface FormatInfo {
  name: string;
  title: string;
  description: string;
  /** read_file shows the file with line numbers the model cites (ln-diff, roo). */
  numbers_lines: boolean;
  view: ReadView['view'];
}

export function listFormats(): FormatInfo[] {
  return formats.map((f) => ({
    name: f.name,
    title: f.title,
    description: LINES[f.name] ?? f.title,
    numbers_lines: viewKind(f.name) === 'numbered',
    view: viewKind(f.name),
  }));
}
