// The playground page: source tabs and the reply in CodeMirror, the engine in
// a worker, results painted back onto the editors, the diagnostics panel and
// a merge view, the session kept in the URL (hash; the version in the query),
// shared as a link, a Markdown issue or a file, and "Run with a model"
// (loaded when its panel opens). Every text that comes from the user, a
// link, a file, an example or a model is handled as text (textContent, text
// nodes, editor documents), never as HTML.

import type { EditorView as EditorViewType } from '@codemirror/view';
import type { EngineOptions, EditResult, Span } from '../core/types.ts';
import type { RunInput, RunOutput } from '../worker/protocol.ts';
import { EngineClient, type EngineEvent } from './engine-client.ts';
import { EditorState, EditorView, markedExtensions, noMarks, scrollInside, setLabel, showMarks, track, untrack, type Marks, type Tone } from './editors.ts';
import { h, copyText } from './dom.ts';
import { comparison, markSelected, renderDiagnostics } from './diagnostics.ts';
import { badgeOf, sizeText, toneOf } from './present.ts';
import { LIMITS, LONG_LINK, linkVersion, type Session } from './session.ts';
import type { Decoded, SessionFileRead } from './share.ts';
import { LinkClient } from './link-client.ts';
import { demoSession } from './demo.ts';
import type { ResultView } from './merge.ts';
import type { LivePanel } from './live/panel.ts';
import { VERSION } from './version.ts';
import { mountLazyPanels } from './replay/mount.ts';
import { Saver, localStore } from './persist.ts';
import { RunIndicator, resetControl, saveNote } from './guard.ts';

// ---------------------------------------------------------------- elements

const $ = <T extends HTMLElement>(id: string): T => {
  const el = document.getElementById(id);
  if (!el) throw new Error(`playground: #${id} is missing`);
  return el as T;
};

const ui = {
  root: $('pg'),
  alert: $('pg-alert'),
  status: $('pg-status'),
  engine: $('pg-engine'),
  format: $<HTMLSelectElement>('pg-format'),
  detected: $('pg-detected'),
  examples: $<HTMLSelectElement>('pg-examples'),
  loadExample: $<HTMLButtonElement>('pg-load-example'),
  copyLink: $<HTMLButtonElement>('pg-copy-link'),
  copyIssue: $<HTMLButtonElement>('pg-copy-issue'),
  downloadSession: $<HTMLButtonElement>('pg-download-session'),
  openSession: $<HTMLButtonElement>('pg-open-session'),
  sessionInput: $<HTMLInputElement>('pg-session-input'),
  linkWarning: $('pg-link-warning'),
  promptBox: $<HTMLDetailsElement>('pg-prompt-box'),
  prompt: $('pg-prompt'),
  promptCopy: $<HTMLButtonElement>('pg-prompt-copy'),
  live: $<HTMLDetailsElement>('pg-live'),
  optWhitespace: $<HTMLInputElement>('pg-opt-whitespace'),
  optFuzzy: $<HTMLInputElement>('pg-opt-fuzzy'),
  optThreshold: $<HTMLInputElement>('pg-opt-threshold'),
  optWindow: $<HTMLInputElement>('pg-opt-window'),
  tablist: $('pg-tablist'),
  addFile: $<HTMLButtonElement>('pg-add-file'),
  openFiles: $<HTMLButtonElement>('pg-open-files'),
  fileInput: $<HTMLInputElement>('pg-file-input'),
  fileName: $<HTMLInputElement>('pg-filename'),
  removeFile: $<HTMLButtonElement>('pg-remove-file'),
  panels: $('pg-source-panels'),
  noFiles: $('pg-no-files'),
  viewBox: $<HTMLDetailsElement>('pg-view-box'),
  viewCaption: $('pg-view-caption'),
  viewCopy: $<HTMLButtonElement>('pg-view-copy'),
  view: $('pg-view'),
  replyHost: $('pg-reply-editor'),
  diagnostics: $('pg-diagnostics'),
  summary: $('pg-summary'),
  edits: $('pg-edits'),
  replyDiags: $('pg-reply-diags'),
  resultFile: $<HTMLSelectElement>('pg-result-file'),
  resultCaption: $('pg-result-caption'),
  merge: $('pg-merge'),
};

// ---------------------------------------------------------------- state

interface Tab {
  id: number;
  name: string;
  view: EditorViewType;
  panel: HTMLElement;
}

const DEFAULTS = { whitespace: true, fuzzy: true, fuzzyThreshold: 0.95, window: 50 } as const;
/**
 * Small inputs run at once (the engine client keeps one run in flight and
 * only the newest waiting, so fast typing coalesces by itself); large ones
 * wait for a pause in typing, since sending them costs the main thread.
 */
const DEBOUNCE_MS = 150;
const IMMEDIATE_CHARS = 1_000_000;
const MAX_WAIT_MS = 1000;
const HASH_THROTTLE_MS = 500;

let tabs: Tab[] = [];
let active = -1;
let uid = 0;
let format = 'auto';
let selected: number | null = null;
/** The input that was last sent to the engine, and the last result with the input it belongs to. */
let sent: RunInput | null = null;
let last: { input: RunInput; output: RunOutput } | null = null;
/** The file shown in the merge view. */
let resultFile: string | null = null;
/** Reveal the selected edit once the next result arrives (a session or link was just loaded). */
let revealOnResult = false;
/** Loading a session replaces documents: their change events must not count as edits. */
let loading = false;
/** The session's prompt (shown read-only; a live run records the one it sent). */
let sessionPrompt: string | null = null;
/** Bumped by every change of the engine's input; `sentSeq` is the one `sent` was made at. */
let changeSeq = 0;
let sentSeq = -1;
/** An opened link's recorded result, compared with the first run's. */
let linkCheck: { digest: string; version: string | null; input: RunInput | null } | null = null;

