// The minimal-failure panel (in the Diagnostics region): runs the shrink
// worker with progress and Cancel, then shows the sizes before and after,
// what was removed, and the link to the shrunk session. Loaded on the first
// click of a "Shrink to a minimal failure" button (panel.ts). Text only,
// never HTML.

import { proxy, wrap, type Remote } from 'comlink';
import type { EditResult } from '../../core/types.ts';
import type { ShrinkApi, ShrinkReport, ShrinkStage } from '../../worker/shrink.worker.ts';
import { append, copyText, h } from '../dom.ts';
import { describeRemoved, shrank, type Phase, type Size } from '../../shrink/summary.ts';
import type { ShrinkHooks, ShrinkView, Shrunk } from './hooks.ts';

const count = (n: number) => n.toLocaleString('en-US');
const plural = (n: number, one: string, many = `${one}s`) => `${count(n)} ${n === 1 ? one : many}`;

const PHASES: Record<Phase | 'measure', string> = {
  check: 'Checking the failure',
  files: 'Dropping files',
  edits: 'Dropping other edits',
  prose: 'Dropping prose',
  lines: 'Dropping file lines',
  block: 'Dropping lines of the edit',
  done: 'Finishing',
  measure: 'Measuring the links',
};

interface Job {
  worker: Worker;
  edit: number;
}

