// Read the udiffx `<FILE_CHANGES>` envelope from a whole model reply.
// spec/formats/udiffx.md is the contract. Tags are found by name, not by an
// XML parser: contents need no escaping, a directive's content runs to its
// closing tag, and FILE_PATCH contents go through udiff's hunk reader.

import { ENGINE_DEFAULTS } from '../../core/defaults.ts';
import { diagnostic } from '../../core/diagnostics.ts';
import { givenPaths, normalizePath, resolveFile } from '../../core/paths.ts';
import { endSpan, lastAtOrBelow, linesOf, type ReplyLine } from '../../core/reply.ts';
import type { LexedReply } from '../../core/types.ts';
import { parseText } from '../../core/text.ts';
import type { Diagnostic, Edit, EditKind, ParseContext, ParseResult, Position, Span } from '../../core/types.ts';
import { hunkEdit, hunkReplace, rowSpan, scanDiff, type Hunk, type Row } from '../udiff/hunks.ts';
import { placeInText } from './locate.ts';

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
  readonly lines: readonly ReplyLine[];
  constructor(readonly reply: string, lexed?: LexedReply) {
    this.lines = linesOf(reply, lexed);
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
  const out: Record<string, string> = Object.create(null);
  for (const m of source.matchAll(ATTR)) out[m[1].toLowerCase()] = m[2] ?? m[3] ?? m[4] ?? '';
  return out;
}

/**
 * The files the directives of a reply name, in reply order (the crate runs
 * them one after the other): after `<FILE_RENAME from="A" to="B"/>`, `B`
 * names the file that was `A`, so a later directive on `B` is an edit of `A`
 * moved to `B`. A directive naming `A` after the move still names `A` (every
 * edit is matched against the files as given). Paths resolve to a given file
 * as everywhere (`resolveFile`: `./`, `\` and letter case).
 */
class Names {
  /** Paths a rename gave a file in this reply -> the given path it holds. */
  private readonly moved = new Map<string, string>();
  /** Paths FILE_NEW or FILE_APPEND created in this reply. */
  private readonly created = new Set<string>();
  /** Given paths a rename moved in this reply. */
  private readonly sources = new Set<string>();
  constructor(private readonly files: readonly string[]) {}

  /** The paths in `moved`, by their normal form and by that form in lower case (see `givenFile`). */
  private readonly normal = new Map<string, Set<string>>();
  private readonly folded = new Map<string, Set<string>>();

  /** The path an attribute names at this point of the reply ('' for none). */
  current(written: string | undefined): string {
    const p = (written ?? '').trim();
    if (p === '') return '';
    if (this.moved.size > 0) {
      // `givenFile(p, [...moved.keys()])`, through indexes: exact, then normal form, then case.
      if (this.moved.has(p)) return p;
      const n = normalizePath(p);
      const one = (set: Set<string> | undefined) => (set && set.size === 1 ? [...set][0] : null);
      const same = this.normal.get(n);
      if (same && same.size > 0) {
        if (same.size === 1) return one(same)!;
      } else {
        const alias = one(this.folded.get(n.toLowerCase()));
        if (alias !== null) return alias;
      }
    }
    return resolveFile(p, this.files);
  }

  private index(path: string): void {
    const n = normalizePath(path);
    for (const [map, key] of [[this.normal, n], [this.folded, n.toLowerCase()]] as const) {
      let set = map.get(key);
      if (!set) map.set(key, (set = new Set()));
      set.add(path);
    }
  }

  /** The edit's file, and where it moves, for a directive on `path`. */
  target(path: string): { file: string; moveTo?: string } {
    const from = this.moved.get(path);
    return from === undefined ? { file: path } : { file: from, moveTo: path };
  }

  /** A file written by FILE_NEW or FILE_APPEND. */
  write(path: string): void {
    if (path !== '' && !this.moved.has(path) && !givenPaths(this.files).has(path)) this.created.add(path);
  }

  /** The given path of the file at `path` when a rename earlier in the reply moved it (to `path` or from it), if any. */
  movedFrom(path: string): string | undefined {
    return this.moved.get(path) ?? (this.sources.has(path) ? path : undefined);
  }

  /** Why `to` cannot be a rename's target at this point, or null. */
  taken(to: string): string | null {
    return this.moved.has(to) ? 'another file is renamed to it earlier in this reply' : this.created.has(to) ? 'it is written earlier in this reply' : null;
  }

