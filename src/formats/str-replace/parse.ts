// Read a whole model reply (prose, fences and all) into text-editor tool
// calls: every JSON value in the reply is read, and every command object in
// it (bare, in an array, in a tool-use wrapper, nested anywhere) becomes an
// edit. spec/formats/str-replace.md is the contract.

import { at, diagnostic } from '../../core/diagnostics.ts';
import type { Code } from '../../core/diagnostics.ts';
import { givenPaths, normalizePath, notGivenMessage } from '../../core/paths.ts';
import { positioner } from '../../core/reply.ts';
import type { Diagnostic, Edit, EditKind, ParseContext, ParseResult, Span } from '../../core/types.ts';
import { member, readJson, repeatedKey, type JsonError, type JsonNode, type JsonObject, type JsonString } from '../../core/json.ts';
import { jsonErrorAt, jsonMessage, matchBracket } from './json.ts';

/** Commands that edit a file. */
export const EDIT_COMMANDS = ['str_replace', 'insert', 'create'] as const;
/** Commands of the same tool that change nothing: read and ignored. */
export const IGNORED_COMMANDS = ['view', 'undo_edit'] as const;
/** Names the tool goes by in tool-use wrappers. */
export const TOOL_NAME = /^(?:str_replace_based_edit_tool|str_replace_editor|text_editor(?:_\d+)?)$/;

