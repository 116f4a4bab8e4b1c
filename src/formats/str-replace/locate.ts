// Where a str_replace call belongs: `old_str` must occur exactly once in the
// file's text (every line ended by a line feed), as a substring. The edit
// takes the whole lines the occurrence touches and replaces them by the same
// lines with `old_str` swapped for `new_str`.

import { alikeNote } from '../../core/invisible.ts';
import { quote } from '../../core/diagnostics.ts';
import { SEARCH_BUDGET_PER_EDIT, budgetedSimilarity, candidateAt, closest, searchBudget, searchedNote, UNSEARCHED, unsearched, type MatchOutcome, refusal } from '../../core/match.ts';
import { lastAtOrBelow } from '../../core/reply.ts';
import { quickRatio } from '../../core/similarity.ts';
import type { Candidate, Edit, RequestBudget } from '../../core/types.ts';
import { find, occurrences, searchable } from './occurrences.ts';

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

export { occurrences };

/** Every start of `oldStr` in the text of `lines` (each line ended by LF), as `occurrences` finds them. */
export function occurrencesInLines(lines: readonly string[], oldStr: string, limit = Infinity): number[] {
  return find(searchable(lines), oldStr, limit).at;
}

export function locateStr(lines: readonly string[], edit: Edit, request?: RequestBudget): MatchOutcome {
  // A byte order mark at the start of old_str is the file's, copied (spec/formats.md, "Line endings and byte order marks").
  const oldStr = String(edit.meta?.old_str ?? '').replace(/\r\n/g, '\n').replace(/^\uFEFF+/, '');
  const newStr = String(edit.meta?.new_str ?? '').replace(/\r\n/g, '\n');
  const n = lines.length;
  const file = searchable(lines);
  const { text, starts } = file;

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
  const search = find(file, oldStr, limit);
  const found = search.at;
  if (!search.complete && found.length < 2) {
    return refusal('no-match', `old_str was not looked for in ${edit.file}: the calls of this reply already did as much searching in it as one reply may (${file.budget} characters), so whether old_str occurs there once is not known; send fewer calls at a time`);
  }
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
      message: `old_str occurs ${found.length === limit || !search.complete ? `at least ${found.length}` : found.length} times in ${edit.file}: at ${listed.join(', ')}${more}; it must occur exactly once: add the lines around it to old_str until it does`,
    };
  }

  // No occurrence. Several lines: their closest place, as every format finds it (anchors first).
  const old = textLines(oldStr);
  const block = wholeLines(old);
  if (n > 0 && block.filter((l) => l.trim() !== '').length >= 2) {
    const near = closest(lines, block, null, 0, n - block.length, request);
    const c = near.candidates[0];
    if (unsearched(near)) return refusal('no-match', `old_str does not occur in ${edit.file}; ${UNSEARCHED}; old_str must match the file exactly, whitespace and indentation included`);
    if (c) {
      const i = c.differs.indexOf(true);
      const where =
        i < 0 ? '' : `, where line ${c.start + i} is ${c.lines[i] === undefined ? 'past the end of the file' : show(c.lines[i])} but old_str has ${show(block[i])}${c.lines[i] === undefined ? '' : alikeNote(c.lines[i], block[i], 'old_str')}`;
      return {
        ok: false,
        code: 'no-match',
        kind: null,
        candidates: [c],
        outside: [],
        ...(near.searched ? { searched: near.searched } : {}),
        message: `old_str does not occur in ${edit.file}; the closest place is ${range(c.start, c.end)} (similarity ${c.similarity.toFixed(3)})${where}${searchedNote(near)}; old_str must match the file exactly, whitespace and indentation included`,
      };
    }
  }

  // One line, or no place shares half the text: the line most like old_str's first non-blank line.
  const k = Math.max(0, old.findIndex((l) => l.trim() !== ''));
  const probe = old[k];
  let best = -1;
  let bestScore = -1;
  const budget = searchBudget(request);
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
  const searched = compared < n ? { searched: { compared, places: n } } : {};
  if (best < 0 && n > 0) {
    // Nothing compared: the search budget of the request was used up, and no line is named.
    return refusal('no-match', `old_str does not occur in ${edit.file}; ${UNSEARCHED}; old_str must match the file exactly, whitespace and indentation included`);
  }
  if (best < 0) {
    return { ok: false, code: 'no-match', kind: null, candidates: [], outside: [], message: `old_str does not occur in ${edit.file}, which is empty` };
  }
  const first = Math.max(0, best - k);
  const candidate = candidateAt(lines, old, first, null, searchBudget(null, SEARCH_BUDGET_PER_EDIT));
  return {
    ok: false,
    code: 'no-match',
    kind: null,
    candidates: [candidate],
    outside: [],
    ...searched,
    message: `old_str does not occur in ${edit.file}; the line most like its ${k === 0 ? 'first line' : `line ${k + 1}`} ${show(probe)} is line ${best + 1}, ${show(lines[best])}${alikeNote(lines[best], probe, 'old_str')} (similarity ${bestScore.toFixed(3)})${searchedNote(searched)}; old_str must match the file exactly, whitespace and indentation included`,
  };
}

/**
 * The lines of old_str that stand for lines of the file: an empty first
 * piece (old_str starts with a line feed) or last piece (it ends with one)
 * is where a line ends or starts, not a line.
 */
function wholeLines(old: readonly string[]): readonly string[] {
  let a = 0;
  let b = old.length;
  if (b - a > 1 && old[b - 1] === '') b--;
  if (b - a > 1 && old[0] === '') a++;
  return old.slice(a, b);
}

function textLines(s: string): string[] {
  return s.split('\n');
}
