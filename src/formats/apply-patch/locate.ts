// Where an apply_patch chunk belongs: its `@@` anchors first, then its old
// lines (context and removed) after them, with the comparisons of the
// reference `seek_sequence` tried one after another: exact, trailing
// whitespace ignored, surrounding whitespace ignored, Unicode punctuation
// normalised. Unlike the reference, which takes the first match going
// forward, a chunk that fits more than one place fails as `ambiguous`.

import { quote } from '../../core/diagnostics.ts';
import { findBlock, type LineKey } from '../../core/find.ts';
import { placeShifted, restyled } from '../../core/indent.ts';
import { alikeNote, visibleKey } from '../../core/invisible.ts';
import { candidateAt, closest as closestPlace, lineSimilarity, morePlaces, searchedNote, tiedCandidates, UNSEARCHED, unsearched, type MatchOutcome, type Unplaced } from '../../core/match.ts';
import type { Edit, EngineOptions, MatchKind, RequestBudget } from '../../core/types.ts';

/** The reference's last pass: trim, then map typographic punctuation and odd spaces to ASCII. */
export function normalise(s: string, trim = true): string {
  return (trim ? s.trim() : s)
    .replace(/[\u2010\u2011\u2012\u2013\u2014\u2015\u2212]/g, '-')
    .replace(/[\u2018\u2019\u201A\u201B]/g, "'")
    .replace(/[\u201C\u201D\u201E\u201F]/g, '"')
    .replace(/[\u00A0\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200A\u202F\u205F\u3000]/g, ' ');
}

interface Rung {
  kind: MatchKind;
  name: string;
  /** Two lines compare equal when their keys are equal (null: the lines themselves). */
  key: LineKey;
}

// The whitespace rungs also set aside zero-width characters and the Unicode
// normalisation form (core/invisible.ts), as the core ladder does.
const trimEnd = visibleKey;
const trim = (s: string) => visibleKey(s).trim();
const normalised = (s: string) => normalise(visibleKey(s));
const normalisedUntrimmed = (s: string) => normalise(s, false);

const RUNGS: Rung[] = [
  { kind: 'exact', name: 'exactly', key: null },
  { kind: 'whitespace', name: 'ignoring trailing whitespace', key: trimEnd },
  { kind: 'whitespace', name: 'ignoring leading and trailing whitespace', key: trim },
  { kind: 'fuzzy', name: 'with Unicode punctuation normalised', key: normalised },
];

/** The comparisons the options allow; without whitespace tolerance the last one does not trim either. */
function rungs(options: EngineOptions): Rung[] {
  const out = RUNGS.filter(
    (r) => !((r.kind === 'whitespace' && options.whitespace === false) || (r.kind === 'fuzzy' && options.fuzzy === false)),
  );
  return options.whitespace === false
    ? out.map((r) => (r.kind === 'fuzzy' ? { ...r, key: normalisedUntrimmed } : r))
    : out;
}

/** The names an indent shift's messages use for a chunk. */
const SHIFT_NAMES = { old: "the chunk's context and removed lines", new: "the chunk's added lines", more: 'the chunk' };

const show = quote; // lines quoted in messages, cut when very long
const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;
const range = (start: number, end: number) => (end < start ? `before line ${start}` : start === end ? `line ${start}` : `lines ${start}-${end}`);

/** The first line at or after `from` equal to `anchor`, at the strictest comparison that finds one. */
function findAnchor(lines: readonly string[], anchor: string, from: number, ladder: Rung[]): number | null {
  for (const r of ladder) {
    const [i] = findBlock(lines, [anchor], r.key, from, lines.length - 1, 1);
    if (i !== undefined) return i;
  }
  return null;
}

/**
 * The place in `lines[from..]` most like `old`, as a candidate (the core's
 * closest-place search), with how far the search went when it stopped early.
 * Called once the old lines are known not to be there exactly.
 */
function closest(lines: readonly string[], old: readonly string[], from: number, budget?: RequestBudget): Pick<Unplaced, 'candidates' | 'searched'> {
  if (from >= lines.length || old.length === 0) return { candidates: [] };
  if (lines.length - old.length < from) return { candidates: [candidateAt(lines, old, from, null)] };
  return closestPlace(lines, old, null, from, lines.length - old.length, budget);
}

