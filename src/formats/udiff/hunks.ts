// Reading unified-diff hunks out of reply lines: the part of the udiff format
// that udiffx reuses for its FILE_PATCH contents. spec/formats/udiff.md
// ("Hunks", "Where a hunk ends") is the contract.
//
// The reader works on rows: reply lines, or the part of a reply line after a
// code fence's indentation or an opening tag. It yields file headers
// (`--- `/`+++ ` pairs) and hunks in reply order; turning them into edits is
// the caller's business (`hunkEdit` does it for the common case).

import { isBareBlank } from '../../core/blank.ts';
import { decodeUtf8 } from '../../core/utf8.ts';
import { at, diagnostic, quote } from '../../core/diagnostics.ts';
import type { ReplyLine } from '../../core/reply.ts';
import { normalizePath } from '../../core/paths.ts';
import type { Diagnostic, Edit, MatchOutcome, Span } from '../../core/types.ts';

export const DEV_NULL = '/dev/null';

/** A reply line as the diff reader sees it: `text` starts `col` code units into `line.text`. */
export interface Row {
  line: ReplyLine;
  col: number;
  text: string;
}

export const rowsOf = (lines: readonly ReplyLine[]): Row[] => lines.map((line) => ({ line, col: 0, text: line.text }));

/** The span of rows `first..last`, from the start of `first`'s text to the end of `last`'s. */
export function rowSpan(first: Row, last: Row = first): Span {
  return {
    from: first.line.from + first.col,
    to: last.line.from + last.col + last.text.length,
    start: { line: first.line.line, column: first.col + 1 },
    end: { line: last.line.line, column: last.col + last.text.length + 1 },
  };
}

/** The span of characters `[a, b)` of a row's text. */
function partSpan(row: Row, a: number, b: number): Span {
  return {
    from: row.line.from + row.col + a,
    to: row.line.from + row.col + b,
    start: { line: row.line.line, column: row.col + a + 1 },
    end: { line: row.line.line, column: row.col + b + 1 },
  };
}

/** `@@ -a[,b] +c[,d] @@ [section]`; the closing `@@` may be missing. */
const NUMBERED = /^@@+[ \t]*-(\d+)(?:,(\d+))?[ \t]+\+(\d+)(?:,(\d+))?[ \t]*(?:@@|$)/;
const FENCE_OPEN = /^( *)(`{3,}|~{3,})(.*)$/;
const FENCE_CLOSE = /^(`{3,}|~{3,})[ \t]*$/;

export interface HunkNumbers {
  oldStart: number;
  oldCount: number;
  newStart: number;
  newCount: number;
}

/** The numbers of a numbered hunk header, or null for a number-less one (`@@ ... @@`, `@@`). */
export function hunkNumbers(text: string): HunkNumbers | null {
  const m = NUMBERED.exec(text);
  if (!m) return null;
  return {
    oldStart: Number(m[1]),
    oldCount: m[2] === undefined ? 1 : Number(m[2]),
    newStart: Number(m[3]),
    newCount: m[4] === undefined ? 1 : Number(m[4]),
  };
}

export const isHunkHeader = (text: string): boolean => text.startsWith('@@');

/** A hunk as read: its lines sorted into the old and the new side. */
export interface Hunk {
  header: Row;
  numbers: HunkNumbers | null;
  /** The last row of the hunk (the header when the body is empty). */
  last: Row;
  /** Context and removed lines. */
  old: string[];
  /** Context and added lines. */
  new: string[];
  /** Parallel to `new`: the index in `old` of each context line, null for added lines. */
  keep: (number | null)[];
  /** The reply span of each old line's content. */
  oldSpans: Span[];
  /** How many lines are removed or added. */
  changes: number;
  /** Counts per line kind. */
  context: number;
  removed: number;
  added: number;
  /** `\ No newline at end of file` after the last line of the old / new side. */
  oldNoEol: boolean;
  newNoEol: boolean;
  /** The `\` row that set `oldNoEol` / `newNoEol`, and the hunk line it follows: no line of that side may come after it. */
  oldMark?: { marker: Row; after: Row };
  newMark?: { marker: Row; after: Row };
  /** The last context, removed or added line read (a `\` line refers to it). */
  lineRow?: Row;
  /** The side of the last hunk line read, which a `\` line refers to. */
  side: 'old' | 'new' | 'both' | null;
  /**
   * The last `--- `/`+++ ` pair read as hunk lines (a removed `-- x`, an
   * added `++ y`) because the hunk's counts needed them.
   */
  pair?: { minus: Row; plus: Row };
  /** A body line that is not a hunk line, the reply ending inside the hunk, or a doubtful pair. */
  error?: Diagnostic;
}

