// The format registry: one line per format. Nothing else names a format.

import { lnDiff } from './ln-diff/index.ts';
import { searchReplace } from './search-replace/index.ts';
import { whole } from './whole/index.ts';
import { udiff } from './udiff/index.ts';
import { roo } from './roo/index.ts';
import { udiffx } from './udiffx/index.ts';
import { hashline } from './hashline/index.ts';
import { between } from './between/index.ts';
import { applyPatch } from './apply-patch/index.ts';
import { strReplace } from './str-replace/index.ts';
import { diagnostic } from '../core/diagnostics.ts';
import { runFormatRead, runPartsRead, type Part, type ReadResult } from '../core/run.ts';
import { checkRequest } from '../core/request.ts';
import { lexReply } from '../core/reply.ts';
import type { ApplyRequest, ApplyResult, Detection, Diagnostic, Edit, Format, LexedReply, ParseContext, ParseResult } from '../core/types.ts';
import { claimedBlocks, filesOf, misread, otherParts, ownReading, Quotes, read, readings, unreadStructure, withoutQuoted, wholeFormat, type Reading, type Scored } from './auto.ts';

/**
 * The registered formats, in detection order (ties go to the earlier one).
 * Each format's `view`, when it has one, is the text a model is shown for a
 * source file.
 */
export const formats: readonly Format[] = [
  lnDiff,
  searchReplace,
  whole,
  udiff,
  roo,
  udiffx,
  hashline,
  between,
  applyPatch,
  strReplace,
];

/** `'auto'` and the name of every registered format: what `request.format` may be. */
export const FORMAT_NAMES: readonly string[] = ['auto', ...formats.map((f) => f.name)];

/** The registered format of that name, or undefined (`'auto'` is not a format). */
export function getFormat(name: string): Format | undefined {
  return formats.find((f) => f.name === name);
}

/** Whether the format of that name cites old lines with the numbered view's prefixes (`Format.numberedLines`; a retry message shows them so). */
export function numberedLines(name: string): boolean {
  return getFormat(name)?.numberedLines === true;
}

/** Pick the format a reply is written in: the highest score wins, ties go to registry order. */
export function detectFormat(reply: string, among: readonly Format[] = formats, lexed?: LexedReply): { format: Format; detection: Detection } {
  return chooseFormat(among.map((format) => ({ format, ...format.detect(reply, lexed) })), among);
}

