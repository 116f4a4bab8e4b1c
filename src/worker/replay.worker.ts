// Replay off the main thread: the page feeds the reply in pieces at the pace
// it chooses, and the stream (src/formats/stream.ts) says what each piece made
// known; after an edit completes, the files with every completed edit applied.

import { expose } from 'comlink';
import { runFormat } from '../core/run.ts';
import type { Edit, Format } from '../core/types.ts';
import { detectFormat, getFormat } from '../formats/index.ts';
import { streamReply } from '../formats/stream.ts';
import type { Stream, StreamEvent } from '../core/stream.ts';
import type { ReplayEvent, ReplayStart, ReplayStep } from '../playground/replay/protocol.ts';

let stream: Stream | null = null;
let format: Format | null = null;
let files: Record<string, string> = {};
let reply = '';
let fed = 0;
let completed = 0;

/** The files with the first `completed` edits of the parsed prefix applied. */
function appliedFiles(): Record<string, string | null> {
  if (!stream || !format) return { ...files };
  const parsedTo = stream.current().parsed;
  const prefix = reply.slice(0, parsedTo);
  const edits: Edit[] = format.parse(prefix, { files: Object.keys(files) }).edits.slice(0, completed);
  const only: Format = { ...format, parse: () => ({ edits, diagnostics: [] }) };
  return runFormat(only, { format: format.name, files, response: prefix }).files;
}

function convert(events: StreamEvent[]): ReplayEvent[] {
  return events.map((e): ReplayEvent => {
    switch (e.type) {
      case 'edit-started':
        return { type: 'started', index: e.index, file: e.file };
      case 'lines-known':
        return { type: 'known', index: e.index, file: e.file, known: e.known, placed: e.placed };
      case 'edit-complete':
        return {
          type: 'complete',
          index: e.index,
          file: e.result.file,
          status: e.result.status,
          range: e.result.range,
          message: e.result.message,
        };
      case 'edit-dropped':
        return { type: 'dropped', index: e.index };
    }
  });
}

const api = {
  start(input: { format: string; files: Record<string, string>; reply: string }): ReplayStart {
    files = input.files;
    reply = input.reply;
    fed = 0;
    completed = 0;
    format = input.format === 'auto' ? detectFormat(reply).format : (getFormat(input.format) ?? null);
    if (!format) throw new Error(`unknown format "${input.format}"`);
    stream = streamReply(format, files);
    return { format: format.name, total: reply.length };
  },
  /** Feed the reply up to offset `to` (the end: the stream ends too). */
  feed(to: number): ReplayStep {
    if (!stream) throw new Error('the replay has not started');
    const end = Math.min(Math.max(to, fed), reply.length);
    const events = end > fed ? convert(stream.push(reply.slice(fed, end))) : [];
    fed = end;
    const before = completed;
    completed += events.filter((e) => e.type === 'complete').length;
    let done = false;
    if (fed === reply.length) {
      const result = stream.end();
      done = true;
      // Edits that complete only at the end of the reply.
      for (const r of result.edits.slice(completed)) {
        events.push({ type: 'complete', index: r.index, file: r.file, status: r.status, range: r.range, message: r.message });
      }
      completed = result.edits.length;
      return { received: fed, events, done, files: result.files };
    }
    return { received: fed, events, done, files: completed > before ? appliedFiles() : null };
  },
  /** Where the next line break after `from` ends (the end of the reply if none). */
  nextLine(from: number): number {
    const nl = reply.indexOf('\n', from);
    return nl < 0 ? reply.length : nl + 1;
  },
};

export type ReplayApi = typeof api;

expose(api);
