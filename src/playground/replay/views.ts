// The Replay panel's two views of each file, read-only CodeMirror editors
// (they draw only the lines in sight, whatever the file's size): the source
// with the lines each edit touches, and the file with the completed edits
// applied. A step changes them by what it brought: the applied text by the
// change's own range, the marks of a file only when they differ, and the
// scroll position only when the lines being touched move.

import { ChangeSet, Text } from '@codemirror/state';
import type { LineRange } from '../../core/types.ts';
import { EditorState, EditorView, markedExtensions, noMarks, scrollInside, showMarks, track, untrack, type Marks, type Tone } from '../editors.ts';
import { h, saveFile } from '../dom.ts';
import type { AppliedChange } from '../../replay/protocol.ts';

export type EditState = 'pending' | 'applied' | 'failed' | 'dropped';

/** What the source view shows of one edit. */
export interface SourceMark {
  index: number;
  file: string;
  state: EditState;
  /** The lines it touches as known now (an insertion: `end === start - 1`). */
  range: LineRange | null;
}

const TONE: Record<EditState, Tone> = { pending: 'warn', applied: 'ok', failed: 'bad', dropped: 'warn' };
const STATE_WORD: Record<EditState, string> = { pending: 'lines known', applied: 'applied', failed: 'failed', dropped: 'dropped' };

/** A change shown in the applied view: where its text is now. */
interface Placed {
  edit: number | null;
  from: number;
  to: number;
}

interface Pane {
  box: HTMLElement;
  title: HTMLElement;
  view: EditorView;
  /** The marks last painted, as a key (nothing is dispatched when they are the same). */
  painted: string;
}

interface FileViews {
  /** The given text (null: a file the reply creates). */
  original: string | null;
  source: Pane | null;
  applied: Pane;
  placed: Placed[];
  /** Everything applied since the views were made (undone to start again). */
  done: ChangeSet | null;
}

function marksKey(m: Marks): string {
  return JSON.stringify([m.lines, m.badges.map((b) => [b.line, b.text, b.tone])]);
}

function paint(pane: Pane, marks: Marks): void {
  const key = marksKey(marks);
  if (key === pane.painted) return;
  pane.painted = key;
  showMarks(pane.view, marks);
}

const basename = (path: string) => path.slice(path.lastIndexOf('/') + 1) || path;

export class ReplayViews {
  private files = new Map<string, FileViews>();
  /** Where each view was last scrolled to, so that a step scrolls only when the lines being touched move. */
  private followed = new Map<EditorView, number>();

  constructor(
    private readonly sourceBox: HTMLElement,
    private readonly appliedBox: HTMLElement,
  ) {}

  /** New views of the given files (the old ones are dropped). */
  reset(given: Record<string, string>): void {
    if (this.again(given)) return;
    this.clear();
    for (const [path, text] of Object.entries(given)) {
      // One document for both views: the text is split into lines once.
      const doc = Text.of(text.split('\n'));
      this.files.set(path, { original: text, source: this.pane(this.sourceBox, path, doc, false), applied: this.pane(this.appliedBox, path, doc, true), placed: [], done: null });
    }
  }

  /** The same files again: undo what was applied (by its own ranges) and clear the marks, keeping the views. */
  private again(given: Record<string, string>): boolean {
    const paths = Object.keys(given);
    const kept = [...this.files].filter(([, f]) => f.original !== null);
    if (kept.length !== paths.length || !kept.every(([path, f]) => Object.hasOwn(given, path) && given[path] === f.original)) return false;
    for (const [path, f] of this.files) {
      if (f.original === null) {
        untrack(f.applied.view);
        f.applied.box.remove();
        this.files.delete(path);
        continue;
      }
      const view = f.applied.view;
      // The source view's document is the original text.
      if (f.done && f.source) view.dispatch({ changes: f.done.invert(f.source.view.state.doc) });
      f.done = null;
      f.placed = [];
      f.applied.title.textContent = path;
      this.paintApplied(f);
      for (const pane of [f.source, f.applied]) if (pane) this.followed.delete(pane.view);
    }
    this.markSource([]);
    return true;
  }

  clear(): void {
    for (const f of this.files.values()) {
      for (const pane of [f.source, f.applied]) if (pane) untrack(pane.view);
    }
    this.files.clear();
    this.followed.clear();
    this.sourceBox.replaceChildren();
    this.appliedBox.replaceChildren();
  }

  private pane(parent: HTMLElement, path: string, doc: Text, applied: boolean): Pane {
    const title = h('span', null, path);
    const head = h('div', { class: 'pg-replay-path' }, title);
    const host = h('div', { class: 'pg-replay-view' });
    const box = h('div', { class: 'pg-replay-file', attrs: { 'data-file': path } }, head, host);
    parent.append(box);
    const label = applied ? `${path}, with the edits applied so far` : `${path}, source`;
    const view = track(new EditorView({ parent: host, state: EditorState.create({ doc, extensions: markedExtensions(label, true) }) }));
    if (applied) {
      head.append(
        h(
          'button',
          {
            class: 'pg-replay-download',
            attrs: { type: 'button', 'aria-label': `Download ${path} with the edits applied so far`, title: `Save ${basename(path)} as it is now` },
            on: { click: () => saveFile(basename(path), view.state.doc.toString(), 'text/plain;charset=utf-8') },
          },
          'Download',
        ),
      );
    }
    return { box, title, view, painted: marksKey(noMarks()) };
  }

