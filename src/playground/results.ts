// Showing a run's result: the diagnostics panel, the marks on the editors,
// the selected edit, the model's-eye view, and the result view (before and
// after, loaded on the first result). The result view gets only the change
// from what it shows (src/worker/engine.ts), so a keystroke costs the page
// the size of what changed, not of the file.

import type { EditorView as EditorViewType } from '@codemirror/view';
import type { EditResult, Span } from '../core/types.ts';
import type { MergeOutput } from '../worker/protocol.ts';
import { noMarks, scrollInside, showMarks, type Marks, type Tone } from './editors.ts';
import { h, copyText } from './dom.ts';
import { comparison, markSelected, renderDiagnostics, type PanelHandlers } from './diagnostics.ts';
import { badgeOf, toneOf } from './present.ts';
import { activeTab, findEdit, type PageState, type Run, type Tab } from './state.ts';
import type { Elements } from './elements.ts';
import type { Notices } from './notices.ts';
import type { ResultView } from './result/view.ts';
import { lineInB } from '../text-delta/exact.ts';

export interface ResultHooks {
  reply(): EditorViewType;
  /** Show a tab (an edit of its file was selected). */
  activate(index: number): void;
  /** Ask the engine for the result view's content of `state.resultFile`. */
  showFile(): void;
  /** The selection changed (the link records it). */
  selectionChanged(): void;
  copyFailureLink(index: number): void;
  /** Extra buttons for an edit's row. */
  actions(edit: EditResult): (HTMLElement | null)[];
  /** Switch the format (the format trap's one-click fix). */
  switchFormat(format: string): void;
  /** After every result. */
  shown(run: Run): void;
}

/** The source lines an edit is about: where it matched, or its closest candidate(s). */
export function sourceRanges(edit: EditResult): { start: number; end: number }[] {
  if (edit.status === 'applied' && edit.range) return [edit.range];
  if (edit.code === 'ambiguous') return edit.candidates.map((c) => ({ start: c.start, end: c.end }));
  return edit.candidates.slice(0, 1).map((c) => ({ start: c.start, end: c.end }));
}

export class Results {
  private view: ResultView | null = null;
  private loadingView: Promise<ResultView> | null = null;
  /** Result view updates apply in order (the first waits for the view's code). */
  private chain: Promise<void> = Promise.resolve();
  /** Reveal this edit once the result view shows its file. */
  private revealEdit: number | null = null;
  /** Reveal the selected edit once the next result arrives (a session or a link was just opened). */
  revealOnResult = false;
  /** What the result file menu's options were made from. */
  private menuKey = '';
  readonly handlers: PanelHandlers;

  constructor(
    private readonly state: PageState,
    private readonly ui: Elements,
    private readonly notices: Notices,
    private readonly hooks: ResultHooks,
  ) {
    this.handlers = {
      select: (index: number) => this.select(index, 'panel'),
      showReplySpan: (span: Span) => {
        selectSpan(this.hooks.reply(), span.from, span.to);
        this.hooks.reply().focus();
      },
      copy: (text: string, what: string) => this.copy(text, what),
      copyFailureLink: (index: number) => this.hooks.copyFailureLink(index),
      actions: (edit: EditResult) => this.hooks.actions(edit),
    };
    ui.resultFile.addEventListener('change', () => {
      this.state.resultFile = ui.resultFile.value;
      this.hooks.showFile();
    });
    ui.viewBox.addEventListener('toggle', () => this.renderView());
    ui.viewCopy.addEventListener('click', () => {
      const text = this.state.last?.output.view?.text;
      if (text) this.copy(text, 'View');
    });
  }

  copy(text: string, what: string): void {
    void copyText(text).then((ok) => this.notices.say(ok ? `${what} copied.` : `Could not copy the ${what.toLowerCase()}; select it and copy by hand.`));
  }

  /** A run came back: show everything about it. */
  show(run: Run): void {
    const { state, ui } = this;
    state.last = run;
    const { output } = run;
    const result = output.result;
    ui.engine.textContent = result ? `Engine: ${output.ms < 1 ? '<1' : Math.round(output.ms)} ms` : 'Engine: failed';
    // The format's name in the code font: in the page's sans font "ln-diff" reads "In-diff".
    const detected = result && run.input.format === 'auto' ? result.format : '';
    if (ui.detected.textContent !== (detected ? `detected ${detected}` : '')) {
      const name = document.createElement('code');
      name.textContent = detected;
      ui.detected.replaceChildren(...(detected ? ['detected ', name] : []));
    }
    this.formatTrap(run);
    if (state.selected !== null && !findEdit(state, state.selected)) state.selected = null;
    // The editors first: CodeMirror places the cursor anew when it redraws the cursor's line,
    // which is cheap before the panel's rows change and costly after.
    this.paint();
    renderDiagnostics({ summary: ui.summary, edits: ui.edits, reply: ui.replyDiags }, output, state.selected, this.handlers);
    markSelected(ui.edits, state.selected);
    this.renderView();
    this.fileMenu();
    if (output.merge) this.applyMerge(output.merge);
    else if (output.files.length === 0) this.clearMerge();
    if (this.revealOnResult) {
      this.revealOnResult = false;
      if (state.selected !== null && findEdit(state, state.selected)) {
        this.select(state.selected, 'restore');
        ui.edits.querySelector<HTMLElement>(`.ld-row[data-edit="${state.selected}"]`)?.scrollIntoView({ block: 'center' });
      }
    }
    this.hooks.shown(run);
  }

