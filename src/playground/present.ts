// How an edit's result is described on the page: words, tones and badges.
// Pure (no DOM), shared by the diagnostics panel and the editor marks.

import type { EditResult, LineRange } from '../core/types.ts';

export type EditTone = 'ok' | 'warn' | 'bad';

export function toneOf(edit: EditResult): EditTone {
  if (edit.status === 'failed') return 'bad';
  if (edit.match === 'offset' || edit.match === 'fuzzy' || edit.match === 'whitespace' || edit.code) return 'warn';
  return 'ok';
}

export const signed = (n: number): string => (n > 0 ? `+${n}` : n < 0 ? `\u2212${-n}` : '0');

/** `41-44`, `41`, or `before 41` for an empty (insertion) range. */
export function rangeText(r: LineRange): string {
  if (r.end < r.start) return `before ${r.start}`;
  return r.start === r.end ? `${r.start}` : `${r.start}-${r.end}`;
}

export const similarityText = (s: number): string => (s === 1 ? '1' : s.toFixed(3));

/** The short status shown first: `exact`, `offset +1`, `fuzzy`, `no-match`. */
export function statusText(edit: EditResult): string {
  if (edit.status === 'failed') return edit.code ?? 'failed';
  switch (edit.match) {
    case 'offset':
      return `offset ${signed(edit.offset ?? 0)}`;
    case null:
      return edit.kind;
    default:
      return edit.match;
  }
}

/** Where the edit was cited and where it landed: `cited 41-44, matched 42-45, +1`. */
export function placeText(edit: EditResult): string {
  const parts: string[] = [];
  if (edit.cited) parts.push(`cited ${rangeText(edit.cited)}`);
  if (edit.status === 'applied' && edit.range) {
    parts.push(`${edit.kind === 'insert' ? 'inserted' : 'matched'} ${rangeText(edit.range)}`);
    if (edit.offset !== null && edit.offset !== 0) parts.push(signed(edit.offset));
  } else if (edit.status === 'failed' && edit.candidates.length > 0) {
    const c = edit.candidates[0];
    const label = edit.code === 'ambiguous' ? 'found at' : 'closest';
    const where = edit.code === 'ambiguous' ? edit.candidates.map((x) => rangeText(x)).join(', ') : rangeText(c);
    parts.push(`${label} ${where}`);
    if (edit.code !== 'ambiguous' && c.offset !== null && c.offset !== 0) parts.push(signed(c.offset));
  }
  return parts.join(', ');
}

/** The gutter badge of an edit: ✓, +1, ␣, ≈ or ✗. */
export function badgeOf(edit: EditResult): { text: string; title: string } {
  if (edit.status === 'failed') return { text: '\u2717', title: `edit #${edit.index + 1} failed: ${edit.code ?? ''}` };
  switch (edit.match) {
    case 'offset':
      return { text: signed(edit.offset ?? 0), title: `edit #${edit.index + 1}: matched ${signed(edit.offset ?? 0)} lines from the cited place` };
    case 'fuzzy':
      return { text: '\u2248', title: `edit #${edit.index + 1}: fuzzy match, similarity ${similarityText(edit.similarity ?? 0)}` };
    case 'whitespace':
      return { text: '\u2423', title: `edit #${edit.index + 1}: matched ignoring whitespace` };
    default:
      return { text: '\u2713', title: `edit #${edit.index + 1}: applied` };
  }
}

/** Bytes of a text as UTF-16 length, in words: `12.3 MB`. */
export function sizeText(chars: number): string {
  if (chars >= 1_000_000) return `${(chars / 1_000_000).toFixed(1)} MB`;
  if (chars >= 1_000) return `${(chars / 1_000).toFixed(1)} kB`;
  return `${chars} B`;
}

/** A piece of a message: its own words, or a text it quotes (read back from the quotes). */
export type MessagePart = { kind: 'words'; text: string } | { kind: 'quoted'; text: string };

/** A text in JSON quotes, as the engine's messages quote lines, paths and words (`quote` in src/core/diagnostics.ts). */
const QUOTED = /"(?:[^"\\\u0000-\u001f]|\\(?:["\\/bfnrt]|u[0-9a-fA-F]{4}))*"/g;
const UNESCAPED: Record<string, string> = { '\\t': '\t', '\\r': '\r', '\\"': '"', '\\\\': '\\', '\\/': '/' };

/**
 * A message cut into its words and the texts it quotes, in order; joined,
 * the pieces give the message back, quotes aside. A quoted text has its
 * tab, carriage return, quote and backslash escapes read back (they are
 * drawn, not escaped, on the page); any other escape (`\n`, `\u0007`)
 * stays as written, being visible as it is.
 */
export function messageParts(message: string): MessagePart[] {
  const out: MessagePart[] = [];
  let at = 0;
  for (const m of message.matchAll(QUOTED)) {
    if (m.index > at) out.push({ kind: 'words', text: message.slice(at, m.index) });
    out.push({ kind: 'quoted', text: m[0].slice(1, -1).replace(/\\(?:["\\/trbfn]|u[0-9a-fA-F]{4})/g, (e) => UNESCAPED[e] ?? e) });
    at = m.index + m[0].length;
  }
  if (at < message.length) out.push({ kind: 'words', text: message.slice(at) });
  return out;
}
