// The engine: parse a reply with a format, place every edit against the
// original files, refuse the edits already applied, reject overlaps, apply
// the independent edits together.

import { diagnostic, quote } from './diagnostics.ts';
import { alikeNote, firstDifference } from './invisible.ts';
import { findElision } from './elision.ts';
import { alreadyAppliedMessage, alreadyCreated, alreadyCreatedMessage, alreadyStands } from './applied.ts';
import { addLookalikeWarnings } from './lookalikes.ts';
import { unreadMarker } from './markers.ts';
import { givenPaths, normalizePath, notGivenMessage, resolveFile } from './paths.ts';
import { requestBudget } from './budget.ts';
import { firstClashes } from './overlaps.ts';
import { ENGINE_DEFAULTS } from './defaults.ts';
import { fuzzyRefusal, locate, morePlaces, searchedNote, UNSEARCHED, unsearched, type MatchOutcome } from './match.ts';
import type { RequestBudget } from './types.ts';
import { editSplices } from './hunks.ts';
import { applySplices, BOM, formatText, lacksFinalNewline, parseText, setFinalNewline, spliceText, uniformEndings, withoutBom, type Splice, type TextFile } from './text.ts';
import type {
  ApplyRequest,
  ApplyResult,
  Candidate,
  Diagnostic,
  Edit,
  EditResult,
  Format,
  LexedReply,
  LineRange,
  MatchKind,
  ParseResult,
} from './types.ts';

