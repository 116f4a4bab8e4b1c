// The engine: parse a reply with a format, place every edit against the
// original files, reject overlaps, apply the independent edits together.

import { diagnostic, quote } from './diagnostics.ts';
import { findElision } from './elision.ts';
import { unreadMarker } from './markers.ts';
import { normalizePath, resolveFile } from './paths.ts';
import { requestBudget } from './budget.ts';
import { ENGINE_DEFAULTS } from './defaults.ts';
import { fuzzyRefusal, locate, morePlaces, searchedNote, type MatchOutcome } from './match.ts';
import type { RequestBudget } from './types.ts';
import { applySplices, formatText, lacksFinalNewline, parseText, setFinalNewline, spliceText, type Splice, type TextFile } from './text.ts';
import type {
  ApplyRequest,
  ApplyResult,
  Candidate,
  Diagnostic,
  Edit,
  EditResult,
  Format,
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
      }`;
    case 'fuzzy': {
      const first = outcome.differing[0] ?? 0;
      return `applied at ${where} by similarity ${outcome.similarity.toFixed(3)} (threshold ${threshold}): ${plural(
        outcome.differing.length,
        'line',
      )} ${outcome.differing.length === 1 ? 'differs' : 'differ'}; line ${range.start + first} is ${show(actual[first])} where the edit cites ${show(old[first])}${
        outcome.offset ? ` (offset ${signed(outcome.offset)})` : ''
      }`;
    }
  }
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
  if (cited && cited.end > file.lines.length) {
    return `${what} ${doNot} match ${edit.file}: the file has ${plural(file.lines.length, 'line')}; cite lines that exist`;
  }
  const c = outcome.candidates[0];
  if (!c && file.lines.length === 0) return `${what} ${doNot} match ${edit.file}, which is empty; to add lines to it, leave the lines to remove empty`;
  if (!c) return `${what} ${doNot} match ${edit.file}: no place ${cited ? `within ${window} lines of the cited place ` : ''}comes close to them${searchedNote(outcome)}; re-read the file and copy the lines exactly as it has them`;
  const i = c.differs.indexOf(true);
  const refusal = i >= 0 && c.lines[i] !== undefined && c.similarity > threshold ? fuzzyRefusal(edit.old[i], c.lines[i]) : null;
  const detail =
    i >= 0
      ? `; closest is ${lines(c)} (similarity ${c.similarity.toFixed(3)}), where line ${c.start + i} is ${show(c.lines[i] ?? '')} but the edit cites ${show(edit.old[i])}${
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
  const parsed = format.parse(request.response, { files: Object.keys(request.files), ...(detected ? { detected } : {}) });
  return runParts([{ format, parsed }], request, format);
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
  return run(parts, request, main, requestBudget());
}

/** Set `key` on a result map as an own property, whatever the key (`__proto__` too). */
function setOwn<T>(map: Record<string, T>, key: string, value: T): void {
  Object.defineProperty(map, key, { value, writable: true, enumerable: true, configurable: true });
}

function run(parts: readonly Part[], request: ApplyRequest, main: Format, budget: RequestBudget): ApplyResult {
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
    const { edit } = w;
    if (edit.error) {
      fail(w, edit.error);
      continue;
    }
    const unsafe = unsafePathReason(edit.file);
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
        if (!file && at !== 0) fail(w, { code: 'file-not-found', message: `${edit.file} is not among the files given` });
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
          fail(w, {
            code: 'file-not-found',
            message: `${edit.file} is not among the files given${
              Object.keys(request.files).length ? ` (${Object.keys(request.files).join(', ')})` : ''
}${w.format.createHint ? `; ${w.format.createHint}` : ''}`,
          });
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
            outcome.message ?? placedMessage(outcome, range, edit.old, actual, w.result.cited, threshold));
          w.lines = outcome.newLines ?? keepContext(edit, actual);
          if (outcome.warnings?.length) w.result.warnings = [...w.result.warnings, ...outcome.warnings];
        } else {
          fail(w, { code: outcome.code, message: outcome.message ?? unplacedMessage(outcome, w, file, window, Number(threshold)) }, outcome.candidates);
        }
        break;
      }
    }
  }

  // Duplicates apply once; overlapping edits both fail.
  const byFile = new Map<string, Work[]>();
  for (const w of work) {
    if (w.result.status !== 'applied') continue;
    const list = byFile.get(w.edit.file) ?? [];
    list.push(w);
    byFile.set(w.edit.file, list);
  }
  for (const list of byFile.values()) {
    const active: Work[] = [];
    const byPlace = new Map<string, Work[]>();
    for (const w of list) {
      const place = `${w.from}:${w.to}:${w.edit.kind}:${w.edit.moveTo ?? ''}`;
      const same = byPlace.get(place);
      const twin = same?.find((a) => sameLines(a.lines ?? a.edit.new, w.lines ?? w.edit.new));
      if (twin && w.edit.kind !== 'append' && w.edit.kind !== 'insert') {
        w.result.code = 'duplicate';
        w.result.duplicateOf = twin.edit.index;
        w.result.message = `same change as the edit at reply line ${twin.edit.span.start.line}; applied once`;
        continue;
      }
      active.push(w);
      if (same) same.push(w);
      else byPlace.set(place, [w]);
    }
    // Only edits that clash with something can clash: find them in O(k log k),
    // then pair them up in reply order (the pairing names each one's partner).
    const suspects = mayClash(active);
    const clashing = new Set<Work>();
    for (let i = 0; i < suspects.length; i++) {
      for (let j = i + 1; j < suspects.length; j++) {
        const a = suspects[i];
        const b = suspects[j];
        const shared = clash(a, b);
        if (shared === null) continue;
        for (const [x, y] of [[a, b], [b, a]] as const) {
          if (!clashing.has(x)) {
            clashing.add(x);
            fail(x, {
              code: 'overlap',
              message: `overlaps the edit at reply line ${y.edit.span.start.line} on ${lines(shared)} of ${x.edit.file}; edits must touch separate lines: merge them into one`,
            });
            x.result.range = null;
          }
        }
      }
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
    const base = textOf(path) ?? { bom: false, lines: [], eols: [] };
    const splices: Splice[] = list.map((w) => ({ from: w.from!, to: w.to!, lines: w.lines ?? w.edit.new }));
    const finalNewline = list.find((w) => w.edit.finalNewline !== undefined)?.edit.finalNewline;
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

  for (const w of work) {
    const same = w.result.status === 'applied' && w.result.code !== 'duplicate' ? unchanged(w, textOf(w.edit.file)) : null;
    if (same) w.result.warnings = [...w.result.warnings, diagnostic('no-change', 'warning', same, w.edit.span)];
  }

  const diagnostics = parts.flatMap((p) => p.parsed.diagnostics);
  // No edit read, and no finding that says why (an error, or edits that change nothing): a reply that
  // shows the format's structure is malformed; one that shows none (a chat answer) has no edits.
  if (work.length === 0 && !diagnostics.some((d) => d.severity === 'error' || d.code === 'no-change')) {
    diagnostics.push(
      unreadMarker(request.response, main) ??
        diagnostic('no-edits', 'warning', `no edit was found in the reply, read as ${main.title}`),
    );
  }
  return {
    ok: work.every((w) => w.result.status === 'applied') && !diagnostics.some((d) => d.severity === 'error'),
    files,
    edits: work.map((w) => w.result),
    format: main.name,
    detection: null,
    diagnostics,
  };
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
    if (quoted[i] !== lines[i]) return `line ${i + 1} is ${show(lines[i])} where the edit has ${show(quoted[i])}`;
  }
  if (quoted.length === lines.length) return null;
  return `the file has ${plural(lines.length, 'line')}`;
}

