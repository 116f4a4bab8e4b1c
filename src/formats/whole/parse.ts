// Read a whole model reply into `write` edits: every fenced block is a whole
// file. spec/formats/whole.md is the contract; section names refer to it.

import { diagnostic } from '../../core/diagnostics.ts';
import { givenFile, givenPaths, namesOf } from '../../core/paths.ts';
import { endSpan, linesSpan, linesOf, type ReplyLine } from '../../core/reply.ts';
import type { Diagnostic, Edit, ParseContext, ParseResult } from '../../core/types.ts';
import { isShellInfo, scanFences, type FenceBlock } from './fences.ts';
import { namesFile, pathFromInfo, readBlockPathLine } from './paths.ts';

/** How a block's path was found, most reliable first ("Paths"). */
export type PathSource = 'line' | 'info' | 'mentioned' | 'only';
const RANK: Record<PathSource, number> = { line: 0, info: 0, mentioned: 1, only: 2 };

export interface BlockPath {
  path: string | null;
  source: PathSource | null;
  /** Index of the path line, when the path came from it. */
  line: number | null;
  /** Given files the prose before the block mentions in backticks, when more than one (for the message). */
  mentioned: string[];
  /** Why the line right above the block is not a path, when it was meant as one (no fallback then). */
  notPath: { line: number; why: string } | null;
}

/** The nearest non-blank line above the opening fence, not before `floor`. */
function lineAbove(lines: readonly ReplyLine[], open: number, floor: number): number | null {
  for (let k = open - 1; k >= floor; k--) if (lines[k].text.trim() !== '') return k;
  return null;
}

/** Given files the prose lines `[floor, end)` quote in backticks. */
function mentionedFiles(lines: readonly ReplyLine[], floor: number, end: number, files: readonly string[]): string[] {
  const seen: string[] = [];
  for (let k = floor; k < end; k++) {
    for (const m of lines[k].text.matchAll(/`([^`\n]+)`/g)) {
      const f = givenFile(m[1].trim(), files);
      if (f !== null && !seen.includes(f)) seen.push(f);
    }
  }
  return seen;
}

export interface PathRules {
  /** Rule 3: a given file the prose before the block mentions (whole only). */
  mentioned: boolean;
  /** The format was detected (`auto`): no rule 3 or 4, a block must name its file. */
  detected: boolean;
}

/**
 * The path of a fenced block: the line above it (in a detected reply, only
 * a line that names a file beyond doubt, see `namesFile`), else a path in
 * its info string; else, when the line above is prose (or there is none)
 * and the format was not detected, the one given file the prose before it mentions
 * (with `rules.mentioned`), else the only file given. A line above that is
 * meant as a path but cannot be one (`not-path`) stops the search: the
 * block names no file, and no other file is guessed for it.
 */
export function blockPath(
  lines: readonly ReplyLine[],
  block: FenceBlock,
  floor: number,
  files: readonly string[],
  rules: PathRules,
): BlockPath {
  const above = lineAbove(lines, block.open, floor);
  let notPath: BlockPath['notPath'] = null;
  if (above !== null) {
    const text = lines[above].text;
    const r = readBlockPathLine(text, files);
    // In a detected reply, a bare word above a fence (`Example`) is a caption, not a new file.
    if (r.kind === 'path' && (!rules.detected || namesFile(text, files)))
      return { path: r.path, source: 'line', line: above, mentioned: [], notPath: null };
    if (r.kind === 'not-path') notPath = { line: above, why: r.why };
  }
  const info = pathFromInfo(block.fence.info, files);
  if (info !== null) return { path: info, source: 'info', line: null, mentioned: [], notPath: null };
  if (notPath !== null || rules.detected) return { path: null, source: null, line: null, mentioned: [], notPath };
  const mentioned = rules.mentioned ? mentionedFiles(lines, floor, block.open, files) : [];
  if (mentioned.length === 1) return { path: mentioned[0], source: 'mentioned', line: null, mentioned: [], notPath: null };
  if (files.length === 1) return { path: files[0], source: 'only', line: null, mentioned, notPath: null };
  return { path: null, source: null, line: null, mentioned, notPath: null };
}

export function missingPath(lines: readonly ReplyLine[], block: FenceBlock, files: readonly string[], bp: BlockPath): Diagnostic {
  if (bp.notPath !== null) {
    const at = lines[bp.notPath.line];
    return diagnostic(
      'missing-path',
      'error',
      `the line before the fenced block at line ${lines[block.open].line}, ${JSON.stringify(at.text.trim())} (line ${at.line}), is not a file path: ${bp.notPath.why}; no other file is guessed for the block: put the file's path alone on the line before the opening fence`,
      linesSpan(at),
    );
  }
  const given = files.length === 0 ? 'no files were given' : `${files.length} files were given: ${namesOf(files)}`;
  const mentioned = bp.mentioned;
  const also = mentioned.length > 1 ? `; the text before it mentions ${mentioned.map((f) => `\`${f}\``).join(' and ')}, so it does not say which` : '';
  return diagnostic(
    'missing-path',
    'error',
    `no file path for the fenced block at line ${lines[block.open].line} (${given}${also}): put the file's path alone on the line before the opening fence`,
    linesSpan(lines[block.open]),
  );
}

