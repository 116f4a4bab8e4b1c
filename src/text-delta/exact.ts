// The exact changes of a file, from what the engine did rather than from a
// second diff of two whole texts. Pure (no DOM, no CodeMirror): it runs in
// the engine worker, and the result view draws its chunks from it.
//
// The engine says which lines of `before` each applied edit replaced and by
// how many lines: every line between those regions is unchanged by
// definition. So each region is placed in `after` by walking the gaps
// (their texts are checked, never assumed), and only inside a region is
// anything diffed: its old lines against its new ones (a udiff hunk's
// context lines and the unchanged lines of a whole-file rewrite stay
// unmarked; lines found once on each side anchor the diff, as in patience
// diff, so a large rewrite stays cheap), then each changed run of lines
// word by word, so that the
// view's character highlights show what changed inside a line. Every diff
// is bounded; past a bound a run becomes one change, never a wrong one.
//
// Texts are split on `\n` only: a `\r` stays in the line (as the editors
// show it). Offsets count UTF-16 code units, like CodeMirror's.
//
// The form of the changes is part of the contract with the view (see
// chunks.ts): a run of whole lines inserted or deleted is one change that
// starts at the start of a line on both sides, so the view marks exactly
// the lines the region says, even next to identical lines ("}" beside "}").

import { diffArrays, diffWordsWithSpace } from 'diff';

export { textDelta, type Delta } from './delta.ts';

/**
 * One applied edit: lines `start..end` (1-based, inclusive) of `before`
 * replaced by `newLines` lines. An insertion has `end = start - 1`.
 */
export interface Region {
  start: number;
  end: number;
  newLines: number;
}

/** Character offsets in the whole before (A) and after (B) texts, half-open. */
export interface ExactChange {
  fromA: number;
  toA: number;
  fromB: number;
  toB: number;
}

/** 1-based inclusive lines; empty (`end = start - 1`) for no line, before line `start`. */
export interface LineSpan {
  start: number;
  end: number;
}

/** Where a region is on each side. */
export interface PlacedRegion {
  a: LineSpan;
  b: LineSpan;
}

export interface ExactDiff {
  /** Sorted, not overlapping, not touching. */
  changes: ExactChange[];
  /** Per input region, in the input's order: its lines in A and in B. */
  regions: PlacedRegion[];
  /**
   * The regions fitted the texts (every gap between them is the same text on
   * both sides). False: the changes come from a bounded line diff of the
   * whole file, and `regions` are estimates.
   */
  verified: boolean;
}

/** A line diff (between two anchors) that needs more edits than this gives up: one run. */
const MAX_LINE_EDIT = 200;
/** A changed run longer than this (either side, in characters) is one change. */
const MAX_WORD_TEXT = 20_000;
/** A word diff that needs more edits than this gives up (one change for the run). */
const MAX_WORD_EDIT = 400;

/** The start offsets of a text's `\n`-separated lines. */
class Lines {
  readonly starts: number[];
  /** Lines as the engine counts them: a final `\n` ends the last line, it does not start an empty one. */
  readonly count: number;

  /** `head`: a byte order mark's length (the engine keeps it out of the first line). */
  constructor(
    readonly text: string,
    head: number,
  ) {
    this.starts = [head];
    for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) this.starts.push(i + 1);
    this.count = text.length === head ? 0 : text.endsWith('\n') ? this.starts.length - 1 : this.starts.length;
  }

  /** Where 1-based line `k` starts; the text's end past its last line. */
  start(k: number): number {
    return k - 1 < this.starts.length ? this.starts[k - 1] : this.text.length;
  }
}

/** Two stretches of text, one in A and one in B. */
interface Piece {
  a0: number;
  a1: number;
  b0: number;
  b1: number;
}

const BOM = '\ufeff';
const clamp = (n: number, lo: number, hi: number) => Math.max(lo, Math.min(hi, n));
const whole = (n: number) => (Number.isFinite(n) ? Math.trunc(n) : 0);

/**
 * The exact changes from `before` to `after`, given the regions the engine
 * applied (in any order, but regions at the same place in the order the
 * engine applied them: the order of the edits).
 */
