// "Run with a model": the panel's wiring. Loaded with import() the first time
// the panel opens, so the page starts without it. The page hands it a host
// (what it needs of the playground); the reply streams into the reply editor
// and the engine runs on it as it grows, as on any edit.

import type { PreparedSource } from '../../worker/protocol.ts';
import { DEFAULT_BASE, type Endpoint, type Provider } from '../../chat/protocol.ts';
import { askedFormat, defaultPrompt, isDefaultPrompt, readPrompts, userMessage } from '../../prompt/prompts.ts';
import { needsOf, runBlocker, type Blocker, type Needs } from '../../chat/requirements.ts';
import { confirmText, requestSize, sizeText, type RequestSize } from '../../chat/size.ts';
import { streamChat } from './stream.ts';

export interface LiveHost {
  /** The format chosen in the toolbar (`auto` included). */
  format(): string;
  files(): { name: string; text: string }[];
  /** The session's prompt, if it has one. */
  sessionPrompt(): string | null;
  /** The source as a format shows it (computed in the engine worker). */
  prepare(files: { name: string; text: string }[], format: string): Promise<PreparedSource>;
  /** The first text arrived: empty the reply and record the prompt in the session. */
  begin(prompt: string): void;
  /** More text arrived: append it to the reply. */
  append(text: string): void;
}

export interface LivePanel {
  /** The session or the format changed; a new session resets a prompt the user typed. */
  refresh(newSession: boolean): void;
  /** The files (or anything else the request is made of) changed: the size shown follows, soon. */
  changed(): void;
}

/** How long the size waits for the typing to pause before it is worked out again (it asks the engine worker for the source). */
const SIZE_DELAY_MS = 400;

const SETTINGS_KEY = 'ln-diff.live';
/** The fields a run may be waiting for, as `Blocker.field` names them. */
const FIELDS = ['base', 'model', 'key'] as const;
const KEY_KEY = 'ln-diff.live.key';

const HINTS: Record<Provider, string> = {
  openai:
    'OpenAI: https://api.openai.com/v1. Gemini: https://generativelanguage.googleapis.com/v1beta/openai. OpenRouter: https://openrouter.ai/api/v1. ' +
    'Local servers need no key: llama.cpp http://127.0.0.1:8080/v1, LM Studio http://127.0.0.1:1234/v1 (both use the loaded model), Ollama http://127.0.0.1:11434/v1 (name the model).',
  anthropic: 'Anthropic: https://api.anthropic.com (the page calls /v1/messages). A model name and a key are needed.',
};

/** The model field's placeholder: an example where a name is needed, else that it may be left empty. */
function modelPlaceholder(provider: Provider, needs: Needs | null): string {
  if (!needs) return provider === 'anthropic' ? 'e.g. claude-sonnet-4-5' : 'e.g. gpt-4.1-mini or a local model';
  if (needs.model.required && needs.model.example) return `e.g. ${needs.model.example}`;
  if (needs.model.required) return 'the model name';
  return needs.local ? 'optional: the loaded model' : 'if the server asks for one';
}

function keyPlaceholder(needs: Needs | null): string {
  if (!needs) return '';
  if (needs.keyFor) return `your ${needs.keyFor} key`;
  return needs.local ? 'not needed for a local server' : 'if the server asks for one';
}

function storage(): Storage | null {
  try {
    return window.sessionStorage;
  } catch {
    return null;
  }
}

function load(key: string): string | null {
  try {
    return storage()?.getItem(key) ?? null;
  } catch {
    return null;
  }
}

function store(key: string, value: string | null): void {
  try {
    if (value === null) storage()?.removeItem(key);
    else storage()?.setItem(key, value);
  } catch {
    // Storage refused (private mode, quota): the value stays in memory only.
  }
}

const byId = <T extends HTMLElement>(id: string): T => {
  const el = document.getElementById(id);
  if (!el) throw new Error(`live panel: #${id} is missing`);
  return el as T;
};

