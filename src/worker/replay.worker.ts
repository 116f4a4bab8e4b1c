// Replay off the main thread: the page feeds the reply in pieces at the pace
// it chooses, and the stream (src/formats/stream.ts) says what each piece made
// known. Each edit that completes is applied once to the files kept here
// (src/replay/applied.ts), and the page gets the change it made,
// never the whole files again.

import { expose } from 'comlink';
import { applyRequest, detectFormat, getFormat, runFormat, streamReply } from '../index.ts';
import type { Edit, EditResult, Format, Stream, StreamEvent } from '../index.ts';
import { AppliedFiles } from '../replay/applied.ts';
import type { AppliedChange, ReplayEvent, ReplayStart, ReplayStep } from '../replay/protocol.ts';

let stream: Stream | null = null;
let format: Format | null = null;
let files: Record<string, string> = {};
let applied: AppliedFiles | null = null;
let reply = '';
let fed = 0;

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

/**
 * Apply completed edits, each once: the engine's result for that edit alone
 * (as the stream reported it) gives the splice, and `applied` shifts it by
 * the edits before it. `text` is the reply the edits were read from.
 */
function applyEach(results: EditResult[], text: string): AppliedChange[] {
  if (!format || !applied || results.length === 0) return [];
  const f = format;
  const edits = f.parse(text, { files: Object.keys(files) }).edits;
  const changes: AppliedChange[] = [];
  for (const r of results) {
    const edit: Edit | undefined = edits[r.index];
    if (r.status !== 'applied' || !edit) continue;
    const alone: Format = { ...f, parse: () => ({ edits: [edit], diagnostics: [] }) };
    const after = runFormat(alone, { format: f.name, files, response: text });
    if (after.edits[0]?.status !== 'applied') continue;
    changes.push(...applied.apply(after.edits[0], after.files));
  }
  return changes;
}

const api = {
  start(input: { format: string; files: Record<string, string>; reply: string }): ReplayStart {
    files = input.files;
    reply = input.reply;
    fed = 0;
    format = input.format === 'auto' ? detectFormat(reply).format : (getFormat(input.format) ?? null);
    if (!format) throw new Error(`unknown format "${input.format}"`);
    // Read with `auto`, the reply ends as the page reads it (edits of other formats too).
    const whole = input.format === 'auto' ? { finish: (text: string) => applyRequest({ format: 'auto', files, response: text }) } : {};
    stream = streamReply(format, files, whole);
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
    const changes = applyEach(
      streamed.flatMap((e) => (e.type === 'edit-complete' ? [e.result] : [])),
      reply.slice(0, stream.current().parsed),
    );
    if (fed < reply.length) return { received: fed, events, done: false, changes };

    // The end of the reply: the edits that complete only now, then the engine's answer for the whole reply.
    const result = stream.end();
    const late = result.edits.slice(done.length);
    events.push(...late.map(complete));
    const mixed = (result.detection?.formats?.length ?? 0) > 1;
    if (!mixed) changes.push(...applyEach(late, reply));
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