/**
 * The error for a block that closed early (rule 6 of "Fences"): the line
 * that closed it, the text right after it, and the later line that could
 * end it too.
 */
export function closedEarlyError(lines: readonly ReplyLine[], block: FenceBlock, what: string): Diagnostic {
  const c = block.early[0];
  const closer = block.fence.char === 'tag' ? block.fence.closer! : block.fence.marker;
  const last = block.close ?? lines.length - 1;
  const longer =
    block.fence.char === 'tag'
      ? 'another fence (a different tag, or a run of backticks longer than any in the content)'
      : `a longer fence (${closer[0].repeat(closer.length + 1)})`;
  return diagnostic(
    'ambiguous-end',
    'error',
    `the fenced block that begins at line ${lines[block.open].line} is closed by line ${lines[c].line} (${lines[c].text.trim()}), but the text goes on right after it and line ${lines[last].line} could end the block too: the content holds a line that can close its fence, so it is not clear where it ends; ${what}: put content that holds ${closer} lines in ${longer}`,
    linesSpan(lines[block.open], lines[last]),
  );
}

/** The error for a complete block whose fences may be paired off by one (see `FenceBlock.after`). */
export function pairedAfterError(lines: readonly ReplyLine[], block: FenceBlock, what: string): Diagnostic {
  return diagnostic(
    'ambiguous-end',
    'error',
    `the fenced block that begins at line ${lines[block.open].line} comes after the block at line ${lines[block.after!].line}, which was closed early, and the reply ends inside a fenced block: the fence lines in between may be paired wrongly, so this block may be part of another file; ${what}: put content that holds fence lines in a longer fence`,
    linesSpan(lines[block.open], lines[block.close ?? lines.length - 1]),
  );
}

/**
 * The block's lines without a byte order mark at the start of the first
 * (models copy it from a file shown with one). A given file keeps its own
 * byte order mark state, as it keeps its line endings; a new file has one
 * byte order mark when the content began with one.
 */
export function withoutBom(content: readonly string[], isNew: boolean): string[] {
  if (content.length === 0 || !content[0].startsWith('\uFEFF')) return [...content];
  let k = 0;
  while (content[0][k] === '\uFEFF') k++;
  return [(isNew ? '\uFEFF' : '') + content[0].slice(k), ...content.slice(1)];
}

export function truncatedBlock(reply: string, lines: readonly ReplyLine[], block: FenceBlock, what: string): Diagnostic {
  const open = block.nested.find((n) => n.close === null);
  const closer = block.fence.char === 'tag' ? block.fence.closer! : block.fence.marker;
  const inner = open
    ? `; the fence opened inside it at line ${lines[open.open].line} is still open (a fence line with an info string opens a nested fence)`
    : '';
  return diagnostic(
    'truncated',
    'error',
    `the reply ends inside the fenced block that begins at line ${lines[block.open].line} (expected a closing fence ${closer}${inner}): it was cut off or its closing fence is missing; ${what}`,
    endSpan(reply, lines),
  );
}