export function exactDiff(before: string, after: string, regions: readonly Region[]): ExactDiff {
  // A byte order mark kept on both sides stays out of the lines (the engine
  // keeps it before the first line, whatever is inserted there).
  const bom = before.startsWith(BOM) && after.startsWith(BOM) ? 1 : 0;
  const A = new Lines(before, bom);
  const B = new Lines(after, bom);
  const order = regions.map((_, i) => i).sort((x, y) => regions[x].start - regions[y].start || regions[x].end - regions[y].end || x - y);
  const placed: PlacedRegion[] = new Array(regions.length);
  const same: Piece[] = [];
  const changed: Piece[] = [];
  let ok = true;
  let la = 1; // the first line of A after the regions placed so far
  let lb = 1;
  for (const i of order) {
    const r = regions[i];
    const start = clamp(whole(r.start), la, A.count + 1);
    const end = clamp(whole(r.end), start - 1, A.count);
    const n = Math.max(0, whole(r.newLines));
    if (start !== r.start || end !== r.end || n !== r.newLines) ok = false;
    const sb = lb + (start - la);
    same.push({ a0: A.start(la), a1: A.start(start), b0: B.start(lb), b1: B.start(sb) });
    changed.push({ a0: A.start(start), a1: A.start(end + 1), b0: B.start(sb), b1: B.start(sb + n) });
    placed[i] = { a: { start, end }, b: { start: sb, end: sb + n - 1 } };
    la = end + 1;
    lb = sb + n;
  }
  same.push({ a0: A.start(la), a1: before.length, b0: B.start(lb), b1: after.length });
  // The lines after the last region: as many on both sides.
  if (lb - 1 > B.count || A.count - la !== B.count - lb) ok = false;

  // Every gap must be the same text on both sides, but for the ending of its
  // last line: an edit at the end of a file without a final newline gives
  // the old last line one (and an edit may add or drop the final newline).
  for (let k = 0; ok && k < same.length; k++) {
    const g = same[k];
    if (g.a1 - g.a0 === g.b1 - g.b0 && before.slice(g.a0, g.a1) === after.slice(g.b0, g.b1)) continue;
    const lastLine = endingOnly(before, g.a0, g.a1, after, g.b0, g.b1);
    if (lastLine === null) {
      ok = false;
      break;
    }
    // That last line joins the changes (the piece before the next region).
    changed.push({ a0: g.a0 + lastLine, a1: g.a1, b0: g.b0 + lastLine, b1: g.b1 });
  }

  let pieces: Piece[];
  if (ok) {
    // Each region diffed on its own (two touching regions are two edits: a
    // line diff across both could match a line of one with a line of the other).
    pieces = changed.filter((p) => p.a1 > p.a0 || p.b1 > p.b0).sort((x, y) => x.a0 - y.a0 || x.b0 - y.b0);
  } else {
    pieces = [{ a0: 0, a1: before.length, b0: 0, b1: after.length }];
    for (const p of placed) {
      p.b.start = clamp(p.b.start, 1, B.count + 1);
      p.b.end = clamp(p.b.end, p.b.start - 1, B.count);
    }
  }
  const changes: ExactChange[] = [];
  for (const p of pieces) lineChanges(before, after, p, changes);
  return { changes: joinChanges(changes), regions: placed, verified: ok };
}

/**
 * When two gap texts differ only in the ending of their last line, the offset
 * (the same on both sides) where that line starts; otherwise null.
 */
function endingOnly(a: string, a0: number, a1: number, b: string, b0: number, b1: number): number | null {
  const ea = a1 - eolLength(a, a0, a1);
  const eb = b1 - eolLength(b, b0, b1);
  if (ea - a0 !== eb - b0 || a.slice(a0, ea) !== b.slice(b0, eb)) return null;
  if (ea === a0) return 0;
  const nl = a.lastIndexOf('\n', ea - 1);
  return nl < a0 ? 0 : nl + 1 - a0;
}

function eolLength(s: string, from: number, to: number): number {
  if (to > from && s.charCodeAt(to - 1) === 10) return to - 1 > from && s.charCodeAt(to - 2) === 13 ? 2 : 1;
  return 0;
}

