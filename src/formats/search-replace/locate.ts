// Where a SEARCH belongs: aider's ladder (exact, whitespace-tolerant, uniform
// indent shift, `...` elision), but every rung must find exactly one place.
// spec/formats/search-replace.md ("Matching") is the contract.

import { quote } from '../../core/diagnostics.ts';
import { findBlock } from '../../core/find.ts';
import { placeShifted, restyled } from '../../core/indent.ts';
import { alikeNote, firstDifference } from '../../core/invisible.ts';
import { candidateAt, locate, morePlaces, searchedNote, tiedCandidates, UNSEARCHED, unsearched, type MatchOutcome, type Placed, type Unplaced } from '../../core/match.ts';
import type { Candidate, Edit, EngineOptions, RequestBudget } from '../../core/types.ts';
import { ELISION, isBlank } from './syntax.ts';

/** A placement with this format's own explanation (for an engine that reports it). */
export type Explained = Placed & { message: string };

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;
const range = (start: number, end: number) => (start === end ? `line ${start}` : `lines ${start}-${end}`);
const show = quote; // lines quoted in messages, cut when very long
/** The places of tied candidates, as a list (with a count of the ones left out, see MAX_CANDIDATES). */
const places = (tied: Pick<Unplaced, 'candidates' | 'tied'>) => {
  const all = tied.candidates.map((c) => range(c.start, c.end));
  if (morePlaces(tied) !== '') return `${all.join(', ')}${morePlaces(tied)}`;
  return all.length <= 1 ? all.join('') : `${all.slice(0, -1).join(', ')} and ${all[all.length - 1]}`;
};

/** Every start where `piece` occurs exactly as consecutive lines of `lines` (linear time: see core/find.ts). */
export function occurrences(lines: readonly string[], piece: readonly string[], limit = Infinity): number[] {
  return findBlock(lines, piece, null, 0, lines.length - piece.length, limit);
}

/** The names an indent shift's messages use for this format's sections. */
const SHIFT_NAMES = { old: 'the SEARCH lines', new: 'the REPLACE lines', more: 'the SEARCH' };

/** "Indent shift" (core/indent.ts), over the whole file. */
function indentShift(lines: readonly string[], edit: Edit): MatchOutcome | null {
  return placeShifted(lines, edit, SHIFT_NAMES, 0, lines.length - edit.old.length, null);
}

/** Split lines at the lines that are exactly `...`. */
export function elisionPieces(block: readonly string[]): string[][] {
  const pieces: string[][] = [[]];
  for (const line of block) {
    if (line === ELISION) pieces.push([]);
    else pieces[pieces.length - 1].push(line);
  }
  return pieces;
}

function noMatch(message: string, candidates: Candidate[] = []): Unplaced {
  return { ok: false, code: 'no-match', kind: null, candidates, outside: [], message };
}

/** "Elision": each SEARCH piece found exactly once, in order; the lines between pieces are kept. */
function elision(lines: readonly string[], edit: Edit): MatchOutcome | null {
  const search = elisionPieces(edit.old);
  if (search.length === 1) return null;
  const replace = elisionPieces(edit.new);
  const where = `in ${edit.file}`;
  if (replace.length !== search.length) {
    return noMatch(
      `the SEARCH lines are not ${where} as written, and cannot be matched piece by piece: the SEARCH has ${plural(
        search.length - 1,
        '`...` line',
      )} and the REPLACE ${plural(replace.length - 1, '`...` line')}; they must pair up`,
    );
  }
  const placed: { piece: number; start: number }[] = [];
  let next = 0;
  for (let j = 0; j < search.length; j++) {
    const piece = search[j];
    if (piece.length === 0) {
      if (replace[j].length > 0)
        return noMatch(
          `SEARCH piece ${j + 1} (between \`...\` lines) is empty but its REPLACE piece has ${plural(
            replace[j].length,
            'line',
          )}: there is no place to put them; quote a line of the file there`,
        );
      continue;
    }
    const found = occurrences(lines, piece);
    if (found.length === 0) {
      return noMatch(
        `the SEARCH lines are not ${where} as written, and its piece ${j + 1} of ${search.length} (split at \`...\` lines) is not ${where} either: ${show(
          piece[0],
        )}${piece.length > 1 ? ` and ${plural(piece.length - 1, 'more line')}` : ''}; copy each piece exactly as the file has it`,
      );
    }
    if (found.length > 1) {
      const tied = tiedCandidates(found, (s) => candidateAt(lines, piece, s, null));
      return {
        ok: false,
        code: 'ambiguous',
        kind: 'exact',
        ...tied,
        outside: [],
        message: `piece ${j + 1} of the SEARCH (split at \`...\` lines) occurs ${plural(found.length, 'time')} ${where}, at ${places(tied)}; include more lines in that piece so that it matches one place only`,
      };
    }
    if (found[0] < next) {
      return noMatch(
        `piece ${j + 1} of the SEARCH (split at \`...\` lines) is at ${range(found[0] + 1, found[0] + piece.length)} of ${edit.file}, before the piece above it ends; the pieces must be in file order and must not overlap`,
      );
    }
    placed.push({ piece: j, start: found[0] });
    next = found[0] + piece.length;
  }
  if (placed.length === 0) return null;
  const newLines: string[] = [];
  placed.forEach(({ piece, start }, k) => {
    newLines.push(...replace[piece]);
    const after = placed[k + 1];
    if (after) newLines.push(...lines.slice(start + search[piece].length, after.start));
  });
  const first = placed[0].start;
  const end = placed[placed.length - 1].start + search[placed[placed.length - 1].piece].length;
  const kept = end - first - placed.reduce((n, p) => n + search[p.piece].length, 0);
  const result: Explained = {
    ok: true,
    kind: 'exact',
    start: first,
    end,
    offset: null,
    similarity: 1,
    differing: [],
    newLines,
    message: `applied at ${range(first + 1, end)} by elision: ${plural(placed.length, 'SEARCH piece')} matched at ${placed
      .map((p) => range(p.start + 1, p.start + search[p.piece].length))
      .join(', ')}, and the ${plural(kept, 'line')} between them ${kept === 1 ? 'was' : 'were'} kept`,
  };
  return result;
}

