// A reply cut off inside the line that opens an edit: its last line, with no
// line break after it, is the beginning of one of a format's opening lines
// (`Format.openers`), or such a line and part of the path after it. Nothing
// of that edit could be read, and it is not a chat answer: the reply is
// `truncated` there (spec/formats.md, "A reply cut inside an opening line").

import { at, diagnostic, quote } from './diagnostics.ts';
import { trimmedSpan, type ReplyLine } from './reply.ts';
import type { Diagnostic, Format, Part } from './types.ts';

/** Holds a letter or digit, and a character that is neither: never a bare word, nor a rule of `-`, `*` or `<`. */
const MIXED = (text: string) => /[\p{L}\p{N}]/u.test(text) && /[^\p{L}\p{N}]/u.test(text);

/**
 * The opening line of `openers` that `text` (a reply's last line) was cut
 * inside, or null: with the blanks around it removed, `text` is a proper
 * beginning of one, or, for one that a path follows (it ends with a blank
 * or `/`), starts with it; either way it holds a letter or digit and a
 * character that is neither.
 */
export function cutOpener(text: string, openers: readonly string[]): string | null {
  const t = text.trim();
  if (t === '' || !MIXED(t)) return null;
  for (const o of openers) {
    if (t.length < o.length && o.startsWith(t)) return o;
    if (/[ /]$/.test(o) && t.startsWith(o.trimEnd())) return o;
  }
  return null;
}

/**
 * The `truncated` error of a reply whose last line (`lines`' last, with no
 * line break) was cut inside one of `format`'s opening lines, or null.
 */
export function cutOpenerError(lines: readonly ReplyLine[], format: Format): Diagnostic | null {
  const last = lines[lines.length - 1];
  if (!last || last.terminated || !format.openers?.length) return null;
  const opener = cutOpener(last.text, format.openers);
  if (opener === null) return null;
  const span = trimmedSpan(last);
  return diagnostic(
    'truncated',
    'error',
    `reply ${at(span.start)}: the reply ends inside the line ${quote(last.text.trim())}, which begins ${format.title}'s \`${opener.trimEnd()}\` line: it was cut off before the edit it opens could be read, so that edit was not applied; send the rest of the reply, from this edit on`,
    span,
  );
}

/**
 * `parts` (what the formats read from a reply whose lines are `lines`; the
 * first is `main`'s) with the `truncated` error of a last line cut inside
 * one of `main`'s opening lines added to the first part, unless something
 * read from the reply covers that line already (an edit, or a finding there).
 */
export function withCutOpener(lines: readonly ReplyLine[], parts: readonly Part[]): Part[] {
  const last = lines[lines.length - 1];
  const [main, ...rest] = parts;
  if (!main || !last || last.terminated) return parts as Part[];
  const covered = parts.some(
    ({ parsed }) => parsed.edits.some((e) => e.span.end.line >= last.line) || parsed.diagnostics.some((d) => d.reply !== undefined && d.reply.end.line >= last.line),
  );
  const error = covered ? null : cutOpenerError(lines, main.format);
  if (!error) return parts as Part[];
  return [{ format: main.format, parsed: { ...main.parsed, diagnostics: [...main.parsed.diagnostics, error] } }, ...rest];
}
