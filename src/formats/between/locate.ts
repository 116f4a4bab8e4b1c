// Place a @BETWEEN@ edit: find both anchor lines, each once in the file, and
// replace the lines strictly between them (spec/formats/between.md, "Placing
// a snippet").

import { quote } from '../../core/diagnostics.ts';
import { findBlock } from '../../core/find.ts';
import { alikeNote, firstDifference, visibleKey } from '../../core/invisible.ts';
import { budgetedSimilarity, candidateAt, lineSimilarity, locate as ladder, searchBudget, searchedNote, UNSEARCHED, type MatchOutcome } from '../../core/match.ts';
import type { Candidate, Edit, EngineOptions, RequestBudget } from '../../core/types.ts';
import { anchorKey } from './syntax.ts';

const show = quote; // lines quoted in messages, cut when very long
const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;
const ORDINAL = ['first', 'second'];

/** Indexes of the lines whose trimmed text equals the anchor's (`keyOf` null: whose text equals it). */
export function anchorPlaces(lines: readonly string[], anchor: string, keyOf: ((s: string) => string) | null = anchorKey): number[] {
  return findBlock(lines, [anchor], keyOf);
}

/**
 * An anchor compared as the whitespace rung compares lines: without the white
 * space around it, zero-width characters and the normalisation form.
 */
const looseKey = (line: string): string => anchorKey(visibleKey(line));

function lineCandidate(lines: readonly string[], anchor: string, i: number): Candidate {
  return candidateAt(lines, [anchor], i, null);
}

/**
 * The line most similar to the anchor (trimmed texts compared), first on
 * ties, among the lines compared before the search budget ran out (`compared`).
 */
function closestLine(lines: readonly string[], anchor: string, request?: RequestBudget): { best: number | null; compared: number } {
  let best: number | null = null;
  let score = -1;
  const key = anchorKey(anchor);
  const budget = searchBudget(request);
  let compared = 0;
  for (let i = 0; i < lines.length && budget.left(); i++, compared++) {
    const r = budgetedSimilarity(budget, key, anchorKey(lines[i]));
    if (r > score) {
      score = r;
      best = i;
    }
  }
  return { best, compared };
}

export function locateBetween(lines: readonly string[], edit: Edit, options: EngineOptions, budget?: RequestBudget): MatchOutcome {
  if (edit.old.length !== 2) return ladder(lines, edit.old, null, options, budget);
  const [a, b] = edit.old;
  // With the whitespace option off, anchors must equal their lines exactly.
  const keyOf = options.whitespace === false ? null : looseKey;
  const places = [anchorPlaces(lines, a, keyOf), anchorPlaces(lines, b, keyOf)];
  const file = edit.file;

  for (const k of [0, 1]) {
    if (places[k].length > 0) continue;
    const { best: near, compared } = closestLine(lines, edit.old[k], budget);
    const searched = compared < lines.length ? { searched: { compared, places: lines.length } } : {};
    const detail =
      lines.length === 0
        ? `; ${file} is empty`
        : near === null
        ? `; ${UNSEARCHED}`
        : `; closest is line ${near + 1} ${show(lines[near])}${alikeNote(lines[near], edit.old[k], 'the anchor')} (similarity ${lineSimilarity(anchorKey(edit.old[k]), anchorKey(lines[near])).toFixed(3)})${searchedNote(searched)}`;
    return {
      ok: false,
      code: 'no-match',
      kind: null,
      outside: [],
      candidates: near === null ? [] : [lineCandidate(lines, edit.old[k], near)],
      message: `the ${ORDINAL[k]} anchor ${show(edit.old[k])} is not a line of ${file}${options.whitespace === false ? '' : ' (compared without the white space around it)'}${detail}; quote a line exactly as it is in the file`,
    };
  }
  const tied = [0, 1].filter((k) => places[k].length > 1);
  if (tied.length > 0) {
    const parts = tied.map(
      (k) => `the ${ORDINAL[k]} anchor ${show(edit.old[k])} occurs ${plural(places[k].length, 'time')} in ${file} (lines ${places[k].map((i) => i + 1).join(', ')})`,
    );
    return {
      ok: false,
      code: 'ambiguous',
      kind: 'exact',
      outside: [],
      candidates: tied.flatMap((k) => places[k].map((i) => lineCandidate(lines, edit.old[k], i))),
      message: `${parts.join(' and ')}; each anchor must be a line that occurs once in the file: quote a nearby line that does`,
    };
  }
  const [ia, ib] = [places[0][0], places[1][0]];
  if (ib <= ia) {
    return {
      ok: false,
      code: 'no-match',
      kind: null,
      outside: [],
      candidates: [lineCandidate(lines, a, ia), lineCandidate(lines, b, ib)],
      message:
        ib === ia
          ? `both anchors are line ${ia + 1} of ${file} (${show(lines[ia])}); quote the line above the change first and the line below it second`
          : `the second anchor ${show(b)} (line ${ib + 1}) comes before the first anchor ${show(a)} (line ${ia + 1}) in ${file}; quote the line above the change first and the line below it second`,
    };
  }
  const differing = [0, 1].filter((k) => edit.old[k] !== lines[k === 0 ? ia : ib]);
  // An anchor that differs from its line by more than the white space around it: say how.
  const hidden = differing.find((k) => anchorKey(edit.old[k]) !== anchorKey(lines[k === 0 ? ia : ib]));
  const note =
    hidden === undefined
      ? {}
      : {
          message: `applied between lines ${ia + 1} and ${ib + 1}; the ${ORDINAL[hidden]} anchor differs from line ${(hidden === 0 ? ia : ib) + 1} only invisibly: ${firstDifference(
            anchorKey(lines[hidden === 0 ? ia : ib]),
            anchorKey(edit.old[hidden]),
            'the anchor',
          )}, and is taken as the same line`,
        };
  return {
    ...note,
    ok: true,
    kind: differing.length ? 'whitespace' : 'exact',
    start: ia + 1,
    end: ib,
    newLines: edit.new,
    offset: null,
    similarity: 1,
    differing,
  };
}
