// Read a whole model reply (prose, fences and all) into apply_patch (V4A)
// edits. spec/formats/apply-patch.md is the contract.
//
// A patch runs from `*** Begin Patch` to `*** End Patch`; everything outside
// is prose. Inside, each file section becomes edits: `*** Add File` a `write`,
// `*** Delete File` a `delete`, `*** Update File` one `replace` per chunk (or a
// `rename` when it only moves the file).

import { isBareBlank } from '../../core/blank.ts';
import { at, diagnostic } from '../../core/diagnostics.ts';
import { notGivenMessage, resolveFile } from '../../core/paths.ts';
import { columnSpan, endSpan, linesSpan, linesOf, type ReplyLine } from '../../core/reply.ts';
import type { Diagnostic, Edit, ParseContext, ParseResult, Span } from '../../core/types.ts';

export const BEGIN = '*** Begin Patch';
export const END = '*** End Patch';
export const ADD = '*** Add File:';
export const DELETE = '*** Delete File:';
export const UPDATE = '*** Update File:';
export const MOVE = '*** Move to:';
export const EOF_MARKER = '*** End of File';

const FENCE = /^(`{3,}|~{3,})/;
/** A unified-diff range at the start of an `@@` line's text: `-12,3 +12,4 @@`. */
const UNIFIED_RANGE = /^-\d+(?:,\d+)? \+\d+(?:,\d+)? @@ ?/;

const show = (s: string) => JSON.stringify(s);

/** The text of an `@@` line after the `@@`: the anchor, or '' for none. */
export function anchorText(text: string): string {
  let rest = text.slice(2);
  if (rest.startsWith(' ')) rest = rest.slice(1);
  rest = rest.replace(UNIFIED_RANGE, '');
  return rest.trim() === '' ? '' : rest;
}

/** A proper prefix of a marker line: what a marker looks like when the reply is cut inside it. */
function isCutMarker(text: string): boolean {
  return text !== '' && [BEGIN, END, ADD, DELETE, UPDATE, MOVE, EOF_MARKER].some((m) => m.length > text.length && m.startsWith(text));
}

interface BodyLine {
  line: ReplyLine;
  op: ' ' | '-' | '+';
  text: string;
  /** The reply line had no prefix (an empty context line). */
  bare: boolean;
}

interface Chunk {
  anchors: string[];
  first: ReplyLine;
  last: ReplyLine;
  body: BodyLine[];
  /** Blank lines after the last body line: context if more body lines or `*** End of File` follow, else separators. */
  blanks: ReplyLine[];
  eof: boolean;
  error?: Diagnostic;
}

type Section =
  | { kind: 'add'; header: ReplyLine; path: string; last: ReplyLine; lines: ReplyLine[]; blanks: ReplyLine[]; error?: Diagnostic }
  | { kind: 'delete'; header: ReplyLine; path: string; last: ReplyLine; error?: Diagnostic }
  | {
      kind: 'update';
      header: ReplyLine;
      path: string;
      last: ReplyLine;
      moveTo?: string;
      moveLine?: ReplyLine;
      chunks: Chunk[];
      /** The chunk still taking lines (not closed by `*** End of File`). */
      open: Chunk | null;
    }
  | { kind: 'bogus'; header: ReplyLine; path: string; last: ReplyLine; error: Diagnostic };

interface Envelope {
  begin: ReplyLine;
  /** The patch started at a file header: `*** Begin Patch` is missing. */
  orphan: boolean;
}

/** A line that could belong to a patch: a chunk or added line, an `@@` line, a `***` marker. */
const patchShaped = (text: string) => /^[-+@]|^\*\*\*|^ \S/.test(text);

/**
 * For each line that could end a patch, the `*** End Patch` line after it
 * when one follows with patch-shaped lines between and no `*** Begin Patch`
 * (keyed by reply line number). One backward pass.
 */
/**
 * For a patch that seems cut off: what an \`*** End Patch\` with blanks
 * before it, after the patch's begin line (1-based), is taken for, when
 * there is one ('' when not): markers start in column 1, so it is no end.
 */
function indentedEnd(lines: readonly ReplyLine[], begin: number): string {
  const line = lines.find((l) => l.line > begin && l.text !== END && l.text.trim() === END);
  return line
    ? `; or, if the patch was meant to end at line ${line.line}, ${show(line.text)} is indented: marker lines start in column 1, and an indented one is no marker (remove the blanks before it)`
    : '';
}

function strayEndsAfter(lines: readonly ReplyLine[]): Map<number, ReplyLine> {
  const out = new Map<number, ReplyLine>();
  let end: ReplyLine | null = null; // the next `*** End Patch` with no `*** Begin Patch` before it
  let shaped = false; // a patch-shaped line between here and `end`
  for (let i = lines.length - 1; i >= 0; i--) {
    const line = lines[i];
    if (end && shaped) out.set(line.line, end);
    const t = line.text.trim();
    if (t === BEGIN) {
      end = null;
      shaped = false;
    } else if (line.text.trimEnd() === END) {
      end = line;
      shaped = false;
    } else if (end && patchShaped(line.text)) {
      shaped = true;
    }
  }
  return out;
}

export function parseApplyPatch(reply: string, context: ParseContext): ParseResult {
  const lines = linesOf(reply, context.lexed);
  const files = new Set(context.files);
  const edits: Edit[] = [];
  const diagnostics: Diagnostic[] = [];
  let envelope: Envelope | null = null;
  let section: Section | null = null;

  const error = (code: Diagnostic['code'], message: string, span: Span): Diagnostic => diagnostic(code, 'error', message, span);
  /** The file a path after a marker names: a given file up to `./`, `\\` and letter case (core `resolveFile`), else the path normalised. */
  const pathOf = (written: string): string => {
    const p = written.trim();
    return p === '' ? '' : resolveFile(p, context.files);
  };
  const strayEnds = strayEndsAfter(lines);
  const malformedAt = (line: ReplyLine, message: string) =>
    error('malformed', `${at({ line: line.line, column: 1 })}: ${message}`, linesSpan(line));

  const push = (e: Omit<Edit, 'index' | 'warnings'> & { warnings?: Diagnostic[] }) => {
    edits.push({ ...e, index: edits.length, warnings: e.warnings ?? [] } as Edit);
  };

  /** The first error that applies, in order of precedence. */
  const firstError = (...errors: (Diagnostic | undefined)[]) => errors.find((e) => e !== undefined);

  const orphanError = (env: Envelope): Diagnostic =>
    error(
      'malformed',
      `${at({ line: env.begin.line, column: 1 })}: a file header outside a patch: \`${BEGIN}\` is missing before ${show(env.begin.text)}; wrap the patch in \`${BEGIN}\` ... \`${END}\``,
      linesSpan(env.begin),
    );

  const pathError = (s: { header: ReplyLine; path: string }): Diagnostic | undefined =>
    s.path === ''
      ? error('missing-path', `${at({ line: s.header.line, column: 1 })}: ${show(s.header.text.trim())} names no file; write the path after the colon`, linesSpan(s.header))
      : undefined;

  /**
   * Emit the edits of the section being read. `cut`: the reply ended inside
   * it (no `*** End Patch`). `end`: the line that ended the patch (`*** End
   * Patch`, or a fence standing in for it), when the section was open there.
   */
  const closeSection = (cut: boolean, end?: ReplyLine) => {
    const s = section;
    section = null;
    if (!s) return;
    const env = envelope!;
    const orphan = env.orphan ? orphanError(env) : undefined;
    // An end marker with another one after it (patch lines between, no `*** Begin Patch`) may be a line of the open edit.
    const stray = end ? strayEnds.get(end.line) : undefined;
    const ambiguous = (what: string) =>
      end && stray
        ? error(
            'ambiguous-end',
            `${end.text.trim() === END ? `the \`${END}\`` : 'the fence'} at line ${end.line} ended the patch inside ${what}, but another \`${END}\` follows at line ${stray.line} with patch lines between and no \`${BEGIN}\`: the first may be a line of ${what} written without its "+" or " " prefix, so it was not applied; write every line of the content with its prefix (an added line "*** End Patch" is "+*** End Patch"), and end the patch once`,
            linesSpan(end),
          )
        : undefined;
    const truncated = (what: string, span: Span) =>
      cut
        ? error(
            'truncated',
            `the reply ends inside ${what} (line ${span.end.line}) without \`${END}\`: it was cut off; send the patch again from this point${indentedEnd(lines, env.begin.line)}`,
            span,
          )
        : undefined;

    switch (s.kind) {
      case 'bogus':
        push({ kind: 'replace', file: s.path, old: [], new: [], span: linesSpan(s.header, s.last), error: firstError(orphan, s.error) });
        return;
      case 'delete': {
        const span = linesSpan(s.header, s.last);
        push({
          kind: 'delete',
          file: s.path,
          old: [],
          new: [],
          span,
          error: firstError(orphan, truncated(`the \`${DELETE}\` section`, span), ambiguous(`the \`${DELETE}\` section`), pathError(s), s.error),
        });
        return;
      }
      case 'add': {
        const span = linesSpan(s.header, s.last);
        const exists =
          s.path !== '' && files.has(s.path)
            ? error('file-exists', `cannot add ${s.path}: it already exists; to change it, use \`${UPDATE} ${s.path}\``, linesSpan(s.header))
            : undefined;
        push({
          kind: 'write',
          file: s.path,
          old: [],
          new: s.lines.map((l) => l.text.slice(1)),
          span,
          error: firstError(orphan, truncated(`the added file ${s.path}`, span), ambiguous(`the added file ${s.path}`), pathError(s), s.error, exists),
        });
        return;
      }
      case 'update': {
        const header = pathError(s);
        const missing =
          s.path !== '' && !files.has(s.path)
            ? error(
                'file-not-found',
                notGivenMessage(s.path, context.files, `to create it, use \`${ADD} ${s.path}\``, { prefix: `cannot update ${s.path}: `, subject: 'it' }),
                linesSpan(s.header),
              )
            : undefined;
        const target =
          s.moveTo !== undefined && s.moveTo !== s.path && files.has(s.moveTo)
            ? error('file-exists', `cannot move ${s.path} to ${s.moveTo}: ${s.moveTo} already exists`, linesSpan(s.moveLine!))
            : undefined;
        const moveEmpty =
          s.moveTo === ''
            ? error('missing-path', `${at({ line: s.moveLine!.line, column: 1 })}: \`${MOVE}\` names no path`, linesSpan(s.moveLine!))
            : undefined;
        if (s.chunks.length === 0) {
          const span = linesSpan(s.header, s.last);
          if (s.moveTo !== undefined) {
            push({
              kind: 'rename',
              file: s.path,
              old: [],
              new: [],
              moveTo: s.moveTo,
              span,
              error: firstError(orphan, truncated(`the \`${UPDATE}\` section`, span), ambiguous(`the \`${UPDATE}\` section`), header, moveEmpty, missing),
            });
          } else {
            push({
              kind: 'replace',
              file: s.path,
              old: [],
              new: [],
              span,
              error: firstError(
                orphan,
                truncated(`the \`${UPDATE}\` section`, span),
                ambiguous(`the \`${UPDATE}\` section`),
                header,
                malformedAt(s.header, `${show(s.header.text.trim())} has no chunks: follow it with \`@@\` and the chunk's lines, or with \`${MOVE} PATH\` to rename the file`),
              ),
            });
          }
          return;
        }
        s.chunks.forEach((c, k) => {
          const open = k === s.chunks.length - 1 && !c.eof;
          const ended = open ? firstError(cut ? truncated('this chunk', linesSpan(c.first, c.last)) : undefined, ambiguous('this chunk')) : undefined;
          pushChunk(s.path, c, s.moveTo, firstError(orphan, ended, header, moveEmpty, c.error, missing, target));
        });
        return;
      }
    }
  };

  const pushChunk = (file: string, c: Chunk, moveTo: string | undefined, err: Diagnostic | undefined) => {
    const old: string[] = [];
    const oldSpans: Span[] = [];
    const neu: string[] = [];
    const keep: (number | null)[] = [];
    for (const b of c.body) {
      const span = b.bare ? columnSpan(b.line, 0, 0) : columnSpan(b.line, 1, b.line.text.length);
      if (b.op === ' ') {
        keep.push(old.length);
        neu.push(b.text);
        old.push(b.text);
        oldSpans.push(span);
      } else if (b.op === '-') {
        old.push(b.text);
        oldSpans.push(span);
      } else {
        keep.push(null);
        neu.push(b.text);
      }
    }
    const noLines =
      c.body.length === 0
        ? malformedAt(c.first, `the \`@@\` line is not followed by any chunk lines (" " context, "-" remove, "+" add)`)
        : undefined;
    push({
      kind: 'replace',
      file,
      old,
      new: neu,
      keep,
      oldSpans,
      meta: { anchors: c.anchors, eof: c.eof },
      ...(moveTo !== undefined ? { moveTo } : {}),
      span: linesSpan(c.first, c.last),
      error: firstError(err, noLines),
    });
  };

  /** Close the current chunk of an update section: trailing blank lines were separators. */
  const closeChunk = (s: Extract<Section, { kind: 'update' }>) => {
    if (s.open) s.open.blanks = [];
    s.open = null;
  };

  const startChunk = (s: Extract<Section, { kind: 'update' }>, first: ReplyLine, anchors: string[]): Chunk => {
    const c: Chunk = { anchors, first, last: first, body: [], blanks: [], eof: false };
    s.chunks.push(c);
    s.open = c;
    return c;
  };

  const fileHeader = (text: string): { kind: 'add' | 'delete' | 'update'; path: string } | null => {
    for (const [marker, kind] of [
      [ADD, 'add'],
      [DELETE, 'delete'],
      [UPDATE, 'update'],
    ] as const) {
      if (text.startsWith(marker)) return { kind, path: pathOf(text.slice(marker.length)) };
    }
    return null;
  };

  const startSection = (line: ReplyLine, h: { kind: 'add' | 'delete' | 'update'; path: string }) => {
    if (h.kind === 'add') section = { kind: 'add', header: line, path: h.path, last: line, lines: [], blanks: [] };
    else if (h.kind === 'delete') section = { kind: 'delete', header: line, path: h.path, last: line };
    else section = { kind: 'update', header: line, path: h.path, last: line, chunks: [], open: null };
  };

  const startBogus = (line: ReplyLine, message: string, path: string) => {
    section = { kind: 'bogus', header: line, path, last: line, error: malformedAt(line, message) };
  };

  const unknownMarker = (text: string) =>
    `unknown marker ${show(text)}; expected \`${ADD} PATH\`, \`${UPDATE} PATH\`, \`${DELETE} PATH\`, \`${MOVE} PATH\` (right after \`${UPDATE}\`), \`${EOF_MARKER}\` (after a chunk's lines) or \`${END}\``;

  for (const line of lines) {
    const text = line.text;
    const trimmed = text.trim();

    if (!envelope) {
      if (trimmed === BEGIN) {
        envelope = { begin: line, orphan: false };
        continue;
      }
      const h = fileHeader(text);
      if (!h) continue;
      envelope = { begin: line, orphan: true };
      startSection(line, h);
      continue;
    }

    // Inside a patch. A last line cut short inside a marker still closes what came before it.
    if (!line.terminated && line === lines[lines.length - 1] && isCutMarker(text)) {
      closeSection(false);
      diagnostics.push(
        diagnostic('truncated', 'error', `the reply ends inside the marker line ${show(text)} (line ${line.line}) of the patch begun at line ${envelope.begin.line}: it was cut off; send the rest of the patch`, linesSpan(line)),
      );
      envelope = null;
      continue;
    }
    if (text.startsWith('***')) {
      const marker = text.trimEnd();
      if (marker === END) {
        closeSection(false, line);
        envelope = null;
        continue;
      }
      if (marker === BEGIN) {
        closeSection(false);
        diagnostics.push(
          diagnostic('inferred-marker', 'warning', `\`${END}\` is missing before the \`${BEGIN}\` at line ${line.line}; the patch begun at line ${envelope.begin.line} was taken to end there`, linesSpan(line)),
        );
        envelope = { begin: line, orphan: false };
        continue;
      }
      const h = fileHeader(marker);
      if (h) {
        closeSection(false);
        startSection(line, h);
        continue;
      }
      const s = section as Section | null;
      if (marker.startsWith(MOVE)) {
        if (s && s.kind === 'update' && s.chunks.length === 0 && s.moveTo === undefined) {
          s.moveTo = pathOf(marker.slice(MOVE.length));
          s.moveLine = line;
          s.last = line;
        } else {
          closeSection(false);
          startBogus(line, `\`${MOVE}\` must come right after \`${UPDATE} PATH\`, before the first chunk`, s?.path ?? '');
        }
        continue;
      }
      if (marker === EOF_MARKER) {
        if (s && s.kind === 'update') {
          const c = s.open;
          if (c && c.body.length > 0) {
            // Blank lines right before the marker are the file's last lines.
            for (const b of c.blanks) c.body.push({ line: b, op: ' ', text: '', bare: true });
            c.blanks = [];
            c.eof = true;
            c.last = line;
            s.last = line;
            s.open = null;
          } else {
            const e: Chunk = c ?? { anchors: [], first: line, last: line, body: [], blanks: [], eof: true };
            if (!c) s.chunks.push(e);
            e.last = line;
            e.eof = true;
            e.error ??= malformedAt(line, `\`${EOF_MARKER}\` must follow a chunk's lines`);
            s.open = null;
            s.last = line;
          }
        } else {
          closeSection(false);
          startBogus(line, `\`${EOF_MARKER}\` must end a chunk of an \`${UPDATE}\` section`, s?.path ?? '');
        }
        continue;
      }
      closeSection(false);
      const colon = marker.indexOf(':');
      startBogus(line, unknownMarker(marker), colon >= 0 ? marker.slice(colon + 1).trim() : (s?.path ?? ''));
      continue;
    }

    if (FENCE.test(text)) {
      // A closing fence: the model ended the patch without its end marker.
      closeSection(false, line);
      diagnostics.push(
        diagnostic('inferred-marker', 'warning', `\`${END}\` is missing: the fence at line ${line.line} was taken to end the patch begun at line ${envelope.begin.line}`, linesSpan(line)),
      );
      envelope = null;
      continue;
    }

    const s = section as Section | null;
    if (!s) {
      if (isBareBlank(text)) continue;
      startBogus(line, `expected a file header (\`${ADD} PATH\`, \`${UPDATE} PATH\` or \`${DELETE} PATH\`) or \`${END}\`; found ${show(text)}`, '');
      continue;
    }
    switch (s.kind) {
      case 'bogus':
        s.last = line;
        break;
      case 'delete':
        if (isBareBlank(text)) break;
        s.error ??= malformedAt(line, `\`${DELETE} ${s.path}\` stands alone: the lines after it must be another file header or \`${END}\`; found ${show(text)}`);
        s.last = line;
        break;
      case 'add':
        if (text.startsWith('+')) {
          if (s.blanks.length > 0)
            s.error ??= malformedAt(s.blanks[0], `an empty line inside an added file; every line of an added file starts with "+" (write an empty line as "+")`);
          s.blanks = [];
          s.lines.push(line);
          s.last = line;
        } else if (isBareBlank(text)) {
          s.blanks.push(line);
        } else {
          s.error ??= malformedAt(line, `every line of an added file starts with "+"; found ${show(text)}`);
          s.last = line;
        }
        break;
      case 'update': {
        // (An `@` alone on a last line cut short is the start of an `@@` line.)
        if (text.startsWith('@@') || (text === '@' && !line.terminated && line === lines[lines.length - 1])) {
          const anchor = anchorText(text);
          const c = s.open;
          if (c && c.body.length === 0 && !c.error) {
            // Stacked `@@` lines narrow the search one after another.
            if (anchor !== '') c.anchors.push(anchor);
            c.last = line;
          } else {
            closeChunk(s);
            startChunk(s, line, anchor === '' ? [] : [anchor]);
          }
          s.last = line;
          break;
        }
        if (isBareBlank(text)) {
          if (s.open && s.open.body.length > 0) s.open.blanks.push(line);
          break;
        }
        const op = text[0];
        let c = s.open;
        if (!c) {
          c = startChunk(s, line, []);
          if (s.chunks.length > 1) {
            c.error = malformedAt(line, `a chunk after \`${EOF_MARKER}\` must start with an \`@@\` line; found ${show(text)}`);
            // Chunk lines right after `*** End of File`: the marker may be a line of the chunk before, unprefixed.
            const before = s.chunks[s.chunks.length - 2];
            if (before.eof && (op === ' ' || op === '-' || op === '+'))
              before.error ??= error(
                'ambiguous-end',
                `the \`${EOF_MARKER}\` at line ${before.last.line} ended this chunk, but chunk lines follow it at line ${line.line} with no \`@@\` line: it may be a line of the chunk written without its "+" or " " prefix, so the chunk was not applied; write every line of the content with its prefix ("+${EOF_MARKER}"), and start a new chunk with \`@@\``,
                linesSpan(before.last),
              );
          }
        }
        if (op === ' ' || op === '-' || op === '+') {
          for (const b of c.blanks) c.body.push({ line: b, op: ' ', text: '', bare: true });
          c.blanks = [];
          c.body.push({ line, op, text: text.slice(1), bare: false });
        } else {
          c.blanks = [];
          c.error ??= malformedAt(
            line,
            `expected a chunk line starting with " " (context), "-" (remove) or "+" (add), an \`@@\` line or a \`***\` marker; found ${show(text)}`,
          );
        }
        c.last = line;
        s.last = line;
        break;
      }
    }
  }

  if (envelope) {
    const env = envelope as Envelope;
    const open = section as Section | null;
    const cutSomething =
      open !== null &&
      open.kind !== 'bogus' &&
      !(open.kind === 'update' && open.chunks.length > 0 && open.chunks[open.chunks.length - 1].eof);
    closeSection(!env.orphan);
    if (!env.orphan && !cutSomething) {
      diagnostics.push(
        diagnostic('truncated', 'error', `the reply ends without \`${END}\` for the patch begun at line ${env.begin.line}: it was cut off; send the rest of the patch${indentedEnd(lines, env.begin.line)}`, endSpan(reply, lines)),
      );
    }
  }

  return { edits, diagnostics };
}
