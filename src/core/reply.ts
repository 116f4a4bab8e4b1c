// A model reply as lines that know where they are, so every parsed piece can
// point back at the reply (line, column, offset).

import type { LexedReply, Position, ReplyLine, Span } from './types.ts';

export type { LexedReply, ReplyLine } from './types.ts';

/** The reply's lines (see `ReplyLine`). Each call splits the whole reply: a request does it once (`lexReply`). */
export function replyLines(reply: string): ReplyLine[] {
  const out: ReplyLine[] = [];
  let pos = 0;
  let line = 1;
  while (pos < reply.length) {
    const nl = reply.indexOf('\n', pos);
    const end = nl === -1 ? reply.length : nl;
    let stop = end;
    while (stop > pos && reply.charCodeAt(stop - 1) === 13) stop--;
    const text = reply.slice(pos, stop);
    out.push({ line, from: pos, text, terminated: nl !== -1 });
    if (nl === -1) break;
    pos = nl + 1;
    line++;
  }
  return out;
}

/** A reply split into lines once, for every stage of a request that reads it (`ParseContext.lexed`). */
export function lexReply(text: string): LexedReply {
  const lines = replyLines(text);
  return { text, lines, texts: lines.map((l) => l.text) };
}

/**
 * The lines of `reply`: those of `lexed` when it is the same reply (a
 * request's one split), else split now.
 */
export function linesOf(reply: string, lexed?: LexedReply): readonly ReplyLine[] {
  return lexed !== undefined && lexed.text === reply ? lexed.lines : replyLines(reply);
}

/** The text of each line of `reply` (see `linesOf`). */
export function lineTexts(reply: string, lexed?: LexedReply): readonly string[] {
  return lexed !== undefined && lexed.text === reply ? lexed.texts : replyLines(reply).map((l) => l.text);
}

/**
 * The index of the last of `count` ascending values (`at(0)`, `at(1)`, ...)
 * at or below `x`; 0 when none is. Binary search.
 */
export function lastAtOrBelow(count: number, x: number, at: (k: number) => number): number {
  let lo = 0;
  let hi = count - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (at(mid) <= x) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/**
 * The offset where each line of `text` starts, counting `\n` as the line
 * break: 0, and one more after every `\n` (so the empty text after a final
 * `\n` is a line). From `lexed` when it is that text's.
 */
export function lineStarts(text: string, lexed?: LexedReply): number[] {
  if (lexed === undefined || lexed.text !== text) {
    const starts = [0];
    for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) starts.push(i + 1);
    return starts;
  }
  const { lines } = lexed;
  const starts = lines.map((l) => l.from);
  if (lines.length === 0 || lines[lines.length - 1].terminated) starts.push(text.length);
  return starts;
}

/** Offsets of `text` to positions, counting `\n` as the line break (as `Span` does everywhere). */
export function positioner(text: string, lexed?: LexedReply): (offset: number) => Position {
  const starts = lineStarts(text, lexed);
  return (offset) => {
    const k = lastAtOrBelow(starts.length, offset, (j) => starts[j]);
    return { line: k + 1, column: offset - starts[k] + 1 };
  };
}

function position(line: ReplyLine, column: number): Position {
  return { line: line.line, column };
}

/** The span of whole lines `first..last` (content only, without the last ending). */
export function linesSpan(first: ReplyLine, last: ReplyLine = first): Span {
  return {
    from: first.from,
    to: last.from + last.text.length,
    start: position(first, 1),
    end: position(last, last.text.length + 1),
  };
}

/** The span of columns `[fromCol, toCol)` (0-based) within one line. */
export function columnSpan(line: ReplyLine, fromCol: number, toCol: number): Span {
  return {
    from: line.from + fromCol,
    to: line.from + toCol,
    start: position(line, fromCol + 1),
    end: position(line, toCol + 1),
  };
}

/** The span of a line's text without the blanks before and after it. */
export function trimmedSpan(line: ReplyLine): Span {
  const text = line.text.trimEnd();
  return columnSpan(line, text.length - text.trimStart().length, text.length);
}

/** The span at the very end of the reply (for "expected more" errors). */
export function endSpan(reply: string, lines: readonly ReplyLine[]): Span {
  const last = lines[lines.length - 1];
  if (!last) return { from: 0, to: 0, start: { line: 1, column: 1 }, end: { line: 1, column: 1 } };
  if (last.terminated) {
    const p = { line: last.line + 1, column: 1 };
    return { from: reply.length, to: reply.length, start: p, end: p };
  }
  const p = { line: last.line, column: last.text.length + 1 };
  return { from: reply.length, to: reply.length, start: p, end: p };
}
