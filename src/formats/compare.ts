// One change, written in every format: each registered format's writer
// writes it, the engine applies the reply back to the files it was written
// against, and the result is compared with the intended texts byte for byte.
// Also the source views a model is shown in each format, for the cost of
// reading. Sizes here are in characters; token counts live in src/tokens
// (loaded only when asked for).

import type { FileChange, Format } from '../core/types.ts';
import { runFormat } from '../core/run.ts';
import { applyRequest, formats } from './index.ts';

/** Did the reply give back the intended files when applied? */
export type RoundTrip = 'ok' | 'failed' | 'unsupported';

/** The source files as a model is shown them before it replies. */
export interface SourceView {
  /** `plain` (the files as they are), or the name of the format whose view this is. */
  kind: string;
  /** What the view is, for a label: `plain text`, or the format's title. */
  label: string;
  text: string;
  chars: number;
}

/** The change as one format writes it. */
export interface FormatWriting {
  format: string;
  title: string;
  /** The reply the format's writer wrote; '' when the writer refused the change. */
  reply: string;
  /** `reply.length` (UTF-16 code units). */
  chars: number;
  roundTrip: RoundTrip;
  /** Why the round trip is not ok: the writer's refusal, or the first file that came back different. */
  problem?: string;
  /** The files the reply gave when applied (null = deleted); absent when the writer refused. */
  files?: Record<string, string | null>;
  /**
   * The source a model would be shown to write this reply: the format's own
   * view when it has one, plain text otherwise.
   */
  view: SourceView;
}

/** A change's files as the request holds them: every file that exists before. */
export function requestFiles(changes: readonly FileChange[]): Record<string, string> {
  const files: Record<string, string> = {};
  for (const c of changes) if (c.before !== null) files[c.file] = c.before;
  return files;
}

const PLAIN = (text: string) => text;

/**
 * Every file under a path line, shown through `render`: the same wrapping for
 * every view, so that views differ only in how they show the lines.
 */
function renderFiles(files: Record<string, string>, render: (text: string) => string): string {
  return Object.entries(files)
    .map(([path, text]) => {
      const body = render(text);
      return `${path}\n${body === '' || body.endsWith('\n') ? body : body + '\n'}`;
    })
    .join('\n');
}

function sourceView(files: Record<string, string>, format: Format | null): SourceView {
  const text = renderFiles(files, format?.view ?? PLAIN);
  return format?.view
    ? { kind: format.name, label: format.title, text, chars: text.length }
    : { kind: 'plain', label: 'plain text', text, chars: text.length };
}

/**
 * The distinct ways the files can be shown to a model: plain text, then the
 * view of each registered format that has one, in registry order.
 */
export function sourceViews(files: Record<string, string>): SourceView[] {
  return [sourceView(files, null), ...formats.filter((f) => f.view).map((f) => sourceView(files, f))];
}

const show = (text: string | null | undefined) =>
  text === null ? 'deleted' : text === undefined ? 'absent' : JSON.stringify(text.length > 60 ? text.slice(0, 57) + '...' : text);

/** Where two texts first differ, as `line N: "x" instead of "y"`. */
function firstDifference(got: string, want: string): string {
  let i = 0;
  while (i < got.length && i < want.length && got[i] === want[i]) i++;
  const line = got.slice(0, i).split('\n').length;
  const from = got.lastIndexOf('\n', i - 1) + 1;
  const rest = (s: string) => {
    const end = s.indexOf('\n', from);
    return s.slice(from, end === -1 ? s.length : end + 1);
  };
  return `line ${line} is ${show(rest(got))} instead of ${show(rest(want))}`;
}

const BOM = '\uFEFF';
const lineBreaks = (text: string) => text.replace(/\r*\n/g, '\n');

/**
 * When two texts differ only in what line-based edits cannot say (which line
 * break each line ends with, whether the file ends with one, the byte order
 * mark), what the format could not say; null otherwise. A format's new
 * lines take the file's dominant line break and the file keeps its final
 * newline state and BOM, so such a change is beyond most formats.
 */
function layoutOnly(got: string, want: string): string | null {
  const what: string[] = [];
  const g = got.startsWith(BOM) ? got.slice(1) : got;
  const w = want.startsWith(BOM) ? want.slice(1) : want;
  if (g.length !== got.length && w.length === want.length) what.push('removing a byte order mark');
  if (g.length === got.length && w.length !== want.length) what.push('adding a byte order mark');
  const gEnd = /\r*\n$/.exec(g)?.[0] ?? '';
  const wEnd = /\r*\n$/.exec(w)?.[0] ?? '';
  const gBody = g.slice(0, g.length - gEnd.length);
  const wBody = w.slice(0, w.length - wEnd.length);
  if (lineBreaks(gBody) !== lineBreaks(wBody)) return null;
  if (gBody !== wBody || (gEnd !== '' && wEnd !== '' && gEnd !== wEnd)) what.push('which line break (LF, CR LF) each line ends with');
  if ((gEnd === '') !== (wEnd === '')) what.push(`${wEnd === '' ? 'removing' : 'adding'} the final line break`);
  return what.length ? `does not carry ${what.join(' or ')}` : null;
}

