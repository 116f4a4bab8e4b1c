// The result view's folded stretches of unchanged lines, kept in place.
//
// @codemirror/merge's own `collapseUnchanged` builds its folded stretches
// once, when it is configured, and afterwards only drops those a new chunk
// touches: folding the stretches a new set of chunks leaves (an edit added
// to the reply) or folding again after "Expand unchanged lines" means
// reconfiguring the whole merge view, which on a file of 17,000 lines is
// one main-thread task of one to two seconds. Here the folded stretches are
// a state field of each editor, moved by effects:
//
// - `refold`, after the chunks changed: the stretches are worked out again
//   from the chunks (the library's rule: unchanged runs of at least
//   `minSize` lines, `margin` lines of context kept next to each chunk),
//   and a stretch that lies where it lay keeps its decoration, so the
//   editor redraws only the stretches that moved;
// - `setFolding`: fold every unchanged stretch (on) or none (off);
// - `openFold`: open the stretch that starts at a position (a click on it,
//   or a place the view must show). An opened stretch stays open through
//   later refolds while it starts at the same place.

import { getChunks, mergeViewSiblings, type Chunk } from '@codemirror/merge';
import { Facet, RangeSetBuilder, StateEffect, StateField, type EditorState, type Extension } from '@codemirror/state';
import { Decoration, EditorView, WidgetType, type DecorationSet } from '@codemirror/view';

export interface FoldConfig {
  /** Lines of context left unfolded next to a chunk. */
  margin: number;
  /** The fewest lines a folded stretch has. */
  minSize: number;
}

/** Fold every unchanged stretch (true) or none (false). */
export const setFolding = StateEffect.define<boolean>();
/** The chunks changed: fold the stretches they leave. */
export const refold = StateEffect.define<null>();
/** Open the folded stretch that starts at this position. */
export const openFold = StateEffect.define<number>({ map: (pos, changes) => changes.mapPos(pos) });

interface Folds {
  on: boolean;
  deco: DecorationSet;
  /** Where the stretches the reader opened start. */
  opened: readonly number[];
}

class FoldWidget extends WidgetType {
  constructor(readonly lines: number) {
    super();
  }
  override eq(other: FoldWidget): boolean {
    return other.lines === this.lines;
  }
  override toDOM(view: EditorView): HTMLElement {
    const el = document.createElement('div');
    el.className = 'cm-collapsedLines';
    el.textContent = view.state.phrase('$ unchanged lines', this.lines);
    el.addEventListener('click', (event) => {
      const pos = view.posAtDOM(event.target as Node);
      view.dispatch({ effects: openFold.of(pos) });
      // The same stretch on the other side of a side-by-side view.
      const siblings = mergeViewSiblings(view);
      const info = getChunks(view.state);
      if (!siblings || !info) return;
      const isA = info.side === 'a';
      (isA ? siblings.b : siblings.a).dispatch({ effects: openFold.of(mapAcross(pos, info.chunks, isA)) });
    });
    return el;
  }
  override ignoreEvent(event: Event): boolean {
    return event instanceof MouseEvent;
  }
  override get estimatedHeight(): number {
    return 27;
  }
}

/** A position in an unchanged stretch of one side, on the other side. */
function mapAcross(pos: number, chunks: readonly Chunk[], isA: boolean): number {
  let ours = 0;
  let other = 0;
  for (const c of chunks) {
    if ((isA ? c.fromA : c.fromB) >= pos) break;
    [ours, other] = isA ? [c.toA, c.toB] : [c.toB, c.toA];
  }
  return other + (pos - ours);
}

interface Stretch {
  from: number;
  to: number;
  lines: number;
}

