// Read a whole model reply (prose, fences and all) as unified diffs: standard
// ones (`--- a/`, `+++ b/`, `@@ -a,b +c,d @@`) and aider's number-less form
// (`@@ ... @@`). spec/formats/udiff.md is the contract.

import { diagnostic } from '../../core/diagnostics.ts';
import { replyLines } from '../../core/reply.ts';
import type { Diagnostic, Edit, ParseContext, ParseResult } from '../../core/types.ts';
import { hunkEdit, rowSpan, rowsOf, scanDiff, type FileHeader, type Hunk } from './hunks.ts';

export const DEV_NULL = '/dev/null';

/** What a file header says: change, create or delete which file. */
export interface FileTarget {
  kind: 'modify' | 'create' | 'delete';
  path: string;
  error?: Diagnostic;
}

/**
 * The file a `--- `/`+++ ` pair names. Git's `a/` and `b/` prefixes are
 * removed when both sides carry them (`/dev/null` counts as either), unless
 * only the unstripped path is among the files given; a leading `./` is
 * removed. When the two paths differ, the new one is taken if it exists,
 * else the old one if it exists, else the new one.
 */
export function resolveHeader(header: FileHeader, files: readonly string[]): FileTarget {
  const { oldPath, newPath } = header;
  const oldNull = oldPath === DEV_NULL;
  const newNull = newPath === DEV_NULL;
  if (oldNull && newNull) {
    return {
      kind: 'modify',
      path: '',
      error: diagnostic('malformed', 'error', `the file header at line ${header.minus.line.line} has /dev/null on both sides: name the file on one of them`, rowSpan(header.minus, header.plus)),
    };
  }
  const git = (oldNull || oldPath.startsWith('a/')) && (newNull || newPath.startsWith('b/'));
  const dot = (p: string) => p.replace(/^(\.\/)+/, '');
  const pick = (raw: string, prefix: string) => {
    const stripped = raw.startsWith(prefix) ? dot(raw.slice(2)) : dot(raw);
    const plain = dot(raw);
    const order = git ? [stripped, plain] : [plain, stripped];
    return order.find((p) => files.includes(p)) ?? order[0];
  };
  const oldP = oldNull ? '' : pick(oldPath, 'a/');
  const newP = newNull ? '' : pick(newPath, 'b/');
  if (oldNull) return { kind: 'create', path: newP };
  if (newNull) return { kind: 'delete', path: oldP };
  const path = files.includes(newP) || !files.includes(oldP) ? newP : oldP;
  return { kind: 'modify', path };
}

interface Section extends FileTarget {
  header: FileHeader;
  hunks: Hunk[];
}

function missingPath(hunk: Hunk, files: readonly string[]): Diagnostic {
  return diagnostic(
    'missing-path',
    'error',
    `the hunk at line ${hunk.header.line.line} has no file header before it (a "--- a/PATH" line and a "+++ b/PATH" line) and ${
      files.length === 0 ? 'no file was' : `${files.length} files were`
    } given, so there is no telling which file it changes`,
    rowSpan(hunk.header),
  );
}

/** The one edit of a section that creates or deletes its file. */
function wholeFileEdit(section: Section, index: number, files: readonly string[]): Edit {
  const { header, hunks, path } = section;
  const last = hunks.length ? hunks[hunks.length - 1].last : header.plus;
  const creating = section.kind === 'create';
  const edit: Edit = {
    index,
    kind: creating ? 'write' : 'delete',
    file: path,
    old: [],
    new: creating ? hunks.flatMap((h) => h.new) : [],
    span: rowSpan(header.minus, last),
    warnings: [],
  };
  if (creating && hunks.length && hunks[hunks.length - 1].newNoEol) edit.finalNewline = false;
  const headerSpan = rowSpan(header.minus, header.plus);
  const wrong = hunks.find((h) => (creating ? h.old.length > 0 : h.new.length > 0));
  const error =
    hunks.find((h) => h.error)?.error ??
    (header.cut
      ? diagnostic('truncated', 'error', `the reply ends after the file header at line ${header.minus.line.line} before any hunk, inside a code fence that is never closed: it was cut off`, headerSpan)
      : undefined) ??
    (path === ''
      ? diagnostic('missing-path', 'error', `the file header at line ${header.minus.line.line} names no path`, headerSpan)
      : wrong
        ? diagnostic(
            'malformed',
            'error',
            creating
              ? `the diff creates ${path} ("--- /dev/null"), so its hunks can only add lines ("+"); the hunk at line ${wrong.header.line.line} keeps or removes lines`
              : `the diff deletes ${path} ("+++ /dev/null"), so its hunks can only remove lines ("-"); the hunk at line ${wrong.header.line.line} keeps or adds lines`,
            rowSpan(wrong.header, wrong.last),
          )
        : creating && files.includes(path)
          ? diagnostic(
              'file-exists',
              'error',
              `cannot create ${path}: it already exists ("--- /dev/null" says the file is new); to change it, write a diff against its current lines`,
              headerSpan,
            )
          : undefined);
  if (error) edit.error = error;
  return edit;
}

export function parseUdiff(reply: string, context: ParseContext): ParseResult {
  const files = context.files;
  const items = scanDiff(rowsOf(replyLines(reply)), 'reply');
  const edits: Edit[] = [];
  let section: Section | null = null;
  const flush = () => {
    if (section && section.kind !== 'modify') edits.push(wholeFileEdit(section, edits.length, files));
    section = null;
  };
  for (const item of items) {
    if (item.type === 'header') {
      flush();
      section = { ...resolveHeader(item.header, files), header: item.header, hunks: [] };
      continue;
    }
    const hunk = item.hunk;
    const current = section as Section | null;
    if (current && current.kind !== 'modify') {
      current.hunks.push(hunk);
      continue;
    }
    const file = current ? current.path : files.length === 1 ? files[0] : '';
    const fileError =
      current?.error ??
      (current && file === ''
        ? diagnostic('missing-path', 'error', `the file header at line ${current.header.minus.line.line} names no path`, rowSpan(current.header.minus, current.header.plus))
        : file === ''
          ? missingPath(hunk, files)
          : undefined);
    const edit = hunkEdit(hunk, file, edits.length, fileError);
    if (edit) edits.push(edit);
  }
  flush();
  return { edits, diagnostics: [] };
}
