// The format registry (one line per format; nothing else names a format),
// and a request's way through the engine's stages, top to bottom
// (`applyRead`; src/README.md draws them).

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
import { runPartsRead, type ReadResult } from '../core/run.ts';
import { checkRequest } from '../core/request.ts';
import { lexReply } from '../core/reply.ts';
import type { ApplyRequest, ApplyResult, Detection, Format, LexedReply } from '../core/types.ts';
import { ReplyReading } from './read.ts';
import { chooseFormat, resolveAuto, resolveNamed, type Plan } from './resolve.ts';

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

/**
 * Stages "lex", "detect" and "read" of a reply: the reply split into lines
 * once, and every registered format's score and reading of it, each worked
 * out once, on first use (src/formats/read.ts). `files`: the names of the
 * files that exist.
 */
export function readReply(reply: string, files: readonly string[], lexed: LexedReply = lexReply(reply)): ReplyReading {
  return new ReplyReading(reply, lexed, formats, files);
}

/** Stage "resolve": the plan of a reading, under `auto` or in the format of that name (src/formats/resolve.ts). */
export function resolvePlan(reading: ReplyReading, format: string): Plan {
  return format === 'auto' ? resolveAuto(reading) : resolveNamed(reading, getFormat(format)!);
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

/**
 * `applyRequest`, with the edits the result was made from (`ReadResult`:
 * `edits[i]` is what `result.edits[i]` was read as), for what would
 * otherwise parse the reply again. Every stage in order (src/README.md):
 * check, lex, detect and read, resolve, then place, verdict, splice and
 * report (src/core/run.ts). `reading`: the reply already read against
 * exactly the request's files, in their order (the disk planner's last
 * round), to be used instead of reading it again.
 */
export function applyRead(value: ApplyRequest, reading?: ReplyReading): ReadResult {
  const request = checkRequest(value, FORMAT_NAMES);
  const given = Object.keys(request.files);
  const read = reading && reading.reply === request.response && sameNames(reading.files, given) ? reading : readReply(request.response, given);
  const plan = resolvePlan(read, request.format);
  const ran = runPartsRead(plan.parts, request, plan.main, read.lexed);
  return plan.detection ? { result: { ...ran.result, detection: plan.detection }, edits: ran.edits } : ran;
}

const sameNames = (a: readonly string[], b: readonly string[]) => a.length === b.length && a.every((name, i) => name === b[i]);
