// What the Bench page remembers on this device (local storage): the
// endpoint, the model and the choices of formats and tasks, never the key;
// the key only while "Remember the key on this device" is ticked, under its
// own name, removed when it is unticked. Stored values are untrusted: each
// is checked when read.

export interface BenchSettings {
  api: 'openai' | 'anthropic';
  base: string;
  model: string;
  family: string;
  formats: string[];
  tasks: 'quick' | 'all' | 'pick';
  picked: string[];
  concurrency: number;
  /** Seconds a reply may stay silent. */
  idle?: number;
}

const SETTINGS = 'ln-diff.bench';
const KEY = 'ln-diff.bench.key';

function storage(): Storage | null {
  try {
    return window.localStorage;
  } catch {
    return null;
  }
}

function get(name: string): string | null {
  try {
    return storage()?.getItem(name) ?? null;
  } catch {
    return null;
  }
}

function set(name: string, value: string | null): void {
  try {
    if (value === null) storage()?.removeItem(name);
    else storage()?.setItem(name, value);
  } catch {
    // Storage refused (private mode, quota): nothing is remembered.
  }
}

const strings = (v: unknown): string[] | undefined => (Array.isArray(v) && v.every((x) => typeof x === 'string') ? v : undefined);

/** The remembered choices; a field missing or of the wrong kind is left out. */
export function loadSettings(): Partial<BenchSettings> {
  let value: unknown;
  try {
    value = JSON.parse(get(SETTINGS) ?? '{}');
  } catch {
    return {};
  }
  if (typeof value !== 'object' || value === null) return {};
  const v = value as Record<string, unknown>;
  const out: Partial<BenchSettings> = {};
  if (v.api === 'openai' || v.api === 'anthropic') out.api = v.api;
  if (typeof v.base === 'string') out.base = v.base;
  if (typeof v.model === 'string') out.model = v.model;
  if (typeof v.family === 'string') out.family = v.family;
  if (strings(v.formats)) out.formats = strings(v.formats);
  if (v.tasks === 'quick' || v.tasks === 'all' || v.tasks === 'pick') out.tasks = v.tasks;
  if (strings(v.picked)) out.picked = strings(v.picked);
  if (typeof v.concurrency === 'number' && Number.isInteger(v.concurrency) && v.concurrency >= 1) out.concurrency = v.concurrency;
  if (typeof v.idle === 'number' && Number.isInteger(v.idle) && v.idle >= 10 && v.idle <= 3600) out.idle = v.idle;
  return out;
}

export function saveSettings(settings: BenchSettings): void {
  set(SETTINGS, JSON.stringify(settings));
}

/** The remembered key, or null when none is. */
export const loadKey = (): string | null => get(KEY);

/** Remember the key (a string) or forget it (null). */
export const storeKey = (key: string | null): void => set(KEY, key);