  /** The chosen format found nothing, but another one would: say so, with the switch. */
  private formatTrap(run: Run): void {
    const alt = run.output.alternative;
    if (!alt) {
      this.notices.alert('suggest', null);
      return;
    }
    const n = `${alt.edits} edit${alt.edits === 1 ? '' : 's'}`;
    this.notices.alert('suggest', `The format ${run.input.format} finds no edits in this reply, but ${alt.format} finds ${n}.`, {
      label: `Switch to ${alt.format}`,
      run: () => this.hooks.switchFormat(alt.format),
    });
  }

  /** The result file menu, from the last run's files. */
  private fileMenu(): void {
    const { state, ui } = this;
    const files = state.last?.output.files ?? [];
    // Its options anew only when they change (a keystroke seldom changes them).
    const options = files.map((f) => [f.name, `${f.name} (${f.label})`] as const);
    const key = JSON.stringify(options);
    if (key !== this.menuKey) {
      ui.resultFile.replaceChildren(...options.map(([value, text]) => h('option', { attrs: { value } }, text)));
      this.menuKey = key;
    }
    ui.resultFile.disabled = files.length === 0;
    const shown = state.last?.output.merge?.file ?? state.merge?.file ?? null;
    if (shown !== null && files.some((f) => f.name === shown)) ui.resultFile.value = shown;
    else if (files.length > 0) ui.resultFile.selectedIndex = 0; // as new options would have it
  }

  private load(): Promise<ResultView> {
    this.loadingView ??= import('./result/view.ts').then(({ ResultView }) => (this.view = new ResultView(this.ui.merge)));
    return this.loadingView;
  }

  /** Show what the engine worker sent for the result view, in order. */
  applyMerge(out: MergeOutput | null): void {
    if (!out) {
      this.clearMerge();
      return;
    }
    const { state, ui } = this;
    state.merge = out;
    if (ui.resultFile.value !== out.file && !ui.resultFile.disabled) ui.resultFile.value = out.file;
    this.chain = this.chain.then(async () => {
      const view = this.view ?? (await this.load());
      if (out.whole) view.show({ file: out.file, before: out.whole.before, after: out.whole.after, diff: out.diff });
      else if (out.delta && !view.update({ file: out.file, a: out.delta.a, b: out.delta.b, diff: out.diff })) {
        // The view could not take the change (another file, or its documents differ): ask for the whole texts.
        state.merge = null;
        this.hooks.showFile();
        return;
      }
      ui.resultCaption.textContent =
        view.layout === 'unified'
          ? `${out.file}: ${out.label}. The text after, with removed lines shown above the lines that replace them.`
          : `${out.file}: ${out.label}. Before on the left, after on the right.`;
      if (this.revealEdit !== null) {
        const region = this.regionOf(this.revealEdit, out);
        this.revealEdit = null;
        if (region) view.reveal(region);
      }
    });
  }

  private clearMerge(): void {
    this.state.merge = null;
    this.ui.resultCaption.textContent = 'No files.';
    this.chain = this.chain.then(() => this.view?.clear());
  }

  /** Where an edit is in the result view: its lines before and after (a failed edit: its candidate, mapped). */
  private regionOf(index: number, out: MergeOutput): { a: { start: number; end: number }; b: { start: number; end: number } } | null {
    const known = out.edits.find((e) => e.index === index);
    if (known) return { a: known.a, b: known.b };
    const edit = findEdit(this.state, index);
    const r = edit ? sourceRanges(edit)[0] : undefined;
    if (!edit || !r || edit.file !== out.file) return null;
    const b = lineInB(out.diff, r.start);
    return { a: r, b: { start: b, end: b + Math.max(0, r.end - r.start) } };
  }

