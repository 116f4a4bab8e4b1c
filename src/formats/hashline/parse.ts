// Read a whole model reply into hashline edits: JSON tool calls found
// anywhere in it (bare, in arrays, in code fences, one per line, amid prose).
// spec/formats/hashline.md is the contract; section names below refer to it.

import { diagnostic } from '../../core/diagnostics.ts';
import type { Code } from '../../core/diagnostics.ts';
import { resolveFile } from '../../core/paths.ts';
import { lastAtOrBelow, lineStarts, linesOf } from '../../core/reply.ts';
import type { Diagnostic, Edit, LexedReply, ParseContext, ParseResult, Position, Span } from '../../core/types.ts';
import { readJson, repeatedKey, type JsonMember, type JsonNode, type JsonObject, type JsonString } from '../../core/json.ts';
import { expectedWords } from './json.ts';
import { FILE_TAG_PATTERN } from './tag.ts';

export type Op = 'replace' | 'insert_after' | 'delete';
export const OPS: readonly Op[] = ['replace', 'insert_after', 'delete'];

/** What `locate` needs, kept in `Edit.meta`. */
export interface HashlineMeta {
  op: Op;
  /** The cited line numbers, consecutive (empty for an insertion after line 0). */
  lines: number[];
  /** Per cited line: the tag to check, or '' when only the file tag checks it. */
  tags: string[];
  /** The file tag to check (lowercase), or null. */
  fileTag: string | null;
}