export interface FileHeader {
  /** The `--- ` and `+++ ` rows. */
  minus: Row;
  plus: Row;
  oldPath: string;
  newPath: string;
  /** No hunk follows the header, and the rows were cut off (see `RowsEnd`). */
  cut: boolean;
  /**
   * No hunk follows the header, and nothing but blank lines do: the reply
   * ends right after it. (A header that creates or deletes a file may mean
   * that alone; one of a changed file was cut off.)
   */
  last?: boolean;
}

export type DiffItem = { type: 'header'; header: FileHeader } | { type: 'hunk'; hunk: Hunk };

/**
 * How the rows given to `scanDiff` end: `reply` = at the end of the reply
 * (an unclosed fence, or a numbered hunk short of its counts on the last
 * lines, means the reply was cut off); `cut` = the rows end where something
 * else was expected (the last hunk is truncated); `closed` = they end at a
 * closing mark.
 */
export type RowsEnd = 'reply' | 'cut' | 'closed';

interface Fence {
  char: string;
  length: number;
  indent: number;
}

/** Remove up to `n` leading spaces (a fence's indentation) from a row. */
function dedent(row: Row, n: number): Row {
  if (n === 0) return row;
  let k = 0;
  while (k < n && row.text.charCodeAt(k) === 32) k++;
  return k === 0 ? row : { line: row.line, col: row.col + k, text: row.text.slice(k) };
}

const isBodyPrefix = (text: string) => text.length > 0 && ' -+\\'.includes(text[0]);

const TIMESTAMP = /(?<=\s)\d{4}-\d\d-\d\d[ T]\d\d:\d\d(?::\d\d(?:\.\d+)?)?(?:\s*(?:[+-]\d{4}|Z|UTC))?$/;

/** Strip the `--- ` / `+++ ` and what follows the path: a tab and anything after it, a timestamp. */
export function headerPath(text: string): string {
  let s = text.slice(4);
  const tab = s.indexOf('\t');
  if (tab >= 0) s = s.slice(0, tab);
  s = s.trim();
  // The timestamp and the blanks before it. (A leading `\s+` in the regex would make it
  // quadratic on a long run of blanks: the timestamp is found first, then the blanks trimmed.)
  const stamp = TIMESTAMP.exec(s);
  if (stamp) s = s.slice(0, stamp.index).trimEnd();
  if (s.length >= 2 && s.startsWith('"') && s.endsWith('"')) s = unquote(s.slice(1, -1));
  return s;
}

/** Git's C-style quoting: `\"`, `\\`, `\t`, `\n` and octal bytes (UTF-8). */
function unquote(s: string): string {
  const bytes: number[] = [];
  const out: string[] = [];
  const flush = () => {
    if (bytes.length) out.push(decodeUtf8(bytes.splice(0)));
  };
  for (let i = 0; i < s.length; i++) {
    const c = s[i];
    if (c !== '\\' || i + 1 >= s.length) {
      flush();
      out.push(c);
      continue;
    }
    const n = s[++i];
    const oct = /^[0-7]{3}/.exec(s.slice(i));
    if (oct) {
      bytes.push(parseInt(oct[0], 8));
      i += 2;
      continue;
    }
    flush();
    out.push(({ t: '\t', n: '\n', r: '\r', '"': '"', '\\': '\\', a: '\x07', b: '\b', f: '\f', v: '\v' } as Record<string, string>)[n] ?? n);
  }
  flush();
  return out.join('');
}