export function mountLive(host: LiveHost): LivePanel {
  const ui = {
    provider: byId<HTMLSelectElement>('pg-live-provider'),
    base: byId<HTMLInputElement>('pg-live-base'),
    baseHint: byId('pg-live-base-hint'),
    model: byId<HTMLInputElement>('pg-live-model'),
    key: byId<HTMLInputElement>('pg-live-key'),
    remember: byId<HTMLInputElement>('pg-live-remember'),
    prompt: byId<HTMLTextAreaElement>('pg-live-prompt'),
    resetPrompt: byId<HTMLButtonElement>('pg-live-reset-prompt'),
    formatNote: byId('pg-live-format'),
    instruction: byId<HTMLTextAreaElement>('pg-live-instruction'),
    run: byId<HTMLButtonElement>('pg-live-run'),
    stop: byId<HTMLButtonElement>('pg-live-stop'),
    needs: byId('pg-live-needs'),
    message: byId('pg-live-message'),
    size: byId('pg-live-size'),
    confirm: byId('pg-live-confirm'),
    confirmText: byId('pg-live-confirm-text'),
    confirmSend: byId<HTMLButtonElement>('pg-live-confirm-send'),
    confirmCancel: byId<HTMLButtonElement>('pg-live-confirm-cancel'),
  };
  // The origins this page's CSP lets it connect to, and each format's default
  // prompt (written by the page at build time).
  const pane = document.getElementById('pg-live');
  const connect = pane?.dataset.connect;
  const prompts = readPrompts(pane?.dataset.prompts);
  const allowed = connect ? connect.split(' ').filter(Boolean) : undefined;

  // Settings (not the key) live in this tab's session storage; the key only when asked.
  let settings: { provider?: unknown; base?: unknown; model?: unknown } = {};
  try {
    settings = JSON.parse(load(SETTINGS_KEY) ?? '{}') ?? {};
  } catch {
    settings = {};
  }
  const provider = (): Provider => (ui.provider.value === 'anthropic' ? 'anthropic' : 'openai');
  // Fields typed into while this module was loading keep what was typed.
  if (settings.provider === 'anthropic') ui.provider.value = 'anthropic';
  if (!ui.base.value) ui.base.value = typeof settings.base === 'string' ? settings.base : DEFAULT_BASE[provider()];
  if (!ui.model.value && typeof settings.model === 'string') ui.model.value = settings.model;
  const savedKey = load(KEY_KEY);
  ui.remember.checked = savedKey !== null;
  if (!ui.key.value) ui.key.value = savedKey ?? '';

  const saveSettings = () => store(SETTINGS_KEY, JSON.stringify({ provider: provider(), base: ui.base.value, model: ui.model.value }));
  const endpoint = (): Endpoint => ({ provider: provider(), baseUrl: ui.base.value, model: ui.model.value, key: ui.key.value });

  // Run is enabled only when the endpoint has all it needs; otherwise the
  // reason is shown under it (and announced: a polite live region, and the
  // button's description).
  let controller: AbortController | null = null;
  let blocker: Blocker | null = null;
  const describedBy = Object.fromEntries(FIELDS.map((f) => [f, ui[f].getAttribute('aria-describedby')]));
  const check = () => {
    blocker = runBlocker(endpoint(), allowed);
    ui.run.disabled = controller !== null || blocker !== null;
    const reason = blocker?.reason ?? '';
    if (ui.needs.textContent !== reason) ui.needs.textContent = reason;
    ui.needs.dataset.field = blocker?.field ?? '';
    if (blocker?.field === 'base' && ui.base.value.trim() !== '') ui.base.setAttribute('aria-invalid', 'true');
    else ui.base.removeAttribute('aria-invalid');
    // The field to fix is described by the reason too (read when it takes the focus).
    for (const field of FIELDS) {
      const ids = (describedBy[field] ?? '').split(' ').filter(Boolean);
      const want = blocker?.field === field ? ['pg-live-needs', ...ids] : ids;
      if (want.length) ui[field].setAttribute('aria-describedby', want.join(' '));
      else ui[field].removeAttribute('aria-describedby');
    }
    // What this address asks for, in the fields themselves.
    let url: URL | null = null;
    try {
      url = new URL(ui.base.value.trim());
    } catch {
      url = null;
    }
    const needs = url ? needsOf(provider(), url) : null;
    ui.model.setAttribute('aria-required', String(needs?.model.required ?? true));
    ui.key.setAttribute('aria-required', String(needs ? needs.keyFor !== null : provider() === 'anthropic'));
    ui.model.placeholder = modelPlaceholder(provider(), needs);
    ui.key.placeholder = keyPlaceholder(needs);
  };
  const showHint = () => {
    ui.baseHint.textContent = HINTS[provider()];
  };
  showHint();

  ui.provider.addEventListener('change', () => {
    const other: Provider = provider() === 'anthropic' ? 'openai' : 'anthropic';
    if (ui.base.value.trim() === '' || ui.base.value.trim() === DEFAULT_BASE[other]) ui.base.value = DEFAULT_BASE[provider()];
    showHint();
    saveSettings();
    check();
  });
  ui.base.addEventListener('change', saveSettings);
  ui.model.addEventListener('change', saveSettings);
  ui.base.addEventListener('input', check);
  ui.model.addEventListener('input', check);
  ui.key.addEventListener('input', () => {
    if (ui.remember.checked) store(KEY_KEY, ui.key.value);
    check();
  });
  ui.remember.addEventListener('change', () => store(KEY_KEY, ui.remember.checked ? ui.key.value : null));

  // The prompt: the session's when it has one, else the format's default,
  // which follows the format until the user writes their own.
  let edited = false;
  ui.prompt.addEventListener('input', () => (edited = true));
  const fill = (newSession: boolean) => {
    const format = host.format();
    ui.formatNote.textContent =
      format === 'auto'
        ? 'The model is asked for ln-diff editblocks (the format is auto; choose another in the Format menu above).'
        : `The model is asked for ${askedFormat(format, prompts)} edits (the Format menu above).`;
    if (newSession) {
      edited = false;
      ui.prompt.value = host.sessionPrompt() ?? defaultPrompt(format, prompts);
    } else if (!edited && (ui.prompt.value === '' || isDefaultPrompt(ui.prompt.value, prompts))) {
      ui.prompt.value = defaultPrompt(format, prompts);
    }
  };
  ui.resetPrompt.addEventListener('click', () => {
    edited = false;
    ui.prompt.value = defaultPrompt(host.format(), prompts);
  });
  fill(true);
  check();

  const say = (text: string, tone: 'info' | 'error' | 'ok' = 'info') => {
    ui.message.textContent = text;
    ui.message.dataset.tone = tone;
  };

  const setRunning = (on: boolean) => {
    const hadFocus = document.activeElement === (on ? ui.run : ui.stop);
    ui.stop.disabled = !on;
    check();
    // Focus follows the button that took over; a Run the user disabled meanwhile hands it to the field to fix.
    if (hadFocus) (on ? ui.stop : blocker ? ui[blocker.field] : ui.run).focus();
  };

  // The request's size, shown under the request: worked out from what would be sent (the
  // prompt, the source as the format shows it, the request) once the typing pauses.
  let sizeTimer: ReturnType<typeof setTimeout> | undefined;
  let sizeSerial = 0;
  const showSize = (size: RequestSize) => {
    ui.size.textContent = sizeText(size);
    ui.size.dataset.large = String(size.large);
  };
  const measure = async () => {
    const serial = ++sizeSerial;
    try {
      const prepared = await host.prepare(host.files(), host.format());
      if (serial !== sizeSerial) return;
      showSize(requestSize(ui.prompt.value, userMessage(prepared.text, ui.instruction.value), ui.model.value));
    } catch {
      if (serial === sizeSerial) ui.size.textContent = '';
    }
  };
  const scheduleSize = () => {
    clearTimeout(sizeTimer);
    // While a run streams, the reply grows, not the request: measured again when it ends.
    if (controller) return;
    sizeTimer = setTimeout(() => void measure(), SIZE_DELAY_MS);
  };
  for (const input of [ui.prompt, ui.instruction, ui.model]) input.addEventListener('input', scheduleSize);
  ui.resetPrompt.addEventListener('click', scheduleSize);

  // A request over LARGE_REQUEST_TOKENS is sent only once the user says so, here in the panel.
  let answer: ((send: boolean) => void) | null = null;
  const settle = (send: boolean) => {
    const done = answer;
    answer = null;
    ui.confirm.hidden = true;
    done?.(send);
  };
  const confirmLarge = (size: RequestSize, signal: AbortSignal): Promise<boolean> =>
    new Promise((resolve) => {
      answer = resolve;
      ui.confirmText.textContent = confirmText(size);
      ui.confirmSend.textContent = `Send about ${size.tokens.toLocaleString('en-US')} tokens`;
      ui.confirm.hidden = false;
      ui.confirmCancel.focus();
      signal.addEventListener('abort', () => settle(false), { once: true });
    });
  ui.confirmSend.addEventListener('click', () => settle(true));
  ui.confirmCancel.addEventListener('click', () => settle(false));
  ui.confirm.addEventListener('keydown', (event) => {
    if (event.key === 'Escape') {
      event.preventDefault();
      settle(false);
    }
  });

  async function run(): Promise<void> {
    if (controller) return;
    check();
    // Ctrl+Enter in the request runs too: send nothing, and take the user to
    // the field to fix (described by the reason, shown under Run).
    if (blocker) {
      say('');
      ui[blocker.field].focus();
      return;
    }
    const current = endpoint();
    const system = ui.prompt.value;
    const format = host.format();
    controller = new AbortController();
    const { signal } = controller;
    setRunning(true);
    say('Preparing the source…');
    let prepared: PreparedSource;
    try {
      prepared = await host.prepare(host.files(), format);
    } catch (e) {
      controller = null;
      setRunning(false);
      say(`Could not prepare the source: ${e instanceof Error ? e.message : String(e)}`, 'error');
      return;
    }
    const user = userMessage(prepared.text, ui.instruction.value);
    const model = current.model.trim() || 'the model';
    const size = requestSize(system, user, current.model);
    showSize(size);
    if (size.large) {
      say('');
      const send = await confirmLarge(size, signal);
      if (!send) {
        controller = null;
        setRunning(false);
        ui.run.focus();
        say('Not sent: the request was not confirmed.');
        return;
      }
    }
    say(`Asking ${model}…`);
    let started = false;
    const outcome = await streamChat(current, system, user, signal, (text) => {
      if (!started) {
        started = true;
        host.begin(system);
        say(`Receiving the answer from ${model}…`);
      }
      host.append(text);
    }, allowed);
    controller = null;
    setRunning(false);
    scheduleSize();
    if (outcome.kind === 'done') say(`Done: ${outcome.text.length} characters from ${model}, in ${prepared.format} format.`, 'ok');
    else say(outcome.message, outcome.kind === 'aborted' ? 'info' : 'error');
  }

  ui.run.addEventListener('click', () => void run());
  ui.stop.addEventListener('click', () => controller?.abort());
  ui.instruction.addEventListener('keydown', (event) => {
    if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) {
      event.preventDefault();
      void run();
    }
  });

  scheduleSize();

  return {
    refresh(newSession: boolean) {
      fill(newSession);
      scheduleSize();
    },
    changed: scheduleSize,
  };
}
