// The results table of a run: one row per format (replies; parsed, applied
// and exact as rates and counts; edits by how they matched; median tokens
// and times; failures by code), the best value of each column marked with a
// star and the words "best" for screen readers, not by colour alone.

import type { FormatSummary } from '../../bench/types.ts';
import { MATCH_KINDS, type BestColumn } from '../../bench/summary.ts';
import { h } from '../../playground/dom.ts';
import { count, duration, percent, tokens } from './numbers.ts';

const STATUS_WORDS: Record<string, string> = {
  auth: 'key refused',
  http: 'HTTP error',
  stalled: 'stalled',
  network: 'network error',
  empty: 'empty',
};

/** A cell's content with the best mark when it is the best of its column. */
function marked(content: Node | string, isBest: boolean): HTMLTableCellElement {
  const cell = h('td', { class: isBest ? 'bn-num bn-best' : 'bn-num' }, content);
  if (isBest) cell.append(h('span', { class: 'bn-star', attrs: { 'aria-hidden': 'true' } }, ' ★'), h('span', { class: 'bn-sr' }, ' (best)'));
  return cell;
}

function rate(n: number, of: number, r: number): DocumentFragment {
  const frag = document.createDocumentFragment();
  frag.append(h('strong', null, percent(r)), ' ', h('span', { class: 'bn-count' }, `${count(n)}/${count(of)}`));
  return frag;
}

/** Failures by code and replies that did not finish, most frequent first. */
function failures(s: FormatSummary): string {
  const codes = Object.entries(s.codes)
    .filter((e): e is [string, number] => typeof e[1] === 'number' && e[1] > 0)
    .sort((a, b) => b[1] - a[1])
    .map(([code, n]) => `${code} ${n}`);
  const statuses = Object.entries(s.statuses)
    .filter((e): e is [string, number] => typeof e[1] === 'number' && e[1] > 0)
    .map(([status, n]) => `${STATUS_WORDS[status] ?? status} ${n}`);
  const cut = s.cutOff > 0 ? [`cut off at the token cap ${s.cutOff}`] : [];
  return [...statuses, ...cut, ...codes].join(', ') || '–';
}

export function summaryTable(summaries: readonly FormatSummary[], best: Record<BestColumn, string[]>): HTMLElement {
  // A column where every format ties has no best.
  const counted = summaries.filter((s) => s.replies > 0).length;
  const isBest = (column: BestColumn, format: string) => best[column].length < counted && best[column].includes(format);
  const head1 = h(
    'tr',
    null,
    h('th', { attrs: { rowspan: 2, scope: 'col' } }, 'Format'),
    h('th', { attrs: { rowspan: 2, scope: 'col' } }, 'Replies'),
    h('th', { attrs: { colspan: 3, scope: 'colgroup' } }, 'Replies that were'),
    h('th', { attrs: { colspan: 5, scope: 'colgroup' } }, 'Edits by match'),
    h('th', { attrs: { colspan: 4, scope: 'colgroup' } }, 'Median per reply'),
    h('th', { attrs: { rowspan: 2, scope: 'col' } }, 'Failures'),
  );
  const head2 = h(
    'tr',
    null,
    ...['parsed', 'applied', 'exact'].map((c) => h('th', { attrs: { scope: 'col' } }, c)),
    ...MATCH_KINDS.map((c) => h('th', { attrs: { scope: 'col' } }, c)),
    ...['input tokens', 'output tokens', 'first token', 'total time'].map((c) => h('th', { attrs: { scope: 'col' } }, c)),
  );
  const body = h(
    'tbody',
    null,
    ...summaries.map((s) =>
      h(
        'tr',
        { attrs: { 'data-format': s.format } },
        h('th', { attrs: { scope: 'row' } }, h('code', null, s.format)),
        h('td', { class: 'bn-num' }, count(s.replies)),
        marked(rate(s.parsed, s.replies, s.rates.parsed), isBest('parsed', s.format)),
        marked(rate(s.applied, s.replies, s.rates.applied), isBest('applied', s.format)),
        marked(rate(s.exact, s.replies, s.rates.exact), isBest('exact', s.format)),
        h('td', { class: 'bn-num' }, count(s.matches.exact)),
        h('td', { class: 'bn-num' }, count(s.matches.offset)),
        h('td', { class: 'bn-num' }, count(s.matches.whitespace)),
        h('td', { class: 'bn-num' }, count(s.matches.fuzzy)),
        h('td', { class: s.matches.failed > 0 ? 'bn-num bn-bad' : 'bn-num' }, count(s.matches.failed)),
        marked(tokens(s.median.input, s.estimated), isBest('input', s.format)),
        marked(tokens(s.median.output, s.estimated), isBest('output', s.format)),
        marked(duration(s.median.firstToken), isBest('firstToken', s.format)),
        marked(duration(s.median.total), isBest('total', s.format)),
        h('td', { class: 'bn-failures' }, failures(s)),
      ),
    ),
  );
  const table = h(
    'table',
    { class: 'bn-table bn-summary-table' },
    h('caption', null, 'Per format'),
    h('thead', null, head1, head2),
    body,
  );
  const notes = [
    '★ best in its column (the highest rate, the lowest median; none where all are equal).',
    'Stopped replies are not counted.',
    ...(summaries.some((s) => s.estimated) ? ['~ tokens estimated from the length (characters / 4): the API reported none, and the model has no tokenizer here (OpenAI and Llama 3 models are counted exactly).'] : []),
  ];
  return h(
    'div',
    null,
    h('div', { class: 'table-scroll', attrs: { role: 'region', 'aria-label': 'Results per format', tabindex: 0 } }, table),
    h('p', { class: 'bn-muted bn-legend' }, notes.join(' ')),
  );
}
