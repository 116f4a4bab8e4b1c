// Replay: feed the reply to the stream in the replay worker at a chosen pace
// (a token counted as 4 characters), and show what is known when: the source
// lines each edit touches, each edit applied as it completes, and the time of
// each against the whole reply. Times are simulated from the speed, so they
// are the same however fast this page runs. Each step adds to what is shown
// (the reply's new characters, the log's new rows, the files' changes), and
// redraws nothing else.

import { wrap, type Remote } from 'comlink';
import type { ReplayApi } from '../../worker/replay.worker.ts';
import type { LineRange } from '../../core/types.ts';
import type { ReplayEvent, ReplayStep } from '../../replay/protocol.ts';
import type { Panel, PanelHooks } from '../panel-hooks.ts';
import { h } from '../dom.ts';
import { ReplayViews, type EditState as State } from './views.ts';
import '../panels.css';
import './replay.css';

const CHARS_PER_TOKEN = 4;
const TICK_MS = 50;

interface EditState {
  index: number;
  file: string;
  placed: LineRange | null;
  knownAt: number | null;
  state: State;
  appliedAt: number | null;
  appliedChar: number | null;
  range: LineRange | null;
}

const $ = <T extends HTMLElement>(id: string): T => {
  const el = document.getElementById(id);
  if (!el) throw new Error(`#${id} is missing`);
  return el as T;
};

const ms = (t: number) => `${Math.round(t).toLocaleString('en-US')} ms`;
const num = (n: number) => n.toLocaleString('en-US');
const lines = (r: LineRange) => (r.end < r.start ? `before line ${r.start}` : r.end === r.start ? `line ${r.start}` : `lines ${r.start}–${r.end}`);

