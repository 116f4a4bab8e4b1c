// udiff's streaming rules (spec/formats/udiff.md, "Streaming"): when a hunk
// read from a reply still arriving is final.

import { settledUnlessProbed } from '../../core/settle.ts';
import type { Edit, SettleContext, StreamRules } from '../../core/types.ts';
import { hunkNumbers } from './hunks.ts';

/** A hunk takes lines until its section ends, and a file created or deleted takes every hunk until the next file header. */
const PROBES = settledUnlessProbed(() => ['+\n@@\n+\n']);

/**
 * A numbered hunk short of its counts that a code fence closed waits while
 * only hunk-like lines follow the fence: more of them could make up its
 * counts, and the hunk then fails ("Code fences"). Cautious: any line
 * starting with a space, `-` or `+` counts.
 */
function waitsAfterFence(edit: Edit, context: SettleContext): boolean {
  const { reply } = context;
  const headEnd = reply.indexOf('\n', edit.span.from);
  const n = hunkNumbers(reply.slice(edit.span.from, headEnd < 0 ? reply.length : headEnd).trimStart());
  if (!n || (edit.old.length >= n.oldCount && edit.new.length >= n.newCount)) return false;
  const after = reply.slice(edit.span.to).split('\n').slice(1, -1); // the complete lines after the hunk's last line
  if (after.length === 0 || !/^ *(`{3,}|~{3,})/.test(after[0])) return false;
  return after.slice(1).every((line) => /^[ +-]/.test(line));
}

/** A hunk is final when no probe line changes it and it does not wait after a fence (`waitsAfterFence`). */
export const UDIFF_STREAM: StreamRules = {
  settled: (edit, context) => !waitsAfterFence(edit, context) && PROBES.settled(edit, context),
};
