// The diagnostics panel: one row per edit (status, match, place, similarity,
// failure details, cited-vs-actual comparison, retry message) and the
// reply-level findings. Built with DOM nodes and text only.

import type { ApplyResult, Diagnostic, EditResult, Span } from '../core/types.ts';
import type { DiffPart, EditExtra, LinePair, RunOutput } from '../worker/protocol.ts';
import { h, visibleWhitespace } from './dom.ts';
import { messageParts, placeText, similarityText, statusText, toneOf } from './present.ts';
import { rowDigest } from '../digest/digest.ts';

export interface PanelHandlers {
  select(index: number): void;
  showReplySpan(span: Span): void;
  copy(text: string, what: string): void;
  /** Copy a share link that opens with this edit selected. */
  copyFailureLink(index: number): void;
  /** More controls for an edit's row (null entries are left out), shown at the end of its body. */
  actions?(edit: EditResult): (HTMLElement | null)[];
}

const BAR = '\u2502';

/** One side of a character comparison: the parts that side has, differences marked. */
function side(parts: DiffPart[], which: 'cited' | 'actual'): HTMLElement {
  const code = h('code', { class: 'ld-cmp-text' });
  for (const part of parts) {
    if (part.kind === 'same') code.appendChild(visibleWhitespace(part.text));
    else if (part.kind === which) {
      code.appendChild(h(which === 'cited' ? 'del' : 'ins', { class: `ld-cmp-${which}` }, visibleWhitespace(part.text)));
    }
  }
  return code;
}

/** The cited line above the file's line, whitespace visible, differences marked. */
export function comparison(pair: LinePair, file: string): HTMLElement {
  return h(
    'div',
    { class: 'ld-cmp' },
    h('span', { class: 'ld-cmp-label' }, `cited`),
    side(pair.parts, 'cited'),
    h('span', { class: 'ld-cmp-label' }, `${file} ${pair.sourceLine}`),
    side(pair.parts, 'actual'),
  );
}

/**
 * A message of the engine as text nodes, each text it quotes drawn as the
 * comparison rows draw lines: whitespace kept and made visible (· space,
 * → tab), so two quotes that differ only in their blanks look different.
 */
export function messageText(message: string): DocumentFragment {
  const frag = document.createDocumentFragment();
  for (const part of messageParts(message)) {
    if (part.kind === 'words') frag.append(part.text);
    else frag.append('"', h('code', { class: 'ld-quote' }, visibleWhitespace(part.text)), '"');
  }
  return frag;
}

function numbered(lines: readonly string[], first: number): string {
  const width = String(first + lines.length - 1).length;
  return lines.map((l, i) => `${String(first + i).padStart(width, ' ')}${BAR}${l}`).join('\n');
}

function fact(term: string, value: string): HTMLElement {
  return h('div', null, h('dt', null, term), h('dd', null, value));
}

function diagnosticItem(d: Diagnostic, handlers: PanelHandlers): HTMLElement {
  const where = d.reply;
  return h(
    'li',
    { class: `ld-reply-diag ld-${d.severity === 'error' ? 'bad' : d.severity === 'warning' ? 'warn' : 'ok'}` },
    h('span', { class: 'ld-sev' }, d.severity),
    ' ',
    h('code', null, d.code),
    ' ',
    messageText(d.message),
    where
      ? h('button', { class: 'ld-link', attrs: { type: 'button' }, on: { click: () => handlers.showReplySpan(where) } }, `reply line ${where.start.line}`)
      : null,
  );
}

