// The page's session as data: what the page shows, read out as a Session
// (for links, files, the saved copy), and a Session put in place (a link,
// a file, an example, the demo, a new empty one).

import type { Extension } from '@codemirror/state';
import type { EditorView } from '@codemirror/view';
import { EditorState } from './editors.ts';
import { LIMITS, type Session } from '../session/session.ts';
import type { PageState } from './state.ts';
import type { Elements } from './elements.ts';
import type { Notices } from './notices.ts';
import type { Tabs } from './tabs.ts';
import type { Runner } from './runner.ts';
import type { Results } from './results.ts';

/** A session with one empty file and no reply. */
export const emptySession = (): Session => ({ format: 'auto', files: [{ name: 'untitled.txt', text: '' }], reply: '' });

/**
 * An empty file under a name the page gave it (`untitled.txt`, `untitled-2.txt`…):
 * the placeholder of a new session or of "Add file", dropped when real files are opened.
 */
export function isPlaceholder(name: string, length: number): boolean {
  return length === 0 && /^untitled(-\d+)?\.txt$/.test(name);
}

export interface SessionParts {
  tabs: Tabs;
  runner: Runner;
  results: Results;
  reply(): EditorView;
  replyExtensions(): Extension;
  /** A session was put in place (the live panel follows). */
  opened(): void;
}

export class Sessions {
  constructor(
    private readonly state: PageState,
    private readonly ui: Elements,
    private readonly notices: Notices,
    private readonly parts: SessionParts,
  ) {
    ui.promptCopy.addEventListener('click', () => {
      if (this.state.sessionPrompt !== null) this.parts.results.copy(this.state.sessionPrompt, 'Prompt');
    });
  }

  /** What the page shows, as a session. */
  current(): Session {
    const { state, parts } = this;
    const options = parts.runner.currentOptions();
    return {
      format: state.format,
      files: state.tabs.map((t) => ({ name: t.name, text: t.view.state.doc.toString() })),
      reply: parts.reply().state.doc.toString(),
      ...(options ? { options } : {}),
      ...(state.selected !== null ? { selected: state.selected } : {}),
      ...(state.sessionPrompt !== null ? { prompt: state.sessionPrompt } : {}),
    };
  }

  showPrompt(): void {
    this.ui.promptBox.hidden = this.state.sessionPrompt === null;
    this.ui.prompt.textContent = this.state.sessionPrompt ?? '';
  }

  /** Put a session in place and run it. */
  set(session: Session): void {
    const { state, ui, parts } = this;
    state.loading = true;
    try {
      parts.tabs.clear();
      const names = new Set<string>();
      for (const file of session.files.slice(0, LIMITS.files)) {
        let name = file.name || 'untitled.txt';
        while (names.has(name)) name = `${name}~`;
        names.add(name);
        parts.tabs.add(name, file.text);
      }
      state.active = state.tabs.length ? 0 : -1;
      parts.tabs.render();
      parts.reply().setState(EditorState.create({ doc: session.reply, extensions: parts.replyExtensions() }));
      const known = Array.from(ui.format.options).some((o) => o.value === session.format);
      state.format = known ? session.format : 'auto';
      ui.format.value = state.format;
      this.notices.alert('format', known ? null : `The session asks for an unknown format "${session.format}"; using auto-detection instead.`);
      this.notices.alert('version', null);
      // A Markdown issue's size warning was about the session that goes.
      this.notices.alert('issue', null);
      parts.runner.setOptions(session.options);
      state.selected = session.selected ?? null;
      state.sessionPrompt = session.prompt ?? null;
      this.showPrompt();
      parts.results.revealOnResult = state.selected !== null;
      state.resultFile = null;
      state.last = null;
      state.changeSeq++;
      parts.runner.resetDocs();
    } finally {
      state.loading = false;
    }
    parts.runner.runNow();
    parts.opened();
  }
}
