// The result view: one file before and after, read-only, with the engine's
// exact changes (never a diff of its own). Side by side on a wide screen; on
// a narrow one (under 700 px) a unified view: the text after, the removed
// lines shown above where they were. Unchanged stretches collapse (click
// one, or "Expand unchanged lines"), "Previous change" / "Next change" walk
// the chunks, and `reveal` brings given lines into view on both sides,
// expanding whatever hides them. An update applies the two documents'
// deltas (never replaces a whole document), takes the chunks from the new
// diff and folds the stretches they leave in place (folds.ts): the view is
// built once per file and never reconfigured; "Expand unchanged lines" is
// an effect on each editor. Loaded with import() on the first result.

import { MergeView, getChunks, getOriginalDoc, originalDocChangeEffect, unifiedMergeView, type Chunk } from '@codemirror/merge';
import { ChangeSet, EditorState, type Extension, type Text } from '@codemirror/state';
import { EditorView } from '@codemirror/view';
import { baseExtensions, track, untrack } from '../editors.ts';
import { h } from '../dom.ts';
import { buildChunks, exactConfig, fits } from './chunks.ts';
import { foldedRanges, folds, openFold, refold, setFolding } from './folds.ts';
import { spanLines } from './chunking.ts';
import type { Delta, ExactDiff, PlacedRegion } from '../../text-delta/exact.ts';
import './result.css';

export interface MergeContent {
  file: string;
  before: string;
  after: string;
  diff: ExactDiff;
}

/** The deltas from what is shown now to the new texts, and the new texts' diff. */
export interface MergeUpdate {
  file: string;
  a: Delta | null;
  b: Delta | null;
  diff: ExactDiff;
}

const COLLAPSE = { margin: 3, minSize: 4 };
/** Lines of context shown above a revealed place. */
const CONTEXT_LINES = 3;
const NARROW = '(max-width: 699.98px)';

type Docs = { a: Text | string; b: Text | string };

export class ResultView {
  private readonly bar: HTMLElement;
  private readonly prevButton: HTMLButtonElement;
  private readonly nextButton: HTMLButtonElement;
  private readonly expandButton: HTMLButtonElement;
  private readonly status: HTMLElement;
  private readonly host: HTMLElement;
  private readonly narrow: MediaQueryList | null;
  /** Side by side. */
  private merge: MergeView | null = null;
  /** Unified (narrow screens): the text after, with the original as the merge extension's. */
  private unified: EditorView | null = null;
  private file: string | null = null;
  private diff: ExactDiff | null = null;
  /** The lengths of the documents `diff` is for: chunks are built only for those. */
  private lengths = { a: -1, b: -1 };
  private cache: { diff: ExactDiff; a: Text; b: Text; chunks: Chunk[] } | null = null;
  private readonly conf = exactConfig((a, b) => this.chunksFor(a, b));
  private collapsed = true;
  /** The chunk last moved to; null once the reader scrolls elsewhere. */
  private current: number | null = null;
  private settle = 0;
  /**
   * How many views were built, and how many transactions reconfigured an
   * editor of the view: the parent's `data-builds` and `data-reconfigures`,
   * for the tests (an update, "Expand unchanged lines" and a reveal
   * reconfigure nothing).
   */
  private builds = 0;
  private reconfigures = 0;
  private readonly counter = EditorView.updateListener.of((update) => {
    if (update.transactions.some((tr) => tr.reconfigured)) this.parent.dataset.reconfigures = String(++this.reconfigures);
  });

