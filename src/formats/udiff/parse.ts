// Read a whole model reply (prose, fences and all) as unified diffs: standard
// ones (`--- a/`, `+++ b/`, `@@ -a,b +c,d @@`) and aider's number-less form
// (`@@ ... @@`). spec/formats/udiff.md is the contract.

import { diagnostic } from '../../core/diagnostics.ts';
import { givenFile, givenPaths, normalizePath } from '../../core/paths.ts';
import { linesOf } from '../../core/reply.ts';
import type { Diagnostic, Edit, ParseContext, ParseResult } from '../../core/types.ts';
import { DEV_NULL, hunkEdit, rowSpan, rowsOf, scanDiff, type FileHeader, type Hunk } from './hunks.ts';

export { DEV_NULL };

/** What a file header says: change, create or delete which file. */
export interface FileTarget {
  kind: 'modify' | 'create' | 'delete';
  path: string;
  error?: Diagnostic;
}

/**
 * The file a `--- `/`+++ ` pair names. Git's `a/` and `b/` prefixes are
 * removed when both sides carry them (`/dev/null` counts as either), unless
 * only the unstripped path names a given file. A path names a given file as
 * core `givenFile` says: written the same, or differing only by `./`, `\`
 * or letter case (`./src/App.js`, `src\App.js`, `src/app.js` name a given
 * `src/App.js`). When the two paths differ, the new one is taken if it names
 * a given file, else the old one if it does, else the new one.
 */
export function resolveHeader(header: FileHeader, files: readonly string[]): FileTarget {
  const oldPath = normalizePath(header.oldPath);
  const newPath = normalizePath(header.newPath);
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
  /** The path a side names, and whether it is a given file. */
  const pick = (raw: string, prefix: string): { path: string; given: boolean } => {
    const stripped = raw.startsWith(prefix) ? normalizePath(raw.slice(2)) : raw;
    const order = git ? [stripped, raw] : [raw, stripped];
    for (const p of order) {
      const given = givenFile(p, files);
      if (given !== null) return { path: given, given: true };
    }
    return { path: order[0], given: false };
  };
  const oldP = oldNull ? { path: '', given: false } : pick(oldPath, 'a/');
  const newP = newNull ? { path: '', given: false } : pick(newPath, 'b/');
  if (oldNull) return { kind: 'create', path: newP.path };
  if (newNull) return { kind: 'delete', path: oldP.path };
  return { kind: 'modify', path: newP.given || !oldP.given ? newP.path : oldP.path };
}

interface Section extends FileTarget {
  header: FileHeader;
  /** A hunk followed the header (a section that modifies its file makes each hunk an edit at once). */
  read?: boolean;
  hunks: Hunk[];
}

function missingPath(hunk: Hunk, files: readonly string[], detected: boolean): Diagnostic {
  return diagnostic(
    'missing-path',
    'error',
    `the hunk at line ${hunk.header.line.line} has no file header before it (a "--- a/PATH" line and a "+++ b/PATH" line) and ${
      detected && files.length === 1
        ? 'the format of the reply was detected, not asked for (the reply may only show a diff)'
        : files.length === 0
          ? 'no file was given'
          : `${files.length} files were given`
    }, so there is no telling which file it changes`,
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
    // A deletion quotes the file's lines: the engine deletes the file only when they are all of it, exactly.
    old: creating ? [] : hunks.flatMap((h) => h.old),
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
        : !creating && edit.old.length === 0
          ? diagnostic(
              'malformed',
              'error',
              `the diff deletes ${path} ("+++ /dev/null") but removes none of its lines: a deletion is checked against the file, so write every line of ${path} as a removed line ("-"), as git diff does`,
              rowSpan(header.minus, last),
            )
        : creating && givenPaths(files).has(path)
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

/**
 * The edit of a file header of a changed file that the reply ends after
 * (`FileHeader.cut` or `last`: no hunk, and nothing but blank lines or an
 * unclosed fence after it): `truncated`, so that a reply cut off there is
 * reported as such, not as a header with no hunk (`malformed`).
 */
function cutHeaderEdit(section: Section, index: number): Edit {
  const { header } = section;
  const span = rowSpan(header.minus, header.plus);
  return {
    index,
    kind: 'replace',
    file: section.path,
    old: [],
    new: [],
    span,
    warnings: [],
    error:
      section.error ??
      diagnostic(
        'truncated',
        'error',
        `the reply ends after the file header at line ${header.minus.line.line}${section.path ? ` for ${section.path}` : ''}, before any hunk: it was cut off; send the rest of the diff, from this header on`,
        span,
      ),
  };
}

export function parseUdiff(reply: string, context: ParseContext): ParseResult {
  const files = context.files;
  const items = scanDiff(rowsOf(linesOf(reply, context.lexed)), 'reply');
  const edits: Edit[] = [];
  // Hunks with no `-` or `+` line are dropped (as aider drops them), and said so.
  const unchanged: Diagnostic[] = [];
  let section: Section | null = null;
  const flush = () => {
    if (section && section.kind !== 'modify') edits.push(wholeFileEdit(section, edits.length, files));
    else if (section && (section.header.cut || section.header.last) && !section.read) edits.push(cutHeaderEdit(section, edits.length));
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
    if (current) current.read = true;
    if (current && current.kind !== 'modify') {
      current.hunks.push(hunk);
      continue;
    }
    // Without a header, the only file given; never when the format was guessed (the reply may be an answer that shows a diff).
    const file = current ? current.path : files.length === 1 && !context.detected ? files[0] : '';
    const fileError =
      current?.error ??
      (current && file === ''
        ? diagnostic('missing-path', 'error', `the file header at line ${current.header.minus.line.line} names no path`, rowSpan(current.header.minus, current.header.plus))
        : file === ''
          ? missingPath(hunk, files, context.detected === true)
          : undefined);
    const edit = hunkEdit(hunk, file, edits.length, fileError);
    if (edit) edits.push(edit);
    else
      unchanged.push(
        diagnostic('no-change', 'warning', `the hunk at reply line ${hunk.header.line.line} has no removed ("-") or added ("+") line: it changes nothing, and was not applied`, rowSpan(hunk.header, hunk.last)),
      );
  }
  flush();
  return { edits, diagnostics: unchanged };
}
