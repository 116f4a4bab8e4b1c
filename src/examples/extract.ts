// The one reader of spec examples: the test suite, the conformance dump and
// the spec pages all go through here, so the spec and the engine cannot drift.
//
// An example is a fenced block of 32 or more backticks whose info string is
// `example`. Its body is split into sections by header lines that start with
// `//// `:
//
//   //// file PATH [crlf] [noeol] [bom]   a file given to the engine (a blank in
//                                        PATH may be written `␣`)
//   //// reply [crlf] [noeol]             the model's reply
//   //// after PATH [crlf] [noeol] [bom]  the file expected afterwards
//   //// after PATH deleted               the file is expected to be deleted
//   //// edits                            one line per edit: status key=value…
//   //// diagnostics                      reply-level codes expected, one per line
//   //// options                          engine options as JSON
//   //// format NAME                      the format (default: the page's)
//
// Files without an `after` section are expected unchanged. In section bodies
// `→` stands for a tab, `␣` for a space and `␍` for a carriage return, so
// that whitespace is visible in the spec; `crlf` ends every line with CR LF,
// `noeol` drops the final newline, `bom` starts the text with U+FEFF.

import { isCode, SEVERITY } from '../core/diagnostics.ts';
import type { EngineOptions } from '../core/types.ts';

export const EXAMPLE_FENCE = /^(`{32,})\s*example\s*$/;

export interface EditExpectation {
  /** The expectation line as written, for messages. */
  source: string;
  status: 'applied' | 'failed';
  /** Only the keys written are checked. */
  fields: Partial<{
    match: string | null;
    offset: number | null;
    similarity: number | null;
    range: { start: number; end: number } | null;
    code: string | null;
    file: string;
    warnings: string[];
    duplicateOf: number | null;
  }>;
}

export interface SpecExample {
  /** Numbered from 1 within its spec file. */
  number: number;
  /** The nearest heading above the example. */
  section: string;
  /** 1-based line of the opening fence in the spec file. */
  line: number;
  format: string;
  files: Record<string, string>;
  reply: string;
  options?: EngineOptions;
  /** Raw bodies as written in the spec (before escapes), for rendering. */
  raw: { files: Record<string, string>; reply: string; after: Record<string, string | null> };
  expected: {
    ok: boolean;
    /** Every file after the edits; null = deleted. */
    files: Record<string, string | null>;
    edits: EditExpectation[];
    diagnostics: string[];
  };
}

export class ExampleSyntaxError extends Error {
  override name = 'ExampleSyntaxError';
  constructor(
    message: string,
    readonly line: number,
  ) {
    super(`line ${line}: ${message}`);
  }
}

const FLAGS = new Set(['crlf', 'noeol', 'bom', 'deleted']);

/** Set a path's entry as an own property, whatever the path (`__proto__` too). */
function put<T>(map: Record<string, T>, key: string, value: T): void {
  Object.defineProperty(map, key, { value, writable: true, enumerable: true, configurable: true });
}

/** Turn a section body (lines as written) into exact text. */
export function decodeBody(lines: readonly string[], flags: ReadonlySet<string>): string {
  const eol = flags.has('crlf') ? '\r\n' : '\n';
  const unescape = (s: string) => s.replace(/→/g, '\t').replace(/␣/g, ' ').replace(/␍/g, '\r');
  let text = lines.map((l) => unescape(l) + eol).join('');
  if (flags.has('noeol') && text.endsWith(eol)) text = text.slice(0, -eol.length);
  return (flags.has('bom') ? '\uFEFF' : '') + text;
}

function parseEditLine(text: string, line: number): EditExpectation {
  const [status, ...pairs] = text.trim().split(/\s+/);
  if (status !== 'applied' && status !== 'failed')
    throw new ExampleSyntaxError(`an edit line starts with "applied" or "failed", found ${JSON.stringify(status)}`, line);
  const fields: EditExpectation['fields'] = {};
  const num = (v: string) => (v === 'null' ? null : Number(v));
  for (const pair of pairs) {
    const eq = pair.indexOf('=');
    if (eq <= 0) throw new ExampleSyntaxError(`expected key=value, found ${JSON.stringify(pair)}`, line);
    const key = pair.slice(0, eq);
    const value = pair.slice(eq + 1);
    switch (key) {
      case 'match':
      case 'code':
        fields[key] = value === 'null' ? null : value;
        break;
      case 'file':
        fields.file = value.replace(/␣/g, ' ');
        break;
      case 'offset':
      case 'similarity':
      case 'duplicateOf':
        fields[key] = num(value);
        if (Number.isNaN(fields[key])) throw new ExampleSyntaxError(`${key} must be a number or null`, line);
        break;
      case 'range': {
        if (value === 'null') {
          fields.range = null;
          break;
        }
        const m = /^(\d+)-(\d+)$/.exec(value);
        if (!m) throw new ExampleSyntaxError(`range must be START-END, found ${JSON.stringify(value)}`, line);
        fields.range = { start: Number(m[1]), end: Number(m[2]) };
        break;
      }
      case 'warnings':
        fields.warnings = value === '' ? [] : value.split(',');
        break;
      default:
        throw new ExampleSyntaxError(`unknown edit key ${JSON.stringify(key)}`, line);
    }
  }
  return { source: text.trim(), status, fields };
}

interface Section {
  kind: string;
  args: string[];
  line: number;
  body: string[];
}

/** Read every example of a spec file. `format` is the page's default format. */
export function extractExamples(markdown: string, format: string): SpecExample[] {
  const lines = markdown.split('\n').map((l) => l.replace(/\r$/, ''));
  const examples: SpecExample[] = [];
  let section = '';
  let fence: string | null = null;
  let ordinaryFence: string | null = null;
  let start = 0;
  let body: string[] = [];
  for (let i = 0; i < lines.length; i++) {
    const text = lines[i];
    if (fence !== null) {
      if (text.trim() === fence) {
        examples.push(buildExample(body, examples.length + 1, section, start + 1, format));
        fence = null;
      } else {
        body.push(text);
      }
      continue;
    }
    if (ordinaryFence !== null) {
      if (text.startsWith(ordinaryFence) && text.trim() === ordinaryFence) ordinaryFence = null;
      continue;
    }
    const m = EXAMPLE_FENCE.exec(text);
    if (m) {
      fence = m[1];
      start = i;
      body = [];
      continue;
    }
    const f = /^(`{3,}|~{3,})/.exec(text);
    if (f) {
      ordinaryFence = f[1];
      continue;
    }
    const h = /^#{1,6}\s+(.*)$/.exec(text);
    if (h) section = h[1].trim();
  }
  if (fence !== null) throw new ExampleSyntaxError('example fence is never closed', start + 1);
  return examples;
}