  constructor(private readonly parent: HTMLElement) {
    this.prevButton = h('button', { attrs: { type: 'button' }, on: { click: () => this.step(-1) } }, 'Previous change');
    this.nextButton = h('button', { attrs: { type: 'button' }, on: { click: () => this.step(1) } }, 'Next change');
    this.expandButton = h('button', { attrs: { type: 'button', 'aria-pressed': 'false' }, on: { click: () => this.toggleCollapse() } }, 'Expand unchanged lines');
    this.status = h('span', { class: 'pg-merge-status', attrs: { 'aria-live': 'polite' } });
    this.bar = h('div', { class: 'pg-merge-bar', attrs: { role: 'group', 'aria-label': 'Changes' } }, this.prevButton, this.nextButton, this.status, this.expandButton);
    this.bar.hidden = true;
    this.host = h('div', { class: 'pg-merge-host' });
    parent.classList.add('pg-result-view');
    parent.dataset.layout = 'none';
    parent.dataset.builds = '0';
    parent.dataset.reconfigures = '0';
    parent.append(this.bar, this.host);
    this.narrow = typeof matchMedia === 'function' ? matchMedia(NARROW) : null;
    this.narrow?.addEventListener('change', () => {
      const docs = this.docs();
      if (docs && this.file !== null && this.diff) this.build(this.file, docs, this.diff);
    });
  }

  /** Side by side, or unified (narrow screens); also the parent's `data-layout` (`none` when cleared). */
  get layout(): 'split' | 'unified' {
    return this.unified ? 'unified' : 'split';
  }

  /** Show a file (a new one, or the first time): the view is built anew. */
  show(content: MergeContent): void {
    this.build(content.file, { a: content.before, b: content.after }, content.diff);
  }

  /**
   * Move the shown file to new texts by their deltas. False when the update
   * does not apply to what is shown (another file, deltas or a diff that do
   * not fit): then `show` the new texts instead.
   */
  update(u: MergeUpdate): boolean {
    const docs = this.docs();
    if (!docs || u.file !== this.file) return false;
    const { a, b } = docs;
    if (!deltaFits(u.a, a.length) || !deltaFits(u.b, b.length)) return false;
    const lengthA = lengthAfter(u.a, a.length);
    const lengthB = lengthAfter(u.b, b.length);
    if (!fits(u.diff, lengthA, lengthB)) return false;
    // Same texts and the same changes (typing in a reply whose edits of this file fail, or
    // leave it as it was): the view already shows this; redrawing it would cost the file's size.
    if (!u.a && !u.b && this.diff !== null && sameChanges(this.diff, u.diff)) {
      this.diff = u.diff;
      if (this.cache) this.cache.diff = u.diff;
      return true;
    }
    this.diff = u.diff;
    this.lengths = { a: lengthA, b: lengthB };
    this.cache = null;
    if (this.merge) {
      // Each dispatch asks for chunks (through the wrapped Chunk methods):
      // between the two, the lengths are not yet the new ones and the view
      // has none for a moment; after the second, the new diff's.
      if (u.a) this.merge.a.dispatch({ changes: u.a });
      if (u.b) this.merge.b.dispatch({ changes: u.b });
      // Same texts, another diff: a change that changes nothing makes the view ask again.
      if (!u.a && !u.b) refresh(this.merge.a.state.doc.length > 0 ? this.merge.a : this.merge.b);
    } else if (this.unified) {
      const view = this.unified;
      const changesA = u.a ? ChangeSet.of(u.a, a.length) : null;
      if (u.a || u.b) {
        view.dispatch({
          changes: u.b ?? undefined,
          effects: changesA ? originalDocChangeEffect(view.state, changesA) : [],
        });
      } else refresh(view);
    }
    // The chunks are the new diff's now: fold the stretches they leave (those that did not move stay as they are).
    for (const view of this.editors()) view.dispatch({ effects: refold.of(null) });
    this.current = null;
    this.showStatus();
    return true;
  }

