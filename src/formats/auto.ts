// Which formats a reply is written in (spec/formats.md, "Detection and mixed
// replies" is the contract).
//
// Detection weighs structure, not words: every format scores the reply
// (`Format.detect`), and the formats that recognise an edit structure in it
// (score at least `STRUCTURE`) read it. A format whose every edit stands
// inside a whole file that another part of the reply writes (after other
// lines of that file) is quoted content of that file, not an edit. The
// highest score that remains is the reply's format; the edits other formats
// read from lines no edit of a higher-scored format covers are the reply's
// other parts, each applied in its own format. With a format asked for,
// those other parts are reported instead (`mixed-formats`).

import { unreadMarker } from '../core/markers.ts';
import { givenFile, resolveFile } from '../core/paths.ts';
import { unsafePathReason } from '../core/run.ts';
import { linesOf, type ReplyLine } from '../core/reply.ts';
import type { Diagnostic, Edit, Format, LexedReply, ParseContext, ParseResult } from '../core/types.ts';

/** The score from which a format's evidence is structure (its markers), not a guess. */
export const STRUCTURE = 0.5;

/** Where an edit is in the reply, by lines (1-based, inclusive). */
interface Lines {
  start: number;
  end: number;
}

const editLines = (edit: Edit): Lines => ({ start: edit.span.start.line, end: edit.span.end.line });

/** The index of the last of `n` sorted items at or below `x` by `key`, or -1 (binary search). */
function lastAtOrBelow(n: number, x: number, key: (k: number) => number): number {
  let lo = 0;
  let hi = n;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (key(mid) <= x) lo = mid + 1;
    else hi = mid;
  }
  return lo - 1;
}

/**
 * Line ranges, for "does this range overlap any of them?" in logarithmic
 * time: sorted by start, each with the furthest end among it and those
 * before it.
 */
class Ranges {
  private starts: number[] = [];
  /** Per item (sorted): the furthest end so far, and the tag of the item that reaches it. */
  private reach: { end: number; tag: number }[] = [];
  private items: { at: Lines; tag: number }[] = [];
  constructor(items: { at: Lines; tag: number }[] = []) {
    this.set(items);
  }
  private set(items: { at: Lines; tag: number }[]): void {
    this.items = [...items].sort((a, b) => a.at.start - b.at.start);
    this.starts = this.items.map((i) => i.at.start);
    this.reach = [];
    let far = { end: -Infinity, tag: -1 };
    for (const i of this.items) this.reach.push((far = i.at.end > far.end ? { end: i.at.end, tag: i.tag } : far));
  }
  add(items: { at: Lines; tag: number }[]): void {
    if (items.length) this.set([...this.items, ...items]);
  }
  /** The furthest end among ranges starting at or before `line`, and the tag of one that reaches it. */
  furthest(line: number): { end: number; tag: number } | null {
    const k = lastAtOrBelow(this.starts.length, line, (i) => this.starts[i]);
    return k < 0 ? null : this.reach[k];
  }
  /** Whether `at` overlaps a range. */
  overlaps(at: Lines): boolean {
    const f = this.furthest(at.end);
    return f !== null && f.end >= at.start;
  }
}

/** One format's reading of a reply. */
export interface Reading {
  format: Format;
  score: number;
  reason: string;
  parsed: ParseResult;
}