export function shrinkView(container: HTMLElement, hooks: ShrinkHooks, budget: number): ShrinkView {
  let job: Job | null = null;

  const stop = () => {
    job?.worker.terminate();
    job = null;
    container.removeAttribute('aria-busy');
  };

  const close = h('button', { class: 'pg-shrink-close', attrs: { type: 'button', 'aria-label': 'Close the minimal failure' }, on: { click: () => hide() } }, '\u00d7');
  const title = h('h3', { attrs: { tabindex: '-1', id: 'pg-shrink-title' } }, 'Minimal failure');
  const body = h('div', { class: 'pg-shrink-body' });
  container.replaceChildren(h('div', { class: 'pg-shrink-head' }, title, close), body);
  container.setAttribute('role', 'group');
  container.setAttribute('aria-labelledby', 'pg-shrink-title');

  function hide(): void {
    stop();
    body.replaceChildren();
    container.hidden = true;
  }

  function start(edit: EditResult, then?: Shrunk): void {
    stop();
    const session = hooks.session();
    const n = edit.index + 1;
    const code = edit.code;
    if (!code) return;
    title.replaceChildren(`Minimal failure: edit #${n} (`, h('code', null, code), ')');
    const bar = h('progress', { attrs: { max: budget, value: 0, 'aria-label': 'Engine runs' } });
    const line = h('p', { class: 'pg-shrink-progress' }, 'Starting…');
    const cancel = h('button', { attrs: { type: 'button' }, on: { click: () => cancelled() } }, 'Cancel');
    body.replaceChildren(
      h('p', { class: 'pg-shrink-note' }, `Removing files, edits and lines while edit #${n} still fails the same way (with ${code}, for the same reason), checking each try with the engine.`),
      h('div', { class: 'pg-shrink-running' }, bar, cancel),
      line,
    );
    container.hidden = false;
    container.setAttribute('aria-busy', 'true');
    container.scrollIntoView({ block: 'nearest' });
    title.focus({ preventScroll: true });
    hooks.say(`Shrinking edit #${n} to a minimal failure…`);

    let runs = 0;
    const cancelled = () => {
      stop();
      body.replaceChildren(h('p', { class: 'pg-shrink-outcome' }, `Cancelled after ${plural(runs, 'engine run')}; nothing was changed.`));
      hooks.say('Shrink cancelled.');
    };

    const worker = new Worker(new URL('../../worker/shrink.worker.ts', import.meta.url), { type: 'module', name: 'ln-diff shrink' });
    const mine: Job = { worker, edit: edit.index };
    job = mine;
    const failed = (message: string) => {
      if (job !== mine) return;
      stop();
      body.replaceChildren(h('p', { class: 'pg-shrink-outcome pg-shrink-bad' }, `The shrink stopped: ${message}.`));
      hooks.say('The shrink stopped.');
    };
    worker.addEventListener('error', (event) => {
      event.preventDefault();
      failed(event.message || 'the worker stopped');
    });
    const api: Remote<ShrinkApi> = wrap<ShrinkApi>(worker);
    const onProgress = (p: ShrinkStage) => {
      if (job !== mine) return;
      runs = p.runs;
      bar.value = p.runs;
      line.textContent =
        `${PHASES[p.phase]}… ${count(p.runs)} of ${plural(p.budget, 'engine run')} used; ` +
        `smallest failing session so far: ${plural(p.size.lines, 'line')}, ${plural(p.size.chars, 'character')}.`;
    };
    api.run(session, { index: edit.index, code }, budget, proxy(onProgress)).then(
      (report) => {
        if (job !== mine) return;
        stop();
        show(report, n, then);
      },
      (e: unknown) => failed(e instanceof Error ? e.message : String(e)),
    );
  }

  function show(report: ShrinkReport, n: number, then?: Shrunk): void {
    if (!report.ok) {
      body.replaceChildren(
        h('p', { class: 'pg-shrink-outcome pg-shrink-bad' }, `Could not reproduce the failure: ${report.message}. Nothing to shrink; run the session again and retry.`),
      );
      hooks.say('Could not reproduce the failure.');
      return;
    }
    const shrunk = report.session;
    const nothing = !shrank(report.removed);
    // The shrunk session's hash was made once, in the worker: the link and the address take it as it is.
    const hash = report.links?.hash ?? null;
    const link = hash === null ? null : hooks.linkFor(hash);
    const hashAt = link ? link.indexOf('#') + 1 : 0;
    const linkBefore = report.links && link && hashAt > 0 ? hashAt + report.links.before : null;
    const linkAfter = link ? link.length : null;

    const row = (name: string, a: number | null, b: number | null) =>
      h('tr', null, h('th', { attrs: { scope: 'row' } }, name), h('td', null, a === null ? '—' : count(a)), h('td', null, b === null ? '—' : count(b)));
    const b: Size = report.before;
    const a: Size = report.after;
    const table = h(
      'table',
      { class: 'pg-shrink-table' },
      h('caption', null, 'Size of the session'),
      h('thead', null, h('tr', null, h('td', null), h('th', { attrs: { scope: 'col' } }, 'before'), h('th', { attrs: { scope: 'col' } }, 'after'))),
      h(
        'tbody',
        null,
        row('characters', b.chars, a.chars),
        row('lines', b.lines, a.lines),
        row('files', b.files, a.files),
        row('edits', b.edits, a.edits),
        row('link (characters)', linkBefore, linkAfter),
      ),
    );
    const removed = describeRemoved(report.removed);
    const sentence = removed.charAt(0).toUpperCase() + removed.slice(1);
    const m = report.index + 1;
    const copy = h(
      'button',
      {
        attrs: { type: 'button', disabled: link === null },
        on: {
          click: () => {
            if (!link) return;
            void copyText(link).then((ok) => hooks.say(ok ? 'Link to the minimal failure copied.' : 'Could not copy the link; select it and copy by hand.'));
          },
        },
      },
      'Copy link',
    );
    const open = h(
      'button',
      {
        attrs: { type: 'button' },
        on: {
          click: () => {
            hooks.open(shrunk, link === null ? null : hash);
            hooks.say(`Opened the minimal failure: edit #${m}.`);
          },
        },
      },
      'Open it here',
    );
    body.replaceChildren();
    append(
      body,
      h(
        'p',
        { class: 'pg-shrink-outcome' },
        nothing
          ? `Could not shrink it: edit #${n} needs every file, edit and line of this session to fail with ${report.code}.`
          : `Edit #${n} still fails with ${report.code} in this smaller session (as edit #${m}). ${sentence}.`,
      ),
      report.complete
        ? null
        : h('p', { class: 'pg-shrink-note' }, `Stopped at the budget of ${plural(report.budget, 'engine run')}: it may shrink further.`),
      h('div', { class: 'pg-shrink-scroll' }, table),
      link === null ? h('p', { class: 'pg-shrink-note' }, 'Even the shrunk session is too large for a link.') : null,
      h('div', { class: 'pg-buttons' }, copy, open),
    );
    hooks.say(nothing ? 'Could not shrink the failure.' : `Shrunk to ${plural(a.lines, 'line')} in ${plural(report.runs, 'engine run')}.`);
    if (!nothing) then?.(shrunk, link === null ? null : hash);
  }

  return { start };
}
