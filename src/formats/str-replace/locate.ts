// Where a str_replace call belongs: `old_str` must occur exactly once in the
// file's text (every line ended by a line feed), as a substring. The edit
// takes the whole lines the occurrence touches and replaces them by the same
// lines with `old_str` swapped for `new_str`.

import { candidateAt, lineSimilarity, type MatchOutcome } from '../../core/match.ts';
import { quickRatio } from '../../core/similarity.ts';
import type { Candidate, Edit } from '../../core/types.ts';

const show = (s: string) => JSON.stringify(s);
const range = (start: number, end: number) => (start === end ? `line ${start}` : `lines ${start}-${end}`);

/** Occurrences listed in a message, at most. */
const LISTED = 10;

/** Index of the line holding `offset`: the last start at or before it. */
function lineOf(starts: readonly number[], offset: number): number {
  let lo = 0;
  let hi = starts.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (starts[mid] <= offset) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/** Every start of `needle` in `hay`, overlapping ones included (stops after `limit`). */
export function occurrences(hay: string, needle: string, limit = Infinity): number[] {
  const out: number[] = [];
  if (needle === '') return out;
  for (let i = hay.indexOf(needle); i !== -1 && out.length < limit; i = hay.indexOf(needle, i + 1)) out.push(i);
  return out;
}

export function locateStr(lines: readonly string[], edit: Edit): MatchOutcome {
  const oldStr = String(edit.meta?.old_str ?? '').replace(/\r\n/g, '\n');
  const newStr = String(edit.meta?.new_str ?? '').replace(/\r\n/g, '\n');
  const n = lines.length;
  const text = n === 0 ? '' : lines.join('\n') + '\n';
  const starts: number[] = [];
  for (let i = 0, off = 0; i < n; i++) {
    starts.push(off);
    off += lines[i].length + 1;
  }
  starts.push(text.length); // start of the line after the last

  /** The whole lines `[a, b)` an occurrence at `s` touches. */
  const span = (s: number): [number, number] => {
    const e = s + oldStr.length;
    const a = lineOf(starts, s);
    let b = a + 1;
    while (starts[b] < e) b++;
    return [a, b];
  };

  const found = occurrences(text, oldStr, 1000);
  if (found.length === 1) {
    const s = found[0];
    const e = s + oldStr.length;
    let [a, b] = span(s);
    let replaced = text.slice(starts[a], s) + newStr + text.slice(e, starts[b]);
    if (replaced !== '' && !replaced.endsWith('\n') && b < n) {
      // The occurrence ended a line and new_str does not: the next line joins it.
      replaced += text.slice(starts[b], starts[b + 1]);
      b++;
    }
    const newLines = replaced === '' ? [] : (replaced.endsWith('\n') ? replaced.slice(0, -1) : replaced).split('\n');
    return { ok: true, kind: 'exact', start: a, end: b, newLines, offset: null, similarity: 1, differing: [] };
  }

  if (found.length > 1) {
    const candidates: Candidate[] = found.map((s) => {
      const [a, b] = span(s);
      return { start: a + 1, end: b, offset: null, similarity: 1, lines: lines.slice(a, b), differs: lines.slice(a, b).map(() => false) };
    });
    // Occurrences in the same lines (overlapping ones, or several in one line) are listed once, with a count.
    const places: { where: string; count: number }[] = [];
    for (const c of candidates) {
      const where = range(c.start, c.end);
      const last = places[places.length - 1];
      if (last && last.where === where) last.count++;
      else places.push({ where, count: 1 });
    }
    const listed = places.slice(0, LISTED).map((p) => (p.count > 1 ? `${p.where} (${p.count} times)` : p.where));
    const more = places.length > LISTED ? ` and ${places.length - LISTED} more places` : '';
    return {
      ok: false,
      code: 'ambiguous',
      kind: 'exact',
      candidates,
      outside: [],
      message: `old_str occurs ${found.length === 1000 ? 'at least 1000' : found.length} times in ${edit.file}: at ${listed.join(', ')}${more}; it must occur exactly once: add the lines around it to old_str until it does`,
    };
  }

  // No occurrence: the line most like old_str's first non-blank line.
  const old = textLines(oldStr);
  const k = Math.max(0, old.findIndex((l) => l.trim() !== ''));
  const probe = old[k];
  let best = -1;
  let bestScore = -1;
  for (let i = 0; i < n; i++) {
    if (quickRatio(lines[i] + '\n', probe + '\n') <= bestScore) continue;
    const score = lineSimilarity(probe, lines[i]);
    if (score > bestScore) {
      bestScore = score;
      best = i;
    }
  }
  if (best < 0) {
    return { ok: false, code: 'no-match', kind: null, candidates: [], outside: [], message: `old_str does not occur in ${edit.file}, which is empty` };
  }
  const first = Math.max(0, best - k);
  const candidate = candidateAt(lines, old, first, null);
  return {
    ok: false,
    code: 'no-match',
    kind: null,
    candidates: [candidate],
    outside: [],
    message: `old_str does not occur in ${edit.file}; the line most like its ${k === 0 ? 'first line' : `line ${k + 1}`} ${show(probe)} is line ${best + 1}, ${show(lines[best])} (similarity ${bestScore.toFixed(3)}); old_str must match the file exactly, whitespace and indentation included`,
  };
}

function textLines(s: string): string[] {
  return s.split('\n');
}
