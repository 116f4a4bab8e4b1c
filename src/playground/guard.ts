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
/** While shown, the elapsed time is updated this often. */
export const TICK_MS = 500;

/** The time and timers the indicator uses: the page's, or a test's. */
export interface Clock {
  now(): number;
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(id: unknown): void;
  setInterval(fn: () => void, ms: number): unknown;
  clearInterval(id: unknown): void;
}

/** The page's clock (looked up at each call, so a test's fake timers apply). */
export const pageClock: Clock = {
  now: () => performance.now(),
  setTimeout: (fn, ms) => setTimeout(fn, ms),
  clearTimeout: (id) => clearTimeout(id as ReturnType<typeof setTimeout>),
  setInterval: (fn, ms) => setInterval(fn, ms),
  clearInterval: (id) => clearInterval(id as ReturnType<typeof setInterval>),
};

/** The indicator's text after `elapsedMs` of a run. */
export function runningLabel(elapsedMs: number): string {
  const s = elapsedMs / 1000;
  return s >= 1 ? `Running… ${s.toFixed(0)} s` : 'Running…';
}

/**
 * The indicator's rule, apart from the page: a run is shown only once it has
 * lasted longer than `delayMs`, and a run that stops before is never shown.
 * While shown, `show` is called again every `TICK_MS` with the elapsed time.
 */
export class DelayedShow {
  private showTimer: unknown;
  private tick: unknown;
  private started = 0;
  private visible = false;

  constructor(
    private readonly view: { show(elapsedMs: number): void; hide(): void },
    private readonly clock: Clock = pageClock,
    readonly delayMs = SHOW_AFTER_MS,
  ) {}

  get shown(): boolean {
    return this.visible;
  }

  /** A run began (a run already being timed or shown goes on). */
  start(): void {
    if (this.showTimer !== undefined || this.visible) return;
    this.started = this.clock.now();
    this.showTimer = this.clock.setTimeout(() => {
      this.showTimer = undefined;
      this.visible = true;
      this.view.show(this.clock.now() - this.started);
      this.tick = this.clock.setInterval(() => this.view.show(this.clock.now() - this.started), TICK_MS);
    }, this.delayMs);
  }

  /** The run ended (or was cancelled): hide, and forget any pending show. */
  stop(): void {
    if (this.showTimer !== undefined) this.clock.clearTimeout(this.showTimer);
    if (this.tick !== undefined) this.clock.clearInterval(this.tick);
    this.showTimer = undefined;
    this.tick = undefined;
    this.visible = false;
    this.view.hide();
  }
}

/** "Running… Cancel": shown once a run takes longer than `SHOW_AFTER_MS`. */
export class RunIndicator {
  readonly el: HTMLElement;
  private readonly label: HTMLElement;
  private readonly button: HTMLButtonElement;
  private readonly rule: DelayedShow;

  constructor(onCancel: () => void, clock: Clock = pageClock) {
    this.label = h('span', { class: 'pg-running-label' }, 'Running…');
    this.button = h('button', { attrs: { type: 'button' }, class: 'pg-cancel', on: { click: () => onCancel() } }, 'Cancel');
    this.el = h('span', { class: 'pg-running', attrs: { id: 'pg-running', hidden: true } }, this.label, this.button);
    this.rule = new DelayedShow(
      {
        show: (elapsedMs) => {
          this.label.textContent = runningLabel(elapsedMs);
          this.el.hidden = false;
        },
        hide: () => {
          this.el.hidden = true;
        },
      },
      clock,
    );
  }

  /** A run began: show the indicator if it is still going after `SHOW_AFTER_MS`. */
  start(): void {
    this.rule.start();
  }

  stop(): void {
    this.rule.stop();
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