/** The warning for a block whose end was decided by reading nested fences. */
export function nestedWarning(lines: readonly ReplyLine[], block: FenceBlock): Diagnostic | null {
  const first = block.nested[0];
  if (!first || first.close === null || block.close === null) return null;
  const marker = block.fence.marker;
  return diagnostic(
    'ambiguous-structure',
    'warning',
    `line ${lines[first.open].line} opens a fence inside the block that begins at line ${lines[block.open].line}; it was read as a nested fence closed at line ${lines[first.close].line}, and the block ends at line ${lines[block.close].line} (CommonMark would end it at line ${lines[first.close].line}): put content that holds ${marker} lines in a longer fence (${marker[0].repeat(marker.length + 1)})`,
    linesSpan(lines[first.open]),
  );
}

export function parseWhole(reply: string, context: ParseContext): ParseResult {
  const lines = linesOf(reply, context.lexed);
  const files = context.files;
  const detected = context.detected === true;
  const diagnostics: Diagnostic[] = [];
  const found: { edit: Edit; source: PathSource | null; open: number }[] = [];
  let floor = 0;
  for (const block of scanFences(lines)) {
    const bp = blockPath(lines, block, floor, files, { mentioned: true, detected });
    const next = block.close === null ? lines.length : block.close + 1;
    // A shell block that names no file is a command for the user, not a file
    // ("Shell blocks"); in a detected reply, so is any block that names none.
    if ((bp.source === null || bp.source === 'mentioned' || bp.source === 'only') && (isShellInfo(block.fence.info) || (detected && bp.path === null))) {
      floor = next;
      continue;
    }
    const first = bp.line !== null ? lines[bp.line] : lines[block.open];
    const last = lines[block.close ?? lines.length - 1];
    const warnings: Diagnostic[] = [];
    const nested = nestedWarning(lines, block);
    if (nested) warnings.push(nested);
    const edit: Edit = {
      index: 0,
      kind: 'write',
      file: bp.path ?? '',
      old: [],
      new: bp.path === null ? block.content : withoutBom(block.content, !givenPaths(files).has(bp.path)),
      span: linesSpan(first, last),
      warnings,
    };
    if (block.close === null) edit.error = truncatedBlock(reply, lines, block, 'the file was not written (a whole file is never replaced by part of one)');
    else if (block.early.length > 0) edit.error = closedEarlyError(lines, block, 'the file was not written');
    else if (block.after !== null) edit.error = pairedAfterError(lines, block, 'the file was not written');
    else if (bp.path === null) edit.error = missingPath(lines, block, files, bp);
    found.push({ edit, source: bp.source, open: block.open });
    floor = next;
  }

  // A block whose path is a guess gives way to a block that names the file ("Several blocks for one file").
  const best = new Map<string, number>();
  for (const f of found) {
    if (f.source === null) continue;
    const r = RANK[f.source];
    best.set(f.edit.file, Math.min(best.get(f.edit.file) ?? r, r));
  }
  const edits: Edit[] = [];
  for (const f of found) {
    if (f.source !== null && RANK[f.source] > best.get(f.edit.file)!) {
      const winner = found.find((g) => g.edit.file === f.edit.file && g.source !== null && RANK[g.source] === best.get(f.edit.file))!;
      const how = f.source === 'only' ? `the only file given, ${f.edit.file}` : `${f.edit.file}, which the text before it mentions`;
      diagnostics.push(
        diagnostic(
          'ambiguous-structure',
          'warning',
          `the fenced block at line ${lines[f.open].line} names no file (it would go to ${how}); the block at line ${winner.edit.span.start.line} names ${f.edit.file}, so this block was ignored`,
          f.edit.span,
        ),
      );
      continue;
    }
    f.edit.index = edits.length;
    edits.push(f.edit);
  }
  return { edits, diagnostics };
}
