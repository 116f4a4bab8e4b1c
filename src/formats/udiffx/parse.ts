// Read the udiffx `<FILE_CHANGES>` envelope from a whole model reply.
// spec/formats/udiffx.md is the contract. Tags are found by name, not by an
// XML parser: contents need no escaping, a directive's content runs to its
// closing tag, and FILE_PATCH contents go through udiff's hunk reader.

import { diagnostic } from '../../core/diagnostics.ts';
import { endSpan, lastAtOrBelow, replyLines, type ReplyLine } from '../../core/reply.ts';
import { parseText } from '../../core/text.ts';
import type { Diagnostic, Edit, EditKind, ParseContext, ParseResult, Position, Span } from '../../core/types.ts';
import { hunkEdit, scanDiff, type Row } from '../udiff/hunks.ts';

/** An opening, closing or self-closing tag whose name starts with `FILE_`. */
const TAG = /<(\/?)(FILE_[A-Z_]+)((?:\s+[A-Za-z_][\w:.-]*\s*=\s*(?:"[^"\n]*"|'[^'\n]*'|[^\s"'<>]+))*)\s*(\/?)>/g;
const ATTR = /([A-Za-z_][\w:.-]*)\s*=\s*(?:"([^"\n]*)"|'([^'\n]*)'|([^\s"'<>]+))/g;

export const DIRECTIVES = ['FILE_NEW', 'FILE_PATCH', 'FILE_APPEND', 'FILE_RENAME', 'FILE_DELETE'] as const;

/** Where the reply's envelopes are: `[from, to)` offsets, `to` past `</FILE_CHANGES>` or at the reply's end. */
export interface EnvelopeRange {
  from: number;
  to: number;
  closed: boolean;
}

class Locator {
  readonly lines: ReplyLine[];
  constructor(readonly reply: string) {
    this.lines = replyLines(reply);
  }
  /** The index of the reply line holding `offset` (the last line for the reply's end). */
  lineIndex(offset: number): number {
    return lastAtOrBelow(this.lines.length, offset, (k) => this.lines[k].from);
  }
  position(offset: number): Position {
    if (this.lines.length === 0) return { line: 1, column: 1 };
    const line = this.lines[this.lineIndex(offset)];
    if (offset > line.from + line.text.length && offset > line.from && this.reply[offset - 1] === '\n') {
      return { line: line.line + 1, column: 1 };
    }
    return { line: line.line, column: offset - line.from + 1 };
  }
  span(from: number, to: number): Span {
    return { from, to, start: this.position(from), end: this.position(to) };
  }
}

function attributes(source: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const m of source.matchAll(ATTR)) out[m[1].toLowerCase()] = m[2] ?? m[3] ?? m[4] ?? '';
  return out;
}

const cleanPath = (p: string | undefined) => (p ?? '').trim().replace(/^(\.\/)+/, '');

interface Scan {
  edits: Edit[];
  diagnostics: Diagnostic[];
  envelopes: EnvelopeRange[];
}

/** A hunk line starts with a space, `-`, `+` or `\`: a closing tag there is content, not a close. */
const inHunkLine = (before: string) => before.length > 0 && ' -+\\'.includes(before[0]);

/**
 * The first `<FILE_CHANGES…>` opening tag at or after `from`: what
 * `/<FILE_CHANGES\b[^>\n]*>/g` finds, in linear time (the regex rescans
 * the rest of the line from every `<FILE_CHANGES` that has no `>`).
 */
export function openingEnvelope(reply: string, from: number): { index: number; 0: string } | null {
  const NAME = '<FILE_CHANGES';
  for (let at = reply.indexOf(NAME, from); at !== -1; at = reply.indexOf(NAME, at + 1)) {
    const after = at + NAME.length;
    if (after < reply.length && /\w/.test(reply[after])) continue; // `\b`: the name goes on
    let k = after;
    while (k < reply.length && reply[k] !== '>' && reply[k] !== '\n') k++;
    if (reply[k] === '>') return { index: at, 0: reply.slice(at, k + 1) };
    // No `>` before the line ends: no later start on this line has one either.
    at = k - 1;
  }
  return null;
}

