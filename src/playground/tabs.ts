// The source files' tabs: one editor per file, a tab list with arrow-key
// navigation, the file name field (rename), add and remove, and the badge
// that says how the shown file ends its lines.

import type { Extension } from '@codemirror/state';
import { EditorState, EditorView, markedExtensions, setLabel, track, untrack } from './editors.ts';
import { h } from './dom.ts';
import { LIMITS } from '../session/session.ts';
import { activeTab, type PageState, type Tab } from './state.ts';
import type { Elements } from './elements.ts';
import type { TextShape } from '../worker/protocol.ts';
import type { EditResult } from '../core/types.ts';
import './tabs.css';

export interface TabHooks {
  /** Extensions every source editor gets beside its marks (change listener, drop handler). */
  extensions(tab: () => Tab): Extension;
  /** The shown tab changed. */
  activated(tab: Tab): void;
  /** The set of files or a name changed: the engine's input changed. */
  changed(): void;
  /** A file was renamed. */
  renamed(from: string, to: string): void;
  say(text: string): void;
}

export class Tabs {
  private uid = 0;

  constructor(
    private readonly state: PageState,
    private readonly ui: Elements,
    private readonly hooks: TabHooks,
  ) {
    ui.tablist.addEventListener('keydown', (event) => {
      const { active, tabs } = this.state;
      const keys: Record<string, number> = { ArrowRight: active + 1, ArrowLeft: active - 1, Home: 0, End: tabs.length - 1 };
      if (!(event.key in keys) || tabs.length === 0) return;
      event.preventDefault();
      this.activate((keys[event.key] + tabs.length) % tabs.length, true);
    });
    ui.addFile.addEventListener('click', () => {
      if (this.state.tabs.length >= LIMITS.files) {
        this.hooks.say(`A session holds at most ${LIMITS.files} files.`);
        return;
      }
      this.activate(this.add(this.uniqueName('untitled.txt'), ''));
      ui.fileName.focus();
      ui.fileName.select();
      this.hooks.changed();
    });
    ui.removeFile.addEventListener('click', () => this.removeActive());
    ui.fileName.addEventListener('change', () => {
      const tab = activeTab(this.state);
      if (!tab) return;
      const name = ui.fileName.value.trim();
      if (name === tab.name) return;
      if (!this.rename(tab, name)) ui.fileName.value = tab.name;
    });
    ui.fileName.addEventListener('keydown', (event) => {
      const tab = activeTab(this.state);
      if (event.key === 'Escape' && tab) ui.fileName.value = tab.name;
    });
  }

  /** Add a file (not shown yet); returns its index. */
  add(name: string, text: string): number {
    const id = ++this.uid;
    const panel = h('div', { class: 'pg-panel', attrs: { role: 'tabpanel', id: `pg-panel-${id}`, 'aria-labelledby': `pg-tab-${id}`, hidden: true } });
    this.ui.panels.append(panel);
    // The tab object is made below; the extensions reach it through this getter.
    let made: Tab | null = null;
    const view = track(
      new EditorView({
        parent: panel,
        state: EditorState.create({ doc: text, extensions: [markedExtensions(`Source: ${name}`), this.hooks.extensions(() => made!)] }),
      }),
    );
    made = { id, name, view, panel };
    this.state.tabs.push(made);
    return this.state.tabs.length - 1;
  }

  /** Remove every file (a new session replaces them). */
  clear(): void {
    for (const tab of this.state.tabs) this.destroy(tab);
    this.state.tabs = [];
    this.state.active = -1;
  }

  private destroy(tab: Tab): void {
    untrack(tab.view);
    tab.panel.remove();
  }

  /** Show tab `i`. */
  activate(i: number, focus = false): void {
    const { state } = this;
    if (i < 0 || i >= state.tabs.length) return;
    const changed = i !== state.active;
    state.active = i;
    this.render(focus);
    if (changed) this.hooks.activated(state.tabs[i]);
  }

  /** Draw the tab list and the file bar for the current state. */
  render(focus = false): void {
    const { state, ui } = this;
    ui.tablist.replaceChildren(
      ...state.tabs.map((tab, i) =>
        h(
          'button',
          {
            class: 'pg-tab',
            attrs: {
              type: 'button',
              role: 'tab',
              id: `pg-tab-${tab.id}`,
              'aria-controls': `pg-panel-${tab.id}`,
              'aria-selected': i === state.active ? 'true' : 'false',
              tabindex: i === state.active ? 0 : -1,
              title: tab.name,
            },
            on: { click: () => this.activate(i) },
          },
          tab.name,
        ),
      ),
    );
    state.tabs.forEach((tab, i) => (tab.panel.hidden = i !== state.active));
    const tab = activeTab(state);
    ui.noFiles.hidden = tab !== null;
    ui.fileName.disabled = tab === null;
    ui.removeFile.disabled = tab === null;
    ui.fileName.value = tab?.name ?? '';
    if (focus && tab) (ui.tablist.children[state.active] as HTMLElement | undefined)?.focus();
  }

