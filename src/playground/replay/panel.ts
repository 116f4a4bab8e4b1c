// Replay: feed the reply to the stream in the replay worker at a chosen pace
// (a token counted as 4 characters), and show what is known when: the source
// lines each edit touches, each edit applied as it completes, and the time of
// each against the whole reply. Times are simulated from the speed, so they
// are the same however fast this page runs.

import { wrap, type Remote } from 'comlink';
import type { ReplayApi } from '../../worker/replay.worker.ts';
import type { LineRange } from '../../core/types.ts';
import type { ReplayEvent, ReplayStep } from './protocol.ts';
import type { Panel, PanelHooks } from './mount.ts';
import { h } from '../dom.ts';
import './replay.css';

const CHARS_PER_TOKEN = 4;
const TICK_MS = 50;

interface EditState {
  index: number;
  file: string;
  placed: LineRange | null;
  knownAt: number | null;
  state: 'pending' | 'applied' | 'failed' | 'dropped';
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

  let session: { files: Record<string, string>; reply: string; total: number; format: string } | null = null;
  let received = 0;
  let clock = 0;
  let done = false;
  let playing = false;
  let busy = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let edits: EditState[] = [];
  let applied: Record<string, string | null> = {};

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
    const whole = `reply: ${received.toLocaleString('en-US')} of ${session.total.toLocaleString('en-US')} characters`;
    const count = edits.filter((e) => e.state === 'applied' || e.state === 'failed').length;
    ui.progress.textContent = `${session.format} · ${whole} · ${ms(clock)} · ${count} of ${edits.filter((e) => e.state !== 'dropped').length} edits complete${done ? ' · done' : playing ? '' : ' · paused'}`;
    ui.reply.textContent = session.reply.slice(0, received);
    ui.reply.scrollTop = ui.reply.scrollHeight;
  }

  function logRow(text: string, tone: string): void {
    ui.log.append(h('li', { attrs: { 'data-tone': tone } }, text));
  }

  function renderSource(): void {
    if (!session) return;
    const parts: HTMLElement[] = [];
    for (const [file, text] of Object.entries(session.files)) {
      const rows = text.split('\n');
      if (rows.length > 1 && rows[rows.length - 1] === '') rows.pop();
      const marks = new Map<number, EditState>();
      const before = new Map<number, EditState>();
      for (const e of edits) {
        if (e.file !== file || e.state === 'dropped') continue;
        const r = e.state === 'pending' ? e.placed : (e.range ?? e.placed);
        if (!r) continue;
        if (r.end < r.start) before.set(r.start, e);
        for (let n = r.start; n <= r.end; n++) marks.set(n, e);
      }
      const list = h('div', { class: 'pg-rl-list' });
      rows.forEach((line, i) => {
        const n = i + 1;
        const ins = before.get(n);
        if (ins) list.append(h('div', { class: 'pg-rl', attrs: { 'data-state': ins.state } }, h('span', { class: 'pg-rl-n' }, ''), h('span', { class: 'pg-rl-e' }, `edit ${ins.index + 1}`), h('span', { class: 'pg-rl-t' }, '(inserts here)')));
        const e = marks.get(n);
        list.append(
          h(
            'div',
            { class: 'pg-rl', attrs: { 'data-state': e ? e.state : null } },
            h('span', { class: 'pg-rl-n' }, String(n)),
            h('span', { class: 'pg-rl-e' }, e ? `edit ${e.index + 1}` : ''),
            h('span', { class: 'pg-rl-t' }, line),
          ),
        );
      });
      parts.push(h('div', { class: 'pg-replay-file' }, h('div', { class: 'pg-replay-path' }, file), list));
    }
    ui.source.replaceChildren(...parts);
  }

  function renderFiles(): void {
    const parts: HTMLElement[] = [];
    for (const [file, text] of Object.entries(applied)) {
      parts.push(h('div', { class: 'pg-replay-file' }, h('div', { class: 'pg-replay-path' }, text === null ? `${file} (deleted)` : file), h('pre', { class: 'pg-replay-text' }, text ?? '')));
    }
    ui.files.replaceChildren(...parts);
  }

  function onEvents(step: ReplayStep): void {
    if (!session) return;
    for (const e of step.events) handle(e, session.total);
    if (step.files) {
      applied = step.files;
      renderFiles();
    }
    renderSource();
  }

  function handle(e: ReplayEvent, total: number): void {
    const at = (i: number) => (edits[i] ??= { index: i, file: '', placed: null, knownAt: null, state: 'pending', appliedAt: null, appliedChar: null, range: null });
    switch (e.type) {
      case 'started': {
        const s = at(e.index);
        Object.assign(s, { file: e.file, state: 'pending', placed: null, knownAt: null });
        break;
      }
      case 'known': {
        const s = at(e.index);
        s.file = e.file;
        s.placed = e.placed;
        if (e.placed && s.knownAt === null) {
          s.knownAt = clock;
          logRow(`Edit ${e.index + 1} (${e.file}): ${lines(e.placed)} known at ${ms(clock)}`, 'known');
        }
        break;
      }
      case 'complete': {
        const s = at(e.index);
        Object.assign(s, { file: e.file, state: e.status, range: e.range, appliedAt: clock, appliedChar: received });
        const where = `at ${ms(clock)} (character ${received.toLocaleString('en-US')} of ${total.toLocaleString('en-US')})`;
        logRow(
          e.status === 'applied'
            ? `Edit ${e.index + 1} (${e.file}) applied ${where}`
            : `Edit ${e.index + 1} (${e.file}) failed ${where}: ${e.message}`,
          e.status === 'applied' ? 'ok' : 'bad',
        );
        break;
      }
      case 'dropped':
        if (edits[e.index]) edits[e.index].state = 'dropped';
        break;
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
    ui.summary.replaceChildren(table);
  }

  async function begin(): Promise<boolean> {
    const files = hooks.files();
    const reply = hooks.reply();
    edits = [];
    received = 0;
    clock = 0;
    done = false;
    applied = { ...files };
    ui.log.replaceChildren();
    ui.summary.replaceChildren();
    if (reply === '') {
      session = null;
      ui.progress.textContent = 'The reply is empty: paste or load one first.';
      return false;
    }
    try {
      const start = await api.start({ format: hooks.format(), files, reply });
      session = { files, reply, total: start.total, format: start.format };
    } catch (e) {
      session = null;
      ui.progress.textContent = `Cannot replay: ${e instanceof Error ? e.message : String(e)}.`;
      return false;
    }
    renderSource();
    renderFiles();
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
    onEvents(step);
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
      /* the replay keeps its state while the panel is closed */
    },
  };
}
