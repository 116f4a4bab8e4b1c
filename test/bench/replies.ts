// The replies the scripted bench server sends, by behaviour: the engine's own
// writer's reply for a task in a format (inside a short prose reply), and
// that reply spoilt in one known way each: line numbers one off, a typo, a
// lazy elision, a broken marker, cut off mid-edit, no edits at all.

import { getFormat } from '../../src/formats/index.ts';
import { taskChanges, type BenchTask } from '../../src/bench/tasks.ts';

export type Behaviour =
  | 'right'
  | 'off-by-one'
  | 'typo'
  | 'elided'
  | 'broken-fence'
  | 'cut-off'
  | 'prose-only'
  | '429-then-ok'
  | 'stalled';

export const BEHAVIOURS: readonly Behaviour[] = ['right', 'off-by-one', 'typo', 'elided', 'broken-fence', 'cut-off', 'prose-only', '429-then-ok', 'stalled'];

export const LEAD = 'Here are the edits that turn SOURCE into TARGET.\n\n';
export const TAIL = '\n\nThat is all.';
export const PROSE_ONLY = 'I would bump the version and add the new section, but I have left the files as they are.';
export const ELISION = '// ... rest unchanged';

/** The engine's own writer's reply for the task in the format. */
export function writerReply(task: BenchTask, format: string): string {
  return getFormat(format)!.write(taskChanges(task)).replace(/\n+$/, '');
}

/**
 * The first line the change adds (in the newer release, not in the older one),
 * at least 8 characters long with a lower-case letter: every format writes it
 * (in JSON formats inside a string), so it is found in the reply as is.
 */
export function addedLine(task: BenchTask): string {
  for (const f of task.files) {
    if (f.after === null) continue;
    const before = new Set((f.before ?? '').split(/\r?\n/));
    const line = f.after.split(/\r?\n/).find((l) => !before.has(l) && l.length >= 8 && /[a-z]/.test(l) && !/["\\]/.test(l));
    if (line) return line;
  }
  throw new Error(`${task.id} adds no line to spoil`);
}

/** Where the added line is in the writer's reply. */
function addedAt(task: BenchTask, reply: string): { at: number; line: string } {
  const line = addedLine(task);
  const at = reply.indexOf(line);
  if (at < 0) throw new Error(`${task.id}: the reply does not hold its added line ${JSON.stringify(line)}`);
  return { at, line };
}

/**
 * The cited line numbers of each format, and how to move them one line on.
 * Formats not listed cite no line numbers: search-replace, whole, between,
 * apply-patch (its `@@` carries none) and str-replace's `str_replace`
 * command (its `insert` command's `insert_line` is a place, not a citation
 * to check against text, so it is left alone too).
 */
const NUMBERS: Record<string, (reply: string) => string> = {
  'ln-diff': (r) => r.replace(/^(\s*)(\d+)│/gm, (_, sp: string, n: string) => `${sp}${Number(n) + 1}│`),
  udiff: (r) => r.replace(/^@@ -(\d+)((?:,\d+)?) \+(\d+)((?:,\d+)?) @@/gm, (_, a: string, b: string, c: string, d: string) => `@@ -${Number(a) + 1}${b} +${Number(c) + 1}${d} @@`),
  roo: (r) => r.replace(/^:start_line:(\d+)/gm, (_, n: string) => `:start_line:${Number(n) + 1}`),
  hashline: (r) => r.replace(/"line":(\d+)/g, (_, n: string) => `"line":${Number(n) + 1}`),
};
NUMBERS.udiffx = NUMBERS.udiff;

/** The first file's closing fence removed: its fence runs on to the end of the reply. */
function unclosed(reply: string): string {
  const lines = reply.split('\n');
  const open = lines.findIndex((l) => /^`{3,}/.test(l));
  const fence = /^`+/.exec(lines[open] ?? '')?.[0] ?? '```';
  const close = lines.findIndex((l, k) => k > open && l === fence);
  return close < 0 ? reply : [...lines.slice(0, close), ...lines.slice(close + 1)].join('\n');
}

/**
 * How each format's structure is broken, in its first edit (the engine
 * forgives a missing ln-diff or search-replace divider and a udiff hunk
 * header without its closing `@@`, so those would not break anything).
 */
const BREAK: Record<string, (reply: string) => string> = {
  // The first REMOVE line loses its `N│` number marker.
  'ln-diff': (r) => r.replace(/^(\s*)(\d+)│/m, '$1│'),
  // The first block loses its `=======` divider: SEARCH runs into REPLACE.
  'search-replace': (r) => r.replace(/^=======\n/m, ''),
  // The first added line's `+` becomes `*`: the hunk holds a line of no kind.
  udiff: (r) => r.replace(/^\+(?!\+\+)/m, '*'),
  whole: unclosed,
  // The first tool call's JSON loses its closing brace.
  hashline: (r) => r.replace(/\}\n|\}$/, '\n'),
  'str-replace': (r) => r.replace(/\n\}\n```/, '\n```'),
};

/** Shift a letter one on in the alphabet (z to a). */
const nextLetter = (c: string) => (c === 'z' ? 'a' : String.fromCharCode(c.charCodeAt(0) + 1));

export interface Scripted {
  /** The whole reply text. */
  text: string;
  /** For `stalled`: how much of `text` is sent before the stream goes silent. */
  sent?: number;
}

/** The reply of a behaviour for a task in a format (for `429-then-ok`, the reply after the 429). */
export function scriptedReply(task: BenchTask, format: string, behaviour: Behaviour): Scripted {
  const written = writerReply(task, format);
  const wrap = (body: string) => `${LEAD}${body}${TAIL}`;
  switch (behaviour) {
    case 'right':
    case '429-then-ok':
      return { text: wrap(written) };
    case 'off-by-one':
      return { text: wrap((NUMBERS[format] ?? ((r: string) => r))(written)) };
    case 'typo': {
      const { at, line } = addedAt(task, written);
      const k = line.search(/[a-z]/);
      return { text: wrap(`${written.slice(0, at + k)}${nextLetter(line[k])}${written.slice(at + k + 1)}`) };
    }
    case 'elided': {
      const { at, line } = addedAt(task, written);
      return { text: wrap(`${written.slice(0, at)}${ELISION}${written.slice(at + line.length)}`) };
    }
    case 'broken-fence': {
      const broken = BREAK[format]?.(written);
      if (broken === undefined || broken === written) throw new Error(`no way to break ${format}`);
      return { text: wrap(broken) };
    }
    case 'cut-off':
    case 'stalled': {
      // The reply ends in the middle of the first added line.
      const { at, line } = addedAt(task, written);
      const cut = LEAD.length + at + Math.floor(line.length / 2);
      const text = wrap(written);
      return behaviour === 'cut-off' ? { text: text.slice(0, cut) } : { text, sent: cut };
    }
    case 'prose-only':
      return { text: PROSE_ONLY };
  }
}