const FENCE = /^ {0,3}(?:`{3,}|~{3,}|<(?:source|code|pre|codeblock|sourcecode)>)/;

/** A fenced file block: its lines, and the first line of its content that is not blank. */
interface FileBlock {
  block: Lines;
  firstContent: number;
}

function fileBlock(lines: readonly ReplyLine[], edit: Edit): FileBlock {
  const block = editLines(edit);
  let k = block.start; // the path line, or the fence
  while (k <= block.end && !FENCE.test(lines[k - 1]?.text ?? '')) k++;
  k++;
  while (k < block.end && (lines[k - 1]?.text ?? '').trim() === '') k++;
  return { block, firstContent: k };
}

/** Whether an edit at `at` is quoted inside a file block: inside it (up to its closing fence), after other lines of the file. */
const quotedIn = (f: FileBlock, at: Lines) => f.block.start < at.start && at.end <= f.block.end && at.start > f.firstContent;

/** The whole-file blocks the reply writes (`write` edits of `wholeFormat`, read with no error). */
function wholeFiles(reply: string, whole: Format | undefined, context: ParseContext): FileBlock[] {
  if (!whole) return [];
  const lines = linesOf(reply, context.lexed);
  return whole
    .parse(reply, { ...context, detected: true })
    .edits.filter((e) => e.kind === 'write' && !e.error)
    .map((e) => fileBlock(lines, e));
}

/**
 * Every format whose structure the reply shows, read, best first: the
 * formats scoring at least `STRUCTURE`, without those whose edits are all
 * quoted inside a whole file written by the reply (see the file header).
 */
export function readings(reply: string, formats: readonly Format[], context: ParseContext): Reading[] {
  return read(reply, formats, context).found;
}

/** Every format's score for a reply (`Format.detect`), in the order of `formats`. */
export interface Scored {
  format: Format;
  score: number;
  reason: string;
}

/**
 * The reply's readings (see `readings`), the readings discarded as quoted
 * inside a whole file, and every format's score (`detected`: what
 * detection weighs when no format found structure).
 */
export function read(reply: string, formats: readonly Format[], context: ParseContext): { found: Reading[]; quoted: Reading[]; detected: Scored[] } {
  const detected = formats.map((format) => ({ format, ...format.detect(reply, context.lexed) }));
  const scored = detected
    .map((s, order) => ({ ...s, order }))
    .filter((s) => s.score >= STRUCTURE)
    .sort((a, b) => b.score - a.score || a.order - b.order);
  if (scored.length === 0) return { found: [], quoted: [], detected };
  const files = wholeFiles(reply, wholeFormat(formats), context);
  const out: Reading[] = [];
  const discarded: Reading[] = [];
  for (const s of scored) {
    const parsed = s.format.parse(reply, { ...context, detected: true });
    const quoted =
      files.length > 0 &&
      parsed.edits.length > 0 &&
      parsed.edits.every((e) => {
        // The file blocks do not overlap and are in reply order: only the last one starting before the edit can hold it.
        const at = editLines(e);
        const k = lastAtOrBelow(files.length, at.start - 1, (i) => files[i].block.start);
        return k >= 0 && quotedIn(files[k], at);
      });
    (quoted ? discarded : out).push({ format: s.format, score: s.score, reason: s.reason, parsed });
  }
  return { found: out, quoted: discarded, detected };
}

/**
 * For a reply in which no format found structure: the format whose markers
 * (`Format.markers`: a misspelt head, an empty envelope, a file header with
 * no hunk) the reply shows first, outside any file the reply writes whole
 * (a marker after other lines of such a file is quoted content), with the
 * `malformed` error there; null when the reply shows none (a chat answer).
 * Among formats whose first marker is on the same line, the earlier in
 * `formats` wins.
 */
export function unreadStructure(reply: string, formats: readonly Format[], context: ParseContext): { format: Format; error: Diagnostic } | null {
  const withMarkers = formats.filter((f) => f.markers?.length);
  if (withMarkers.length === 0) return null;
  const files = wholeFiles(reply, wholeFormat(formats), context);
  const quoted = (line: number) => {
    const k = lastAtOrBelow(files.length, line - 1, (i) => files[i].block.start);
    return k >= 0 && quotedIn(files[k], { start: line, end: line });
  };
  let best: { format: Format; error: Diagnostic } | null = null;
  for (const format of withMarkers) {
    const error = unreadMarker(reply, format, quoted, context.lexed);
    if (error?.reply && (!best || error.reply.from < best.error.reply!.from)) best = { format, error };
  }
  return best;
}

/**
 * The first format of `formats` whose blocks are whole files (`Format.wholeFiles`:
 * `whole` in the registry): it finds the files a reply writes whole, and reads
 * a reply whose only structure is quoted in them.
 */
export const wholeFormat = (formats: readonly Format[]): Format | undefined => formats.find((f) => f.wholeFiles);

/**
 * Whether an edit read by another format than the reply's is quoted (a
 * diff in a log, a tool's output, an example), not an edit: it changes a
 * file that must exist (replaces its lines, deletes or renames it), the file
 * is not among `files` given, and no edit of the reply's own format touches
 * it (`own`: the files those edits name, resolved). An edit that creates a
 * file (writes it whole, appends or inserts), or that names no file, is
 * never quoted: a creation cannot be told from a quote by the file list, and
 * dropping it would hide a change the reply asks for. Nor is an edit of a
 * path that could leave the project: it is refused with `unsafe-path`.
 */
export function isQuotedEdit(edit: Edit, files: readonly string[], own: ReadonlySet<string>): boolean {
  if (edit.kind !== 'replace' && edit.kind !== 'delete' && edit.kind !== 'rename') return false;
  if (edit.file === '' || givenFile(edit.file, files) !== null) return false;
  // A path that could leave the project is refused (unsafe-path), never set aside as a quote.
  if (unsafePathReason(edit.file) !== null) return false;
  return !own.has(resolveFile(edit.file, files));
}

/** The files the edits of `parsed` name, as the engine resolves them against `files`. */
export const filesOf = (parsed: ParseResult, files: readonly string[]): Set<string> =>
  new Set(parsed.edits.filter((e) => e.file !== '').map((e) => resolveFile(e.file, files)));

/** Edits of a reading quoted in the reply, not read as edits. */
export interface QuotedEdits {
  reading: Reading;
  edits: Edit[];
}

/** The edit's structure was read: no error, or only one saying its file is not given (which a quote's is not). */
const readCleanly = (e: Edit): boolean => !e.error || e.error.code === 'file-not-found';

/**
 * Reply lines of quoted edits whose structure was read (`readCleanly`: a
 * quote that one format reads as a whole): does one of them hold an edit's
 * lines whole?
 */
export class Quotes {
  private ranges = new Ranges();
  add(edits: readonly Edit[]): void {
    this.ranges.add(edits.filter(readCleanly).map((e) => ({ at: editLines(e), tag: 0 })));
  }
  /** Whether the edit's lines lie within one quoted edit's lines: another format's reading of the quote's text. */
  holds(edit: Edit): boolean {
    const at = editLines(edit);
    const f = this.ranges.furthest(at.start);
    return f !== null && f.end >= at.end;
  }
  /** Whether the edit's lines overlap a quoted edit's lines. */
  touches(edit: Edit): boolean {
    return this.ranges.overlaps(editLines(edit));
  }
  /**
   * The reply's own reading without the edits that the quotes hold and whose
   * structure it could not read (the quote's text, not an edit of its own),
   * renumbered. An edit whose structure it read is never dropped.
   */
  strip(parsed: ParseResult): ParseResult {
    const edits = parsed.edits.filter((e) => readCleanly(e) || !this.holds(e));
    if (edits.length === parsed.edits.length) return parsed;
    return { ...parsed, edits: edits.map((e, k) => (e.index === k ? e : { ...e, index: k })) };
  }
}

/**
 * `readings` (best first) without the edits quoted in the reply for the
 * reply's own format, whose edits name `own`: each edit that `isQuotedEdit`,
 * and each edit whose lines lie within a quoted edit's lines (a format that
 * reads the quote's text too); readings left with no edit are dropped. The
 * quoted edits of each reading in `quoted`, and their lines in `quotes`.
 */
export function withoutQuoted(
  readings: readonly Reading[],
  files: readonly string[],
  own: ReadonlySet<string>,
  quotes: Quotes = new Quotes(),
): { kept: Reading[]; quoted: QuotedEdits[]; quotes: Quotes } {
  const kept: Reading[] = [];
  const quoted: QuotedEdits[] = [];
  for (const r of readings) {
    const out = r.parsed.edits.filter((e) => isQuotedEdit(e, files, own) || quotes.holds(e));
    quotes.add(out);
    if (out.length > 0) quoted.push({ reading: r, edits: out });
    if (out.length === r.parsed.edits.length && out.length > 0) continue;
    kept.push(out.length === 0 ? r : { ...r, parsed: { ...r.parsed, edits: r.parsed.edits.filter((e) => !out.includes(e)) } });
  }
  return { kept, quoted, quotes };
}

/**
 * The reply's own format among `found` (best first): the first reading with
 * an edit that is not quoted with no own file (one on a given file, a
 * creation, one naming no file) and whose lines are not within the lines of
 * a reading before it, so that a diff quoted for a file not given never
 * decides the format of a reply that edits the given ones. The reading comes
 * without its edits within those lines (the quote's text, read by a second
 * format), with the quotes of the readings passed over. Null when no reading
 * qualifies.
 */
export function ownReading(reply: string, found: readonly Reading[], files: readonly string[], lexed?: LexedReply): { reading: Reading; quotes: Quotes } | null {
  const none = new Set<string>();
  const quotes = new Quotes();
  for (const r of found) {
    const parsed = quotes.strip(r.parsed);
    const claimed = claimedBlocks(reply, r, found, lexed);
    if (parsed.edits.some((e) => !claimed.has(e) && !isQuotedEdit(e, files, none))) return { reading: parsed === r.parsed ? r : { ...r, parsed }, quotes };
    quotes.add(r.parsed.edits.filter((e) => !claimed.has(e)));
  }
  return null;
}

/**
 * The edits of a format that reads fenced blocks as files (`Format.fileBlocks`)
 * that another reading of `found` claims (see `misread`): blocks that are
 * another format's edit, not the format's own. None for other formats.
 */
export function claimedBlocks(reply: string, reading: Reading, found: readonly Reading[], lexed?: LexedReply): Set<Edit> {
  if (!reading.format.fileBlocks) return new Set();
  const claimants = found.filter((r) => r !== reading && !r.format.fileBlocks);
  if (claimants.length === 0) return new Set();
  return new Set([...misread(reply, reading.parsed, claimants, lexed).keys()].map((k) => reading.parsed.edits[k]));
}

/**
 * The edits of `others` that no edit of `first` (nor of an earlier one of
 * `others`) covers, by reply lines: the parts of the reply written in
 * another format. Each reading keeps only such edits (its reply-level
 * findings are about lines the first format explains, and go); readings
 * left with no edit are dropped.
 */
export function otherParts(first: ParseResult, others: readonly Reading[]): Reading[] {
  const taken = new Ranges(first.edits.map((e) => ({ at: editLines(e), tag: 0 })));
  const out: Reading[] = [];
  for (const r of others) {
    const edits = r.parsed.edits.filter((e) => !taken.overlaps(editLines(e)));
    if (edits.length === 0) continue;
    taken.add(edits.map((e) => ({ at: editLines(e), tag: 0 })));
    out.push({ ...r, parsed: { edits, diagnostics: [] } });
  }
  return out;
}

/**
 * The edits of `first` (a format that reads fenced blocks as files: `whole`,
 * `between`) that are really another format's edit (one that format reads
 * without error), not quoted inside the file it writes: blocks the first
 * would write as text. Indexes into
 * `first.edits`, each with the reading that claims it.
 */
export function misread(reply: string, first: ParseResult, others: readonly Reading[], lexed?: LexedReply): Map<number, Reading> {
  const lines = linesOf(reply, lexed);
  const claims = new Ranges(others.flatMap((r, tag) => r.parsed.edits.filter((e) => !e.error).map((e) => ({ at: editLines(e), tag }))));
  const out = new Map<number, Reading>();
  first.edits.forEach((f, k) => {
    const { block, firstContent } = fileBlock(lines, f);
    // An edit overlapping the block is not quoted in it when it starts at or
    // before its first content line, or runs past its end.
    const early = claims.furthest(Math.min(firstContent, block.end));
    const late = claims.furthest(block.end);
    const claim = early && early.end >= block.start ? early : late && late.end > block.end ? late : null;
    if (claim) out.set(k, others[claim.tag]);
  });
  return out;
}