/** Refuse paths that could leave a base directory: absolute, drive letters, `..` segments, NUL. */
export function unsafePathReason(path: string): string | null {
  if (path === '') return 'the path is empty';
  if (path.includes('\0')) return 'the path contains a NUL character';
  if (path.startsWith('/') || path.startsWith('\\') || /^[A-Za-z]:/.test(path)) return 'the path is absolute';
  if (path.includes('..') && path.split(/[\\/]/).includes('..')) return 'the path contains a ".." segment';
  return null;
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;
const lines = (r: LineRange): string => (r.end < r.start ? `before line ${r.start}` : r.start === r.end ? `line ${r.start}` : `lines ${r.start}-${r.end}`);
const signed = (n: number) => (n > 0 ? `+${n}` : `${n}`);
const show = quote; // lines quoted in messages, cut when very long

/** An edit on its way through the engine. */
interface Work {
  edit: Edit;
  /** The format that read it (which places it, and names it in messages). */
  format: Format;
  result: EditResult;
  /** Where it goes, 0-based half-open, once placed. */
  from?: number;
  to?: number;
  /** The lines that replace `[from, to)`, when not simply `edit.new`. */
  lines?: string[];
  /** Set when `lines` is parallel to `edit.new`, so that `edit.keep` maps them to the file. */
  keeps?: boolean;
}

/**
 * The lines an edit writes, as the file gets them: a first line of the file
 * never starts with U+FEFF (the byte order mark, a model copied: a given file
 * keeps the mark it has; a file created gets one mark when the line started
 * with it).
 */
function written(lines: readonly string[], first: boolean, created: boolean): string[] {
  if (!first || lines.length === 0 || lines[0].charCodeAt(0) !== 0xfeff) return lines as string[];
  return [(created ? BOM : '') + withoutBom(lines[0]), ...lines.slice(1)];
}

/**
 * The splices of one placed edit. In a file whose lines all end alike, one
 * splice (every rule gives the new lines that ending); otherwise the edit is
 * cut around the lines it keeps, which keep their own endings (`editSplices`).
 */
function placedSplices(w: Work, file: TextFile, uniform: boolean, created: boolean): Splice[] {
  const from = w.from!;
  const to = w.to!;
  const lines = written(w.lines ?? w.edit.new, from === 0, created);
  if (uniform || from === to) return [{ from, to, lines }];
  return editSplices(file, from, to, lines, w.keeps !== false ? w.edit.keep : undefined);
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

function fail(work: Work, d: Pick<Diagnostic, 'code' | 'message'>, candidates: Candidate[] = []): void {
  Object.assign(work.result, {
    status: 'failed',
    code: d.code,
    message: d.message,
    candidates,
    range: null,
    match: null,
    offset: null,
    similarity: null,
    duplicateOf: null,
  });
  work.from = work.to = undefined;
}

function succeed(work: Work, from: number, to: number, match: MatchKind, offset: number | null, similarity: number, message: string) {
  Object.assign(work.result, {
    status: 'applied',
    match,
    offset,
    similarity,
    range: { start: from + 1, end: to },
    message,
  });
  work.from = from;
  work.to = to;
}

function placedMessage(outcome: Extract<MatchOutcome, { ok: true }>, range: LineRange, old: string[], actual: string[], cited: LineRange | null, threshold: string): string {
  const where = lines(range);
  if (range.end < range.start) return `inserted ${where}`;
  switch (outcome.kind) {
    case 'exact':
      return `applied at ${where}`;
    case 'offset':
      return `applied at ${where}: the content matched ${plural(Math.abs(outcome.offset ?? 0), 'line')} ${
        (outcome.offset ?? 0) > 0 ? 'below' : 'above'
      } the cited ${cited ? lines(cited) : 'place'} (offset ${signed(outcome.offset ?? 0)})`;
    case 'whitespace':
      return `applied at ${where}, ignoring whitespace differences on ${plural(outcome.differing.length, 'line')}${
        outcome.offset ? ` (offset ${signed(outcome.offset)})` : ''
      }${invisibleNote(outcome.differing, range.start, actual, old)}`;
    case 'fuzzy': {
      const first = outcome.differing[0] ?? 0;
      return `applied at ${where} by similarity ${outcome.similarity.toFixed(3)} (threshold ${threshold}): ${plural(
        outcome.differing.length,
        'line',
      )} ${outcome.differing.length === 1 ? 'differs' : 'differ'}; line ${range.start + first} is ${show(actual[first])} where the edit cites ${show(old[first])}${alikeNote(actual[first], old[first])}${
        outcome.offset ? ` (offset ${signed(outcome.offset)})` : ''
      }`;
    }
  }
}

/**
 * For a whitespace match: the first differing line whose difference is not
 * trailing white space (a zero-width character, another normalisation form),
 * named by code point; empty when every difference is trailing white space.
 */
function invisibleNote(differing: readonly number[], first: number, actual: readonly string[], old: readonly string[]): string {
  if (actual.length !== old.length) return '';
  const i = differing.find((k) => actual[k] !== undefined && actual[k].trimEnd() !== old[k].trimEnd());
  if (i === undefined) return '';
  return `; line ${first + i} differs from the edit's only invisibly: ${firstDifference(actual[i].trimEnd(), old[i].trimEnd())}, and is taken as the same line`;
}

function unplacedMessage(outcome: Extract<MatchOutcome, { ok: false }>, work: Work, file: TextFile, window: number, threshold: number): string {
  const { edit } = work;
  const cited = work.result.cited;
  const what = cited ? `the cited ${lines(cited)}` : 'the cited lines';
  const doNot = cited && cited.start === cited.end ? 'does not' : 'do not';
  if (outcome.code === 'ambiguous') {
    const places = outcome.candidates
      .map((c) => `${lines(c)}${c.offset !== null ? ` (offset ${signed(c.offset)})` : ''}`)
      .join(' and ');
    return `${what} match equally well (${outcome.kind}) at ${places}${morePlaces(outcome)} of ${edit.file}; ${edit.cited !== undefined ? 'cite the line numbers of the one you mean, or ' : ''}include more lines to tell them apart`;
  }
  if (outcome.fuzzyRefused !== undefined && outcome.candidates[0]) {
    const near = outcome.candidates[0];
    const s = outcome.outside[0];
    const far = { start: s + 1, end: s + edit.old.length };
    const same = edit.old.every((line, i) => line === file.lines[s + i]);
    const more = outcome.outside.length > 1 ? ` (and ${plural(outcome.outside.length - 1, 'other place')})` : '';
    const one = cited !== null && cited.start === cited.end;
    return `${what} ${one ? 'matches' : 'match'} ${edit.file} at ${lines(near)} only by similarity ${near.similarity.toFixed(3)}, but ${one ? 'occurs' : 'occur'} ${
      same ? 'unchanged' : 'ignoring trailing whitespace'
    } at ${lines(far)}${more}, outside the ${window} lines around the cited place: not applied, since ${lines(far)} may be the place meant; cite the line numbers of the place you mean, and copy its lines exactly`;
  }
  if (outcome.outside.length > 0) {
    const s = outcome.outside[0];
    return `${what} ${doNot} match ${edit.file} within ${window} lines of the cited place; the same lines occur at ${lines({
      start: s + 1,
      end: s + edit.old.length,
    })}, too far to be trusted: cite those line numbers`;
  }
  if (file.lines.length === 0) return `${what} ${doNot} match ${edit.file}, which is empty${work.format.emptyHint ? `; ${work.format.emptyHint}` : ''}`;
  if (cited && cited.end > file.lines.length) {
    return `${what} ${doNot} match ${edit.file}: the file has ${plural(file.lines.length, 'line')}; cite lines that exist`;
  }
  const c = outcome.candidates[0];
  const near = cited ? ` within ${window} lines of the cited place` : '';
  if (!c && unsearched(outcome)) return `${what} ${doNot} match ${edit.file}${near}; ${UNSEARCHED}; re-read the file and copy the lines exactly as it has them`;
  if (!c)
    return `${what} ${doNot} match ${edit.file}: no place${near}${outcome.searched ? ' that was compared' : ''} comes close to them${searchedNote(outcome)}; re-read the file and copy the lines exactly as it has them`;
  const i = c.differs.indexOf(true);
  const refusal = i >= 0 && c.lines[i] !== undefined && c.similarity > threshold ? fuzzyRefusal(edit.old[i], c.lines[i]) : null;
  const detail =
    i >= 0
      ? `; closest is ${lines(c)} (similarity ${c.similarity.toFixed(3)}), where line ${c.start + i} is ${show(c.lines[i] ?? '')} but the edit cites ${show(edit.old[i])}${c.lines[i] === undefined ? '' : alikeNote(c.lines[i], edit.old[i])}${
          refusal ? ` (similar, but ${refusal}: only one misspelt word is forgiven)` : ''
        }${searchedNote(outcome)}`
      : '';
  return `${what} ${doNot} match ${edit.file}${detail}; copy the lines exactly as the file has them`;
}

/**
 * Run one format over a request. `request.format` is not consulted. The
 * request's edits share one budget for their closest-place searches (see
 * src/core/budget.ts).
 */
export function runFormat(format: Format, request: ApplyRequest, detected = false): ApplyResult {
  return runFormatRead(format, request, detected).result;
}

/**
 * A result with the edits it was made from: `edits[i]` is the edit, as its
 * format's `parse` read it, whose result is `result.edits[i]`. What the
 * engine read is handed on, so that what follows (the page's comparisons and
 * retry messages, the replay, the bench's scores) need not parse the reply
 * again. Plain data.
 */
export interface ReadResult {
  result: ApplyResult;
  edits: Edit[];
}

/** The edits a run read, by their result's index (`edits[i]` is `result.edits[i]`'s). */
export function editsByIndex(read: ReadResult): Map<number, Edit> {
  const byIndex = new Map<number, Edit>();
  read.result.edits.forEach((r, i) => {
    const edit = read.edits[i];
    if (edit) byIndex.set(r.index, edit);
  });
  return byIndex;
}

/** `runFormat`, with the edits it read. `lexed`: the reply's lines, when split already. */
export function runFormatRead(format: Format, request: ApplyRequest, detected = false, lexed?: LexedReply): ReadResult {
  const parsed = format.parse(request.response, { files: Object.keys(request.files), ...(detected ? { detected } : {}), ...(lexed ? { lexed } : {}) });
  return runPartsRead([{ format, parsed }], request, format, lexed);
}

/** What one format read from a reply. */
export interface Part {
  format: Format;
  parsed: ParseResult;
}

/**
 * Place and apply the edits several formats read from one reply (a reply
 * that mixes formats, read with `auto`): every edit is placed by its own
 * format, and all are applied together, in reply order, as if one format
 * had read them. `main` names the result's format. With more than one part,
 * each edit's result says which format read it.
 */
export function runParts(parts: readonly Part[], request: ApplyRequest, main: Format): ApplyResult {
  return run(parts, request, main, requestBudget()).result;
}

/** `runParts`, with the edits it read. `lexed`: the reply's lines, when split already. */
export function runPartsRead(parts: readonly Part[], request: ApplyRequest, main: Format, lexed?: LexedReply): ReadResult {
  return run(parts, request, main, requestBudget(), lexed);
}

/** Set `key` on a result map as an own property, whatever the key (`__proto__` too). */
function setOwn<T>(map: Record<string, T>, key: string, value: T): void {
  Object.defineProperty(map, key, { value, writable: true, enumerable: true, configurable: true });
}

function run(parts: readonly Part[], request: ApplyRequest, main: Format, budget: RequestBudget, lexed?: LexedReply): ReadResult {
  const options = request.options ?? {};
  const window = options.window ?? ENGINE_DEFAULTS.window;
  const threshold = String(options.fuzzyThreshold ?? ENGINE_DEFAULTS.fuzzyThreshold);
  const originals = new Map<string, TextFile>();
  const textOf = (path: string): TextFile | undefined => {
    if (!Object.hasOwn(request.files, path)) return undefined;
    let t = originals.get(path);
    if (!t) originals.set(path, (t = parseText(request.files[path])));
    return t;
  };

  const given = Object.keys(request.files);
  const mixed = parts.length > 1;
  const read = parts.flatMap(({ format, parsed }) => parsed.edits.map((edit) => ({ edit, format })));
  if (mixed) read.sort((a, b) => a.edit.span.from - b.edit.span.from);
  // One file, one name: a path differing from a given file only by `./`, `\` or case is that file.
  const work: Work[] = read.map(({ edit, format }, k) => {
    const file = Object.hasOwn(request.files, edit.file) ? edit.file : resolveFile(edit.file, given);
    const moveTo = edit.moveTo === undefined || Object.hasOwn(request.files, edit.moveTo) ? edit.moveTo : normalizePath(edit.moveTo);
    const index = mixed ? k : edit.index;
    const e = file === edit.file && moveTo === edit.moveTo && index === edit.index ? edit : { ...edit, index, file, ...(moveTo !== undefined ? { moveTo } : {}) };
    const result = baseResult(e);
    if (mixed) result.format = format.name;
    return { edit: e, format, result };
  });

  // Place every edit against the original text.
  for (const w of work) {
    // A byte order mark copied at the start of the first cited line is the file's, not the line's.
    const first = w.edit.old[0];
    if (first !== undefined && first.charCodeAt(0) === 0xfeff) w.edit = { ...w.edit, old: [withoutBom(first), ...w.edit.old.slice(1)] };
    const { edit } = w;
    const unsafe = unsafePathReason(edit.file);
    // A path that could leave the project is refused as such, even where the parser found no given file by it.
    if (edit.error && !(unsafe && edit.error.code === 'file-not-found')) {
      // A creation of a file that already has exactly its text was applied already.
      const created = edit.error.code === 'file-exists' && creates(edit) && Object.hasOwn(request.files, edit.file);
      if (created && alreadyCreated(request.files[edit.file], written(edit.new, true, true), edit.finalNewline))
        fail(w, { code: 'already-applied', message: alreadyCreatedMessage(edit.file) });
      else fail(w, edit.error);
      continue;
    }
    const unsafeMove = edit.moveTo !== undefined ? unsafePathReason(edit.moveTo) : null;
    if (unsafe || unsafeMove) {
      const path = unsafe ? edit.file : edit.moveTo!;
      fail(w, { code: 'unsafe-path', message: `refused to write ${show(path)}: ${unsafe ?? unsafeMove}` });
      continue;
    }
    if (edit.moveTo !== undefined && edit.moveTo !== edit.file && Object.hasOwn(request.files, edit.moveTo)) {
      fail(w, { code: 'file-exists', message: `cannot move ${edit.file} to ${edit.moveTo}: ${edit.moveTo} already exists` });
      continue;
    }
    const file = textOf(edit.file);
    const n = file?.lines.length ?? 0;
    if (edit.new.length > 0 && edit.kind !== 'delete' && edit.kind !== 'rename') {
      const k = findElision(edit.new, edit.old, () => file?.lines ?? []);
      if (k >= 0) {
        fail(w, {
          code: 'elided',
          message: `line ${k + 1} of the new text, ${show(edit.new[k].trim())}, stands for code left out: applied, it would delete that code from ${edit.file}; write the lines in full (to keep lines unchanged, leave them out of the edit rather than eliding them)`,
        });
        continue;
      }
    }
    switch (edit.kind) {
      case 'append':
        succeed(w, n, n, 'exact', null, 1,
          !file ? `created ${edit.file} with ${plural(edit.new.length, 'line')}`
          : n === 0 ? `added ${plural(edit.new.length, 'line')} to the empty file`
          : `appended ${plural(edit.new.length, 'line')} after line ${n}`);
        break;
      case 'write':
        succeed(w, 0, n, 'exact', null, 1, file ? `replaced the whole file (${plural(n, 'line')}) with ${plural(edit.new.length, 'line')}` : `created ${edit.file} with ${plural(edit.new.length, 'line')}`);
        break;
      case 'delete': {
        const differs = file && edit.old.length > 0 ? wholeFileDiffers(edit.old, file.lines) : null;
        if (!file) fail(w, { code: 'file-not-found', message: `cannot delete ${edit.file}: no such file` });
        else if (differs)
          fail(w, {
            code: 'no-match',
            message: `not deleted: the edit quotes ${plural(edit.old.length, 'line')} as the whole of ${edit.file}, but ${differs}; a file is deleted only when the edit quotes every one of its lines exactly`,
          });
        else succeed(w, 0, n, 'exact', null, 1, `deleted ${edit.file}`);
        break;
      }
      case 'rename': {
        const to = edit.moveTo ?? '';
        if (!file) fail(w, { code: 'file-not-found', message: `cannot rename ${edit.file}: no such file` });
        else if (to === '') fail(w, { code: 'malformed', message: `the rename of ${edit.file} names no new path` });
        else if (Object.hasOwn(request.files, to) && to !== edit.file)
          fail(w, { code: 'file-exists', message: `cannot rename ${edit.file} to ${to}: ${to} already exists` });
        else succeed(w, 0, 0, 'exact', null, 1, `renamed ${edit.file} to ${to}`);
        break;
      }
      case 'insert': {
        const at = (edit.cited ?? n + 1) - 1;
        if (!file && at !== 0) fail(w, { code: 'file-not-found', message: notGivenMessage(edit.file, given) });
        else if (at < 0 || at > n)
          fail(w, {
            code: 'no-match',
            message: `cannot insert before line ${at + 1} of ${edit.file}: the file has ${plural(n, 'line')}`,
          });
        else succeed(w, at, at, 'exact', 0, 1, `inserted ${plural(edit.new.length, 'line')} before line ${at + 1}`);
        break;
      }
      case 'replace': {
        if (!file) {
          fail(w, { code: 'file-not-found', message: notGivenMessage(edit.file, given, w.format.createHint) });
          break;
        }
        const cited = edit.cited !== undefined ? edit.cited - 1 : null;
        const outcome = w.format.locate
          ? w.format.locate(file.lines, edit, options, budget)
          : locate(file.lines, edit.old, cited, options, budget);
        if (outcome.ok) {
          const range = { start: outcome.start + 1, end: outcome.end };
          const actual = file.lines.slice(outcome.start, outcome.end);
          succeed(w, outcome.start, outcome.end, outcome.kind, outcome.offset, outcome.similarity,
            outcome.message ?? placedMessage(outcome, range, edit.old, actual, w.result.cited, threshold) + (outcome.note ? `; ${outcome.note}` : ''));
          w.lines = outcome.newLines ?? keepContext(edit, actual);
          w.keeps = outcome.newLines === undefined;
          if (outcome.warnings?.length) w.result.warnings = [...w.result.warnings, ...outcome.warnings];
        } else {
          fail(w, { code: outcome.code, message: outcome.message ?? unplacedMessage(outcome, w, file, window, Number(threshold)) }, outcome.candidates);
        }
        break;
      }
    }
  }

  // Edits whose new lines already stand where they go fail, before they can clash with another.
  for (const w of work) {
    if (w.result.status !== 'applied' || !appliesLines(w.edit)) continue;
    const file = textOf(w.edit.file);
    if (!file) continue;
    const append = w.edit.kind === 'append';
    const at = alreadyStands({ file: file.lines, from: w.from!, to: w.to!, lines: written(w.lines ?? w.edit.new, w.from === 0, false), append });
    if (at) fail(w, { code: 'already-applied', message: alreadyAppliedMessage(w.edit.file, at, append) });
  }

  // Duplicates apply once; overlapping edits both fail.
  const byFile = new Map<string, Work[]>();
  /** Applied edits that change nothing: they overlap no edit, and write no splice (they may share lines with one that does). */
  const inert = new Set<Work>();
  for (const w of work) {
    if (w.result.status !== 'applied') continue;
    const list = byFile.get(w.edit.file) ?? [];
    list.push(w);
    byFile.set(w.edit.file, list);
  }
  for (const list of byFile.values()) {
    const active: Work[] = [];
    // The first edit of each place and new lines (a map, not a scan: thousands of edits may share a place).
    const byChange = new Map<string, Work>();
    for (const w of list) {
      const change = changeKey(w.from!, w.to!, w.edit.kind, w.edit.moveTo ?? '', w.lines ?? w.edit.new);
      const twin = byChange.get(change);
      if (twin && w.edit.kind !== 'append' && w.edit.kind !== 'insert') {
        w.result.code = 'duplicate';
        w.result.duplicateOf = twin.edit.index;
        w.result.message = `same change as the edit at reply line ${twin.edit.span.start.line}; applied once`;
        continue;
      }
      active.push(w);
      if (!twin) byChange.set(change, w);
    }
    // Each clashing edit names the first edit in reply order that it clashes with.
    // An edit that changes nothing (a context-only hunk) overlaps none: it never blocks one that changes lines.
    for (const w of active) if (unchanged(w, textOf(w.edit.file)) !== null) inert.add(w);
    const partners = firstClashes(active.map((w) => ({ from: w.from!, to: w.to!, whole: whole(w), moveTo: w.edit.moveTo, inert: inert.has(w) })));
    // Every message is written before any edit fails (failing forgets the edit's place).
    const clashes = active.flatMap((x, i) => (partners[i] < 0 ? [] : [{ x, y: active[partners[i]], on: shared(x, active[partners[i]]) }]));
    const clashing = new Set(clashes.map((c) => c.x));
    for (const { x, y, on } of clashes) {
      fail(x, {
        code: 'overlap',
        message: `overlaps the edit at reply line ${y.edit.span.start.line} on ${lines(on)} of ${x.edit.file}; edits must touch separate lines: merge them into one`,
      });
      x.result.range = null;
    }
    // A repeat of an edit that overlaps another overlaps it too.
    const byIndex = new Map(active.map((a) => [a.edit.index, a]));
    for (const w of list) {
      const twin = w.result.duplicateOf === null ? undefined : byIndex.get(w.result.duplicateOf);
      if (twin && clashing.has(twin)) {
        fail(w, { code: 'overlap', message: twin.result.message.replace(/^overlaps/, 'repeats an edit that overlaps') });
      }
    }
  }

  // Apply, per file.
  const files: Record<string, string | null> = {};
  for (const [path, text] of Object.entries(request.files)) setOwn(files, path, text);
  const touched = new Map<string, Work[]>();
  for (const w of work) {
    if (w.result.status !== 'applied' || w.result.code === 'duplicate') continue;
    const list = touched.get(w.edit.file) ?? [];
    list.push(w);
    touched.set(w.edit.file, list);
  }
  for (const [path, list] of touched) {
    if (list.some((w) => w.edit.kind === 'delete')) {
      setOwn(files, path, null);
      continue;
    }
    const created = !Object.hasOwn(request.files, path);
    const base = textOf(path) ?? { bom: false, lines: [], eols: [] };
    // (A text without a CR has only LF endings: no need to look at them one by one.)
    const uniform = (!created && request.files[path].indexOf('\r') === -1) || uniformEndings(base);
    const splices: Splice[] = list.flatMap((w) => (inert.has(w) ? [] : placedSplices(w, base, uniform, created)));
    const finalNewline = endOfFile(list, base);
    // The common case written from the original string's slices; the general one through the line model.
    let text = finalNewline === undefined && Object.hasOwn(request.files, path) ? spliceText(request.files[path], base, splices) : null;
    if (text === null) {
      const spliced = applySplices(base, splices);
      if (finalNewline !== undefined) setFinalNewline(spliced, finalNewline);
      text = formatText(spliced);
    }
    const moveTo = list.find((w) => w.edit.moveTo)?.edit.moveTo;
    if (moveTo && moveTo !== path) {
      setOwn(files, path, null);
      setOwn(files, moveTo, text);
    } else {
      setOwn(files, path, text);
    }
  }

  // A path that names no given file, when one given file has its name: that file, as data too.
  for (const w of work) {
    if (w.result.code !== 'file-not-found') continue;
    const meant = givenPaths(given).meant(w.edit.file);
    if (meant !== null) w.result.meant = meant;
  }

  // New paths that look like another file's, BiDi controls in new text: warnings (src/core/lookalikes.ts).
  addLookalikeWarnings(work, given, (path) => textOf(path)?.lines ?? []);
  for (const w of work) {
    const same = w.result.status === 'applied' && w.result.code !== 'duplicate' ? unchanged(w, textOf(w.edit.file)) : null;
    // A format's own no-change finding (udiffx's context-only hunk) says it already.
    if (same && !w.result.warnings.some((d) => d.code === 'no-change')) w.result.warnings = [...w.result.warnings, diagnostic('no-change', 'warning', same, w.edit.span)];
  }

  const diagnostics = parts.flatMap((p) => p.parsed.diagnostics);
  // No edit read, and no finding that says why (an error, or edits that change nothing): a reply that
  // shows the format's structure is malformed; one that shows none (a chat answer) has no edits.
  if (work.length === 0 && !diagnostics.some((d) => d.severity === 'error' || d.code === 'no-change')) {
    diagnostics.push(
      unreadMarker(request.response, main, undefined, lexed) ??
        diagnostic('no-edits', 'warning', `no edit was found in the reply, read as ${main.title}`),
    );
  }
  const result: ApplyResult = {
    ok: work.every((w) => w.result.status === 'applied') && !diagnostics.some((d) => d.severity === 'error'),
    files,
    edits: work.map((w) => w.result),
    format: main.name,
    detection: null,
    diagnostics,
  };
  return { result, edits: read.map((r) => r.edit) };
}

/**
 * The final-newline state the edits of one file set (`Edit.finalNewline`, a
 * unified diff's `\ No newline at end of file`), or undefined. Only an edit
 * that reaches the end of the file may set it; another one's is ignored,
 * with a `stray-marker` warning: no line break inside the file is lost. A
 * marker after a context line (`Edit.claimsNoFinalNewline`) sets nothing: at
 * the end of a file that ends with a line break it is wrong, and is warned
 * of as stray too.
 */
function endOfFile(list: readonly Work[], base: TextFile): boolean | undefined {
  const n = base.lines.length;
  let state: boolean | undefined;
  for (const w of list) {
    const set = w.edit.finalNewline;
    if (set === undefined && w.edit.claimsNoFinalNewline !== true) continue;
    if (w.to === n) {
      if (set !== undefined) state ??= set;
      else if (n > 0 && !lacksFinalNewline(base))
        w.result.warnings = [
          ...w.result.warnings,
          diagnostic(
            'stray-marker',
            'warning',
            `the "\\ No newline at end of file" marker after the edit's last context line says that ${w.edit.file} ends without a line break, but it ends with one: the marker was ignored, and the file keeps its final line break (a context line keeps the file's line as it is); to remove the final line break, remove the last line and add it back ("-" and "+" lines), with the marker after the added line`,
            w.edit.span,
          ),
        ];
      continue;
    }
    const where = lines({ start: w.from! + 1, end: w.to! });
    w.result.warnings = [
      ...w.result.warnings,
      diagnostic(
        'stray-marker',
        'warning',
        `the "\\ No newline at end of file" marker says that the edit's last line is the last line of ${w.edit.file}, but the edit applies ${w.from! < w.to! ? 'at ' : ''}${where} of the file, which has ${plural(n, 'line')}: the marker was ignored, and the file keeps its final line ending, or its lack of one; write the marker only after a line that ends the file`,
        w.edit.span,
      ),
    ];
  }
  return state;
}

function sameLines(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((line, i) => line === b[i]);
}

/**
 * Why an applied edit changes nothing (the message of its `no-change`
 * warning), or null when it changes its file: its lines replace lines that
 * are the same (a SEARCH equal to its REPLACE, a line replaced by itself, a
 * file written with the text it has), it inserts or appends no line to a
 * file that exists, and it neither moves the file nor sets its final newline
 * to another state. Deletions and creations always change something.
 */
function unchanged(w: Work, file: TextFile | undefined): string | null {
  const { edit } = w;
  if (!file || edit.kind === 'delete' || edit.kind === 'rename') return null;
  if (edit.moveTo !== undefined && edit.moveTo !== edit.file) return null;
  if (edit.finalNewline !== undefined && edit.finalNewline === lacksFinalNewline(file) && file.lines.length > 0) return null;
  const from = w.from!;
  const to = w.to!;
  const replacement = w.lines ?? edit.new;
  if (!sameLines(replacement, file.lines.slice(from, to))) return null;
  if (edit.kind === 'write') return `${edit.file} is written with the text it already has: applied, it changed nothing; if a change was meant, the new text is missing it`;
  if (to === from) return `the edit adds no line to ${edit.file}: applied, it changed nothing`;
  return `the new text equals the text it replaces at ${lines({ start: from + 1, end: to })} of ${edit.file}: applied, it changed nothing; if a change was meant, the new text is missing it`;
}

/**
 * How a deletion's quoted lines (`Edit.old` of a `delete` edit) differ from
 * the whole file, or null when they are exactly its lines.
 */
function wholeFileDiffers(quoted: readonly string[], lines: readonly string[]): string | null {
  for (let i = 0; i < Math.min(quoted.length, lines.length); i++) {
    if (quoted[i] !== lines[i]) return `line ${i + 1} is ${show(lines[i])} where the edit has ${show(quoted[i])}${alikeNote(lines[i], quoted[i])}`;
  }
  if (quoted.length === lines.length) return null;
  return `the file has ${plural(lines.length, 'line')}`;
}

/** An edit that creates its file (a whole new file), moving none. */
const creates = (edit: Edit) => (edit.kind === 'write' || edit.kind === 'append') && edit.moveTo === undefined;

/**
 * An edit that writes lines at a place of its file, moving none: the edits
 * that can be already applied (src/core/applied.ts). A whole-file write is
 * not one (written with the text the file has, it is `no-change`), nor a
 * deletion or a rename.
 */
const appliesLines = (edit: Edit) => (edit.kind === 'replace' || edit.kind === 'insert' || edit.kind === 'append') && (edit.moveTo === undefined || edit.moveTo === edit.file);

const whole = (w: Work) => w.edit.kind === 'write' || w.edit.kind === 'delete';

/**
 * The original lines two clashing edits (src/core/overlaps.ts, `clashes`)
 * both claim, for the message: the whole file when one rewrites or deletes
 * it; none (an empty range at line 1) when they move the file to different
 * paths; the insertion point inside the other's range; the shared lines.
 */
function shared(a: Work, b: Work): LineRange {
  if (whole(a) || whole(b)) return { start: 1, end: Math.max(a.to!, b.to!) };
  if (a.edit.moveTo && b.edit.moveTo && a.edit.moveTo !== b.edit.moveTo) return { start: 1, end: 0 };
  const [af, at, bf, bt] = [a.from!, a.to!, b.from!, b.to!];
  if (af === at) return { start: af + 1, end: af };
  if (bf === bt) return { start: bf + 1, end: bf };
  return { start: Math.max(af, bf) + 1, end: Math.min(at, bt) };
}

/**
 * A key equal for two changes exactly when they replace the same lines
 * `[from, to)` the same way (kind, target of a move, new lines): the lines'
 * lengths, then their text run together (the lengths tell where each line
 * ends, whatever it holds), so that no character needs escaping.
 */
export function changeKey(from: number, to: number, kind: string, moveTo: string, lines: readonly string[]): string {
  return `${from} ${to} ${kind} ${moveTo.length} ${lines.map((l) => l.length).join(',')}|${moveTo}${lines.join('')}`;
}
