// Stage "place": every edit read from the reply, against the original
// files, on its own. A `replace` edit is found by its format's matcher (or
// the ladder of src/core/match.ts); the other kinds go where their kind
// says. Nothing here looks at another edit: whether two placed edits repeat
// or overlap one another is the verdict's (src/core/verdict.ts).

import { alreadyCreated, alreadyCreatedMessage } from './applied.ts';
import { ENGINE_DEFAULTS } from './defaults.ts';
import { findElision } from './elision.ts';
import { locate } from './match.ts';
import { placedMessage, placedOther, refused, unplacedMessage, wholeFileDiffers } from './messages.ts';
import type { Originals } from './originals.ts';
import { normalizePath, notGivenMessage, resolveFile, unsafePathReason } from './paths.ts';
import { BOM, withoutBom } from './text.ts';
import type { Candidate, Diagnostic, Edit, EditResult, Format, MatchKind, EngineOptions, Part, RequestBudget } from './types.ts';

/**
 * An edit as a stage of the engine hands it to the next: plain data, a new
 * record at each stage that changes it.
 */
export interface Placement {
  /** The edit as placed: its path resolved to a given file, numbered in reply order, a copied byte order mark dropped. */
  edit: Edit;
  /** The format that read it (which placed it, and names it in messages). */
  format: Format;
  /** Its result so far. */
  result: EditResult;
  /** Where it goes, 0-based half-open, while it is placed. */
  from?: number;
  to?: number;
  /** The lines that replace `[from, to)`, when not simply `edit.new`. */
  lines?: string[];
  /** Set when `lines` is parallel to `edit.new`, so that `edit.keep` maps them to the file. */
  keeps?: boolean;
}

/** The placement failed with `d` (it forgets any place it had). */
export function failed(p: Placement, d: Pick<Diagnostic, 'code' | 'message'>, candidates: Candidate[] = []): Placement {
  const result: EditResult = Object.assign({ ...p.result }, {
    status: 'failed' as const,
    code: d.code,
    message: d.message,
    candidates,
    range: null,
    match: null,
    offset: null,
    similarity: null,
    duplicateOf: null,
  });
  return { ...p, result, from: undefined, to: undefined };
}

function placedAt(p: Placement, from: number, to: number, match: MatchKind, offset: number | null, similarity: number, message: string): Placement {
  const result: EditResult = Object.assign({ ...p.result }, { status: 'applied' as const, match, offset, similarity, range: { start: from + 1, end: to }, message });
  return { ...p, result, from, to };
}

/**
 * The lines an edit writes, as the file gets them: a first line of the file
 * never starts with U+FEFF (the byte order mark, a model copied: a given file
 * keeps the mark it has; a file created gets one mark when the line started
 * with it).
 */
export function written(lines: readonly string[], first: boolean, created: boolean): string[] {
  if (!first || lines.length === 0 || lines[0].charCodeAt(0) !== 0xfeff) return lines as string[];
  return [(created ? BOM : '') + withoutBom(lines[0]), ...lines.slice(1)];
}

/** The edit's new lines, with context lines taken from the file (`Edit.keep`). */
function keepContext(edit: Edit, actual: readonly string[]): string[] | undefined {
  if (!edit.keep) return undefined;
  return edit.new.map((line, i) => {
    const j = edit.keep![i];
    return j === null || j === undefined || actual[j] === undefined ? line : actual[j];
  });
}

function baseResult(edit: Edit): EditResult {
  const cited =
    edit.cited !== undefined && edit.kind === 'replace'
      ? { start: edit.cited, end: edit.cited + edit.old.length - 1 }
      : null;
  return {
    file: edit.file,
    index: edit.index,
    status: 'failed',
    match: null,
    offset: null,
    similarity: null,
    range: null,
    code: null,
    message: '',
    kind: edit.kind,
    cited,
    reply: edit.span,
    candidates: [],
    duplicateOf: null,
    warnings: edit.warnings,
  };
}

/** An edit that creates its file (a whole new file), moving none. */
const creates = (edit: Edit) => (edit.kind === 'write' || edit.kind === 'append') && edit.moveTo === undefined;

/**
 * The edits of every part, in reply order when there is more than one part
 * (each numbered by its place then, and its result naming its format), each
 * with its path resolved: a path differing from a given file only by `./`,
 * `\` or case is that file (one file, one name).
 */
export function gather(parts: readonly Part[], files: Originals): { read: Edit[]; placements: Placement[] } {
  const mixed = parts.length > 1;
  const read = parts.flatMap(({ format, parsed }) => parsed.edits.map((edit) => ({ edit, format })));
  if (mixed) read.sort((a, b) => a.edit.span.from - b.edit.span.from);
  const placements = read.map(({ edit, format }, k): Placement => {
    const file = files.has(edit.file) ? edit.file : resolveFile(edit.file, files.given);
    const moveTo = edit.moveTo === undefined || files.has(edit.moveTo) ? edit.moveTo : normalizePath(edit.moveTo);
    const index = mixed ? k : edit.index;
    let e = file === edit.file && moveTo === edit.moveTo && index === edit.index ? edit : { ...edit, index, file, ...(moveTo !== undefined ? { moveTo } : {}) };
    const result = baseResult(e);
    if (mixed) result.format = format.name;
    // A byte order mark copied at the start of the first cited line is the file's, not the line's.
    const first = e.old[0];
    if (first !== undefined && first.charCodeAt(0) === 0xfeff) e = { ...e, old: [withoutBom(first), ...e.old.slice(1)] };
    return { edit: e, format, result };
  });
  return { read: read.map((r) => r.edit), placements };
}

