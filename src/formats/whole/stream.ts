// whole's streaming rules (spec/formats/whole.md, "Streaming"): when a block
// read from a reply still arriving is final.

import { settledUnlessProbed } from '../../core/stream.ts';
import type { StreamRules } from '../../core/types.ts';
import { earlyCloseProbes, opener } from './fences.ts';
import { pathFromInfo } from './paths.ts';

/**
 * A block may still turn out to have closed early (a later bare fence after
 * text: Fences rule 6). Shared with `between`, whose blocks are fenced the
 * same way.
 */
export const EARLY_CLOSE: StreamRules = settledUnlessProbed((_, context) => earlyCloseProbes(context.reply));

/** A block may close early (`EARLY_CLOSE`), and a block whose path is a guess gives way to a later block that names the file. */
export const WHOLE_STREAM: StreamRules = {
  settled(edit, context) {
    if (!EARLY_CLOSE.settled(edit, context)) return false;
    if (edit.file === '') return true;
    const lineEnd = context.reply.indexOf('\n', edit.span.from);
    const first = context.reply.slice(edit.span.from, lineEnd < 0 ? context.reply.length : lineEnd).replace(/\r$/, '');
    const fence = opener(first);
    return fence === null || pathFromInfo(fence.info, context.files) !== null;
  },
};
