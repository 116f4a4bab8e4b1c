// The lines that show a reply meant a SEARCH/REPLACE block (`Format.markers`),
// shared by aider's blocks and Roo Code's: the heads and ends of both tools,
// aider's older `ORIGINAL`/`UPDATED` words and Cline's `------- SEARCH` /
// `+++++++ REPLACE`, with any count of `<`, `-`, `>` or `+` (a model that
// writes four instead of seven meant a block). A marker is a whole line, in
// capitals: a sentence or a heading that names SEARCH (`--- SEARCH RESULTS
// ---`) is prose, and `=======` or `-------` alone is a Markdown heading's
// underline or a rule.

import type { EditMarker } from '../../core/types.ts';

/** A SEARCH/REPLACE head: `<<<<<<< SEARCH`, `<<<< SEARCH`, `------- SEARCH`, `<<<<<<< ORIGINAL`. */
export const SEARCH_HEAD = /^\s*(?:<{3,}|-{3,})[ \t]*(?:SEARCH|ORIGINAL)>?[ \t]*$/;

/** A SEARCH/REPLACE end: `>>>>>>> REPLACE`, `>>>> REPLACE`, `+++++++ REPLACE`, `>>>>>>> UPDATED`. */
export const SEARCH_END = /^\s*(?:>{3,}|\+{3,})[ \t]*(?:REPLACE|UPDATED)[ \t]*$/;

/** The markers of a SEARCH/REPLACE block, with `shape`, the block's whole shape, for the message. */
export function searchReplaceMarkers(shape: string): EditMarker[] {
  return [
    { line: SEARCH_HEAD, expected: `is taken for the head of a SEARCH/REPLACE block, but no block was read: ${shape}` },
    { line: SEARCH_END, expected: `is taken for the end of a SEARCH/REPLACE block, but no block was read: ${shape}` },
  ];
}
