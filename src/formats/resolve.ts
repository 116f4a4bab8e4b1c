// Stage "resolve": from what every format read (read.ts) to the plan the
// engine applies: which format's edits are the reply's own, which other
// formats' edits are parts of it too, which are quoted (a diff in a log, an
// example: not edits), and which blocks a whole-file format misread.
// spec/formats.md, "Detection and mixed replies", is the contract.
//
// Under `auto`, the rules below are tried in order and the first that
// applies makes the plan. With a format asked for, that format's reading is
// the plan, and another format's edits are reported (`mixed-formats`).

import { cutOpenerError, withCutOpener } from '../core/cut.ts';
import { diagnostic } from '../core/diagnostics.ts';
import { givenFile, resolveFile, unsafePathReason } from '../core/paths.ts';
import type { Detection, Diagnostic, Edit, Format, ParseResult, Part } from '../core/types.ts';
import { editLines, Ranges } from './ranges.ts';
import { fileBlock, wholeFormat, type Reading, type ReplyReading, type Scored } from './read.ts';

/** What the engine applies: the parts of the reply, the format that names the result, and how it was chosen. */
export interface Plan {
  parts: Part[];
  main: Format;
  /** Under `auto`: the format chosen and why; null with a format asked for. */
  detection: Detection | null;
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;
const replyLines = (edits: readonly Edit[]) => {
  const first = edits[0].span.start.line;
  const last = edits[edits.length - 1].span.end.line;
  return first === last ? `line ${first}` : `lines ${first}-${last}`;
};

/** The format with the highest score (ties go to registry order), and why; the first format when none scores. */
export function chooseFormat(scored: readonly Scored[], among: readonly Format[]): { format: Format; detection: Detection } {
  let best: Scored | null = null;
  for (const s of scored) if (!best || s.score > best.score) best = s;
  const chosen = best ?? { format: among[0], score: 0, reason: '' };
  const reason = chosen.score > 0 ? chosen.reason : `no format recognised the reply; defaulting to ${chosen.format.name}`;
  return { format: chosen.format, detection: { format: chosen.format.name, reason } };
}

/** One rule of `auto`: the plan it makes of a reading, or null when it does not apply. */
interface Rule {
  name: string;
  plan(reading: ReplyReading): Plan | null;
}

/**
 * The rules of `auto`, in the order they are tried. The last one always
 * applies.
 */
export const AUTO_RULES: readonly Rule[] = [
  {
    // Every structure is quoted inside a file the reply writes whole: the reply writes whole files.
    name: 'only quoted structure',
    plan(r) {
      const { found, quoted } = r.structure();
      const whole = wholeFormat(r.formats);
      if (found.length > 0 || quoted.length === 0 || !whole) return null;
      const inside = quoted.map((q) => q.reason).join('; ');
      return {
        parts: [{ format: whole, parsed: r.parse(whole, true) }],
        main: whole,
        detection: { format: whole.name, reason: `whole files in fences: ${inside}, inside a file the reply writes whole (quoted, not an edit)` },
      };
    },
  },
  {
    // No edit of any format, and the reply ends inside the line that opens one: it was cut off there.
    name: 'cut inside an opening line',
    plan(r) {
      if (r.structure().found.length > 0) return null;
      for (const format of r.formats) {
        const error = cutOpenerError(r.lines, format);
        if (!error) continue;
        return {
          parts: [{ format, parsed: { edits: [], diagnostics: [error] } }],
          main: format,
          detection: { format: format.name, reason: `no edit could be read, but the reply ends inside the line that opens ${format.title}'s edit, at line ${error.reply!.start.line}` },
        };
      }
      return null;
    },
  },
  {
    // No edit of any format, but one format's markers: the reply meant an edit that could not be read.
    name: 'markers but no edit',
    plan(r) {
      if (r.structure().found.length > 0) return null;
      const unread = r.unreadStructure();
      if (!unread) return null;
      const { format, error } = unread;
      return {
        parts: [{ format, parsed: { edits: [], diagnostics: [error] } }],
        main: format,
        detection: { format: format.name, reason: `no edit could be read, but line ${error.reply!.start.line} shows ${format.title} structure` },
      };
    },
  },
  {
    // No structure: the weakest evidence (a fence with a path) decides, and no guess replaces a file.
    name: 'no structure',
    plan(r) {
      if (r.structure().found.length > 0) return null;
      const { format, detection } = chooseFormat(r.scores, r.formats);
      return { parts: [{ format, parsed: r.parse(format, true) }], main: format, detection };
    },
  },
  {
    // The reply's own format, the other formats' edits as parts of it, and the diffs quoted for files not given (not edits).
    name: 'own format and other parts',
    plan(r) {
      const { found } = r.structure();
      const own = ownReading(r, found) ?? wholeBesideQuotes(r, found);
      const first = own?.reading ?? found[0];
      const second = found.filter((x) => x.format !== first.format);
      const ownFiles = filesOf(unclaimed(r, first, second), r.files);
      const { kept: rest, quoted: quotedEdits } = withoutQuoted(second, r.files, ownFiles, own?.quotes);
      const main = withoutMisread(r, first.format, first.parsed, second, new Set(quotedEdits.flatMap((q) => q.edits)));
      const others = otherParts(main, rest);
      const quotedNote = quotedNoteOf(quotedEdits);
      const detection: Detection =
        others.length === 0
          ? { format: first.format.name, reason: `${first.reason}${quotedNote}` }
          : {
              format: first.format.name,
              reason: `${first.reason}; the reply also holds ${others
                .map((o) => `${plural(o.parsed.edits.length, `${o.format.name} edit`)} (${o.reason})`)
                .join(' and ')}, applied in ${others.length === 1 ? 'its' : 'their'} own format${quotedNote}`,
              formats: [first, ...others].map((o) => o.format.name),
            };
      return { parts: [{ format: first.format, parsed: main }, ...others.map((o) => ({ format: o.format, parsed: o.parsed }))], main: first.format, detection };
    },
  },
];

/** The plan of a reply read with `auto`: the first of `AUTO_RULES` that applies. */
export function resolveAuto(reading: ReplyReading): Plan {
  for (const rule of AUTO_RULES) {
    const plan = rule.plan(reading);
    if (plan) return withCut(reading, plan);
  }
  throw new Error('the last rule of auto always applies');
}

/** The plan, with a `truncated` error when the reply's last line was cut inside a line that opens an edit of its format (src/core/cut.ts). */
const withCut = (reading: ReplyReading, plan: Plan): Plan => {
  const parts = withCutOpener(reading.lines, plan.parts);
  return parts === plan.parts ? plan : { ...plan, parts };
};

/**
 * The plan of a reply read in the format asked for: its reading, edit for
 * edit, with a `mixed-formats` error for the edits of another format the
 * reply holds (another format's diff quoted for a file not given is not an
 * edit: no mixing) and for the blocks a whole-file format would write that
 * are another format's edit.
 */
export function resolveNamed(reading: ReplyReading, format: Format): Plan {
  return withCut(reading, namedPlan(reading, format));
}

function namedPlan(reading: ReplyReading, format: Format): Plan {
  const parsed = reading.parse(format, false);
  const found = reading.structure(reading.formats.filter((f) => f !== format)).found;
  if (found.length === 0) return { parts: [{ format, parsed }], main: format, detection: null };
  const ownFiles = filesOf(unclaimed(reading, { format, score: 1, reason: '', parsed }, found), reading.files);
  const { kept } = withoutQuoted(found, reading.files, ownFiles);
  const main = withoutMisread(reading, format, parsed, found, new Set());
  const foreign = otherParts(main, kept).map((o) =>
    diagnostic(
      'mixed-formats',
      'error',
      `the reply also holds ${plural(o.parsed.edits.length, `${o.format.name} edit`)} at reply ${replyLines(o.parsed.edits)} (${o.reason}); they were not applied, since the request asks for ${format.title}: write every edit in one format, or read the reply with auto`,
      o.parsed.edits[0].span,
    ),
  );
  return { parts: [{ format, parsed: { edits: main.edits, diagnostics: [...main.diagnostics, ...foreign] } }], main: format, detection: null };
}

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
  if (unsafePathReason(edit.file) !== null) return false;
  return !own.has(resolveFile(edit.file, files));
}

