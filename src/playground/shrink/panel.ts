// "Shrink to a minimal failure": a button on each failed edit's row. The
// panel it opens (view.ts, with the worker's handle) is loaded on the first
// click, so the page's first load carries only this.

import type { EditResult } from '../../core/types.ts';
import { h } from '../dom.ts';
import { DEFAULT_BUDGET } from '../../shrink/summary.ts';
import type { ShrinkHooks, ShrinkView, Shrunk } from './hooks.ts';
import './shrink.css';

export type { ShrinkHooks, Shrunk };

export interface ShrinkPanel {
  /** The button for an edit's row: a failed edit gets one, others null. */
  action(edit: EditResult): HTMLElement | null;
  /** Shrink this failed edit's session now; `then` gets the shrunk session once something was removed. */
  run(edit: EditResult, then?: Shrunk): void;
}

/** Mount on `<div id="pg-shrink" hidden>`; `budget`: engine runs a shrink may spend. */
export function mountShrink(container: HTMLElement, hooks: ShrinkHooks, budget = DEFAULT_BUDGET): ShrinkPanel {
  let view: Promise<ShrinkView> | null = null;
  const start = (edit: EditResult, then?: Shrunk) => {
    view ??= import('./view.ts').then((m) => m.shrinkView(container, hooks, budget));
    view.then(
      (v) => v.start(edit, then),
      () => {
        view = null;
        hooks.say('Could not load the shrink; try again.');
      },
    );
  };
  return {
    run(edit: EditResult, then?: Shrunk): void {
      if (edit.status === 'failed' && edit.code) start(edit, then);
    },
    action(edit: EditResult): HTMLElement | null {
      if (edit.status !== 'failed' || !edit.code) return null;
      return h(
        'button',
        {
          class: 'pg-shrink-action',
          attrs: { type: 'button', 'aria-label': `Shrink to a minimal failure (edit #${edit.index + 1})` },
          on: { click: () => start(edit) },
        },
        'Shrink to a minimal failure',
      );
    },
  };
}
