// The result view: a read-only side-by-side MergeView of one file before and
// after. Loaded with import() on the first result, so the page can start
// without it.

import { MergeView } from '@codemirror/merge';
import type { EditorView } from '@codemirror/view';
import { baseExtensions, track, untrack } from './editors.ts';

export class ResultView {
  private merge: MergeView | null = null;
  private file: string | null = null;

  constructor(private readonly parent: HTMLElement) {}

  show(file: string, before: string, after: string): void {
    if (this.merge && this.file === file) {
      replace(this.merge.a, before);
      replace(this.merge.b, after);
      return;
    }
    this.clear();
    this.file = file;
    this.merge = new MergeView({
      a: { doc: before, extensions: baseExtensions(`Before: ${file}`, true) },
      b: { doc: after, extensions: baseExtensions(`After: ${file}`, true) },
      parent: this.parent,
      highlightChanges: true,
      gutter: true,
    });
    track(this.merge.a);
    track(this.merge.b);
  }

  /** Scroll the view (not the page) to a line of the file before the edit. */
  reveal(line: number): void {
    const a = this.merge?.a;
    if (!a || !this.merge) return;
    const n = Math.max(1, Math.min(line, a.state.doc.lines));
    const top = a.lineBlockAt(a.state.doc.line(n).from).top;
    this.merge.dom.scrollTop = Math.max(0, top - 60);
  }

  clear(): void {
    if (!this.merge) return;
    untrack(this.merge.a);
    untrack(this.merge.b);
    this.merge.destroy();
    this.merge = null;
    this.file = null;
  }
}

function replace(view: EditorView, text: string): void {
  if (view.state.doc.toString() === text) return;
  view.dispatch({ changes: { from: 0, to: view.state.doc.length, insert: text } });
}