  /** Record a rename of a file not moved before in the reply. */
  rename(from: string, to: string): void {
    this.moved.set(to, from);
    this.sources.add(from);
    this.index(to);
  }
}

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

/**
 * Where an opening `<FILE_CHANGES` tag (the name whole) starts that the
 * reply ends inside, with no `>` and no line break after it; null when there
 * is none (from `from` on).
 */
function cutOpening(reply: string, from: number): number | null {
  const at = reply.lastIndexOf('<FILE_CHANGES');
  if (at < from) return null;
  const rest = reply.slice(at + '<FILE_CHANGES'.length).trimEnd();
  return /^(?:[ \t][^>\n]*)?$/.test(rest) ? at : null;
}

const FENCE_OPEN = /^[ \t]*(?:(`{3,})[^`]*|(~{3,}).*)$/;
const FENCE_CLOSE = /^[ \t]*(`{3,}|~{3,})[ \t]*$/;

/**
 * FILE_NEW / FILE_APPEND content without the code fence around it, as the
 * crate strips it: when the first and the last non-blank lines are a fence
 * pair (an opening fence of three or more backticks or tildes, with or
 * without an info string, and a bare closing fence of the same character, at
 * least as long), the content is the lines between them, exactly. Otherwise
 * null. (Lines inside are not looked at: a Markdown file's own fences stay.)
 */
export function unfenced(text: string): string | null {
  const lines = text.split('\n');
  let f = 0;
  while (f < lines.length && lines[f].trim() === '') f++;
  let l = lines.length - 1;
  while (l > f && lines[l].trim() === '') l--;
  if (l <= f) return null;
  const open = FENCE_OPEN.exec(lines[f].replace(/\r$/, ''));
  const close = FENCE_CLOSE.exec(lines[l].replace(/\r$/, ''));
  if (!open || !close) return null;
  const fence = open[1] ?? open[2];
  if (close[1][0] !== fence[0] || close[1].length < fence.length) return null;
  let from = 0;
  for (let k = 0; k <= f; k++) from += lines[k].length + 1;
  let to = from;
  for (let k = f + 1; k < l; k++) to += lines[k].length + 1;
  return text.slice(from, to);
}

/** A closing tag's name, or an opening tag's, found by `TAG` from `from`. */
interface TagAt {
  from: number;
  to: number;
  closing: boolean;
  name: string;
  selfClosing: boolean;
}

function tagAt(reply: string, re: RegExp, from: number): TagAt | null {
  re.lastIndex = from;
  const m = re.exec(reply);
  if (!m) return null;
  return { from: m.index, to: m.index + m[0].length, closing: m[1] === '/', name: m[2], selfClosing: m[4] === '/' };
}

/**
 * Where a directive with content (FILE_NEW, FILE_APPEND) ends, and whether
 * that end is certain. The content runs to the first closing tag; the end is
 * ambiguous (the closing tag may be content) when
 * - a line of the content starts with a tag of the same name (either the
 *   closing tag is missing before it, or the content shows this format):
 *   the directive ends at the closing tag that balances it, when one does;
 *   else at that line, and what follows in the envelope may be content;
 * - another closing tag of the same name follows before the next opening
 *   tag or `</FILE_CHANGES>`: the directive ends at the last of them;
 * - text other than blanks or a tag follows the closing tag on its line:
 *   the directive ends there, and what follows in the envelope may be content.
 */
interface ContentEnd {
  /** Offset of the closing tag that ends the content, -1 when there is none. */
  close: number;
  /** Where reading goes on. */
  end: number;
  ambiguous?: { why: string; at: number; poison: boolean };
}

class Tags {
  private readonly re = new RegExp(TAG.source, 'g');
  private readonly sticky = new RegExp(TAG.source, 'y');
  private balanced: Map<string, Map<number, number>> = new Map();
  constructor(private readonly reply: string) {}

  next(from: number): TagAt | null {
    return tagAt(this.reply, this.re, from);
  }

  /** The last `closeAfter` answer per closing tag: `at` is the first one at or after `from`. */
  private readonly closes = new Map<string, { from: number; at: number }>();

  /**
   * The first `closeTag` at or after `from` (-1: none), as `indexOf` finds it;
   * asked with growing `from`, the text is searched once in all.
   */
  closeAfter(closeTag: string, from: number): number {
    const last = this.closes.get(closeTag);
    if (last && from >= last.from && (last.at === -1 || from <= last.at)) return last.at;
    const at = this.reply.indexOf(closeTag, from);
    this.closes.set(closeTag, { from, at });
    return at;
  }

  /** The tag that starts exactly at `offset`, or null. */
  at(offset: number): TagAt | null {
    return tagAt(this.reply, this.sticky, offset);
  }

  /**
   * The end of the closing tag that balances the opening tag of `name` at
   * `open` (opening and closing tags of that name counted as nested), or
   * undefined. Worked out once per name for the whole reply.
   */
  balance(name: string, open: number): number | undefined {
    let map = this.balanced.get(name);
    if (!map) {
      map = new Map();
      const stack: number[] = [];
      for (let t = this.next(0); t; t = this.next(t.to)) {
        if (t.name !== name) continue;
        if (t.closing) {
          const o = stack.pop();
          if (o !== undefined) map.set(o, t.to);
        } else if (!t.selfClosing) stack.push(t.from);
      }
      this.balanced.set(name, map);
    }
    return map.get(open);
  }
}

function contentEnd(reply: string, tags: Tags, name: string, tagFrom: number, tagTo: number): ContentEnd {
  const closeTag = `</${name}>`;
  const close = tags.closeAfter(closeTag, tagTo);
  const limit = close === -1 ? reply.length : close;
  // A line of the content that starts with a tag of the same name (searched in the content only).
  const content = reply.slice(tagTo, limit);
  const nested = new RegExp(`\\n[ \\t]*<${name}[\\s/>]`, 'g');
  for (let m = nested.exec(content); m; m = nested.exec(content)) {
    const at = tagTo + m.index + 1; // the line's start
    const t = tags.at(tagTo + m.index + m[0].length - name.length - 2);
    if (!t || t.name !== name || t.from >= limit) continue;
    const balanced = tags.balance(name, tagFrom);
    return balanced !== undefined
      ? { close, end: balanced, ambiguous: { why: 'nested', at: t.from, poison: false } }
      : { close, end: at, ambiguous: { why: 'nested', at: t.from, poison: true } };
  }
  if (close === -1) return { close, end: reply.length };
  const closeEnd = close + closeTag.length;
  // Another closing tag of the same name before the next directive or `</FILE_CHANGES>`.
  let last = -1;
  for (let t = tags.next(closeEnd); t; t = tags.next(t.to)) {
    if (!t.closing || t.name === 'FILE_CHANGES') break;
    if (t.name === name) last = t.to;
  }
  if (last !== -1) return { close, end: last, ambiguous: { why: 'repeated', at: last - closeTag.length, poison: false } };
  // Text after the closing tag on its line.
  const nl = reply.indexOf('\n', closeEnd);
  const rest = reply.slice(closeEnd, nl === -1 ? reply.length : nl).trim();
  if (rest !== '' && !rest.startsWith('<')) return { close, end: closeEnd, ambiguous: { why: 'text', at: close, poison: true } };
  return { close, end: closeEnd };
}

function scan(reply: string, files: readonly string[], lexed?: LexedReply): Scan {
  const at = new Locator(reply, lexed);
  const tags = new Tags(reply);
  const names = new Names(files);
  const edits: Edit[] = [];
  const diagnostics: Diagnostic[] = [];
  const envelopes: EnvelopeRange[] = [];
  const lineOf = (offset: number) => at.position(offset).line;

  const push = (edit: Omit<Edit, 'index' | 'warnings' | 'old'> & Partial<Pick<Edit, 'old' | 'warnings'>>) => {
    edits.push({ old: [], warnings: [], ...edit, index: edits.length } as Edit);
  };
  const pathError = (name: string, tag: Span, attr: string) =>
    diagnostic('missing-path', 'error', `<${name}> at line ${tag.start.line} has no ${attr} attribute: write <${name} ${attr}="PATH">`, tag);
  // "Directives run in order": the text of each file written earlier in the
  // reply (a later patch or append of it is folded into that write), and the
  // paths a deletion or a rename took away (a later directive on one fails).
  const texts = new Map<string, Known>();
  const written: Known[] = [];
  const gone = new Map<string, { why: string; to?: string }>();
  const goneError = (name: string, path: string, tag: Span): Diagnostic | undefined => {
    const g = gone.get(path);
    if (!g) return undefined;
    return diagnostic(
      'file-not-found',
      'error',
      `<${name} path="${path}"> at line ${tag.start.line}: ${path} is not there at this point of the reply: it was ${g.why}, and directives run in reply order${
        g.to !== undefined ? `; name the file ${g.to}` : ''
      }`,
      tag,
    );
  };

  let pos = 0;
  for (;;) {
    const open = openingEnvelope(reply, pos);
    if (!open) {
      // "Truncation": the reply ends inside the opening tag of an envelope.
      const cut = cutOpening(reply, pos);
      if (cut !== null)
        diagnostics.push(
          diagnostic('truncated', 'error', `the reply ends inside the \`<FILE_CHANGES>\` tag at line ${lineOf(cut)}: it was cut off before any directive; send the rest of the reply`, endSpan(reply, at.lines)),
        );
      break;
    }
    const envelope: EnvelopeRange = { from: open.index, to: reply.length, closed: false };
    envelopes.push(envelope);
    const before = edits.length;
    /** A directive whose end is uncertain: the directives after it in this envelope may be its content. */
    let poison: { tag: string; line: number } | null = null;
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
        let k = from;
        while (k < reply.length && /\s/.test(reply[k])) k++;
        return reply.startsWith(closeTag, k) ? k + closeTag.length : from;
      };
      const first = edits.length;
      const poisonedBy = poison;

      switch (name) {
        case 'FILE_NEW':
        case 'FILE_APPEND': {
          const kind: EditKind = name === 'FILE_NEW' ? 'write' : 'append';
          const path = names.current(attrs.path ?? attrs.file_path);
          const block: ContentEnd = selfClosing ? { close: -1, end: tagTo } : contentEnd(reply, tags, name, tagFrom, tagTo);
          const { close, end } = block;
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
            text = unfenced(text) ?? text;
          }
          // Every CR before a line break is the reply's line break, not content (spec/formats.md, "Line endings and byte order marks").
          const lines = parseText(text).lines.map((l) => (l.charCodeAt(l.length - 1) === 13 ? l.replace(/\r+$/, '') : l));
          const edit: Omit<Edit, 'index' | 'warnings' | 'old'> = { kind, ...names.target(path), new: lines, span: at.span(tagFrom, end) };
          if (text !== '') edit.finalNewline = text.endsWith('\n');
          const described = `<${name} path="${path}"> at line ${tag.start.line}`;
          if (!path) edit.error = pathError(name, tag, 'path');
          else if (block.ambiguous) {
            const a = block.ambiguous;
            const rest = a.poison ? `; the directives after it in this envelope were not applied either, since they may be part of its content` : '';
            const fix =
              a.why === 'nested'
                ? `end each directive with its ${closeTag} before the next one begins`
                : `close each directive once; a file whose text holds "${closeTag}" cannot be given whole in this format: give those lines in a <FILE_PATCH> hunk`;
            const why =
              a.why === 'nested'
                ? `its content holds another <${name}> tag at line ${lineOf(a.at)} before its ${closeTag}: either its closing tag is missing before that line, or the content shows this format's tags`
                : a.why === 'repeated'
                  ? `its content holds ${closeTag} at line ${lineOf(close)} and another ${closeTag} follows at line ${lineOf(a.at)}, so either could end it`
                  : `its ${closeTag} at line ${lineOf(close)} is followed on its line by text, so it may be part of the content rather than its end`;
            edit.error = diagnostic(
              'ambiguous-end',
              'error',
              `${described}: ${why}; the file was not written${rest}. To fix it, ${fix}`,
              a.why === 'nested' ? at.span(a.at, a.at + name.length + 1) : at.span(close, close + closeTag.length),
            );
            if (a.poison) poison = { tag: described, line: tag.start.line };
          } else if (!selfClosing && close === -1)
            edit.error = diagnostic(
              'truncated',
              'error',
              `the reply ends inside <${name} path="${path}"> (expected ${closeTag}): it was cut off or its closing tag is missing; the file was not written`,
              endSpan(reply, at.lines),
            );
          const known = path ? texts.get(path) : undefined;
          if (kind === 'append' && !edit.error) edit.error = goneError(name, path, tag);
          if (kind === 'append' && known && !edit.error && !poisonedBy) {
            // An append to a file written earlier in the reply: its lines join that text.
            known.edit.new = [...known.edit.new, ...edit.new];
            if (edit.finalNewline !== undefined) known.edit.finalNewline = edit.finalNewline;
            edits.push(folded(known, { span: edit.span, warnings: [] }, edits.length));
            p = end;
            break;
          }
          push(edit);
          names.write(path);
          if (path && !edit.error && edit.moveTo === undefined && (kind === 'write' || !givenPaths(files).has(path))) {
            const entry: Known = { edit: edits[edits.length - 1], described, folded: [] };
            texts.set(path, entry);
            written.push(entry);
            gone.delete(path);
          }
          p = end;
          break;
        }
        case 'FILE_PATCH': {
          const path = names.current(attrs.path ?? attrs.file_path);
          const target = names.target(path);
          const read = selfClosing ? { rows: [], end: tagTo, how: 'closed' as const } : patchRows(reply, at, tagTo, closeTag);
          const { rows, how } = read;
          let end = read.end;
          // Another </FILE_PATCH> before the next directive or </FILE_CHANGES>: either could end the patch.
          let repeated = -1;
          if (!selfClosing && how === 'closed') {
            for (let t = tags.next(end); t; t = tags.next(t.to)) {
              if (!t.closing || t.name === 'FILE_CHANGES') break;
              if (t.name === name) repeated = t.from;
            }
          }
          const ambiguous =
            repeated === -1
              ? undefined
              : diagnostic(
                  'ambiguous-end',
                  'error',
                  `<FILE_PATCH path="${path}"> at line ${tag.start.line}: its </FILE_PATCH> at line ${lineOf(end - closeTag.length)} is followed by another at line ${lineOf(repeated)}, so either could end the patch; none of its hunks was applied. Close each directive once, and start every line of a hunk with " ", "-" or "+"`,
                  at.span(end - closeTag.length, end),
                );
          if (repeated !== -1) end = repeated + closeTag.length;
          const fileError = path ? (ambiguous ?? goneError(name, path, tag)) : pathError(name, tag, 'path');
          const marks = rangeMarks(rows);
          const hunks: Edit[] = [];
          // `---`/`+++` lines are not hunks: the tag names the file.
          const scanned = scanDiff(marks.rows, how === 'cut' ? 'cut' : 'closed').flatMap((item) => (item.type === 'hunk' ? [item.hunk] : []));
          for (const [k, hunk] of scanned.entries()) {
            const edit = hunkEdit(hunk, target.file, edits.length + hunks.length, fileError) ?? unchanged(hunk, target.file, edits.length + hunks.length);
            if (edit) {
              if (fileError) edit.error ??= fileError;
              withRange(edit, hunk, marks.tildes, scanned[k + 1]?.header.line.line ?? Infinity);
              if (target.moveTo !== undefined) edit.moveTo = target.moveTo;
              hunks.push(edit);
            }
          }
          const known = path ? texts.get(path) : undefined;
          if (known && hunks.length > 0 && !fileError && !poisonedBy) {
            // A patch of a file written earlier in the reply: folded into that write.
            const failures = new Map(foldHunks(known.edit, hunks, known.described).map((f) => [f.span.from, f]));
            for (const hunk of hunks) {
              const failed = failures.get(hunk.span.from);
              edits.push(failed ? { ...failed, index: edits.length } : folded(known, hunk, edits.length));
            }
          } else {
            edits.push(...hunks);
          }
          if (edits.length === first && hunks.length === 0) {
            const error =
              !path
                ? pathError(name, tag, 'path')
                : ambiguous
                  ? ambiguous
                  : how === 'cut'
                    ? diagnostic('truncated', 'error', `the reply ends inside <FILE_PATCH path="${path}"> before any complete hunk: it was cut off`, endSpan(reply, at.lines))
                    : diagnostic(
                        'malformed',
                        'error',
                        `<FILE_PATCH path="${path}"> at line ${tag.start.line} holds no hunk: a patch is one or more "@@ ... @@" lines, each followed by lines starting with " " (context), "-" (remove) or "+" (add); to give the whole file, use <FILE_NEW>`,
                        at.span(tagFrom, end),
                      );
            push({ kind: 'replace', ...target, new: [], span: at.span(tagFrom, end), error });
          }
          if (how === 'inferred' && edits.length > first) {
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
          const path = names.current(attrs.path ?? attrs.file_path);
          const end = selfClosing ? tagTo : emptyClose(tagTo);
          const edit: Omit<Edit, 'index' | 'warnings' | 'old'> = { kind: 'delete', ...names.target(path), new: [], span: at.span(tagFrom, end) };
          if (!path) edit.error = pathError(name, tag, 'path');
          else edit.error = goneError(name, path, tag);
          if (!edit.error) delete edit.error;
          push(edit);
          if (path && !edit.error) {
            gone.set(path, { why: `deleted by <FILE_DELETE> at line ${tag.start.line}` });
            texts.delete(path);
          }
          p = end;
          break;
        }
        case 'FILE_RENAME': {
          const from = names.current(attrs.from ?? attrs.from_path);
          const to = (attrs.to ?? attrs.to_path ?? '').trim() === '' ? '' : resolveFile((attrs.to ?? attrs.to_path)!.trim(), files);
          const end = selfClosing ? tagTo : emptyClose(tagTo);
          const edit: Omit<Edit, 'index' | 'warnings' | 'old'> = { kind: 'rename', file: from, moveTo: to, new: [], span: at.span(tagFrom, end) };
          const taken = to === '' ? null : names.taken(to);
          const origin = names.movedFrom(from);
          if (!from) edit.error = pathError(name, tag, 'from');
          else if (!to) edit.error = diagnostic('malformed', 'error', `<FILE_RENAME from="${from}"> at line ${tag.start.line} has no to attribute (the new path)`, tag);
          else if (origin !== undefined) {
            edit.file = origin;
            edit.error = diagnostic(
              'overlap',
              'error',
              origin === from
                ? `cannot rename ${from} to ${to}: ${from} is renamed earlier in this reply, and a file moves once per reply`
                : `cannot rename ${from} to ${to}: ${from} is ${origin}, renamed earlier in this reply, and a file moves once per reply: rename ${origin} to ${to} instead`,
              tag,
            );
          } else if (gone.has(from)) edit.error = goneError(name, from, tag);
          else if (taken) edit.error = diagnostic('file-exists', 'error', `cannot rename ${from} to ${to}: ${taken}`, tag);
          else if (texts.has(from) && !givenPaths(files).has(from) && !givenPaths(files).has(to) && !poisonedBy) {
            // A file written earlier in the reply, renamed: that write goes to the new path.
            const known = texts.get(from)!;
            known.edit.file = to;
            texts.delete(from);
            texts.set(to, known);
            gone.set(from, { why: `renamed to ${to} by <FILE_RENAME> at line ${tag.start.line}`, to });
            edits.push(folded(known, { span: edit.span, warnings: [] }, edits.length));
            p = end;
            break;
          } else {
            names.rename(from, to);
            gone.set(from, { why: `renamed to ${to} by <FILE_RENAME> at line ${tag.start.line}`, to });
          }
          push(edit);
          p = end;
          break;
        }
        default: {
          const close = selfClosing ? -1 : tags.closeAfter(closeTag, tagTo);
          const end = close === -1 ? tagTo : close + closeTag.length;
          push({
            kind: 'replace',
            file: names.current(attrs.path ?? attrs.file_path ?? attrs.from ?? attrs.from_path),
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
      if (poisonedBy) {
        for (let k = first; k < edits.length; k++) {
          edits[k].error = diagnostic(
            'ambiguous-end',
            'error',
            `<${name}> at line ${tag.start.line} was not applied: it follows ${poisonedBy.tag}, whose end is ambiguous, so it may be part of that directive's content`,
            tag,
          );
        }
      }
      // A directive without its closing tag ran to the reply's end.
      if (p >= reply.length) break;
    }
    if (!envelope.closed) {
      // "Truncation": an envelope never closed, from which no directive was read.
      if (edits.length === before)
        diagnostics.push(
          diagnostic(
            'truncated',
            'error',
            `the reply ends inside the <FILE_CHANGES> envelope opened at line ${lineOf(open.index)}, before any complete directive and its </FILE_CHANGES>: it was cut off; send the rest of the reply`,
            endSpan(reply, at.lines),
          ),
        );
      break;
    }
    pos = envelope.to;
  }
  // A directive folded into a write repeats that write's final text (the engine applies it once).
  for (const known of written) {
    for (const f of known.folded) {
      f.file = known.edit.file;
      f.new = known.edit.new;
      if (known.edit.finalNewline !== undefined) f.finalNewline = known.edit.finalNewline;
      else delete f.finalNewline;
    }
  }
  return { edits, diagnostics, envelopes };
}

/** A file written earlier in the reply: its write edit, how to name it in messages, and the directives folded into it. */
interface Known {
  edit: Edit;
  described: string;
  folded: Edit[];
}

/**
 * "Directives run in order": the edit of a directive folded into the write
 * of `known`: a write of the same final text (set when the reply has been
 * read), which the engine applies once and reports as a duplicate of it.
 */
function folded(known: Known, directive: Pick<Edit, 'span' | 'warnings'>, index: number): Edit {
  // An append that creates a file (one not given) writes it whole: the same edit as a write.
  if (known.edit.kind === 'append') known.edit.kind = 'write';
  const edit: Edit = { index, kind: 'write', file: known.edit.file, old: [], new: [], span: directive.span, warnings: directive.warnings };
  known.folded.push(edit);
  return edit;
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

/**
 * Paths resolve to the given files (`resolveFile`), and directives run in
 * reply order as far as renames go (see `Names`).
 */
export function parseUdiffx(reply: string, context?: ParseContext): ParseResult {
  const { edits, diagnostics } = scan(reply, context?.files ?? [], context?.lexed);
  return { edits, diagnostics };
}

/** Where the envelopes are, for `prose`. */
export function envelopes(reply: string): EnvelopeRange[] {
  return scan(reply, []).envelopes;
}

/** A `~` line of a FILE_PATCH (a range removal) and whether it stands between two removal lines on each side. */
interface RangeMark {
  row: Row;
  /** Why it cannot be a range removal, or null. */
  problem: string | null;
}

/** Removal lines udiffx needs on each side of a `~` line. */
const RANGE_ANCHORS = 2;

/**
 * "Range removal": the rows without their `~` lines (a line that is `~`
 * alone, no prefix), and each `~` line with what is wrong with it: a `~`
 * needs at least two removal lines right above it and two right below. A
 * `~` that ends its hunk (the last line of the patch, or right before the
 * next `@@` line) has none below: its message says so, with its line and
 * column, since a range whose end is not given cannot be removed.
 */
function rangeMarks(rows: readonly Row[]): { rows: Row[]; tildes: RangeMark[] } {
  const tildes: RangeMark[] = [];
  const kept: Row[] = [];
  const removal = (k: number) => k >= 0 && k < rows.length && rows[k].text.startsWith('-') && rows[k].text.trimEnd() !== '~';
  rows.forEach((row, k) => {
    if (row.text.trimEnd() !== '~') {
      kept.push(row);
      return;
    }
    let above = 0;
    while (removal(k - 1 - above)) above++;
    let below = 0;
    while (removal(k + 1 + below)) below++;
    const next = rows[k + 1];
    const after =
      below > 0
        ? ''
        : next === undefined
          ? ': the patch ends right after it'
          : next.text.startsWith('@@')
            ? `: the next hunk's header \`${next.text.trim()}\` follows it at line ${next.line.line}`
            : `: line ${next.line.line}, after it, is ${JSON.stringify(next.text)}`;
    const problem =
      above < RANGE_ANCHORS || below < RANGE_ANCHORS
        ? `line ${row.line.line}, column ${row.col + 1}: the \`~\` removes the lines between the removal lines around it, and needs at least ${RANGE_ANCHORS} "-" lines right above it (the first lines of the range) and ${RANGE_ANCHORS} right below (its last lines); found ${above} above and ${below} below${after}`
        : null;
    tildes.push({ row, problem });
  });
  return { rows: kept, tildes };
}

/**
 * Mark the edit of a hunk that holds a `~` line: where its old lines leave
 * out the range (`meta.gap`), or why it cannot. A `~` belongs to the hunk
 * whose header is the last one before it: every `~` from the hunk's header
 * up to `next` (the line of the next hunk's header), its last line
 * included.
 */
function withRange(edit: Edit, hunk: Hunk, tildes: readonly RangeMark[], next: number): void {
  const first = hunk.header.line.line;
  const inside = tildes.filter((t) => t.row.line.line > first && t.row.line.line < next);
  if (inside.length === 0 || edit.error) return;
  const span = rowSpan(inside[0].row);
  if (inside.length > 1) {
    edit.error = diagnostic('malformed', 'error', `the hunk at line ${first} holds ${inside.length} \`~\` lines (at lines ${inside.map((t) => t.row.line.line).join(', ')}); give each range removal its own hunk`, span);
    return;
  }
  if (inside[0].problem) {
    edit.error = diagnostic('malformed', 'error', inside[0].problem, span);
    return;
  }
  const line = inside[0].row.line.line;
  edit.meta = { ...edit.meta, gap: (edit.oldSpans ?? []).filter((s) => s.start.line < line).length };
}

/**
 * The edit of a hunk that has context lines only (no `-` or `+` line): it is
 * placed like any hunk (its lines must be in the file) and changes nothing,
 * with the warning `no-change` when placed (`meta.unchanged`, see
 * locate.ts). Null for a hunk with no lines at all.
 */
function unchanged(hunk: Hunk, file: string, index: number): Edit | null {
  if (hunk.old.length === 0 || hunk.changes > 0 || hunk.error) return null;
  const edit = hunkReplace(hunk, file, index, { unchanged: true });
  if (hunk.numbers) edit.cited = Math.max(1, hunk.numbers.oldStart);
  return edit;
}

/**
 * "Directives run in order": apply a patch's hunks to the text of a file
 * written earlier in the reply (`target`, a write or a creating append),
 * all placed in the text as that write left it, as the engine places hunks
 * in a given file (the engine's defaults). The hunks that apply change
 * `target` and are not edits of their own; the ones that do not are
 * returned with their error.
 */
function foldHunks(target: Edit, hunks: readonly Edit[], described: string): Edit[] {
  const failed: Edit[] = [];
  const placed: { edit: Edit; from: number; to: number; lines: string[] }[] = [];
  const fail = (edit: Edit, code: 'no-match' | 'ambiguous' | 'overlap', message: string) =>
    failed.push({ ...edit, error: diagnostic(code, 'error', `the hunk at line ${edit.span.start.line} does not apply to the text that ${described} wrote: ${message}`, edit.span) });
  for (const edit of hunks) {
    if (edit.error) {
      failed.push(edit);
      continue;
    }
    const where = placeInText(target.new, edit, ENGINE_DEFAULTS);
    if ('code' in where) fail(edit, where.code === 'ambiguous' ? 'ambiguous' : 'no-match', where.message);
    // A hunk that changes nothing (context lines only) overlaps none and writes nothing, as in a given file.
    else if (!(edit.finalNewline === undefined && sameLines(where.lines, target.new.slice(where.from, where.to)))) placed.push({ edit, ...where });
  }
  // Hunks that touch the same lines of that text both fail, as in a given file.
  placed.sort((a, b) => a.from - b.from || a.to - b.to);
  const clash = new Set<number>();
  for (let k = 1; k < placed.length; k++) {
    const a = placed[k - 1];
    const b = placed[k];
    if (b.from < a.to || (b.from === a.from && (a.from !== a.to || b.from !== b.to))) clash.add(k - 1).add(k);
  }
  let lines = target.new;
  let finalNewline: boolean | undefined;
  for (let k = placed.length - 1; k >= 0; k--) {
    const p = placed[k];
    if (clash.has(k)) {
      fail(p.edit, 'overlap', `it touches the same lines of that text as another hunk of this patch; merge them into one`);
      continue;
    }
    // A marker after a context line claims the text ends without a line break: wrong when it ends with one.
    if (p.edit.claimsNoFinalNewline && target.finalNewline !== false)
      p.edit.warnings.push(
        diagnostic(
          'stray-marker',
          'warning',
          `the "\\ No newline at end of file" marker after the last context line of the hunk at line ${p.edit.span.start.line} says that the text ${described} wrote ends without a line break, but it ends with one: the marker was ignored, and the text keeps its final line break`,
          p.edit.span,
        ),
      );
    lines = [...lines.slice(0, p.from), ...p.lines, ...lines.slice(p.to)];
    // The state the hunk nearest the end sets (`\ No newline at end of file`).
    finalNewline ??= p.edit.finalNewline;
  }
  target.new = lines;
  if (finalNewline !== undefined) target.finalNewline = finalNewline;
  return failed.sort((a, b) => a.span.from - b.span.from);
}

function sameLines(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((line, i) => line === b[i]);
}
