// What the page tells the user: alerts by channel (each channel holds at
// most one message; the alert region lists them) and a status line that
// clears itself.

import { h } from './dom.ts';

export type Channel = 'link' | 'issue' | 'format' | 'suggest' | 'engine' | 'input' | 'files' | 'live' | 'version';

/** A button in an alert (the alert goes once it is pressed). */
export interface Action {
  label: string;
  run(): void;
}

export class Notices {
  private readonly alerts = new Map<Channel, { text: string; action?: Action }>();
  private timer: ReturnType<typeof setTimeout> | undefined;

  constructor(
    private readonly alertEl: HTMLElement,
    private readonly statusEl: HTMLElement,
  ) {}

  /** Set (or clear, with null) the alert of one channel, with a button that acts on it. */
  alert(channel: Channel, text: string | null, action?: Action): void {
    if (text === null) this.alerts.delete(channel);
    else this.alerts.set(channel, { text, action });
    this.alertEl.replaceChildren(
      ...[...this.alerts.entries()].map(([key, a]) =>
        h(
          'p',
          null,
          a.text,
          a.action ? ' ' : null,
          a.action
            ? h('button', { class: 'pg-alert-action', attrs: { type: 'button' }, on: { click: () => (this.alert(key, null), a.action!.run()) } }, a.action.label)
            : null,
        ),
      ),
    );
  }

  /** A passing message in the status line (cleared after six seconds). */
  say(text: string): void {
    this.statusEl.textContent = text;
    clearTimeout(this.timer);
    this.timer = setTimeout(() => (this.statusEl.textContent = ''), 6000);
  }
}
