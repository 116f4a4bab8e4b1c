// Read a whole model reply (prose, fences, tool-call XML and all) into Roo
// apply_diff edits. spec/formats/roo.md is the contract; section names below
// refer to it.

import { diagnostic } from '../../core/diagnostics.ts';
import { givenPaths, resolveFile } from '../../core/paths.ts';
import { columnSpan, endSpan, linesSpan, linesOf, type ReplyLine } from '../../core/reply.ts';
import type { Diagnostic, Edit, ParseContext, ParseResult, Span } from '../../core/types.ts';
import {
  CLOSE_CONTAINER,
  DIVIDER,
  END_LINE,
  LINE_MARKER,
  NUMBERED,
  REPLACE,
  SEARCH,
  SEPARATOR,
  START_LINE,
  escapeLength,
  numberedPrefix,
} from './syntax.ts';

/** A tool-call element that can name a path (`<apply_diff>` or `<file>`). */
interface PathHolder {
  path: string | null;
  /** The line of the `<apply_diff>` tag that opened the call (none for `<file>` or a bare `<path>`). */
  opened?: ReplyLine;
}

/** A `<diff>` element: its `<start_line>` applies to its blocks without a hint of their own. */
interface DiffElement {
  startLine: { value: string; span: Span } | null;
}

interface Block {
  /** Index (into reply lines) of the SEARCH marker. */
  first: number;
  /** Index of the last line that belongs to the block. */
  last: number;
  call: PathHolder | null;
  file: PathHolder | null;
  diff: DiffElement | null;
  start: { number: number; line: ReplyLine } | null;
  end: number | null;
  search: ReplyLine[];
  replace: ReplyLine[];
  error?: Diagnostic;
}

const TAG = /^<(\/?)(apply_diff|args|file|path|diff|content|start_line|end_line)>/;

const show = (s: string) => '`' + s + '`';


