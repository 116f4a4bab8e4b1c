// The engine's stages after a reply is read (src/README.md draws them all):
//
//     gather   parts -> placements (reply order, paths resolved)   place.ts
//     place    placements x files -> placed or failed, on its own    place.ts
//     verdict  placed -> applied / inert / duplicate / failed        verdict.ts
//     splice   verdicts x files -> new texts                         splice.ts
//     report   everything -> ApplyResult                             report.ts
//
// Each stage is a function of the ones before it and hands on plain data;
// the sentences they write are in messages.ts.

import { requestBudget } from './budget.ts';
import { withCutOpener } from './cut.ts';
import { originals } from './originals.ts';
import { lexReply } from './reply.ts';
import { gather, place } from './place.ts';
import { report } from './report.ts';
import { splice } from './splice.ts';
import type { ApplyRequest, ApplyResult, Edit, Format, LexedReply, Part, RequestBudget } from './types.ts';
import { verdicts } from './verdict.ts';

export type { Part } from './types.ts';
export { changeKey } from './verdict.ts';

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

/**
 * Run one format over a request. `request.format` is not consulted. The
 * request's edits share one budget for their closest-place searches (see
 * src/core/budget.ts).
 */
export function runFormat(format: Format, request: ApplyRequest, detected = false): ApplyResult {
  return runFormatRead(format, request, detected).result;
}

/** `runFormat`, with the edits it read. `lexed`: the reply's lines, when split already. */
export function runFormatRead(format: Format, request: ApplyRequest, detected = false, lexed?: LexedReply): ReadResult {
  // The reply split once: the parse, the cut check and the report read the same lines.
  const reply = lexed !== undefined && lexed.text === request.response ? lexed : lexReply(request.response);
  const parsed = format.parse(request.response, { files: Object.keys(request.files), ...(detected ? { detected } : {}), lexed: reply });
  // A reply cut inside a line that opens an edit: `truncated`, as under the registry (src/core/cut.ts).
  const parts = withCutOpener(reply.lines, [{ format, parsed }]);
  return runPartsRead(parts, request, format, reply);
}

/**
 * Place and apply the edits several formats read from one reply (a reply
 * that mixes formats, read with `auto`): every edit is placed by its own
 * format, and all are applied together, in reply order, as if one format
 * had read them. `main` names the result's format. With more than one part,
 * each edit's result says which format read it.
 */
export function runParts(parts: readonly Part[], request: ApplyRequest, main: Format): ApplyResult {
  return runPartsRead(parts, request, main).result;
}

/** `runParts`, with the edits it read. `lexed`: the reply's lines, when split already. */
export function runPartsRead(parts: readonly Part[], request: ApplyRequest, main: Format, lexed?: LexedReply, budget: RequestBudget = requestBudget()): ReadResult {
  const files = originals(request.files);
  const { read, placements } = gather(parts, files);
  const placed = place(placements, files, request.options ?? {}, budget);
  const spliced = splice(verdicts(placed, files), files);
  const result = report(spliced.verdicts, spliced.files, files, { parts, main, reply: request.response, lexed });
  return { result, edits: read };
}
