// CodeMirror for the playground: one setup without language packages, a
// theme drawn from the site's CSS variables (light and dark follow the
// system), and a field of marks the results paint onto an editor: line
// backgrounds by edit status, character marks, gutter badges, block widgets.

import { defaultKeymap, history, historyKeymap } from '@codemirror/commands';
import {
  Decoration,
  EditorView,
  GutterMarker,
  WidgetType,
  crosshairCursor,
  drawSelection,
  dropCursor,
  gutter,
  highlightActiveLine,
  highlightActiveLineGutter,
  highlightSpecialChars,
  keymap,
  lineNumbers,
  rectangularSelection,
  type DecorationSet,
} from '@codemirror/view';
import { Compartment, EditorState, RangeSet, StateEffect, StateField, type Extension, type Range } from '@codemirror/state';

/** The colour class of an edit's marks. */
export type Tone = 'ok' | 'warn' | 'bad' | 'selected' | 'insert';

export interface Marks {
  /** 1-based lines, each with a tone. */
  lines: { line: number; tone: Tone }[];
  /** Character ranges (doc offsets) to underline. */
  chars: { from: number; to: number; tone: Tone }[];
  /** Gutter badges, one per line (the first wins). */
  badges: { line: number; text: string; tone: Tone; title: string }[];
  /** Block widgets shown below a line. */
  widgets: { line: number; render: () => HTMLElement; key: string }[];
}

export const noMarks = (): Marks => ({ lines: [], chars: [], badges: [], widgets: [] });

class Badge extends GutterMarker {
  constructor(
    readonly text: string,
    readonly tone: Tone,
    readonly title: string,
  ) {
    super();
  }
  override eq(other: GutterMarker): boolean {
    return other instanceof Badge && other.text === this.text && other.tone === this.tone;
  }
  override toDOM(): Node {
    const span = document.createElement('span');
    span.className = `ld-badge ld-${this.tone}`;
    span.textContent = this.text;
    span.title = this.title;
    return span;
  }
}

class BlockWidget extends WidgetType {
  constructor(
    readonly key: string,
    readonly render: () => HTMLElement,
  ) {
    super();
  }
  override eq(other: WidgetType): boolean {
    return other instanceof BlockWidget && other.key === this.key;
  }
  override toDOM(): HTMLElement {
    return this.render();
  }
  override ignoreEvent(): boolean {
    return false;
  }
}

interface Painted {
  deco: DecorationSet;
  badges: RangeSet<GutterMarker>;
}

const setMarks = StateEffect.define<Marks>();

function paint(state: EditorState, marks: Marks): Painted {
  const doc = state.doc;
  const ranges: Range<Decoration>[] = [];
  const lineOk = (n: number) => n >= 1 && n <= doc.lines;
  for (const { line, tone } of marks.lines) {
    if (lineOk(line)) ranges.push(Decoration.line({ class: `ld-line ld-${tone}` }).range(doc.line(line).from));
  }
  for (const { from, to, tone } of marks.chars) {
    const a = Math.max(0, Math.min(from, doc.length));
    const b = Math.max(a, Math.min(to, doc.length));
    if (b > a) ranges.push(Decoration.mark({ class: `ld-char ld-${tone}` }).range(a, b));
  }
  for (const { line, render, key } of marks.widgets) {
    if (!lineOk(line)) continue;
    ranges.push(Decoration.widget({ widget: new BlockWidget(key, render), block: true, side: 1 }).range(doc.line(line).to));
  }
  const seen = new Set<number>();
  const badges: Range<GutterMarker>[] = [];
  for (const b of marks.badges) {
    if (!lineOk(b.line) || seen.has(b.line)) continue;
    seen.add(b.line);
    badges.push(new Badge(b.text, b.tone, b.title).range(doc.line(b.line).from));
  }
  return { deco: Decoration.set(ranges, true), badges: RangeSet.of(badges, true) };
}

const marksField = StateField.define<Painted>({
  create: () => ({ deco: Decoration.none, badges: RangeSet.empty }),
  update(value, tr) {
    let next = tr.docChanged ? { deco: value.deco.map(tr.changes), badges: value.badges.map(tr.changes) } : value;
    for (const effect of tr.effects) if (effect.is(setMarks)) next = paint(tr.state, effect.value);
    return next;
  },
  provide: (field) => EditorView.decorations.from(field, (v) => v.deco),
});

