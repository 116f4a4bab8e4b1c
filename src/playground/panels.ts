// The lazily mounted panels (Replay, Compare formats): what the page gives
// them, and the one place that loads each panel's code (and starts its
// worker) when the panel is first opened. Neither panel imports the other.

import type { Panel, PanelHooks } from './panel-hooks.ts';

export type { Panel, PanelHooks };

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

/** Wire the Replay (#pg-replay) and Compare formats (#pg-compare) panels to load on first open. */
export function mountLazyPanels(hooks: PanelHooks): void {
  lazy('pg-replay', () => import('./replay/panel.ts').then((m) => m.mountReplay(hooks)));
  lazy('pg-compare', () => import('./compare/panel.ts').then((m) => m.mountCompare(hooks)));
}