/**
 * Compare a result with the intended files. Returns null when they agree;
 * otherwise whether the difference is one the format cannot express (a file
 * to delete that came back emptied or unchanged: the formats without a
 * delete write it so) and a message.
 */
function judge(
  changes: readonly FileChange[],
  result: Record<string, string | null>,
  format: string,
): { roundTrip: 'failed' | 'unsupported'; problem: string } | null {
  const problems: { unsupported: boolean; message: string }[] = [];
  const intended = new Map<string, string | null>(changes.map((c) => [c.file, c.after]));
  for (const path of Object.keys(result)) if (!intended.has(path)) intended.set(path, null);
  for (const [path, want] of intended) {
    const got = Object.hasOwn(result, path) ? result[path] : null;
    if (got === want) continue;
    const before = changes.find((c) => c.file === path)?.before ?? null;
    if (want === null && before !== null && (got === '' || got === before)) {
      problems.push({
        unsupported: true,
        message: `the ${format} reply does not carry deleting a file (${path} came back ${got === '' ? 'emptied' : 'unchanged'} instead of deleted)`,
      });
    } else if (want !== null && got !== null && layoutOnly(got, want)) {
      problems.push({ unsupported: true, message: `the ${format} reply ${layoutOnly(got, want)} (${path}: ${firstDifference(got, want)})` });
    } else if (want === null) {
      problems.push({ unsupported: false, message: `${path} came back ${show(got)} instead of deleted` });
    } else if (got === null) {
      problems.push({ unsupported: false, message: `${path} came back deleted` });
    } else {
      problems.push({ unsupported: false, message: `${path}: ${firstDifference(got, want)}` });
    }
  }
  if (problems.length === 0) return null;
  const failed = problems.filter((p) => !p.unsupported);
  return failed.length
    ? { roundTrip: 'failed', problem: failed.map((p) => p.message).join('; ') }
    : { roundTrip: 'unsupported', problem: problems.map((p) => p.message).join('; ') };
}

/**
 * Write the change with one format and apply the reply back with the same
 * format (what `applyRequest` does for a named format).
 */
export function writeWith(format: Format, changes: readonly FileChange[]): FormatWriting {
  const files = requestFiles(changes);
  const base = { format: format.name, title: format.title, view: sourceView(files, format.view ? format : null) };
  let reply: string;
  try {
    reply = format.write([...changes]);
  } catch (error) {
    // A writer refuses a change it cannot carry by throwing an `UnwritableChange`; anything else it throws is a bug.
    const message = error instanceof Error ? error.message : String(error);
    const refused = error instanceof Error && error.name === 'UnwritableChange';
    return { ...base, reply: '', chars: 0, roundTrip: refused ? 'unsupported' : 'failed', problem: refused ? message : `the writer threw: ${message}` };
  }
  let result: Record<string, string | null>;
  try {
    const applied = runFormat(format, { format: format.name, files, response: reply });
    result = applied.files;
    const failedEdit = applied.edits.find((e) => e.status === 'failed');
    if (failedEdit) {
      return {
        ...base,
        reply,
        chars: reply.length,
        roundTrip: 'failed',
        problem: `edit ${failedEdit.index + 1} (${failedEdit.file}) failed: ${failedEdit.message}`,
        files: result,
      };
    }
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    return { ...base, reply, chars: reply.length, roundTrip: 'failed', problem: `applying the reply threw: ${message}` };
  }
  const verdict = judge(changes, result, format.name);
  return { ...base, reply, chars: reply.length, roundTrip: verdict?.roundTrip ?? 'ok', ...(verdict ? { problem: verdict.problem } : {}), files: result };
}

/**
 * The change written in every registered format, in registry order, each
 * checked by applying it back. A change where nothing changes gives replies
 * that change nothing.
 */
export function compareFormats(changes: FileChange[]): FormatWriting[] {
  const real = changes.filter((c) => c.before !== c.after);
  return formats.map((format) => writeWith(format, real));
}

/**
 * The change a reply makes: apply it to `files` and keep the files that
 * differ afterwards (before = the request's text or null, after = the
 * result's text or null). `format` may be `auto`. Edits that fail are
 * simply not part of the change.
 */
export function changesFromReply(format: string, files: Record<string, string>, reply: string): FileChange[] {
  const result = applyRequest({ format, files, response: reply }).files;
  const paths = [...Object.keys(files), ...Object.keys(result).filter((p) => !Object.hasOwn(files, p))];
  const out: FileChange[] = [];
  for (const file of paths) {
    const before = Object.hasOwn(files, file) ? files[file] : null;
    const after = Object.hasOwn(result, file) ? result[file] : before;
    if (before !== after) out.push({ file, before, after });
  }
  return out;
}