function joinChanges(changes: ExactChange[]): ExactChange[] {
  const out: ExactChange[] = [];
  for (const c of changes) {
    const prev = out[out.length - 1];
    if (prev && c.fromA === prev.toA && c.fromB === prev.toB) {
      prev.toA = c.toA;
      prev.toB = c.toB;
    } else out.push({ ...c });
  }
  return out;
}

/** The lines of `text[from, to)`, each with its `\n`, and where each starts (plus `to`). */
function tokens(text: string, from: number, to: number): { lines: string[]; at: number[] } {
  const lines: string[] = [];
  const at: number[] = [];
  for (let p = from; p < to; ) {
    const nl = text.indexOf('\n', p);
    const end = nl === -1 || nl >= to ? to : nl + 1;
    lines.push(text.slice(p, end));
    at.push(p);
    p = end;
  }
  at.push(to);
  return { lines, at };
}

/** The changes of one piece: its lines matched, then each changed run word by word. */
function lineChanges(a: string, b: string, p: Piece, out: ExactChange[]): void {
  const ta = tokens(a, p.a0, p.a1);
  const tb = tokens(b, p.b0, p.b1);
  let i = 0;
  let j = 0;
  const flush = (i1: number, j1: number) => {
    if (i1 > i || j1 > j) runChanges(a, b, ta.at[i], ta.at[i1], tb.at[j], tb.at[j1], out);
  };
  for (const [mi, mj] of commonLines(ta.lines, tb.lines)) {
    flush(mi, mj);
    i = mi + 1;
    j = mj + 1;
  }
  flush(ta.lines.length, tb.lines.length);
}

/**
 * The lines two lists share, as index pairs in order: common ends first,
 * then lines found once on each side as anchors (in order, their longest
 * increasing run, as patience diff does), and a bounded Myers diff between
 * anchors. A stretch the bounded diff gives up on shares nothing (one run).
 * Anchoring keeps a large rewrite with many scattered changes cheap and
 * exact where a single Myers diff would give up.
 */
function commonLines(a: readonly string[], b: readonly string[]): [number, number][] {
  const pairs: [number, number][] = [];
  // Work spent on anchoring, bounded by a few passes over the input.
  let budget = 4 * (a.length + b.length);
  const match = (a0: number, a1: number, b0: number, b1: number): void => {
    while (a0 < a1 && b0 < b1 && a[a0] === b[b0]) pairs.push([a0++, b0++]);
    let tail = 0;
    while (a1 - tail > a0 && b1 - tail > b0 && a[a1 - 1 - tail] === b[b1 - 1 - tail]) tail++;
    const ends: [number, number][] = [];
    for (let k = tail; k > 0; k--) ends.push([a1 - k, b1 - k]);
    a1 -= tail;
    b1 -= tail;
    if (a0 < a1 && b0 < b1) {
      const anchors = budget > 0 && a1 - a0 + b1 - b0 > 64 ? uniqueAnchors(a, a0, a1, b, b0, b1) : [];
      budget -= a1 - a0 + b1 - b0;
      if (anchors.length > 0) {
        let pa = a0;
        let pb = b0;
        for (const [ai, bj] of anchors) {
          match(pa, ai, pb, bj);
          pairs.push([ai, bj]);
          pa = ai + 1;
          pb = bj + 1;
        }
        match(pa, a1, pb, b1);
      } else {
        const parts = diffArrays(a.slice(a0, a1), b.slice(b0, b1), { maxEditLength: MAX_LINE_EDIT });
        let i = a0;
        let j = b0;
        for (const part of parts ?? []) {
          if (part.added) j += part.count;
          else if (part.removed) i += part.count;
          else for (let k = 0; k < part.count; k++) pairs.push([i++, j++]);
        }
      }
    }
    for (const e of ends) pairs.push(e);
  };
  match(0, a.length, 0, b.length);
  return pairs;
}

