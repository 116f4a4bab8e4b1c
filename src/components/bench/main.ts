// The Bench page: wires the form (form.ts), the run in the worker
// (client.ts), the run on show (run-view.ts), the comparison
// (compare-view.ts), and runs as files and links (files.ts). It owns the
// page's state: the run shown, and whether one is going.

import { copyText, h } from '../../playground/dom.ts';
import type { BenchConfig, BenchReply, BenchRun } from '../../bench/types.ts';
import { askedCount } from '../../bench/summary.ts';
import { RUN_PREFIX } from '../../bench/file.ts';
import { BenchClient, type Opened, type RunNews, type RunView as Shown } from './client.ts';
import { compareView } from './compare-view.ts';
import { download, fileText, MAX_LINK, runFileName, shareAddress } from './files.ts';
import { mountForm } from './form.ts';
import { count, plural } from './numbers.ts';
import { RunView } from './run-view.ts';
import { benchReplyHref } from '../../share/bench-link.ts';
import { withoutReasoning } from '../../bench/reasoning.ts';

/** A run's share link in the address: `#run=…`. */
const RUN_HASH = `#${RUN_PREFIX}`;

const byId = <T extends HTMLElement>(id: string): T => {
  const el = document.getElementById(id);
  if (!el) throw new Error(`bench: #${id} is missing`);
  return el as T;
};

const root = byId('bn');
const ui = {
  message: byId('bn-message'),
  progressBox: byId('bn-progress-box'),
  progress: byId<HTMLProgressElement>('bn-progress'),
  progressText: byId('bn-progress-text'),
  stop: byId<HTMLButtonElement>('bn-stop'),
  alert: byId('bn-alert'),
  note: byId('bn-note'),
  download: byId<HTMLButtonElement>('bn-download'),
  share: byId<HTMLButtonElement>('bn-share'),
  open: byId<HTMLButtonElement>('bn-open'),
  openInput: byId<HTMLInputElement>('bn-open-input'),
  compareOpen: byId<HTMLButtonElement>('bn-compare-open'),
  compareInput: byId<HTMLInputElement>('bn-compare-input'),
  compare: byId('bn-compare'),
  compareBody: byId('bn-compare-body'),
  compareClose: byId<HTMLButtonElement>('bn-compare-close'),
  compareTitle: byId('bn-compare-title'),
  baselineShown: document.querySelector<HTMLInputElement>('input[name="bn-baseline"][value="shown"]')!,
  baselineOpened: document.querySelector<HTMLInputElement>('input[name="bn-baseline"][value="opened"]')!,
  baselineOpenedName: byId('bn-baseline-opened'),
  results: byId('bn-results-title'),
};
const playground = root.dataset.playground ?? '/playground/';
const engine = root.dataset.engine ?? 'ln-diff';

const client = new BenchClient();
const form = mountForm(client, root);

// The suite's tasks (the form lists them): a reply of another task has no playground link.
const suiteTasks = new Set([...document.querySelectorAll<HTMLInputElement>('input[name="bn-task"]')].map((b) => b.value));
// A playground link names the task (the playground fetches its files) and carries the reply as it was
// scored and its prompt: cheap enough to make for every row as it is drawn.
const link = (r: BenchReply, config: BenchConfig): string | null => {
  if (!suiteTasks.has(r.task)) return null;
  const system = config.formats.find((f) => f.format === r.format)?.system;
  return benchReplyHref({ task: r.task, format: r.format, reply: withoutReasoning(r.reply), ...(system !== undefined ? { prompt: system } : {}) }, playground);
};
const view = new RunView(link);

const state: { run: BenchRun | null; running: boolean; live: number } = { run: null, running: false, live: 0 };

function say(text: string, tone: 'info' | 'error' | 'ok' = 'info'): void {
  ui.message.textContent = text;
  ui.message.dataset.tone = tone;
}

function alertError(text: string): void {
  ui.alert.replaceChildren(h('p', null, text));
}

function note(...content: (Node | string)[]): void {
  ui.note.replaceChildren(...content);
}

function progress(done: number, total: number): void {
  ui.progressBox.hidden = false;
  ui.progress.max = Math.max(total, 1);
  ui.progress.value = done;
  ui.progressText.textContent = `${count(done)} of ${plural(total, 'reply', 'replies')}`;
}

function buttons(): void {
  const has = state.run !== null && !state.running;
  ui.download.disabled = !has;
  ui.share.disabled = !has;
  ui.compareOpen.disabled = !has;
  ui.open.disabled = state.running;
}