type Channel = 'link' | 'format' | 'engine' | 'input' | 'files' | 'live' | 'version';
const alerts = new Map<Channel, string>();

function setAlert(channel: Channel, text: string | null): void {
  if (text === null) alerts.delete(channel);
  else alerts.set(channel, text);
  ui.alert.replaceChildren(...[...alerts.values()].map((t) => h('p', null, t)));
}

let statusTimer: ReturnType<typeof setTimeout> | undefined;
function say(text: string): void {
  ui.status.textContent = text;
  clearTimeout(statusTimer);
  statusTimer = setTimeout(() => (ui.status.textContent = ''), 6000);
}

// ---------------------------------------------------------------- engine

const engine = new EngineClient(onEngine);
/** "Running… Cancel" once a run takes longer than a moment; Cancel replaces the worker. */
const running = new RunIndicator(() => engine.cancel());
ui.engine.after(running.el);

function onEngine(event: EngineEvent): void {
  switch (event.kind) {
    case 'running':
      running.start();
      ui.engine.textContent = 'Engine: running…';
      ui.diagnostics.setAttribute('aria-busy', 'true');
      break;
    case 'result':
      running.stop();
      ui.diagnostics.removeAttribute('aria-busy');
      setAlert('engine', null);
      if (sent) {
        last = { input: sent, output: event.output };
        checkLink();
        showResult();
        // A link this page wrote gets the digest once the result is in.
        if (hashWritten && currentDigest() !== writtenDigest) scheduleHash();
      }
      break;
    case 'timeout':
      running.stop();
      ui.diagnostics.removeAttribute('aria-busy');
      ui.engine.textContent = 'Engine: stopped';
      setAlert(
        'engine',
        `The engine took longer than ${(engine.timeoutMs / 1000).toFixed(0)} s on this input and was stopped; a fresh worker was started. ` +
          'The results shown are from the last run that finished. Change the input to run it again.',
      );
      break;
    case 'crash':
      running.stop();
      ui.diagnostics.removeAttribute('aria-busy');
      ui.engine.textContent = 'Engine: restarted';
      setAlert('engine', `The engine worker crashed (${event.message}) and was replaced by a new one. Change the input to run it again.`);
      break;
    case 'cancelled':
      running.stop();
      ui.diagnostics.removeAttribute('aria-busy');
      ui.engine.textContent = 'Engine: cancelled';
      say('Run cancelled; the engine was restarted. Your text is unchanged. Change the input to run it again.');
      break;
    case 'idle':
      running.stop();
      ui.diagnostics.removeAttribute('aria-busy');
      if (ui.engine.textContent === 'Engine: running…') ui.engine.textContent = 'Engine: ready';
      break;
  }
}

function currentFiles(): Record<string, string> {
  const files: Record<string, string> = {};
  for (const tab of tabs) files[tab.name] = tab.view.state.doc.toString();
  return files;
}

function currentOptions(): EngineOptions | undefined {
  const o: EngineOptions = {};
  if (!ui.optWhitespace.checked) o.whitespace = false;
  if (!ui.optFuzzy.checked) o.fuzzy = false;
  const t = Number(ui.optThreshold.value);
  if (ui.optThreshold.value !== '' && Number.isFinite(t) && t >= 0 && t <= 1 && t !== DEFAULTS.fuzzyThreshold) o.fuzzyThreshold = t;
  const w = Number(ui.optWindow.value);
  if (ui.optWindow.value !== '' && Number.isInteger(w) && w >= 0 && w !== DEFAULTS.window) o.window = w;
  return Object.keys(o).length ? o : undefined;
}

let runTimer: ReturnType<typeof setTimeout> | undefined;
/** When the oldest change not yet sent to the engine was made. */
let pendingSince: number | null = null;
/** Debounced, but a steady stream of changes (a streamed reply) still runs at least this often. */
function schedule(): void {
  changeSeq++;
  clearTimeout(runTimer);
  const now = performance.now();
  pendingSince ??= now;
  const size = tabs.reduce((n, t) => n + t.view.state.doc.length, reply.state.doc.length);
  const delay = size <= IMMEDIATE_CHARS || now - pendingSince >= MAX_WAIT_MS ? 0 : DEBOUNCE_MS;
  runTimer = setTimeout(runNow, delay);
  scheduleHash();
  saver.schedule();
}

function runNow(): void {
  clearTimeout(runTimer);
  pendingSince = null;
  const files = currentFiles();
  const response = reply.state.doc.toString();
  const total = Object.values(files).reduce((n, t) => n + t.length, response.length);
  if (total > LIMITS.text) {
    setAlert('input', `The input is too large to run: ${sizeText(total)} (the playground takes up to ${sizeText(LIMITS.text)}). Make the files or the reply smaller.`);
    return;
  }
  setAlert('input', null);
  const options = currentOptions();
  const input: RunInput = {
    request: { format, files, response, ...(options ? { options } : {}) },
    viewFile: ui.viewBox.open && active >= 0 ? tabs[active].name : null,
  };
  sent = input;
  sentSeq = changeSeq;
  engine.run(input);
}