/** A line that opens or closes a code fence: a JSON value never spans one ("Finding the calls"). */
const FENCE_LINE = /^[ \t]*(?:`{3,}|~{3,})/;

/** Characters the brace scan of broken calls may look at in one reply, in all. */
const EXTENT_BUDGET = 2_000_000;

/** Text that clearly means an edit call, even when it is not valid JSON. */
const INTENT = /["']?\btool\b["']?\s*[:=]\s*["']?(?:edit|write)\b|["'](?:lines|tag|file_tag)["']\s*:/i;

/** Offsets to positions, for one reply. */
class Locator {
  private readonly starts: number[];
  constructor(readonly text: string, lexed?: LexedReply) {
    this.starts = lineStarts(text, lexed);
  }
  position(offset: number): Position {
    const k = lastAtOrBelow(this.starts.length, offset, (j) => this.starts[j]);
    return { line: k + 1, column: offset - this.starts[k] + 1 };
  }
  span(from: number, to: number): Span {
    return { from, to, start: this.position(from), end: this.position(to) };
  }
  where(offset: number): string {
    const p = this.position(offset);
    return `line ${p.line}, column ${p.column}`;
  }
  /** Offset of the end of the line holding `offset` (before its CR LF or LF). */
  lineEnd(offset: number): number {
    const line = this.position(offset).line;
    const end = line < this.starts.length ? this.starts[line] - 1 : this.text.length;
    return end > offset && this.text[end - 1] === '\r' ? end - 1 : end;
  }
  lineStart(offset: number): number {
    return this.starts[this.position(offset).line - 1];
  }
}

class EditError {
  constructor(
    readonly code: Code,
    readonly message: string,
    readonly from: number,
    readonly to: number,
  ) {}
}

const show = (s: string) => JSON.stringify(s);

function describe(node: JsonNode): string {
  switch (node.type) {
    case 'string':
      return show(node.value.length > 40 ? node.value.slice(0, 40) + '…' : node.value);
    case 'object':
      return 'an object';
    case 'array':
      return 'an array';
    case 'null':
      return 'null';
    default:
      return String(node.value);
  }
}

/**
 * The lines of a text given as a JSON string: split at LF (a CR before it
 * belongs to the ending); a final line ending ends the last line and starts
 * no new one, so `""` has no lines and `"\n"` one empty line.
 */
export function textLines(s: string): string[] {
  if (s === '') return [];
  const parts = s.split('\n');
  const out = parts.map((p, i) => (i < parts.length - 1 && p.endsWith('\r') ? p.slice(0, -1) : p));
  if (s.endsWith('\n')) out.pop();
  return out;
}

/** Is this object an edit call? `"tool"` says so, or (without `"tool"`) a path with hashline citations. */
function callKind(node: JsonObject): 'edit' | 'write' | null {
  const tool = node.members.find((m) => m.key.value === 'tool');
  if (tool) {
    if (tool.value.type !== 'string') return null;
    const v = tool.value.value.trim().toLowerCase();
    return v === 'edit' || v === 'write' ? v : null;
  }
  const keys = new Set(node.members.map((m) => m.key.value));
  if (keys.has('path') && (keys.has('tag') || keys.has('lines') || keys.has('file_tag'))) return 'edit';
  return null;
}

/** One `N:TAG` entry of `"lines"`: number, tag, and where the tag is in the value. */
interface Entry {
  number: number;
  /** The entry's place in the reply. */
  from: number;
  to: number;
  tag: string;
  tagAt: number;
}

export function parseHashline(reply: string, context: ParseContext): ParseResult {
  const files = context?.files ?? [];
  /** A path names a given file up to `./`, `\\` and letter case (`resolveFile`); blanks around it are ignored. */
  const resolve = (written: string) => resolveFile(written.trim(), files);
  const loc = new Locator(reply, context.lexed);
  const edits: Edit[] = [];

  // Segments: maximal runs of lines between fence lines.
  const segments: [number, number][] = [];
  {
    let segStart = 0;
    const lines = linesOf(reply, context.lexed);
    lines.forEach((line, k) => {
      if (!FENCE_LINE.test(line.text)) return;
      if (line.from > segStart) segments.push([segStart, line.from]);
      segStart = k + 1 < lines.length ? lines[k + 1].from : reply.length;
    });
    if (segStart < reply.length) segments.push([segStart, reply.length]);
  }

  const spanOf = (from: number, to: number) => loc.span(from, to);

  const collect = (node: JsonNode): void => {
    if (node.type === 'object') {
      const kind = callKind(node);
      if (kind) {
        edits.push(buildEdit(node, kind, edits.length));
        return;
      }
      for (const m of node.members) collect(m.value);
    } else if (node.type === 'array') {
      for (const item of node.items) collect(item);
    }
  };

  const buildEdit = (node: JsonObject, kind: 'edit' | 'write', index: number): Edit => {
    const span = spanOf(node.from, node.to);
    let file = '';
    const base = (): Edit => ({ index, kind: kind === 'write' ? 'write' : 'replace', file, old: [], new: [], span, warnings: [] });
    try {
      // Keys: each at most once.
      const repeated = repeatedKey(node);
      if (repeated) {
        const k = repeated.key;
        throw new EditError('malformed', `${loc.where(k.from)}: the key ${show(k.value)} appears twice in this edit call; give it once`, k.from, k.to);
      }
      const byKey = new Map<string, JsonMember>(node.members.map((m) => [m.key.value, m]));
      const get = (key: string): JsonNode | undefined => byKey.get(key)?.value;
      const bad = (n: JsonNode, what: string): never => {
        throw new EditError('malformed', `${loc.where(n.from)}: ${what}, found ${describe(n)}`, n.from, n.to);
      };

      // Path.
      const pathNode = get('path');
      if (pathNode === undefined || (pathNode.type === 'string' && pathNode.value.trim() === '')) {
        const at = pathNode ?? node;
        throw new EditError(
          'missing-path',
          `${loc.where(at.from)}: this ${kind} call names no file: add "path" with the file's path as the read view names it`,
          at.from,
          pathNode ? pathNode.to : node.from + 1,
        );
      }
      if (pathNode.type !== 'string') bad(pathNode, '"path" must be a string');
      file = resolve((pathNode as JsonString).value);

      if (kind === 'write') {
        const content = get('content');
        if (content === undefined)
          throw new EditError('malformed', `${loc.where(node.from)}: this write call has no "content": give the file's whole text`, node.from, node.from + 1);
        return { ...base(), new: newLines(content, 'content', bad) };
      }

      // Operation.
      const opNode = get('op');
      let op: Op = 'replace';
      if (opNode !== undefined) {
        const v = opNode.type === 'string' ? opNode.value.trim() : null;
        if (v === null || !(OPS as readonly string[]).includes(v)) bad(opNode, '"op" must be "replace", "insert_after" or "delete"');
        op = v as Op;
      }

      // File tag.
      const fileTagNode = get('file_tag');
      let fileTag: string | null = null;
      if (fileTagNode !== undefined) {
        if (fileTagNode.type !== 'string' || !FILE_TAG_PATTERN.test(fileTagNode.value.trim()))
          bad(fileTagNode, '"file_tag" must be the 8 hexadecimal digits the read view shows after "file_tag:"');
        fileTag = (fileTagNode as JsonString).value.trim().toLowerCase();
      }

      // Citation: "line" (+ "tag"), "lines", or "range" (with "file_tag").
      const lineNode = get('line');
      const tagNode = get('tag');
      const linesNode = get('lines');
      const rangeNode = get('range');
      const given = [lineNode && '"line"', linesNode && '"lines"', rangeNode && '"range"'].filter(Boolean);
      if (given.length > 1) {
        const second = ['line', 'lines', 'range']
          .flatMap((k) => (byKey.has(k) ? [byKey.get(k)!.key] : []))
          .sort((a, b) => a.from - b.from)[1];
        throw new EditError(
          'malformed',
          `${loc.where(second.from)}: this edit call cites lines with both ${given.join(' and ')}; use one: "line" and "tag" for one line, "lines" for several, or "range" with "file_tag"`,
          second.from,
          second.to,
        );
      }
      if (tagNode !== undefined && lineNode === undefined)
        bad(tagNode, '"tag" goes with "line" (one line); with "lines", write each tag after its number ("11:rA3_\\n12:Kq9z")');

      let numbers: number[] = [];
      let tags: string[] = [];
      let tagSpans: (Span | null)[] = [];
      if (linesNode !== undefined) {
        const entries = readLines(linesNode, bad);
        checkConsecutive(entries);
        numbers = entries.map((e) => e.number);
        tags = entries.map((e) => e.tag);
        tagSpans = entries.map((e) => spanOf(e.tagAt, e.tagAt + e.tag.length));
        // A tag span is only meaningful when the tag stands in the reply as written (no escapes).
        tagSpans = tagSpans.map((s, k) => (s && reply.slice(s.from, s.to) === tags[k] ? s : null));
      } else if (rangeNode !== undefined) {
        if (fileTag === null) bad(rangeNode, '"range" cites lines by number only, so it needs "file_tag" (the read view\'s first line); or cite "lines" with their tags');
        const [a, b] = readRange(rangeNode, bad);
        numbers = [];
        for (let n = a; n <= b; n++) numbers.push(n);
        tags = numbers.map(() => '');
        tagSpans = numbers.map(() => null);
      } else if (lineNode !== undefined) {
        let n = 0;
        let tag = '';
        let tagAt = -1;
        if (lineNode.type === 'number') {
          n = lineNode.value;
          if (!Number.isInteger(n) || n < 0) bad(lineNode, '"line" must be a line number (a whole number, 0 for the top of the file)');
        } else if (lineNode.type === 'string') {
          const m = /^\s*(\d+)(?::(\S+))?\s*$/.exec(lineNode.value);
          if (!m) bad(lineNode, '"line" must be a line number, or "N:TAG" as the read view shows it');
          n = Number(m![1]);
          if (m![2] !== undefined) {
            if (tagNode !== undefined) bad(tagNode, `"line" already gives the tag ${show(m![2])}; drop "tag" or write "line" as a number`);
            tag = m![2];
            tagAt = lineNode.offset(lineNode.value.indexOf(':') + 1);
          }
        } else {
          return bad(lineNode, '"line" must be a line number');
        }
        if (tagNode !== undefined) {
          if (tagNode.type !== 'string') bad(tagNode, '"tag" must be a string: the 4 characters after "N:" in the read view');
          const t = tagNode as JsonString;
          tag = t.value.trim();
          tagAt = tag === '' ? -1 : t.offset(t.value.indexOf(tag));
        }
        if (n === 0) {
          if (op !== 'insert_after')
            bad(lineNode, 'line 0 is the place before the first line: only "op": "insert_after" can cite it; lines are numbered from 1');
          numbers = [];
        } else {
          if (tag === '' && fileTag === null)
            throw new EditError(
              'malformed',
              `${loc.where(lineNode.from)}: this edit call cites line ${n} without its tag: add "tag" with the 4 characters the read view shows after "${n}:"`,
              lineNode.from,
              lineNode.to,
            );
          numbers = [n];
          tags = [tag];
          tagSpans = [tag !== '' && tagAt >= 0 && reply.slice(tagAt, tagAt + tag.length) === tag ? spanOf(tagAt, tagAt + tag.length) : null];
        }
      } else {
        throw new EditError(
          'malformed',
          `${loc.where(node.from)}: this edit call cites no line: give "line" and "tag" for one line, or "lines" ("11:rA3_\\n12:Kq9z") for several, as the read view shows them`,
          node.from,
          node.from + 1,
        );
      }

      // New lines.
      const newNode = get('new');
      let lines: string[] = [];
      if (op === 'delete') {
        if (newNode !== undefined && !(newNode.type === 'null' || (newNode.type === 'string' && newNode.value === '') || (newNode.type === 'array' && newNode.items.length === 0)))
          bad(newNode, '"op": "delete" takes no "new"; to replace the lines, use "op": "replace"');
      } else if (newNode === undefined) {
        throw new EditError(
          'malformed',
          `${loc.where(node.from)}: this ${op} has no "new": give the ${op === 'replace' ? 'replacement lines ("" to remove the lines)' : 'lines to insert'}`,
          node.from,
          node.from + 1,
        );
      } else {
        lines = newLines(newNode, 'new', bad);
        if (op === 'insert_after' && lines.length === 0)
          bad(newNode, '"op": "insert_after" needs at least one line in "new" (for one empty line write "\\n" or [""])');
      }

      const meta: HashlineMeta = { op, lines: numbers, tags, fileTag };
      const edit: Edit = {
        ...base(),
        old: tags,
        new: lines,
        meta: { ...meta },
        ...(numbers.length > 0 ? { cited: numbers[0] } : {}),
        ...(tagSpans.length > 0 && tagSpans.every((s) => s !== null) ? { oldSpans: tagSpans as Span[] } : {}),
      };
      return edit;
    } catch (e) {
      if (!(e instanceof EditError)) throw e;
      return { ...base(), error: diagnostic(e.code, 'error', e.message, spanOf(e.from, e.to)) };
    }
  };

  /** `"new"` / `"content"`: a text (string), lines (array of strings), or null (no lines). */
  const newLines = (n: JsonNode, key: string, bad: (n: JsonNode, what: string) => never): string[] => {
    if (n.type === 'string') return textLines(n.value);
    if (n.type === 'null') return [];
    if (n.type === 'array') {
      return n.items.map((item) => {
        if (item.type !== 'string') return bad(item, `each line of "${key}" must be a string`);
        if (item.value.includes('\n')) return bad(item, `a line of "${key}" given as an array holds no line break (split it into two lines)`);
        return item.value;
      });
    }
    return bad(n, `"${key}" must be a string (lines separated by "\\n") or an array of lines`);
  };

  const readRange = (n: JsonNode, bad: (n: JsonNode, what: string) => never): [number, number] => {
    let a: number | undefined;
    let b: number | undefined;
    if (n.type === 'array' && n.items.length === 2 && n.items.every((i) => i.type === 'number')) {
      a = (n.items[0] as { value: number }).value;
      b = (n.items[1] as { value: number }).value;
    } else if (n.type === 'string') {
      const m = /^\s*(\d+)\s*[:,-]\s*(\d+)\s*$/.exec(n.value);
      if (m) [a, b] = [Number(m[1]), Number(m[2])];
    }
    if (a === undefined || b === undefined || !Number.isInteger(a) || !Number.isInteger(b) || a < 1)
      return bad(n, '"range" must be [FIRST, LAST]: two line numbers from 1');
    if (b < a) return bad(n, `"range" must not end (line ${b}) before it starts (line ${a})`);
    if (b - a > 1_000_000) return bad(n, '"range" is too long');
    return [a, b];
  };

  /** `"lines"`: entries `N:TAG`, one per line of the string (or per array item). */
  const readLines = (n: JsonNode, bad: (n: JsonNode, what: string) => never): Entry[] => {
    const parts: { text: string; base: JsonString; at: number }[] = [];
    if (n.type === 'string') {
      const tokens = /^[\s,;]*\d+:[^\s,;]+(?:[\s,;]+\d+:[^\s,;]+)*[\s,;]*$/.test(n.value);
      const re = tokens ? /[^\s,;]+/g : /[^\r\n]+/g;
      for (const m of n.value.matchAll(re)) if (m[0].trim() !== '') parts.push({ text: m[0], base: n, at: m.index! });
    } else if (n.type === 'array') {
      for (const item of n.items) {
        if (item.type !== 'string') return bad(item, 'each entry of "lines" must be a string "N:TAG"');
        parts.push({ text: item.value, base: item, at: 0 });
      }
    } else {
      return bad(n, '"lines" must be a string of "N:TAG" entries, one per line ("11:rA3_\\n12:Kq9z")');
    }
    if (parts.length === 0) return bad(n, '"lines" must cite at least one line ("11:rA3_\\n12:Kq9z")');
    return parts.map(({ text, base, at }) => {
      const lead = text.length - text.trimStart().length;
      const m = /^(\d+):(\S+)(?:\s.*)?$/s.exec(text.trim());
      const from = base.offset(at + lead);
      const entryEnd = base.offset(at + text.trimEnd().length);
      const fail = (what: string): never => {
        throw new EditError('malformed', `${loc.where(from)}: ${what}, found ${show(text.trim())}`, from, entryEnd);
      };
      if (!m) return fail('each entry of "lines" must be "N:TAG" (a line number, ":", the line\'s tag), as the read view shows it');
      const number = Number(m[1]);
      const tag = m[2];
      if (/^\d+$/.test(tag) && tag.length !== 4)
        return fail('a tag is 4 characters; to cite a range of lines by number, use "range": [FIRST, LAST] with "file_tag"');
      if (number < 1) return fail('lines are numbered from 1');
      const tagIndex = at + lead + m[1].length + 1;
      return { number, from, to: entryEnd, tag, tagAt: base.offset(tagIndex) };
    });
  };

  const checkConsecutive = (list: Entry[]) => {
    for (let k = 1; k < list.length; k++) {
      const prev = list[k - 1].number;
      const cur = list[k];
      if (cur.number <= prev)
        throw new EditError(
          'remove-number-repeat',
          `${loc.where(cur.from)}: line ${cur.number} is cited after line ${prev}; cite each line once, in increasing order`,
          cur.from,
          cur.to,
        );
      if (cur.number !== prev + 1)
        throw new EditError(
          'remove-number-gap',
          `${loc.where(cur.from)}: the cited lines jump from ${prev} to ${cur.number}; one edit cites one continuous stretch: cite the lines in between, or use two edits`,
          cur.from,
          cur.to,
        );
    }
  };

  // Scan every segment for JSON values.
  const budget = { chars: EXTENT_BUDGET };
  for (const [start, limit] of segments) {
    // Where the text clearly means a call: found once per segment, so that
    // deciding about each failed `{` costs no rescan.
    const intents: [number, number][] = [];
    const re = new RegExp(INTENT.source, 'gi');
    re.lastIndex = start;
    for (let m = re.exec(reply); m && m.index < limit; m = re.exec(reply)) {
      if (m.index + m[0].length <= limit) intents.push([m.index, m.index + m[0].length]);
      if (m[0].length === 0) re.lastIndex++;
    }
    const meansCall = (from: number, to: number): boolean => {
      let lo = 0;
      let hi = intents.length;
      while (lo < hi) {
        const mid = (lo + hi) >> 1;
        if (intents[mid][0] < from) lo = mid + 1;
        else hi = mid;
      }
      return lo < intents.length && intents[lo][1] <= to;
    };
    let pos = start;
    // Containers a failed read found still open at its error: read from
    // there, they fail at the same place, so they are not read again.
    const doomed = new Set<number>();
    while (pos < limit) {
      let p = pos;
      while (p < limit && ((reply[p] !== '{' && reply[p] !== '[') || doomed.has(p))) p++;
      if (p >= limit) break;
      // `{{`: the outer brace cannot start an object; the inner one may.
      if (reply[p] === '{' && reply[p + 1] === '{') {
        pos = p + 1;
        continue;
      }
      if (reply[p] === '[') {
        let q = p + 1;
        while (q < limit && /\s/.test(reply[q])) q++;
        if (reply[q] === '{') {
          const r = readJson(reply, p, { limit, controls: 'literal' });
          if (r.ok) {
            collect(r.node);
            pos = r.end;
            continue;
          }
          for (const o of r.error.open) if (o > p && reply[o] === '[') doomed.add(o);
        }
        pos = p + 1;
        continue;
      }
      const read = readJson(reply, p, { limit, controls: 'literal' });
      if (read.ok) {
        collect(read.node);
        pos = read.end;
        continue;
      }
      const r = read.error;
      // Not JSON. Does it clearly mean an edit call?
      const { end, balanced } = extent(reply, loc, p, limit, r.offset, budget);
      if (!meansCall(p, end)) {
        for (const o of r.open) if (o > p) doomed.add(o);
        pos = p + 1;
        continue;
      }
      const text = reply.slice(p, end);
      const write = /["']?\btool\b["']?\s*[:=]\s*["']?write\b/i.test(text);
      const path = /"path"\s*:\s*"((?:[^"\\\n]|\\.)*)"/.exec(text);
      let file = '';
      if (path) {
        try {
          file = resolve(JSON.parse(`"${path[1]}"`) as string);
        } catch {
          file = resolve(path[1]);
        }
      }
      const truncated = r.atEnd && !balanced && limit === reply.length;
      const ch = reply[r.offset];
      const found =
        r.offset >= limit
          ? limit === reply.length ? 'the end of the reply' : 'the end of the code block'
          : ch === '\n' || ch === '\r' ? 'the end of the line' : `\`${ch}\``;
      const message = truncated
        ? `${loc.where(r.offset)}: the reply ends inside this ${write ? 'write' : 'edit'} call (expected ${expectedWords(r, (o) => loc.where(o))}); the reply was cut off: send this call again, complete`
        : `${loc.where(r.offset)}: this ${write ? 'write' : 'edit'} call is not valid JSON: expected ${expectedWords(r, (o) => loc.where(o))}, found ${found}`;
      const errAt = Math.min(r.offset, reply.length);
      edits.push({
        index: edits.length,
        kind: write ? 'write' : 'replace',
        file,
        old: [],
        new: [],
        span: spanOf(p, end),
        error: diagnostic(truncated ? 'truncated' : 'malformed', 'error', message, spanOf(errAt, Math.min(errAt + (r.offset < limit ? 1 : 0), reply.length))),
        warnings: [],
      });
      pos = Math.max(end, p + 1);
    }
  }

  const diagnostics: Diagnostic[] = [];
  return { edits, diagnostics };
}