/** `detectFormat` on the scores of `among`, in its order, already taken. */
function chooseFormat(scored: readonly Scored[], among: readonly Format[]): { format: Format; detection: Detection } {
  let best: Scored | null = null;
  for (const s of scored) if (!best || s.score > best.score) best = s;
  const chosen = best ?? { format: among[0] ?? formats[0], score: 0, reason: '' };
  const reason =
    chosen.score > 0 ? chosen.reason : `no format recognised the reply; defaulting to ${chosen.format.name}`;
  return { format: chosen.format, detection: { format: chosen.format.name, reason } };
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;
const replyLines = (edits: readonly Edit[]) => {
  const first = edits[0].span.start.line;
  const last = edits[edits.length - 1].span.end.line;
  return first === last ? `line ${first}` : `lines ${first}-${last}`;
};

/**
 * When every structure of a reply is quoted (`ownReading` found none of
 * its own), the whole files the reply writes, if it writes any outside the
 * quotes: the reply is read as whole files, with those quotes.
 */
function wholeReading(reply: string, context: ParseContext, found: readonly Reading[]): { reading: Reading; quotes: Quotes } | null {
  const whole = wholeFormat(formats);
  if (!whole) return null;
  const quotes = new Quotes();
  for (const r of found) quotes.add(r.parsed.edits);
  // Only blocks apart from every quote: a quoted block is never a file's text.
  const read = whole.parse(reply, { ...context, detected: true });
  const edits = read.edits.filter((e) => !quotes.touches(e)).map((e, k) => (e.index === k ? e : { ...e, index: k }));
  if (edits.length === 0) return null;
  const parsed = { ...read, edits };
  return { reading: { format: whole, score: 0, reason: 'whole files in fences, beside edits quoted for files not given', parsed }, quotes };
}

/** `reading`'s parse without the blocks another reading of `found` claims (`claimedBlocks`): the edits that are its own. */
function unclaimed(reply: string, reading: Reading, found: readonly Reading[], lexed?: LexedReply): ParseResult {
  const claimed = claimedBlocks(reply, reading, [reading, ...found], lexed);
  return claimed.size === 0 ? reading.parsed : { ...reading.parsed, edits: reading.parsed.edits.filter((e) => !claimed.has(e)) };
}

/** For a detection's reason: the other formats' edits quoted for files not given, which were not read as edits. */
function quotedNoteOf(quoted: readonly { reading: Reading; edits: Edit[] }[]): string {
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
function withoutMisread(format: Format, reply: string, parsed: ParseResult, others: readonly Reading[], quoted: ReadonlySet<Edit> = new Set(), lexed?: LexedReply): ParseResult {
  // Two formats of whole-file blocks read the same blocks by design: the one asked for decides.
  const claimants = others.filter((r) => !r.format.fileBlocks);
  if (!format.fileBlocks || claimants.length === 0) return parsed;
  const claimed = misread(reply, parsed, claimants, lexed);
  if (claimed.size === 0) return parsed;
  const onlyQuoted = (edit: Edit, r: Reading) => {
    const at = { start: edit.span.start.line, end: edit.span.end.line };
    const claims = r.parsed.edits.filter((e) => e.span.start.line <= at.end && e.span.end.line >= at.start);
    return claims.length > 0 && claims.every((e) => quoted.has(e));
  };
  const edits: Edit[] = [];
  parsed.edits.forEach((edit, k) => {
    const r = claimed.get(k);
    if (!r) return edits.push(edit);
    if (onlyQuoted(edit, r)) return;
    const error: Diagnostic = diagnostic(
      'mixed-formats',
      'error',
      `this block is ${r.format.title} (${r.reason}), not ${format.title}: it was not written to ${edit.file}; write the whole file in a fence, or read the reply with auto`,
      edit.span,
    );
    edits.push({ ...edit, error });
  });
  return { ...parsed, edits: edits.map((e, k) => (e.index === k ? e : { ...e, index: k })) };
}

/**
 * Parse, match and apply a request: the engine behind `ln-diff apply --json`.
 * The request is checked first as `validateRequest` checks it: a value that
 * is not a request (a field of the wrong type, an unknown field, an unknown
 * format) throws `RequestError`, and `format` and `files` may be left out
 * (`'auto'`, no files).
 */
export function applyRequest(value: ApplyRequest): ApplyResult {
  return applyRead(value).result;
}

/** A read result with its detection. */
const detected = (read: ReadResult, detection: Detection): ReadResult => ({ result: { ...read.result, detection }, edits: read.edits });

/**
 * `applyRequest`, with the edits the result was made from (`ReadResult`:
 * `edits[i]` is what `result.edits[i]` was read as), for what would
 * otherwise parse the reply again.
 */
export function applyRead(value: ApplyRequest): ReadResult {
  const request = checkRequest(value, FORMAT_NAMES);
  const reply = request.response;
  // The reply is split into lines once: detection, every format's reading and the marker search share it.
  const lexed = lexReply(reply);
  const context = { files: Object.keys(request.files), lexed };
  if (request.format === 'auto') {
    const { found, quoted, detected: scores } = read(reply, formats, context);
    const whole = wholeFormat(formats);
    if (found.length === 0 && quoted.length > 0 && whole) {
      const inside = quoted.map((r) => `${r.reason}`).join('; ');
      const detection = { format: whole.name, reason: `whole files in fences: ${inside}, inside a file the reply writes whole (quoted, not an edit)` };
      return detected(runFormatRead(whole, request, true, lexed), detection);
    }
    const unread = found.length === 0 ? unreadStructure(reply, formats, context) : null;
    if (unread) {
      // No edit of any format, but one format's markers: the reply meant an edit that could not be read.
      const { format, error } = unread;
      const detection = { format: format.name, reason: `no edit could be read, but line ${error.reply!.start.line} shows ${format.title} structure` };
      return detected(runPartsRead([{ format, parsed: { edits: [], diagnostics: [error] } }], request, format, lexed), detection);
    }
    if (found.length === 0) {
      // No structure: the weakest evidence (a fence with a path) decides, and no guess replaces a file.
      const { format, detection } = chooseFormat(scores, formats);
      return detected(runFormatRead(format, request, true, lexed), detection);
    }
    // The reply's own format, and the other formats' diffs quoted for files not given (not edits).
    const own = ownReading(reply, found, context.files, lexed) ?? wholeReading(reply, context, found);
    const first = own?.reading ?? found[0];
    const second = found.filter((r) => r.format !== first.format);
    const ownFiles = filesOf(unclaimed(reply, first, second, lexed), context.files);
    const { kept: rest, quoted: quotedEdits } = withoutQuoted(second, context.files, ownFiles, own?.quotes);
    const main = withoutMisread(first.format, reply, first.parsed, second, new Set(quotedEdits.flatMap((q) => q.edits)), lexed);
    const others = otherParts(main, rest);
    const quotedNote = quotedNoteOf(quotedEdits);
    const parts: Part[] = [{ format: first.format, parsed: main }, ...others.map((r) => ({ format: r.format, parsed: r.parsed }))];
    const detection: Detection =
      others.length === 0
        ? { format: first.format.name, reason: `${first.reason}${quotedNote}` }
        : {
            format: first.format.name,
            reason: `${first.reason}; the reply also holds ${others
              .map((r) => `${plural(r.parsed.edits.length, `${r.format.name} edit`)} (${r.reason})`)
              .join(' and ')}, applied in ${others.length === 1 ? 'its' : 'their'} own format${quotedNote}`,
            formats: [first, ...others].map((r) => r.format.name),
          };
    return detected(runPartsRead(parts, request, first.format, lexed), detection);
  }
  const format = getFormat(request.format)!;
  const parsed = format.parse(reply, context);
  const found = readings(reply, formats.filter((f) => f !== format), context);
  if (found.length === 0) return runPartsRead([{ format, parsed }], request, format, lexed);
  // Another format's diff quoted for a file not given (a log, an example) is not an edit, so no mixing.
  // The named format's own reading stays as it is, edit for edit.
  const ownFiles = filesOf(unclaimed(reply, { format, score: 1, reason: '', parsed }, found, lexed), context.files);
  const { kept } = withoutQuoted(found, context.files, ownFiles);
  const main = withoutMisread(format, reply, parsed, found, new Set(), lexed);
  const foreign = otherParts(main, kept).map((r) =>
    diagnostic(
      'mixed-formats',
      'error',
      `the reply also holds ${plural(r.parsed.edits.length, `${r.format.name} edit`)} at reply ${replyLines(r.parsed.edits)} (${r.reason}); they were not applied, since the request asks for ${format.title}: write every edit in one format, or read the reply with auto`,
      r.parsed.edits[0].span,
    ),
  );
  return runPartsRead([{ format, parsed: { edits: main.edits, diagnostics: [...main.diagnostics, ...foreign] } }], request, format, lexed);
}
