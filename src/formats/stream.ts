// When an edit of each format is final while its reply streams in: the
// registry-level rules `createStream` needs (the engine itself names no
// format). Each format's spec page says the same in its "Streaming" section;
// the property test in test/property/stream.test.ts holds both to the
// parsers on every spec example.

import {
  createStream,
  LATER_EDIT_RULES,
  settledUnlessProbed,
  type SettleContext,
  type Stream,
  type StreamOptions,
  type StreamRules,
} from '../core/stream.ts';
import type { Edit, Format } from '../core/types.ts';
import { applyRequest, getFormat } from './index.ts';
import { earlyCloseProbes, opener } from './whole/fences.ts';
import { hunkNumbers } from './udiff/hunks.ts';
import { pathFromInfo } from './whole/paths.ts';

/**
 * The offsets of the `{` still open at the end of `text`: brackets outside
 * any `{` or `[` are prose and ignored, strings inside them are skipped. Run
 * twice (a string ends at a line break, or only at its quote) and the open
 * braces of both runs are returned, so that a broken string can only make
 * the answer more cautious.
 */
function openBraces(text: string): Set<number> {
  const open = new Set<number>();
  for (const stringEndsAtLine of [true, false]) {
    const stack: number[] = [];
    let inString = false;
    for (let i = 0; i < text.length; i++) {
      const c = text[i];
      if (inString) {
        if (c === '\\') i++;
        else if (c === '"' || (c === '\n' && stringEndsAtLine)) inString = false;
        continue;
      }
      if (c === '{' || c === '[') stack.push(i);
      else if (stack.length > 0) {
        if (c === '"') inString = true;
        else if (c === '}' || c === ']') stack.pop();
      }
    }
    for (const at of stack) if (text[at] === '{') open.add(at);
  }
  return open;
}

/**
 * JSON tool calls: a call is final once its own braces have closed and no
 * object around it is still open (an object that closes later can turn out
 * to be a tool-use wrapper, or to hold the call in a member it ignores). An
 * array around calls changes none of them.
 */
const JSON_CLOSED: StreamRules = {
  settled(edit, context) {
    for (const at of openBraces(context.reply)) if (at <= edit.span.from) return false;
    return true;
  },
};

/** A block may still turn out to have closed early (a later bare fence after text): see whole's Fences rule 6. */
const EARLY_CLOSE = settledUnlessProbed((_, context) => earlyCloseProbes(context.reply));

/** whole: a block whose path is a guess gives way to a later block that names the file. */
const WHOLE: StreamRules = {
  settled(edit, context) {
    if (!EARLY_CLOSE.settled(edit, context)) return false;
    if (edit.file === '') return true;
    const lineEnd = context.reply.indexOf('\n', edit.span.from);
    const first = context.reply.slice(edit.span.from, lineEnd < 0 ? context.reply.length : lineEnd).replace(/\r$/, '');
    const fence = opener(first);
    return fence === null || pathFromInfo(fence.info, context.files) !== null;
  },
};

/** The closing tag for an edit that starts with a udiffx directive tag. */
function directiveClose(edit: Edit, context: SettleContext): string[] {
  const m = /^<(FILE_[A-Z_]+)/.exec(context.reply.slice(edit.span.from, edit.span.from + 64));
  return m ? [`</${m[1]}>\n`] : [];
}

const UDIFF_PROBES = settledUnlessProbed(() => ['+\n@@\n+\n']);

/**
 * udiff: a numbered hunk short of its counts that a code fence closed waits
 * while only hunk-like lines follow the fence: more of them could make up its
 * counts, and the hunk then fails (udiff spec, "Code fences"). Cautious: any
 * line starting with a space, `-` or `+` counts.
 */
function waitsAfterFence(edit: Edit, context: SettleContext): boolean {
  const { reply } = context;
  const headEnd = reply.indexOf('\n', edit.span.from);
  const n = hunkNumbers(reply.slice(edit.span.from, headEnd < 0 ? reply.length : headEnd).trimStart());
  if (!n || (edit.old.length >= n.oldCount && edit.new.length >= n.newCount)) return false;
  const after = reply.slice(edit.span.to).split('\n').slice(1, -1); // the complete lines after the hunk's last line
  if (after.length === 0 || !/^ *(`{3,}|~{3,})/.test(after[0])) return false;
  return after.slice(1).every((line) => /^[ +-]/.test(line));
}

/** Per format name. Formats not listed complete an edit once a later edit has begun. */
export const STREAM_RULES: Readonly<Record<string, StreamRules>> = {
  // `</editblock>` may still follow `>>>>>>> INSERT` and belong to the block,
  // and a second end marker would make the end ambiguous.
  'ln-diff': settledUnlessProbed(() => ['</editblock>\n', '>>>>>>> INSERT\n']),
  // A second `>>>>>>> REPLACE` before the next block makes the end ambiguous.
  'search-replace': settledUnlessProbed(() => ['>>>>>>> REPLACE\n']),
  whole: WHOLE,
  // A hunk takes lines until its section ends, and a file created or deleted
  // takes every hunk until the next file header.
  // A hunk short of its counts at a closing fence waits while hunk lines follow the fence.
  udiff: { settled: (edit, context) => !waitsAfterFence(edit, context) && UDIFF_PROBES.settled(edit, context) },
  // The REPLACE marker may still close a block cut at a closing tag, and a
  // later <path> or <start_line> changes every block of the element still open.
  roo: settledUnlessProbed(() => ['=======\n>>>>>>> REPLACE\n<start_line>0</start_line>\n<path>\u0001</path>\n</file>\n<path>\u0002</path>\n']),
  // A hunk takes lines until its section ends; the last hunk of a patch takes
  // a warning when a line starting with `<FILE_` ends the patch instead of
  // `</FILE_PATCH>`; a directive may still take its closing tag.
  // A second `</FILE_PATCH>` makes the patch's end ambiguous.
  udiffx: settledUnlessProbed((edit, context) => ['+\n', '<FILE_\n', '</FILE_PATCH>\n', ...directiveClose(edit, context)]),
  hashline: JSON_CLOSED,
  between: EARLY_CLOSE,
  // A section without `*** End Patch` around it takes lines until the next marker, and the edit an
  // end of patch closed fails when patch lines and a second `*** End Patch` follow.
  'apply-patch': settledUnlessProbed(() => [' x\n', '+x\n*** End Patch\n']),
  'str-replace': JSON_CLOSED,
};

export function streamRules(format: Format | string): StreamRules {
  const name = typeof format === 'string' ? format : format.name;
  return STREAM_RULES[name] ?? LATER_EDIT_RULES;
}

/** A stream over a reply in a registered format (or any `Format`), with that format's rules. */
export function streamReply(format: Format | string, files: Record<string, string>, options: StreamOptions = {}): Stream {
  const f = typeof format === 'string' ? getFormat(format) : format;
  if (!f) throw new Error(`unknown format "${String(format)}"`);
  const { rules, finish, ...engine } = options;
  // A registered format's reply ends as `applyRequest` reads it (another format's edits reported).
  const whole = getFormat(f.name) === f ? (reply: string) => applyRequest({ format: f.name, files, response: reply, options: engine }) : undefined;
  return createStream(f, files, { rules: rules ?? streamRules(f), ...engine, ...(finish ?? whole ? { finish: finish ?? whole } : {}) });
}
