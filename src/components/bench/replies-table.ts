// Every reply of a run, one row each in task-then-format order (rows arrive
// in any order while a run goes and take their place): its status, whether
// it parsed, applied and came out exact, its edits by match, tokens and
// times, a link that opens it in the playground (the task's files, the reply
// and its format, so the playground shows its diagnostics), and a button
// that shows the reply, the error and the retry message below the row.

import type { BenchReply } from '../../bench/types.ts';
import { MATCH_KINDS } from '../../bench/summary.ts';
import { h } from '../../playground/dom.ts';
import { duration, plural, tokens } from './numbers.ts';

const COLUMNS = ['Task', 'Format', 'Status', 'Parsed', 'Applied', 'Exact', 'Matches', 'Tokens in / out', 'First text, total', 'Reply'];

const STATUS: Record<BenchReply['status'], string> = {
  done: 'done',
  auth: 'key refused',
  http: 'HTTP error',
  stalled: 'stalled',
  network: 'network error',
  empty: 'empty reply',
  stopped: 'stopped',
};

/** A reply the API stopped at its token cap (`cutOff`). */
const CUT_OFF = 'cut off at the token cap';

/** A cell with its column's name (shown before it where the table folds into cards, on a phone). */
const td = (column: number, props: { class?: string; attrs?: Record<string, string> } | null, ...children: (Node | string)[]) =>
  h('td', { ...props, attrs: { ...props?.attrs, 'data-label': COLUMNS[column] } }, ...children);

const yes = (ok: boolean, column: number) =>
  td(column, { class: ok ? 'bn-yes' : 'bn-no', attrs: { 'data-col': COLUMNS[column].toLowerCase() } }, ok ? '✓ yes' : '✗ no');

function matches(r: BenchReply): string {
  const m = r.score.matches;
  const parts = MATCH_KINDS.filter((k) => m[k] > 0).map((k) => `${m[k]} ${k}`);
  return parts.join(', ') || '–';
}

/** The text shown under a row: the error, the reply, the retry message. */
function details(r: BenchReply): DocumentFragment {
  const frag = document.createDocumentFragment();
  if (r.error) frag.append(h('p', { class: 'bn-reply-error' }, `${STATUS[r.status]}: ${r.error}`));
  if (r.cutOff) frag.append(h('p', { class: 'bn-reply-error' }, `${CUT_OFF}: the API said the reply reached its token cap; it is scored as it stands.`));
  frag.append(
    h('p', { class: 'bn-reply-label' }, `Reply (${plural(r.reply.length, 'character')}${r.attempts > 1 ? `, ${r.attempts} attempts` : ''})`),
    h('pre', { class: 'bn-reply-text', attrs: { tabindex: 0 } }, r.reply || '(no text)'),
  );
  if (r.retry)
    frag.append(
      h('p', { class: 'bn-reply-label' }, 'Retry message (what the bench would send back for the failed edits)'),
      h('pre', { class: 'bn-reply-text', attrs: { tabindex: 0 } }, r.retry),
    );
  return frag;
}

export class RepliesTable {
  readonly element: HTMLElement;
  private readonly body: HTMLTableSectionElement;
  private readonly rows = new Map<string, { row: HTMLTableRowElement; detail: HTMLTableRowElement; order: number }>();
  private serial = 0;
  /**
   * `order`: a reply's place (task, then format). `link`: its playground
   * address, made as the row is drawn, so it is cheap (null: none, e.g. a
   * task this suite lacks).
   */
  constructor(
    private readonly order: (r: { task: string; format: string }) => number,
    private readonly link: (r: BenchReply) => string | null,
  ) {
    this.body = h('tbody', null);
    const table = h(
      'table',
      { class: 'bn-table bn-replies-table' },
      h('caption', null, 'Every reply'),
      h('thead', null, h('tr', null, ...COLUMNS.map((c) => h('th', { attrs: { scope: 'col' } }, c)))),
      this.body,
    );
    this.element = h('div', { class: 'table-scroll', attrs: { role: 'region', 'aria-label': 'Every reply', tabindex: 0 } }, table);
  }

  /** Add a reply (or replace the one of the same task and format). */
  set(r: BenchReply): void {
    const key = `${r.task}\u0000${r.format}`;
    const old = this.rows.get(key);
    const order = this.order(r);
    const id = `bn-reply-${++this.serial}`;
    const href = this.link(r);
    const open =
      href === null
        ? h('span', { class: 'bn-muted' }, 'not in this suite')
        : h('a', { class: 'bn-open', attrs: { href, 'aria-label': `Open in playground: ${r.task}, ${r.format}`, target: '_blank', rel: 'noopener' } }, 'Open in playground');
    const detail = h('tr', { class: 'bn-reply-detail', attrs: { id, hidden: true } }, h('td', { attrs: { colspan: COLUMNS.length } }));
    const toggle = h('button', { attrs: { type: 'button', 'aria-expanded': 'false', 'aria-controls': id, 'aria-label': `Reply: ${r.task}, ${r.format}` } }, 'Reply');
    toggle.addEventListener('click', () => {
      const show = detail.hidden;
      if (show && !detail.cells[0].hasChildNodes()) detail.cells[0].append(details(r));
      detail.hidden = !show;
      toggle.setAttribute('aria-expanded', String(show));
    });
    const row = h(
      'tr',
      { class: `bn-status-${r.status}`, attrs: { 'data-task': r.task, 'data-format': r.format } },
      h('th', { attrs: { scope: 'row' } }, h('code', null, r.task)),
      td(1, { class: 'bn-format-cell' }, h('code', null, r.format)),
      td(2, { class: r.status === 'done' && !r.cutOff ? '' : 'bn-no' }, r.status === 'done' && r.cutOff ? CUT_OFF : STATUS[r.status]),
      yes(r.score.parsed, 3),
      yes(r.score.applied, 4),
      yes(r.score.exact, 5),
      td(6, null, matches(r)),
      td(7, { class: 'bn-num' }, `${tokens(r.tokens.input, r.tokens.method === 'estimate')} / ${tokens(r.tokens.output, r.tokens.method === 'estimate')}${r.tokens.method === 'usage' || r.tokens.method === 'estimate' ? '' : ` (${r.tokens.method})`}`),
      td(8, { class: 'bn-num' }, r.ms.firstToken === null ? `–, ${duration(r.ms.total)}` : `${duration(r.ms.firstToken)}, ${duration(r.ms.total)}`),
      td(9, { class: 'bn-actions' }, open, ' ', toggle),
    );
    if (old) {
      old.row.replaceWith(row);
      old.detail.remove();
      row.after(detail);
    } else {
      // Before the first row that comes later.
      let next: HTMLTableRowElement | null = null;
      let nextOrder = Infinity;
      for (const v of this.rows.values()) if (v.order > order && v.order < nextOrder) [next, nextOrder] = [v.row, v.order];
      this.body.insertBefore(row, next);
      row.after(detail);
    }
    this.rows.set(key, { row, detail, order });
  }

  /** Whether the run's reply for this task and format has its row. */
  has(r: { task: string; format: string }): boolean {
    return this.rows.has(`${r.task}\u0000${r.format}`);
  }

  get size(): number {
    return this.rows.size;
  }
}