function editRow(edit: EditResult, extra: EditExtra | undefined, selected: boolean, handlers: PanelHandlers): HTMLElement {
  const tone = toneOf(edit);
  const status = edit.status === 'applied' ? 'applied' : 'failed';
  const headId = `ld-edit-${edit.index}`;
  const head = h(
    'button',
    {
      class: 'ld-row-head',
      attrs: { type: 'button', id: headId, 'aria-current': selected ? 'true' : null, 'data-edit': edit.index },
      on: { click: () => handlers.select(edit.index) },
    },
    h('span', { class: `ld-pill ld-${tone}` }, status === 'applied' ? '\u2713 applied' : '\u2717 failed'),
    h('span', { class: 'ld-row-title' }, `#${edit.index + 1} `, h('span', { class: 'ld-file' }, edit.file)),
    h('span', { class: 'ld-row-status' }, statusText(edit)),
    h('span', { class: 'ld-row-place' }, placeText(edit)),
  );

  const facts = h('dl', { class: 'ld-facts' });
  if (edit.match === 'fuzzy' && edit.similarity !== null) facts.append(fact('similarity', similarityText(edit.similarity)));
  if (edit.status === 'failed' && edit.candidates[0] && edit.code !== 'ambiguous')
    facts.append(fact('closest similarity', similarityText(edit.candidates[0].similarity)));
  if (edit.code) facts.append(fact('code', edit.code));
  if (edit.duplicateOf !== null) facts.append(fact('duplicate of', `#${edit.duplicateOf + 1}`));

  const body = h('div', { class: 'ld-row-body' }, facts.childElementCount ? facts : null, h('p', { class: 'ld-message' }, messageText(edit.message)));

  if (extra && extra.pairs.length > 0) {
    const list = h('div', { class: 'ld-compare', attrs: { role: 'group', 'aria-label': `Cited lines against ${edit.file}, edit #${edit.index + 1}` } });
    for (const pair of extra.pairs) list.append(comparison(pair, edit.file));
    body.append(list);
  }

  if (edit.status === 'failed' && edit.candidates.length > 0 && edit.code !== 'ambiguous') {
    const c = edit.candidates[0];
    body.append(
      h('p', { class: 'ld-sub' }, `Closest candidate in ${edit.file}, lines ${c.start}-${c.end} (similarity ${similarityText(c.similarity)}):`),
      h('pre', { class: 'ld-candidate' }, numbered(c.lines, c.start)),
    );
  }

  for (const w of edit.warnings) {
    body.append(h('p', { class: 'ld-warning' }, h('code', null, w.code), ' ', messageText(w.message)));
  }

  if (extra?.retry) {
    const retry = extra.retry;
    body.append(
      h(
        'div',
        { class: 'ld-retry' },
        h('p', { class: 'ld-sub' }, 'Message to send back to the model:'),
        h('pre', { class: 'ld-retry-text' }, retry),
        h(
          'div',
          { class: 'pg-buttons' },
          h(
            'button',
            { attrs: { type: 'button' }, on: { click: () => handlers.copy(retry, 'Retry message') } },
            `Copy retry message for edit #${edit.index + 1}`,
          ),
          h(
            'button',
            {
              attrs: { type: 'button', 'aria-label': `Copy link to this failure (edit #${edit.index + 1})` },
              on: { click: () => handlers.copyFailureLink(edit.index) },
            },
            'Copy link to this failure',
          ),
        ),
      ),
    );
  } else if (edit.status === 'failed') {
    body.append(
      h(
        'button',
        {
          attrs: { type: 'button', 'aria-label': `Copy link to this failure (edit #${edit.index + 1})` },
          on: { click: () => handlers.copyFailureLink(edit.index) },
        },
        'Copy link to this failure',
      ),
    );
  }

  const more = handlers.actions?.(edit).filter((el): el is HTMLElement => el !== null) ?? [];
  if (more.length > 0) body.append(h('div', { class: 'pg-buttons ld-row-actions' }, ...more));

  return h('li', { class: `ld-row ld-${tone}`, attrs: { 'data-edit': edit.index, 'aria-labelledby': headId } }, head, body);
}

function summary(result: ApplyResult): string {
  const applied = result.edits.filter((e) => e.status === 'applied').length;
  const failed = result.edits.length - applied;
  if (result.edits.length === 0) return 'No edits found in the reply.';
  const all = `${result.edits.length} edit${result.edits.length === 1 ? '' : 's'}`;
  return failed === 0 ? `All ${all} applied.` : `${applied} of ${all} applied, ${failed} failed.`;
}

/** The rows drawn last, by what they show (the row's digest and its buttons), per list. */
const rowCache = new WeakMap<HTMLElement, Map<string, HTMLElement>>();
/** What the summary and the reply's findings were last drawn from, per element. */
const drawn = new WeakMap<HTMLElement, string>();