  /** Paint the last result onto the reply and the source editors. */
  paint(): void {
    const { state } = this;
    const output = state.last?.output;
    const result = output?.result;
    const replyMarks: Marks = noMarks();
    const byFile = new Map<string, Marks>(state.tabs.map((t) => [t.name, noMarks()]));
    for (const edit of result?.edits ?? []) {
      const tone: Tone = toneOf(edit);
      const isSelected = edit.index === state.selected;
      const badge = badgeOf(edit);
      for (let l = edit.reply.start.line; l <= edit.reply.end.line; l++) {
        replyMarks.lines.push({ line: l, tone });
        if (isSelected) replyMarks.lines.push({ line: l, tone: 'selected' });
      }
      replyMarks.badges.push({ line: edit.reply.start.line, text: badge.text, tone, title: badge.title });
      const extra = output?.extras[edit.index];
      for (const pair of extra?.pairs ?? []) {
        const span = pair.reply;
        if (!span || span.to - span.from !== pair.cited.length) continue;
        let pos = span.from;
        for (const part of pair.parts) {
          if (part.kind === 'actual') continue;
          if (part.kind === 'cited') replyMarks.chars.push({ from: pos, to: pos + part.text.length, tone: 'bad' });
          pos += part.text.length;
        }
        if (isSelected) {
          replyMarks.widgets.push({
            line: span.end.line,
            key: `${edit.index}:${pair.index}:${pair.cited}\u0000${pair.actual}`,
            render: () => h('div', { class: 'ld-inline-cmp' }, comparison(pair, edit.file)),
          });
        }
      }
      const marks = byFile.get(edit.file);
      if (!marks) continue;
      for (const range of sourceRanges(edit)) {
        if (range.end < range.start) marks.lines.push({ line: range.start, tone: 'insert' });
        for (let l = range.start; l <= range.end; l++) {
          marks.lines.push({ line: l, tone });
          if (isSelected) marks.lines.push({ line: l, tone: 'selected' });
        }
        marks.badges.push({ line: range.start, text: badge.text, tone, title: badge.title });
      }
    }
    showMarks(this.hooks.reply(), replyMarks);
    for (const tab of state.tabs) showMarks(tab.view, byFile.get(tab.name) ?? noMarks());
  }

  /** Select an edit: mark it, show its lines in the reply, the source and the result view. */
  select(index: number, origin: 'panel' | 'reply' | 'restore'): void {
    const { state, ui } = this;
    const edit = findEdit(state, index);
    if (!edit) return;
    state.selected = index;
    markSelected(ui.edits, index);
    this.paint();
    const reply = this.hooks.reply();
    if (origin !== 'reply') selectSpan(reply, edit.reply.from, edit.reply.to);
    else ui.edits.querySelector<HTMLElement>(`.ld-row[data-edit="${index}"]`)?.scrollIntoView({ block: 'nearest' });
    const ranges = sourceRanges(edit);
    const tabIndex = state.tabs.findIndex((t) => t.name === edit.file);
    if (tabIndex >= 0) {
      this.hooks.activate(tabIndex);
      revealLines(state.tabs[tabIndex], ranges[0]);
    }
    const files = state.last?.output.files ?? [];
    if (files.some((f) => f.name === edit.file)) {
      this.revealEdit = index;
      if (state.merge?.file === edit.file && this.view) {
        const region = this.regionOf(index, state.merge);
        this.revealEdit = null;
        if (region) this.chain = this.chain.then(() => this.view?.reveal(region));
      } else {
        state.resultFile = edit.file;
        this.hooks.showFile();
      }
    }
    if (origin !== 'restore') this.hooks.selectionChanged();
  }

  /** The selection moved inside an edit's block in the reply: select that edit. */
  replyCursor(head: number): void {
    const edit = this.state.last?.output.result?.edits.find((e) => e.reply.from <= head && head <= e.reply.to);
    if (edit && edit.index !== this.state.selected) this.select(edit.index, 'reply');
  }

  /** The model's-eye view of the shown file (computed with the run, when its box is open). */
  renderView(): void {
    const { state, ui } = this;
    const view = state.last?.output.view;
    ui.viewCopy.disabled = !view?.text;
    if (!ui.viewBox.open) return;
    if (!view) {
      ui.viewCaption.textContent = activeTab(state) ? 'Computing…' : 'No source file.';
      ui.view.textContent = '';
      return;
    }
    if (view.text === null) {
      ui.viewCaption.textContent = `The ${view.format} format shows ${view.file} to the model as it is, without line numbers.`;
      ui.view.textContent = '';
    } else {
      ui.viewCaption.textContent = `${view.file} as the ${view.format} format shows it to the model:`;
      ui.view.textContent = view.text;
    }
  }
}

function selectSpan(view: EditorViewType, from: number, to: number): void {
  const len = view.state.doc.length;
  const a = Math.max(0, Math.min(from, len));
  const b = Math.max(a, Math.min(to, len));
  view.dispatch({ selection: { anchor: a, head: b } });
  scrollInside(view, a);
}

function revealLines(tab: Tab, r: { start: number; end: number } | undefined): void {
  const doc = tab.view.state.doc;
  if (!r || doc.lines === 0) return;
  const first = doc.line(Math.max(1, Math.min(r.start, doc.lines)));
  const last = doc.line(Math.max(1, Math.min(Math.max(r.end, r.start), doc.lines)));
  if (r.end < r.start) selectSpan(tab.view, first.from, first.from);
  else selectSpan(tab.view, first.from, last.to);
}
