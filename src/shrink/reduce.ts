// Shrink a session to a minimal failure: the fewest files, file lines and
// reply lines for which the engine still reports, for the edit that
// corresponds to the chosen one, the same failure: the same code, and the
// same differing line (failure.ts: the failure's identity). Every
// candidate is checked by running the engine; the number of runs is bounded.
// Pure (no DOM): runs in the shrink worker and in tests.
//
// The order: other files, other edits' blocks, the prose between blocks, the
// lines of each file left (the edit's own file first), then the lines of the
// edit's own block, and the file lines again while the block shrank. Edits
// are renumbered as blocks go, so the edit is followed by its place in the
// reply: the reducer builds each reply itself and knows where the edit's
// block (itself shrinking) lies; the corresponding edit is the one whose
// reply span covers most of it.

import { applyRequest, getFormat } from '../formats/index.ts';
import { lineCount } from '../core/text.ts';
import type { ApplyResult, EditResult } from '../core/types.ts';
import { resultDigest } from '../digest/digest.ts';
import type { Session } from '../session/session.ts';
import { ddmin } from './ddmin.ts';
import { identityOf, quickSame, sameFailure } from './failure.ts';
import { DEFAULT_BUDGET, type Phase, type Removed, type ShrinkOptions, type ShrinkResult, type ShrinkTarget, type Size } from './summary.ts';

export { DEFAULT_BUDGET, describeRemoved, shrank } from './summary.ts';
export type { Phase, Removed, ShrinkOptions, ShrinkProgress, ShrinkResult, ShrinkTarget, Size } from './summary.ts';

type SegmentKind = 'other' | 'prose' | 'target';

/** A piece of the reply: another edit's block, a line of prose, or a line of the edit's own block. */
interface Segment {
  kind: SegmentKind;
  text: string;
  /** The numbers in it that cite lines of a file (renumbered as that file's lines go). */
  numbers?: Citation[];
}

/** A number in a text: where it is and its value. */
interface NumberToken {
  at: number;
  length: number;
  value: number;
}

/** A number citing a line of a file of the session (by index). */
interface Citation extends NumberToken {
  file: number;
}

/**
 * The numbers in a line that may cite a line of the file: whole numbers (not
 * part of a name or a decimal) within `lo`-`hi`, the lines the edit cites.
 * Which numbers are line numbers is the format's business; a guess is safe
 * here because every renumbered reply is checked by running the engine.
 */
export function lineNumbers(text: string, lo: number, hi: number): NumberToken[] {
  const out: NumberToken[] = [];
  for (const m of text.matchAll(/(?<![\w.])\d{1,9}(?![\w.])/g)) {
    const value = Number(m[0]);
    if (value >= lo && value <= hi) out.push({ at: m.index, length: m[0].length, value });
  }
  return out;
}

/** Count of the sorted numbers `sorted` below `x`. */
function below(sorted: readonly number[], x: number): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (sorted[mid] < x) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Line `line` of a file once only the lines `kept` (sorted, 0-based) of its `total` are left. */
export function lineAfter(line: number, kept: readonly number[], total: number): number {
  const above = Math.max(0, Math.min(line - 1, total));
  return Math.max(0, line - (above - below(kept, above)));
}

/** `text` with each number replaced by `value(number)`. */
function renumber(text: string, numbers: readonly Citation[], value: (n: Citation) => number): string {
  let out = '';
  let at = 0;
  for (const n of numbers) {
    out += text.slice(at, n.at) + String(value(n));
    at = n.at + n.length;
  }
  return out + text.slice(at);
}

/** Kept parts, as indexes into the original session's parts. */
interface State {
  files: number[];
  /** Per file index: the kept line indexes (absent: all lines). */
  lines: Map<number, number[]>;
  segments: number[];
}

/** Lines with their line breaks ("a\nb" → ["a\n", "b"]). */
export function splitLines(text: string): string[] {
  return text.match(/[^\n]*\n|[^\n]+$/g) ?? [];
}

export { lineCount };