/**
 * The `--- ` and `+++ ` lines of a pair name one file: the same path, once
 * git's `a/` and `b/` are removed from both, or `/dev/null` on one side.
 */
function onePath(minus: string, plus: string): boolean {
  const a = headerPath(minus);
  const b = headerPath(plus);
  if (a === DEV_NULL || b === DEV_NULL) return true;
  const git = a.startsWith('a/') && b.startsWith('b/');
  return normalizePath(git ? a.slice(2) : a) === normalizePath(git ? b.slice(2) : b);
}

/**
 * Read file headers and hunks from `rows`, in order. Everything else (prose,
 * fence lines, git's `diff --git` and `index` lines) is skipped.
 */
export function scanDiff(rows: readonly Row[], end: RowsEnd): DiffItem[] {
  const items: DiffItem[] = [];
  /** Hunks whose last lines by their counts are a `--- `/`+++ ` pair. */
  const atEnd = new Set<Hunk>();
  /** Hunks whose `--- `/`+++ ` pair may be a file header: the hunks after them, up to the next header, fail too. */
  const doubtful = new Set<Hunk>();
  let fence: Fence | null = null;
  const at = (i: number) => dedent(rows[i], fence?.indent ?? 0);
  const closesFence = (i: number) => {
    if (!fence) return false;
    const t = at(i).text;
    if (t[0] !== fence.char) return false; // (the regex is only needed for a line that starts like the fence)
    const m = FENCE_CLOSE.exec(t);
    return m !== null && m[1][0] === fence.char && m[1].length >= fence.length;
  };
  const headerAt = (i: number) => i + 1 < rows.length && at(i).text.startsWith('--- ') && at(i + 1).text.startsWith('+++ ');
  /** A row that ends a hunk's section (its first character rules out most rows at once). */
  const ends = (i: number) => {
    const t = at(i).text;
    switch (t[0]) {
      case '@':
        return isHunkHeader(t);
      case '-':
        return headerAt(i);
      case 'd':
        return t.startsWith('diff ');
      case '`':
      case '~':
        return fence ? closesFence(i) : /^(`{3,}|~{3,})/.test(t);
      default:
        return false;
    }
  };

  /**
   * Read the hunk whose header is `header` and whose body starts at row
   * `first`; returns where its section ends. While a numbered hunk still
   * needs an old and a new line by its counts, a `--- `/`+++ ` pair is two
   * of its lines, not a file header (counts decide while a hunk is open).
   */
  const readHunk = (header: Row, first: number): number => {
    const numbers = hunkNumbers(header.text);
    let sectionEnd = first;
    let pair: number | null = null;
    if (numbers) {
      // Old and new lines so far; `clean` until a line that is neither a hunk line nor blank (prose ends the body).
      let olds = 0;
      let news = 0;
      let clean = true;
      while (sectionEnd < rows.length) {
        const t = at(sectionEnd).text;
        if (clean && olds < numbers.oldCount && news < numbers.newCount && t.startsWith('--- ') && headerAt(sectionEnd)) {
          pair = sectionEnd;
          olds++;
          news++;
          sectionEnd += 2;
          continue;
        }
        if (ends(sectionEnd)) break;
        const c = t[0];
        if (c === ' ' || isBareBlank(t)) {
          olds++;
          news++;
        } else if (c === '-') olds++;
        else if (c === '+') news++;
        else if (c !== '\\') clean = false;
        sectionEnd++;
      }
    } else {
      // Without counts, a pair right after a hunk line is a file header when both its paths name one file;
      // else either reading could be meant, and the hunk fails (see `doubtfulPair`).
      while (sectionEnd < rows.length) {
        if (sectionEnd > first && headerAt(sectionEnd) && isBodyPrefix(at(sectionEnd - 1).text) && !onePath(at(sectionEnd).text, at(sectionEnd + 1).text)) {
          pair ??= sectionEnd;
          sectionEnd += 2;
          continue;
        }
        if (ends(sectionEnd)) break;
        sectionEnd++;
      }
    }
    let bodyEnd = first;
    for (let k = first; k < sectionEnd; k++) if (isBodyPrefix(at(k).text)) bodyEnd = k + 1;
    const hunk = emptyHunk(header, numbers);
    for (let k = first; k < bodyEnd; k++) addLine(hunk, at(k));
    // Blank lines after the last hunk line belong to a numbered hunk while its counts need them.
    if (numbers) {
      while (
        bodyEnd < sectionEnd &&
        isBareBlank(at(bodyEnd).text) &&
        hunk.context + hunk.removed < numbers.oldCount &&
        hunk.context + hunk.added < numbers.newCount
      ) {
        addLine(hunk, at(bodyEnd));
        bodyEnd++;
      }
    }
    if (sectionEnd === rows.length && !hunk.error) {
      const cut =
        end === 'cut' ||
        (end === 'reply' && fence !== null) ||
        (end === 'reply' &&
          numbers !== null &&
          rows.slice(bodyEnd).every((r) => r.text.trim() === '') &&
          (hunk.context + hunk.removed < numbers.oldCount || hunk.context + hunk.added < numbers.newCount));
      if (cut) {
        const last = rows[rows.length - 1];
        const where = { line: last.line, col: last.col + last.text.length, text: '' };
        hunk.error = diagnostic(
          'truncated',
          'error',
          `the reply ends inside this hunk (${
            end === 'cut' ? 'its closing tag is missing' : fence ? 'its code fence is never closed' : 'the header promises more lines'
          }): it was cut off; the hunk was not applied`,
          rowSpan(where),
        );
      }
    }
    // A fence line right after the hunk's lines, which the hunk's counts need together with the hunk
    // lines right after it (at least one: the leftover is the evidence): a content line ("+```")
    // written without its prefix, which closed the fence.
    if (numbers && fence && !hunk.error && bodyEnd === sectionEnd && sectionEnd < rows.length && closesFence(sectionEnd)) {
      const needOld = numbers.oldCount - hunk.context - hunk.removed;
      const needNew = numbers.newCount - hunk.context - hunk.added;
      let olds = 0;
      let news = 0;
      for (let k = sectionEnd + 1; k < rows.length; k++) {
        const c = dedent(rows[k], fence.indent).text[0];
        if (c === ' ') {
          olds++;
          news++;
        } else if (c === '-') olds++;
        else if (c === '+') news++;
        else break;
      }
      if (olds + news > 0 && news + 1 === needNew && (olds === needOld || olds + 1 === needOld)) hunk.error = fenceInHunk(hunk, at(sectionEnd), olds + news);
    }
    if (pair !== null && !numbers) {
      hunk.pair = { minus: at(pair), plus: at(pair + 1) };
      hunk.error ??= doubtfulPair(hunk, 'paths');
      doubtful.add(hunk);
    } else if (pair !== null) {
      hunk.pair = { minus: at(pair), plus: at(pair + 1) };
      const exact = hunk.context + hunk.removed === numbers!.oldCount && hunk.context + hunk.added === numbers!.newCount;
      // (Whether a hunk follows a pair that ends the body is known once the next item is read: see below.)
      if (!exact) {
        hunk.error ??= doubtfulPair(hunk, 'counts');
        doubtful.add(hunk);
      } else {
        let last = true;
        for (let k = pair + 2; k < bodyEnd && last; k++) last = isBareBlank(at(k).text);
        if (last) atEnd.add(hunk);
      }
    }
    items.push({ type: 'hunk', hunk });
    return sectionEnd;
  };

  let i = 0;
  /** The row index after the last file header read (for a header the reply ends after). */
  let afterHeader = 0;
  while (i < rows.length) {
    const row = at(i);
    if (fence) {
      if (closesFence(i)) {
        fence = null;
        i++;
        continue;
      }
    } else {
      const m = FENCE_OPEN.exec(row.text);
      if (m && !(m[2][0] === '`' && m[3].includes('`'))) {
        fence = { char: m[2][0], length: m[2].length, indent: m[1].length };
        i++;
        continue;
      }
    }
    if (headerAt(i)) {
      const minus = at(i);
      const plus = at(i + 1);
      items.push({ type: 'header', header: { minus, plus, oldPath: headerPath(minus.text), newPath: headerPath(plus.text), cut: false } });
      i += 2;
      afterHeader = i;
      // Hunk lines right after a file header: a hunk whose `@@` line was left out.
      if (i < rows.length && /^[ +-]/.test(at(i).text) && !ends(i)) i = readHunk(plus, i);
      continue;
    }
    if (isHunkHeader(row.text)) i = readHunk(row, i + 1);
    else i++;
  }
  // A pair that ends a hunk's counts, with a hunk after it, may be the file header of that hunk:
  // neither is applied, nor any hunk up to the next file header (which file they change is unclear).
  let doubt: Hunk | null = null;
  for (let k = 0; k < items.length; k++) {
    const item = items[k];
    if (item.type === 'header') {
      doubt = null;
      continue;
    }
    const h = item.hunk;
    if (doubt) h.error ??= afterDoubtfulPair(doubt);
    if (atEnd.has(h) && items[k + 1]?.type === 'hunk') {
      h.error ??= doubtfulPair(h, 'end');
      doubtful.add(h);
    }
    if (doubtful.has(h)) doubt ??= h;
  }
  // A file header that no hunk followed before the rows were cut off; one the reply ends right after.
  const last = items[items.length - 1];
  if (last?.type === 'header' && (end === 'cut' || (end === 'reply' && fence !== null))) last.header.cut = true;
  if (last?.type === 'header' && end === 'reply' && rows.slice(afterHeader).every((r) => r.text.trim() === '')) last.header.last = true;
  return items;
}

const counts = (n: HunkNumbers) => `-${n.oldStart},${n.oldCount} +${n.newStart},${n.newCount}`;
const pairLines = ({ pair }: Hunk) => `lines ${pair!.minus.line.line}-${pair!.plus.line.line} (${JSON.stringify(pair!.minus.text)}, ${JSON.stringify(pair!.plus.text)})`;

/**
 * The error of a hunk whose `--- `/`+++ ` pair was read as two of its lines
 * but may be a file header: its counts do not fit that reading (`counts`),
 * or the pair is its last lines and a hunk follows (`end`).
 */
function doubtfulPair(h: Hunk, why: 'counts' | 'end' | 'paths'): Diagnostic {
  const n = h.numbers;
  const reading =
    why === 'counts'
      ? `read as a removed and an added line of this hunk (its header ${counts(n!)} still needed lines there), the hunk has ${h.context + h.removed} old and ${h.context + h.added} new lines, not ${n!.oldCount} and ${n!.newCount}`
      : why === 'end'
        ? `they are this hunk's last lines by its header's counts (${counts(n!)}), and a hunk follows: they read as lines of this hunk or as the file header of the next`
        : `they come right after a line of this hunk, which has no counts to tell, and name two different files`;
  return diagnostic(
    'ambiguous-end',
    'error',
    `${pairLines(h)} may be a file header or two lines of this hunk: ${reading}; not applied. To start another file, ${n ? "correct this hunk's counts" : 'name the same file on both lines'}; to remove a line "-- ..." and add a line "++ ...", write the added line first`,
    rowSpan(h.pair!.minus, h.pair!.plus),
  );
}

/** The error of a hunk whose counts say that the fence line `row` that ended it was one of its lines. */
function fenceInHunk(h: Hunk, row: Row, after: number): Diagnostic {
  return diagnostic(
    'ambiguous-end',
    'error',
    `line ${row.line.line} (${JSON.stringify(row.text)}) closes the code fence around this hunk, but the hunk's header (${counts(h.numbers!)}) counts it and the ${after} hunk line${after === 1 ? '' : 's'} after it as lines of the hunk: it may be a line of the new text written without its "+", so the hunk was not applied. Write every line of a hunk with its prefix (an added line "\`\`\`" is "+\`\`\`"), and fence a diff whose lines hold \`\`\` with a longer fence`,
    rowSpan(row),
  );
}

/** The error of a hunk after a doubtful pair (see `doubtfulPair`), before the next file header. */
function afterDoubtfulPair(d: Hunk): Diagnostic {
  return diagnostic(
    'ambiguous-end',
    'error',
    `this hunk comes after ${pairLines(d)}, which may be a file header or two lines of the hunk at line ${d.header.line.line}: which file it changes is unclear, so it was not applied; give the hunks of another file their own "--- "/"+++ " header after a hunk whose counts are right`,
    rowSpan(d.pair!.minus, d.pair!.plus),
  );
}

function emptyHunk(header: Row, numbers: HunkNumbers | null): Hunk {
  return {
    header,
    numbers,
    last: header,
    old: [],
    new: [],
    keep: [],
    oldSpans: [],
    changes: 0,
    context: 0,
    removed: 0,
    added: 0,
    oldNoEol: false,
    newNoEol: false,
    side: null,
  };
}

/**
 * The error of a hunk line of `side` that comes after a `\ No newline at end
 * of file` marker of that side: the marker says the line before it is the
 * side's last line (and the file's), so it can only follow the last line.
 */
function lineAfterMark(hunk: Hunk, row: Row, side: 'old' | 'new' | 'both'): Diagnostic | null {
  const mark = (side !== 'new' ? hunk.oldMark : undefined) ?? (side !== 'old' ? hunk.newMark : undefined);
  if (!mark) return null;
  const kind = side === 'both' ? 'a context line' : side === 'old' ? 'a removed line' : 'an added line';
  return diagnostic(
    'malformed',
    'error',
    `${at({ line: mark.marker.line.line, column: mark.marker.col + 1 })}: the "\\ No newline at end of file" marker says that the line before it (line ${mark.after.line.line}, ${quote(mark.after.text)}) is the last of the file, without a line ending, but line ${row.line.line} after it, ${quote(row.text)}, is ${kind} of the same side; the marker may only follow the last line of a side: remove it, or move it after the hunk's last line`,
    rowSpan(mark.marker),
  );
}

function addLine(hunk: Hunk, row: Row): void {
  const t = row.text;
  const c = t[0];
  if (hunk.oldMark || hunk.newMark) {
    const side = c === ' ' || isBareBlank(t) ? 'both' : c === '-' ? 'old' : c === '+' ? 'new' : null;
    const error = side && lineAfterMark(hunk, row, side);
    if (error) hunk.error ??= error;
  }
  if (c === ' ' || isBareBlank(t)) {
    const content = c === ' ' ? t.slice(1) : '';
    hunk.keep.push(hunk.old.length);
    hunk.oldSpans.push(c === ' ' ? partSpan(row, 1, t.length) : partSpan(row, 0, 0));
    hunk.old.push(content);
    hunk.new.push(content);
    hunk.context++;
    hunk.side = 'both';
  } else if (c === '-') {
    hunk.oldSpans.push(partSpan(row, 1, t.length));
    hunk.old.push(t.slice(1));
    hunk.removed++;
    hunk.changes++;
    hunk.side = 'old';
  } else if (c === '+') {
    hunk.new.push(t.slice(1));
    hunk.keep.push(null);
    hunk.added++;
    hunk.changes++;
    hunk.side = 'new';
  } else if (c === '\\') {
    const side = hunk.side;
    const mark = { marker: row, after: hunk.lineRow ?? hunk.header };
    if (side === null) {
      hunk.error ??= diagnostic(
        'malformed',
        'error',
        `${at({ line: row.line.line, column: row.col + 1 })}: the "\\ No newline at end of file" marker comes right after the hunk's header, so there is no line for it to mark; it belongs after the last line of a side of the hunk, when that line is the file's last and has no line ending`,
        rowSpan(row),
      );
    }
    if (side === 'old' || side === 'both') {
      hunk.oldNoEol = true;
      hunk.oldMark ??= mark;
    }
    if (side === 'new' || side === 'both') {
      hunk.newNoEol = true;
      hunk.newMark ??= mark;
    }
  } else {
    hunk.error ??= diagnostic(
      'malformed',
      'error',
      `${at({ line: row.line.line, column: row.col + 1 })}: every line of a hunk starts with " " (context), "-" (remove), "+" (add) or "\\"; found ${JSON.stringify(t)}`,
      rowSpan(row),
    );
  }
  if (c !== '\\') hunk.lineRow = row;
  hunk.last = row;
}

/** The span of a hunk in the reply: its header to its last line. */
export const hunkSpan = (hunk: Hunk): Span => rowSpan(hunk.header, hunk.last);

/** A hunk's lines as a replacement in `file`: its old and new lines, the context kept from the file, its spans, `meta` when given; no citation. */
export function hunkReplace(hunk: Hunk, file: string, index: number, meta?: Edit['meta']): Edit {
  return {
    index,
    kind: 'replace',
    file,
    old: hunk.old,
    new: hunk.new,
    keep: hunk.keep,
    span: hunkSpan(hunk),
    oldSpans: hunk.oldSpans,
    ...(meta ? { meta } : {}),
    warnings: [],
  };
}

/** How a unified diff adds lines to an empty file (`Format.emptyHint`). */
export const EMPTY_HINT = 'to add lines to it, write a hunk of added lines only: @@ -0,0 +1,N @@ and the N lines, each starting with "+"';

/**
 * Place a hunk that only adds lines and has no line numbers (a `replace`
 * edit with no old line, `hunkEdit`): an empty file has one place for them,
 * its start; any other file has many, so the hunk is `malformed` there.
 */
export function placeUnanchored(lines: readonly string[], edit: Edit): MatchOutcome {
  if (lines.length === 0) {
    return { ok: true, kind: 'exact', start: 0, end: 0, offset: null, similarity: 1, differing: [], message: `added ${edit.new.length === 1 ? '1 line' : `${edit.new.length} lines`} to the empty file ${edit.file}, its one place` };
  }
  return {
    ok: false,
    code: 'malformed',
    kind: null,
    candidates: [],
    outside: [],
    message: `the hunk at line ${edit.span.start.line} only adds lines and has no line numbers, so there is no telling where they go in ${edit.file}: include a few unchanged lines around them as context (" " lines), or number the hunk (@@ -12,0 +13,2 @@)`,
  };
}

/**
 * The edit of one hunk of an existing file, or null for a hunk that changes
 * nothing (no `-` or `+` line). Context lines are kept from the file
 * (`keep`); a numbered hunk cites its old start; a hunk that only adds lines
 * is an insertion before old line `a + 1` (`@@ -a,0 ...`); without numbers
 * it stays a replacement of no old line, placed by `placeUnanchored` (only
 * an empty file has a place for it).
 */
export function hunkEdit(hunk: Hunk, file: string, index: number, fileError?: Diagnostic): Edit | null {
  if (hunk.changes === 0 && !hunk.error) return null;
  const n = hunk.numbers;
  const edit = hunkReplace(hunk, file, index);
  // A marker after a context line (one mark for both sides) claims the file's state; it changes nothing.
  if (hunk.oldMark !== undefined && hunk.oldMark === hunk.newMark) edit.claimsNoFinalNewline = true;
  else if (hunk.newNoEol) edit.finalNewline = false;
  else if (hunk.oldNoEol) edit.finalNewline = true;
  if (hunk.old.length === 0 && n) {
    edit.kind = 'insert';
    delete edit.keep;
    delete edit.oldSpans;
    if (n) edit.cited = Math.max(1, n.oldCount === 0 ? n.oldStart + 1 : n.oldStart);
  } else if (n) {
    edit.cited = Math.max(1, n.oldCount === 0 ? n.oldStart + 1 : n.oldStart);
  }
  const error = hunk.error ?? fileError;
  if (error) edit.error = error;
  return edit;
}
