// Read a whole model reply (prose, fences and all) into ln-diff edits.
// spec/ln-diff.md is the contract; section names below refer to it.

import { diagnostic } from '../../core/diagnostics.ts';
import { columnSpan, endSpan, linesSpan, linesOf, type ReplyLine } from '../../core/reply.ts';
import { readPathLine, type PathLineReading } from '../../core/paths.ts';
import type { Diagnostic, Edit, ParseContext, ParseResult, Span } from '../../core/types.ts';
import { BAR, CLOSE_TAG, DIVIDER, END, HEAD, OPEN_TAG, insertPrefix, numberedLine } from './syntax.ts';

const FENCE = /^(`{3,}|~{3,})/;

/**
 * What a line at distance `seen` (1 = nearest) above an editblock says about
 * its path ("Paths"): the nearest line is read by `readPathLine`; further
 * lines only name a given file or a path with a `/` or a `.` (not leading),
 * other paths there are passed over like prose, and a line that is neither
 * (a label such as `Output:`) still ends the search.
 */
export function pathAbove(raw: string, files: readonly string[], seen: number): PathLineReading {
  const reading = readPathLine(raw, files, { byName: true });
  if (seen === 1 || reading.kind !== 'path' || reading.given) return reading;
  return /[/.]/.test(reading.path) && !reading.path.startsWith('.') ? reading : { kind: 'prose' };
}

type Shape = 'head' | 'divider' | 'end' | 'close' | 'open' | 'numbered' | 'other';

function shapeOf(line: ReplyLine): Shape {
  const s = line.text.trim();
  if (HEAD.test(s)) return 'head';
  if (DIVIDER.test(s)) return 'divider';
  if (END.test(s)) return 'end';
  if (CLOSE_TAG.test(s)) return 'close';
  if (OPEN_TAG.test(s)) return 'open';
  return numberedLine(line.text) ? 'numbered' : 'other';
}

/** Per-line lookahead, computed once so that the parser stays linear. */
interface Lookahead {
  shapes: Shape[];
  /** For a numbered line: the index of the first line after its run of numbered lines. */
  runEnd: number[];
  /** The index of the first head, end marker or closing tag at or after each line (or the line count). */
  nextBoundary: number[];
  /** The index of the first marker or tag at or after each line (or the line count). */
  nextStructure: number[];
}

function lookahead(lines: readonly ReplyLine[]): Lookahead {
  const n = lines.length;
  const shapes = lines.map(shapeOf);
  const runEnd = new Array<number>(n + 1).fill(n);
  const nextBoundary = new Array<number>(n + 1).fill(n);
  const nextStructure = new Array<number>(n + 1).fill(n);
  for (let k = n - 1; k >= 0; k--) {
    const sh = shapes[k];
    runEnd[k] = sh === 'numbered' ? runEnd[k + 1] : k;
    nextBoundary[k] = sh === 'head' || sh === 'end' || sh === 'close' ? k : nextBoundary[k + 1];
    nextStructure[k] = sh === 'numbered' || sh === 'other' ? nextStructure[k + 1] : k;
  }
  return { shapes, runEnd, nextBoundary, nextStructure };
}

/**
 * Numbered lines from `i` running straight into a divider, followed by an
 * end marker (or closing tag) before any head: an editblock whose head is
 * missing.
 */
function headlessBlock(ahead: Lookahead, i: number): boolean {
  const k = ahead.runEnd[i];
  if (ahead.shapes[k] !== 'divider') return false;
  const b = ahead.nextBoundary[k + 1];
  return b < ahead.shapes.length && ahead.shapes[b] !== 'head';
}

/** Where the path of an editblock whose first line is `first` stands ("Paths"). */
interface PathSearch {
  /** Index of the path line, or -1. */
  line: number;
  path: string | null;
  /** The nearest candidate line was meant as a path but cannot be one. */
  notPath: { line: ReplyLine; why: string; at: number } | null;
}

/**
 * Read the up to three non-blank lines above `first` (not below `floor`:
 * never a line of an earlier editblock), nearest first, passing over
 * code-fence lines and `<editblock>` tags.
 */
function searchPath(lines: readonly ReplyLine[], first: number, floor: number, files: readonly string[]): PathSearch {
  for (let k = first - 1, seen = 0; k >= floor && seen < 3; k--) {
    const raw = lines[k].text.trim();
    if (raw === '' || FENCE.test(raw) || OPEN_TAG.test(raw)) continue;
    seen++;
    const reading = pathAbove(raw, files, seen);
    if (reading.kind === 'path') return { line: k, path: reading.path, notPath: null };
    // Written where the path goes, but not a path: never another file.
    if (reading.kind === 'not-path') return { line: -1, path: null, notPath: { line: lines[k], why: reading.why, at: k } };
  }
  return { line: -1, path: null, notPath: null };
}

/**
 * Index of the first line that belongs to the editblock whose head at `head`
 * interrupts an open one: its `<editblock>` tag right above the head, and,
 * when the path search from there is decided by a line (a path, or a line
 * that cannot be one), that line and every line below it.
 */
function nextBlockStart(lines: readonly ReplyLine[], head: number, floor: number, files: readonly string[]): number {
  const start = head - 1 >= floor && OPEN_TAG.test(lines[head - 1].text.trim()) ? head - 1 : head;
  const found = searchPath(lines, start, floor, files);
  return found.line >= 0 ? found.line : found.notPath ? found.notPath.at : start;
}

interface Block {
  /** Index of the first line of the block (the `<editblock>` tag or HEAD). */
  first: number;
  /** Index of the HEAD line, or of the first numbered line when HEAD was inferred. */
  removeFrom: number;
  remove: { line: ReplyLine; number: number; bar: string; contentStart: number; content: string }[];
  insert: ReplyLine[];
  warnings: Diagnostic[];
  error?: Diagnostic;
  /** Index of the last line belonging to the block. */
  last: number;
}

export function parseLnDiff(reply: string, context: ParseContext): ParseResult {
  const lines = linesOf(reply, context.lexed);
  const edits: Edit[] = [];
  const diagnostics: Diagnostic[] = [];
  /** The path of the editblock before (null: it had none), or null before the first. */
  let previous: { path: string | null } | null = null;
  let floor = 0; // lines before this belong to an earlier block

  const ahead = lookahead(lines);
  let i = 0;
  while (i < lines.length) {
    const t = lines[i].text.trim();
    let block: Block | null = null;
    if (HEAD.test(t)) {
      block = { first: i, removeFrom: i, remove: [], insert: [], warnings: [], last: i };
      if (i > floor && OPEN_TAG.test(lines[i - 1].text.trim())) block.first = i - 1;
      i++;
    } else if (OPEN_TAG.test(t) && ahead.nextStructure[i + 1] === lines.length && ahead.shapes[i + 1] !== 'numbered') {
      block = { first: i, removeFrom: i + 1, remove: [], insert: [], warnings: [], last: i };
      i = lines.length; // the reply ends before this editblock's head: cut off
    } else if (ahead.shapes[i] === 'numbered' && headlessBlock(ahead, i)) {
      block = { first: i, removeFrom: i, remove: [], insert: [], warnings: [], last: i };
      if (i > floor && OPEN_TAG.test(lines[i - 1].text.trim())) block.first = i - 1;
      block.warnings.push(
        diagnostic('inferred-marker', 'warning', `missing \`<<<<<<< REMOVE\` before line ${lines[i].line}; assumed`, linesSpan(lines[i])),
      );
    } else if (OPEN_TAG.test(t) && i + 1 < lines.length && numberedLine(lines[i + 1].text)) {
      block = { first: i, removeFrom: i + 1, remove: [], insert: [], warnings: [], last: i };
      block.warnings.push(
        diagnostic('inferred-marker', 'warning', 'missing `<<<<<<< REMOVE` after `<editblock>`; assumed', linesSpan(lines[i])),
      );
      i++;
    } else {
      if (END.test(t)) {
        diagnostics.push(
          diagnostic('stray-marker', 'warning', '`>>>>>>> INSERT` outside an editblock was ignored', linesSpan(lines[i])),
        );
      }
      i++;
      continue;
    }

    // REMOVE section. `section`: the first line of the section being read.
    let section = i;
    let state: 'remove' | 'insert' | 'done' = 'remove';
    let cut: 'eof' | 'head' | null = null;
    for (; i < lines.length && state === 'remove'; i++) {
      const line = lines[i];
      const s = line.text.trim();
      if (DIVIDER.test(s)) {
        state = 'insert';
        break;
      }
      if (HEAD.test(s)) {
        cut = 'head';
        break;
      }
      if (END.test(s) || CLOSE_TAG.test(s)) {
        block.error ??= diagnostic(
          'missing-divider',
          'error',
          `expected \`=======\` between the lines to remove and the lines to insert, found \`${s}\` at line ${line.line}`,
          linesSpan(line),
        );
        block.last = i;
        state = 'done';
        if (END.test(s) && i + 1 < lines.length && CLOSE_TAG.test(lines[i + 1].text.trim())) block.last = ++i;
        i++;
        break;
      }
      const n = numberedLine(line.text);
      if (n) {
        const prev = block.remove[block.remove.length - 1];
        if (prev && !block.error) {
          if (n.number === prev.number + 1) {
            // consecutive: fine
          } else if (n.number > prev.number) {
            block.error = diagnostic(
              'remove-number-gap',
              'error',
              `line numbers to remove must be consecutive: expected ${prev.number + 1} after ${prev.number}, found ${n.number} at line ${line.line}; use one editblock per continuous stretch of lines`,
              columnSpan(line, n.numberFrom, n.numberTo),
            );
          } else {
            block.error = diagnostic(
              'remove-number-repeat',
              'error',
              `line numbers to remove must increase by one: found ${n.number} after ${prev.number} at line ${line.line}`,
              columnSpan(line, n.numberFrom, n.numberTo),
            );
          }
        }
        if (n.bar !== BAR && !block.warnings.some((w) => w.code === 'bar-substitute')) {
          block.warnings.push(
            diagnostic(
              'bar-substitute',
              'warning',
              `\`${n.bar}\` (U+${n.bar.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}) used as the bar at line ${line.line}; the format's bar is \`${BAR}\` (U+2502)`,
              columnSpan(line, n.contentStart - n.bar.length, n.contentStart),
            ),
          );
        }
        block.remove.push({ line, number: n.number, bar: n.bar, contentStart: n.contentStart, content: n.content });
        continue;
      }
      if (block.remove.length > 0 && /^[ \t]*\u2502/.test(line.text)) {
        block.warnings.push(
          diagnostic(
            'inferred-marker',
            'warning',
            `missing \`=======\` before line ${line.line}, where unnumbered lines to insert begin; assumed`,
            linesSpan(line),
          ),
        );
        state = 'insert';
        i--; // read this line again as an INSERT line
        break;
      }
      block.error ??= diagnostic(
        'unnumbered-remove-line',
        'error',
        `every line to remove must start with its line number and \`${BAR}\`, as in the numbered source; line ${line.line} has none: ${JSON.stringify(line.text)}`,
        linesSpan(line),
      );
    }

    // INSERT section.
    if (state === 'insert') {
      section = i + 1;
      for (i++; i < lines.length; i++) {
        const line = lines[i];
        const s = line.text.trim();
        if (END.test(s)) {
          state = 'done';
          block.last = i;
          if (i + 1 < lines.length && CLOSE_TAG.test(lines[i + 1].text.trim())) block.last = ++i;
          i++;
          break;
        }
        if (CLOSE_TAG.test(s)) {
          block.warnings.push(
            diagnostic('inferred-marker', 'warning', `missing \`>>>>>>> INSERT\` before \`</editblock>\` at line ${line.line}; assumed`, linesSpan(line)),
          );
          state = 'done';
          block.last = i;
          i++;
          break;
        }
        if (HEAD.test(s)) {
          cut = 'head';
          break;
        }
        block.insert.push(line);
      }
    }
    if (state === 'done' && !block.error) {
      // A second end marker before anything else: the first may have been content.
      const tagged = OPEN_TAG.test(lines[block.first].text.trim());
      const sure = tagged && CLOSE_TAG.test(lines[block.last].text.trim()) && block.last > 0 && END.test(lines[block.last - 1].text.trim());
      const k = ahead.nextStructure[block.last + 1];
      if (!sure && k < lines.length && (ahead.shapes[k] === 'end' || (tagged && ahead.shapes[k] === 'close'))) {
        const first = lines[block.last - (CLOSE_TAG.test(lines[block.last].text.trim()) && END.test(lines[block.last - 1]?.text.trim() ?? '') ? 1 : 0)];
        block.error = diagnostic(
          'ambiguous-end',
          'error',
          `the editblock's end at line ${first.line} is followed by another ${ahead.shapes[k] === 'end' ? '`>>>>>>> INSERT`' : '`</editblock>`'} at line ${lines[k].line} before any new editblock: either could end it, so it was not applied; if a line to insert is a marker, prefix it with \` ${BAR}\` as every line to insert`,
          linesSpan(first, lines[k]),
        );
        block.last = k + (ahead.shapes[k] === 'end' && k + 1 < lines.length && CLOSE_TAG.test(lines[k + 1].text.trim()) ? 1 : 0);
        i = block.last + 1;
      }
    }
    if (cut === 'head') {
      // The lines just before the next head (its tag, its path) belong to it; its path
      // search reads the lines of the section cut short, never the markers before them.
      const back = nextBlockStart(lines, i, section, context.files);
      block.insert = block.insert.filter((line) => line.line - 1 < back);
      block.remove = block.remove.filter((r) => r.line.line - 1 < back);
      // Nor does it keep what those lines told (a substitute bar, an error).
      block.warnings = block.warnings.filter((w) => !w.reply || w.reply.start.line - 1 < back);
      if (block.error?.reply && block.error.reply.start.line - 1 >= back) delete block.error;
      i = back;
    }
    if (state !== 'done') {
      cut ??= 'eof';
      block.last = Math.max(block.first, i - 1);
      const expected = state === 'remove' ? '`=======`' : '`>>>>>>> INSERT`';
      block.error =
        cut === 'eof'
          ? diagnostic(
              'truncated',
              'error',
              `the reply ends inside this editblock (expected ${expected}): it was cut off or its end marker is missing; the block was not applied`,
              endSpan(reply, lines),
            )
          : diagnostic(
              'missing-end-marker',
              'error',
              `expected ${expected} before the next editblock at line ${lines[i].line}`,
              linesSpan(lines[i]),
            );
    }

    // Path ("Paths").
    const found = searchPath(lines, block.first, floor, context.files);
    let path = found.path;
    let inherited = false;
    if (path === null && found.notPath === null) {
      // No path line: the previous editblock's file (none when it had none), else the only file given.
      inherited = previous !== null;
      path = previous !== null ? previous.path : context.files.length === 1 ? context.files[0] : null;
    }
    const spanFirst = found.line >= 0 ? lines[found.line] : lines[block.first];
    const span = linesSpan(spanFirst, lines[block.last]);
    if (path === null) {
      block.error ??= found.notPath
        ? diagnostic(
            'missing-path',
            'error',
            `no file path for the editblock at line ${lines[block.first].line}: line ${found.notPath.line.line}, ${JSON.stringify(found.notPath.line.text.trim())}, stands where the path goes but is not a path (${found.notPath.why}); put the file's path alone on the line before \`<editblock>\``,
            linesSpan(found.notPath.line),
          )
        : diagnostic(
            'missing-path',
            'error',
            inherited
              ? `no file path for the editblock at line ${lines[block.first].line}, and the editblock before it has none either: put the path alone on the line before \`<editblock>\``
              : `no file path for the editblock at line ${lines[block.first].line}: put the path alone on the line before \`<editblock>\``,
            linesSpan(lines[block.first]),
          );
    }
    previous = { path };
    floor = block.last + 1;

    edits.push(toEdit(block, edits.length, path ?? '', span));
  }
  return { edits, diagnostics };
}