export function parseRoo(reply: string, context: ParseContext): ParseResult {
  const lines = linesOf(reply, context.lexed);
  const blocks: Block[] = [];
  const diagnostics: Diagnostic[] = [];

  // The tool-call elements open at the current line.
  let call: PathHolder | null = null;
  let file: PathHolder | null = null;
  let diff: DiffElement | null = null;

  /** Read the tags of a line outside any block ("Tool calls"). */
  const readTags = (i: number): number => {
    let rest = lines[i].text.trim();
    let offset = lines[i].text.indexOf(rest);
    while (rest.length > 0) {
      const m = TAG.exec(rest);
      if (!m) break;
      const [tag, close, name] = m;
      rest = rest.slice(tag.length);
      offset += tag.length;
      if (!close && (name === 'path' || name === 'start_line' || name === 'end_line')) {
        // A value element: its text runs to the closing tag, on this line or a later one.
        const closing = `</${name}>`;
        let value: string;
        let valueSpan: Span;
        const at = rest.indexOf(closing);
        if (at >= 0) {
          value = rest.slice(0, at);
          valueSpan = columnSpan(lines[i], offset, offset + at);
          rest = rest.slice(at + closing.length);
          offset += at + closing.length;
        } else {
          // The value may run over a few lines (`<path>` / `src/a.ts` / `</path>`).
          let k = i + 1;
          let end = -1;
          for (; k < lines.length && k <= i + 3; k++) {
            if (SEARCH.test(lines[k].text.trim())) break;
            end = lines[k].text.indexOf(closing);
            if (end >= 0) break;
          }
          if (end < 0) {
            // Never closed: the rest of the line is the value.
            value = rest;
            valueSpan = columnSpan(lines[i], offset, lines[i].text.length);
            rest = '';
          } else {
            value = [rest, ...lines.slice(i + 1, k).map((l) => l.text), lines[k].text.slice(0, end)].join('\n');
            valueSpan = linesSpan(lines[i], lines[k]);
            i = k;
            rest = lines[k].text.slice(end + closing.length).trim();
            offset = lines[k].text.length - rest.length;
          }
        }
        if (name === 'path') {
          // A path names the blocks of its element; a second one never renames blocks
          // already read under the first (a reply cut after a `<path>` line quoted in a
          // block must not move the complete blocks before it): it opens a holder of its own.
          const holder = file ?? call;
          if (holder && holder.path === null) holder.path = value.trim();
          else if (file) file = { path: value.trim() };
          else call = { path: value.trim() }; // a bare <path>: the blocks after it belong to it
        } else if (name === 'start_line' && diff) {
          diff.startLine = { value: value.trim(), span: valueSpan };
        }
        continue;
      }
      switch (name) {
        case 'apply_diff':
          call = close ? null : { path: null, opened: lines[i] };
          file = diff = null;
          break;
        case 'file':
          file = close ? null : { path: null };
          diff = null;
          break;
        case 'diff':
          diff = close ? null : { startLine: null };
          break;
        case 'args':
          if (close) file = diff = null;
          break;
      }
    }
    return i + 1;
  };

  // "End markers in content": the last block, while no SEARCH marker has followed its REPLACE marker.
  let ended = null as Block | null; // (set by readBlock)

  let i = 0;
  while (i < lines.length) {
    const t = lines[i].text.trim();
    if (SEARCH.test(t)) {
      i = readBlock(i);
      continue;
    }
    if (REPLACE.test(t)) {
      if (ended) {
        // A second REPLACE marker before any new block: either could end the block.
        if (ended.error?.code !== 'ambiguous-end') {
          ended.error = diagnostic(
            'ambiguous-end',
            'error',
            `the block that starts at line ${lines[ended.first].line} has a REPLACE marker at line ${lines[ended.last].line} and another, ${show(t)}, at line ${lines[i].line}, with no new block between: the lines between may be REPLACE lines, so the block could end at either; it was not applied. Escape a content line that reads as a marker with a backslash (${show('\\>>>>>>> REPLACE')}), or remove a repeated marker`,
            linesSpan(lines[i]),
          );
        }
        ended.last = i;
      } else {
        diagnostics.push(
          diagnostic('stray-marker', 'warning', `${show(t)} at line ${lines[i].line} is outside any SEARCH/REPLACE block and was ignored`, linesSpan(lines[i])),
        );
      }
      i++;
      continue;
    }
    i = readTags(i);
  }

  /** Read the block whose SEARCH marker is at `i`; returns the index to resume at. */
  function readBlock(first: number): number {
    const block: Block = { first, last: first, call, file, diff, start: null, end: null, search: [], replace: [] };
    blocks.push(block);
    ended = null;
    const fail = (d: Diagnostic) => {
      block.error ??= d;
    };

    // Header: line hints, then the optional `-------`.
    let i = first + 1;
    for (; i < lines.length; i++) {
      const line = lines[i];
      const t = line.text.trim();
      const s = START_LINE.exec(t);
      const e = END_LINE.exec(t);
      if (s || e) {
        if ((s && block.start) || (e && block.end !== null)) {
          fail(diagnostic('malformed', 'error', `a second ${show(s ? ':start_line:' : ':end_line:')} at line ${line.line}; a block has one of each`, linesSpan(line)));
        } else if (s && Number(s[1]) < 1) {
          fail(diagnostic('malformed', 'error', `${show(t)} at line ${line.line}: line numbers start at 1`, linesSpan(line)));
        } else if (s) {
          block.start = { number: Number(s[1]), line };
        } else {
          block.end = Number(e![1]);
        }
        continue;
      }
      if (LINE_MARKER.test(t)) {
        fail(
          diagnostic(
            'malformed',
            'error',
            `malformed line hint ${show(t)} at line ${line.line}: expected ${show(':start_line:N')} or ${show(':end_line:N')} with a line number`,
            linesSpan(line),
          ),
        );
        continue;
      }
      if (SEPARATOR.test(t)) i++;
      break;
    }

    // SEARCH, then REPLACE.
    let section: 'search' | 'replace' = 'search';
    let dividerAt = -1;
    let closeAt = -1; // first closing tag of a tool-call element inside the block
    for (; i < lines.length; i++) {
      const line = lines[i];
      const t = line.text.trim();
      if (SEARCH.test(t)) return cut(i, section);
      if (section === 'search' && DIVIDER.test(t)) {
        section = 'replace';
        dividerAt = i;
        continue;
      }
      if (REPLACE.test(t)) {
        block.last = i;
        ended = block;
        if (section === 'search') {
          fail(
            diagnostic(
              'missing-divider',
              'error',
              `expected ${show('=======')} between the SEARCH and REPLACE sections, found ${show(t)} at line ${line.line}`,
              linesSpan(line),
            ),
          );
        }
        return i + 1;
      }
      if (section === 'replace' && DIVIDER.test(t)) {
        fail(
          diagnostic(
            'malformed',
            'error',
            `a second ${show('=======')} at line ${line.line}: a block has one divider; write a content line ${show('=======')} as ${show('\\=======')}`,
            linesSpan(line),
          ),
        );
      } else if (LINE_MARKER.test(t) && !line.text.startsWith('\\')) {
        fail(
          diagnostic(
            'malformed',
            'error',
            `line hints are only allowed right after ${show('<<<<<<< SEARCH')}; found ${show(t)} at line ${line.line} in the ${section.toUpperCase()} section (write a content line as ${show('\\' + t)})`,
            linesSpan(line),
          ),
        );
      }
      if (closeAt < 0 && CLOSE_CONTAINER.test(t)) closeAt = i;
      (section === 'search' ? block.search : block.replace).push(line);
    }
    return cut(lines.length, section);

    /**
     * The block ends without its REPLACE marker, at `at` (a new SEARCH
     * marker, or the end of the reply). When a tool-call element closed
     * inside it, the block ends before that tag instead, and reading
     * resumes there.
     */
    function cut(at: number, where: 'search' | 'replace'): number {
      const expected = where === 'search' ? '=======' : '>>>>>>> REPLACE';
      if (closeAt >= 0) {
        const keep = (l: ReplyLine) => l.line - 1 < closeAt;
        block.search = block.search.filter(keep);
        block.replace = block.replace.filter(keep);
        block.last = Math.max(first, closeAt - 1);
        const found = lines[closeAt];
        const inSearch = dividerAt < 0 || dividerAt > closeAt;
        block.error = diagnostic(
          inSearch ? 'missing-divider' : 'missing-end-marker',
          'error',
          `expected ${show(inSearch ? '=======' : '>>>>>>> REPLACE')} before ${show(found.text.trim())} at line ${found.line}`,
          linesSpan(found),
        );
        return closeAt;
      }
      block.last = Math.max(first, at - 1);
      if (at >= lines.length) {
        block.error = diagnostic(
          'truncated',
          'error',
          `the reply ends inside the block that starts at line ${lines[first].line} (expected ${show(expected)}): it was cut off or its end marker is missing; the block was not applied`,
          endSpan(reply, lines),
        );
      } else {
        block.error = diagnostic(
          'missing-end-marker',
          'error',
          `expected ${show(expected)} before the next ${show('<<<<<<< SEARCH')} at line ${lines[at].line}`,
          linesSpan(lines[at]),
        );
      }
      return at;
    }
  }

  // "Truncation": an apply_diff call still open at the end of the reply, with no block read in it.
  const open = call as PathHolder | null;
  if (open?.opened && !blocks.some((b) => b.call === open)) {
    diagnostics.push(
      diagnostic(
        'truncated',
        'error',
        `the reply ends inside the apply_diff call opened at line ${open.opened.line}${open.path ? ` for ${open.path}` : ''}, before \`</apply_diff>\` and before any complete SEARCH/REPLACE block: it was cut off; send the rest of the call`,
        endSpan(reply, lines),
      ),
    );
  }
  const edits = blocks.map((b, index) => toEdit(b, index, lines, context));
  return { edits, diagnostics };
}

