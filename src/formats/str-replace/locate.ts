// Where a str_replace call belongs: `old_str` must occur exactly once in the
// file's text (every line ended by a line feed), as a substring. The edit
// takes the whole lines the occurrence touches and replaces them by the same
// lines with `old_str` swapped for `new_str`.

import { quote } from '../../core/diagnostics.ts';
import { findBlock } from '../../core/find.ts';
import { budgetedSimilarity, candidateAt, searchBudget, searchedNote, type MatchOutcome } from '../../core/match.ts';
import { lastAtOrBelow } from '../../core/reply.ts';
import { quickRatio } from '../../core/similarity.ts';
import type { Candidate, Edit } from '../../core/types.ts';

const show = quote; // lines quoted in messages, cut when very long
const range = (start: number, end: number) => (start === end ? `line ${start}` : `lines ${start}-${end}`);

/** Occurrences listed in a message, at most. */
const LISTED = 10;

/** Index of the line holding `offset`: the last start at or before it. */
const lineOf = (starts: readonly number[], offset: number): number => lastAtOrBelow(starts.length, offset, (k) => starts[k]);

/**
 * Characters of `old_str` compared while counting its occurrences: a long
 * old_str that occurs many times is counted only up to this much work.
 */
const COUNT_BUDGET = 20_000_000;

/** A file's lines as one text (every line ended by LF) and the offset where each line starts. */
interface Joined {
  text: string;
  starts: number[];
  /** Lines (of KEY or more characters) by their last KEY characters, and by their first; built when first needed. */
  byEnd?: Map<string, number[]>;
  byStart?: Map<string, number[]>;
}

const joined = new WeakMap<readonly string[], Joined>();

function joinedOf(lines: readonly string[]): Joined {
  let j = joined.get(lines);
  if (j) return j;
  const n = lines.length;
  const text = n === 0 ? '' : lines.join('\n') + '\n';
  const starts: number[] = [];
  for (let i = 0, off = 0; i < n; i++) {
    starts.push(off);
    off += lines[i].length + 1;
  }
  starts.push(text.length); // start of the line after the last
  j = { text, starts };
  joined.set(lines, j);
  return j;
}

/** Length of the line ends and starts the occurrence search indexes lines by. */
const KEY = 8;

function keyed(lines: readonly string[], end: boolean): Map<string, number[]> {
  const map = new Map<string, number[]>();
  lines.forEach((line, i) => {
    if (line.length < KEY) return;
    const k = end ? line.slice(-KEY) : line.slice(0, KEY);
    const list = map.get(k);
    if (list) list.push(i);
    else map.set(k, [i]);
  });
  return map;
}

/**
 * `occurrences(text, oldStr, limit)` for the file's text, without scanning
 * the whole text when `oldStr` spans a line break: an occurrence then puts
 * a line break at a known place, so it can only start at a few places found
 * from the file's lines (a line equal to the first whole line of `oldStr`, or
 * a line ending like the part before its line break, or starting like the
 * part after it). Each place is checked; the scan is the fallback.
 */
function occurrencesIn(lines: readonly string[], j: Joined, oldStr: string, limit: number): number[] {
  const first = oldStr.indexOf('\n');
  let places: number[] | null = null;
  if (first >= 0) {
    const second = oldStr.indexOf('\n', first + 1);
    if (second >= 0) {
      // A whole line of the file: lines equal to it.
      const whole = findBlock(lines, [oldStr.slice(first + 1, second)]);
      places = whole.map((i) => j.starts[i] - first - 1);
    } else if (first >= KEY) {
      // The part before the line break ends a line.
      const tail = oldStr.slice(first - KEY, first);
      j.byEnd ??= keyed(lines, true);
      places = (j.byEnd.get(tail) ?? []).map((i) => j.starts[i] + lines[i].length - first);
    } else if (oldStr.length - first - 1 >= KEY) {
      // The part after the line break starts a line.
      const head = oldStr.slice(first + 1, first + 1 + KEY);
      j.byStart ??= keyed(lines, false);
      places = (j.byStart.get(head) ?? []).map((i) => j.starts[i] - first - 1);
    }
  }
  // Too many places to check each (or no line break to go by): scan.
  if (places === null || places.length * oldStr.length > 4 * j.text.length) return occurrences(j.text, oldStr, limit);
  const out: number[] = [];
  for (const s of places) {
    if (s < 0 || !j.text.startsWith(oldStr, s)) continue;
    out.push(s);
    if (out.length >= limit) break;
  }
  return out;
}

/** Every start of `needle` in `hay`, overlapping ones included (stops after `limit`). */
export function occurrences(hay: string, needle: string, limit = Infinity): number[] {
  const out: number[] = [];
  if (needle === '') return out;
  for (let i = hay.indexOf(needle); i !== -1 && out.length < limit; i = hay.indexOf(needle, i + 1)) out.push(i);
  return out;
}

/** Every start of `oldStr` in the text of `lines` (each line ended by LF), as `occurrences` finds them. */
export function occurrencesInLines(lines: readonly string[], oldStr: string, limit = Infinity): number[] {
  return occurrencesIn(lines, joinedOf(lines), oldStr, limit);
}

export function locateStr(lines: readonly string[], edit: Edit): MatchOutcome {
  const oldStr = String(edit.meta?.old_str ?? '').replace(/\r\n/g, '\n');
  const newStr = String(edit.meta?.new_str ?? '').replace(/\r\n/g, '\n');
  const n = lines.length;
  const { text, starts } = joinedOf(lines);

  /** The whole lines `[a, b)` an occurrence at `s` touches. */
  const span = (s: number): [number, number] => {
    const e = s + oldStr.length;
    const a = lineOf(starts, s);
    let b = a + 1;
    while (starts[b] < e) b++;
    return [a, b];
  };

  // Count up to 1000 occurrences, fewer for a long old_str (each costs its length to confirm).
  const limit = Math.max(2, Math.min(1000, Math.floor(COUNT_BUDGET / Math.max(1, oldStr.length))));
  const found = occurrencesIn(lines, joinedOf(lines), oldStr, limit);
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
      message: `old_str occurs ${found.length === limit ? `at least ${limit}` : found.length} times in ${edit.file}: at ${listed.join(', ')}${more}; it must occur exactly once: add the lines around it to old_str until it does`,
    };
  }

  // No occurrence: the line most like old_str's first non-blank line.
  const old = textLines(oldStr);
  const k = Math.max(0, old.findIndex((l) => l.trim() !== ''));
  const probe = old[k];
  let best = -1;
  let bestScore = -1;
  const budget = searchBudget();
  let compared = 0;
  for (let i = 0; i < n && budget.left(); i++, compared++) {
    budget.spend(lines[i].length + probe.length + 2);
    if (quickRatio(lines[i] + '\n', probe + '\n') <= bestScore) continue;
    const score = budgetedSimilarity(budget, probe, lines[i]);
    if (score > bestScore) {
      bestScore = score;
      best = i;
    }
  }
  if (best < 0 && n > 0) {
    // Nothing compared: the search budget of the request was used up.
    best = 0;
    bestScore = budgetedSimilarity(searchBudget(), probe, lines[0]);
  }
  const searched = compared < n ? { searched: { compared, places: n } } : {};
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
    message: `old_str does not occur in ${edit.file}; the line most like its ${k === 0 ? 'first line' : `line ${k + 1}`} ${show(probe)} is line ${best + 1}, ${show(lines[best])} (similarity ${bestScore.toFixed(3)})${searchedNote(searched)}; old_str must match the file exactly, whitespace and indentation included`,
  };
}

function textLines(s: string): string[] {
  return s.split('\n');
}
