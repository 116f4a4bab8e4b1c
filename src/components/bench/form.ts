// The Bench's run form: restores and remembers the choices, keeps Run
// disabled with the reason shown until the endpoint passes the playground's
// own rule (runBlocker, with this page's allowed origins) and a format and a
// task are chosen, fills each format's prompt for the model's family (an
// edited prompt is kept and sent as family `custom`), and says what a run
// would cost before it starts. It builds the BenchConfig; main.ts runs it.

import { DEFAULT_RETRIES, IDLE_SECONDS } from '../../bench/defaults.ts';
import { DEFAULT_BASE, type Provider } from '../../chat/protocol.ts';
import { runBlocker } from '../../chat/requirements.ts';
import type { BenchConfig, FormatPlan } from '../../bench/types.ts';
import type { PromptTable } from '../../bench/prompts.ts';
import type { BenchClient, Prompts } from './client.ts';
import { loadKey, loadSettings, saveSettings, storeKey, type BenchSettings } from './settings.ts';
import { count, plural } from './numbers.ts';

const RETRIES = DEFAULT_RETRIES;
const IDLE = IDLE_SECONDS;
const MAX_CONCURRENCY = 16;

const HINTS: Record<Provider, string> = {
  openai:
    'OpenAI https://api.openai.com/v1, Gemini https://generativelanguage.googleapis.com/v1beta/openai, OpenRouter https://openrouter.ai/api/v1; ' +
    'local servers need no key: llama.cpp http://127.0.0.1:8080/v1, LM Studio http://127.0.0.1:1234/v1, Ollama http://127.0.0.1:11434/v1 (name the model).',
  anthropic: 'Anthropic: https://api.anthropic.com (the page calls /v1/messages). A model name and a key are needed.',
};

const byId = <T extends HTMLElement>(id: string): T => {
  const el = document.getElementById(id);
  if (!el) throw new Error(`bench: #${id} is missing`);
  return el as T;
};

/** One format's row: its checkbox and its prompt editors. */
interface FormatRow {
  name: string;
  box: HTMLInputElement;
  family: HTMLElement;
  system: HTMLTextAreaElement;
  reminder: HTMLTextAreaElement;
  /** The prompt the family gives it (null: its page has none for the family). */
  defaults: FormatPlan | null;
}

export interface BenchForm {
  /** The run as the form stands, or null while something blocks it. */
  config(): BenchConfig | null;
  key(): string;
  /** The origins the page may connect to. */
  allowed: readonly string[];
  /** A run started or ended: the form is locked while one goes. */
  setRunning(on: boolean): void;
  /** Run was asked for (the button or Enter in a field). */
  onRun(fn: () => void): void;
  /** The field to fix when Run is refused. */
  focusBlocker(): void;
}