// ---------------------------------------------------------------- editors

const onSourceChange = EditorView.updateListener.of((u) => {
  if (u.docChanged && !loading) schedule();
});

const sourceDrop = EditorView.domEventHandlers({
  drop(event) {
    if (!event.dataTransfer?.files.length) return false;
    event.preventDefault();
    void addFiles(event.dataTransfer.files);
    return true;
  },
});

const replyExtensions = () => [
  markedExtensions('Model reply'),
  EditorView.updateListener.of((u) => {
    if (u.docChanged && !loading) schedule();
    if (u.selectionSet && !u.docChanged && u.transactions.some((tr) => tr.isUserEvent('select'))) {
      const head = u.state.selection.main.head;
      const edit = last?.output.result?.edits.find((e) => e.reply.from <= head && head <= e.reply.to);
      if (edit && edit.index !== selected) selectEdit(edit.index, 'reply');
    }
  }),
];

const reply = track(new EditorView({ parent: ui.replyHost, state: EditorState.create({ doc: '', extensions: replyExtensions() }) }));

function createTab(name: string, text: string): Tab {
  const id = ++uid;
  const panel = h('div', { class: 'pg-panel', attrs: { role: 'tabpanel', id: `pg-panel-${id}`, 'aria-labelledby': `pg-tab-${id}`, hidden: true } });
  ui.panels.append(panel);
  const view = track(
    new EditorView({
      parent: panel,
      state: EditorState.create({ doc: text, extensions: [markedExtensions(`Source: ${name}`), onSourceChange, sourceDrop] }),
    }),
  );
  return { id, name, view, panel };
}

function destroyTab(tab: Tab): void {
  untrack(tab.view);
  tab.panel.remove();
}

function renderTabs(focus = false): void {
  ui.tablist.replaceChildren(
    ...tabs.map((tab, i) =>
      h(
        'button',
        {
          class: 'pg-tab',
          attrs: {
            type: 'button',
            role: 'tab',
            id: `pg-tab-${tab.id}`,
            'aria-controls': `pg-panel-${tab.id}`,
            'aria-selected': i === active ? 'true' : 'false',
            tabindex: i === active ? 0 : -1,
          },
          on: { click: () => activate(i) },
        },
        tab.name,
      ),
    ),
  );
  tabs.forEach((tab, i) => (tab.panel.hidden = i !== active));
  const has = active >= 0;
  ui.noFiles.hidden = has;
  ui.fileName.disabled = !has;
  ui.removeFile.disabled = !has;
  ui.fileName.value = has ? tabs[active].name : '';
  if (focus && has) (ui.tablist.children[active] as HTMLElement | undefined)?.focus();
}

function activate(i: number, focus = false): void {
  if (i < 0 || i >= tabs.length) return;
  const changed = i !== active;
  active = i;
  renderTabs(focus);
  if (changed) {
    if (last && fileNames(last).includes(tabs[i].name)) {
      resultFile = tabs[i].name;
      void showMerge();
    }
    if (ui.viewBox.open) schedule();
  }
}

ui.tablist.addEventListener('keydown', (event) => {
  const keys: Record<string, number> = { ArrowRight: active + 1, ArrowLeft: active - 1, Home: 0, End: tabs.length - 1 };
  if (!(event.key in keys) || tabs.length === 0) return;
  event.preventDefault();
  activate((keys[event.key] + tabs.length) % tabs.length, true);
});

function uniqueName(base: string): string {
  const names = new Set(tabs.map((t) => t.name));
  if (!names.has(base)) return base;
  const dot = base.lastIndexOf('.');
  const [stem, ext] = dot > 0 ? [base.slice(0, dot), base.slice(dot)] : [base, ''];
  for (let n = 2; ; n++) if (!names.has(`${stem}-${n}${ext}`)) return `${stem}-${n}${ext}`;
}

function addTab(name: string, text: string): number {
  tabs.push(createTab(name, text));
  return tabs.length - 1;
}

ui.addFile.addEventListener('click', () => {
  if (tabs.length >= LIMITS.files) {
    say(`A session holds at most ${LIMITS.files} files.`);
    return;
  }
  activate(addTab(uniqueName('untitled.txt'), ''));
  ui.fileName.focus();
  ui.fileName.select();
  schedule();
});

ui.removeFile.addEventListener('click', () => {
  if (active < 0) return;
  const [gone] = tabs.splice(active, 1);
  destroyTab(gone);
  active = tabs.length ? Math.min(active, tabs.length - 1) : -1;
  renderTabs();
  say(`Removed ${gone.name}.`);
  (active >= 0 ? (ui.tablist.children[active] as HTMLElement) : ui.addFile).focus();
  schedule();
});

function checkName(name: string, except: number): string | null {
  if (name === '') return 'A file name cannot be empty.';
  if (name.length > LIMITS.name) return `A file name has at most ${LIMITS.name} characters.`;
  if (tabs.some((t, i) => i !== except && t.name === name)) return `There is already a file named ${name}.`;
  return null;
}

