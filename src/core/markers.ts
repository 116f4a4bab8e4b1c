// A reply that shows a format's edit structure but gave no edit: the engine's
// one use of `Format.markers`. When a format reads no edit (and no error)
// from a reply, the first line of the reply that is one of its markers makes
// the reply `malformed` there: a reply the model meant as an edit is never
// reported as applied with nothing in it. A reply with no marker at all (a
// chat answer) keeps the warning `no-edits`.

import { at, diagnostic, quote } from './diagnostics.ts';
import { trimmedSpan, linesOf, type ReplyLine } from './reply.ts';
import type { Diagnostic, EditMarker, Format, LexedReply } from './types.ts';

/** Where a marker is: the first reply line (in reply order) that one of `markers` matches. */
export interface FoundMarker {
  marker: EditMarker;
  line: ReplyLine;
}

/**
 * The first line of `reply` that one of `markers` matches (with its next
 * line, when the marker says so), or null. Lines for which `skip` (given the
 * 1-based line number) is true are passed over. `lexed`: the reply's lines,
 * when split already.
 */
export function findMarker(reply: string, markers: readonly EditMarker[], skip?: (line: number) => boolean, lexed?: LexedReply): FoundMarker | null {
  if (markers.length === 0) return null;
  const lines = linesOf(reply, lexed);
  for (let k = 0; k < lines.length; k++) {
    if (skip?.(lines[k].line)) continue;
    for (const marker of markers) {
      if (!marker.line.test(lines[k].text)) continue;
      if (marker.next && !(k + 1 < lines.length && marker.next.test(lines[k + 1].text))) continue;
      return { marker, line: lines[k] };
    }
  }
  return null;
}

/**
 * The `malformed` error of a reply from which `format` read no edit, at the
 * first of its markers the reply holds (passing over the lines `skip` names);
 * null when it holds none.
 */
export function unreadMarker(reply: string, format: Format, skip?: (line: number) => boolean, lexed?: LexedReply): Diagnostic | null {
  const found = findMarker(reply, format.markers ?? [], skip, lexed);
  if (!found) return null;
  const { line, marker } = found;
  const span = trimmedSpan(line);
  return diagnostic(
    'malformed',
    'error',
    `reply ${at(span.start)}: the line ${quote(line.text.trim())} ${marker.expected}; no ${format.title} edit could be read from the reply, so nothing was applied`,
    span,
  );
}
