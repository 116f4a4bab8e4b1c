// Two runs side by side: per format, each rate of run A next to run B with
// the change marked (▲ up, ▼ down, = the same, in words for screen readers),
// and every task × format whose exact outcome flipped between them.

import type { RunComparison } from '../../bench/file.ts';
import type { BenchRun } from '../../bench/types.ts';
import { h } from '../../playground/dom.ts';
import { count, percent } from './numbers.ts';
import { describeRun } from './run-view.ts';

const RATES = ['parsed', 'applied', 'exact'] as const;

function delta(d: number | null): HTMLTableCellElement {
  if (d === null) return h('td', { class: 'bn-num bn-muted' }, '–');
  const points = Math.round(Math.abs(d) * 100);
  if (d === 0 || points === 0)
    return h('td', { class: 'bn-num bn-same' }, d === 0 ? '= 0' : d > 0 ? '≈ +0' : '≈ −0', h('span', { class: 'bn-sr' }, d === 0 ? ' (the same)' : ' (nearly the same)'));
  const up = d > 0;
  return h(
    'td',
    { class: `bn-num ${up ? 'bn-up' : 'bn-down'}`, attrs: { 'data-change': up ? 'up' : 'down' } },
    h('span', { attrs: { 'aria-hidden': 'true' } }, up ? '▲ ' : '▼ '),
    `${up ? '+' : '−'}${points} pts`,
    h('span', { class: 'bn-sr' }, up ? ' (up)' : ' (down)'),
  );
}

const outcome = (o: RunComparison['replies'][number]['a']): string =>
  o === null ? 'not in this run' : o.exact ? '✓ exact' : o.applied ? 'applied, not exact' : o.parsed ? 'parsed, not applied' : o.status === 'done' ? 'not parsed' : o.status;

/**
 * Run `a` (the baseline) and run `b` compared (`diff`: compareRuns(a, b), so
 * every change is B minus A); `names` says which run each is.
 */
export function compareView(a: BenchRun, b: BenchRun, diff: RunComparison, names: { a: string; b: string }): DocumentFragment {
  const frag = document.createDocumentFragment();
  frag.append(
    h(
      'dl',
      { class: 'bn-runs' },
      h('dt', null, `A, the baseline (${names.a})`),
      h('dd', null, describeRun(a)),
      h('dt', null, `B (${names.b})`),
      h('dd', null, describeRun(b)),
    ),
  );
  const rateCell = (s: RunComparison['formats'][number]['a'], k: (typeof RATES)[number]) =>
    h('td', { class: 'bn-num' }, s ? `${percent(s.rates[k])} (${count(s[k])}/${count(s.replies)})` : '–');
  const table = h(
    'table',
    { class: 'bn-table bn-compare-table' },
    h('caption', null, 'Rates per format, A and B'),
    h(
      'thead',
      null,
      h('tr', null, h('th', { attrs: { rowspan: 2, scope: 'col' } }, 'Format'), ...RATES.map((k) => h('th', { attrs: { colspan: 3, scope: 'colgroup' } }, k))),
      h('tr', null, ...RATES.flatMap(() => ['A', 'B', 'change'].map((c) => h('th', { attrs: { scope: 'col' } }, c)))),
    ),
    h(
      'tbody',
      null,
      ...diff.formats.map((f) =>
        h(
          'tr',
          { attrs: { 'data-format': f.format } },
          h('th', { attrs: { scope: 'row' } }, h('code', null, f.format)),
          ...RATES.flatMap((k) => [rateCell(f.a, k), rateCell(f.b, k), delta(f.delta ? f.delta[k] : null)]),
        ),
      ),
    ),
  );
  frag.append(h('div', { class: 'table-scroll', attrs: { role: 'region', 'aria-label': 'Rates per format, A and B', tabindex: 0 } }, table));
  // Runs of different tasks: the change is over what both answered, which each run's own rate is not.
  const partly = diff.formats.filter((f) => f.a && f.b && (f.shared < f.a.replies || f.shared < f.b.replies));
  if (partly.length > 0)
    frag.append(
      h(
        'p',
        { class: 'bn-compare-note' },
        `A and B did not answer the same tasks: each change is over the task × format pairs both answered (${partly
          .map((f) => `${f.format}: ${count(f.shared)}`)
          .join(', ')}), so it can differ from B's rate minus A's.`,
      ),
    );

  const flips = diff.replies.filter((r) => r.flip !== null);
  const both = diff.replies.filter((r) => r.a !== null && r.b !== null).length;
  frag.append(h('h3', null, 'Exact flips'));
  if (flips.length === 0) {
    frag.append(h('p', { class: 'bn-muted' }, `No task changed between exact and not exact (${count(both)} task × format pairs in both runs).`));
    return frag;
  }
  const gained = flips.filter((f) => f.flip === 'gained').length;
  frag.append(
    h('p', null, `${count(flips.length)} of ${count(both)} task × format pairs in both runs flipped: ${count(gained)} became exact in B, ${count(flips.length - gained)} stopped being exact.`),
  );
  const flipTable = h(
    'table',
    { class: 'bn-table bn-flips-table' },
    h('caption', null, 'Replies exact in one run only'),
    h('thead', null, h('tr', null, ...['Task', 'Format', 'A', 'B', 'Change'].map((c) => h('th', { attrs: { scope: 'col' } }, c)))),
    h(
      'tbody',
      null,
      ...flips.map((f) =>
        h(
          'tr',
          { class: f.flip === 'gained' ? 'bn-gained' : 'bn-lost', attrs: { 'data-task': f.task, 'data-format': f.format } },
          h('th', { attrs: { scope: 'row' } }, h('code', null, f.task)),
          h('td', null, h('code', null, f.format)),
          h('td', null, outcome(f.a)),
          h('td', null, outcome(f.b)),
          h('td', { class: f.flip === 'gained' ? 'bn-up' : 'bn-down' }, f.flip === 'gained' ? '▲ became exact' : '▼ no longer exact'),
        ),
      ),
    ),
  );
  frag.append(h('div', { class: 'table-scroll', attrs: { role: 'region', 'aria-label': 'Exact flips', tabindex: 0 } }, flipTable));
  return frag;
}
