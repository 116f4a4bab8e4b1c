// The playground page: wires its parts around one state object
// (src/playground/state.ts). Source tabs and the reply in CodeMirror, the
// engine in a worker that keeps the documents (runner.ts), results painted
// back (results.ts), the session in the address and in files (address.ts,
// sessions.ts), examples, the saved copy, and the panels that load on first
// use. Every text that comes from the user, a link, a file, an example or a
// model is handled as text, never as HTML.

import type { EditorView as EditorViewType } from '@codemirror/view';
import { EditorState, EditorView, markedExtensions, track } from './editors.ts';
import { findElements } from './elements.ts';
import { Notices } from './notices.ts';
import { createState, activeTab, currentFiles, type Tab } from './state.ts';
import { Tabs } from './tabs.ts';
import { Runner, REPLY_DOC, followEdits } from './runner.ts';
import { Results } from './results.ts';
import { Address } from './address.ts';
import { Sessions, emptySession, isPlaceholder } from './sessions.ts';
import { mountExamples } from './examples.ts';
import { LiveMount } from './live-mount.ts';
import { fromDrop, mountOpenFiles, readPicked, type PickedFile } from './open-files.ts';
import { demoSession } from './demo.ts';
import { Saver, localStore, markSavedOver, tabStore, takeSavedOver } from './persist.ts';
import { resetControl, saveNote } from './guard.ts';
import { mountLazyPanels } from './panels.ts';
import type { Decoded } from '../share/share.ts';
import type { Session } from '../session/session.ts';
import type { EditResult } from '../core/types.ts';
import { mountTakeaway } from './takeaway/takeaway.ts';
import { mountShrink } from './shrink/panel.ts';
import type { FileText } from './takeaway/plan.ts';

const ui = findElements();
const state = createState();
const notices = new Notices(ui.alert, ui.status);
const say = (text: string) => notices.say(text);
const testHooks = new URLSearchParams(location.search).has('test-hooks');

// ---------------------------------------------------------------- editors

const replyExtensions = () => [
  markedExtensions('Model reply'),
  followEdits(() => runner, () => REPLY_DOC, () => !state.loading),
  EditorView.updateListener.of((u) => {
    if (u.selectionSet && !u.docChanged && u.transactions.some((tr) => tr.isUserEvent('select'))) results.replyCursor(u.state.selection.main.head);
  }),
];
const reply: EditorViewType = track(new EditorView({ parent: ui.replyHost, state: EditorState.create({ doc: '', extensions: replyExtensions() }) }));

const tabs = new Tabs(state, ui, {
  extensions: (tab: () => Tab) => [
    followEdits(() => runner, () => tab().id, () => !state.loading),
    EditorView.domEventHandlers({
      drop(event) {
        if (!event.dataTransfer?.files.length) return false;
        event.preventDefault();
        void fromDrop(event.dataTransfer).then(({ picked, skipped }) => addPicked(picked, skipped));
        return true;
      },
    }),
  ],
  activated(tab) {
    const outcome = state.last?.output.files.find((f) => f.name === tab.name);
    tabs.badge(outcome?.before ?? null);
    if (state.last?.output.files.some((f) => f.name === tab.name) && state.merge?.file !== tab.name) {
      state.resultFile = tab.name;
      runner.showFile();
    }
    if (ui.viewBox.open) runner.schedule();
  },
  changed: () => runner.schedule(),
  renamed(from, to) {
    if (state.resultFile === from) state.resultFile = to;
  },
  say,
});

// ---------------------------------------------------------------- engine and results

/** The live-run panel hears of every change (set once it exists). */
let liveChanged: () => void = () => undefined;

const runner = new Runner(
  state,
  ui,
  notices,
  {
    reply: () => reply,
    result: (run) => results.show(run),
    merge(output) {
      results.applyMerge(output);
      takeaway.refresh();
    },
    changed() {
      address.schedule();
      saver.schedule();
      liveChanged();
    },
    mergeAsk: () => ({ file: state.resultFile, base: state.merge?.version ?? null }),
    viewFile: () => (ui.viewBox.open ? (activeTab(state)?.name ?? null) : null),
  },
  testHooks,
);

/** Buttons other parts add to an edit's row (set once their code is wired). */
const rowActions: { shrink: ((edit: EditResult) => HTMLElement | null) | null } = { shrink: null };

