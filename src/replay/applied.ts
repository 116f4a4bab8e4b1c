// The files with the completed edits applied, kept edit by edit: each edit
// that completes is applied once, as the splice of the original text its own
// result made (the lines its range replaced), shifted by the splices applied
// before it. At the end of the reply the engine's answer for the
// whole reply (overlaps and duplicates are known only then) is compared with
// what was applied, and the difference, usually none, is one more change.
// An edit costs the lines it replaced (and the file's line starts, found
// once), not a pass over the whole file, unless its result differs from the
// original elsewhere than its lines (then found character by character, with
// the result view's text delta, which never splits a surrogate pair).

import type { EditResult } from '../core/types.ts';
import { textDelta, type Delta } from '../text-delta/delta.ts';
import type { AppliedChange } from './protocol.ts';

/** Original character offsets replaced (half-open) and the text put there. */
type Splice = Delta;

interface Tracked {
  /** The given text, or null for a file the reply creates. */
  original: string | null;
  /** Line start offsets of `original`, found on first use. */
  starts: number[] | null;
  /** Applied splices, in no particular order (none overlaps another). */
  splices: Splice[];
  /** Text of a file the edits created (null: none, or removed). */
  created: string | null;
  removed: boolean;
  /** Something happened that edit-by-edit splices cannot follow: wait for the end. */
  stale: boolean;
}

const BOM = '\uFEFF';

function lineStarts(text: string): number[] {
  const starts = [text.startsWith(BOM) ? 1 : 0];
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) starts.push(i + 1);
  return starts;
}

const EDGE = 256;

/**
 * `b` keeps `a`'s first `head` and last `tail` characters, checked where an
 * edit's result can differ outside its lines: at both ends of the file (a
 * BOM, a final newline set or added) and next to the lines replaced.
 */
function sameEdges(a: string, b: string, head: number, tail: number): boolean {
  const same = (x: number, y: number, n: number) => a.slice(x, x + n) === b.slice(y, y + n);
  const h = Math.min(head, EDGE);
  const t = Math.min(tail, EDGE);
  return same(0, 0, h) && same(head - h, head - h, h) && same(a.length - t, b.length - t, t) && same(a.length - tail, b.length - tail, t);
}

/** Two splices of one original text that cannot both apply (the engine's own rule, in characters). */
function clash(a: Splice, b: Splice): boolean {
  const pa = a.from === a.to;
  const pb = b.from === b.to;
  if (pa && pb) return false;
  if (pa) return b.from < a.from && a.from < b.to;
  if (pb) return a.from < b.from && b.from < a.to;
  return a.from < b.to && b.from < a.to;
}

/** A given file's text with the splices applied. */
function spliced(original: string, splices: readonly Splice[]): string {
  if (splices.length === 0) return original;
  const sorted = [...splices].sort((a, b) => a.from - b.from || a.to - b.to);
  // Splices at one point keep the order they were applied in (the sort is stable, and `splices` is in that order).
  const out: string[] = [];
  let pos = 0;
  for (const s of sorted) {
    out.push(original.slice(pos, s.from), s.insert);
    pos = s.to;
  }
  out.push(original.slice(pos));
  return out.join('');
}

export class AppliedFiles {
  private readonly files = new Map<string, Tracked>();

  constructor(given: Record<string, string>) {
    for (const [path, text] of Object.entries(given)) this.files.set(path, this.fresh(text));
  }

  private fresh(original: string | null): Tracked {
    return { original, starts: null, splices: [], created: null, removed: false, stale: false };
  }

  private at(path: string): Tracked {
    let t = this.files.get(path);
    if (!t) this.files.set(path, (t = this.fresh(null)));
    return t;
  }

  /** Where an original offset is now: after every splice that ends at or before it. */
  private shift(t: Tracked, offset: number): number {
    let at = offset;
    for (const s of t.splices) if (s.to <= offset) at += s.insert.length - (s.to - s.from);
    return at;
  }

  /** The text a file has now (null: absent). */
  private current(t: Tracked): string | null {
    if (t.removed) return null;
    return t.original === null ? t.created : spliced(t.original, t.splices);
  }

  /**
   * An edit completed. `after` holds the files with that edit alone applied
   * to the originals (the engine's result for it); returns the changes that
   * bring it into the files applied so far.
   */
  apply(result: EditResult, after: Record<string, string | null>): AppliedChange[] {
    if (result.status !== 'applied' || result.code === 'duplicate') return [];
    const changes: AppliedChange[] = [];
    const edit = result.index;
    // A file this edit moves: the new path gets the text the old one has now.
    const moved = (text: string): string => {
      for (const [path, t] of this.files) if (after[path] === null && t.original === text) return spliced(t.original, t.splices);
      return text;
    };
    for (const [path, text] of Object.entries(after)) {
      const t = this.at(path);
      // The other files of the result are the given texts themselves (the edited one is not compared whole).
      if (path !== result.file && text === t.original) continue;
      if (t.stale) continue;
      if (text === null) {
        if (!t.removed) changes.push({ type: 'remove', file: path, edit });
        t.removed = true;
        t.stale = true;
      } else if (t.original === null) {
        const now = moved(text);
        changes.push({ type: 'add', file: path, edit, text: now });
        t.created = now;
        t.stale = true;
      } else {
        const splice = this.spliceOf(t, t.original, text, result);
        // Overlapping edits both fail in the end: the later one is left out now, the earlier one undone at the end.
        if (t.splices.some((s) => clash(s, splice))) continue;
        // A repeat of an applied change at the same place applies once (the engine says so at the end).
        if (result.kind !== 'insert' && result.kind !== 'append' && t.splices.some((s) => s.from === splice.from && s.to === splice.to && s.insert === splice.insert)) continue;
        const from = this.shift(t, splice.from);
        changes.push({ type: 'splice', file: path, edit, from, to: from + (splice.to - splice.from), insert: splice.insert });
        t.splices.push(splice);
      }
    }
    return changes;
  }

  /**
   * The splice of the original that the edit's result made: the lines its
   * range replaced, checked against the result; any other difference (a
   * final newline set, a file without one) found character by character.
   */
  private spliceOf(t: Tracked, original: string, text: string, result: EditResult): Splice {
    const range = result.range;
    if (range) {
      const starts = (t.starts ??= lineStarts(original));
      const lineAt = (i: number) => (i < starts.length ? starts[i] : original.length);
      const from = lineAt(range.start - 1);
      const tail = original.length - lineAt(Math.max(range.end, range.start - 1));
      const to = original.length - tail;
      if (text.length - tail >= from && sameEdges(original, text, from, tail)) {
        return { from, to, insert: text.slice(from, text.length - tail) };
      }
    }
    return textDelta(original, text) ?? { from: 0, to: 0, insert: '' };
  }

  /** The engine's answer for the whole reply: the changes that bring the files to it. */
  settle(final: Record<string, string | null>): AppliedChange[] {
    const changes: AppliedChange[] = [];
    const paths = new Set([...this.files.keys(), ...Object.keys(final)]);
    for (const path of paths) {
      const t = this.at(path);
      const now = this.current(t);
      const want = Object.hasOwn(final, path) ? final[path] : t.original;
      if (now === want) continue;
      if (want === null) changes.push({ type: 'remove', file: path, edit: null });
      else if (now === null) changes.push({ type: 'add', file: path, edit: null, text: want });
      else {
        const d = textDelta(now, want);
        if (d) changes.push({ type: 'splice', file: path, edit: null, ...d });
      }
      t.stale = true;
    }
    return changes;
  }
}
