// A Bench reply as a playground link that is cheap to make: the task's id
// (its files are the site's own bench task file, /bench/tasks/<id>.json,
// which the playground fetches), the format, the reply and the prompt it
// was asked with, as compressed JSON in the hash (`#b=REPLY.PROMPT`). A full
// session link (`#s=…`) compresses the task's files too, tens of
// milliseconds a task; this compresses a reply (the prompt, the same for
// every reply of a format, is compressed once and kept), so every row of a
// run has its link as it is drawn. Reading is for untrusted links: it checks shapes and sizes
// (before decompressing more than a session may hold) and never throws.

import LZString from 'lz-string';
import { inflateUriComponent } from './lz.ts';
import { LIMITS } from '../session/session.ts';

const PREFIX = 'b=';

/** What a Bench reply link names. */
export interface BenchReplyRef {
  /** A task id of the site's suite. */
  task: string;
  format: string;
  reply: string;
  /** The system prompt the reply was asked with. */
  prompt?: string;
}

/** A task id as the suite writes them (it becomes part of a URL path). */
const TASK_ID = /^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$/;

/** Between the reply part and the prompt part: a character the compressed text never has. */
const SEPARATOR = '.';

/** Prompts compressed lately (a run has one a format). */
const packedPrompts = new Map<string, string>();
const MAX_PACKED = 32;

function packPrompt(prompt: string): string {
  let packed = packedPrompts.get(prompt);
  if (packed === undefined) {
    packed = LZString.compressToEncodedURIComponent(prompt);
    if (packedPrompts.size >= MAX_PACKED) packedPrompts.delete(packedPrompts.keys().next().value!);
    packedPrompts.set(prompt, packed);
  }
  return packed;
}

/** The hash (without `#`) of a Bench reply link. */
export function encodeBenchReply(ref: BenchReplyRef): string {
  const body = LZString.compressToEncodedURIComponent(JSON.stringify({ v: 1, t: ref.task, f: ref.format, r: ref.reply }));
  return PREFIX + body + (ref.prompt !== undefined ? SEPARATOR + packPrompt(ref.prompt) : '');
}

/** The playground address (under `base`) that opens a Bench reply. */
export function benchReplyHref(ref: BenchReplyRef, base = '/playground/'): string {
  return `${base}#${encodeBenchReply(ref)}`;
}

/** Whether a hash (with or without `#`) is a Bench reply link. */
export const isBenchReplyHash = (hash: string): boolean => hash.replace(/^#/, '').startsWith(PREFIX);

export type BenchReplyRead = { ok: true; ref: BenchReplyRef } | { ok: false; error: string };

/** Read a Bench reply link's hash (untrusted). */
export function decodeBenchReply(hash: string): BenchReplyRead {
  const raw = hash.replace(/^#/, '');
  if (!raw.startsWith(PREFIX)) return { ok: false, error: 'the link holds no Bench reply' };
  const [bodyPart, promptPart, ...more] = raw.slice(PREFIX.length).split(SEPARATOR);
  if (more.length > 0) return { ok: false, error: 'the link has more parts than a Bench reply link; it may have been altered' };
  let prompt: string | undefined;
  if (promptPart !== undefined) {
    const p = inflateUriComponent(promptPart, LIMITS.text);
    if (!p.ok) return { ok: false, error: p.reason === 'too-large' ? 'the prompt in the link is too large' : 'the link could not be decompressed; it may have been cut short' };
    prompt = p.text;
  }
  const inflated = inflateUriComponent(bodyPart, LIMITS.text * 2);
  if (!inflated.ok || inflated.text === '')
    return { ok: false, error: !inflated.ok && inflated.reason === 'too-large' ? 'the reply in the link is too large' : 'the link could not be decompressed; it may have been cut short' };
  let value: unknown;
  try {
    value = JSON.parse(inflated.text);
  } catch {
    return { ok: false, error: 'the reply in the link is not valid JSON; it may have been cut short' };
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return { ok: false, error: 'the link holds no Bench reply' };
  const { v, t, f, r } = value as Record<string, unknown>;
  if (v !== 1) return { ok: false, error: 'the link holds a Bench reply of an unknown version' };
  if (typeof t !== 'string' || !TASK_ID.test(t)) return { ok: false, error: 'the link names no valid task' };
  if (typeof f !== 'string' || f.length > 50) return { ok: false, error: 'the link names no valid format' };
  if (typeof r !== 'string' || r.length > LIMITS.text) return { ok: false, error: 'the link has no reply text' };
  return { ok: true, ref: { task: t, format: f, reply: r, ...(prompt !== undefined ? { prompt } : {}) } };
}