export function sizeOf(session: Session, edits: number): Size {
  let chars = session.reply.length;
  let lines = lineCount(session.reply);
  for (const f of session.files) {
    chars += f.text.length;
    lines += lineCount(f.text);
  }
  return { chars, lines, files: session.files.length, edits };
}

function request(session: Session) {
  return {
    format: session.format,
    files: Object.fromEntries(session.files.map((f) => [f.name, f.text])),
    response: session.reply,
    ...(session.options ? { options: session.options } : {}),
  };
}

/**
 * The lines each edit quotes (its old and new lines), by the start of its
 * reply span, read again by its format; an edit that cannot be read again
 * has none.
 */
export function quotedLines(reply: string, files: readonly string[], result: ApplyResult, detected: boolean): Map<number, string[]> {
  const out = new Map<number, string[]>();
  const formats = new Set(result.edits.map((e) => e.format ?? result.format));
  for (const name of formats) {
    const format = getFormat(name);
    if (!format) continue;
    try {
      for (const e of format.parse(reply, detected ? { files: [...files], detected } : { files: [...files] }).edits)
        out.set(e.span.from, [...e.old, ...e.new].filter((l) => l !== ''));
    } catch {
      // read as best it can: numbers in this format's blocks are all taken as citations
    }
  }
  return out;
}

/**
 * The numbers of a block that may cite a line: within the cited range, and
 * not inside a line the block quotes (a number in a line of code is the
 * code's, e.g. `# step 1502` on line 1502: renumbering it would change the
 * very text that fails).
 */
export function citedNumbers(block: string, quoted: readonly string[], lo: number, hi: number): NumberToken[] {
  const inside: [number, number][] = [];
  for (let at = 0; at < block.length; ) {
    const nl = block.indexOf('\n', at);
    const end = nl === -1 ? block.length : nl;
    const line = block.slice(at, end).replace(/\r$/, '');
    let longest = 0;
    for (const q of quoted) if (q.length > longest && line.endsWith(q)) longest = q.length;
    if (longest > 0) inside.push([at + line.length - longest, at + line.length]);
    at = end + 1;
  }
  return lineNumbers(block, lo, hi).filter((n) => !inside.some(([from, to]) => n.at >= from && n.at < to));
}

/**
 * Cut the reply into the edit's block lines, other edits' blocks and prose
 * lines; note in each the numbers that cite lines of the session's files
 * (`fileOf`: a file's index by name, -1 when not given; `quoted`: the lines
 * each edit quotes, by the start of its reply span).
 */
function segment(reply: string, target: EditResult, edits: readonly EditResult[], fileOf: (name: string) => number, quoted: Map<number, string[]>): Segment[] {
  const { from: tFrom, to: tTo } = target.reply;
  const cites = new Map<number, Citation>();
  for (const e of edits) {
    const file = fileOf(e.file);
    if (!e.cited || file < 0) continue;
    for (const n of citedNumbers(reply.slice(e.reply.from, e.reply.to), quoted.get(e.reply.from) ?? [], e.cited.start - 1, e.cited.end + 1))
      cites.set(e.reply.from + n.at, { ...n, at: e.reply.from + n.at, file });
  }
  const citations = [...cites.values()].sort((a, b) => a.at - b.at);
  const piece = (kind: SegmentKind, from: number, to: number): Segment => {
    const numbers = citations.filter((c) => c.at >= from && c.at + c.length <= to).map((c) => ({ ...c, at: c.at - from }));
    return numbers.length ? { kind, text: reply.slice(from, to), numbers } : { kind, text: reply.slice(from, to) };
  };
  const lines = (kind: SegmentKind, from: number, to: number) => {
    for (let at = from; at < to; ) {
      const nl = reply.indexOf('\n', at);
      const end = nl === -1 || nl >= to ? to : nl + 1;
      out.push(piece(kind, at, end));
      at = end;
    }
  };
  // Other blocks, merged where they overlap, leaving out any that touch the edit's own.
  const spans = edits
    .filter((e) => e !== target && e.reply.to > e.reply.from && (e.reply.to <= tFrom || e.reply.from >= tTo))
    .map((e) => [e.reply.from, e.reply.to] as [number, number])
    .sort((a, b) => a[0] - b[0]);
  const merged: [number, number][] = [];
  for (const s of spans) {
    const top = merged[merged.length - 1];
    if (top && s[0] < top[1]) top[1] = Math.max(top[1], s[1]);
    else merged.push([...s]);
  }
  const out: Segment[] = [];
  let at = 0;
  const blocks = [...merged, [tFrom, tTo] as [number, number]].sort((a, b) => a[0] - b[0]);
  for (const [from, to] of blocks) {
    lines('prose', at, from);
    if (from === tFrom && to === tTo) lines('target', from, to);
    else out.push(piece('other', from, to));
    at = to;
  }
  lines('prose', at, reply.length);
  return out;
}