export function locatePatch(lines: readonly string[], edit: Edit, options: EngineOptions, budget?: RequestBudget): MatchOutcome {
  const anchors = Array.isArray(edit.meta?.anchors) ? (edit.meta.anchors as string[]) : [];
  const eof = edit.meta?.eof === true;
  const old = edit.old;
  const n = lines.length;
  const ladder = rungs(options);

  // 1. The anchors, each after the one before.
  let from = 0;
  let anchorLine: number | null = null;
  for (let k = 0; k < anchors.length; k++) {
    const found = findAnchor(lines, anchors[k], anchorLine === null ? 0 : anchorLine + 1, ladder);
    if (found === null) {
      const after = anchorLine === null ? '' : ` after line ${anchorLine + 1}`;
      const search = closest(lines, [anchors[k]], anchorLine === null ? 0 : anchorLine + 1, budget);
      const near = search.candidates;
      const detail = near[0]
        ? `; the most similar line is ${near[0].start}: ${show(near[0].lines[0] ?? '')} (similarity ${near[0].similarity.toFixed(3)})${searchedNote(search)}`
        : unsearched(search)
          ? `; ${UNSEARCHED}`
          : search.searched
          ? `; no line compared comes close to it${searchedNote(search)}`
          : '';
      return {
        ok: false,
        code: 'no-match',
        kind: null,
        candidates: near,
        outside: [],
        message: `the @@ line ${show(anchors[k])} is not in ${edit.file}${after}${detail}; an @@ line must copy a line of the file (a function or class header) that comes before the chunk`,
      };
    }
    anchorLine = found;
  }
  if (anchorLine !== null) from = anchorLine;
  const where = anchorLine === null ? '' : ` after the @@ line at line ${anchorLine + 1}`;

  // 2. A chunk without old lines adds its lines after the anchor, or at the end of the file.
  if (old.length === 0) {
    const at = anchorLine !== null && !eof ? anchorLine + 1 : n;
    return { ok: true, kind: 'exact', start: at, end: at, offset: null, similarity: 1, differing: [] };
  }

  // 3. The old lines, anywhere from the anchor on (only at the very end with `*** End of File`).
  const last = n - old.length;
  for (const r of ladder) {
    // Before the lines are compared without their leading white space: a uniform
    // indent shift, whose new lines follow the file's indentation (spec/matching.md).
    if (r.key === trim) {
      const shifted = placeShifted(lines, edit, SHIFT_NAMES, eof ? Math.max(from, last) : from, last, null);
      if (shifted) return shifted;
    }
    const found = eof ? findBlock(lines, old, r.key, Math.max(from, last), last) : findBlock(lines, old, r.key, from, last);
    if (found.length > 1) {
      const tied = tiedCandidates(found, (s) => candidateAt(lines, old, s, null));
      const places = tied.candidates.map((c) => range(c.start, c.end));
      return {
        ok: false,
        code: 'ambiguous',
        kind: r.kind,
        ...tied,
        outside: [],
        message: `the chunk's context and removed lines (${plural(old.length, 'line')}) match ${found.length} places in ${edit.file}${where}, compared ${r.name}: ${places.join(', ')}${morePlaces(tied)}; add context lines, or an @@ line naming the enclosing function or class, until they match one place`,
      };
    }
    if (found.length === 1) {
      const s = found[0];
      const differing: number[] = [];
      let similarity = 1;
      old.forEach((line, i) => {
        if (line === lines[s + i]) return;
        differing.push(i);
        // Whitespace-equal lines count as equal (Matching): only the others lower the similarity.
        if (visibleKey(line) !== visibleKey(lines[s + i])) similarity = Math.min(similarity, lineSimilarity(line, lines[s + i]));
      });
      return restyled(lines, edit, { ok: true, kind: r.kind, start: s, end: s + old.length, offset: null, similarity, differing }, SHIFT_NAMES);
    }
  }

  // 4. Nowhere: name the closest place.
  const search = eof ? { candidates: n > 0 ? [candidateAt(lines, old, Math.max(0, last), null)] : [] } : closest(lines, old, from, budget);
  const candidates = search.candidates;
  const c = candidates[0];
  let detail = '';
  if (c) {
    const i = c.differs.indexOf(true);
    detail = `; the closest place is ${range(c.start, c.end)} (similarity ${c.similarity.toFixed(3)})${
      i >= 0 ? `, where line ${c.start + i} is ${c.lines[i] === undefined ? 'past the end of the file' : show(c.lines[i])} but the chunk has ${show(old[i])}${c.lines[i] === undefined ? '' : alikeNote(c.lines[i], old[i], 'the chunk')}` : ''
    }${searchedNote(search)}`;
  } else if ('searched' in search && unsearched(search)) {
    detail = `; ${UNSEARCHED}`;
  } else if ('searched' in search && search.searched) {
    detail = `; no place compared comes close to them${searchedNote(search)}`;
  }
  const place = eof ? ` at the end of ${edit.file} (the chunk ends with *** End of File)` : ` in ${edit.file}${where}`;
  return {
    ok: false,
    code: 'no-match',
    kind: null,
    candidates,
    outside: [],
    message:
      n === 0
        ? `${edit.file} is empty, so the chunk's context and removed lines cannot be found in it`
        : `the chunk's context and removed lines are not${place}${detail}; copy them exactly from the file`,
  };
}
