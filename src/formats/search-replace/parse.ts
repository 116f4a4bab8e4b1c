// Read a whole model reply (prose, fences and all) into SEARCH/REPLACE edits.
// spec/formats/search-replace.md is the contract; section names below refer to it.

import { diagnostic, quote } from '../../core/diagnostics.ts';
import { endSpan, linesSpan, linesOf, type ReplyLine } from '../../core/reply.ts';
import type { Diagnostic, Edit, ParseContext, ParseResult } from '../../core/types.ts';
import { cleanPathLine, EXTENSIONLESS_NAMES, givenFile, givenPaths, normalizePath, readPathLine } from '../../core/paths.ts';
import { scanFences } from '../whole/fences.ts';
import { truncatedBlock } from '../whole/parse.ts';
import {
  CALL_CLOSE,
  CALL_OPEN,
  CALL_PATH,
  DIFF_CLOSE,
  DIFF_OPEN,
  dividerShapedLike,
  fencePath,
  isBlank,
  isDivider,
  isEnd,
  isFence,
  isHead,
  markersLike,
} from './syntax.ts';

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;
const listLines = (ns: number[]) =>
  ns.length === 1 ? `line ${ns[0]}` : `lines ${ns.slice(0, -1).join(', ')} and ${ns[ns.length - 1]}`;

/** What the lines above a head say about its file (see `pathAbove`). */
export type PathAbove =
  /** A path: a given file or a new one. */
  | { kind: 'path'; index: number; path: string }
  /** No path there: nothing but blanks and fences, or a line of prose (an introduction). */
  | { kind: 'none' }
  /** A line where the path goes that cannot be one: the block fails, it never takes another file. */
  | { kind: 'not-path'; index: number; why: string };

/**
 * "Paths": the path named on the lines just above a head, nearest first,
 * looking at no more than three lines and none before `floor`. Blank and
 * fence lines are passed over (an opening fence that names a path in its
 * info string, as in ```` ```src/app.py ````, names that file); the first
 * other line is the only candidate, read with core's `readPathLine` (a
 * given file by its name too). A line with no letter or digit (a rule
 * `---`, an elision `...`) names no file. A bare word (no `.`, no `/`, not
 * in backticks, not a given file nor a well-known name like `Makefile`) is
 * a path only right next to the opening fence (on the line above a fence
 * line right above the head, or between a fence line and the head);
 * elsewhere it is `not-path`.
 */
export function pathAbove(lines: readonly ReplyLine[], head: number, floor: number, files: readonly string[]): PathAbove {
  for (let k = head - 1; k >= Math.max(floor, head - 3); k--) {
    const text = lines[k].text.trim();
    if (text === '') continue;
    if (isFence(text)) {
      // aider's path on the opening fence line itself (```` ```src/app.py ````).
      const named = fencePath(text);
      const reading = named === null ? null : readPathLine(named, files, { byName: true });
      if (reading?.kind === 'path') return { kind: 'path', index: k, path: reading.path };
      continue;
    }
    if (!/[\p{L}\p{N}]/u.test(text)) return { kind: 'none' };
    const reading = readPathLine(text, files, { byName: true });
    if (reading.kind === 'prose') return { kind: 'none' };
    if (reading.kind === 'not-path') return { kind: 'not-path', index: k, why: reading.why };
    const word = !reading.given && !/[./]/.test(reading.path) && !EXTENSIONLESS_NAMES.has(reading.path) && !cleanPathLine(text).quoted;
    const nextToFence = (k + 2 === head && isFence(lines[k + 1].text)) || (k + 1 === head && k - 1 >= floor && isFence(lines[k - 1].text));
    if (word && !nextToFence)
      return { kind: 'not-path', index: k, why: 'a single word away from the opening fence reads as prose, not as a file name' };
    return { kind: 'path', index: k, path: reading.path };
  }
  return { kind: 'none' };
}

/** How a block ended: its end marker, a new head before it, the `</diff>` of its call, or the end of the reply. */
type Ending = { kind: 'end'; at: number } | { kind: 'head'; at: number } | { kind: 'close'; at: number } | { kind: 'eof' };

/**
 * "Cline's replace_in_file": a `<replace_in_file>` call, by line indexes:
 * its opening tag, its closing tag (or the reply's end, or the next call),
 * its `<path>` line, and the `</diff>` that ends its blocks.
 */
interface Call {
  open: number;
  close: number;
  path: { index: number; text: string } | null;
  diffClose: number | null;
}