/** The site's base path, ending in `/` (`/` outside a Vite build, e.g. in unit tests). */
function siteBase(): string {
  const base = (import.meta as { env?: { BASE_URL?: string } }).env?.BASE_URL ?? '/';
  return base.endsWith('/') ? base : `${base}/`;
}

/** Render a run's results into the panel's parts. */
export function renderDiagnostics(
  parts: { summary: HTMLElement; edits: HTMLElement; reply: HTMLElement },
  output: RunOutput,
  selected: number | null,
  handlers: PanelHandlers,
): void {
  const { result } = output;
  if (!result) {
    parts.reply.replaceChildren();
    parts.edits.replaceChildren();
    rowCache.delete(parts.edits);
    drawn.delete(parts.reply);
    drawn.delete(parts.summary);
    parts.summary.replaceChildren(h('span', { class: 'ld-bad-text' }, `The engine failed: ${output.error ?? 'unknown error'}`));
    return;
  }
  const detection = result.detection;
  // The summary, and the reply's findings, redrawn only when what they say changed:
  // a keystroke usually changes neither, and new nodes cost the page a layout of them.
  const said = summary(result);
  const summaryKey = JSON.stringify([said, result.format, detection?.reason ?? null, siteBase()]);
  if (drawn.get(parts.summary) !== summaryKey) {
    parts.summary.replaceChildren(
      h('strong', null, said),
      ' ',
      h('span', { class: 'ld-muted' }, detection ? `Format ${result.format}, detected: ${detection.reason}.` : `Format ${result.format}.`),
      ' ',
      h('a', { class: 'ld-agent-link', attrs: { href: `${siteBase()}agents/#configure` } }, `Use ${result.format} in your agent`),
    );
    drawn.set(parts.summary, summaryKey);
  }
  // Rows whose edit, extras and actions are what they were keep their elements, and stay
  // in the list untouched: a keystroke that changes one edit replaces one row, not the list.
  const before = rowCache.get(parts.edits) ?? new Map<string, HTMLElement>();
  const now = new Map<string, HTMLElement>();
  const rows: HTMLElement[] = [];
  for (const edit of result.edits) {
    const extra = output.extras[edit.index];
    const actions = handlers.actions?.(edit).filter((el): el is HTMLElement => el !== null) ?? [];
    // The edit and its extras by the digest the engine worker made of them; the page's own buttons by what they say.
    const key = JSON.stringify([extra?.digest ?? rowDigest(edit, extra), actions.map((a) => [a.textContent, a.title])]);
    const row = before.get(key) ?? editRow(edit, extra, edit.index === selected, { ...handlers, actions: () => actions });
    now.set(key, row);
    rows.push(row);
  }
  // The rows that go first, then the new ones put in place: a row that stays is never moved
  // (moving it would take it out of the page's layout and put it back, with all it holds).
  const kept = new Set(rows);
  for (const child of [...parts.edits.childNodes]) if (!kept.has(child as HTMLElement)) child.remove();
  let next: ChildNode | null = parts.edits.firstChild;
  for (const row of rows) {
    if (next === row) next = row.nextSibling;
    else parts.edits.insertBefore(row, next);
  }
  rowCache.set(parts.edits, now);
  const replyKey = JSON.stringify(result.diagnostics);
  if (drawn.get(parts.reply) !== replyKey) {
    parts.reply.replaceChildren(...result.diagnostics.map((d) => diagnosticItem(d, handlers)));
    drawn.set(parts.reply, replyKey);
  }
}

/** Mark the selected row (aria-current) without re-rendering. */
export function markSelected(list: HTMLElement, selected: number | null): HTMLElement | null {
  let found: HTMLElement | null = null;
  for (const head of list.querySelectorAll<HTMLElement>('.ld-row-head')) {
    const on = head.dataset.edit === String(selected);
    if (on) {
      head.setAttribute('aria-current', 'true');
      found = head;
    } else head.removeAttribute('aria-current');
    head.closest('.ld-row')?.classList.toggle('ld-row-selected', on);
  }
  return found;
}