/** The files the edits of `parsed` name, as the engine resolves them against `files`. */
const filesOf = (parsed: ParseResult, files: readonly string[]): Set<string> =>
  new Set(parsed.edits.filter((e) => e.file !== '').map((e) => resolveFile(e.file, files)));

/** Edits of a reading quoted in the reply, not read as edits. */
interface QuotedEdits {
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
class Quotes {
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
  withoutHeld(parsed: ParseResult): ParseResult {
    const edits = parsed.edits.filter((e) => readCleanly(e) || !this.holds(e));
    if (edits.length === parsed.edits.length) return parsed;
    return { ...parsed, edits: renumbered(edits) };
  }
}

const renumbered = (edits: readonly Edit[]): Edit[] => edits.map((e, k) => (e.index === k ? e : { ...e, index: k }));

/**
 * `readings` (best first) without the edits quoted in the reply for the
 * reply's own format, whose edits name `own`: each edit that `isQuotedEdit`,
 * and each edit whose lines lie within a quoted edit's lines (a format that
 * reads the quote's text too); readings left with no edit are dropped. The
 * quoted edits of each reading in `quoted`.
 */
function withoutQuoted(readings: readonly Reading[], files: readonly string[], own: ReadonlySet<string>, quotes: Quotes = new Quotes()): { kept: Reading[]; quoted: QuotedEdits[] } {
  const kept: Reading[] = [];
  const quoted: QuotedEdits[] = [];
  for (const r of readings) {
    const out = r.parsed.edits.filter((e) => isQuotedEdit(e, files, own) || quotes.holds(e));
    quotes.add(out);
    if (out.length > 0) quoted.push({ reading: r, edits: out });
    if (out.length === r.parsed.edits.length && out.length > 0) continue;
    kept.push(out.length === 0 ? r : { ...r, parsed: { ...r.parsed, edits: r.parsed.edits.filter((e) => !out.includes(e)) } });
  }
  return { kept, quoted };
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
function ownReading(r: ReplyReading, found: readonly Reading[]): { reading: Reading; quotes: Quotes } | null {
  const none = new Set<string>();
  const quotes = new Quotes();
  for (const x of found) {
    const parsed = quotes.withoutHeld(x.parsed);
    const claimed = claimedBlocks(r, x, found);
    if (parsed.edits.some((e) => !claimed.has(e) && !isQuotedEdit(e, r.files, none))) return { reading: parsed === x.parsed ? x : { ...x, parsed }, quotes };
    quotes.add(x.parsed.edits.filter((e) => !claimed.has(e)));
  }
  return null;
}

/**
 * When every structure of a reply is quoted (`ownReading` found none of
 * its own), the whole files the reply writes, if it writes any outside the
 * quotes: the reply is read as whole files, with those quotes.
 */
function wholeBesideQuotes(r: ReplyReading, found: readonly Reading[]): { reading: Reading; quotes: Quotes } | null {
  const whole = wholeFormat(r.formats);
  if (!whole) return null;
  const quotes = new Quotes();
  for (const x of found) quotes.add(x.parsed.edits);
  // Only blocks apart from every quote: a quoted block is never a file's text.
  const read = r.parse(whole, true);
  const edits = renumbered(read.edits.filter((e) => !quotes.touches(e)));
  if (edits.length === 0) return null;
  return { reading: { format: whole, score: 0, reason: 'whole files in fences, beside edits quoted for files not given', parsed: { ...read, edits } }, quotes };
}

/**
 * The edits of a format that reads fenced blocks as files (`Format.fileBlocks`)
 * that another reading of `found` claims (see `misread`): blocks that are
 * another format's edit, not the format's own. None for other formats.
 */
function claimedBlocks(r: ReplyReading, reading: Reading, found: readonly Reading[]): Set<Edit> {
  if (!reading.format.fileBlocks) return new Set();
  const claimants = found.filter((x) => x !== reading && !x.format.fileBlocks);
  if (claimants.length === 0) return new Set();
  return new Set([...misread(r, reading.parsed, claimants).keys()].map((k) => reading.parsed.edits[k]));
}

/** `reading`'s parse without the blocks another reading of `found` claims (`claimedBlocks`): the edits that are its own. */
function unclaimed(r: ReplyReading, reading: Reading, found: readonly Reading[]): ParseResult {
  const claimed = claimedBlocks(r, reading, [reading, ...found]);
  return claimed.size === 0 ? reading.parsed : { ...reading.parsed, edits: reading.parsed.edits.filter((e) => !claimed.has(e)) };
}

/**
 * The edits of `others` that no edit of `first` (nor of an earlier one of
 * `others`) covers, by reply lines: the parts of the reply written in
 * another format. Each reading keeps only such edits (its reply-level
 * findings are about lines the first format explains, and go); readings
 * left with no edit are dropped.
 */
function otherParts(first: ParseResult, others: readonly Reading[]): Reading[] {
  const taken = new Ranges(first.edits.map((e) => ({ at: editLines(e), tag: 0 })));
  const out: Reading[] = [];
  for (const x of others) {
    const edits = x.parsed.edits.filter((e) => !taken.overlaps(editLines(e)));
    if (edits.length === 0) continue;
    taken.add(edits.map((e) => ({ at: editLines(e), tag: 0 })));
    out.push({ ...x, parsed: { edits, diagnostics: [] } });
  }
  return out;
}

/**
 * The edits of `first` (a format that reads fenced blocks as files: `whole`,
 * `between`) that are really another format's edit (one that format reads
 * without error), not quoted inside the file it writes: blocks the first
 * would write as text. Indexes into `first.edits`, each with the reading
 * that claims it.
 */
function misread(r: ReplyReading, first: ParseResult, others: readonly Reading[]): Map<number, Reading> {
  const claims = new Ranges(others.flatMap((x, tag) => x.parsed.edits.filter((e) => !e.error).map((e) => ({ at: editLines(e), tag }))));
  const out = new Map<number, Reading>();
  first.edits.forEach((f, k) => {
    const { block, firstContent } = fileBlock(r.lines, f);
    // An edit overlapping the block is not quoted in it when it starts at or
    // before its first content line, or runs past its end.
    const early = claims.furthest(Math.min(firstContent, block.end));
    const late = claims.furthest(block.end);
    const claim = early && early.end >= block.start ? early : late && late.end > block.end ? late : null;
    if (claim) out.set(k, others[claim.tag]);
  });
  return out;
}

/** For a detection's reason: the other formats' edits quoted for files not given, which were not read as edits. */
function quotedNoteOf(quoted: readonly QuotedEdits[]): string {
  if (quoted.length === 0) return '';
  const what = quoted.map(({ reading, edits }) => {
    const files = [...new Set(edits.map((e) => e.file))];
    return `${plural(edits.length, `${reading.format.name} edit`)} of ${files.join(', ')}`;
  });
  return `; quoted for files not given, not edits: ${what.join(' and ')}`;
}

/**
 * `parsed` with the edits another format claims (see `misread`) failing with
 * `mixed-formats`, when `format` reads fenced blocks as files. A block
 * claimed only by edits quoted in the reply (`quoted`: another format's
 * edit of a file not given) is dropped instead: it is the quote, neither
 * an edit nor a file's text.
 */
function withoutMisread(r: ReplyReading, format: Format, parsed: ParseResult, others: readonly Reading[], quoted: ReadonlySet<Edit>): ParseResult {
  // Two formats of whole-file blocks read the same blocks by design: the one asked for decides.
  const claimants = others.filter((x) => !x.format.fileBlocks);
  if (!format.fileBlocks || claimants.length === 0) return parsed;
  const claimed = misread(r, parsed, claimants);
  if (claimed.size === 0) return parsed;
  const onlyQuoted = (edit: Edit, x: Reading) => {
    const at = { start: edit.span.start.line, end: edit.span.end.line };
    const claims = x.parsed.edits.filter((e) => e.span.start.line <= at.end && e.span.end.line >= at.start);
    return claims.length > 0 && claims.every((e) => quoted.has(e));
  };
  const edits: Edit[] = [];
  parsed.edits.forEach((edit, k) => {
    const x = claimed.get(k);
    if (!x) return edits.push(edit);
    if (onlyQuoted(edit, x)) return;
    const error: Diagnostic = diagnostic(
      'mixed-formats',
      'error',
      `this block is ${x.format.title} (${x.reason}), not ${format.title}: it was not written to ${edit.file}; write the whole file in a fence, or read the reply with auto`,
      edit.span,
    );
    edits.push({ ...edit, error });
  });
  return { ...parsed, edits: renumbered(edits) };
}