function sameLines(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((line, i) => line === b[i]);
}

/**
 * The placed edits (in their order) for which `clash` is not null with at
 * least one other: every edit when one rewrites or deletes the whole file;
 * edits that move the file when two name different targets; ranges that
 * overlap another range; ranges and insertion points strictly inside one.
 */
function mayClash(active: readonly Work[]): Work[] {
  if (active.length < 2) return [];
  const whole = (w: Work) => w.edit.kind === 'write' || w.edit.kind === 'delete';
  if (active.some(whole)) return [...active];
  const marked = new Set<Work>();
  const moves = new Set(active.flatMap((w) => (w.edit.moveTo ? [w.edit.moveTo] : [])));
  if (moves.size > 1) for (const w of active) if (w.edit.moveTo) marked.add(w);
  const ranges = active.filter((w) => w.from! < w.to!).sort((a, b) => a.from! - b.from! || a.to! - b.to!);
  const points = active.filter((w) => w.from === w.to).sort((a, b) => a.from! - b.from!);
  // Ranges that overlap an earlier one (and the earlier one reaching furthest).
  let reach: Work | null = null;
  for (const r of ranges) {
    if (reach && r.from! < reach.to!) {
      marked.add(r);
      marked.add(reach);
    }
    if (!reach || r.to! > reach.to!) reach = r;
  }
  // Insertion points strictly inside a range: prefix maxima of the ranges' ends.
  const maxTo: number[] = [];
  ranges.forEach((r, k) => maxTo.push(Math.max(k ? maxTo[k - 1] : -Infinity, r.to!)));
  const firstAfter = <T>(xs: readonly T[], ok: (x: T) => boolean): number => {
    let lo = 0;
    let hi = xs.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (ok(xs[mid])) hi = mid;
      else lo = mid + 1;
    }
    return lo;
  };
  for (const p of points) {
    const k = firstAfter(ranges, (r) => r.from! >= p.from!); // ranges [0, k) start before p
    if (k > 0 && maxTo[k - 1] > p.from!) marked.add(p);
  }
  for (const r of ranges) {
    const k = firstAfter(points, (p) => p.from! > r.from!);
    if (k < points.length && points[k].from! < r.to!) marked.add(r);
  }
  return active.filter((w) => marked.has(w));
}

/**
 * The original lines two placed edits both claim, or null when they can be
 * applied together. Insertions at one point stack in reply order; whole-file
 * edits clash with everything else on the file.
 */
function clash(a: Work, b: Work): LineRange | null {
  const whole = (w: Work) => w.edit.kind === 'write' || w.edit.kind === 'delete';
  if (whole(a) || whole(b)) return { start: 1, end: Math.max(a.to!, b.to!) };
  if (a.edit.moveTo && b.edit.moveTo && a.edit.moveTo !== b.edit.moveTo) return { start: 1, end: 0 };
  const [af, at, bf, bt] = [a.from!, a.to!, b.from!, b.to!];
  if (af === at && bf === bt) return null;
  if (af === at) return bf < af && af < bt ? { start: af + 1, end: af } : null;
  if (bf === bt) return af < bf && bf < at ? { start: bf + 1, end: bf } : null;
  const start = Math.max(af, bf);
  const end = Math.min(at, bt);
  return start < end ? { start: start + 1, end } : null;
}