  /** Say how the shown file ends its lines (from the last run's outcome of it). */
  badge(shape: TextShape | null): void {
    const el = this.ui.fileBadge;
    if (!shape || shape.lines === 0) {
      el.replaceChildren();
      return;
    }
    const endings = shape.endings === 'crlf' ? 'CRLF' : shape.endings === 'mixed' ? 'CRLF and LF' : 'LF';
    const title =
      shape.endings === 'crlf'
        ? 'Lines end with CR LF (Windows); edits keep it.'
        : shape.endings === 'mixed'
          ? 'Some lines end with CR LF, others with LF alone; edits keep each line’s ending.'
          : 'Lines end with LF.';
    const badges = [h('span', { class: 'pg-badge', attrs: { title } }, endings)];
    if (shape.noFinalNewline) badges.push(h('span', { class: 'pg-badge', attrs: { title: 'The last line has no line break after it; edits keep it so.' } }, 'no final newline'));
    el.replaceChildren(...badges);
  }

  /** Rename a file; false (and said why) when the name is not allowed. */
  rename(tab: Tab, name: string): boolean {
    const problem = this.checkName(name, this.state.tabs.indexOf(tab));
    if (problem) {
      this.hooks.say(problem);
      return false;
    }
    const from = tab.name;
    tab.name = name;
    setLabel(tab.view, `Source: ${name}`);
    this.render();
    this.hooks.renamed(from, name);
    this.hooks.say(`Renamed ${from} to ${name}.`);
    this.hooks.changed();
    return true;
  }

  /** Remove a file without a word (a placeholder that opened files replace). */
  remove(tab: Tab): void {
    const { state } = this;
    const i = state.tabs.indexOf(tab);
    if (i < 0) return;
    state.tabs.splice(i, 1);
    this.destroy(tab);
    if (state.resultFile === tab.name) state.resultFile = null;
    state.active = state.tabs.length ? Math.min(state.active > i ? state.active - 1 : state.active, state.tabs.length - 1) : -1;
  }

  private removeActive(): void {
    const { state, ui } = this;
    const tab = activeTab(state);
    if (!tab) return;
    state.tabs.splice(state.active, 1);
    this.destroy(tab);
    state.active = state.tabs.length ? Math.min(state.active, state.tabs.length - 1) : -1;
    this.render();
    this.hooks.say(`Removed ${tab.name}.`);
    (state.active >= 0 ? (ui.tablist.children[state.active] as HTMLElement) : ui.addFile).focus();
    if (state.active >= 0) this.hooks.activated(state.tabs[state.active]);
    this.hooks.changed();
  }

  /**
   * For an edit that failed with file-not-found, when one file is the one the
   * reply means (`renameCandidate`): a button that renames that file to the
   * reply's path.
   */
  renameOffer(edit: EditResult): HTMLElement | null {
    if (edit.status !== 'failed' || edit.code !== 'file-not-found') return null;
    const tab = renameCandidate(this.state.tabs, edit.file);
    if (!tab) return null;
    return h(
      'button',
      { attrs: { type: 'button', title: `The reply writes to ${edit.file}; the session has ${tab.name}.` }, on: { click: () => this.rename(tab, edit.file) } },
      `Did you mean ${tab.name}? Rename it to ${edit.file}`,
    );
  }

  checkName(name: string, except: number): string | null {
    if (name === '') return 'A file name cannot be empty.';
    if (name.length > LIMITS.name) return `A file name has at most ${LIMITS.name} characters.`;
    if (this.state.tabs.some((t, i) => i !== except && t.name === name)) return `There is already a file named ${name}.`;
    return null;
  }

  uniqueName(base: string): string {
    const names = new Set(this.state.tabs.map((t) => t.name));
    if (!names.has(base)) return base;
    const dot = base.lastIndexOf('.');
    const slash = base.lastIndexOf('/');
    const [stem, ext] = dot > slash + 1 ? [base.slice(0, dot), base.slice(dot)] : [base, ''];
    for (let n = 2; ; n++) if (!names.has(`${stem}-${n}${ext}`)) return `${stem}-${n}${ext}`;
  }
}

/** Whether one path ends with the other, whole segments: `b/c.py` ends `a/b/c.py`, `c.py` ends both. */
const endsWithPath = (path: string, tail: string) => path === tail || path.endsWith(`/${tail}`);

/**
 * The one file a path the session lacks most likely means: the only file with
 * its base name, or, among several, the only one whose path and the reply's
 * end one with the other (`src/a/x.py` for `a/x.py`). Null when none or more
 * than one fit.
 */
export function renameCandidate<T extends { name: string }>(files: readonly T[], path: string): T | null {
  const base = (p: string) => p.slice(p.lastIndexOf('/') + 1);
  const same = files.filter((f) => f.name !== path && base(f.name) === base(path));
  if (same.length === 1) return same[0];
  const ends = same.filter((f) => endsWithPath(f.name, path) || endsWithPath(path, f.name));
  return ends.length === 1 ? ends[0] : null;
}
