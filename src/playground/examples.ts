// The examples menu: the list from /examples.json (built from the spec),
// grouped by format; an example is untrusted data too and goes through the
// link decoder's checks before it is opened.

import { h } from './dom.ts';
import type { Session } from '../session/session.ts';
import type { Decoded } from '../share/share.ts';
import type { Elements } from './elements.ts';

interface Example {
  id: string;
  title: string;
  session: Session;
}

export interface ExampleHooks {
  /** Check a session as a link's would be (in the link worker). */
  check(value: unknown): Promise<Decoded>;
  open(session: Session, title: string): void;
  say(text: string): void;
}

export function mountExamples(ui: Elements, hooks: ExampleHooks): void {
  let examples: Example[] = [];

  async function load(): Promise<void> {
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
      hooks.say('Choose an example first.');
      ui.examples.focus();
      return;
    }
    let decoded: Decoded;
    try {
      decoded = await hooks.check(ex.session);
    } catch {
      decoded = { ok: false, error: 'the link worker did not answer' };
    }
    if (!decoded.ok) {
      hooks.say(`Could not load the example: ${decoded.error}.`);
      return;
    }
    hooks.open(decoded.session, ex.title);
  });

  void load();
}
