// The Replay and Compare formats panels load their code (and start their
// workers) only when first opened; this is all the page carries up front.

export interface PanelHooks {
  /** The format chosen in the toolbar (may be `auto`). */
  format(): string;
  files(): Record<string, string>;
  reply(): string;
}

export interface Panel {
  /** The panel was opened again. */
  opened(): void;
}

function lazy(id: string, load: () => Promise<Panel>): void {
  const box = document.getElementById(id);
  if (!(box instanceof HTMLDetailsElement)) return;
  let panel: Promise<Panel> | null = null;
  box.addEventListener('toggle', () => {
    if (!box.open) return;
    if (panel) {
      void panel.then((p) => p.opened());
      return;
    }
    panel = load();
    panel.catch((e: unknown) => {
      panel = null;
      const note = document.createElement('p');
      note.className = 'pg-alert';
      note.setAttribute('role', 'alert');
      note.textContent = `Could not load this panel: ${e instanceof Error ? e.message : String(e)}.`;
      box.append(note);
    });
  });
}

export function mountLazyPanels(hooks: PanelHooks): void {
  lazy('pg-replay', () => import('./panel.ts').then((m) => m.mountReplay(hooks)));
  lazy('pg-compare', () => import('../compare/panel.ts').then((m) => m.mountCompare(hooks)));
}