  /** Scroll both sides (inside the view) to these lines, expanding what hides them. */
  reveal(region: PlacedRegion): void {
    const docs = this.docs();
    if (!docs) return;
    this.current = null;
    const { a, b } = docs;
    const posA = a.line(clampLine(region.a.start, a)).from;
    const posB = b.line(clampLine(region.b.start, b)).from;
    if (this.merge) {
      uncollapse(this.merge.a, region.a);
      uncollapse(this.merge.b, region.b);
      this.merge.a.dispatch({ selection: { anchor: posA } });
      this.merge.b.dispatch({ selection: { anchor: posB } });
    } else if (this.unified) {
      uncollapse(this.unified, region.b);
      this.unified.dispatch({ selection: { anchor: posB } });
    }
    this.scrollTo(posA, posB);
    const at = this.chunks().findIndex((c) => (this.merge ? c.fromA <= posA && posA <= c.endA && c.fromB <= posB && posB <= c.endB : c.fromB <= posB && posB <= c.endB));
    this.current = at >= 0 ? at : null;
    this.showStatus();
  }

  clear(): void {
    this.destroy();
    this.file = null;
    this.diff = null;
    this.cache = null;
    this.bar.hidden = true;
    this.parent.dataset.layout = 'none';
  }

  // ------------------------------------------------------------ building

  private build(file: string, docs: Docs, diff: ExactDiff): void {
    this.destroy();
    this.file = file;
    this.diff = diff;
    this.lengths = { a: docs.a.length, b: docs.b.length };
    this.cache = null;
    this.current = null;
    if (!fits(diff, docs.a.length, docs.b.length)) this.diff = null; // shown without changes rather than wrong ones
    if (this.narrow?.matches) {
      const view = new EditorView({
        state: EditorState.create({
          doc: docs.b,
          extensions: [baseExtensions(`Before and after: ${file}`, true), this.unifiedExtension(docs.a), folds(this.collapsed, COLLAPSE), this.counter],
        }),
        parent: this.host,
      });
      this.unified = track(view);
      this.watchScroll(view.scrollDOM);
      this.host.className = 'pg-merge-host pg-merge-unified';
    } else {
      this.merge = new MergeView({
        a: { doc: docs.a, extensions: [baseExtensions(`Before: ${file}`, true), folds(this.collapsed, COLLAPSE), this.counter] },
        b: { doc: docs.b, extensions: [baseExtensions(`After: ${file}`, true), folds(this.collapsed, COLLAPSE), this.counter] },
        parent: this.host,
        highlightChanges: true,
        gutter: true,
        diffConfig: this.conf,
      });
      // The chunks came after the editors' states: fold now.
      this.merge.a.dispatch({ effects: refold.of(null) });
      this.merge.b.dispatch({ effects: refold.of(null) });
      track(this.merge.a);
      track(this.merge.b);
      this.watchScroll(this.merge.dom);
      this.host.className = 'pg-merge-host pg-merge-split';
    }
    this.parent.dataset.layout = this.layout;
    this.parent.dataset.builds = String(++this.builds);
    this.bar.hidden = false;
    this.showStatus();
  }

  private unifiedExtension(original: Text | string): Extension {
    return unifiedMergeView({
      original,
      mergeControls: false,
      highlightChanges: true,
      gutter: true,
      syntaxHighlightDeletions: false,
      diffConfig: this.conf,
    });
  }

  private destroy(): void {
    cancelAnimationFrame(this.settle);
    if (this.merge) {
      untrack(this.merge.a);
      untrack(this.merge.b);
      this.merge.destroy();
      this.merge = null;
    }
    if (this.unified) {
      untrack(this.unified);
      this.unified.dom.remove();
      this.unified = null;
    }
  }

  /** The editors shown: both sides, or the unified one. */
  private editors(): EditorView[] {
    return this.merge ? [this.merge.a, this.merge.b] : this.unified ? [this.unified] : [];
  }

  /** The documents shown: A (before) and B (after). */
  private docs(): { a: Text; b: Text } | null {
    if (this.merge) return { a: this.merge.a.state.doc, b: this.merge.b.state.doc };
    if (this.unified) return { a: getOriginalDoc(this.unified.state), b: this.unified.state.doc };
    return null;
  }

  private chunks(): readonly Chunk[] {
    if (this.merge) return this.merge.chunks;
    if (this.unified) return getChunks(this.unified.state)?.chunks ?? [];
    return [];
  }