  /** Paint the source views: each edit's lines, in the colour of its state. */
  markSource(edits: readonly SourceMark[]): void {
    const byFile = new Map<string, Marks>();
    for (const e of edits) {
      const f = this.files.get(e.file);
      if (!f?.source || !e.range || e.state === 'dropped') continue;
      const marks = byFile.get(e.file) ?? noMarks();
      byFile.set(e.file, marks);
      const { start, end } = e.range;
      const tone = TONE[e.state];
      if (end < start) marks.lines.push({ line: start, tone: 'insert' });
      for (let n = start; n <= end; n++) marks.lines.push({ line: n, tone });
      marks.badges.push({ line: start, text: `#${e.index + 1}`, tone, title: `Edit ${e.index + 1}: ${STATE_WORD[e.state]}${end < start ? ` (inserts before line ${start})` : ''}` });
    }
    for (const [path, f] of this.files) if (f.source) paint(f.source, byFile.get(path) ?? noMarks());
  }

  /**
   * Apply a step's changes to the files with the edits applied: one
   * transaction and one repaint of the marks per file touched. Returns
   * where the last change's text starts, to follow.
   */
  apply(changes: readonly AppliedChange[]): { file: string; pos: number } | null {
    let last: { file: string; pos: number } | null = null;
    const pending = new Map<FileViews, { changes: ChangeSet | null; length: number }>();
    for (const c of changes) {
      let f = this.files.get(c.file);
      if (!f && c.type === 'add') {
        f = { original: null, source: null, applied: this.pane(this.appliedBox, c.file, Text.of(c.text.split('\n')), true), placed: [{ edit: c.edit, from: 0, to: c.text.length }], done: null };
        f.applied.title.textContent = `${c.file} (new)`;
        this.files.set(c.file, f);
        this.paintApplied(f);
        last = { file: c.file, pos: 0 };
        continue;
      }
      if (!f) continue;
      let p = pending.get(f);
      if (!p) pending.set(f, (p = { changes: null, length: f.applied.view.state.doc.length }));
      const spec = c.type === 'splice' ? { from: c.from, to: c.to, insert: c.insert } : { from: 0, to: p.length, insert: c.type === 'add' ? c.text : '' };
      const set = ChangeSet.of(spec, p.length, '\n');
      p.changes = p.changes ? p.changes.compose(set) : set;
      p.length = set.newLength;
      f.placed = f.placed.map((x) => {
        const a = set.mapPos(x.from, 1);
        return { ...x, from: a, to: Math.max(a, set.mapPos(x.to, -1)) };
      });
      if (c.type === 'remove') {
        f.placed = [];
        f.applied.title.textContent = `${c.file} (deleted)`;
      } else {
        f.placed.push({ edit: c.edit, from: spec.from, to: spec.from + spec.insert.length });
        f.applied.title.textContent = f.source ? c.file : `${c.file} (new)`;
        last = { file: c.file, pos: spec.from };
      }
    }
    for (const [f, p] of pending) {
      if (p.changes) {
        f.applied.view.dispatch({ changes: p.changes });
        f.done = f.done ? f.done.compose(p.changes) : p.changes;
      }
      this.paintApplied(f);
    }
    return last;
  }

  /** Paint the applied view: each change's lines (an edit's in green, a correction at the end in amber). */
  private paintApplied(f: FileViews): void {
    const doc = f.applied.view.state.doc;
    const marks = noMarks();
    for (const p of f.placed) {
      if (doc.length === 0) break;
      const first = doc.lineAt(Math.min(p.from, doc.length));
      const tone: Tone = p.edit === null ? 'warn' : 'ok';
      if (p.to === p.from) marks.lines.push({ line: first.number, tone: 'insert' });
      else {
        const last = doc.lineAt(Math.max(p.from, p.to - 1)).number;
        for (let n = first.number; n <= last; n++) marks.lines.push({ line: n, tone });
      }
      if (p.edit !== null) marks.badges.push({ line: first.number, text: `#${p.edit + 1}`, tone, title: `Edit ${p.edit + 1}, applied` });
    }
    paint(f.applied, marks);
  }

  /** Scroll a file's source view to a line (only when it is not the line it was last scrolled to). */
  followSource(file: string, line: number): void {
    const view = this.files.get(file)?.source?.view;
    if (!view) return;
    const n = Math.max(1, Math.min(line, view.state.doc.lines));
    this.follow(view, view.state.doc.line(n).from);
  }

  /** Scroll a file's applied view to a position. */
  followApplied(file: string, pos: number): void {
    const view = this.files.get(file)?.applied.view;
    if (view) this.follow(view, pos);
  }

  private follow(view: EditorView, pos: number): void {
    const line = view.state.doc.lineAt(Math.min(pos, view.state.doc.length)).number;
    if (this.followed.get(view) === line) return;
    this.followed.set(view, line);
    scrollInside(view, pos);
  }

  /** The panel was shown again: the views measure themselves anew. */
  refresh(): void {
    for (const f of this.files.values()) for (const pane of [f.source, f.applied]) pane?.view.requestMeasure();
  }
}

