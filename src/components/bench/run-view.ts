// The run on show: what it asked (model, endpoint, formats and their prompt
// families, tasks), its table per format, its chart and every reply. A run
// going fills it reply by reply; an opened one fills it at once.

import { askedCount, type BestColumn } from '../../bench/summary.ts';
import type { BenchConfig, BenchReply, BenchRun, FormatSummary } from '../../bench/types.ts';
import { h } from '../../playground/dom.ts';
import { rateChart } from './chart.ts';
import { plural } from './numbers.ts';
import { RepliesTable } from './replies-table.ts';
import { summaryTable } from './summary-table.ts';

const byId = (id: string): HTMLElement => {
  const el = document.getElementById(id);
  if (!el) throw new Error(`bench: #${id} is missing`);
  return el;
};

/** How a run names its endpoint and prompts, in a line. */
export function describeRun(run: { config: BenchConfig; engine: string; started: string }): string {
  const { endpoint, formats, tasks } = run.config;
  const api = endpoint.api === 'anthropic' ? 'Anthropic Messages' : 'OpenAI-compatible';
  const model = endpoint.model || 'the server’s model';
  const families = [...new Set(formats.map((f) => f.family))].join(', ');
  return `${model} at ${endpoint.baseUrl} (${api}); ${plural(tasks.length, 'task')} × ${plural(formats.length, 'format')}, prompts: ${families}; ${run.engine}, started ${run.started.replace('T', ' ').replace(/\.\d+Z$/, 'Z')}.`;
}

export class RunView {
  private readonly empty = byId('bn-empty');
  private readonly box = byId('bn-run-view');
  private readonly meta = byId('bn-meta');
  private readonly skipped = byId('bn-skipped');
  private readonly summary = byId('bn-summary');
  private readonly chart = byId('bn-chart');
  private readonly replies = byId('bn-replies');
  private table: RepliesTable | null = null;

  constructor(private readonly link: (r: BenchReply, config: BenchConfig) => string | null) {}

  /** Start showing a run that has just begun (no replies yet). */
  begin(config: BenchConfig, engine: string, started: string): void {
    this.empty.hidden = true;
    this.box.hidden = false;
    this.meta.textContent = describeRun({ config, engine, started });
    this.skipped.replaceChildren();
    this.summary.replaceChildren();
    this.chart.replaceChildren();
    const tasks = new Map(config.tasks.map((t, i) => [t, i]));
    const formats = new Map(config.formats.map((f, i) => [f.format, i]));
    this.table = new RepliesTable(
      (r) => (tasks.get(r.task) ?? tasks.size) * (formats.size + 1) + (formats.get(r.format) ?? formats.size),
      (r) => this.link(r, config),
    );
    this.replies.replaceChildren(this.table.element);
  }

  /** A reply arrived, with the summaries so far. */
  add(reply: BenchReply, summaries: FormatSummary[], best: Record<BestColumn, string[]>): void {
    this.table?.set(reply);
    this.totals(summaries, best);
  }

  /** The summaries (a run's end, or as it goes). */
  totals(summaries: FormatSummary[], best: Record<BestColumn, string[]>): void {
    this.summary.replaceChildren(summaryTable(summaries, best));
    this.chart.replaceChildren(rateChart(summaries), h('figcaption', { class: 'bn-muted' }, 'Parsed, applied and exact replies per format.'));
  }

  /** A run that was shown as it went has ended: its totals, and any reply not shown yet. */
  finish(run: BenchRun, summaries: FormatSummary[], best: Record<BestColumn, string[]>): void {
    if (!this.table) return this.show(run, summaries, best);
    this.meta.textContent = describeRun(run);
    for (const r of run.replies) if (!this.table.has(r)) this.table.set(r);
    this.totals(summaries, best);
    this.stopped(run);
  }

  private stopped(run: BenchRun): void {
    const asked = askedCount(run);
    if (run.stopped) this.meta.append(' ', h('strong', null, `Stopped: ${plural(run.replies.filter((r) => r.status !== 'stopped').length, 'reply', 'replies')} of ${plural(asked, 'request')}.`));
    this.notAsked(run);
  }

  /** The pairs the run did not ask, because the format cannot say the change: named, with the writer's reason. */
  private notAsked(run: BenchRun): void {
    const pairs = run.skipped ?? [];
    this.skipped.replaceChildren();
    if (pairs.length === 0) return;
    const items = pairs.map((p) => h('li', null, h('code', null, p.format), ' · ', p.task, ': ', p.reason));
    this.skipped.append(
      h(
        'details',
        { class: 'bn-skipped' },
        h('summary', null, `${plural(pairs.length, 'task', 'tasks')} not asked in a format that cannot say the change (they count in no rate)`),
        h('ul', null, ...items),
      ),
    );
  }

  /** Show a whole run (opened, or finished). */
  show(run: BenchRun, summaries: FormatSummary[], best: Record<BestColumn, string[]>): void {
    this.begin(run.config, run.engine, run.started);
    for (const r of run.replies) this.table?.set(r);
    this.totals(summaries, best);
    this.stopped(run);
  }
}