/** Place every gathered edit against the original files, each on its own. */
export function place(placements: readonly Placement[], files: Originals, options: EngineOptions, budget: RequestBudget): Placement[] {
  return placements.map((p) => placeOne(p, files, options, budget));
}

function placeOne(p: Placement, files: Originals, options: EngineOptions, budget: RequestBudget): Placement {
  const { edit } = p;
  const unsafe = unsafePathReason(edit.file);
  // A path that could leave the project is refused as such, even where the parser found no given file by it.
  if (edit.error && !(unsafe && edit.error.code === 'file-not-found')) {
    // A creation of a file that already has exactly its text was applied already.
    const created = edit.error.code === 'file-exists' && creates(edit) && files.has(edit.file);
    if (created && alreadyCreated(files.texts[edit.file], written(edit.new, true, true), edit.finalNewline))
      return failed(p, { code: 'already-applied', message: alreadyCreatedMessage(edit.file) });
    return failed(p, edit.error);
  }
  const unsafeMove = edit.moveTo !== undefined ? unsafePathReason(edit.moveTo) : null;
  if (unsafe || unsafeMove) return failed(p, { code: 'unsafe-path', message: refused.unsafe(unsafe ? edit.file : edit.moveTo!, (unsafe ?? unsafeMove)!) });
  if (edit.moveTo !== undefined && edit.moveTo !== edit.file && files.has(edit.moveTo))
    return failed(p, { code: 'file-exists', message: refused.moveOnto(edit.file, edit.moveTo) });
  const file = files.text(edit.file);
  const n = file?.lines.length ?? 0;
  if (edit.new.length > 0 && edit.kind !== 'delete' && edit.kind !== 'rename') {
    const k = findElision(edit.new, edit.old, () => file?.lines ?? []);
    if (k >= 0) return failed(p, { code: 'elided', message: refused.elided(edit.file, k, edit.new[k]) });
  }
  switch (edit.kind) {
    case 'append':
      return placedAt(p, n, n, 'exact', null, 1, placedOther.append(edit.file, file !== undefined, n, edit.new.length));
    case 'write':
      return placedAt(p, 0, n, 'exact', null, 1, placedOther.write(edit.file, file !== undefined, n, edit.new.length));
    case 'delete': {
      if (!file) return failed(p, { code: 'file-not-found', message: refused.deleteMissing(edit.file) });
      const differs = edit.old.length > 0 ? wholeFileDiffers(edit.old, file.lines) : null;
      if (differs) return failed(p, { code: 'no-match', message: refused.deleteDiffers(edit.file, edit.old.length, differs) });
      return placedAt(p, 0, n, 'exact', null, 1, placedOther.delete(edit.file));
    }
    case 'rename': {
      const to = edit.moveTo ?? '';
      if (!file) return failed(p, { code: 'file-not-found', message: refused.renameMissing(edit.file) });
      if (to === '') return failed(p, { code: 'malformed', message: refused.renameNowhere(edit.file) });
      if (files.has(to) && to !== edit.file) return failed(p, { code: 'file-exists', message: refused.renameOnto(edit.file, to) });
      return placedAt(p, 0, 0, 'exact', null, 1, placedOther.rename(edit.file, to));
    }
    case 'insert': {
      const at = (edit.cited ?? n + 1) - 1;
      if (!file && at !== 0) return failed(p, { code: 'file-not-found', message: notGivenMessage(edit.file, files.given) });
      if (at < 0 || at > n) return failed(p, { code: 'no-match', message: refused.insertOutside(edit.file, at + 1, n) });
      return placedAt(p, at, at, 'exact', 0, 1, placedOther.insert(edit.new.length, at + 1));
    }
    case 'replace': {
      if (!file) return failed(p, { code: 'file-not-found', message: notGivenMessage(edit.file, files.given, p.format.createHint) });
      const cited = edit.cited !== undefined ? edit.cited - 1 : null;
      const outcome = p.format.locate ? p.format.locate(file.lines, edit, options, budget) : locate(file.lines, edit.old, cited, options, budget);
      const threshold = String(options.fuzzyThreshold ?? ENGINE_DEFAULTS.fuzzyThreshold);
      if (!outcome.ok) {
        const window = options.window ?? ENGINE_DEFAULTS.window;
        const message = outcome.message ?? unplacedMessage(outcome, edit, p.format, p.result.cited, file.lines, window, Number(threshold));
        return failed(p, { code: outcome.code, message }, outcome.candidates);
      }
      const range = { start: outcome.start + 1, end: outcome.end };
      const actual = file.lines.slice(outcome.start, outcome.end);
      const message = outcome.message ?? placedMessage(outcome, range, edit.old, actual, p.result.cited, threshold) + (outcome.note ? `; ${outcome.note}` : '');
      const at = placedAt(p, outcome.start, outcome.end, outcome.kind, outcome.offset, outcome.similarity, message);
      if (outcome.warnings?.length) at.result.warnings = [...at.result.warnings, ...outcome.warnings];
      return { ...at, lines: outcome.newLines ?? keepContext(edit, actual), keeps: outcome.newLines === undefined };
    }
  }
}