function toEdit(block: Block, index: number, file: string, span: Span): Edit {
  const bar = block.remove.find((r) => r.bar !== BAR)?.bar;
  const prefixes = block.insert.map((line) => insertPrefix(line.text, BAR));
  // A substitute bar from REMOVE is a prefix in INSERT only when every non-blank line has it.
  let alt: ({ length: number; numbered: boolean } | null)[] | null = null;
  if (bar) {
    const altPrefixes = block.insert.map((line) => insertPrefix(line.text, bar));
    if (block.insert.every((line, k) => line.text.trim() === '' || altPrefixes[k] || prefixes[k])) alt = altPrefixes;
  }
  const warnings = [...block.warnings];
  // A line to insert without a prefix that reads as a divider: content, but it could have been meant as structure.
  const dividers = block.insert.filter((line, k) => !prefixes[k] && !alt?.[k] && DIVIDER.test(line.text.trim()));
  if (dividers.length > 0) {
    warnings.push(
      diagnostic(
        'ambiguous-structure',
        'warning',
        `${dividers.length === 1 ? 'line' : 'lines'} ${dividers.map((l) => l.line).join(', ')} among the lines to insert ${dividers.length === 1 ? 'reads' : 'read'} like the divider \`=======\` and ${dividers.length === 1 ? 'was' : 'were'} inserted as written; if ${dividers.length === 1 ? 'it is' : 'they are'} content, prefix ${dividers.length === 1 ? 'it' : 'them'} with \` ${BAR}\` like every line to insert`,
        linesSpan(dividers[0]),
      ),
    );
  }
  const newLines = block.insert.map((line, k) => {
    const p = prefixes[k] ?? alt?.[k] ?? null;
    if (p?.numbered && !warnings.some((w) => w.code === 'numbered-insert')) {
      warnings.push(
        diagnostic(
          'numbered-insert',
          'warning',
          `lines to insert should carry no line numbers (line ${line.line}); the number was ignored`,
          columnSpan(line, 0, p.length),
        ),
      );
    }
    return p ? line.text.slice(p.length) : line.text;
  });
  // An editblock's warnings in the order of the reply lines they concern (sort is stable).
  warnings.sort((a, b) => (a.reply?.from ?? 0) - (b.reply?.from ?? 0));
  const edit: Edit = {
    index,
    kind: block.remove.length === 0 ? 'append' : 'replace',
    file,
    old: block.remove.map((r) => r.content),
    new: newLines,
    span,
    oldSpans: block.remove.map((r) => columnSpan(r.line, r.contentStart, r.line.text.length)),
    warnings,
  };
  if (block.remove.length > 0) edit.cited = block.remove[0].number;
  if (block.error) edit.error = block.error;
  return edit;
}