export function mountForm(client: BenchClient, root: HTMLElement): BenchForm {
  const ui = {
    form: byId<HTMLFormElement>('bn-form'),
    api: byId<HTMLSelectElement>('bn-api'),
    base: byId<HTMLInputElement>('bn-base'),
    baseHint: byId('bn-base-hint'),
    model: byId<HTMLInputElement>('bn-model'),
    key: byId<HTMLInputElement>('bn-key'),
    remember: byId<HTMLInputElement>('bn-remember'),
    family: byId<HTMLSelectElement>('bn-family'),
    familyNote: byId('bn-family-note'),
    pick: byId<HTMLDetailsElement>('bn-pick'),
    picked: byId('bn-picked-count'),
    concurrency: byId<HTMLInputElement>('bn-concurrency'),
    idle: byId<HTMLInputElement>('bn-idle'),
    estimate: byId('bn-estimate'),
    run: byId<HTMLButtonElement>('bn-run'),
    stop: byId<HTMLButtonElement>('bn-stop'),
    needs: byId('bn-needs'),
  };
  const allowed = (root.dataset.connect ?? '').split(' ').filter(Boolean);
  let table: PromptTable = {};
  try {
    table = JSON.parse(root.dataset.prompts ?? '{}') as PromptTable;
  } catch {
    table = {};
  }
  const rows: FormatRow[] = [...root.querySelectorAll<HTMLElement>('li.bn-format')].map((li) => ({
    name: li.dataset.format ?? '',
    box: li.querySelector<HTMLInputElement>('input[type=checkbox]')!,
    family: li.querySelector<HTMLElement>('[data-role=family]')!,
    system: li.querySelector<HTMLTextAreaElement>('textarea[data-role=system]')!,
    reminder: li.querySelector<HTMLTextAreaElement>('textarea[data-role=reminder]')!,
    defaults: null,
  }));
  const taskBoxes = [...root.querySelectorAll<HTMLInputElement>('input[name=bn-task]')];
  const taskRadios = [...root.querySelectorAll<HTMLInputElement>('input[name=bn-tasks]')];

  // Restore what this device remembers (never the key, unless it was asked to).
  const saved = loadSettings();
  const provider = (): Provider => (ui.api.value === 'anthropic' ? 'anthropic' : 'openai');
  if (saved.api) ui.api.value = saved.api;
  ui.base.value = saved.base ?? DEFAULT_BASE[provider()];
  ui.model.value = saved.model ?? '';
  if (saved.family && [...ui.family.options].some((o) => o.value === saved.family)) ui.family.value = saved.family;
  if (saved.formats) for (const r of rows) r.box.checked = saved.formats.includes(r.name);
  if (saved.tasks) for (const r of taskRadios) r.checked = r.value === saved.tasks;
  const picked = new Set(saved.picked ?? []);
  for (const b of taskBoxes) b.checked = picked.has(b.value);
  if (saved.concurrency) ui.concurrency.value = String(Math.min(saved.concurrency, MAX_CONCURRENCY));
  if (saved.idle) ui.idle.value = String(saved.idle);
  const savedKey = loadKey();
  ui.remember.checked = savedKey !== null;
  ui.key.value = savedKey ?? '';

  const taskChoice = (): BenchSettings['tasks'] => (taskRadios.find((r) => r.checked)?.value as BenchSettings['tasks']) ?? 'quick';
  const concurrency = (): number => {
    const n = Math.floor(Number(ui.concurrency.value));
    return Number.isFinite(n) ? Math.min(Math.max(n, 1), MAX_CONCURRENCY) : 1;
  };
  const idleSeconds = (): number => {
    const n = Math.floor(Number(ui.idle.value));
    return Number.isFinite(n) && ui.idle.value.trim() !== '' ? Math.min(Math.max(n, IDLE.min), IDLE.max) : IDLE.default;
  };
  const remember = () =>
    saveSettings({
      api: provider(),
      base: ui.base.value,
      model: ui.model.value,
      family: ui.family.value,
      formats: rows.filter((r) => r.box.checked).map((r) => r.name),
      tasks: taskChoice(),
      picked: taskBoxes.filter((b) => b.checked).map((b) => b.value),
      concurrency: concurrency(),
      idle: idleSeconds(),
    });

  const taskIds = (): string[] => {
    const choice = taskChoice();
    return taskBoxes.filter((b) => (choice === 'all' ? true : choice === 'quick' ? b.dataset.quick !== undefined : b.checked)).map((b) => b.value);
  };

  /** The plan of one chosen format: its family's prompt, or the edited one (family `custom`). */
  const planOf = (r: FormatRow): FormatPlan | null => {
    const system = r.system.value;
    const reminder = r.reminder.value === '' ? null : r.reminder.value;
    const d = r.defaults;
    if (d && system === d.system && reminder === d.reminder) return d;
    if (system.trim() === '') return null;
    return { format: r.name, family: 'custom', system, reminder };
  };

  // Why Run cannot start, if anything stops it: the endpoint first (the
  // playground's rule), then the choices.
  let running = false;
  let blockedField: HTMLElement | null = null;
  const blocker = (): { reason: string; field: HTMLElement } | null => {
    const b = runBlocker({ provider: provider(), baseUrl: ui.base.value, model: ui.model.value, key: ui.key.value }, allowed);
    if (b) return { reason: b.reason, field: ui[b.field] };
    const chosen = rows.filter((r) => r.box.checked);
    if (chosen.length === 0) return { reason: 'Choose at least one format.', field: rows[0].box };
    const empty = chosen.find((r) => planOf(r) === null);
    if (empty) return { reason: `Write a system prompt for ${empty.name}: its prompt page has none for this family.`, field: empty.system };
    if (taskIds().length === 0) return { reason: 'Pick at least one task.', field: taskBoxes[0] ?? ui.pick };
    return null;
  };
  const check = () => {
    const b = blocker();
    blockedField = b?.field ?? null;
    ui.run.disabled = running || b !== null;
    const reason = b?.reason ?? '';
    if (ui.needs.textContent !== reason) ui.needs.textContent = reason;
    if (b?.field === ui.base && ui.base.value.trim() !== '') ui.base.setAttribute('aria-invalid', 'true');
    else ui.base.removeAttribute('aria-invalid');
    ui.picked.textContent = String(taskBoxes.filter((x) => x.checked).length);
  };

  // Each format's prompt for the family: the chosen one, or the model's. The prompt table goes to
  // the worker once (again to a worker that replaced it), not with every keystroke in the model field.
  let promptSeq = 0;
  let tableSentTo = 0;
  const fillPrompts = async () => {
    const seq = ++promptSeq;
    let p: Prompts;
    try {
      const send = tableSentTo !== client.generation;
      tableSentTo = client.generation;
      p = await client.call((api) =>
        api.prompts(rows.map((r) => r.name), ui.model.value, ui.family.value as Prompts['family'] | 'auto', send ? table : undefined),
      );
    } catch {
      return;
    }
    if (seq !== promptSeq) return;
    const label = ui.family.selectedOptions[0]?.text ?? p.family;
    const familyLabel = ui.family.querySelector<HTMLOptionElement>(`option[value="${p.family}"]`)?.text ?? p.family;
    ui.familyNote.textContent =
      ui.family.value === 'auto'
        ? `From the model name: ${familyLabel}${ui.model.value.trim() ? '' : ' (no model named yet)'}.`
        : `Chosen: ${label}, whatever the model.`;
    for (const r of rows) {
      const old = r.defaults;
      const next = p.plans[r.name] ?? null;
      const untouched = old === null ? r.system.value === '' : r.system.value === old.system && (r.reminder.value || null) === old.reminder;
      r.defaults = next;
      if (untouched) {
        r.system.value = next?.system ?? '';
        r.reminder.value = next?.reminder ?? '';
      }
      showFamily(r);
    }
    check();
    scheduleEstimate();
  };
  const showFamily = (r: FormatRow) => {
    const plan = planOf(r);
    r.family.textContent = plan === null ? 'none for this family (write one)' : plan.family === 'custom' ? 'custom (edited)' : plan.family;
  };
  for (const r of rows) {
    const edited = () => {
      showFamily(r);
      check();
      scheduleEstimate();
    };
    r.system.addEventListener('input', edited);
    r.reminder.addEventListener('input', edited);
    r.box.addEventListener('change', () => {
      remember();
      check();
      scheduleEstimate();
    });
    r.system.closest('details')!.querySelector<HTMLButtonElement>('[data-role=reset]')!.addEventListener('click', () => {
      r.system.value = r.defaults?.system ?? '';
      r.reminder.value = r.defaults?.reminder ?? '';
      edited();
    });
  }

  const config = (): BenchConfig | null => {
    if (blocker()) return null;
    const formats = rows.filter((r) => r.box.checked).map(planOf);
    if (formats.some((f) => f === null)) return null;
    return {
      endpoint: { api: provider(), baseUrl: ui.base.value.trim(), model: ui.model.value.trim() },
      formats: formats as FormatPlan[],
      tasks: taskIds(),
      concurrency: concurrency(),
      retries: RETRIES,
      idleTimeoutMs: idleSeconds() * 1000,
    };
  };

  // The estimate, before anything is sent: requests, input and output tokens.
  let estimateSeq = 0;
  let estimateTimer: ReturnType<typeof setTimeout> | undefined;
  const scheduleEstimate = () => {
    clearTimeout(estimateTimer);
    estimateTimer = setTimeout(() => void estimate(), 150);
  };
  const estimate = async () => {
    const seq = ++estimateSeq;
    const formats = rows.filter((r) => r.box.checked).map(planOf);
    const tasks = taskIds();
    if (formats.length === 0 || tasks.length === 0 || formats.some((f) => f === null)) {
      ui.estimate.textContent = '';
      return;
    }
    const draft: BenchConfig = {
      endpoint: { api: provider(), baseUrl: ui.base.value.trim(), model: ui.model.value.trim() },
      formats: formats as FormatPlan[],
      tasks,
      concurrency: concurrency(),
      retries: RETRIES,
      idleTimeoutMs: idleSeconds() * 1000,
    };
    if (!ui.estimate.textContent) ui.estimate.textContent = `${plural(tasks.length * formats.length, 'request')}; estimating the tokens…`;
    try {
      const e = await client.call((api) => api.estimate(draft));
      if (seq !== estimateSeq) return;
      ui.estimate.textContent =
        `${plural(e.requests, 'request')}, about ${count(e.input)} input and ${count(e.output)} output tokens (estimate)` +
        (e.skipped > 0 ? `; ${e.skipped} not asked: the format cannot say that task's change.` : '.');
    } catch (error) {
      if (seq !== estimateSeq) return;
      ui.estimate.textContent = `${plural(tasks.length * formats.length, 'request')} (no token estimate: ${error instanceof Error ? error.message : String(error)}).`;
    }
  };

  // Wiring.
  const showHint = () => (ui.baseHint.textContent = HINTS[provider()]);
  ui.api.addEventListener('change', () => {
    const other: Provider = provider() === 'anthropic' ? 'openai' : 'anthropic';
    if (ui.base.value.trim() === '' || ui.base.value.trim() === DEFAULT_BASE[other]) ui.base.value = DEFAULT_BASE[provider()];
    showHint();
    remember();
    check();
  });
  ui.base.addEventListener('input', check);
  ui.base.addEventListener('change', remember);
  ui.model.addEventListener('input', () => {
    check();
    void fillPrompts();
  });
  ui.model.addEventListener('change', remember);
  ui.family.addEventListener('change', () => {
    remember();
    void fillPrompts();
  });
  ui.key.addEventListener('input', () => {
    if (ui.remember.checked) storeKey(ui.key.value);
    check();
  });
  ui.remember.addEventListener('change', () => storeKey(ui.remember.checked ? ui.key.value : null));
  for (const r of taskRadios)
    r.addEventListener('change', () => {
      if (r.checked && r.value === 'pick') ui.pick.open = true;
      remember();
      check();
      scheduleEstimate();
    });
  for (const b of taskBoxes)
    b.addEventListener('change', () => {
      // Ticking a task means picking tasks.
      const pick = taskRadios.find((r) => r.value === 'pick');
      if (b.checked && pick && !pick.checked) pick.checked = true;
      remember();
      check();
      scheduleEstimate();
    });
  ui.concurrency.addEventListener('change', () => {
    ui.concurrency.value = String(concurrency());
    remember();
  });
  ui.idle.addEventListener('change', () => {
    ui.idle.value = String(idleSeconds());
    remember();
  });

  let runHandler: () => void = () => {};
  ui.form.addEventListener('submit', (event) => {
    event.preventDefault();
    if (!running) runHandler();
  });
  const fieldsets = [...ui.form.querySelectorAll('fieldset')];

  showHint();
  check();
  void fillPrompts();

  return {
    config,
    key: () => ui.key.value.trim(),
    allowed,
    setRunning(on: boolean) {
      const hadFocus = document.activeElement === (on ? ui.run : ui.stop);
      running = on;
      for (const f of fieldsets) f.disabled = on;
      ui.stop.disabled = !on;
      check();
      if (hadFocus) (on ? ui.stop : ui.run.disabled ? (blockedField ?? ui.run) : ui.run).focus();
    },
    onRun(fn) {
      runHandler = fn;
    },
    focusBlocker() {
      blockedField?.focus();
    },
  };
}