/** The edit whose reply span covers most of `[from, to)`, if any covers part of it. */
function corresponding(edits: readonly EditResult[], from: number, to: number): EditResult | null {
  let best: EditResult | null = null;
  let most = 0;
  for (const e of edits) {
    const overlap = Math.min(to, Math.max(e.reply.to, e.reply.from + 1)) - Math.max(from, e.reply.from);
    if (overlap > most) {
      most = overlap;
      best = e;
    }
  }
  return best;
}

/**
 * Shrink `session` keeping the failure of `target` (its index in the
 * session's result, and its code).
 */
export function shrink(session: Session, target: ShrinkTarget, options: ShrinkOptions = {}): ShrinkResult {
  const budget = Math.max(1, options.budget ?? DEFAULT_BUDGET);
  let runs = 0;
  let phase: Phase = 'check';
  const out = () => runs >= budget || (options.stopped?.() ?? false);

  let original: ApplyResult;
  try {
    runs++;
    original = applyRequest(request(session));
  } catch (e) {
    return { ok: false, reason: 'not-reproduced', message: `the engine failed on this session: ${e instanceof Error ? e.message : String(e)}`, runs };
  }
  const edit = original.edits[target.index];
  if (!edit) return { ok: false, reason: 'not-reproduced', message: `the session has no edit #${target.index + 1} any more`, runs };
  if (edit.status !== 'failed' || edit.code !== target.code)
    return {
      ok: false,
      reason: edit.status === 'failed' ? 'not-reproduced' : 'not-failed',
      message:
        edit.status === 'failed'
          ? `edit #${target.index + 1} now fails with ${edit.code ?? 'no code'}, not ${target.code}`
          : `edit #${target.index + 1} applies now`,
      runs,
    };

  const detected = session.format === 'auto';
  const failure = identityOf(session.reply, session.files.map((f) => f.name), original, edit, detected);
  // A file as the request reads it: the last of that name.
  const names = session.files.map((f) => f.name);
  const fileOf = (name: string) => names.lastIndexOf(name);
  const own = fileOf(edit.file);
  const segments = segment(session.reply, edit, original.edits, fileOf, quotedLines(session.reply, names, original, detected));
  const pieces = session.files.map((f) => splitLines(f.text));

  const build = (state: State): { session: Session; from: number; to: number } => {
    let reply = '';
    let from = -1;
    let to = -1;
    // Cited line numbers follow the lines removed above them.
    const value = (n: Citation) => {
      const kept = state.files.includes(n.file) ? state.lines.get(n.file) : undefined;
      return kept ? lineAfter(n.value, kept, pieces[n.file].length) : n.value;
    };
    for (const k of state.segments) {
      const s = segments[k];
      const text = s.numbers ? renumber(s.text, s.numbers, value) : s.text;
      if (s.kind === 'target') {
        if (from < 0) from = reply.length;
        reply += text;
        to = reply.length;
      } else reply += text;
    }
    const files = state.files.map((i) => {
      const kept = state.lines.get(i);
      return { name: session.files[i].name, text: kept ? kept.map((l) => pieces[i][l]).join('') : session.files[i].text };
    });
    const built: Session = { format: session.format, files, reply };
    if (session.options) built.options = session.options;
    return { session: built, from, to };
  };

  let state: State = { files: session.files.map((_, i) => i), lines: new Map(), segments: segments.map((_, k) => k) };
  let best = { session: build(state).session, index: edit.index, result: original };
  const before = sizeOf(session, original.edits.length);
  const report = () => options.progress?.({ runs, budget, phase, size: sizeOf(best.session, best.result.edits.length) });
  report();

  /** Does this state still fail the same way? Keeps it as the best when it does. */
  const check = (next: State): boolean => {
    if (out()) return false;
    const built = build(next);
    if (built.from < 0) return false;
    runs++;
    let result: ApplyResult;
    try {
      result = applyRequest(request(built.session));
    } catch {
      report();
      return false;
    }
    const e = corresponding(result.edits, built.from, built.to);
    const same =
      e !== null &&
      quickSame(failure, e) &&
      sameFailure(failure, identityOf(built.session.reply, built.session.files.map((f) => f.name), result, e, detected));
    if (same) best = { session: built.session, index: e.index, result };
    report();
    return same;
  };

  /** ddmin over the kept segments of some kinds, the others fixed. */
  const reduceSegments = (kinds: SegmentKind[]): boolean => {
    const movable = state.segments.filter((k) => kinds.includes(segments[k].kind));
    if (movable.length === 0) return false;
    const fixed = state.segments.filter((k) => !kinds.includes(segments[k].kind));
    const merge = (kept: readonly number[]) => [...fixed, ...kept].sort((a, b) => a - b);
    const kept = ddmin(movable, (k) => check({ ...state, segments: merge(k) }), out);
    state = { ...state, segments: merge(kept) };
    return kept.length < movable.length;
  };

  const reduceLines = (): boolean => {
    let changed = false;
    const order = [...state.files.filter((i) => i === own), ...state.files.filter((i) => i !== own)];
    for (const i of order) {
      if (out()) break;
      const all = state.lines.get(i) ?? pieces[i].map((_, l) => l);
      const kept = ddmin(all, (k) => check({ ...state, lines: new Map(state.lines).set(i, [...k]) }), out);
      if (kept.length < all.length) changed = true;
      state = { ...state, lines: new Map(state.lines).set(i, kept) };
    }
    return changed;
  };

  phase = 'files';
  state = { ...state, files: ddmin(state.files, (k) => check({ ...state, files: [...k] }), out) };
  phase = 'edits';
  reduceSegments(['other']);
  phase = 'prose';
  reduceSegments(['prose']);
  for (let round = 0; round < 4 && !out(); round++) {
    phase = 'lines';
    const lines = reduceLines();
    phase = 'block';
    const block = reduceSegments(['target']);
    if (!block || (!lines && round > 0)) break;
  }
  const complete = !out();
  phase = 'done';
  report();

  const final = best.session;
  const after = sizeOf(final, best.result.edits.length);
  const keptNames = new Set(final.files.map((f) => f.name));
  const removedFiles = session.files.filter((f) => !keptNames.has(f.name)).map((f) => f.name);
  const lines: Removed['lines'] = [];
  for (const f of final.files) {
    const was = session.files.find((o) => o.name === f.name);
    if (!was) continue;
    const total = lineCount(was.text);
    const removed = total - lineCount(f.text);
    if (removed > 0) lines.push({ file: f.name, removed, total });
  }
  const replyTotal = lineCount(session.reply);
  const removed: Removed = {
    files: removedFiles,
    ownFile: removedFiles.includes(edit.file),
    edits: original.edits.length - best.result.edits.length,
    lines,
    reply: { removed: replyTotal - lineCount(final.reply), total: replyTotal },
    prompt: session.prompt !== undefined && session.prompt !== '',
  };
  return {
    ok: true,
    session: { ...final, selected: best.index, digest: resultDigest(best.result) },
    index: best.index,
    code: edit.code,
    before,
    after,
    removed,
    runs,
    budget,
    complete,
  };
}