ui.fileName.addEventListener('change', () => {
  if (active < 0) return;
  const name = ui.fileName.value.trim();
  const tab = tabs[active];
  if (name === tab.name) return;
  const problem = checkName(name, active);
  if (problem) {
    say(problem);
    ui.fileName.value = tab.name;
    return;
  }
  if (resultFile === tab.name) resultFile = name;
  tab.name = name;
  setLabel(tab.view, `Source: ${name}`);
  renderTabs();
  say(`Renamed to ${name}.`);
  schedule();
});
ui.fileName.addEventListener('keydown', (event) => {
  if (event.key === 'Escape' && active >= 0) ui.fileName.value = tabs[active].name;
});

// ---------------------------------------------------------------- files from disk

async function addFiles(list: FileList | File[]): Promise<void> {
  const added: string[] = [];
  const refused: string[] = [];
  let lastAdded = -1;
  for (const file of Array.from(list)) {
    const name = file.name.slice(0, LIMITS.name) || 'dropped.txt';
    const size = Object.values(currentFiles()).reduce((n, t) => n + t.length, reply.state.doc.length);
    if (file.size > LIMITS.text || size + file.size > LIMITS.text) {
      refused.push(`${name} (${sizeText(file.size)}: the playground takes up to ${sizeText(LIMITS.text)} in all)`);
      continue;
    }
    const text = await file.text();
    if (text.includes('\0')) {
      refused.push(`${name} (it looks like a binary file)`);
      continue;
    }
    const existing = tabs.findIndex((t) => t.name === name);
    if (existing >= 0) {
      const view = tabs[existing].view;
      view.dispatch({ changes: { from: 0, to: view.state.doc.length, insert: text } });
      lastAdded = existing;
    } else if (tabs.length >= LIMITS.files) {
      refused.push(`${name} (a session holds at most ${LIMITS.files} files)`);
      continue;
    } else lastAdded = addTab(name, text);
    added.push(name);
  }
  if (lastAdded >= 0) activate(lastAdded);
  setAlert('files', refused.length ? `Not added: ${refused.join('; ')}.` : null);
  if (added.length) say(`Added ${added.join(', ')}.`);
  schedule();
}

ui.openFiles.addEventListener('click', () => ui.fileInput.click());
ui.fileInput.addEventListener('change', () => {
  if (ui.fileInput.files?.length) void addFiles(Array.from(ui.fileInput.files)).then(() => (ui.fileInput.value = ''));
});

const hasFiles = (event: DragEvent) => Array.from(event.dataTransfer?.types ?? []).includes('Files');
document.addEventListener('dragover', (event) => {
  if (!hasFiles(event)) return;
  event.preventDefault();
  if (event.dataTransfer) event.dataTransfer.dropEffect = 'copy';
  ui.root.classList.add('pg-dragging');
});
document.addEventListener('dragleave', (event) => {
  if (event.relatedTarget === null) ui.root.classList.remove('pg-dragging');
});
document.addEventListener('drop', (event) => {
  ui.root.classList.remove('pg-dragging');
  if (event.defaultPrevented || !hasFiles(event) || !event.dataTransfer) return;
  event.preventDefault();
  void addFiles(event.dataTransfer.files);
});

// ---------------------------------------------------------------- results

function fileNames(run: { input: RunInput; output: RunOutput }): string[] {
  const names = Object.keys(run.input.request.files);
  for (const name of Object.keys(run.output.result?.files ?? {})) if (!names.includes(name)) names.push(name);
  return names;
}

function fileState(run: { input: RunInput; output: RunOutput }, name: string): { before: string; after: string; label: string } {
  const before = run.input.request.files[name];
  const out = run.output.result?.files ?? {};
  const after = name in out ? out[name] : before;
  const label =
    before === undefined ? 'new file' : after === null ? 'deleted' : after === before ? 'unchanged' : 'changed';
  return { before: before ?? '', after: after ?? '', label };
}

let resultView: ResultView | null = null;
let resultViewLoading: Promise<ResultView> | null = null;

function loadResultView(): Promise<ResultView> {
  resultViewLoading ??= import('./merge.ts').then(({ ResultView }) => (resultView = new ResultView(ui.merge)));
  return resultViewLoading;
}

async function showMerge(revealLine?: number): Promise<void> {
  const run = last;
  if (!run) return;
  const names = fileNames(run);
  ui.resultFile.replaceChildren(...names.map((name) => h('option', { attrs: { value: name } }, `${name} (${fileState(run, name).label})`)));
  if (names.length === 0) {
    resultView?.clear();
    resultFile = null;
    ui.resultCaption.textContent = 'No files.';
    ui.resultFile.disabled = true;
    return;
  }
  ui.resultFile.disabled = false;
  if (resultFile === null || !names.includes(resultFile)) {
    const activeName = active >= 0 ? tabs[active].name : null;
    resultFile = activeName && names.includes(activeName) ? activeName : names[0];
  }
  ui.resultFile.value = resultFile;
  const { before, after, label } = fileState(run, resultFile);
  ui.resultCaption.textContent = `${resultFile}: ${label}. Before on the left, after on the right.`;
  const view = await loadResultView();
  if (run !== last) return;
  view.show(resultFile, before, after);
  if (revealLine !== undefined) view.reveal(revealLine);
}

ui.resultFile.addEventListener('change', () => {
  resultFile = ui.resultFile.value;
  void showMerge();
});

function findEdit(index: number | null): EditResult | undefined {
  return index === null ? undefined : last?.output.result?.edits.find((e) => e.index === index);
}

