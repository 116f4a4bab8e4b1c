// The human summary of `ln-diff apply`: one line per edit, then a totals line.
// Paths and messages come from the reply: each is written through
// `printable` (errors.ts), so a path holding a newline or an escape sequence
// can neither forge a line of the summary nor reach the terminal.

import type { ApplyResult, Diagnostic, EditResult } from '../core/types.ts';
import { printable, shown } from './errors.ts';

export interface Style {
  ok(s: string): string;
  warn(s: string): string;
  fail(s: string): string;
  dim(s: string): string;
}

const plain: Style = { ok: (s) => s, warn: (s) => s, fail: (s) => s, dim: (s) => s };
const ansi = (open: number, close: number) => (s: string) => `\x1b[${open}m${s}\x1b[${close}m`;
const colour: Style = { ok: ansi(32, 39), warn: ansi(33, 39), fail: ansi(31, 39), dim: ansi(2, 22) };

/** ANSI colour only for a TTY, and never when NO_COLOR is set. */
export function styleFor(stream: { isTTY?: boolean }, env: NodeJS.ProcessEnv = process.env): Style {
  return stream.isTTY === true && env.NO_COLOR === undefined ? colour : plain;
}

/** A similarity shown with two decimals, never rounded up to a perfect 1.00. */
function similarity(s: number): string {
  return (Math.floor(s * 100) / 100).toFixed(2);
}

function where(e: EditResult): string {
  const r = e.range;
  switch (e.kind) {
    case 'delete':
      return 'delete file';
    case 'write':
      return 'write whole file';
    case 'append':
      return r ? `append at line ${r.start}` : 'append';
    default:
      if (!r) return 'lines ?';
      return r.end >= r.start ? `lines ${r.start}-${r.end}` : `insert before line ${r.start}`;
  }
}

function how(e: EditResult): string {
  if (e.match === null) return '';
  let out = ` ${e.match}`;
  if (e.offset !== null && e.offset !== 0) out += ` ${e.offset > 0 ? '+' : ''}${e.offset}`;
  if (e.match === 'fuzzy' && e.similarity !== null) out += ` ${similarity(e.similarity)}`;
  return out;
}

/** Which edit: where it starts in the reply (what a person or a model can find it by). */
export function editRef(e: Pick<EditResult, 'reply'>): string {
  return `edit at reply line ${e.reply.start.line}`;
}

function diagnosticLine(d: Diagnostic, indent: string, style: Style): string {
  const mark = d.severity === 'error' ? style.fail('!') : style.warn('!');
  return `${indent}${mark} ${d.code}: ${style.dim(shown(d.message))}`;
}

/** `✓ src/app.py lines 12-14 exact`, `~ … fuzzy 0.97`, `✗ src/app.py no-match: …`, plus indented warnings. */
export function editLines(e: EditResult, style: Style): string[] {
  const file = e.file === '' ? '(no path)' : printable(e.file);
  let head: string;
  if (e.status === 'failed') {
    head = `${style.fail('✗')} ${file} ${e.code ?? 'failed'} (${editRef(e)}): ${shown(e.message)}`;
  } else {
    const mark = e.match === 'fuzzy' ? style.warn('~') : style.ok('✓');
    head = `${mark} ${file} ${where(e)}${how(e)}`;
    if (e.code !== null) head += ` ${style.dim(`(${e.code}: ${shown(e.message)})`)}`;
  }
  return [head, ...(e.warnings ?? []).map((w) => diagnosticLine(w, '    ', style))];
}

export interface FileChangeLine {
  file: string;
  action: 'create' | 'modify' | 'delete';
  /** Why it was not done (or, in a dry run, would not be); absent when it was done. */
  failure?: string | undefined;
  /** Said after a change that was done (`--atomic could not put it back: …`). */
  note?: string | undefined;
  /** Said after a change that was done as asked, with a side effect to know of (a hard link left with the old text). */
  warning?: string | undefined;
}

const DONE = { create: 'created', modify: 'modified', delete: 'deleted' } as const;

/** `  modified a.txt`, `  would create b.txt`, `  ✗ not modified c.txt: why`, `  ✗ would not delete d.txt: why`. */
export function changeLine(c: FileChangeLine, dryRun: boolean, style: Style): string {
  if (c.failure !== undefined)
    return `  ${style.fail('✗')} ${dryRun ? `would not ${c.action}` : `not ${DONE[c.action]}`} ${printable(c.file)}: ${shown(c.failure)}`;
  const note = c.note === undefined ? '' : ` ${style.fail(`(${shown(c.note)})`)}`;
  const warning = c.warning === undefined ? '' : ` ${style.warn(`(${shown(c.warning)})`)}`;
  return `  ${style.dim(dryRun ? `would ${c.action}` : DONE[c.action])} ${printable(c.file)}${note}${warning}`;
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

/** What happened to the files, for the totals line. */
export interface FileTotals {
  /** Files the applied edits change. */
  total: number;
  /** Files changed (dry run: that would change). */
  changed: number;
  /** Files that could not be written or deleted, each for its own reason (dry run: that could not be). */
  failed: number;
  /** Files not written or deleted only because another could not be (deletions after a failed write, --atomic). */
  heldBack: number;
  dryRun: boolean;
  /** --atomic was asked. */
  atomic: boolean;
  /** --atomic kept every file as it was because an edit failed. */
  held: boolean;
}

/**
 * `3 edits: 2 applied, 1 failed; 1 file changed` (dry run: says nothing was
 * written; `held`: --atomic kept every file as it was because an edit failed;
 * files that could not be written are counted apart).
 */
export function totalsLine(result: ApplyResult, files: FileTotals, style: Style): string {
  const applied = result.edits.filter((e) => e.status === 'applied').length;
  const failed = result.edits.length - applied;
  const counts = `${plural(result.edits.length, 'edit')}: ${style.ok(`${applied} applied`)}, ${
    failed > 0 ? style.fail(`${failed} failed`) : `${failed} failed`
  }`;
  const { total, changed, dryRun } = files;
  const unwritten = style.fail(`${files.failed} could not be written`);
  let text: string;
  if (files.held)
    text = dryRun
      ? `dry run, --atomic: an edit failed, so nothing would be written (${plural(total, 'file')} would otherwise change)`
      : `--atomic: an edit failed, so nothing was written (${plural(total, 'file')} would have changed)`;
  else if (files.atomic && files.failed > 0)
    text = dryRun
      ? `dry run, --atomic: ${unwritten}, so nothing would be written (${plural(total, 'file')} would otherwise change)`
      : changed === 0
        ? `--atomic: ${unwritten}, so nothing was written (${plural(total, 'file')} would have changed)`
        : `--atomic: ${unwritten}; ${style.fail(`${plural(changed, 'file')} changed and could not be put back`)}`;
  else {
    const problems = `${files.failed > 0 ? `, ${unwritten}` : ''}${files.heldBack > 0 ? `, ${style.fail(`${plural(files.heldBack, 'deletion')} held back`)}` : ''}`;
    text = dryRun ? `dry run: ${plural(changed, 'file')} would change${problems}, nothing written` : `${plural(changed, 'file')} changed${problems}`;
  }
  return `${counts}; ${text}`;
}

/** The whole summary for a result, without the file-change lines. */
export function resultLines(result: ApplyResult, style: Style): string[] {
  const lines: string[] = [];
  for (const e of result.edits) lines.push(...editLines(e, style));
  for (const d of result.diagnostics ?? []) lines.push(diagnosticLine(d, '', style));
  return lines;
}
