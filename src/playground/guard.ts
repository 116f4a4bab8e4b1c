// Small pieces of the playground's UI that keep the user's work safe: the
// "Running… Cancel" indicator shown when a run takes longer than a moment,
// the note saying a session is too large to keep across a reload, and the
// inline "Discard everything? Yes / No" confirmation of Reset.
// All text is set as text; nothing is parsed as HTML.

import { h } from './dom.ts';
import { sizeText } from './present.ts';
import type { SaveState } from './persist.ts';

/** Show the indicator after this long (short runs never flash it). */
export const SHOW_AFTER_MS = 300;

export class RunIndicator {
  readonly el: HTMLElement;
  private readonly label: HTMLElement;
  private readonly button: HTMLButtonElement;
  private showTimer: ReturnType<typeof setTimeout> | undefined;
  private tick: ReturnType<typeof setInterval> | undefined;
  private started = 0;

  constructor(onCancel: () => void) {
    this.label = h('span', { class: 'pg-running-label' }, 'Running…');
    this.button = h('button', { attrs: { type: 'button' }, class: 'pg-cancel', on: { click: () => onCancel() } }, 'Cancel');
    this.el = h('span', { class: 'pg-running', attrs: { id: 'pg-running', hidden: true } }, this.label, this.button);
  }

  /** A run began: show the indicator if it is still going after `SHOW_AFTER_MS`. */
  start(): void {
    if (this.showTimer !== undefined || !this.el.hidden) return;
    this.started = performance.now();
    this.showTimer = setTimeout(() => {
      this.showTimer = undefined;
      this.el.hidden = false;
      this.update();
      this.tick = setInterval(() => this.update(), 500);
    }, SHOW_AFTER_MS);
  }

  private update(): void {
    const s = (performance.now() - this.started) / 1000;
    this.label.textContent = s >= 1 ? `Running… ${s.toFixed(0)} s` : 'Running…';
  }

  stop(): void {
    clearTimeout(this.showTimer);
    clearInterval(this.tick);
    this.showTimer = undefined;
    this.tick = undefined;
    this.el.hidden = true;
  }
}

/** The note next to the toolbar when the session is not kept across a reload. */
export function saveNote(): { el: HTMLElement; show: (state: SaveState, size: number) => void } {
  const el = h('p', { class: 'pg-link-warning pg-save-note', attrs: { id: 'pg-save-note', hidden: true } });
  return {
    el,
    show(state, size) {
      if (state === 'too-large')
        el.textContent = `This session (${sizeText(size)}) is too large to keep in this browser: it will not be restored after a reload. Use “Download session” to keep it.`;
      else if (state === 'failed') el.textContent = 'This browser refused to keep the session: it will not be restored after a reload.';
      else el.textContent = '';
      el.hidden = el.textContent === '';
    },
  };
}

/** Reset with an inline confirmation: the first click asks, "Yes" discards. */
export function resetControl(button: HTMLButtonElement, onReset: () => void): void {
  const yes = h('button', { attrs: { type: 'button' } }, 'Yes, discard');
  const no = h('button', { attrs: { type: 'button' } }, 'No');
  const box = h('span', { class: 'pg-confirm', attrs: { role: 'group', 'aria-label': 'Confirm reset', hidden: true } }, 'Discard everything? ', yes, ' ', no);
  button.after(box);
  const close = (focus: boolean) => {
    box.hidden = true;
    button.hidden = false;
    if (focus) button.focus();
  };
  button.addEventListener('click', () => {
    button.hidden = true;
    box.hidden = false;
    no.focus();
  });
  no.addEventListener('click', () => close(true));
  box.addEventListener('keydown', (event) => {
    if (event.key === 'Escape') close(true);
  });
  yes.addEventListener('click', () => {
    close(true);
    onReset();
  });
}