  /** The chunk source of this view's merge extension. */
  private chunksFor(a: Text, b: Text): readonly Chunk[] {
    const diff = this.diff;
    if (!diff || a.length !== this.lengths.a || b.length !== this.lengths.b) return [];
    const cache = this.cache;
    if (cache && cache.diff === diff && cache.a === a && cache.b === b) return cache.chunks;
    const chunks = buildChunks(diff, a, b);
    this.cache = { diff, a, b, chunks };
    return chunks;
  }

  // ------------------------------------------------------------ collapsing

  private toggleCollapse(): void {
    this.setCollapse(!this.collapsed);
  }

  private setCollapse(on: boolean): void {
    this.collapsed = on;
    this.expandButton.textContent = on ? 'Expand unchanged lines' : 'Collapse unchanged lines';
    this.expandButton.setAttribute('aria-pressed', String(!on));
    // The merge view aligns its two sides after any update that changes an editor's height, at once
    // (both editors updated again, each reading the page's layout): once for each side here. Asked for
    // first, the alignment runs once, after both sides changed, in the frame that draws them.
    if (this.merge) alignLater(this.merge);
    // An effect on each editor: folding on folds every unchanged stretch afresh (from the current chunks).
    for (const view of this.editors()) view.dispatch({ effects: setFolding.of(on) });
  }

  // ------------------------------------------------------------ moving

  /** The scrolling element: the merge view's own box, or the unified editor's scroller. */
  private scroller(): HTMLElement | null {
    return this.merge?.dom ?? this.unified?.scrollDOM ?? null;
  }

  /** The reader moving the view (wheel, touch, keys, a click in it) leaves the chunk last moved to. */
  private watchScroll(el: HTMLElement): void {
    const leave = () => {
      if (this.current === null) return;
      this.current = null;
      this.showStatus();
    };
    for (const type of ['wheel', 'touchmove', 'keydown', 'pointerdown'] as const) el.addEventListener(type, leave, { passive: true });
  }

  /** The top of a position's line block, in the scroller's content coordinates. */
  private topOf(view: EditorView, pos: number): number {
    const scroller = this.scroller()!;
    const base = view.documentTop - scroller.getBoundingClientRect().top + scroller.scrollTop;
    return base + view.lineBlockAt(pos).top;
  }

  /**
   * Scroll so that the line at `posA` (side A) and `posB` (side B) start
   * near the top, with a few lines of context. Heights far from what was
   * drawn are estimates until drawn: it settles over a few frames.
   */
  private scrollTo(posA: number, posB: number): void {
    cancelAnimationFrame(this.settle);
    let frames = 0;
    const run = () => {
      const scroller = this.scroller();
      if (!scroller) return;
      const views = this.merge ? [[this.merge.a, posA] as const, [this.merge.b, posB] as const] : this.unified ? [[this.unified, posB] as const] : [];
      if (views.length === 0) return;
      const top = Math.min(...views.map(([view, pos]) => this.topOf(view, pos)));
      const line = views[0][0].defaultLineHeight;
      const target = Math.max(0, Math.round(top - CONTEXT_LINES * line));
      const moved = Math.abs(scroller.scrollTop - target) > 1;
      if (moved) scroller.scrollTop = target;
      if ((moved || frames < 2) && ++frames < 12) this.settle = requestAnimationFrame(run);
    };
    // After the views have measured what the last transactions changed.
    const first = this.merge?.a ?? this.unified;
    first?.requestMeasure({ read: () => null, write: () => run() });
  }