/** Every `<replace_in_file>` call of the reply, in order. */
function findCalls(lines: readonly ReplyLine[]): Call[] {
  const calls: Call[] = [];
  for (let i = 0; i < lines.length; i++) {
    if (!CALL_OPEN.test(lines[i].text.trim())) continue;
    let close = i + 1;
    while (close < lines.length && !CALL_CLOSE.test(lines[close].text.trim()) && !CALL_OPEN.test(lines[close].text.trim())) close++;
    let path: Call['path'] = null;
    let diffOpen = -1;
    let diffClose: number | null = null;
    for (let k = i; k < Math.min(close + 1, lines.length); k++) {
      const text = lines[k].text.trim();
      const m = diffOpen < 0 ? CALL_PATH.exec(text) : null;
      if (m && path === null) path = { index: k, text: m[1].trim() };
      if (diffOpen < 0) {
        if (DIFF_OPEN.test(text)) diffOpen = k;
      } else if (DIFF_CLOSE.test(text) || (k === close && text.startsWith('</diff>'))) {
        diffClose = k;
        break;
      }
    }
    calls.push({ open: i, close, path, diffClose });
    i = close - 1;
  }
  return calls;
}

interface Split {
  search: ReplyLine[];
  replace: ReplyLine[];
  warning?: Diagnostic;
  error?: Diagnostic;
}

/** "Dividers in content": decide where SEARCH ends from the block's own structure. */
function splitBody(head: ReplyLine, body: ReplyLine[], end: ReplyLine): Split {
  const dividers = body.flatMap((line, k) => (isDivider(line.text) ? [k] : []));
  const markers = markersLike(head.text);
  if (dividers.length === 0) {
    return {
      search: body,
      replace: [],
      error: diagnostic(
        'missing-divider',
        'error',
        `expected \`${markers.divider}\` between the SEARCH and the REPLACE lines, found \`${end.text.trim()}\` at line ${end.line} first`,
        linesSpan(end),
      ),
    };
  }
  const at = (k: number): Split => ({ search: body.slice(0, k), replace: body.slice(k + 1) });
  if (dividers.length === 1) return at(dividers[0]);

  const shape = dividerShapedLike(head.text);
  const shaped = dividers.filter((k) => body[k].text === shape);
  const numbers = dividers.map((k) => body[k].line);
  if (shaped.length === 1) {
    const chosen = shaped[0];
    const others = dividers.filter((k) => k !== chosen).map((k) => body[k].line);
    return {
      ...at(chosen),
      warning: diagnostic(
        'ambiguous-structure',
        'warning',
        `${listLines(numbers)} all read as the divider; line ${body[chosen].line} was taken because it is written like this block's \`${head.text.trim()}\` (${JSON.stringify(
          shape,
        )}), and ${listLines(others)} ${others.length === 1 ? 'was' : 'were'} read as content`,
        linesSpan(body[chosen]),
      ),
    };
  }
  const readings = dividers
    .map((k) => `line ${body[k].line} gives ${plural(k, 'SEARCH line')} and ${plural(body.length - k - 1, 'REPLACE line')}`)
    .join('; ');
  const count = /^(?:<+|-+)/.exec(head.text.trim())![0].length;
  const other = count >= 9 ? 8 : count + 1;
  return {
    search: body,
    replace: [],
    error: diagnostic(
      'malformed',
      'error',
      `${listLines(numbers)} all read as the \`=======\` divider between SEARCH and REPLACE, and the block's markers do not tell which one is: reading ${readings}; the block was not applied. Write the markers with a length no content line has (for example \`${markers.char.repeat(
        other,
      )} SEARCH\`, \`${'='.repeat(other)}\`, \`${markers.endChar.repeat(other)} REPLACE\`)`,
      linesSpan(body[dividers[0]], body[dividers[dividers.length - 1]]),
    ),
  };
}