/** Show a whole run (finished, opened or from a link) as the current one. */
function show(shown: Shown): void {
  state.run = shown.run;
  view.show(shown.run, shown.summaries, shown.best);
  closeCompare();
  buttons();
}

/** The comparison on show: the run shown and the one opened beside it (by its file name). */
let compared: { shown: BenchRun; opened: BenchRun; name: string } | null = null;
let compareSerial = 0;

function closeCompare(): void {
  compared = null;
  compareSerial++;
  ui.compare.hidden = true;
  ui.compareBody.replaceChildren();
}

/** Draw the comparison with the baseline the radio buttons choose (A), the other run as B. */
async function drawCompare(): Promise<void> {
  const c = compared;
  if (!c) return;
  const serial = ++compareSerial;
  const shownFirst = ui.baselineShown.checked;
  const [a, b] = shownFirst ? [c.shown, c.opened] : [c.opened, c.shown];
  const names = shownFirst ? { a: 'the run above', b: c.name } : { a: c.name, b: 'the run above' };
  const diff = await client.call((api) => api.compare(a, b));
  if (serial !== compareSerial) return;
  ui.compareBody.replaceChildren(compareView(a, b, diff, names));
}
for (const radio of [ui.baselineShown, ui.baselineOpened])
  radio.addEventListener('change', () => {
    if (radio.checked) void drawCompare().catch((e: unknown) => alertError(`The comparison could not be drawn: ${e instanceof Error ? e.message : String(e)}.`));
  });

const model = (config: BenchConfig) => config.endpoint.model || 'the model';

form.onRun(() => void run());

async function run(): Promise<void> {
  const config = form.config();
  if (!config) {
    form.focusBlocker();
    return;
  }
  const id = ++state.live;
  state.running = true;
  state.run = null;
  form.setRunning(true);
  buttons();
  closeCompare();
  ui.alert.replaceChildren();
  note();
  if (location.hash.startsWith(RUN_HASH)) history.replaceState(null, '', location.pathname + location.search);
  // Until the run says how many it asks (less the pairs a format cannot say): every task in every format.
  let total = config.tasks.length * config.formats.length;
  progress(0, total);
  view.begin(config, engine, new Date().toISOString());
  say(`Asking ${model(config)}…`);
  const news = (n: RunNews) => {
    if (id !== state.live || !state.running) return;
    switch (n.type) {
      case 'start':
        total = n.total;
        progress(0, n.total);
        break;
      case 'retry':
        say(`Retrying ${n.task} in ${n.format} in ${Math.ceil(n.waitMs / 1000)} s (attempt ${n.attempt} of ${config.retries + 1}): ${n.message}`);
        break;
      case 'reply':
        view.add(n.reply, n.summaries, n.best);
        progress(n.done, n.total);
        if (!ui.message.dataset.stopping) say(`Receiving replies from ${model(config)}…`);
        break;
    }
  };
  try {
    const done = await client.call((api) => api.run(config, form.key(), engine, [...form.allowed], BenchClient.listener(news)));
    if (id !== state.live) return;
    state.running = false;
    state.run = done.run;
    closeCompare();
    view.finish(done.run, done.summaries, done.best);
    const counted = done.run.replies.filter((r) => r.status !== 'stopped').length;
    total = askedCount(done.run);
    progress(counted, total);
    if (done.run.stopped) say(`Stopped: ${counted} of ${plural(total, 'reply', 'replies')} finished; the results show those.`, 'info');
    else say(`Done: ${plural(counted, 'reply', 'replies')} from ${model(config)}.`, 'ok');
  } catch (e) {
    if (id !== state.live) return;
    state.running = false;
    say(`The run could not go on: ${e instanceof Error ? e.message : String(e)}`, 'error');
  } finally {
    delete ui.message.dataset.stopping;
    if (id === state.live) {
      state.running = false;
      form.setRunning(false);
      buttons();
    }
  }
}

ui.stop.addEventListener('click', () => {
  if (!state.running) return;
  ui.message.dataset.stopping = 'true';
  say('Stopping…');
  void client.call((api) => api.stop()).catch(() => undefined);
});

// Runs as files and links.
ui.download.addEventListener('click', async () => {
  const current = state.run;
  if (!current) return;
  const text = await client.call((api) => api.json(current));
  download(text, runFileName(current.config.endpoint.model, current.started));
  note(`Saved the run as ${runFileName(current.config.endpoint.model, current.started)}.`);
});

