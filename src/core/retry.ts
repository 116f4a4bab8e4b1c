// The message to send back to a model whose edit failed: the engine's
// message, then the lines the edit cited next to the lines the file really
// has there. One place makes them for the playground (the engine worker),
// the bench (its score) and the CLI (the MCP server's apply_edits). Pure.

import type { ApplyResult, Edit, EditResult, Format } from '../core/types.ts';

const BAR = '\u2502';

/** `lines` as a retry message shows them: with the numbered view's `12│` prefixes from `first`, or bare when it is null. */
function numbered(lines: readonly string[], first: number | null): string {
  if (first === null) return lines.join('\n');
  const width = String(first + Math.max(lines.length - 1, 0)).length;
  return lines.map((l, i) => `${String(first + i).padStart(width, ' ')}${BAR}${l}`).join('\n');
}

const span = (start: number, end: number) => (end <= start ? `line ${start}` : `lines ${start}-${end}`);

/**
 * Null for an applied edit. An edit already applied is not asked for again.
 * `bars`: the format that read the edit cites its old lines with the
 * numbered view's prefixes (`Format.numberedLines`), so the lines are shown
 * with them; else they are shown bare, with their numbers in the heading
 * only, so that a model copying them copies no prefix its format refuses.
 */
export function retryMessage(edit: EditResult, old: readonly string[], bars: boolean): string | null {
  if (edit.status !== 'failed') return null;
  const out: string[] = [];
  const code = edit.code ? ` (${edit.code})` : '';
  out.push(`Your edit #${edit.index + 1} to ${edit.file} was not applied${code}: ${edit.message}`);
  if (old.length > 0) {
    const where = edit.cited ? ` (${span(edit.cited.start, edit.cited.end)})` : '';
    out.push('', `The edit cites${where}:`, numbered(old, bars ? (edit.cited?.start ?? null) : null));
  }
  if (edit.code === 'ambiguous' && edit.candidates.length > 1) {
    const places = `These lines occur at ${edit.candidates.map((c) => `line ${c.start}`).join(', ')} of ${edit.file}`;
    out.push('', edit.cited ? `${places}; cite the one you mean with its correct line numbers.` : `${places}; include more lines around the one you mean, so that they occur only there.`);
  } else if (edit.candidates.length > 0) {
    const c = edit.candidates[0];
    out.push('', `${edit.file} has at ${span(c.start, c.end)}:`, numbered(c.lines, bars ? c.start : null));
  }
  // Its change is in the file: sending it again is what must not happen.
  if (edit.code === 'already-applied') out.push('', `${edit.file} already has this change: do not send this edit again (for a second copy, send the edit described above).`);
  else out.push('', edit.cited ? 'Please send this edit again, citing the lines exactly as the file has them.' : 'Please send this edit again, copying the lines exactly as the file has them.');
  return out.join('\n');
}

/** What the engine read: the format that read the reply (null: none known), the reply, and the files it was given. */
export interface Reading {
  format: Format | null | undefined;
  response: string;
  files: readonly string[];
}

/**
 * The edits as `format` reads the reply, by index (the engine has parsed it
 * already; this is for the lines each cites). Empty when the format is
 * unknown or throws: the messages then only lack the cited lines.
 */
export function citedEdits(reading: Reading): Map<number, Edit> {
  const byIndex = new Map<number, Edit>();
  if (!reading.format) return byIndex;
  try {
    for (const e of reading.format.parse(reading.response, { files: [...reading.files] }).edits) byIndex.set(e.index, e);
  } catch {
    // Without the parsed edits the messages only lack the cited lines.
  }
  return byIndex;
}

/**
 * The retry message of each failed edit of `result`, by edit index, in the
 * result's order (applied edits have none). `cited`: the edits as the format
 * read them (citedEdits), or what to read them from, which is parsed only
 * when some edit failed. `bars(format)`: whether the format of that name
 * cites its old lines with the numbered view's prefixes (`numberedLines`,
 * as `numberedLines` in src/formats/index.ts answers); an edit's format is
 * its own `format`, else the result's.
 */
export function retryMessages(
  result: ApplyResult,
  cited: ReadonlyMap<number, Edit> | Reading,
  bars: (format: string) => boolean,
): Map<number, string> {
  const out = new Map<number, string>();
  const failed = result.edits.filter((e) => e.status === 'failed');
  if (failed.length === 0) return out;
  const edits = cited instanceof Map ? cited : citedEdits(cited as Reading);
  for (const e of failed) {
    const message = retryMessage(e, edits.get(e.index)?.old ?? [], bars(e.format ?? result.format));
    if (message !== null) out.set(e.index, message);
  }
  return out;
}