/** Lines found exactly once in each range, paired, and the longest run of them in the same order on both sides. */
function uniqueAnchors(a: readonly string[], a0: number, a1: number, b: readonly string[], b0: number, b1: number): [number, number][] {
  // Per line: its index in A (-1: seen twice), its index in B (-1: twice, -2: not yet).
  const seen = new Map<string, [number, number]>();
  for (let i = a0; i < a1; i++) {
    const s = seen.get(a[i]);
    if (s) s[0] = -1;
    else seen.set(a[i], [i, -2]);
  }
  for (let j = b0; j < b1; j++) {
    const s = seen.get(b[j]);
    if (s) s[1] = s[1] === -2 ? j : -1;
  }
  const candidates: [number, number][] = [];
  for (const [ia, jb] of seen.values()) if (ia >= 0 && jb >= 0) candidates.push([ia, jb]);
  candidates.sort((x, y) => x[0] - y[0]);
  // Longest increasing run of B indexes (patience sorting).
  const tops: number[] = []; // per length, the candidate ending the best run
  const back: number[] = new Array(candidates.length);
  for (let k = 0; k < candidates.length; k++) {
    const jb = candidates[k][1];
    let lo = 0;
    let hi = tops.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (candidates[tops[mid]][1] < jb) lo = mid + 1;
      else hi = mid;
    }
    back[k] = lo > 0 ? tops[lo - 1] : -1;
    tops[lo] = k;
  }
  const run: [number, number][] = [];
  for (let k = tops.length ? tops[tops.length - 1] : -1; k >= 0; k = back[k]) run.push(candidates[k]);
  return run.reverse();
}

/** A changed run of whole lines: one change for a pure insertion or deletion, word changes otherwise. */
function runChanges(a: string, b: string, a0: number, a1: number, b0: number, b1: number, out: ExactChange[]): void {
  if (a0 === a1 || b0 === b1) {
    out.push({ fromA: a0, toA: a1, fromB: b0, toB: b1 });
    return;
  }
  const one = () => {
    // One change, less what the two sides share at their ends.
    let s = 0;
    const max = Math.min(a1 - a0, b1 - b0);
    while (s < max && a.charCodeAt(a0 + s) === b.charCodeAt(b0 + s)) s++;
    let e = 0;
    while (e < max - s && a.charCodeAt(a1 - 1 - e) === b.charCodeAt(b1 - 1 - e)) e++;
    out.push({ fromA: a0 + s, toA: a1 - e, fromB: b0 + s, toB: b1 - e });
  };
  if (a1 - a0 > MAX_WORD_TEXT || b1 - b0 > MAX_WORD_TEXT) return one();
  const parts = diffWordsWithSpace(a.slice(a0, a1), b.slice(b0, b1), { maxEditLength: MAX_WORD_EDIT });
  if (!parts) return one();
  let i = a0;
  let j = b0;
  let ri = i;
  let rj = j;
  for (const part of parts) {
    const len = part.value.length;
    if (part.added) j += len;
    else if (part.removed) i += len;
    else {
      if (i > ri || j > rj) out.push({ fromA: ri, toA: i, fromB: rj, toB: j });
      i += len;
      j += len;
      ri = i;
      rj = j;
    }
  }
  if (i > ri || j > rj) out.push({ fromA: ri, toA: i, fromB: rj, toB: j });
}

/** Apply changes (as `exactDiff` gives them) to A: B. For tests and checks. */
export function applyChanges(a: string, b: string, changes: readonly ExactChange[]): string {
  let out = '';
  let pos = 0;
  for (const c of changes) {
    out += a.slice(pos, c.fromA) + b.slice(c.fromB, c.toB);
    pos = c.toA;
  }
  return out + a.slice(pos);
}

/**
 * Where line `line` of A is in B, by the placed regions (a line inside a
 * region goes to the region's start in B): to show a place the engine did
 * not change, such as a failed edit's closest candidate, on both sides.
 */
export function lineInB(diff: ExactDiff, line: number): number {
  let shift = 0;
  for (const r of diff.regions) {
    if (r.a.start <= line && line <= r.a.end) return r.b.start;
    // Before the line (an insertion right before it included).
    if (r.a.end < line) shift += r.b.end - r.b.start - (r.a.end - r.a.start);
  }
  return line + shift;
}
