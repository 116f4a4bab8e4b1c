// Provisional: replaced by the exact implementation.
export interface Region { start: number; end: number; newLines: number }
export interface ExactChange { fromA: number; toA: number; fromB: number; toB: number }
export interface ExactDiff { changes: ExactChange[]; regions: { a: { start: number; end: number }; b: { start: number; end: number } }[] }
export interface Delta { from: number; to: number; insert: string }

function lineStarts(text: string): number[] {
  const starts = [0];
  for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) starts.push(i + 1);
  return starts;
}

export function exactDiff(before: string, after: string, regions: Region[]): ExactDiff {
  const sa = lineStarts(before);
  const sb = lineStarts(after);
  const at = (s: number[], text: string, line: number) => (line - 1 < s.length ? s[line - 1] : text.length);
  const out: ExactDiff = { changes: [], regions: [] };
  let shift = 0;
  for (const r of [...regions].sort((x, y) => x.start - y.start)) {
    const bStart = r.start + shift;
    const bEnd = bStart + r.newLines - 1;
    out.regions.push({ a: { start: r.start, end: r.end }, b: { start: bStart, end: bEnd } });
    out.changes.push({ fromA: at(sa, before, r.start), toA: at(sa, before, r.end + 1), fromB: at(sb, after, bStart), toB: at(sb, after, bEnd + 1) });
    shift += r.newLines - (r.end - r.start + 1);
  }
  return out;
}

export function textDelta(prev: string, next: string): Delta | null {
  if (prev === next) return null;
  let a = 0;
  const max = Math.min(prev.length, next.length);
  while (a < max && prev.charCodeAt(a) === next.charCodeAt(a)) a++;
  let b = 0;
  while (b < max - a && prev.charCodeAt(prev.length - 1 - b) === next.charCodeAt(next.length - 1 - b)) b++;
  return { from: a, to: prev.length - b, insert: next.slice(a, next.length - b) };
}