/** The source lines an edit is about: where it matched, or its closest candidate(s). */
function sourceRanges(edit: EditResult): { start: number; end: number }[] {
  if (edit.status === 'applied' && edit.range) return [edit.range];
  if (edit.code === 'ambiguous') return edit.candidates.map((c) => ({ start: c.start, end: c.end }));
  return edit.candidates.slice(0, 1).map((c) => ({ start: c.start, end: c.end }));
}

function paintEditors(): void {
  const output = last?.output;
  const result = output?.result;
  const replyMarks: Marks = noMarks();
  const byFile = new Map<string, Marks>(tabs.map((t) => [t.name, noMarks()]));
  for (const edit of result?.edits ?? []) {
    const tone: Tone = toneOf(edit);
    const isSelected = edit.index === selected;
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
  showMarks(reply, replyMarks);
  for (const tab of tabs) showMarks(tab.view, byFile.get(tab.name) ?? noMarks());
}

const panelHandlers = {
  select: (index: number) => selectEdit(index, 'panel'),
  showReplySpan(span: Span) {
    selectSpan(reply, span.from, span.to);
    reply.focus();
  },
  copy(text: string, what: string) {
    void copyText(text).then((ok) => say(ok ? `${what} copied.` : `Could not copy the ${what.toLowerCase()}; select it and copy by hand.`));
  },
  copyFailureLink(index: number) {
    void copyFailureLink(index);
  },
};

function selectSpan(view: EditorViewType, from: number, to: number): void {
  const len = view.state.doc.length;
  const a = Math.max(0, Math.min(from, len));
  const b = Math.max(a, Math.min(to, len));
  view.dispatch({ selection: { anchor: a, head: b } });
  scrollInside(view, a);
}

function showResult(): void {
  const run = last;
  if (!run) return;
  const { output } = run;
  const result = output.result;
  ui.engine.textContent = result ? `Engine: ${output.ms < 1 ? '<1' : Math.round(output.ms)} ms` : 'Engine: failed';
  ui.detected.textContent = result
    ? format === 'auto'
      ? `detected ${result.format}`
      : ''
    : '';
  if (selected !== null && !findEdit(selected)) selected = null;
  renderDiagnostics({ summary: ui.summary, edits: ui.edits, reply: ui.replyDiags }, output, selected, panelHandlers);
  markSelected(ui.edits, selected);
  paintEditors();
  renderView();
  if (revealOnResult) {
    revealOnResult = false;
    if (selected !== null && findEdit(selected)) {
      selectEdit(selected, 'restore');
      ui.edits.querySelector<HTMLElement>(`.ld-row[data-edit="${selected}"]`)?.scrollIntoView({ block: 'center' });
      return;
    }
  }
  void showMerge();
}

function selectEdit(index: number, origin: 'panel' | 'reply' | 'restore'): void {
  const edit = findEdit(index);
  if (!edit) return;
  selected = index;
  markSelected(ui.edits, selected);
  paintEditors();
  if (origin !== 'reply') selectSpan(reply, edit.reply.from, edit.reply.to);
  else ui.edits.querySelector<HTMLElement>(`.ld-row[data-edit="${index}"]`)?.scrollIntoView({ block: 'nearest' });
  const ranges = sourceRanges(edit);
  const tabIndex = tabs.findIndex((t) => t.name === edit.file);
  if (tabIndex >= 0) {
    activate(tabIndex);
    const doc = tabs[tabIndex].view.state.doc;
    const r = ranges[0];
    if (r && doc.lines > 0) {
      const first = doc.line(Math.max(1, Math.min(r.start, doc.lines)));
      const lastLine = doc.line(Math.max(1, Math.min(Math.max(r.end, r.start), doc.lines)));
      if (r.end < r.start) selectSpan(tabs[tabIndex].view, first.from, first.from);
      else selectSpan(tabs[tabIndex].view, first.from, lastLine.to);
    }
  }
  if (last && fileNames(last).includes(edit.file)) resultFile = edit.file;
  void showMerge(ranges[0]?.start);
  if (origin !== 'restore') scheduleHash();
}

// ---------------------------------------------------------------- the model's view

function renderView(): void {
  const view = last?.output.view;
  ui.viewCopy.disabled = !view?.text;
  if (!ui.viewBox.open) return;
  if (!view) {
    ui.viewCaption.textContent = active >= 0 ? 'Computing…' : 'No source file.';
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

ui.viewBox.addEventListener('toggle', () => {
  if (ui.viewBox.open) {
    renderView();
    runNow();
  }
});
ui.viewCopy.addEventListener('click', () => {
  const text = last?.output.view?.text;
  if (text) panelHandlers.copy(text, 'View');
});

// ---------------------------------------------------------------- format and options

ui.format.addEventListener('change', () => {
  format = ui.format.value;
  setAlert('format', null);
  schedule();
  live?.refresh(false);
});
for (const input of [ui.optWhitespace, ui.optFuzzy, ui.optThreshold, ui.optWindow]) input.addEventListener('change', schedule);

function setOptions(o: EngineOptions | undefined): void {
  ui.optWhitespace.checked = o?.whitespace ?? DEFAULTS.whitespace;
  ui.optFuzzy.checked = o?.fuzzy ?? DEFAULTS.fuzzy;
  ui.optThreshold.value = String(o?.fuzzyThreshold ?? DEFAULTS.fuzzyThreshold);
  ui.optWindow.value = String(o?.window ?? DEFAULTS.window);
}

// ---------------------------------------------------------------- sessions and the URL

function currentSession(): Session {
  const options = currentOptions();
  const digest = currentDigest();
  return {
    format,
    files: tabs.map((t) => ({ name: t.name, text: t.view.state.doc.toString() })),
    reply: reply.state.doc.toString(),
    ...(options ? { options } : {}),
    ...(selected !== null ? { selected } : {}),
    ...(sessionPrompt !== null ? { prompt: sessionPrompt } : {}),
    ...(digest ? { digest } : {}),
  };
}

/** The digest of the shown result when it belongs to the current input (nothing changed since). */
function currentDigest(): string | null {
  return last && last.input === sent && sentSeq === changeSeq ? last.output.digest : null;
}

function showPrompt(): void {
  ui.promptBox.hidden = sessionPrompt === null;
  ui.prompt.textContent = sessionPrompt ?? '';
}

ui.promptCopy.addEventListener('click', () => {
  if (sessionPrompt !== null) panelHandlers.copy(sessionPrompt, 'Prompt');
});

function setSession(session: Session): void {
  loading = true;
  try {
    for (const tab of tabs) destroyTab(tab);
    tabs = [];
    active = -1;
    const names = new Set<string>();
    for (const file of session.files.slice(0, LIMITS.files)) {
      let name = file.name || 'untitled.txt';
      while (names.has(name)) name = `${name}~`;
      names.add(name);
      addTab(name, file.text);
    }
    active = tabs.length ? 0 : -1;
    renderTabs();
    reply.setState(EditorState.create({ doc: session.reply, extensions: replyExtensions() }));
    const known = Array.from(ui.format.options).some((o) => o.value === session.format);
    format = known ? session.format : 'auto';
    ui.format.value = format;
    setAlert('format', known ? null : `The session asks for an unknown format "${session.format}"; using auto-detection instead.`);
    setAlert('version', null);
    setOptions(session.options);
    selected = session.selected ?? null;
    sessionPrompt = session.prompt ?? null;
    showPrompt();
    revealOnResult = selected !== null;
    resultFile = null;
    last = null;
    changeSeq++;
  } finally {
    loading = false;
  }
  runNow();
  live?.refresh(true);
}

/** Compare an opened link's recorded result with the first result of this version. */
function setLinkCheck(session: Session, version: string | null): void {
  linkCheck = session.digest ? { digest: session.digest, version, input: sent } : null;
}

function checkLink(): void {
  const check = linkCheck;
  if (!check || !last) return;
  linkCheck = null;
  if (last.input !== check.input || last.output.digest === null || last.output.digest === check.digest) return;
  const made = check.version
    ? check.version === VERSION
      ? `This link was made with this version of ln-diff (${VERSION}), but it records a different result from the one shown below; it may have been altered.`
      : `This link was made with ln-diff ${check.version} and records a different result: this page runs ln-diff ${VERSION}, and the result shown below is this version's.`
    : `This link records a different result from the one shown below, which is that of ln-diff ${VERSION} (the link does not say which version made it).`;
  setAlert('version', made);
}

const links = new LinkClient();

let hashTimer: ReturnType<typeof setTimeout> | undefined;
/** Bumped by every change: only the newest session's link is written. */
let hashVersion = 0;
let hashCost = 0;
/** The session did not fit in a link the last time it was written. */
let linkTooLarge = false;
/** The hash (without `#`) of the session the page shows, and the digest that link records. */
let shownHash = location.hash.slice(1);
let writtenDigest: string | null = null;
/** The page has written the address itself (an opened link stays as it was until something changes). */
let hashWritten = false;

/** The address of the playground with a hash: `?v=` set to this version, other query parameters kept. */
function addressFor(hash: string): string {
  const params = new URLSearchParams(location.search);
  params.set('v', VERSION);
  return `${location.pathname}?${params.toString()}#${hash}`;
}

function showLinkWarning(): void {
  const length = location.href.length;
  if (linkTooLarge) {
    ui.linkWarning.textContent = 'This session is too large for a link. Share it with “Download session” and open the file with “Open session…”.';
  } else if (location.hash && length > LONG_LINK) {
    ui.linkWarning.textContent =
      `The link to this session is ${length.toLocaleString('en')} characters long: links over about ${LONG_LINK.toLocaleString('en')} characters are cut by some chat apps, ` +
      'mail programs and issue trackers. To share it whole, use “Download session” and open the file with “Open session…”.';
  } else {
    ui.linkWarning.textContent = '';
  }
  ui.linkWarning.hidden = ui.linkWarning.textContent === '';
}

/**
 * Write the session into the address; resolves when done or superseded.
 * Typing replaces the current history entry; a new session (`pushHash`) adds one,
 * so the back button returns to the previous session.
 */
async function writeHash(): Promise<void> {
  clearTimeout(hashTimer);
  hashTimer = undefined;
  const version = hashVersion;
  const t0 = performance.now();
  const session = currentSession();
  const size = session.files.reduce((n, f) => n + f.text.length, session.reply.length + (session.prompt?.length ?? 0));
  let hash: string | null = null;
  if (size <= LIMITS.text) {
    try {
      hash = await links.call((api) => api.encode(session));
    } catch {
      return;
    }
  }
  hashCost = performance.now() - t0;
  if (version !== hashVersion) return; // a newer change will write its own link
  const tooLarge = hash === null || hash.length > LIMITS.hash;
  if (tooLarge) {
    // An address holding an older session would be a wrong link: drop it.
    if (location.hash && pushNext) history.pushState(null, '', location.pathname + location.search);
    else if (location.hash) history.replaceState(history.state, '', location.pathname + location.search);
    pushNext = false;
    if (!linkTooLarge) say('This session is too large for a link; the address no longer holds it.');
    shownHash = '';
  } else if (hash !== null && (location.hash.slice(1) !== hash || !location.search.includes(`v=${VERSION}`))) {
    if (pushNext) history.pushState(null, '', addressFor(hash));
    else history.replaceState(history.state, '', addressFor(hash));
    pushNext = false;
    shownHash = hash;
  }
  writtenDigest = session.digest ?? null;
  hashWritten = true;
  linkTooLarge = tooLarge;
  showLinkWarning();
}

/** Throttled: at most one link every 500 ms, or as often as making one allows. */
function scheduleHash(): void {
  hashVersion++;
  if (hashTimer !== undefined) return;
  hashTimer = setTimeout(() => void writeHash(), Math.max(HASH_THROTTLE_MS, hashCost));
}

/** The next link written starts a history entry of its own (a new session replaced the old one). */
let pushNext = false;
function pushHash(): void {
  saver.schedule();
  pushNext = true;
  hashVersion++;
  void writeHash();
}

ui.copyLink.addEventListener('click', async () => {
  hashVersion++;
  await writeHash();
  if (linkTooLarge) {
    say('This session is too large for a link; use “Download session”.');
    return;
  }
  panelHandlers.copy(location.href, 'Link');
});

async function copyFailureLink(index: number): Promise<void> {
  const session = { ...currentSession(), selected: index };
  let hash: string;
  try {
    hash = await links.call((api) => api.encode(session));
  } catch {
    say('Could not make the link.');
    return;
  }
  if (hash.length > LIMITS.hash) {
    say('This session is too large for a link; use “Download session”.');
    return;
  }
  panelHandlers.copy(new URL(addressFor(hash), location.href).href, `Link to edit #${index + 1}`);
}

ui.copyIssue.addEventListener('click', async () => {
  hashVersion++;
  await writeHash();
  const { issueMarkdown } = await import('./issue.ts');
  const run = last;
  const session = currentSession();
  const current = run && run.input === sent;
  const text = issueMarkdown({
    version: VERSION,
    session,
    result: current ? run.output.result : null,
    error: current ? run.output.error : 'the engine has not finished running this session',
    link: linkTooLarge ? null : location.href,
  });
  panelHandlers.copy(text, 'Markdown issue');
});

ui.downloadSession.addEventListener('click', async () => {
  let text: string;
  try {
    text = await links.call((api) => api.file(currentSession(), VERSION));
  } catch {
    say('Could not write the session file.');
    return;
  }
  const url = URL.createObjectURL(new Blob([text], { type: 'application/json' }));
  const a = h('a', { attrs: { href: url, download: 'ln-diff-session.json' }, class: 'pg-offscreen' });
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
  say('Session downloaded as ln-diff-session.json.');
});

ui.openSession.addEventListener('click', () => ui.sessionInput.click());
ui.sessionInput.addEventListener('change', async () => {
  const file = ui.sessionInput.files?.[0];
  ui.sessionInput.value = '';
  if (!file) return;
  if (file.size > LIMITS.text * 6 + 100_000) {
    setAlert('link', `The file ${file.name} is too large to be a session (${sizeText(file.size)}).`);
    return;
  }
  let opened: SessionFileRead;
  try {
    const text = await file.text();
    opened = await links.call<SessionFileRead>((api) => api.readFile(text));
  } catch (e) {
    setAlert('link', `Could not read the file ${file.name}: ${e instanceof Error ? e.message : String(e)}.`);
    return;
  }
  if (!opened.ok) {
    setAlert('link', `The file ${file.name} holds no usable session: ${opened.error}. Nothing was changed.`);
    return;
  }
  setAlert('link', null);
  setSession(opened.session);
  setLinkCheck(opened.session, opened.version);
  pushHash();
  say(`Opened the session from ${file.name}.`);
});

/** Open the session a hash holds: the demo when there is none, an empty playground when it is broken. */
async function openHash(hash: string): Promise<void> {
  shownHash = hash.replace(/^#/, '');
  if (shownHash === '') {
    setAlert('link', null);
    setSession(demoSession);
    return;
  }
  let decoded: Decoded;
  try {
    decoded = await links.call<Decoded>((api) => api.decode(hash));
  } catch (e) {
    decoded = { ok: false, error: e instanceof Error ? e.message : String(e) };
  }
  if (decoded.ok) {
    setAlert('link', null);
    setSession(decoded.session);
    setLinkCheck(decoded.session, linkVersion(location.search));
    linkTooLarge = false;
    showLinkWarning();
  } else {
    setAlert('link', `This share link is broken: ${decoded.error}. An empty playground was opened instead.`);
    setSession(emptySession());
  }
}

const emptySession = (): Session => ({ format: 'auto', files: [{ name: 'untitled.txt', text: '' }], reply: '' });

/** Back, forward, or a hash typed into the address bar: open what the address holds now. */
function onAddressChange(): void {
  if (location.hash.slice(1) === shownHash) return;
  void openHash(location.hash);
}
window.addEventListener('hashchange', onAddressChange);
window.addEventListener('popstate', onAddressChange);

// ---------------------------------------------------------------- run with a model

let live: LivePanel | null = null;
let liveLoading = false;

ui.live.addEventListener('toggle', () => {
  if (!ui.live.open || live || liveLoading) return;
  liveLoading = true;
  import('./live/panel.ts').then(
    ({ mountLive }) => {
      live = mountLive({
        format: () => format,
        files: () => tabs.map((t) => ({ name: t.name, text: t.view.state.doc.toString() })),
        sessionPrompt: () => sessionPrompt,
        prepare: (files, name) => engine.prepare(files, name),
        begin(prompt) {
          sessionPrompt = prompt;
          showPrompt();
          reply.dispatch({ changes: { from: 0, to: reply.state.doc.length, insert: '' } });
        },
        append(text) {
          reply.dispatch({ changes: { from: reply.state.doc.length, insert: text } });
        },
      });
    },
    (e: unknown) => {
      liveLoading = false;
      setAlert('live', `Could not load the live-run panel: ${e instanceof Error ? e.message : String(e)}.`);
    },
  );
});

// ---------------------------------------------------------------- examples

interface Example {
  id: string;
  title: string;
  session: Session;
}

let examples: Example[] = [];
const checkExample = (value: unknown) => links.call<Decoded>((api) => api.normalize(value));

async function loadExamples(): Promise<void> {
  try {
    const response = await fetch(`${import.meta.env.BASE_URL.replace(/\/?$/, '/')}examples.json`, { credentials: 'same-origin' });
    if (!response.ok) throw new Error(`HTTP ${response.status}`);
    const data: unknown = await response.json();
    if (!Array.isArray(data)) throw new Error('not a list');
    examples = data.filter(
      (x): x is Example =>
        typeof x === 'object' && x !== null && typeof x.id === 'string' && typeof x.title === 'string' && typeof x.session === 'object' && x.session !== null,
    );
  } catch {
    examples = [];
  }
  const groups = new Map<string, HTMLOptGroupElement>();
  const placeholder = h('option', { attrs: { value: '' } }, examples.length ? 'Choose an example…' : 'No examples available');
  ui.examples.replaceChildren(placeholder);
  examples.forEach((ex, i) => {
    const key = typeof ex.session.format === 'string' ? ex.session.format : 'other';
    let group = groups.get(key);
    if (!group) {
      group = h('optgroup', { attrs: { label: key } });
      groups.set(key, group);
      ui.examples.append(group);
    }
    group.append(h('option', { attrs: { value: i } }, ex.title));
  });
  ui.examples.disabled = examples.length === 0;
  ui.loadExample.disabled = examples.length === 0;
}

ui.loadExample.addEventListener('click', async () => {
  const ex = examples[Number(ui.examples.value)];
  if (ui.examples.value === '' || !ex) {
    say('Choose an example first.');
    ui.examples.focus();
    return;
  }
  // Examples are untrusted data too: they go through the link decoder's checks.
  let decoded: Decoded;
  try {
    decoded = await checkExample(ex.session);
  } catch {
    decoded = { ok: false, error: 'the link worker did not answer' };
  }
  if (!decoded.ok) {
    say(`Could not load the example: ${decoded.error}.`);
    return;
  }
  setAlert('link', null);
  setSession(decoded.session);
  pushHash();
  say(`Loaded the example “${ex.title}”.`);
});

// ---------------------------------------------------------------- start

// ---------------------------------------------------------------- kept across reloads

const note = saveNote();
ui.linkWarning.after(note.el);
const saver = new Saver({ storage: localStore, session: () => currentSession(), report: note.show });
window.addEventListener('pagehide', () => {
  if (saver.pending) saver.flush();
});

resetControl($<HTMLButtonElement>('pg-reset'), () => {
  saver.clear();
  for (const channel of ['link', 'input', 'files', 'live'] as const) setAlert(channel, null);
  setSession(demoSession);
  // The demo lives at the bare address: a new history entry without a hash.
  clearTimeout(hashTimer);
  hashTimer = undefined;
  hashVersion++;
  hashWritten = false;
  shownHash = '';
  linkTooLarge = false;
  if (location.hash) history.pushState(null, '', location.pathname + location.search);
  showLinkWarning();
  say('Reset: the demo session is back and the saved state was cleared.');
});

/** A link in the address wins; otherwise the state saved in this browser, checked like a link; otherwise the demo. */
async function start(): Promise<void> {
  const saved = location.hash.slice(1) === '' ? saver.read() : null;
  if (saved !== null) {
    let decoded: Decoded;
    try {
      decoded = await checkExample(saved);
    } catch {
      decoded = { ok: false, error: 'the link worker did not answer' };
    }
    if (decoded.ok && location.hash.slice(1) === '') {
      shownHash = '';
      setSession(decoded.session);
      say('Restored the session saved in this browser.');
      return;
    }
  }
  await openHash(location.hash);
}

void start();
void loadExamples();
mountLazyPanels({ format: () => format, files: currentFiles, reply: () => reply.state.doc.toString() });

if (new URLSearchParams(location.search).has('test-hooks')) {
  (window as unknown as Record<string, unknown>).__lnDiffPlayground = {
    setTimeoutMs: (ms: number) => (engine.timeoutMs = ms),
    spin: (ms: number) => engine.spin(ms),
    crash: () => engine.crash(),
  };
}