/**
 * How far a call that is not valid JSON reaches: to its matching `}` when the
 * braces balance (strings do not cross lines here), else through the line of
 * the error (or to the line before it, when the error is the first thing on
 * its line).
 */
function extent(
  reply: string,
  loc: Locator,
  start: number,
  limit: number,
  errorAt: number,
  budget: { chars: number },
): { end: number; balanced: boolean } {
  let depth = 0;
  let inString = false;
  // The brace scan is skipped once a reply has used up its budget (a reply
  // made of thousands of unclosed braces), so that reading stays linear.
  for (let i = start; i < limit && budget.chars-- > 0; i++) {
    const c = reply[i];
    if (inString) {
      if (c === '\\') i++;
      else if (c === '"' || c === '\n') inString = false;
      continue;
    }
    if (c === '"') inString = true;
    else if (c === '{' || c === '[') depth++;
    else if (c === '}' || c === ']') {
      depth--;
      if (depth === 0) return { end: i + 1, balanced: true };
      if (depth < 0) break;
    }
  }
  if (errorAt >= limit) return { end: trimEnd(reply, start, limit), balanced: false };
  const lineStart = loc.lineStart(errorAt);
  if (lineStart > start && reply.slice(lineStart, errorAt).trim() === '')
    return { end: Math.max(start + 1, trimEnd(reply, start, lineStart)), balanced: false };
  return { end: Math.min(limit, Math.max(start + 1, loc.lineEnd(errorAt))), balanced: false };
}

function trimEnd(reply: string, start: number, end: number): number {
  while (end > start + 1 && /\s/.test(reply[end - 1])) end--;
  return end;
}