interface Section {
  lines: string[];
  spans: Span[];
  /** The number of the first line, when every line had a `N | ` prefix. */
  numbered: number | null;
}

/** Content lines: `N | ` prefixes stripped when every line has one, else the escape removed. */
function readSection(rows: readonly ReplyLine[]): Section {
  const numbered = rows.length > 0 && rows.every((r) => NUMBERED.test(r.text));
  const out: Section = { lines: [], spans: [], numbered: null };
  for (const row of rows) {
    const from = numbered ? numberedPrefix(row.text)!.length : escapeLength(row.text);
    out.lines.push(row.text.slice(from));
    out.spans.push(columnSpan(row, from, row.text.length));
  }
  if (numbered) out.numbered = numberedPrefix(rows[0].text)!.number;
  return out;
}

function toEdit(block: Block, index: number, lines: readonly ReplyLine[], context: ParseContext): Edit {
  const span = linesSpan(lines[block.first], lines[block.last]);
  const search = readSection(block.search);
  const replace = readSection(block.replace);
  const warnings: Diagnostic[] = [];
  if (replace.numbered !== null) {
    warnings.push(
      diagnostic(
        'numbered-insert',
        'warning',
        `the REPLACE lines carry read_file line numbers (line ${block.replace[0].line}); the ${show('N | ')} prefixes were removed`,
        columnSpan(block.replace[0], 0, numberedPrefix(block.replace[0].text)!.length),
      ),
    );
  }

  const raw = block.file?.path?.trim() || block.call?.path?.trim() || null; // an empty <path> names nothing
  // "Tool calls and paths": a path differing from a given file only by `./`, `\` or case is that file.
  let file = raw === null ? null : resolveFile(raw, context.files);
  if (file === null && context.files.length === 1 && !context.detected) file = context.files[0];
  let error = block.error;
  if (file === null && !error) {
    error = diagnostic(
      'missing-path',
      'error',
      `no file path for the block at line ${lines[block.first].line}: put it in an ${show('<apply_diff>')} tool call with ${show('<path>…</path>')}`,
      linesSpan(lines[block.first]),
    );
  }

  // The hint: `:start_line:`, else the `<diff>` element's `<start_line>`, else the first `N | ` number.
  let cited: number | undefined;
  const meta: NonNullable<Edit['meta']> = {};
  if (block.start) {
    cited = block.start.number;
    meta.hint = 'start_line';
  } else if (block.diff?.startLine) {
    const { value, span: at } = block.diff.startLine;
    if (/^\d+$/.test(value) && Number(value) >= 1) {
      cited = Number(value);
      meta.hint = 'start_line element';
    } else {
      error ??= diagnostic(
        'malformed',
        'error',
        `${show('<start_line>')} must hold a line number from 1, found ${JSON.stringify(value)} at line ${at.start.line}`,
        at,
      );
    }
  } else if (search.numbered !== null && search.numbered >= 1) {
    cited = search.numbered;
    meta.hint = 'line numbers';
  }
  if (block.end !== null) meta.endLine = block.end;

  const kind = search.lines.length === 0 && file !== null && !givenPaths(context.files).has(file) ? 'append' : 'replace';
  const edit: Edit = {
    index,
    kind,
    file: file ?? '',
    old: kind === 'append' ? [] : search.lines,
    new: replace.lines,
    span,
    warnings,
  };
  if (kind === 'replace') {
    edit.oldSpans = search.spans;
    if (cited !== undefined) edit.cited = cited;
  }
  if (Object.keys(meta).length > 0) edit.meta = meta;
  if (error) edit.error = error;
  return edit;
}
