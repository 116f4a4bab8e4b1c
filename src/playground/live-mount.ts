// "Run with a model": its panel's code loads when the panel is first opened;
// a run writes the reply into the reply editor as it streams in.

import type { EditorView } from '@codemirror/view';
import type { LivePanel } from './live/panel.ts';
import type { PreparedSource } from '../worker/protocol.ts';
import type { PageState } from './state.ts';
import type { Notices } from './notices.ts';

export interface LiveHooks {
  reply(): EditorView;
  prepare(files: { name: string; text: string }[], format: string): Promise<PreparedSource>;
  showPrompt(): void;
}

export class LiveMount {
  panel: LivePanel | null = null;
  private loading = false;
  /** The input changed while the panel was closed: its request size is measured when it opens. */
  private stale = false;

  constructor(
    private readonly state: PageState,
    private readonly box: HTMLDetailsElement,
    private readonly notices: Notices,
    private readonly hooks: LiveHooks,
  ) {
    box.addEventListener('toggle', () => {
      if (!box.open) return;
      if (this.panel) {
        if (this.stale) this.panel.changed();
        this.stale = false;
        return;
      }
      if (this.loading) return;
      this.loading = true;
      import('./live/panel.ts').then(
        ({ mountLive }) => this.mount(mountLive),
        (e: unknown) => {
          this.loading = false;
          this.notices.alert('live', `Could not load the live-run panel: ${e instanceof Error ? e.message : String(e)}.`);
        },
      );
    });
  }

  private mount(mountLive: typeof import('./live/panel.ts').mountLive): void {
    const { state, hooks } = this;
    this.panel = mountLive({
      format: () => state.format,
      files: () => state.tabs.map((t) => ({ name: t.name, text: t.view.state.doc.toString() })),
      sessionPrompt: () => state.sessionPrompt,
      prepare: (files, name) => hooks.prepare(files, name),
      begin(prompt) {
        state.sessionPrompt = prompt;
        hooks.showPrompt();
        const reply = hooks.reply();
        reply.dispatch({ changes: { from: 0, to: reply.state.doc.length, insert: '' } });
      },
      append(text) {
        const reply = hooks.reply();
        reply.dispatch({ changes: { from: reply.state.doc.length, insert: text } });
      },
    });
  }

  /** The format or the session changed. */
  refresh(newSession: boolean): void {
    this.panel?.refresh(newSession);
  }

  /** The files or the reply changed: the request's size follows, measured only while the panel is open. */
  changed(): void {
    if (!this.panel) return;
    if (this.box.open) this.panel.changed();
    else this.stale = true;
  }
}