export function mountReplay(hooks: PanelHooks): Panel {
  const ui = {
    speed: $<HTMLInputElement>('pg-replay-speed'),
    play: $<HTMLButtonElement>('pg-replay-play'),
    step: $<HTMLButtonElement>('pg-replay-step'),
    restart: $<HTMLButtonElement>('pg-replay-restart'),
    progress: $('pg-replay-progress'),
    reply: $('pg-replay-reply'),
    source: $('pg-replay-source'),
    files: $('pg-replay-files'),
    log: $('pg-replay-log'),
    summary: $('pg-replay-summary'),
  };
  const worker = new Worker(new URL('../../worker/replay.worker.ts', import.meta.url), { type: 'module', name: 'ln-diff replay' });
  const api: Remote<ReplayApi> = wrap<ReplayApi>(worker);
  const views = new ReplayViews(ui.source, ui.files);
  // The reply so far: one text node, appended to.
  const replyText = document.createTextNode('');
  ui.reply.replaceChildren(replyText);

  let session: { reply: string; total: number; format: string } | null = null;
  let received = 0;
  let clock = 0;
  let done = false;
  let playing = false;
  let busy = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let edits: EditState[] = [];

  const speed = (): number => {
    const v = Number(ui.speed.value);
    return Number.isFinite(v) && v >= 1 ? Math.min(v, 10_000) : 40;
  };

  function buttons(): void {
    ui.play.textContent = playing ? 'Pause' : done ? 'Play again' : received > 0 ? 'Resume' : 'Play';
  }

  function setPlaying(on: boolean): void {
    playing = on;
    buttons();
    if (!on) clearTimeout(timer);
  }

  function showProgress(): void {
    buttons();
    if (!session) return;
    const whole = `reply: ${num(received)} of ${num(session.total)} characters`;
    let complete = 0;
    let live = 0;
    for (const e of edits) {
      if (e.state !== 'dropped') live++;
      if (e.state === 'applied' || e.state === 'failed') complete++;
    }
    ui.progress.textContent = `${session.format} · ${whole} · ${ms(clock)} · ${complete} of ${live} edits complete${done ? ' · done' : playing ? '' : ' · paused'}`;
  }

  /** The reply box shows the first `received` characters: add the ones it lacks. */
  function showReply(): void {
    if (!session) return;
    const shown = replyText.length;
    if (received > shown) replyText.appendData(session.reply.slice(shown, received));
    else if (received < shown) replyText.data = session.reply.slice(0, received);
    later.reply = true;
    schedule();
  }

  // The log's new rows wait here until the step is taken in, then go in at once.
  let rows = document.createDocumentFragment();
  function logRow(text: string, tone: string): void {
    rows.append(h('li', { attrs: { 'data-tone': tone } }, text));
  }
  function flushLog(): void {
    if (!rows.hasChildNodes()) return;
    ui.log.append(rows);
    rows = document.createDocumentFragment();
    later.log = true;
    schedule();
  }

  // Scrolling reads the layout: it waits for the next frame, once for all a frame's steps (a step only writes).
  const later: { reply: boolean; log: boolean; source: { file: string; line: number } | null; applied: { file: string; pos: number } | null } = {
    reply: false,
    log: false,
    source: null,
    applied: null,
  };
  let frame = 0;
  function schedule(): void {
    frame ||= requestAnimationFrame(() => {
      frame = 0;
      if (later.source) views.followSource(later.source.file, later.source.line);
      if (later.applied) views.followApplied(later.applied.file, later.applied.pos);
      if (later.reply) ui.reply.scrollTop = ui.reply.scrollHeight;
      if (later.log) ui.log.scrollTop = ui.log.scrollHeight;
      Object.assign(later, { reply: false, log: false, source: null, applied: null });
    });
  }

  function onStep(step: ReplayStep): void {
    if (!session) return;
    // The lines to follow: the last edit this step made known or complete.
    let touched: { file: string; line: number } | null = null;
    for (const e of step.events) {
      const at = handle(e, session.total);
      if (at) touched = at;
    }
    const changed = views.apply(step.changes);
    views.markSource(edits.map((e) => ({ index: e.index, file: e.file, state: e.state, range: e.state === 'pending' ? e.placed : (e.range ?? e.placed) })));
    flushLog();
    if (touched) later.source = touched;
    if (changed) later.applied = changed;
    if (touched || changed) schedule();
  }

  /** Take one event in; returns the source line it touches, if any. */
  function handle(e: ReplayEvent, total: number): { file: string; line: number } | null {
    const at = (i: number) => (edits[i] ??= { index: i, file: '', placed: null, knownAt: null, state: 'pending', appliedAt: null, appliedChar: null, range: null });
    switch (e.type) {
      case 'started': {
        const s = at(e.index);
        Object.assign(s, { file: e.file, state: 'pending', placed: null, knownAt: null });
        return null;
      }
      case 'known': {
        const s = at(e.index);
        s.file = e.file;
        s.placed = e.placed;
        if (e.placed && s.knownAt === null) {
          s.knownAt = clock;
          logRow(`Edit ${e.index + 1} (${e.file}): ${lines(e.placed)} known at ${ms(clock)}`, 'known');
        }
        return e.placed ? { file: e.file, line: e.placed.start } : null;
      }
      case 'complete': {
        const s = at(e.index);
        Object.assign(s, { file: e.file, state: e.status, range: e.range, appliedAt: clock, appliedChar: received });
        const where = `at ${ms(clock)} (character ${num(received)} of ${num(total)})`;
        logRow(
          e.status === 'applied' ? `Edit ${e.index + 1} (${e.file}) applied ${where}` : `Edit ${e.index + 1} (${e.file}) failed ${where}: ${e.message}`,
          e.status === 'applied' ? 'ok' : 'bad',
        );
        const r = e.range ?? s.placed;
        return r ? { file: e.file, line: r.start } : null;
      }
      case 'revised': {
        const s = at(e.index);
        Object.assign(s, { file: e.file, state: e.status, range: e.range });
        logRow(`Edit ${e.index + 1} (${e.file}), read with the whole reply: ${e.status === 'applied' ? 'applied' : 'failed'}: ${e.message}`, e.status === 'applied' ? 'ok' : 'bad');
        return null;
      }
      case 'dropped':
        if (edits[e.index]) edits[e.index].state = 'dropped';
        return null;
    }
  }

  function summarize(): void {
    const rows = edits.filter((e) => e.state === 'applied' || e.state === 'failed');
    const table = h(
      'table',
      { class: 'pg-compare-table' },
      h('caption', null, `Whole reply at ${ms(clock)}: when each edit was known and applied`),
      h('thead', null, h('tr', null, ...['Edit', 'File', 'Lines known at', 'Applied at', 'Ahead of the whole reply by'].map((t, i) => h('th', { class: i < 2 ? 'pg-text' : undefined, attrs: { scope: 'col' } }, t)))),
      h(
        'tbody',
        null,
        ...rows.map((e) =>
          h(
            'tr',
            null,
            h('td', null, `edit ${e.index + 1}`),
            h('td', { class: 'pg-text' }, e.file),
            h('td', null, e.knownAt === null ? '—' : ms(e.knownAt)),
            h('td', null, e.appliedAt === null ? '—' : `${ms(e.appliedAt)}${e.state === 'failed' ? ' (failed)' : ''}`),
            h('td', null, e.appliedAt === null ? '—' : ms(clock - e.appliedAt)),
          ),
        ),
      ),
    );
    ui.summary.replaceChildren(h('div', { class: 'pg-replay-summary', attrs: { tabindex: 0, role: 'region', 'aria-label': 'When each edit was known and applied' } }, table));
  }

  async function begin(): Promise<boolean> {
    const files = hooks.files();
    const reply = hooks.reply();
    edits = [];
    received = 0;
    clock = 0;
    done = false;
    replyText.data = '';
    ui.log.replaceChildren();
    Object.assign(later, { source: null, applied: null });
    ui.summary.replaceChildren();
    // Said at once: the last run's "done" must not stand while the worker starts again.
    ui.progress.textContent = 'Starting…';
    if (reply === '') {
      session = null;
      views.clear();
      ui.progress.textContent = 'The reply is empty: paste or load one first.';
      return false;
    }
    try {
      const start = await api.start({ format: hooks.format(), files, reply });
      session = { reply, total: start.total, format: start.format };
    } catch (e) {
      session = null;
      views.clear();
      ui.progress.textContent = `Cannot replay: ${e instanceof Error ? e.message : String(e)}.`;
      return false;
    }
    views.reset(files);
    showProgress();
    return true;
  }

  /** Feed up to `to` characters, advancing the clock at the current speed. */
  async function feed(to: number): Promise<void> {
    if (!session) return;
    const n = Math.max(0, Math.min(to, session.total) - received);
    clock += (n / CHARS_PER_TOKEN / speed()) * 1000;
    const step = await api.feed(received + n);
    received = step.received;
    onStep(step);
    showReply();
    if (step.done) {
      done = true;
      setPlaying(false);
      summarize();
    }
    showProgress();
  }

  async function tick(): Promise<void> {
    if (!playing || !session || busy) return;
    busy = true;
    try {
      await feed(received + Math.max(1, Math.round((speed() * CHARS_PER_TOKEN * TICK_MS) / 1000)));
    } finally {
      busy = false;
    }
    if (playing) timer = setTimeout(() => void tick(), TICK_MS);
  }

  ui.play.addEventListener('click', async () => {
    if (playing) {
      setPlaying(false);
      showProgress();
      return;
    }
    if (!session || done) {
      if (!(await begin())) return;
    }
    setPlaying(true);
    showProgress();
    void tick();
  });

  ui.step.addEventListener('click', async () => {
    if (busy) return;
    setPlaying(false);
    busy = true;
    try {
      if (!session || done) {
        if (!(await begin())) return;
      }
      await feed(await api.nextLine(received));
    } finally {
      busy = false;
    }
  });

  ui.restart.addEventListener('click', async () => {
    setPlaying(false);
    if (await begin()) setPlaying(false);
  });

  // The buttons are disabled in the page's markup until this code runs.
  for (const b of [ui.play, ui.step, ui.restart]) b.disabled = false;
  return {
    opened() {
      // The replay keeps its state while the panel is closed; its editors measure again once shown.
      views.refresh();
    },
  };
}