const results = new Results(state, ui, notices, {
  reply: () => reply,
  activate: (i) => tabs.activate(i),
  showFile: () => runner.showFile(),
  selectionChanged: () => address.schedule(),
  copyFailureLink: (index) => void address.copyFailureLink(index),
  actions: (edit) => [tabs.renameOffer(edit), rowActions.shrink?.(edit) ?? null],
  switchFormat(format) {
    state.format = format;
    ui.format.value = format;
    runner.schedule();
    live.refresh(false);
    say(`Format switched to ${format}.`);
  },
  shown() {
    takeaway.refresh();
    const tab = activeTab(state);
    tabs.badge(tab ? (state.last?.output.files.find((f) => f.name === tab.name)?.before ?? null) : null);
    address.resultShown();
  },
});


/**
 * The last result's files for taking away, while it is the result of what the
 * page shows (between a change and its result there is none). The texts
 * before are read from the editors only when asked for.
 */
function resultFiles(): FileText[] | null {
  const run = state.last;
  const out = run?.output.result?.files;
  if (!run || !out || run.seq !== state.changeSeq) return null;
  return run.output.files.map((f): FileText => {
    const tab = state.tabs.find((t) => t.name === f.name);
    let before: string | null | undefined;
    const after = Object.hasOwn(out, f.name) ? out[f.name] : undefined;
    return {
      name: f.name,
      changed: f.label !== 'unchanged',
      get before() {
        before ??= f.label === 'new file' || !tab ? null : tab.view.state.doc.toString();
        return before;
      },
      get after() {
        return after === undefined ? this.before : after;
      },
    };
  });
}

const takeaway = mountTakeaway(ui.resultActions, { files: resultFiles, shown: () => state.merge?.file ?? null, say });

ui.viewBox.addEventListener('toggle', () => {
  if (ui.viewBox.open) runner.runNow();
});
ui.format.addEventListener('change', () => {
  state.format = ui.format.value;
  notices.alert('format', null);
  runner.schedule();
  live.refresh(false);
});
for (const input of [ui.optWhitespace, ui.optFuzzy, ui.optThreshold, ui.optWindow]) input.addEventListener('change', () => runner.schedule());

// ---------------------------------------------------------------- sessions, the address, the saved copy

const sessions = new Sessions(state, ui, notices, {
  tabs,
  runner,
  results,
  reply: () => reply,
  replyExtensions,
  opened: () => live.refresh(true),
});

/** The session's size in characters (every file and the reply), without building it. */
const sessionChars = (): number => state.tabs.reduce((n, t) => n + t.view.state.doc.length, reply.state.doc.length + (state.sessionPrompt?.length ?? 0));

const address = new Address(state, ui, notices, {
  session: () => sessions.current(),
  size: sessionChars,
  open: (session) => sessions.set(session),
  digest: () => runner.digest(),
  digestOf: (run) => runner.digestOf(run),
  copy: (text, what) => results.copy(text, what),
  save: () => saver.schedule(),
  shrink() {
    // Offered when the link is too long: shrink the selected failure, or the first one.
    const edits = state.last?.output.result?.edits ?? [];
    const failed = edits.find((e) => e.index === state.selected && e.status === 'failed') ?? edits.find((e) => e.status === 'failed');
    return failed?.code ? () => shrink.action(failed)?.click() : null;
  },
  shrinkIssue() {
    // The issue too long for GitHub: shrink the first failure, open the minimal session, copy its issue.
    const failed = state.last?.output.result?.edits.find((e) => e.status === 'failed');
    return failed?.code
      ? () =>
          shrink.run(failed, (session, hash) => {
            openShrunk(session, hash);
            address.copyIssueWhenShown();
          })
      : null;
  },
});

/** Put a shrunk session in place, in a history entry of its own (Back returns to the one it came from). */
function openShrunk(session: Session, hash: string | null): void {
  notices.alert('link', null);
  sessions.set(session);
  if (hash !== null && address.linkFor(hash) !== null) address.pushLink(hash, session.digest ?? null);
  else address.push();
}

const shrink = mountShrink(ui.shrink, {
  session: () => sessions.current(),
  linkFor: (hash) => address.linkFor(hash),
  open: openShrunk,
  say,
});
rowActions.shrink = (edit) => shrink.action(edit);

const note = saveNote();
ui.linkWarning.after(note.el);
const saver = new Saver({ storage: localStore, session: () => sessions.current(), size: sessionChars, report: note.show });
// What waits for a pause in typing is done when the page is hidden or left: the saved copy at once,
// and an address whose link is older than the session gives way to the saved copy.
document.addEventListener('visibilitychange', () => {
  if (document.visibilityState !== 'hidden') return;
  if (saver.pending) saver.flush();
  address.flush();
});
window.addEventListener('pagehide', () => {
  if (saver.pending) saver.flush();
  // A reload reopens the address it had: this tab remembers that the saved copy is newer than that link.
  const older = address.leaving();
  if (older !== null && saver.current) markSavedOver(tabStore(), older);
});