export function buildExample(body: string[], number: number, section: string, line: number, pageFormat: string): SpecExample {
  const sections: Section[] = [];
  body.forEach((text, k) => {
    const m = /^\/\/\/\/ (\S+)(.*)$/.exec(text);
    if (m) sections.push({ kind: m[1], args: m[2].trim().split(/\s+/).filter(Boolean), line: line + 1 + k, body: [] });
    else if (sections.length === 0) {
      if (text.trim() !== '') throw new ExampleSyntaxError('text before the first "//// " section header', line + 1 + k);
    } else sections[sections.length - 1].body.push(text);
  });

  let format = pageFormat;
  const files: Record<string, string> = {};
  const after: Record<string, string | null> = {};
  const raw: SpecExample['raw'] = { files: {}, reply: '', after: {} };
  let reply: string | null = null;
  let options: EngineOptions | undefined;
  let edits: EditExpectation[] = [];
  let diagnostics: string[] = [];
  for (const s of sections) {
    // A path may hold blanks (written as they are, or as `␣`); the known flags at the end are flags.
    let cut = s.args.length;
    while (cut > 1 && FLAGS.has(s.args[cut - 1])) cut--;
    const first = s.args.length ? s.args.slice(0, cut).join(' ').replace(/␣/g, ' ') : undefined;
    const rest = s.args.slice(cut);
    const flagsOf = (args: string[]) => {
      for (const a of args) if (!FLAGS.has(a)) throw new ExampleSyntaxError(`unknown flag ${JSON.stringify(a)}`, s.line);
      return new Set(args);
    };
    switch (s.kind) {
      case 'file':
        if (!first) throw new ExampleSyntaxError('"//// file" needs a path', s.line);
        put(files, first, decodeBody(s.body, flagsOf(rest)));
        put(raw.files, first, s.body.join('\n'));
        break;
      case 'after': {
        if (!first) throw new ExampleSyntaxError('"//// after" needs a path', s.line);
        const flags = flagsOf(rest);
        put(after, first, flags.has('deleted') ? null : decodeBody(s.body, flags));
        put(raw.after, first, flags.has('deleted') ? null : s.body.join('\n'));
        break;
      }
      case 'reply':
        reply = decodeBody(s.body, flagsOf(s.args));
        raw.reply = s.body.join('\n');
        break;
      case 'edits':
        edits = s.body.flatMap((t, k) => (t.trim() === '' ? [] : [parseEditLine(t, s.line + 1 + k)]));
        break;
      case 'diagnostics':
        diagnostics = s.body.map((t) => t.trim()).filter(Boolean);
        break;
      case 'options':
        try {
          options = JSON.parse(s.body.join('\n')) as EngineOptions;
        } catch {
          throw new ExampleSyntaxError('"//// options" body is not JSON', s.line);
        }
        break;
      case 'format':
        if (!first) throw new ExampleSyntaxError('"//// format" needs a name', s.line);
        format = first;
        break;
      default:
        throw new ExampleSyntaxError(`unknown section "//// ${s.kind}"`, s.line);
    }
  }
  if (reply === null) throw new ExampleSyntaxError('an example needs a "//// reply" section', line);
  return {
    number,
    section,
    line,
    format,
    files,
    reply,
    ...(options ? { options } : {}),
    raw,
    expected: {
      ok: edits.every((e) => e.status === 'applied') && !diagnostics.some((code) => isCode(code) && SEVERITY[code] === 'error'),
      files: { ...files, ...after },
      edits,
      diagnostics,
    },
  };
}