const COMMAND_TEXT = /["']command["']\s*:\s*["'](str_replace|insert|create)["']/;
const TOOL_TEXT = /["'](?:str_replace_based_edit_tool|str_replace_editor)["']/;
const IGNORED_TEXT = /["']command["']\s*:\s*["'](?:view|undo_edit)["']/;
const PATH_TEXT = /["']path["']\s*:\s*["']([^"'\n]*)["']/;

/** Deepest nesting of broken JSON that is searched for tool calls inside. */
const MAX_SCAN_DEPTH = 32;

const show = (s: string) => JSON.stringify(s);

/** Line contents of a text, with CR LF read as one line break. */
export function textLines(s: string): string[] {
  return s.replace(/\r\n/g, '\n').split('\n');
}

/** The lines of a created file: its text exactly, a final line break ending the last line. */
export function fileLines(text: string): string[] {
  if (text === '') return [];
  return (text.endsWith('\n') ? text.slice(0, -1) : text).split('\n');
}

/**
 * The file a call's path names: a given file as `givenFile` finds it (as
 * written, then up to a leading `./`, `\` for `/` and letter case); else,
 * for an absolute path (`/…`, `C:\…`), the one given file it ends with
 * (after a `/`), the same way; else the path written with `/` and no
 * leading `./`. Blanks around the path are ignored.
 */
export function resolvePath(written: string, files: readonly string[]): string {
  const path = written.trim();
  const index = givenPaths(files);
  const given = index.find(path);
  if (given !== null) return given;
  const normal = normalizePath(path);
  if (normal.startsWith('/') || /^[A-Za-z]:\//.test(normal)) {
    const ends = (fold: boolean) => index.endingPath(normal, fold);
    const exact = ends(false);
    if (exact.length === 1) return exact[0];
    if (exact.length === 0) {
      const folded = ends(true);
      if (folded.length === 1) return folded[0];
    }
  }
  return normal;
}

type Found = Omit<Edit, 'index'>;

export function parseStrReplace(reply: string, context: ParseContext): ParseResult {
  const files = context.files;
  const pos = positioner(reply, context.lexed);
  const span = (from: number, to: number): Span => ({ from, to, start: pos(from), end: pos(to) });
  const nodeSpan = (n: { from: number; to: number }) => span(n.from, n.to);
  const fail = (code: Code, where: { from: number; to: number }, message: string): Diagnostic =>
    diagnostic(code, 'error', `${at(pos(where.from))}: ${message}`, span(where.from, where.to));

  /** Line spans of a decoded string's lines (after CR LF is read as one break), in the reply. */
  const lineSpans = (s: JsonString): Span[] => {
    const out: Span[] = [];
    const v = s.value;
    let start = 0;
    for (let j = 0; j <= v.length; j++) {
      if (j < v.length && v[j] !== '\n') continue;
      const end = j > start && j < v.length && v[j - 1] === '\r' ? j - 1 : j;
      out.push(span(s.offset(start), s.offset(end)));
      start = j + 1;
    }
    return out;
  };

  /** One command object (`obj`) of a tool call spanning `outer`. */
  const command = (obj: JsonObject, outer: JsonNode, wrapped: boolean): Found[] => {
    const whole = nodeSpan(outer);
    const cmd = member(obj, 'command');
    const pathNode = member(obj, 'path');
    const written = pathNode?.type === 'string' ? pathNode.value : '';
    const file = resolvePath(written, files);
    const base = { file, old: [], new: [], span: whole, warnings: [] as Diagnostic[] };
    if (cmd === undefined || cmd.type !== 'string') {
      if (!wrapped) return [];
      const where = cmd ?? obj;
      return [{ ...base, kind: 'replace', error: fail('malformed', where, cmd ? `"command" must be a string, one of ${EDIT_COMMANDS.join(', ')}` : `the tool call has no "command"; expected one of ${EDIT_COMMANDS.join(', ')}`) }];
    }
    if ((IGNORED_COMMANDS as readonly string[]).includes(cmd.value)) return [];
    if (!(EDIT_COMMANDS as readonly string[]).includes(cmd.value)) {
      if (!wrapped) return [];
      return [{ ...base, kind: 'replace', error: fail('malformed', cmd, `unknown command ${show(cmd.value)}; expected one of ${[...EDIT_COMMANDS, ...IGNORED_COMMANDS].join(', ')}`) }];
    }
    const name = cmd.value as (typeof EDIT_COMMANDS)[number];
    const kind: EditKind = name === 'str_replace' ? 'replace' : name === 'insert' ? 'insert' : 'write';

    let error: Diagnostic | undefined;
    const problem = (d: Diagnostic) => {
      error ??= d;
    };
    // Keys: each at most once (JSON.parse would keep the last silently; which one the model meant is unknown).
    const repeated = repeatedKey(obj);
    if (repeated) problem(fail('malformed', repeated.key, `the key ${show(repeated.key.value)} appears twice in this ${name} call; give it once`));
    if (pathNode === undefined) problem(fail('missing-path', obj, `the ${name} call has no "path"; name the file to edit`));
    else if (pathNode.type !== 'string') problem(fail('malformed', pathNode, `"path" must be a string`));
    else if (pathNode.value.trim() === '') problem(fail('missing-path', pathNode, `"path" is empty; name the file to edit`));

    /** A required (or optional) string field. */
    const text = (field: string, required: boolean): JsonString | null => {
      const v = member(obj, field);
      if (v === undefined || v.type === 'null') {
        if (required) problem(fail('malformed', v ?? obj, `the ${name} call needs ${show(field)} (a string)`));
        return null;
      }
      if (v.type !== 'string') {
        problem(fail('malformed', v, `${show(field)} must be a string`));
        return null;
      }
      return v;
    };

    const known = givenPaths(files).has(file);
    const edit: Found = { ...base, kind };
    switch (name) {
      case 'str_replace': {
        const oldStr = text('old_str', true);
        const newStr = text('new_str', false);
        if (oldStr && oldStr.value === '')
          problem(fail('malformed', oldStr, `"old_str" is empty; copy the text to replace from the file (to add lines, use the insert command)`));
        const oldText = oldStr?.value ?? '';
        const newText = newStr?.value ?? '';
        edit.old = oldStr ? textLines(oldText) : [];
        edit.new = textLines(newText);
        if (oldStr) edit.oldSpans = lineSpans(oldStr);
        edit.meta = { command: name, old_str: oldText, new_str: newText };
        break;
      }
      case 'insert': {
        const line = member(obj, 'insert_line');
        const newStr = text('new_str', true);
        if (line === undefined) problem(fail('malformed', obj, `the insert call needs "insert_line" (the line to insert after; 0 inserts at the top)`));
        else if (line.type !== 'number' || !Number.isInteger(line.value) || line.value < 0)
          problem(fail('malformed', line, `"insert_line" must be a whole number from 0 (the line to insert after), found ${reply.slice(line.from, line.to)}`));
        else edit.cited = line.value + 1;
        edit.new = newStr ? textLines(newStr.value) : [];
        edit.meta = { command: name, insert_line: line?.type === 'number' ? line.value : null };
        break;
      }
      case 'create': {
        const fileText = text('file_text', true);
        if (fileText) {
          edit.new = fileLines(fileText.value);
          if (fileText.value !== '') edit.finalNewline = fileText.value.endsWith('\n');
        }
        edit.meta = { command: name };
        break;
      }
    }
    if (!error && file !== '') {
      if (name === 'create' && known) problem(fail('file-exists', pathNode!, `cannot create ${file}: it already exists; change it with str_replace or insert`));
      if (name !== 'create' && !known)
        problem(
          fail('file-not-found', pathNode!, notGivenMessage(file, files, 'to make a new file, use the create command')),
        );
    }
    if (error) edit.error = error;
    return [edit];
  };

  /** Every tool call in a JSON value, in order. */
  const collect = (node: JsonNode): Found[] => {
    if (node.type === 'array') return node.items.flatMap(collect);
    if (node.type !== 'object') return [];
    const name = member(node, 'name');
    const type = member(node, 'type');
    const input = member(node, 'input') ?? member(node, 'arguments');
    const isTool = name?.type === 'string' && TOOL_NAME.test(name.value);
    const isToolUse = type?.type === 'string' && type.value === 'tool_use';
    if (isTool || (isToolUse && name === undefined)) {
      if (input?.type === 'object') return command(input, node, true);
      if (isTool && input !== undefined) {
        const key = member(node, 'input') ? 'input' : 'arguments';
        const inner = input.type === 'string' ? input.held : undefined;
        const innerAt = inner ? jsonErrorAt(inner) : 0;
        const error = inner
          ? diagnostic(
              inner.atEnd ? 'truncated' : 'malformed',
              'error',
              `${at(pos(innerAt))}: the JSON text in the tool call's "arguments" string is not valid JSON: ${jsonMessage(inner)}`,
              span(innerAt, Math.min(innerAt + 1, reply.length)),
            )
          : fail('malformed', input, `the tool call's "${key}" must be a JSON object${key === 'arguments' ? ', or a string holding one' : ''}`);
        return [{ kind: 'replace', file: '', old: [], new: [], span: nodeSpan(node), warnings: [], error }];
      }
    }
    if (isToolUse) return []; // another tool's call
    const cmd = member(node, 'command');
    if (cmd?.type === 'string' && ([...EDIT_COMMANDS, ...IGNORED_COMMANDS] as readonly string[]).includes(cmd.value)) return command(node, node, isTool);
    return node.members.flatMap((m) => collect(m.value));
  };

  /** A tool call whose JSON is broken, from `from` to `to`. */
  const broken = (from: number, to: number, error: JsonError): Found => {
    const raw = reply.slice(from, to);
    const cmd = COMMAND_TEXT.exec(raw)?.[1];
    const kind: EditKind = cmd === 'insert' ? 'insert' : cmd === 'create' ? 'write' : 'replace';
    const path = PATH_TEXT.exec(raw)?.[1] ?? '';
    const d = error.atEnd
      ? diagnostic(
          'truncated',
          'error',
          `the reply ends inside the JSON of this tool call (${at(pos(reply.length))}): it was cut off; send this call again`,
          span(reply.length, reply.length),
        )
      : diagnostic(
          'malformed',
          'error',
          `${at(pos(jsonErrorAt(error)))}: the tool call is not valid JSON: ${jsonMessage(error)}`,
          span(jsonErrorAt(error), Math.min(jsonErrorAt(error) + 1, reply.length)),
        );
    return { kind, file: resolvePath(path, files), old: [], new: [], span: span(from, to), warnings: [], error: d };
  };

  const looksLikeEdit = (raw: string) => COMMAND_TEXT.test(raw) || (TOOL_TEXT.test(raw) && !IGNORED_TEXT.test(raw));

  /** Could a JSON value holding a tool call start at `p`? */
  const plausible = (p: number): boolean => {
    let q = p + 1;
    while (q < reply.length && /\s/.test(reply[q])) q++;
    const next = reply[q];
    return reply[p] === '{' ? next === '"' || next === "'" || next === '}' || next === undefined : next === '{';
  };

  const lineEnd = (offset: number) => {
    const nl = reply.indexOf('\n', offset);
    return nl === -1 ? reply.length : nl;
  };

  /** Tool calls in JSON values starting in `[from, to)`; `reach` is where the last value read ends. */
  const scan = (from: number, to: number, depth: number): { found: Found[]; reach: number } => {
    const found: Found[] = [];
    let p = from;
    while (p < to) {
      const c = reply[p];
      if ((c !== '{' && c !== '[') || !plausible(p)) {
        p++;
        continue;
      }
      const r = readJson(reply, p);
      if (r.ok) {
        found.push(...collect(r.node));
        p = r.end;
        continue;
      }
      const close = matchBracket(reply, p);
      const end = Math.max(p + 1, close ?? (r.error.atEnd ? reply.length : lineEnd(jsonErrorAt(r.error))));
      const inner = depth < MAX_SCAN_DEPTH ? scan(p + 1, end, depth + 1) : { found: [], reach: end };
      if (inner.found.length > 0) found.push(...inner.found);
      else if (c === '{' && looksLikeEdit(reply.slice(p, end))) found.push(broken(p, end, r.error));
      p = Math.max(end, inner.reach);
    }
    return { found, reach: p };
  };

  const edits: Edit[] = scan(0, reply.length, 0).found.map((e, index) => ({ ...e, index }));
  return { edits, diagnostics: [] };
}