resetControl(ui.reset, () => {
  saver.clear();
  for (const channel of ['link', 'input', 'files', 'live'] as const) notices.alert(channel, null);
  sessions.set(demoSession);
  address.bare();
  say('Reset: the demo session is back and the saved state was cleared.');
});

ui.newSession.addEventListener('click', () => {
  for (const channel of ['link', 'input', 'files', 'live', 'version'] as const) notices.alert(channel, null);
  sessions.set(emptySession());
  address.bare();
  saver.schedule();
  (state.tabs[0]?.view.contentDOM ?? reply.contentDOM).focus();
  say('A new, empty session. Back returns to the one before.');
});

const checkSession = (value: unknown) => address.links.call<Decoded>((api) => api.normalize(value));

mountExamples(ui, {
  check: checkSession,
  open(session, title) {
    notices.alert('link', null);
    sessions.set(session);
    address.push();
    say(`Loaded the example “${title}”.`);
  },
  say,
});

const live = new LiveMount(state, ui.live, notices, {
  reply: () => reply,
  prepare: (files, format) => runner.engine.prepare(files, format),
  showPrompt: () => sessions.showPrompt(),
});
liveChanged = () => live.changed();

// ---------------------------------------------------------------- files from disk

mountOpenFiles(ui, {
  add: (picked, skipped) => void addPicked(picked, skipped),
});

/** Add files read from disk: a file of the same name is replaced, others become tabs. */
async function addPicked(picked: PickedFile[], skipped: number): Promise<void> {
  const size = state.tabs.reduce((n, t) => n + t.view.state.doc.length, reply.state.doc.length);
  const { files, refused } = await readPicked(picked, { size, files: state.tabs.length, names: new Set(state.tabs.map((t) => t.name)) });
  // Real files replace the empty placeholder of a new session (never a file that was given a text or a name).
  if (files.length) for (const tab of state.tabs.filter((t) => isPlaceholder(t.name, t.view.state.doc.length) && !files.some((f) => f.name === t.name))) tabs.remove(tab);
  let last = -1;
  for (const { name, text } of files) {
    const existing = state.tabs.findIndex((t) => t.name === name);
    if (existing >= 0) {
      const view = state.tabs[existing].view;
      view.dispatch({ changes: { from: 0, to: view.state.doc.length, insert: text } });
      last = existing;
    } else last = tabs.add(name, text);
  }
  tabs.render();
  if (last >= 0) tabs.activate(last);
  const notes = [...refused];
  if (skipped) notes.push(`${skipped} item${skipped === 1 ? '' : 's'} in version-control or dependency folders (.git, node_modules…)`);
  notices.alert('files', notes.length ? `Not added: ${notes.join('; ')}.` : null);
  if (files.length) say(`Added ${files.map((f) => f.name).join(', ')}.`);
  runner.schedule();
}

// ---------------------------------------------------------------- start

/**
 * A link in the address wins (unless this tab left it before the address
 * caught up with what was typed over it: then the saved copy is newer);
 * otherwise the state saved in this browser, checked like a link; otherwise
 * the demo.
 */
async function start(): Promise<void> {
  const hash = location.hash.slice(1);
  const over = takeSavedOver(tabStore(), hash);
  const saved = hash === '' || over ? saver.read() : null;
  if (saved !== null) {
    let decoded: Decoded;
    try {
      decoded = await checkSession(saved);
    } catch {
      decoded = { ok: false, error: 'the link worker did not answer' };
    }
    if (decoded.ok && location.hash.slice(1) === hash) {
      address.forgetHash();
      sessions.set(decoded.session);
      // The address still holds the older link: it follows the session shown.
      if (over) address.schedule();
      say('Restored the session saved in this browser.');
      return;
    }
  }
  await address.openHash(location.hash, () => sessions.set(demoSession));
}

void start();
mountLazyPanels({ format: () => state.format, files: () => currentFiles(state), reply: () => reply.state.doc.toString() });

if (testHooks) {
  (window as unknown as Record<string, unknown>).__lnDiffPlayground = {
    setTimeoutMs: (ms: number) => (runner.engine.timeoutMs = ms),
    spin: (ms: number) => runner.engine.spin(ms),
    crash: () => runner.engine.crash(),
  };
}
