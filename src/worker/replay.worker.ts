// Replay off the main thread: the page feeds the reply in pieces at the pace
// it chooses, and the stream (src/formats/stream.ts) says what each piece made
// known. Each edit that completes is applied once to the files kept here
// (src/replay/applied.ts), from the files the stream's run of that edit gave
// (the reply is not parsed again), and the page gets the change it made,
// never the whole files again.

import { expose } from 'comlink';
import { detectFormat, getFormat, runFormat, streamReply } from '../index.ts';
import { applyRead } from '../formats/index.ts';
import type { Edit, EditResult, Format, Stream, StreamEvent } from '../index.ts';
import { AppliedFiles } from '../replay/applied.ts';
import type { AppliedChange, ReplayEvent, ReplayStart, ReplayStep } from '../replay/protocol.ts';

let stream: Stream | null = null;
let format: Format | null = null;
let files: Record<string, string> = {};
let applied: AppliedFiles | null = null;
let reply = '';
let fed = 0;
/** The edits the engine read from the whole reply, one per result edit (set when the stream ends). */
let finalEdits: Edit[] = [];

const complete = (r: EditResult): ReplayEvent => ({ type: 'complete', index: r.index, file: r.file, status: r.status, range: r.range, message: r.message });

function convert(e: StreamEvent): ReplayEvent {
  switch (e.type) {
    case 'edit-started':
      return { type: 'started', index: e.index, file: e.file };
    case 'lines-known':
      return { type: 'known', index: e.index, file: e.file, known: e.known, placed: e.placed };
    case 'edit-complete':
      return complete(e.result);
    case 'edit-dropped':
      return { type: 'dropped', index: e.index };
  }
}

/** A completed edit: its result alone against the original files, and the files that gives. */
interface Done {
  result: EditResult;
  files: Record<string, string | null>;
}

/**
 * Apply completed edits, each once: the engine's result for that edit alone
 * gives the splice, and `applied` shifts it by the edits before it.
 */
function applyEach(done: Done[]): AppliedChange[] {
  if (!applied) return [];
  const changes: AppliedChange[] = [];
  for (const { result, files: after } of done) if (result.status === 'applied') changes.push(...applied.apply(result, after));
  return changes;
}

/** The edits that complete only at the end of the reply, each run alone as the stream runs an edit (`edits[i]` read the result `results[i]`). */
function alone(results: EditResult[], edits: (Edit | undefined)[], text: string): Done[] {
  if (!format) return [];
  const f = format;
  const done: Done[] = [];
  results.forEach((r, i) => {
    const edit = edits[i];
    if (r.status !== 'applied' || !edit) return;
    const single: Format = { ...f, parse: () => ({ edits: [edit], diagnostics: [] }) };
    const after = runFormat(single, { format: f.name, files, response: text });
    if (after.edits[0]) done.push({ result: after.edits[0], files: after.files });
  });
  return done;
}

const api = {
  start(input: { format: string; files: Record<string, string>; reply: string }): ReplayStart {
    files = input.files;
    reply = input.reply;
    fed = 0;
    format = input.format === 'auto' ? detectFormat(reply).format : (getFormat(input.format) ?? null);
    if (!format) throw new Error(`unknown format "${input.format}"`);
    // Read with `auto`, the reply ends as the page reads it (edits of other formats too); the edits the
    // engine read at the end are kept for those that complete only then.
    const asked = input.format === 'auto' ? 'auto' : format.name;
    finalEdits = [];
    const finish = (text: string) => {
      const read = applyRead({ format: asked, files, response: text });
      finalEdits = read.edits;
      return read.result;
    };
    stream = streamReply(format, files, { finish });
    applied = new AppliedFiles(files);
    return { format: format.name, total: reply.length };
  },
  /** Feed the reply up to offset `to` (the end: the stream ends too). */
  feed(to: number): ReplayStep {
    if (!stream || !applied) throw new Error('the replay has not started');
    const end = Math.min(Math.max(to, fed), reply.length);
    const streamed = end > fed ? stream.push(reply.slice(fed, end)) : [];
    fed = end;
    const events = streamed.map(convert);
    const done = stream.current().edits.filter((e) => e.complete);
    const changes = applyEach(streamed.flatMap((e) => (e.type === 'edit-complete' ? [{ result: e.result, files: e.files }] : [])));
    if (fed < reply.length) return { received: fed, events, done: false, changes };

    // The end of the reply: the edits that complete only now, then the engine's answer for the whole reply.
    const result = stream.end();
    const late = result.edits.slice(done.length);
    events.push(...late.map(complete));
    const mixed = (result.detection?.formats?.length ?? 0) > 1;
    if (!mixed && result.format === format?.name) changes.push(...applyEach(alone(late, finalEdits.slice(done.length), reply)));
    for (const k of stream.current().revised) {
      const r = result.edits[k];
      if (r) events.push({ type: 'revised', index: k, file: r.file, status: r.status, range: r.range, message: r.message });
    }
    changes.push(...applied.settle(result.files));
    return { received: fed, events, done: true, changes };
  },
  /** Where the next line break after `from` ends (the end of the reply if none). */
  nextLine(from: number): number {
    const nl = reply.indexOf('\n', from);
    return nl < 0 ? reply.length : nl + 1;
  },
};

export type ReplayApi = typeof api;

expose(api);