const badgeGutter = gutter({
  class: 'ld-badges',
  markers: (view) => view.state.field(marksField).badges,
  initialSpacer: () => new Badge('+99', 'ok', ''),
});

/** What each editor's marks were last painted from, and the field's value that made. */
const painted = new WeakMap<EditorView, { field: Painted | undefined; key: string }>();

/**
 * Paint the results onto an editor (replaces its previous marks). The same
 * marks again, on marks untouched since (the text not changed, the state not
 * replaced): nothing to do.
 */
export function showMarks(view: EditorView, marks: Marks): void {
  const key = JSON.stringify([marks.lines, marks.chars, marks.badges, marks.widgets.map((w) => [w.line, w.key])]);
  const last = painted.get(view);
  if (last && last.key === key && last.field !== undefined && last.field === view.state.field(marksField, false)) return;
  view.dispatch({ effects: setMarks.of(marks) });
  painted.set(view, { field: view.state.field(marksField, false), key });
}

const theme = EditorView.theme({
  '&': { color: 'var(--fg)', backgroundColor: 'var(--bg)', fontSize: '0.875rem', height: '100%' },
  '&.cm-focused': { outline: '2px solid var(--accent)', outlineOffset: '-2px' },
  '.cm-scroller': { fontFamily: 'var(--mono)', lineHeight: '1.5', overflow: 'auto' },
  '.cm-content': { caretColor: 'var(--fg)' },
  '.cm-cursor, .cm-dropCursor': { borderLeftColor: 'var(--fg)' },
  '.cm-gutters': { backgroundColor: 'var(--panel)', color: 'var(--muted)', borderRight: '1px solid var(--border)' },
  '.cm-activeLine': { backgroundColor: 'color-mix(in srgb, var(--accent) 6%, transparent)' },
  '.cm-activeLineGutter': { backgroundColor: 'color-mix(in srgb, var(--accent) 12%, transparent)', color: 'var(--fg)' },
  '.cm-selectionBackground, &.cm-focused > .cm-scroller > .cm-selectionLayer .cm-selectionBackground, ::selection': {
    backgroundColor: 'color-mix(in srgb, var(--accent) 30%, transparent) !important',
  },
  '.cm-specialChar': { color: 'var(--bad)' },
  '.ld-special': {
    color: 'var(--muted)',
    fontSize: '0.7em',
    fontFamily: 'system-ui, sans-serif',
    border: '1px solid var(--border)',
    borderRadius: '3px',
    padding: '0 2px',
    marginLeft: '2px',
    verticalAlign: 'middle',
  },
  '.ld-line.ld-ok': { backgroundColor: 'var(--mark-ok)' },
  '.ld-line.ld-warn': { backgroundColor: 'var(--mark-warn)' },
  '.ld-line.ld-bad': { backgroundColor: 'var(--mark-bad)' },
  '.ld-line.ld-insert': { boxShadow: 'inset 0 2px 0 var(--ok)' },
  '.ld-line.ld-selected': { boxShadow: 'inset 3px 0 0 var(--accent)' },
  '.ld-char.ld-bad': { textDecoration: 'underline wavy var(--bad)', textDecorationSkipInk: 'none', backgroundColor: 'color-mix(in srgb, var(--bad) 18%, transparent)' },
  '.ld-badges .cm-gutterElement': { padding: '0 3px', textAlign: 'center', minWidth: '2.2em' },
  '.ld-badge': { fontWeight: '700', fontSize: '0.8em' },
  '.ld-badge.ld-ok': { color: 'var(--ok)' },
  '.ld-badge.ld-warn': { color: 'var(--warn)' },
  '.ld-badge.ld-bad': { color: 'var(--bad)' },
  // @codemirror/merge, in the site's colours
  '&.cm-merge-a .cm-changedLine, .cm-deletedChunk': { backgroundColor: 'var(--mark-bad)' },
  '&.cm-merge-b .cm-changedLine, .cm-inlineChangedLine': { backgroundColor: 'var(--mark-ok)' },
  '&.cm-merge-a .cm-changedText, .cm-deletedChunk .cm-deletedText': {
    background: 'color-mix(in srgb, var(--bad) 30%, transparent)',
  },
  '&.cm-merge-b .cm-changedText': { background: 'color-mix(in srgb, var(--ok) 30%, transparent)' },
  '&.cm-merge-a .cm-changedLineGutter, .cm-deletedLineGutter': { background: 'var(--bad)' },
  '&.cm-merge-b .cm-changedLineGutter': { background: 'var(--ok)' },
});