/** A hint for a failed block: its REPLACE lines are already in the file. */
function alreadyThere(lines: readonly string[], edit: Edit): string {
  if (edit.new.length === 0 || edit.new.every(isBlank)) return '';
  const found = occurrences(lines, edit.new, 1);
  if (found.length === 0) return '';
  return `; note that the REPLACE lines are already in ${edit.file} at ${range(found[0] + 1, found[0] + edit.new.length)}: was this edit applied already?`;
}

/** For a whitespace match: the first line that differs by more than trailing white space, named by code point. */
function invisibly(lines: readonly string[], old: readonly string[], placed: Placed): string {
  const i = placed.differing.find((k) => old[k].trimEnd() !== lines[placed.start + k].trimEnd());
  if (i === undefined) return '';
  const line = lines[placed.start + i];
  return ` (line ${placed.start + i + 1} differs from the SEARCH's only invisibly: ${firstDifference(line.trimEnd(), old[i].trimEnd(), 'the SEARCH')}, and is taken as the same line)`;
}

/**
 * Place a SEARCH/REPLACE edit in the file's lines: the core ladder without a
 * cited line (exact, then trailing whitespace ignored), then a uniform indent
 * shift, then `...` elision. Each rung must find exactly one place; two or
 * more are `ambiguous`, listing them all.
 */
export function locateSearch(lines: readonly string[], edit: Edit, options: EngineOptions, budget?: RequestBudget): MatchOutcome {
  const core = locate(lines, edit.old, null, options, budget);
  if (core.ok) {
    const what = core.kind === 'exact' ? 'exactly' : `ignoring trailing whitespace on ${plural(core.differing.length, 'line')}${invisibly(lines, edit.old, core)}`;
    const placed: Explained = { ...core, message: `applied at ${range(core.start + 1, core.end)}, matched ${what}` };
    return restyled(lines, edit, placed, SHIFT_NAMES);
  }
  if (core.code === 'ambiguous') {
    return {
      ...core,
      message: `the SEARCH lines occur ${plural(core.tied ?? core.candidates.length, 'time')} in ${edit.file}${
        core.kind === 'whitespace' ? ' (ignoring trailing whitespace)' : ''
      }, at ${places(core)}; include more lines in the SEARCH so that it matches one place only`,
    };
  }
  if (options.whitespace !== false) {
    const shifted = indentShift(lines, edit);
    if (shifted) return shifted;
  }
  const elided = elision(lines, edit);
  if (elided) {
    if (elided.ok) return elided;
    const candidates = elided.candidates.length > 0 ? elided.candidates : core.candidates;
    return { ...elided, candidates, message: elided.message! + alreadyThere(lines, edit) };
  }

  const c = core.candidates[0];
  let detail = '';
  if (!c && lines.length === 0) detail = `; ${edit.file} is empty: to add lines to it, leave the SEARCH section empty`;
  else if (!c && unsearched(core)) detail = `; ${UNSEARCHED}`;
  else if (!c) detail = `, and no stretch of it${core.searched ? ' that was compared' : ''} comes close (none shares half the text)${searchedNote(core)}`;
  else {
    const i = c.differs.indexOf(true);
    if (i >= 0)
      detail = `; closest is ${range(c.start, c.end)} (similarity ${c.similarity.toFixed(3)}), where line ${c.start + i} is ${show(
        c.lines[i] ?? '',
      )} but the SEARCH has ${show(edit.old[i])}${c.lines[i] === undefined ? '' : alikeNote(c.lines[i], edit.old[i], 'the SEARCH')}${searchedNote(core)}`;
  }
  return {
    ...core,
    message: `the SEARCH lines do not match ${edit.file}: ${
      options.whitespace === false ? 'not exactly' : 'not exactly, not ignoring trailing whitespace, not with the indentation changed'
    }${detail}; copy the lines exactly as the file has them${alreadyThere(
      lines,
      edit,
    )}`,
  };
}