function scan(reply: string): Scan {
  const at = new Locator(reply);
  const edits: Edit[] = [];
  const diagnostics: Diagnostic[] = [];
  const envelopes: EnvelopeRange[] = [];

  const push = (edit: Omit<Edit, 'index' | 'warnings' | 'old'> & Partial<Pick<Edit, 'old' | 'warnings'>>) => {
    edits.push({ old: [], warnings: [], ...edit, index: edits.length } as Edit);
  };
  const pathError = (name: string, tag: Span, attr: string) =>
    diagnostic('missing-path', 'error', `<${name}> at line ${tag.start.line} has no ${attr} attribute: write <${name} ${attr}="PATH">`, tag);

  let pos = 0;
  for (;;) {
    const open = openingEnvelope(reply, pos);
    if (!open) break;
    const envelope: EnvelopeRange = { from: open.index, to: reply.length, closed: false };
    envelopes.push(envelope);
    let p = open.index + open[0].length;
    for (;;) {
      TAG.lastIndex = p;
      const m = TAG.exec(reply);
      if (!m) {
        p = reply.length;
        break;
      }
      const [whole, slash, name, attrSource, selfClose] = m;
      const tagFrom = m.index;
      const tagTo = m.index + whole.length;
      const tag = at.span(tagFrom, tagTo);
      if (slash) {
        if (name === 'FILE_CHANGES') {
          envelope.to = tagTo;
          envelope.closed = true;
          p = tagTo;
          break;
        }
        diagnostics.push(diagnostic('stray-marker', 'warning', `</${name}> at line ${tag.start.line} closes no open directive; it was ignored`, tag));
        p = tagTo;
        continue;
      }
      if (name === 'FILE_CHANGES') {
        diagnostics.push(diagnostic('stray-marker', 'warning', `<FILE_CHANGES> at line ${tag.start.line} is inside another <FILE_CHANGES>; it was ignored`, tag));
        p = tagTo;
        continue;
      }
      const attrs = attributes(attrSource);
      // An unquoted value followed by `/>` swallows the slash.
      let selfClosing = selfClose === '/';
      for (const key of Object.keys(attrs)) {
        if (!selfClosing && attrs[key].endsWith('/') && attrSource.trimEnd().endsWith(attrs[key]) && !/["']$/.test(attrSource.trimEnd())) {
          attrs[key] = attrs[key].slice(0, -1);
          selfClosing = true;
        }
      }
      const closeTag = `</${name}>`;
      /** Consume an immediately following closing tag of a directive without content. */
      const emptyClose = (from: number) => {
        const rest = /^\s*/.exec(reply.slice(from))![0].length;
        return reply.startsWith(closeTag, from + rest) ? from + rest + closeTag.length : from;
      };

      switch (name) {
        case 'FILE_NEW':
        case 'FILE_APPEND': {
          const kind: EditKind = name === 'FILE_NEW' ? 'write' : 'append';
          const path = cleanPath(attrs.path ?? attrs.file_path);
          const close = selfClosing ? -1 : reply.indexOf(closeTag, tagTo);
          const end = selfClosing ? tagTo : close === -1 ? reply.length : close + closeTag.length;
          let text = '';
          if (!selfClosing) {
            let start = tagTo;
            const nl = reply.indexOf('\n', tagTo);
            const restEnd = nl === -1 ? reply.length : nl;
            if (reply.slice(tagTo, restEnd).trim() === '') start = nl === -1 ? reply.length : nl + 1;
            let stop = close === -1 ? reply.length : close;
            const lineStart = reply.lastIndexOf('\n', stop - 1) + 1;
            if (close !== -1 && lineStart >= start && reply.slice(lineStart, stop).trim() === '') stop = lineStart;
            text = reply.slice(start, Math.max(start, stop));
          }
          const content = parseText(text);
          const edit: Omit<Edit, 'index' | 'warnings' | 'old'> = { kind, file: path, new: content.lines, span: at.span(tagFrom, end) };
          if (text !== '') edit.finalNewline = text.endsWith('\n');
          if (!path) edit.error = pathError(name, tag, 'path');
          else if (!selfClosing && close === -1)
            edit.error = diagnostic(
              'truncated',
              'error',
              `the reply ends inside <${name} path="${path}"> (expected ${closeTag}): it was cut off or its closing tag is missing; the file was not written`,
              endSpan(reply, at.lines),
            );
          push(edit);
          p = end;
          break;
        }
        case 'FILE_PATCH': {
          const path = cleanPath(attrs.path ?? attrs.file_path);
          const { rows, end, how } = selfClosing ? { rows: [], end: tagTo, how: 'closed' as const } : patchRows(reply, at, tagTo, closeTag);
          const first = edits.length;
          for (const item of scanDiff(rows, how === 'cut' ? 'cut' : 'closed')) {
            if (item.type !== 'hunk') continue; // `---`/`+++` lines: the tag names the file
            const edit = hunkEdit(item.hunk, path, edits.length, path ? undefined : pathError(name, tag, 'path'));
            if (edit) edits.push(edit);
          }
          if (edits.length === first) {
            const error =
              how === 'cut'
                ? diagnostic('truncated', 'error', `the reply ends inside <FILE_PATCH path="${path}"> before any complete hunk: it was cut off`, endSpan(reply, at.lines))
                : !path
                  ? pathError(name, tag, 'path')
                  : diagnostic(
                      'malformed',
                      'error',
                      `<FILE_PATCH path="${path}"> at line ${tag.start.line} holds no hunk: a patch is one or more "@@ ... @@" lines, each followed by lines starting with " " (context), "-" (remove) or "+" (add); to give the whole file, use <FILE_NEW>`,
                      at.span(tagFrom, end),
                    );
            push({ kind: 'replace', file: path, new: [], span: at.span(tagFrom, end), error });
          }
          if (how === 'inferred') {
            const last = edits[edits.length - 1];
            const line = at.lines[at.lineIndex(end)];
            last.warnings.push(
              diagnostic(
                'inferred-marker',
                'warning',
                `missing </FILE_PATCH> before ${JSON.stringify(line.text.trim().slice(0, 40))} at line ${line.line}; assumed`,
                at.span(line.from, line.from + line.text.length),
              ),
            );
          }
          p = end;
          break;
        }
        case 'FILE_DELETE': {
          const path = cleanPath(attrs.path ?? attrs.file_path);
          const end = selfClosing ? tagTo : emptyClose(tagTo);
          const edit: Omit<Edit, 'index' | 'warnings' | 'old'> = { kind: 'delete', file: path, new: [], span: at.span(tagFrom, end) };
          if (!path) edit.error = pathError(name, tag, 'path');
          push(edit);
          p = end;
          break;
        }
        case 'FILE_RENAME': {
          const from = cleanPath(attrs.from ?? attrs.from_path);
          const to = cleanPath(attrs.to ?? attrs.to_path);
          const end = selfClosing ? tagTo : emptyClose(tagTo);
          const edit: Omit<Edit, 'index' | 'warnings' | 'old'> = { kind: 'rename', file: from, moveTo: to, new: [], span: at.span(tagFrom, end) };
          if (!from) edit.error = pathError(name, tag, 'from');
          else if (!to) edit.error = diagnostic('malformed', 'error', `<FILE_RENAME from="${from}"> at line ${tag.start.line} has no to attribute (the new path)`, tag);
          push(edit);
          p = end;
          break;
        }
        default: {
          const close = selfClosing ? -1 : reply.indexOf(closeTag, tagTo);
          const end = close === -1 ? tagTo : close + closeTag.length;
          push({
            kind: 'replace',
            file: cleanPath(attrs.path ?? attrs.file_path ?? attrs.from ?? attrs.from_path),
            new: [],
            span: at.span(tagFrom, end),
            error: diagnostic(
              'malformed',
              'error',
              `<${name}> at line ${tag.start.line} is not a directive of this format; use ${DIRECTIVES.map((d) => `<${d}>`).join(', ')}`,
              tag,
            ),
          });
          p = end;
        }
      }
      // A directive without its closing tag ran to the reply's end.
      if (p >= reply.length) break;
    }
    if (!envelope.closed) break;
    pos = envelope.to;
  }
  return { edits, diagnostics, envelopes };
}

/**
 * The rows of a FILE_PATCH's content, from just after its opening tag to its
 * closing tag (`closed`), to a line starting with another `<FILE_` or
 * `</FILE_` tag (`inferred`: the closing tag is missing there), or to the
 * reply's end (`cut`). A `</FILE_PATCH>` on a line that starts with a hunk
 * line's first character (` `, `-`, `+`, `\`) is content, not the close.
 */
function patchRows(reply: string, at: Locator, tagTo: number, closeTag: string): { rows: Row[]; end: number; how: 'closed' | 'inferred' | 'cut' } {
  const rows: Row[] = [];
  const lines = at.lines;
  for (let k = at.lineIndex(tagTo); k < lines.length; k++) {
    const line = lines[k];
    const col = Math.max(0, Math.min(line.text.length, tagTo - line.from));
    const first = tagTo > line.from;
    const text = line.text.slice(col);
    for (let idx = text.indexOf(closeTag); idx >= 0; idx = text.indexOf(closeTag, idx + 1)) {
      const before = text.slice(0, idx);
      if (!first && inHunkLine(before)) continue;
      if (before.trim() !== '') rows.push({ line, col, text: before });
      return { rows, end: line.from + col + idx + closeTag.length, how: 'closed' };
    }
    if (!first && /^<\/?FILE_/.test(text)) return { rows, end: line.from, how: 'inferred' };
    if (!first || text.trim() !== '') rows.push({ line, col, text });
  }
  return { rows, end: reply.length, how: 'cut' };
}

/** The paths a reply names are taken as written: udiffx's tags name files exactly. */
export function parseUdiffx(reply: string, _context?: ParseContext): ParseResult {
  const { edits, diagnostics } = scan(reply);
  return { edits, diagnostics };
}

/** Where the envelopes are, for `prose`. */
export function envelopes(reply: string): EnvelopeRange[] {
  return scan(reply).envelopes;
}