export function parseSearchReplace(reply: string, context: ParseContext): ParseResult {
  const lines = linesOf(reply, context.lexed);
  const edits: Edit[] = [];
  const diagnostics: Diagnostic[] = [];
  // "Paths": the file of the block before, for a block that names none; and
  // whether a path line since could not be read (then no fallback at all).
  let previousPath: string | null = null;
  let previousUnread = false;
  let floor = 0; // lines before this belong to an earlier block
  // "End markers in content": the last block, while no head has followed its end marker.
  let ended: { edit: Edit; first: ReplyLine; head: ReplyLine; end: ReplyLine } | null = null;
  // "Cline's replace_in_file": the calls, and the one a line is in.
  const calls = findCalls(lines);
  const callAt = (k: number): Call | undefined => calls.find((c) => c.open < k && k < c.close);

  let i = 0;
  while (i < lines.length) {
    if (!isHead(lines[i].text)) {
      // A call's `</diff>` ends its blocks: an end marker after it is stray, not a second end.
      if (ended && calls.some((c) => c.diffClose === i || c.close === i)) ended = null;
      if (isEnd(lines[i].text)) {
        if (ended) {
          // A second end marker before any new head: either could end the block.
          const { edit, end, head } = ended;
          if (edit.error?.code !== 'ambiguous-end') {
            edit.error = diagnostic(
              'ambiguous-end',
              'error',
              `the block that starts at line ${head.line} has an end marker \`${end.text.trim()}\` at line ${end.line} and another at line ${lines[i].line}, with no new block between: the lines between may be REPLACE lines, so the block could end at either; it was not applied. A line that reads as \`${markersLike(head.text).end}\` cannot be content in a SEARCH/REPLACE block: if the second marker is a repeat, remove it; else write the change so that no content line is an end marker`,
              linesSpan(lines[i]),
            );
          }
          edit.span = linesSpan(ended.first, lines[i]);
          floor = i + 1;
        } else {
          diagnostics.push(
            diagnostic(
              'stray-marker',
              'warning',
              `\`${lines[i].text.trim()}\` at line ${lines[i].line} is outside any SEARCH/REPLACE block and was ignored`,
              linesSpan(lines[i]),
            ),
          );
        }
      }
      i++;
      continue;
    }

    // "Structure": the block runs from its head to the first end marker
    // (in a replace_in_file call, no further than its `</diff>`).
    const h = i;
    const call = callAt(h);
    const limit = call?.diffClose != null && call.diffClose > h ? call.diffClose : lines.length;
    let k = h + 1;
    while (k < limit && !isEnd(lines[k].text) && !isHead(lines[k].text)) k++;
    const ending: Ending =
      k >= lines.length ? { kind: 'eof' } : k === limit ? { kind: 'close', at: k } : isEnd(lines[k].text) ? { kind: 'end', at: k } : { kind: 'head', at: k };
    const markers = markersLike(lines[h].text);

    let last: number;
    let error: Diagnostic | undefined;
    const warnings: Diagnostic[] = [];
    let search: ReplyLine[];
    let replace: ReplyLine[];
    if (ending.kind === 'end') {
      last = ending.at;
      const split = splitBody(lines[h], lines.slice(h + 1, ending.at), lines[ending.at]);
      ({ search, replace } = split);
      if (split.warning) warnings.push(split.warning);
      error = split.error;
    } else {
      // The block has no end marker: it stops before the next block's path line, its call's `</diff>`, or at the reply's end.
      if (ending.kind === 'head' || ending.kind === 'close') {
        const next = ending.kind === 'head' && !call ? pathAbove(lines, ending.at, h + 1, context.files) : { kind: 'none' as const };
        last = (next.kind === 'path' ? next.index : ending.at) - 1;
        while (last > h && (lines[last].text.trim() === '' || isFence(lines[last].text))) last--;
      } else {
        last = lines.length - 1;
      }
      const body = lines.slice(h + 1, ending.kind === 'eof' ? lines.length : ending.at);
      const d = body.findIndex((line) => isDivider(line.text));
      search = d >= 0 ? body.slice(0, d) : body;
      replace = d >= 0 ? body.slice(d + 1) : [];
      const expected = d >= 0 ? `\`${markers.end}\`` : `\`${markers.divider}\` and \`${markers.end}\``;
      error =
        ending.kind === 'close'
          ? diagnostic(
              'missing-end-marker',
              'error',
              `expected ${expected} to end the block that starts at line ${lines[h].line} before \`</diff>\` at line ${lines[ending.at].line} closes the replace_in_file call; the block was not applied`,
              linesSpan(lines[ending.at]),
            )
          : ending.kind === 'eof'
          ? diagnostic(
              'truncated',
              'error',
              `the reply ends inside the SEARCH/REPLACE block that starts at line ${lines[h].line} (expected ${expected}): it was cut off or its end marker is missing; the block was not applied`,
              endSpan(reply, lines),
            )
          : diagnostic(
              'missing-end-marker',
              'error',
              `expected ${expected} to end the block that starts at line ${lines[h].line} before the next \`${lines[ending.at].text.trim()}\` at line ${lines[ending.at].line}; the block was not applied`,
              linesSpan(lines[ending.at]),
            );
    }

    // "Paths" ("Cline's replace_in_file": a call's own `<path>`).
    const above: PathAbove = call ? { kind: 'none' } : pathAbove(lines, h, floor, context.files);
    let path: string | null = null;
    if (call) {
      const written = call.path?.text ?? '';
      if (written === '') {
        error ??= diagnostic(
          'missing-path',
          'error',
          `no file path for the SEARCH/REPLACE block at line ${lines[h].line}: its <replace_in_file> call at line ${lines[call.open].line} ${
            call.path ? 'has an empty <path></path>' : 'has no <path>…</path> line before <diff>'
          }; the block was not applied to any file. Name the file on a line of its own, <path>PATH</path>, before <diff>`,
          linesSpan(lines[call.path?.index ?? call.open]),
        );
      } else {
        path = givenFile(written, context.files) ?? normalizePath(written);
      }
    } else if (above.kind === 'path') {
      path = above.path;
    } else if (above.kind === 'not-path') {
      error ??= diagnostic(
        'missing-path',
        'error',
        `no file path for the SEARCH/REPLACE block at line ${lines[h].line}: ${quote(lines[above.index].text.trim())} at line ${lines[above.index].line}, where the path goes, is not one (${above.why}); the block was not applied to any other file. Put the path alone on the line before the opening fence`,
        linesSpan(lines[above.index]),
      );
    } else if (previousUnread) {
      error ??= diagnostic(
        'missing-path',
        'error',
        `no file path for the SEARCH/REPLACE block at line ${lines[h].line}, and the block before it named no file that could be read; put the path alone on the line before the opening fence`,
        linesSpan(lines[h]),
      );
    } else {
      path = previousPath ?? (context.files.length === 1 && !context.detected ? context.files[0] : null);
      if (path === null) {
        error ??= diagnostic(
          'missing-path',
          'error',
          `no file path for the SEARCH/REPLACE block at line ${lines[h].line}: put the path alone on the line before the opening fence`,
          linesSpan(lines[h]),
        );
      }
    }
    previousPath = path;
    previousUnread = call ? path === null : above.kind === 'not-path' || (previousUnread && above.kind === 'none');

    // "Empty SEARCH": no lines, or only blank lines for a file that was not given.
    const creates = search.length === 0 || (path !== null && !givenPaths(context.files).has(path) && search.every((l) => isBlank(l.text)));
    const edit: Edit = {
      index: edits.length,
      kind: creates ? 'append' : 'replace',
      file: path ?? '',
      old: creates ? [] : search.map((l) => l.text),
      new: replace.map((l) => l.text),
      span: linesSpan(lines[above.kind === 'none' ? h : above.index], lines[last]),
      oldSpans: creates ? [] : search.map((l) => linesSpan(l)),
      warnings,
    };
    if (error) edit.error = error;
    edits.push(edit);
    ended = ending.kind === 'end' ? { edit, first: lines[above.kind === 'none' ? h : above.index], head: lines[h], end: lines[ending.at] } : null;

    floor = ending.kind === 'close' ? ending.at + 1 : last + 1;
    i = ending.kind === 'head' ? ending.at : ending.kind === 'close' ? ending.at + 1 : last + 1;
  }
  const cut = cutBeforeHead(reply, lines, floor, edits.length, context.files);
  if (cut) edits.push(cut);
  return { edits, diagnostics };
}

/**
 * "Truncation": a reply that ends inside a code fence opened after a path
 * line (the lines after the last block), with no head in it: the reply was
 * cut off before the head of that file's block was complete, or right
 * after the fence. The edit of that file, failing with `truncated`; null
 * when the reply does not end so.
 */
function cutBeforeHead(reply: string, lines: readonly ReplyLine[], floor: number, index: number, files: readonly string[]): Edit | null {
  const blocks = scanFences(lines);
  const open = blocks[blocks.length - 1];
  if (!open || open.close !== null || open.open < floor) return null;
  if (lines.slice(open.open + 1).some((l) => isHead(l.text))) return null;
  const above = pathAbove(lines, open.open + 1, floor, files);
  if (above.kind !== 'path') return null;
  return {
    index,
    kind: 'replace',
    file: above.path,
    old: [],
    new: [],
    span: linesSpan(lines[above.index], lines[lines.length - 1]),
    warnings: [],
    error: truncatedBlock(reply, lines, open, `no SEARCH/REPLACE block of ${above.path} was read (\`<<<<<<< SEARCH\`, the lines to find, \`=======\`, the lines that replace them and \`>>>>>>> REPLACE\`), so ${above.path} was not changed`),
  };
}
