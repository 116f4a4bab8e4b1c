// `read_file`: a file as a model should see it for the format it will write
// edits in (the format's view: numbered lines for ln-diff and roo, line:tag
// for hashline; the plain text for formats without a view), with the line
// count, so that the model can cite what it read. Every rule of disk mode
// applies to the path (disk.ts: no path outside the root, none into .git,
// no symlinked file, UTF-8 only).

import * as path from 'node:path';
import { getFormat } from '../../formats/index.ts';
import { parseText } from '../../core/text.ts';
import { readTarget, resolveTarget } from '../disk.ts';
import { CliError } from '../errors.ts';
import { outsideRoots, type Allowed } from './roots.ts';

/** The most lines one view may show; a longer file is read in ranges. */
export const MAX_VIEW_LINES = 2000;
/** The most characters one view may hold (a file of very long lines is read in ranges too). */
export const MAX_VIEW_CHARS = 256 * 1024;

export interface ReadArgs {
  path: string;
  format?: string | undefined;
  start_line?: number | undefined;
  end_line?: number | undefined;
}

export interface ReadView {
  path: string;
  format: string;
  /** How the lines are shown: `numbered` (ln-diff, roo), `tagged` (hashline) or `plain`. */
  view: 'numbered' | 'tagged' | 'plain';
  /** The file's lines (a final line break does not start another line). */
  total_lines: number;
  /** The lines shown, from 1, inclusive (0 and 0 for an empty file). */
  start_line: number;
  end_line: number;
  text: string;
}

/** How a format shows a file. */
export function viewKind(format: string): ReadView['view'] {
  if (format === 'hashline') return 'tagged';
  return getFormat(format)?.view ? 'numbered' : 'plain';
}

/**
 * A path from a tool call, relative to the root. An absolute path inside the
 * root is taken relative to it (clients know files by absolute path); any
 * other absolute path is left for resolveTarget to refuse.
 */
export function relativePath(base: string, file: string): string {
  if (!path.isAbsolute(file)) return file;
  const rel = path.relative(base, file);
  return rel !== '' && !rel.startsWith('..') && !path.isAbsolute(rel) ? rel : file;
}

/** The view of a file (or of lines `start_line`..`end_line` of it). Throws a CliError saying what to fix. */
export function readView(allowed: Allowed, args: ReadArgs, defaultFormat: string): ReadView {
  const formatName = args.format ?? defaultFormat;
  const format = getFormat(formatName);
  if (!format) throw new CliError(`unknown format "${formatName}"; call list_formats for the names`);
  const file = relativePath(allowed.base, args.path);
  const target = resolveTarget(allowed.base, file);
  const outside = outsideRoots(allowed, file, target.real);
  if (outside !== null) throw new CliError(outside);
  if (!target.exists) throw new CliError(`${file}: no such file (paths are relative to ${allowed.base})`);
  const { text } = readTarget(target);
  if (text.includes('\0')) throw new CliError(`${file}: a binary file (it holds NUL bytes); only text files can be read and edited`);

  const total = parseText(text).lines.length;
  const start = args.start_line ?? 1;
  const end = Math.min(args.end_line ?? total, total);
  if (total > 0 && start > total) throw new CliError(`start_line ${start} is past the end of ${file}, which has ${total} lines`);
  if (args.end_line !== undefined && args.end_line < start) throw new CliError(`end_line ${args.end_line} is before start_line ${start}`);
  if (total > 0 && end - start + 1 > MAX_VIEW_LINES)
    throw new CliError(
      `${file} has ${total} lines; one read shows at most ${MAX_VIEW_LINES}: pass start_line and end_line (e.g. 1 and ${MAX_VIEW_LINES})`,
    );

  const full = format.view ? format.view(text) : text;
  let shown = '';
  if (total > 0) {
    const lines = full.split('\n');
    const closed = full.endsWith('\n');
    if (closed) lines.pop();
    // Lines a view shows before the file's (hashline's `file_tag:` line) are shown with every range.
    const head = Math.max(0, lines.length - total);
    shown = [...lines.slice(0, head), ...lines.slice(head + start - 1, head + end)].join('\n');
    // The plain text keeps the file's own line endings (and its missing final line break).
    if (closed || end < total) shown += '\n';
  }
  if (shown.length > MAX_VIEW_CHARS)
    throw new CliError(
      `lines ${start}-${end} of ${file} are ${shown.length} characters; one read shows at most ${MAX_VIEW_CHARS}: ask for fewer lines with start_line and end_line`,
    );
  return {
    path: file,
    format: format.name,
    view: viewKind(format.name),
    total_lines: total,
    start_line: total === 0 ? 0 : start,
    end_line: total === 0 ? 0 : end,
    text: shown,
  };
}