  /** Go to the previous (-1) or next (1) chunk. */
  private step(dir: -1 | 1): void {
    const docs = this.docs();
    const chunks = this.chunks();
    const scroller = this.scroller();
    if (!docs || !scroller || chunks.length === 0) return;
    let index: number;
    if (this.current !== null) index = this.current + dir;
    else {
      // From where the reader is: the first chunk below the context lines at the top, or the last above.
      const view = this.merge?.a ?? this.unified!;
      const mark = scroller.scrollTop + CONTEXT_LINES * view.defaultLineHeight + 2;
      const tops = chunks.map((c) => this.chunkTop(c));
      index = dir > 0 ? tops.findIndex((t) => t > mark) : findLastIndex(tops, (t) => t < mark - 4);
    }
    if (index < 0 || index >= chunks.length) return;
    this.reveal(chunkRegion(chunks[index], docs.a, docs.b));
    this.current = index;
    this.showStatus();
  }

  private chunkTop(chunk: Chunk): number {
    if (this.merge) return Math.min(this.topOf(this.merge.a, chunk.fromA), this.topOf(this.merge.b, chunk.fromB));
    return this.topOf(this.unified!, chunk.fromB);
  }

  private showStatus(): void {
    const n = this.chunks().length;
    this.prevButton.disabled = n === 0 || this.current === 0;
    this.nextButton.disabled = n === 0 || this.current === n - 1;
    this.status.textContent =
      n === 0 ? 'No changes' : this.current !== null ? `Change ${this.current + 1} of ${n}` : n === 1 ? '1 change' : `${n} changes`;
  }
}

function deltaFits(d: Delta | null, length: number): boolean {
  return d === null || (Number.isInteger(d.from) && Number.isInteger(d.to) && d.from >= 0 && d.from <= d.to && d.to <= length);
}

const lengthAfter = (d: Delta | null, length: number) => (d ? length - (d.to - d.from) + d.insert.length : length);

const clampLine = (n: number, doc: Text) => Math.max(1, Math.min(n, doc.lines));

/** Whether two diffs of the same texts make the same changes (the chunks drawn from them are the same). */
export function sameChanges(x: ExactDiff, y: ExactDiff): boolean {
  if (x.changes.length !== y.changes.length) return false;
  for (let i = 0; i < x.changes.length; i++) {
    const p = x.changes[i];
    const q = y.changes[i];
    if (p.fromA !== q.fromA || p.toA !== q.toA || p.fromB !== q.fromB || p.toB !== q.toB) return false;
  }
  return true;
}

/**
 * Have the merge view align its sides at the next animation frame rather
 * than after each editor's update: while an alignment is pending it starts
 * no other (its own `scheduleMeasure`, what a change to a document calls;
 * without it, as before).
 */
function alignLater(merge: MergeView): void {
  const pending = merge as unknown as { scheduleMeasure?: () => void };
  if (typeof pending.scheduleMeasure === 'function') pending.scheduleMeasure();
}

/** A transaction that changes nothing in the text: the merge extension asks for chunks again. */
function refresh(view: EditorView): void {
  const doc = view.state.doc;
  if (doc.length > 0) view.dispatch({ changes: { from: 0, to: 1, insert: doc.sliceString(0, 1) } });
}

/** Expand the collapsed stretches of unchanged lines that hide any of these lines (or the place of an empty span). */
function uncollapse(view: EditorView, span: { start: number; end: number }): void {
  const doc = view.state.doc;
  const from = doc.line(clampLine(span.start - (span.end < span.start ? 1 : 0), doc)).from;
  const to = doc.line(clampLine(Math.max(span.start, span.end), doc)).to;
  const starts = foldedRanges(view.state)
    .filter((r) => r.from <= to && r.to >= from)
    .map((r) => r.from);
  if (starts.length > 0) view.dispatch({ effects: starts.map((pos) => openFold.of(pos)) });
}

function chunkRegion(chunk: Chunk, a: Text, b: Text): PlacedRegion {
  return { a: spanLines(chunk.fromA, chunk.toA, a), b: spanLines(chunk.fromB, chunk.toB, b) };
}

function findLastIndex<T>(xs: readonly T[], test: (x: T) => boolean): number {
  for (let i = xs.length - 1; i >= 0; i--) if (test(xs[i])) return i;
  return -1;
}
