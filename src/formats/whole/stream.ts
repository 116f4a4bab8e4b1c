// whole's streaming rules (spec/formats/whole.md, "Streaming"): when a block
// read from a reply still arriving is final.

import { settledUnlessProbed } from '../../core/settle.ts';
import type { StreamRules } from '../../core/types.ts';
import { replyLines } from '../../core/reply.ts';
import { earlyCloseProbes, opener, scanFences } from './fences.ts';
import { pathFromInfo } from './paths.ts';

const PROBED = settledUnlessProbed((_, context) => earlyCloseProbes(context.reply));

/**
 * A block may still turn out to have closed early (a later bare fence after
 * text: Fences rule 6), and once a block of the reply has closed early, every
 * later block waits for the end of the reply: a reply that ends inside an
 * unclosed block refuses them all (fences paired off by one). Shared with
 * `between`, whose blocks are fenced the same way.
 */
export const EARLY_CLOSE: StreamRules = {
  settled(edit, context) {
    const line = edit.span.start.line; // 1-based
    if (scanFences(replyLines(context.reply)).some((b) => b.early.length > 0 && b.open + 1 <= line)) return false;
    return PROBED.settled(edit, context);
  },
};

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
