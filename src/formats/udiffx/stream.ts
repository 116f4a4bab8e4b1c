// udiffx's streaming rules (spec/formats/udiffx.md, "Streaming"): when an
// edit read from a reply still arriving is final.

import { settledUnlessProbed } from '../../core/settle.ts';
import type { Edit, SettleContext, StreamRules } from '../../core/types.ts';

/** The closing tag for an edit that starts with a directive tag (`<FILE_NEW …>` takes `</FILE_NEW>`). */
function directiveClose(edit: Edit, context: SettleContext): string[] {
  const m = /^<(FILE_[A-Z_]+)/.exec(context.reply.slice(edit.span.from, edit.span.from + 64));
  return m ? [`</${m[1]}>\n`] : [];
}

/**
 * A hunk takes lines until its section ends; the last hunk of a patch takes
 * a warning when a line starting with `<FILE_` ends the patch instead of
 * `</FILE_PATCH>`; a directive may still take its closing tag; a second
 * `</FILE_PATCH>` after the first makes the patch's end ambiguous, and
 * every hunk of the patch fails.
 */
const PROBED: StreamRules = settledUnlessProbed((edit, context) => [
  '+\n',
  '<FILE_\n',
  '</FILE_PATCH>\n</FILE_PATCH>\n',
  ...directiveClose(edit, context),
]);

/**
 * As `PROBED`, and a directive whose end is in doubt (`ambiguous-end`: a
 * nested opening tag that a later closing tag may still balance, which
 * merges the directives read after it) holds itself and every edit after it
 * until the reply ends; so does a file written in the reply (FILE_NEW, or
 * FILE_APPEND of a file not given), whose text or path a later directive of
 * its path changes.
 */
export const UDIFFX_STREAM: StreamRules = {
  settled(edit, context) {
    if (context.edits.some((e) => e.index <= edit.index && e.error?.code === 'ambiguous-end')) return false;
    // A file written in the reply takes the later patches, appends and renames of its path (parse.ts, "Directives run in order").
    if (!edit.error && (edit.kind === 'write' || (edit.kind === 'append' && !context.files.includes(edit.file)))) return false;
    return PROBED.settled(edit, context);
  },
};
