// Which lines a list of exact changes marks: changes grouped into chunks of
// whole lines, as @codemirror/merge draws them (a chunk runs from the start
// of its first line to one past the end of its last, and may be empty on
// one side). Pure: the view builds its chunks with it, and the tests check
// with it that only changed lines are marked.
//
// It follows @codemirror/merge's own `toChunks`, with one rule first: a
// change that starts at the start of a line on both sides starts at that
// line. (`toChunks` moves a change that starts at the end of a line on both
// sides to the next line, which for an empty line, both its start and its
// end, would mark the wrong one of two empty lines.) A change up to the
// end of both documents ends at each side's last line. And only changes
// whose lines touch share a chunk.

import type { ExactChange } from '../../text-delta/exact.ts';
import { lastAtOrBelow } from '../../core/reply.ts';

/** What a chunker needs of a document: CodeMirror's `Text` has it. */
export interface LineIndex {
  readonly length: number;
  lineAt(pos: number): { from: number; to: number; number: number };
}

export interface ChunkSpan {
  fromA: number;
  /** One past the end of the last line (may be past the document's end), or `fromA` when empty. */
  toA: number;
  fromB: number;
  toB: number;
  /** The chunk's changes, relative to `fromA` / `fromB`. */
  changes: ExactChange[];
}

function fromLine(pa: number, pb: number, a: LineIndex, b: LineIndex): [number, number] {
  const la = a.lineAt(pa);
  const lb = b.lineAt(pb);
  if (la.from === pa && lb.from === pb) return [pa, pb];
  if (la.to === pa && lb.to === pb && pa < a.length && pb < b.length) return [pa + 1, pb + 1];
  return [la.from, lb.from];
}

function toLine(pa: number, pb: number, a: LineIndex, b: LineIndex): [number, number] {
  const la = a.lineAt(pa);
  const lb = b.lineAt(pb);
  if (la.from === pa && lb.from === pb) return [pa, pb];
  // A change up to the end of both documents (a final newline added or
  // dropped) ends each side with its own last line, not the empty line
  // after a final newline.
  if (pa === a.length && pb === b.length) return [la.from === pa ? pa : la.to + 1, lb.from === pb ? pb : lb.to + 1];
  return [la.to + 1, lb.to + 1];
}

export function chunkSpans(changes: readonly ExactChange[], a: LineIndex, b: LineIndex): ChunkSpan[] {
  const out: ChunkSpan[] = [];
  for (let i = 0; i < changes.length; i++) {
    const first = changes[i];
    const [fromA, fromB] = fromLine(first.fromA, first.fromB, a, b);
    let [toA, toB] = toLine(first.toA, first.toB, a, b);
    const group = [first];
    while (i + 1 < changes.length) {
      const next = changes[i + 1];
      const [nextA, nextB] = fromLine(next.fromA, next.fromB, a, b);
      if (nextA > toA && nextB > toB) break;
      group.push(next);
      [toA, toB] = toLine(next.toA, next.toB, a, b);
      i++;
    }
    out.push({
      fromA,
      toA: Math.max(fromA, toA),
      fromB,
      toB: Math.max(fromB, toB),
      changes: group.map((c) => ({ fromA: c.fromA - fromA, toA: c.toA - fromA, fromB: c.fromB - fromB, toB: c.toB - fromB })),
    });
  }
  return out;
}

/** The 1-based lines a chunk covers on one side (none when empty). */
export function spanLines(from: number, to: number, doc: LineIndex): { start: number; end: number } {
  const start = doc.lineAt(Math.min(from, doc.length)).number;
  if (to <= from) return { start, end: start - 1 };
  return { start, end: doc.lineAt(Math.min(to - 1, doc.length)).number };
}

/** A `LineIndex` over a string (CodeMirror's `Text` is one already). */
export function lineIndex(text: string): LineIndex {
  const starts = [0];
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) starts.push(i + 1);
  return {
    length: text.length,
    lineAt(pos: number) {
      const lo = lastAtOrBelow(starts.length, pos, (k) => starts[k]);
      const from = starts[lo];
      const to = lo + 1 < starts.length ? starts[lo + 1] - 1 : text.length;
      return { from, to, number: lo + 1 };
    },
  };
}
