// The message to send back to a model whose edit failed: the engine's
// message, then the lines the edit cited next to the lines the file really
// has there. Pure; runs in the worker and in unit tests.

import type { EditResult } from '../core/types.ts';

const BAR = '\u2502';

function numbered(lines: readonly string[], first: number | null): string {
  if (first === null) return lines.map((l) => `${l}`).join('\n');
  const width = String(first + Math.max(lines.length - 1, 0)).length;
  return lines.map((l, i) => `${String(first + i).padStart(width, ' ')}${BAR}${l}`).join('\n');
}

const span = (start: number, end: number) => (end <= start ? `line ${start}` : `lines ${start}-${end}`);

/** Null for an applied edit. */
export function retryMessage(edit: EditResult, old: readonly string[]): string | null {
  if (edit.status !== 'failed') return null;
  const out: string[] = [];
  const code = edit.code ? ` (${edit.code})` : '';
  out.push(`Your edit #${edit.index + 1} to ${edit.file} was not applied${code}: ${edit.message}`);
  if (old.length > 0) {
    const where = edit.cited ? ` (${span(edit.cited.start, edit.cited.end)})` : '';
    out.push('', `The edit cites${where}:`, numbered(old, edit.cited?.start ?? null));
  }
  if (edit.code === 'ambiguous' && edit.candidates.length > 1) {
    const places = `These lines occur at ${edit.candidates.map((c) => `line ${c.start}`).join(', ')} of ${edit.file}`;
    out.push('', edit.cited ? `${places}; cite the one you mean with its correct line numbers.` : `${places}; include more lines around the one you mean, so that they occur only there.`);
  } else if (edit.candidates.length > 0) {
    const c = edit.candidates[0];
    out.push('', `${edit.file} has at ${span(c.start, c.end)}:`, numbered(c.lines, c.start));
  }
  out.push('', edit.cited ? 'Please send this edit again, citing the lines exactly as the file has them.' : 'Please send this edit again, copying the lines exactly as the file has them.');
  return out.join('\n');
}
