// Streaming a reply in a registered format, or in any `Format`: the stream of
// src/core/stream.ts with the format's own rules (`Format.stream`, kept in
// the format's folder; each format's spec page says the same in its
// "Streaming" section, and test/property/stream.test.ts holds both to the
// parsers on every spec example). A registered format's reply ends as the
// registry reads it.

import { createStream, type Stream, type StreamOptions } from '../core/stream.ts';
import type { Format } from '../core/types.ts';
import { applyRequest, getFormat } from './index.ts';

/**
 * A stream over a reply in `format` (a registered name, or any `Format`),
 * with its rules (`options.rules`, else `format.stream`). A registered
 * format's result at the end is `applyRequest`'s (another format's edits
 * reported); any other format's is `runFormat`'s. Throws on an unknown name.
 */
export function streamReply(format: Format | string, files: Record<string, string>, options: StreamOptions = {}): Stream {
  const f = typeof format === 'string' ? getFormat(format) : format;
  if (!f) throw new Error(`unknown format "${String(format)}"`);
  const { rules, finish, ...engine } = options;
  const whole = getFormat(f.name) === f ? (reply: string) => applyRequest({ format: f.name, files, response: reply, options: engine }) : undefined;
  return createStream(f, files, { ...(rules ? { rules } : {}), ...engine, ...(finish ?? whole ? { finish: finish ?? whole } : {}) });
}