ui.share.addEventListener('click', async () => {
  const current = state.run;
  if (!current) return;
  note('Making the link…');
  const address = shareAddress(await client.call((api) => api.link(current)));
  if (address.length > MAX_LINK) {
    const save = h('button', { attrs: { type: 'button' } }, 'Download JSON');
    save.addEventListener('click', () => ui.download.click());
    note(`The link would be ${count(address.length)} characters long, more than ${count(MAX_LINK)}: too long to share. Share the JSON file instead: `, save);
    return;
  }
  const copied = await copyText(address);
  const field = h('input', { class: 'bn-link', attrs: { type: 'text', readonly: true, 'aria-label': 'Share link' } });
  field.value = address;
  note(`${copied ? 'Copied the link' : 'The link (copy it from the field)'} (${count(address.length)} characters): `, field);
});

function opened(result: Opened, what: string): boolean {
  if (!result.ok) {
    alertError(`${what} could not be opened: ${result.error}.`);
    return false;
  }
  ui.alert.replaceChildren();
  note();
  show(result.view);
  return true;
}

async function openFile(file: File): Promise<void> {
  if (state.running) return;
  try {
    const text = await fileText(file);
    if (opened(await client.call<Opened>((api) => api.open(text)), file.name)) {
      if (location.hash.startsWith(RUN_HASH)) history.replaceState(null, '', location.pathname + location.search);
      say(`Opened ${file.name}.`, 'ok');
      ui.results.scrollIntoView({ block: 'start' });
    }
  } catch (e) {
    alertError(`${file.name} could not be opened: ${e instanceof Error ? e.message : String(e)}.`);
  }
}

ui.open.addEventListener('click', () => ui.openInput.click());
ui.openInput.addEventListener('change', () => {
  const file = ui.openInput.files?.[0];
  ui.openInput.value = '';
  if (file) void openFile(file);
});

// A run file dropped anywhere on the page opens as the run shown.
const hasFiles = (e: DragEvent) => [...(e.dataTransfer?.types ?? [])].includes('Files');
document.addEventListener('dragover', (e) => {
  if (!hasFiles(e)) return;
  e.preventDefault();
  if (e.dataTransfer) e.dataTransfer.dropEffect = state.running ? 'none' : 'copy';
  root.classList.add('bn-dragging');
});
document.addEventListener('dragleave', (e) => {
  if (e.relatedTarget === null) root.classList.remove('bn-dragging');
});
document.addEventListener('drop', (e) => {
  if (!hasFiles(e)) return;
  e.preventDefault();
  root.classList.remove('bn-dragging');
  const file = e.dataTransfer?.files[0];
  if (file) void openFile(file);
});

// Compare: a second run beside the one shown.
ui.compareOpen.addEventListener('click', () => ui.compareInput.click());
ui.compareInput.addEventListener('change', async () => {
  const file = ui.compareInput.files?.[0];
  ui.compareInput.value = '';
  const current = state.run;
  if (!file || !current) return;
  try {
    const text = await fileText(file);
    const other = await client.call<Opened>((api) => api.open(text));
    if (!other.ok) {
      alertError(`${file.name} could not be compared: ${other.error}.`);
      return;
    }
    ui.alert.replaceChildren();
    compared = { shown: current, opened: other.view.run, name: file.name };
    // The older run is the baseline to begin with (the run shown when they started together): a new run
    // compared with an old one shows its gains as gains. The radio buttons choose the other.
    const openedFirst = Date.parse(other.view.run.started) < Date.parse(current.started);
    ui.baselineOpened.checked = openedFirst;
    ui.baselineShown.checked = !openedFirst;
    ui.baselineOpenedName.textContent = file.name;
    ui.compareTitle.textContent = `Compared with ${file.name}`;
    await drawCompare();
    ui.compare.hidden = false;
    ui.compareTitle.scrollIntoView({ block: 'start' });
  } catch (e) {
    alertError(`${file.name} could not be compared: ${e instanceof Error ? e.message : String(e)}.`);
  }
});
ui.compareClose.addEventListener('click', () => {
  closeCompare();
  ui.compareOpen.focus();
});

// A share link: the run in the address (#run=…).
async function openLink(): Promise<void> {
  if (!location.hash.startsWith(RUN_HASH) || state.running) return;
  say('Opening the run in the link…');
  try {
    if (opened(await client.call<Opened>((api) => api.readLink(location.hash)), 'The run in this link')) say('Opened the run in the link.', 'ok');
    else say('');
  } catch (e) {
    alertError(`The run in this link could not be opened: ${e instanceof Error ? e.message : String(e)}.`);
    say('');
  }
}
window.addEventListener('hashchange', () => void openLink());
void openLink();
buttons();
