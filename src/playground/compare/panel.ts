// Compare formats: the change of the current session written in every format
// (compare worker), with sizes, round trips and token counts. The tokenizers
// load in the worker when this panel first asks for counts.

import { wrap, type Remote } from 'comlink';
import type { CompareApi } from '../../worker/compare.worker.ts';
import type { TokenCounts } from '../../tokens/index.ts';
import type { CompareOutput } from '../../compare/protocol.ts';
import type { Panel, PanelHooks } from '../panel-hooks.ts';
import { h } from '../dom.ts';
import '../panels.css';
import './compare.css';

const $ = <T extends HTMLElement>(id: string): T => {
  const el = document.getElementById(id);
  if (!el) throw new Error(`#${id} is missing`);
  return el as T;
};

const num = (n: number) => n.toLocaleString('en-US');
const COUNT_KEYS: (keyof TokenCounts)[] = ['o200k', 'cl100k', 'llama3', 'claudeEstimate', 'geminiEstimate'];
const COUNT_NAMES: Record<keyof TokenCounts, string> = {
  o200k: 'o200k',
  cl100k: 'cl100k',
  llama3: 'Llama 3',
  claudeEstimate: 'Claude (estimate)',
  geminiEstimate: 'Gemini (estimate)',
};
const ROUND_TRIP: Record<string, string> = { ok: '✓ round-trips', failed: '✗ fails', unsupported: '– cannot express' };

export function mountCompare(hooks: PanelHooks): Panel {
  const ui = {
    refresh: $<HTMLButtonElement>('pg-compare-refresh'),
    status: $('pg-compare-status'),
    table: $<HTMLTableElement>('pg-compare-table'),
    views: $<HTMLTableElement>('pg-compare-views'),
    method: $('pg-compare-method'),
    replies: $('pg-compare-replies'),
  };
  const worker = new Worker(new URL('../../worker/compare.worker.ts', import.meta.url), { type: 'module', name: 'ln-diff compare' });
  const api: Remote<CompareApi> = wrap<CompareApi>(worker);
  let seq = 0;
  let shownKey = '';

  const countCells = (owner: string): HTMLTableCellElement[] =>
    COUNT_KEYS.map((k) => h('td', { class: 'pg-num', attrs: { 'data-count': k, 'data-of': owner } }, '…'));

  function render(out: CompareOutput): void {
    const body = ui.table.tBodies[0];
    body.replaceChildren(
      ...out.rows.map((r) => {
        const rt = h('td', { class: 'pg-text' }, h('span', { class: 'pg-rt', attrs: { 'data-rt': r.roundTrip } }, ROUND_TRIP[r.roundTrip] ?? r.roundTrip));
        if (r.problem) rt.append(h('span', { class: 'pg-compare-problem' }, r.problem));
        return h(
          'tr',
          { attrs: { 'data-format': r.format } },
          h('th', { attrs: { scope: 'row', title: r.title } }, r.format),
          h('td', { class: 'pg-num' }, num(r.chars)),
          ...countCells(`reply:${r.format}`),
          rt,
        );
      }),
    );
    ui.views.tBodies[0].replaceChildren(
      ...out.views.map((v) =>
        h(
          'tr',
          { attrs: { 'data-view': v.kind } },
          h('th', { attrs: { scope: 'row' } }, v.label),
          h('td', { class: 'pg-text' }, v.usedBy.join(', ') || '—'),
          h('td', { class: 'pg-num' }, num(v.chars)),
          ...countCells(`view:${v.kind}`),
        ),
      ),
    );
    ui.replies.replaceChildren(
      ...out.rows.map((r) =>
        h(
          'details',
          null,
          h('summary', null, `${r.format}: ${num(r.chars)} characters`),
          r.reply === ''
            ? h('p', { class: 'pg-muted' }, r.problem ?? 'No reply.')
            : h('pre', { attrs: { tabindex: 0, role: 'region', 'aria-label': `The change in ${r.format}` } }, r.reply),
        ),
      ),
    );
  }

  async function run(): Promise<void> {
    const mine = ++seq;
    const input = { format: hooks.format(), files: hooks.files(), reply: hooks.reply() };
    const key = JSON.stringify(input);
    if (key === shownKey) return;
    ui.refresh.disabled = true;
    ui.status.textContent = 'Writing the change in every format…';
    try {
      const out = await api.compare(input);
      if (mine !== seq) return;
      render(out);
      shownKey = key;
      const changed = out.files.length === 0 ? 'The reply changes no file' : `The change to ${out.files.join(', ')}`;
      const ok = out.rows.filter((r) => r.roundTrip === 'ok').length;
      ui.status.textContent = `${changed}, in ${out.rows.length} formats (${ok} round-trip). Counting tokens (loading the tokenizers the first time)…`;
      const texts = [...out.rows.map((r) => r.reply), ...out.views.map((v) => v.text)];
      const owners = [...out.rows.map((r) => `reply:${r.format}`), ...out.views.map((v) => `view:${v.kind}`)];
      const { counts, method } = await api.count(texts);
      if (mine !== seq) return;
      counts.forEach((c, i) => {
        for (const k of COUNT_KEYS) {
          const cell = [...document.querySelectorAll<HTMLElement>('#pg-compare td[data-count]')].find((td) => td.dataset.of === owners[i] && td.dataset.count === k);
          if (cell) {
            cell.textContent = num(c[k]);
            cell.title = `${COUNT_NAMES[k]} tokens`;
          }
        }
      });
      ui.method.textContent = method;
      ui.status.textContent = `${changed}, in ${out.rows.length} formats (${ok} round-trip). Token counts ready.`;
    } catch (e) {
      if (mine === seq) ui.status.textContent = `Could not compare: ${e instanceof Error ? e.message : String(e)}.`;
    } finally {
      if (mine === seq) ui.refresh.disabled = false;
    }
  }

  ui.refresh.addEventListener('click', () => {
    shownKey = '';
    void run();
  });
  void run();
  return { opened: () => void run() };
}
