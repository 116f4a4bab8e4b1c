// What the engine did with an example reply, in a few words for the prompts
// pages: per edit (numbered from #1, like every count shown to people), its
// status and how it matched or why it failed.

import type { ApplyResult, EditResult } from '../../core/types.ts';
import { editNumber } from '../../examples/render.ts';

function edit(e: EditResult): string {
  const warnings = [...new Set(e.warnings.map((w) => w.code))];
  const extra = warnings.length ? `, warning ${warnings.join(', ')}` : '';
  if (e.status === 'failed') return `failed: ${e.code ?? 'error'}`;
  if (e.code === 'duplicate') return `applied once: duplicate of ${editNumber(e.duplicateOf ?? 0)}${extra}`;
  const offset = e.offset ? ` ${e.offset > 0 ? '+' : ''}${e.offset}` : '';
  const similarity = e.match === 'fuzzy' && e.similarity !== null && e.similarity < 1 ? ` (similarity ${e.similarity.toFixed(3)})` : '';
  return `applied: ${e.match ?? 'exact'}${offset}${similarity}${extra}`;
}

export function describeOutcome(result: ApplyResult): string {
  const reply = result.diagnostics.map((d) => d.code);
  if (result.edits.length === 0) return `No edits${reply.length ? ` (${reply.join(', ')})` : ''}.`;
  const edits = result.edits.map((e, i) => (result.edits.length > 1 ? `${editNumber(i)} ${edit(e)}` : edit(e)));
  return `${edits.join('; ')}${reply.length ? `; reply: ${reply.join(', ')}` : ''}.`;
}