/** The unchanged stretches to fold in this editor, from its chunks. */
function stretches(state: EditorState, conf: FoldConfig): Stretch[] {
  const info = getChunks(state);
  if (!info) return [];
  // A unified view's chunks have no side: its document is side B.
  const isA = info.side === 'a';
  const doc = state.doc;
  const out: Stretch[] = [];
  let prevLine = 1;
  for (let i = 0; ; i++) {
    const chunk = i < info.chunks.length ? info.chunks[i] : null;
    const first = i ? prevLine + conf.margin : 1;
    const last = chunk ? doc.lineAt(Math.min(doc.length, isA ? chunk.fromA : chunk.fromB)).number - 1 - conf.margin : doc.lines;
    const lines = last - first + 1;
    if (lines >= conf.minSize) out.push({ from: doc.line(first).from, to: doc.line(last).to, lines });
    if (!chunk) break;
    prevLine = doc.lineAt(Math.min(doc.length, isA ? chunk.toA : chunk.toB)).number;
  }
  return out;
}

/** The folds of `wanted` (less the opened ones); `current` itself when it holds exactly those. */
function foldsOf(wanted: readonly Stretch[], opened: readonly number[], current: DecorationSet): DecorationSet {
  const keep = wanted.filter((s) => !opened.includes(s.from));
  let same = keep.length === current.size;
  if (same) {
    const it = current.iter();
    for (const s of keep) {
      if (!it.value || it.from !== s.from || it.to !== s.to || (it.value.spec.widget as FoldWidget).lines !== s.lines) {
        same = false;
        break;
      }
      it.next();
    }
  }
  if (same) return current;
  const builder = new RangeSetBuilder<Decoration>();
  for (const s of keep) builder.add(s.from, s.to, Decoration.replace({ widget: new FoldWidget(s.lines), block: true }));
  return builder.finish();
}

const NONE: Folds = { on: false, deco: Decoration.none, opened: [] };

const foldConfig = Facet.define<FoldConfig, FoldConfig>({ combine: (v) => v[0] ?? { margin: 3, minSize: 4 } });

const foldField = StateField.define<Folds>({
  create: () => NONE,
  update(value, tr) {
    let next = value;
    if (tr.docChanged && (value.deco.size || value.opened.length)) {
      next = { ...value, deco: value.deco.map(tr.changes), opened: value.opened.map((p) => tr.changes.mapPos(p)) };
    }
    const conf = tr.state.facet(foldConfig);
    for (const e of tr.effects) {
      if (e.is(setFolding)) next = e.value ? { on: true, deco: foldsOf(stretches(tr.state, conf), [], next.deco), opened: [] } : NONE;
      else if (e.is(refold) && next.on) {
        const wanted = stretches(tr.state, conf);
        // Only the opened stretches that are still stretches stay open.
        const opened = next.opened.filter((p) => wanted.some((s) => s.from === p));
        const deco = foldsOf(wanted, opened, next.deco);
        if (deco !== next.deco || opened.length !== next.opened.length) next = { on: true, deco, opened };
      } else if (e.is(openFold) && next.on) {
        const pos = e.value;
        let found = false;
        next.deco.between(pos, pos, (from) => {
          if (from === pos) found = true;
        });
        if (found) next = { on: true, deco: next.deco.update({ filter: (from) => from !== pos }), opened: [...next.opened, pos] };
      }
    }
    return next;
  },
  provide: (f) => EditorView.decorations.from(f, (v) => v.deco),
});

/**
 * The folds of an editor of the result view, folding on or off to begin
 * with. A merge view's chunks arrive after its editors' states are made:
 * `refold` once it is built.
 */
export function folds(on: boolean, conf: FoldConfig): Extension {
  return [foldConfig.of(conf), foldField.init((state) => (on ? { on, deco: foldsOf(stretches(state, conf), [], Decoration.none), opened: [] } : NONE))];
}

/** The folded stretches of an editor: the start and end of each, in order. */
export function foldedRanges(state: EditorState): { from: number; to: number }[] {
  const out: { from: number; to: number }[] = [];
  state.field(foldField, false)?.deco.between(0, state.doc.length, (from, to) => {
    out.push({ from, to });
  });
  return out;
}