// Dark when the theme button chose dark (<html data-theme>), or left it to
// the system and the system is dark: the site's colours follow the same rule.
const darkQuery = typeof matchMedia === 'function' ? matchMedia('(prefers-color-scheme: dark)') : null;
const isDark = (): boolean => {
  const chosen = typeof document === 'object' ? document.documentElement.dataset.theme : undefined;
  return chosen === 'dark' || (chosen !== 'light' && (darkQuery?.matches ?? false));
};
const darkness = new Compartment();
const views = new Set<EditorView>();
let shownDark = isDark();
const followTheme = () => {
  const dark = isDark();
  if (dark === shownDark) return;
  shownDark = dark;
  for (const view of views) view.dispatch({ effects: darkness.reconfigure(EditorView.darkTheme.of(dark)) });
};
darkQuery?.addEventListener('change', followTheme);
if (typeof MutationObserver === 'function' && typeof document === 'object')
  new MutationObserver(followTheme).observe(document.documentElement, { attributes: true, attributeFilter: ['data-theme'] });

const currentDarkness = (): Extension => darkness.of(EditorView.darkTheme.of(shownDark));

const labels = new Compartment();
// tabindex: a contenteditable is focusable anyway; saying so lets checkers
// (axe's scrollable-region-focusable) see that the scroller is reachable.
const labelled = (label: string) => EditorView.contentAttributes.of({ 'aria-label': label, tabindex: '0' });

/** Change the accessible name of an editor's content (after a rename). */
export function setLabel(view: EditorView, label: string): void {
  view.dispatch({ effects: labels.reconfigure(labelled(label)) });
}

/** Keep an editor's dark flag in step with the system setting (until `untrack`). */
export function track(view: EditorView): EditorView {
  views.add(view);
  return view;
}
export function untrack(view: EditorView): void {
  views.delete(view);
  view.destroy();
}

/**
 * Line endings and invisible characters as readable markers: a CR (of a
 * CRLF line ending) as a small "CR", a byte order mark as "BOM", instead of
 * a control picture some fonts do not have.
 */
const NAMED: Record<number, string> = { 13: 'CR', 0xfeff: 'BOM', 0: 'NUL' };
const specialChars = highlightSpecialChars({
  render(code, description, placeholder) {
    const span = document.createElement('span');
    span.className = 'cm-specialChar ld-special';
    span.textContent = NAMED[code] ?? placeholder;
    span.title = description ?? `\\u${code.toString(16).padStart(4, '0')}`;
    if (code === 13) span.title = 'carriage return: this line ends with CR LF';
    span.setAttribute('aria-label', NAMED[code] ?? description ?? placeholder);
    return span;
  },
});

/**
 * Everything an editor of the playground has, editable or not: CodeMirror's
 * minimal setup without its syntax highlighter (the playground loads no
 * language, so it would only follow every change, positions and all, to
 * highlight nothing) and with our special characters instead of the default.
 */
export function baseExtensions(label: string, readOnly: boolean): Extension {
  return [
    specialChars,
    history(),
    drawSelection(),
    keymap.of([...defaultKeymap, ...historyKeymap]),
    lineNumbers(),
    highlightActiveLineGutter(),
    highlightActiveLine(),
    dropCursor(),
    rectangularSelection(),
    crosshairCursor(),
    EditorState.allowMultipleSelections.of(true),
    // `\n` only: a CR stays in the text (shown as a special character), so
    // offsets and line endings are exactly the engine's.
    EditorState.lineSeparator.of('\n'),
    labels.of(labelled(label)),
    readOnly ? [EditorState.readOnly.of(true), EditorView.editable.of(true)] : [],
    theme,
    currentDarkness(),
  ];
}

/** An editor with result marks and a badge gutter. */
export function markedExtensions(label: string, readOnly = false): Extension {
  return [baseExtensions(label, readOnly), marksField, badgeGutter];
}

export { EditorView, EditorState };

/** Scroll an editor (not the page) so that `pos` is in its upper third. */
export function scrollInside(view: EditorView, pos: number): void {
  const at = Math.max(0, Math.min(pos, view.state.doc.length));
  const run = () => {
    const top = view.lineBlockAt(at).top;
    const scroller = view.scrollDOM;
    scroller.scrollTop = Math.max(0, top - scroller.clientHeight / 3);
  };
  run();
  // Heights far from the viewport are estimates until drawn: settle once more.
  requestAnimationFrame(run);
}
