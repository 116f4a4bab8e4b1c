// Provisional result view (replaced by the exact, incremental one).
import { MergeView } from '@codemirror/merge';
import { baseExtensions, track, untrack } from './editors.ts';
import type { Delta, ExactDiff } from './result/exact.ts';

export interface MergeContent { file: string; before: string; after: string; diff: ExactDiff }
export interface MergeUpdate { file: string; a: Delta | null; b: Delta | null; diff: ExactDiff }

export class ResultView {
  private merge: MergeView | null = null;
  constructor(private readonly parent: HTMLElement) {}
  show(c: MergeContent): void {
    this.clear();
    this.merge = new MergeView({
      a: { doc: c.before, extensions: baseExtensions(`Before: ${c.file}`, true) },
      b: { doc: c.after, extensions: baseExtensions(`After: ${c.file}`, true) },
      parent: this.parent,
      highlightChanges: true,
      gutter: true,
    });
    track(this.merge.a);
    track(this.merge.b);
  }
  update(u: MergeUpdate): void {
    if (!this.merge) return;
    if (u.a) this.merge.a.dispatch({ changes: u.a });
    if (u.b) this.merge.b.dispatch({ changes: u.b });
  }
  reveal(region: { a: { start: number; end: number } }): void {
    const a = this.merge?.a;
    if (!a || !this.merge) return;
    const n = Math.max(1, Math.min(region.a.start, a.state.doc.lines));
    this.merge.dom.scrollTop = Math.max(0, a.lineBlockAt(a.state.doc.line(n).from).top - 60);
  }
  clear(): void {
    if (!this.merge) return;
    untrack(this.merge.a);
    untrack(this.merge.b);
    this.merge.destroy();
    this.merge = null;
  }
}
