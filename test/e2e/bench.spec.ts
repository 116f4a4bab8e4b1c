// The Bench page against a scripted chat endpoint on this machine
// (test/bench/server.ts): each task × format gets the behaviour the test
// chose, so the scores the table must show are known. Runs, Stop, a run
// saved and reopened, a share link, two runs compared, a reply opened in the
// playground, broken links; every request goes to the site or the scripted
// server, and the key stays out of links, exports and storage.

import { test, expect, type BrowserContext, type Page } from '@playwright/test';
import AxeBuilder from '@axe-core/playwright';
import { mkdirSync, readFileSync, readdirSync } from 'node:fs';
import { ORIGIN } from './fixtures/origin.ts';
import { startBenchServer, type BenchServer, type Stall } from '../bench/server.ts';
import type { Behaviour } from '../bench/replies.ts';
import { scriptedReply } from '../bench/replies.ts';
import { formatPlan, promptTable } from '../../src/bench/prompts.ts';
import { scoreReply } from '../../src/bench/score.ts';
import { BENCH_FORMATS, selectTasks } from '../../src/bench/select.ts';
import { percent } from '../../src/components/bench/numbers.ts';
import { parseSuite } from '../../src/bench/tasks.ts';
import type { FormatPlan } from '../../src/bench/types.ts';

const KEY = 'sk-bench-test-9f8e7d6c5b4a';
const MODEL = 'test-model';
const suite = parseSuite(JSON.parse(readFileSync(new URL('../../bench/tasks/suite.json', import.meta.url), 'utf8')));
const QUICK = selectTasks(suite, 'quick');
const PROMPTS_DIR = new URL('../../spec/prompts/', import.meta.url);
const table = promptTable(
  readdirSync(PROMPTS_DIR)
    .filter((f) => f.endsWith('.md'))
    .map((f) => ({ format: f.replace(/\.md$/, ''), markdown: readFileSync(new URL(f, PROMPTS_DIR), 'utf8') })),
);
/** What the page sends for test-model (a local model's prompts). */
const PLANS: FormatPlan[] = BENCH_FORMATS.map((f) => formatPlan(table, f, MODEL));

type Counts = { replies: number; parsed: number; applied: number; exact: number };

/** What the engine makes of the scripted replies: the counts the page's table must show for a format. */
function expected(format: string, behaviour: (task: string, format: string) => Behaviour, tasks = QUICK): Counts {
  const out = { replies: 0, parsed: 0, applied: 0, exact: 0 };
  for (const t of tasks) {
    const { score } = scoreReply(t, format, scriptedReply(t, format, behaviour(t.id, format)).text);
    out.replies++;
    out.parsed += Number(score.parsed);
    out.applied += Number(score.applied);
    out.exact += Number(score.exact);
  }
  return out;
}

/** A rate cell as the page writes it: the percentage, the count, and the best mark when it is the column's best. */
const rateCell = (n: number, of: number, isBest: boolean) => `${percent(n / of)} ${n}/${of}${isBest ? ' ★ (best)' : ''}`;

/** Check the parsed, applied and exact cells of every format against the counts, best marks included. */
async function expectRates(page: Page, counts: Record<string, Counts>) {
  for (const [k, column] of (['parsed', 'applied', 'exact'] as const).entries()) {
    const rates = Object.values(counts).map((c) => c[column] / c.replies);
    const top = Math.max(...rates);
    // the best is marked where it stands out (not where every format ties)
    const marks = rates.some((r) => r !== top);
    for (const [format, c] of Object.entries(counts)) {
      await expect(cell(page, format, 1)).toHaveText(String(c.replies));
      await expect(cell(page, format, k + 2)).toHaveText(rateCell(c[column], c.replies, marks && c[column] / c.replies === top));
    }
  }
}

let servers: BenchServer[] = [];
test.afterEach(async () => {
  await Promise.all(servers.map((s) => s.close()));
  servers = [];
});

async function server(behaviour: (task: string, format: string) => Behaviour, extra: { plans?: FormatPlan[]; onStall?: (s: Stall) => void } = {}) {
  const s = await startBenchServer({ tasks: QUICK, plans: extra.plans ?? PLANS, behaviour, key: KEY, ...(extra.onStall ? { onStall: extra.onStall } : {}) });
  servers.push(s);
  return s;
}

/** Page errors, and every request that goes anywhere but the site and the scripted servers. */
function watch(context: BrowserContext, page: Page) {
  const errors: string[] = [];
  const urls: string[] = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  context.on('request', (r) => urls.push(r.url()));
  const foreign = () =>
    urls.filter((u) => {
      const url = new URL(u);
      if (url.protocol === 'data:') return false;
      const origin = url.protocol === 'blob:' ? new URL(url.pathname).origin : url.origin;
      return origin !== ORIGIN && !servers.some((s) => s.origin === origin);
    });
  return { errors, urls, foreign };
}

const summaryRow = (page: Page, format: string) => page.getByRole('region', { name: 'Results per format' }).locator(`tr[data-format="${format}"]`);
/** A summary cell by column: 1 replies, 2 parsed, 3 applied, 4 exact (after the format's header cell). */
const cell = (page: Page, format: string, column: number) => summaryRow(page, format).locator('td').nth(column - 1);
const runButton = (page: Page) => page.getByRole('button', { name: 'Run', exact: true });
const needs = (page: Page) => page.locator('#bn-needs');
const message = (page: Page) => page.locator('#bn-message');

/** Open the page and fill the endpoint; the formats stay the preselected three unless `formats` is given. */
async function fill(page: Page, s: BenchServer, options: { formats?: string[]; concurrency?: number } = {}) {
  await page.goto('/bench/');
  await expect(page.getByLabel('Base URL')).toHaveValue('https://api.openai.com/v1');
  await page.getByLabel('Base URL').fill(s.base);
  await page.getByLabel('Model', { exact: true }).fill(MODEL);
  await page.getByLabel('API key', { exact: true }).fill(KEY);
  if (options.formats) {
    for (const f of BENCH_FORMATS) await page.getByRole('checkbox', { name: new RegExp(`^${f} `) }).setChecked(options.formats.includes(f));
  }
  if (options.concurrency) await page.getByLabel('Requests at once').fill(String(options.concurrency));
  await expect(runButton(page)).toBeEnabled();
}

/** The summary table's text, row by row (for comparing two views of one run). */
const summaryText = (page: Page) => page.getByRole('region', { name: 'Results per format' }).locator('tbody tr').allInnerTexts();

test('Run is disabled with the reason until the endpoint is complete and allowed', async ({ page }) => {
  await page.goto('/bench/');
  await expect(runButton(page)).toBeDisabled();
  await expect(needs(page)).toHaveText('Enter a model name and an API key for OpenAI.');
  await page.getByLabel('Base URL').fill('https://llm.example.com/v1');
  await expect(needs(page)).toContainText('This page may not connect to https://llm.example.com');
  await page.getByLabel('Base URL').fill('http://127.0.0.1:8080/v1');
  // a local server needs neither a model nor a key; a format and a task it does need
  await expect(runButton(page)).toBeEnabled();
  for (const f of ['ln-diff', 'search-replace', 'udiff']) await page.getByRole('checkbox', { name: new RegExp(`^${f} `) }).uncheck();
  await expect(needs(page)).toHaveText('Choose at least one format.');
  await expect(runButton(page)).toBeDisabled();
  await page.getByRole('checkbox', { name: /^udiff / }).check();
  await page.getByRole('radio', { name: 'Pick' }).check();
  await expect(needs(page)).toHaveText('Pick at least one task.');
  await page.getByRole('checkbox', { name: /^ms-index / }).check();
  await expect(runButton(page)).toBeEnabled();
  await expect(page.locator('#bn-estimate')).toHaveText(/^1 request, about [\d,]+ input and [\d,]+ output tokens \(estimate\)\.$/);
});

test('a quick run in three formats shows the scores the behaviours imply, as they arrive', async ({ page, context }) => {
  // ln-diff: every reply right; search-replace: two replies without edits; udiff: one typo (applies, not exact).
  const behaviour = (task: string, format: string): Behaviour =>
    format === 'search-replace' && (task === 'ms-index' || task === 'nan-ci') ? 'prose-only' : format === 'udiff' && task === 'normalize-css' ? 'typo' : 'right';
  const s = await server(behaviour);
  const w = watch(context, page);
  await fill(page, s);
  await expect(page.locator('#bn-estimate')).toHaveText(/^24 requests, about [\d,]+ input and [\d,]+ output tokens \(estimate\)\.$/);
  await runButton(page).click();
  await expect(message(page)).toHaveText(`Done: 24 replies from ${MODEL}.`);
  await expect(page.locator('#bn-progress')).toHaveAttribute('value', '24');
  await expect(page.locator('#bn-progress-text')).toHaveText('24 of 24 replies');

  const counts = Object.fromEntries(['ln-diff', 'search-replace', 'udiff'].map((f) => [f, expected(f, behaviour)]));
  // the behaviours show: two search-replace replies without edits, one udiff reply applied but not exact
  expect(counts['search-replace'].parsed).toBe(6);
  expect(counts.udiff.applied - counts.udiff.exact).toBeGreaterThanOrEqual(1);
  await expectRates(page, counts);
  // the best exact rate is marked with a star and words, not colour alone
  const bestExact = Object.entries(counts).sort((x, y) => y[1].exact - x[1].exact)[0][0];
  await expect(summaryRow(page, bestExact).locator('td').nth(3)).toHaveClass(/bn-best/);
  await expect(summaryRow(page, bestExact).locator('td').nth(3).locator('.bn-star')).toHaveText(' ★');
  // tokens are the API's usage (the scripted server reports 1234 in, 56 out): no ~
  await expect(cell(page, 'ln-diff', 10)).toHaveText('1,234');
  await expect(cell(page, 'ln-diff', 11)).toHaveText('56');
  await expect(page.locator('.bn-legend')).not.toContainText('estimated');
  // the chart labels each bar with text
  const u = counts.udiff;
  await expect(page.locator('#bn-chart svg')).toHaveAttribute(
    'aria-label',
    new RegExp(`udiff: parsed ${percent(u.parsed / 8)}, applied ${percent(u.applied / 8)}, exact ${percent(u.exact / 8)}`),
  );

  // every reply has a row, in task-then-format order
  const rows = page.getByRole('region', { name: 'Every reply' }).locator('tbody tr:not(.bn-reply-detail)');
  await expect(rows).toHaveCount(24);
  const order = await rows.evaluateAll((trs) => trs.map((tr) => `${(tr as HTMLElement).dataset.task}/${(tr as HTMLElement).dataset.format}`));
  expect(order).toEqual(QUICK.flatMap((t) => ['ln-diff', 'search-replace', 'udiff'].map((f) => `${t.id}/${f}`)));
  const prose = rows.and(page.locator('[data-task="ms-index"][data-format="search-replace"]'));
  await expect(prose.locator('[data-col=parsed]')).toHaveText('✗ no');
  await prose.getByRole('button', { name: 'Reply: ms-index, search-replace' }).click();
  await expect(page.locator('.bn-reply-detail:not([hidden])')).toContainText('I would bump the version');

  // what was sent: the format's prompt for a local model, the key only in its header
  expect(s.posts()).toHaveLength(24);
  for (const p of s.posts()) {
    expect(p.headers.authorization).toBe(`Bearer ${KEY}`);
    expect(p.url).not.toContain(KEY);
  }
  // the listener sees the worker's requests too: the chat calls are among them
  expect(w.urls.filter((u) => u.startsWith(`${s.base}/chat/completions`)).length).toBeGreaterThanOrEqual(24);
  expect(w.foreign()).toEqual([]);
  // the worker fetched the task list and the quick tasks, one file each, never the whole suite
  const taskFiles = w.urls.filter((u) => new URL(u).pathname.startsWith('/bench/tasks/')).map((u) => new URL(u).pathname.slice('/bench/tasks/'.length));
  expect(new Set(taskFiles)).toEqual(new Set(['index.json', ...QUICK.map((t) => `${t.id}.json`)]));
  expect(w.urls.some((u) => u.includes('suite'))).toBe(false);
  expect(page.url()).not.toContain(KEY);
  const stored = await page.evaluate(() => JSON.stringify({ ...localStorage }) + JSON.stringify({ ...sessionStorage }));
  expect(stored).not.toContain(KEY);
  expect(stored).toContain(s.base); // the endpoint is remembered
  expect(w.errors).toEqual([]);
});

test('a 429 is retried after the server\'s Retry-After, said on the page, and the reply then counts', async ({ page }) => {
  const s = await server((task) => (task === 'ms-index' ? '429-then-ok' : 'right'));
  await fill(page, s, { formats: ['ln-diff'] });
  await page.getByRole('radio', { name: 'Pick' }).check();
  await page.getByRole('checkbox', { name: /^ms-index / }).check();
  // Every text the message line shows, recorded as it changes (the retry's lasts only while the page waits).
  await page.evaluate(() => {
    const el = document.getElementById('bn-message')!;
    const said: string[] = [];
    (window as unknown as { said: string[] }).said = said;
    new MutationObserver(() => said.push(el.textContent ?? '')).observe(el, { childList: true, characterData: true, subtree: true });
  });
  await runButton(page).click();
  await expect(message(page)).toHaveText(`Done: 1 reply from ${MODEL}.`);
  const said = await page.evaluate(() => (window as unknown as { said: string[] }).said);
  expect(said.filter((m) => m.startsWith('Retrying'))).toEqual([
    expect.stringMatching(/^Retrying ms-index in ln-diff in 1 s \(attempt 2 of 3\): The server is limiting requests \(HTTP 429/),
  ]);
  expect(s.posts().length).toBe(2);
  await page.getByRole('button', { name: 'Reply: ms-index, ln-diff' }).click();
  await expect(page.locator('.bn-reply-label').first()).toContainText('2 attempts');
  await expectRates(page, { 'ln-diff': expected('ln-diff', () => '429-then-ok', QUICK.filter((t) => t.id === 'ms-index')) });
});

test('Stop mid-run: the held reply is stopped, those before it count, the rest are not sent', async ({ page, context }) => {
  let stalled!: () => void;
  const held = new Promise<void>((resolve) => (stalled = resolve));
  // One format, one request at a time: the fourth task's reply stops sending half-way.
  const fourth = QUICK[3].id;
  const behaviour = (task: string): Behaviour => (task === fourth ? 'stalled' : 'right');
  const s = await server(behaviour, { onStall: () => stalled() });
  const w = watch(context, page);
  await fill(page, s, { formats: ['ln-diff'], concurrency: 1 });
  await runButton(page).click();
  await held;
  await expect(page.locator('#bn-progress-text')).toHaveText('3 of 8 replies');
  // the replies so far are in the tables while the run goes
  await expect(page.getByRole('region', { name: 'Every reply' }).locator('tbody tr:not(.bn-reply-detail)')).toHaveCount(3);
  await expect(cell(page, 'ln-diff', 1)).toHaveText('3');
  await expect(page.getByRole('button', { name: 'Stop' })).toBeEnabled();
  await page.getByRole('button', { name: 'Stop' }).click();
  await expect(message(page)).toHaveText('Stopped: 3 of 8 replies finished; the results show those.');
  await expect(page.locator('#bn-meta')).toContainText('Stopped: 3 replies of 8 requests.');
  await expectRates(page, { 'ln-diff': expected('ln-diff', behaviour, QUICK.slice(0, 3)) });
  const rows = page.getByRole('region', { name: 'Every reply' }).locator('tbody tr:not(.bn-reply-detail)');
  await expect(rows).toHaveCount(4);
  await expect(rows.nth(3)).toHaveAttribute('data-task', fourth);
  await expect(rows.nth(3).locator('td').nth(1)).toHaveText('stopped');
  expect(s.posts()).toHaveLength(4);
  await expect(runButton(page)).toBeEnabled();
  await expect(page.getByRole('button', { name: 'Stop' })).toBeDisabled();
  expect(w.foreign()).toEqual([]);
  expect(w.errors).toEqual([]);
});

/** A run of the quick tasks in ln-diff only, with `behaviour`; returns the downloaded JSON. */
async function runAndSave(page: Page, s: BenchServer): Promise<string> {
  await runButton(page).click();
  await expect(message(page)).toHaveText(`Done: 8 replies from ${MODEL}.`);
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download JSON' }).click()]);
  expect(download.suggestedFilename()).toMatch(/^bench-test-model-\d{4}-\d\d-\d\dT\d{6}Z\.json$/);
  return readFileSync((await download.path())!, 'utf8');
}

test('the silent-reply limit is the run\'s idle timeout, bounded, and remembered', async ({ page }) => {
  const s = await server(() => 'right');
  await fill(page, s, { formats: ['ln-diff'] });
  const idle = page.getByLabel('Give up on a silent reply after (s)');
  await expect(idle).toHaveValue('120');
  await idle.fill('2');
  await idle.blur();
  await expect(idle).toHaveValue('10'); // the least it allows
  await idle.fill('900');
  await idle.blur();
  const run = JSON.parse(await runAndSave(page, s)) as { config: { idleTimeoutMs: number } };
  expect(run.config.idleTimeoutMs).toBe(900_000);
  await page.reload();
  await expect(page.getByLabel('Give up on a silent reply after (s)')).toHaveValue('900');
});

test('a run saved as JSON opens again as the same table, and two runs compare with the differences marked', async ({ page, context }) => {
  let mode: 'first' | 'second' = 'first';
  // The second run: ms-index gets a typo (it applies, and is no longer exact), the rest as before.
  const behaviour = (task: string): Behaviour => (mode === 'second' && task === 'ms-index' ? 'typo' : 'right');
  const s = await server(behaviour);
  const w = watch(context, page);
  await fill(page, s, { formats: ['ln-diff'] });
  const a = expected('ln-diff', behaviour);
  const first = await runAndSave(page, s);
  expect(first).not.toContain(KEY);
  const run = JSON.parse(first);
  expect(run.replies).toHaveLength(8);
  expect(run.config.endpoint).toEqual({ api: 'openai', baseUrl: s.base, model: MODEL });
  const before = await summaryText(page);

  mode = 'second';
  const b = expected('ln-diff', behaviour);
  expect(b.exact).toBe(a.exact - 1);
  const second = await runAndSave(page, s);
  await expectRates(page, { 'ln-diff': b });

  // Reopen the first run: the same table as when it ran.
  await page.locator('#bn-open-input').setInputFiles({ name: 'first.json', mimeType: 'application/json', buffer: Buffer.from(first) });
  await expect(message(page)).toHaveText('Opened first.json.');
  await expectRates(page, { 'ln-diff': a });
  expect(await summaryText(page)).toEqual(before);

  // Compare it with the second: exact down, the flipped task marked.
  await page.locator('#bn-compare-input').setInputFiles({ name: 'second.json', mimeType: 'application/json', buffer: Buffer.from(second) });
  const compared = page.getByRole('region', { name: 'Compared with second.json' });
  await expect(compared).toBeVisible();
  const rates = compared.getByRole('region', { name: 'Rates per format, A and B' }).locator('tr[data-format="ln-diff"]');
  await expect(rates.locator('td').nth(6)).toHaveText(`${percent(a.exact / 8)} (${a.exact}/8)`);
  await expect(rates.locator('td').nth(7)).toHaveText(`${percent(b.exact / 8)} (${b.exact}/8)`);
  await expect(rates.locator('td').nth(8)).toHaveText('▼ −13 pts (down)');
  await expect(rates.locator('td').nth(2)).toHaveText('= 0 (the same)');
  const flips = compared.getByRole('region', { name: 'Exact flips' }).locator('tbody tr');
  await expect(flips).toHaveCount(1);
  await expect(flips.first()).toHaveAttribute('data-task', 'ms-index');
  await expect(flips.first()).toContainText('▼ no longer exact');
  await expect(compared).toContainText('1 of 8 task × format pairs in both runs flipped: 0 became exact in B, 1 stopped being exact.');

  // A file that is not a run says what is wrong with it.
  await page.locator('#bn-open-input').setInputFiles({ name: 'broken.json', mimeType: 'application/json', buffer: Buffer.from('{"version": 1, "engine": 3}') });
  await expect(page.getByRole('alert')).toHaveText('broken.json could not be opened: engine must be a string.');
  expect(w.foreign()).toEqual([]);
  expect(w.errors).toEqual([]);
});

test('a reply cut off at the token cap is said in both tables; runs of different tasks compare over the tasks both answered', async ({ page }) => {
  const score = (exact: boolean) => ({ parsed: true, applied: exact, exact, edits: 1, matches: { exact: exact ? 1 : 0, offset: 0, whitespace: 0, fuzzy: 0, failed: exact ? 0 : 1 }, codes: exact ? {} : { 'no-match': 1 }, warnings: {} });
  const made = (replies: [string, boolean, boolean?][]) =>
    JSON.stringify({
      version: 1,
      engine: 'ln-diff 0.1.0',
      started: '2025-01-02T03:04:05.000Z',
      finished: '2025-01-02T03:05:05.000Z',
      stopped: false,
      config: { endpoint: { api: 'openai', baseUrl: 'http://127.0.0.1:8080/v1', model: MODEL }, formats: [PLANS.find((p) => p.format === 'udiff')], tasks: replies.map(([t]) => t), concurrency: 1, retries: 0, idleTimeoutMs: 60000 },
      replies: replies.map(([task, exact, cut]) => ({
        task, format: 'udiff', status: 'done', error: null, reply: 'r', attempts: 1, score: score(exact),
        tokens: { input: 10, output: 2, method: 'usage' }, ms: { firstToken: 1, total: 2 }, retry: null, ...(cut ? { cutOff: true } : {}),
      })),
    });
  await page.goto('/bench/');
  // A: one task, cut off at the cap and not exact. B: that task, still not exact, and three more, exact.
  await page.locator('#bn-open-input').setInputFiles({ name: 'a.json', mimeType: 'application/json', buffer: Buffer.from(made([['ms-index', false, true]])) });
  await expect(message(page)).toHaveText('Opened a.json.');
  await expect(summaryRow(page, 'udiff')).toContainText('cut off at the token cap 1');
  await expect(page.locator('tr[data-task="ms-index"][data-format="udiff"] td').nth(1)).toHaveText('cut off at the token cap');
  const b = made([['ms-index', false], ['nan-ci', true], ['bufferutil-c', true], ['normalize-css', true]]);
  await page.locator('#bn-compare-input').setInputFiles({ name: 'b.json', mimeType: 'application/json', buffer: Buffer.from(b) });
  const compared = page.getByRole('region', { name: 'Compared with b.json' });
  await expect(compared).toBeVisible();
  const rates = compared.getByRole('region', { name: 'Rates per format, A and B' }).locator('tr[data-format="udiff"]');
  await expect(rates.locator('td').nth(6)).toHaveText(`${percent(0)} (0/1)`);
  await expect(rates.locator('td').nth(7)).toHaveText(`${percent(3 / 4)} (3/4)`);
  // Not +75 pts: on the one task both answered, nothing changed.
  await expect(rates.locator('td').nth(8)).toHaveText('= 0 (the same)');
  await expect(compared).toContainText('A and B did not answer the same tasks: each change is over the task × format pairs both answered (udiff: 1)');
});

/** A run file of replies in udiff: [task, exact] each; `started` says when it ran. */
function runFile(started: string, replies: [string, boolean][]): string {
  const score = (exact: boolean) => ({ parsed: true, applied: exact, exact, edits: 1, matches: { exact: exact ? 1 : 0, offset: 0, whitespace: 0, fuzzy: 0, failed: exact ? 0 : 1 }, codes: exact ? {} : { 'no-match': 1 }, warnings: {} });
  return JSON.stringify({
    version: 1,
    engine: 'ln-diff 0.1.0',
    started,
    finished: started,
    stopped: false,
    config: { endpoint: { api: 'openai', baseUrl: 'http://127.0.0.1:8080/v1', model: MODEL }, formats: [PLANS.find((p) => p.format === 'udiff')], tasks: replies.map(([t]) => t), concurrency: 1, retries: 0, idleTimeoutMs: 60000 },
    replies: replies.map(([task, exact]) => ({
      task, format: 'udiff', status: 'done', error: null, reply: 'r', attempts: 1, score: score(exact),
      tokens: { input: 10, output: 2, method: 'usage' }, ms: { firstToken: 1, total: 2 }, retry: null,
    })),
  });
}

test('a comparison chooses its baseline: the older run to begin with, either by the radio buttons, the signs following', async ({ page }) => {
  // The old run: one of four exact. The new one: three of four.
  const tasks = ['ms-index', 'nan-ci', 'bufferutil-c', 'normalize-css'];
  const old = runFile('2025-01-01T00:00:00.000Z', tasks.map((t, i) => [t, i === 0]));
  const now = runFile('2025-02-01T00:00:00.000Z', tasks.map((t, i) => [t, i < 3]));
  await page.goto('/bench/');
  await page.locator('#bn-open-input').setInputFiles({ name: 'new.json', mimeType: 'application/json', buffer: Buffer.from(now) });
  await expect(message(page)).toHaveText('Opened new.json.');
  await page.locator('#bn-compare-input').setInputFiles({ name: 'old.json', mimeType: 'application/json', buffer: Buffer.from(old) });
  const compared = page.getByRole('region', { name: 'Compared with old.json' });
  await expect(compared).toBeVisible();
  const baseline = compared.getByRole('radiogroup', { name: 'Baseline (A)' });
  const rates = compared.getByRole('region', { name: 'Rates per format, A and B' }).locator('tr[data-format="udiff"]');
  // The opened run is older: it is the baseline, and the new run's gains show as gains.
  await expect(baseline.getByRole('radio', { name: 'old.json' })).toBeChecked();
  await expect(compared.locator('.bn-runs dt').first()).toHaveText('A, the baseline (old.json)');
  await expect(rates.locator('td').nth(6)).toHaveText(`${percent(1 / 4)} (1/4)`);
  await expect(rates.locator('td').nth(7)).toHaveText(`${percent(3 / 4)} (3/4)`);
  await expect(rates.locator('td').nth(8)).toHaveText('▲ +50 pts (up)');
  await expect(compared).toContainText('2 of 4 task × format pairs in both runs flipped: 2 became exact in B, 0 stopped being exact.');
  // The run above as the baseline: the same change, measured the other way.
  await baseline.getByRole('radio', { name: 'The run above' }).check();
  await expect(compared.locator('.bn-runs dt').first()).toHaveText('A, the baseline (the run above)');
  await expect(rates.locator('td').nth(6)).toHaveText(`${percent(3 / 4)} (3/4)`);
  await expect(rates.locator('td').nth(7)).toHaveText(`${percent(1 / 4)} (1/4)`);
  await expect(rates.locator('td').nth(8)).toHaveText('▼ −50 pts (down)');
  await expect(compared).toContainText('2 of 4 task × format pairs in both runs flipped: 0 became exact in B, 2 stopped being exact.');
  await expect(compared.getByRole('region', { name: 'Exact flips' }).locator('tbody tr').first()).toContainText('▼ no longer exact');
  // Opening the old run and comparing with the new one: the run above (older) is the baseline.
  await page.locator('#bn-open-input').setInputFiles({ name: 'old.json', mimeType: 'application/json', buffer: Buffer.from(old) });
  await page.locator('#bn-compare-input').setInputFiles({ name: 'new.json', mimeType: 'application/json', buffer: Buffer.from(now) });
  const again = page.getByRole('region', { name: 'Compared with new.json' });
  await expect(again.getByRole('radio', { name: 'The run above' })).toBeChecked();
  await expect(again.getByRole('region', { name: 'Rates per format, A and B' }).locator('tr[data-format="udiff"] td').nth(8)).toHaveText('▲ +50 pts (up)');
});

test('at 1366 × 768 the table per format fits its box, every format and every failure shown', async ({ page }) => {
  const s = await server((task, format) => (format === 'udiff' && task === 'ms-index' ? 'typo' : format === 'search-replace' && task === 'nan-ci' ? 'prose-only' : 'right'));
  await page.setViewportSize({ width: 1366, height: 768 });
  await fill(page, s, { formats: [...BENCH_FORMATS] });
  await runButton(page).click();
  await expect(message(page)).toHaveText(new RegExp(`^Done: \\d+ replies from ${MODEL}\\.$`), { timeout: 120_000 });
  const box = page.getByRole('region', { name: 'Results per format' });
  await expect(box.locator('tbody tr')).toHaveCount(BENCH_FORMATS.length);
  const [scrollWidth, clientWidth] = await box.evaluate((el) => [el.scrollWidth, el.clientWidth]);
  expect(scrollWidth).toBeLessThanOrEqual(clientWidth);
  // and the page itself does not scroll sideways
  const [pageWidth, innerWidth] = await page.evaluate(() => [document.scrollingElement!.scrollWidth, window.innerWidth]);
  expect(pageWidth).toBeLessThanOrEqual(innerWidth);
});

test('a share link opens the same run; a broken link says what is wrong', async ({ page, context, browser }) => {
  const s = await server((task) => (task === 'nan-ci' ? 'prose-only' : 'right'));
  const w = watch(context, page);
  await fill(page, s, { formats: ['ln-diff', 'udiff'] });
  await runButton(page).click();
  await expect(message(page)).toHaveText(`Done: 16 replies from ${MODEL}.`);
  const before = await summaryText(page);
  await page.getByRole('button', { name: 'Copy share link' }).click();
  const field = page.getByRole('textbox', { name: 'Share link' });
  await expect(field).toHaveValue(/\/bench\/#run=/);
  const link = await field.inputValue();
  expect(link.length).toBeLessThanOrEqual(65_536);
  expect(link).not.toContain(KEY);

  // A fresh browser (nothing remembered) opens the link: the same table.
  const other = await browser.newContext({ baseURL: ORIGIN });
  const fresh = await other.newPage();
  const errors: string[] = [];
  fresh.on('pageerror', (e) => errors.push(String(e)));
  await fresh.goto(link);
  await expect(fresh.locator('#bn-message')).toHaveText('Opened the run in the link.');
  expect(await summaryText(fresh)).toEqual(before);
  await expect(fresh.getByLabel('API key', { exact: true })).toHaveValue('');

  // Broken links: cut, altered, not a run.
  await fresh.goto('/bench/#run=not<a>link');
  await expect(fresh.getByRole('alert')).toHaveText(
    'The run in this link could not be opened: the link contains characters a run link never has; it may have been cut or altered.',
  );
  await fresh.goto(`/bench/#${link.split('#')[1].slice(0, 200)}`);
  await expect(fresh.getByRole('alert')).toHaveText('The run in this link could not be opened: the link could not be decompressed; it may have been cut short.');
  await fresh.goto('about:blank');
  await fresh.goto('/bench/#run=N4XyA');
  await expect(fresh.getByRole('alert')).toHaveText(/^The run in this link could not be opened: .+\.$/);
  await expect(fresh.locator('#bn-run-view')).toBeHidden();
  await expect(fresh.locator('#bn-empty')).toBeVisible();
  expect(errors).toEqual([]);
  await other.close();
  expect(w.foreign()).toEqual([]);
});

test('a run too long for a link says so and offers the JSON; a dropped file opens', async ({ page, context }) => {
  // axios-changelog's whole file is about 290,000 characters: its reply in `whole` makes a link far over 65,536.
  const big = suite.tasks.find((t) => t.id === 'axios-changelog')!;
  const s = await startBenchServer({ tasks: [big], plans: PLANS, behaviour: () => 'right', key: KEY });
  servers.push(s);
  const w = watch(context, page);
  await fill(page, s, { formats: ['whole'] });
  await page.getByRole('radio', { name: 'Pick' }).check();
  await page.getByRole('checkbox', { name: /^axios-changelog / }).check();
  await runButton(page).click();
  await expect(message(page)).toHaveText(`Done: 1 reply from ${MODEL}.`);
  await page.getByRole('button', { name: 'Copy share link' }).click();
  const note = page.locator('#bn-note');
  await expect(note).toContainText(/^The link would be [\d,]+ characters long, more than 65,536: too long to share\. Share the JSON file instead:/);
  await expect(page.getByRole('textbox', { name: 'Share link' })).toHaveCount(0);
  const [download] = await Promise.all([page.waitForEvent('download'), note.getByRole('button', { name: 'Download JSON' }).click()]);
  const json = readFileSync((await download.path())!, 'utf8');
  expect(JSON.parse(json).replies[0].task).toBe('axios-changelog');

  // Dropped on the page, a run file opens as the run shown.
  await page.goto('/bench/');
  await expect(page.locator('#bn-empty')).toBeVisible();
  const drop = await page.evaluateHandle((text) => {
    const data = new DataTransfer();
    data.items.add(new File([text], 'dropped.json', { type: 'application/json' }));
    return data;
  }, json);
  await page.dispatchEvent('#bn-drop', 'dragover', { dataTransfer: drop });
  await page.dispatchEvent('#bn-drop', 'drop', { dataTransfer: drop });
  await expect(message(page)).toHaveText('Opened dropped.json.');
  await expect(page.locator('tr[data-task="axios-changelog"][data-format="whole"]')).toBeVisible();
  expect(w.foreign()).toEqual([]);
  expect(w.errors).toEqual([]);
});

test('a reply opens in the playground with its files and format, and the playground shows its diagnostics', async ({ page, context }) => {
  const s = await server((task, format) => (format === 'udiff' && task === 'ms-index' ? 'typo' : 'right'));
  await fill(page, s, { formats: ['udiff'] });
  await runButton(page).click();
  await expect(message(page)).toHaveText(`Done: 8 replies from ${MODEL}.`);
  const row = page.locator('tr[data-task="ms-index"][data-format="udiff"]');
  // every row has its link as it is drawn, scrolled into view or not (the last row is far below)
  const links = page.getByRole('region', { name: 'Every reply' }).locator('a.bn-open');
  await expect(links).toHaveCount(8);
  expect(await links.evaluateAll((as) => as.filter((a) => !/\/playground\/#b=/.test(a.getAttribute('href') ?? '')).length)).toBe(0);
  const last = page.locator(`tr[data-task="${QUICK[QUICK.length - 1].id}"][data-format="udiff"] a.bn-open`);
  expect(await last.evaluate((a) => a.getBoundingClientRect().top > window.innerHeight)).toBe(true);
  const open = row.getByRole('link', { name: 'Open in playground: ms-index, udiff' });
  await expect(open).toHaveAttribute('href', /\/playground\/#b=/);
  const task = QUICK.find((t) => t.id === 'ms-index')!;
  const scored = scoreReply(task, 'udiff', scriptedReply(task, 'udiff', 'typo').text);
  const [pg] = await Promise.all([context.waitForEvent('page'), open.click()]);
  await pg.waitForLoadState();
  await expect(pg.getByRole('combobox', { name: 'Format' })).toHaveValue('udiff');
  const diagnostics = pg.getByRole('region', { name: 'Diagnostics', exact: true });
  const edits = `${scored.score.edits} edit${scored.score.edits === 1 ? '' : 's'}`;
  await expect(diagnostics.locator('#pg-summary')).toContainText(scored.score.applied ? `All ${edits} applied` : `of ${edits} applied`);
  await expect(pg.getByLabel('Model reply')).toContainText('Here are the edits that turn SOURCE into TARGET.');
});

test('Anthropic Messages with a Claude model: the prompts of its family, the key in x-api-key', async ({ page, context }) => {
  const claude = BENCH_FORMATS.map((f) => formatPlan(table, f, 'claude-test'));
  const s = await server(() => 'right', { plans: claude });
  const w = watch(context, page);
  await page.goto('/bench/');
  await page.getByLabel('API', { exact: true }).selectOption('anthropic');
  await expect(page.getByLabel('Base URL')).toHaveValue('https://api.anthropic.com');
  await expect(needs(page)).toHaveText('Enter a model name and an API key for Anthropic.');
  await page.getByLabel('Base URL').fill(s.origin);
  await page.getByLabel('Model', { exact: true }).fill('claude-test');
  await expect(needs(page)).toHaveText('Enter an API key for Anthropic.');
  await page.getByLabel('API key', { exact: true }).fill(KEY);
  await expect(page.locator('#bn-family-note')).toHaveText('From the model name: Anthropic Claude.');
  const prompt = page.locator('li[data-format="ln-diff"] details summary');
  await expect(prompt).toHaveText('Prompt: Anthropic Claude');
  // a family chosen by hand: its prompts, whatever the model
  await page.getByLabel('Prompts for').selectOption('qwen');
  await expect(prompt).toHaveText('Prompt: Qwen coder');
  await page.getByLabel('Prompts for').selectOption('auto');
  await expect(prompt).toHaveText('Prompt: Anthropic Claude');
  for (const f of ['search-replace', 'udiff']) await page.getByRole('checkbox', { name: new RegExp(`^${f} `) }).uncheck();
  await page.getByRole('radio', { name: 'Pick' }).check();
  await page.getByRole('checkbox', { name: /^ms-index / }).check();
  await runButton(page).click();
  await expect(message(page)).toHaveText('Done: 1 reply from claude-test.');
  await expectRates(page, { 'ln-diff': expected('ln-diff', () => 'right', QUICK.filter((t) => t.id === 'ms-index')) });
  const [post] = s.posts();
  expect(post.url).toBe('/v1/messages');
  expect(post.headers['x-api-key']).toBe(KEY);
  expect(post.headers.authorization).toBeUndefined();
  expect(JSON.parse(post.body).system).toBe(claude.find((p) => p.format === 'ln-diff')!.system);
  expect(w.foreign()).toEqual([]);
  expect(w.errors).toEqual([]);
});

test('the key is remembered on this device only when asked, and forgotten when unticked', async ({ page }) => {
  await page.goto('/bench/');
  await page.getByLabel('API key', { exact: true }).fill(KEY);
  expect(await page.evaluate(() => JSON.stringify({ ...localStorage }))).not.toContain(KEY);
  await page.getByLabel('Remember the key on this device').check();
  expect(await page.evaluate(() => localStorage.getItem('ln-diff.bench.key'))).toBe(KEY);
  await page.reload();
  await expect(page.getByLabel('API key', { exact: true })).toHaveValue(KEY);
  await page.getByLabel('Remember the key on this device').uncheck();
  expect(await page.evaluate(() => JSON.stringify({ ...localStorage }))).not.toContain(KEY);
  await page.reload();
  await expect(page.getByLabel('API key', { exact: true })).toHaveValue('');
});

test('an edited prompt is sent as family custom', async ({ page }) => {
  const edited = `${PLANS.find((p) => p.format === 'ln-diff')!.system}\n\nKeep every edit small.`;
  const s = await server(() => 'right', { plans: [...PLANS, { format: 'ln-diff', family: 'custom', system: edited, reminder: null }] });
  await fill(page, s, { formats: ['ln-diff'] });
  await page.getByRole('radio', { name: 'Pick' }).check();
  await page.getByRole('checkbox', { name: /^ms-index / }).check();
  const prompt = page.locator('li[data-format="ln-diff"] details');
  await expect(prompt.locator('summary')).toHaveText('Prompt: Llama and small local models');
  await prompt.locator('summary').click();
  await page.getByLabel('System prompt for ln-diff').fill(edited);
  await expect(prompt.locator('summary')).toHaveText('Prompt: custom (edited)');
  await runButton(page).click();
  await expect(message(page)).toHaveText(`Done: 1 reply from ${MODEL}.`);
  await expect(page.locator('#bn-meta')).toContainText('prompts: custom');
  expect(JSON.parse(s.posts()[0].body).messages[0].content).toBe(edited);
});

test('axe finds nothing in light or dark, with results, a reply and a comparison shown; at 390 px nothing scrolls sideways', async ({ page }) => {
  const behaviour = (task: string, format: string): Behaviour => (format === 'udiff' && task === 'ms-index' ? 'typo' : 'right');
  const s = await server(behaviour);
  await fill(page, s, { formats: ['ln-diff', 'udiff'] });
  await runButton(page).click();
  await expect(message(page)).toHaveText(`Done: 16 replies from ${MODEL}.`);
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download JSON' }).click()]);
  await page.locator('#bn-compare-input').setInputFiles(await download.path());
  await expect(page.locator('#bn-compare')).toBeVisible();
  await page.getByRole('button', { name: 'Reply: ms-index, udiff' }).click();
  await page.locator('li[data-format="ln-diff"] details summary').click();
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    const { violations } = await new AxeBuilder({ page }).analyze();
    expect(violations.map((v) => `${scheme}: ${v.id} ${v.nodes.map((n) => n.target).join(' ')}`)).toEqual([]);
  }
  await page.setViewportSize({ width: 390, height: 844 });
  const wide = await page.evaluate(() =>
    [...document.querySelectorAll('body *')]
      .filter((el) => !el.closest('.table-scroll, pre, svg') || el.matches('.table-scroll'))
      // What is not drawn (the links of a closed menu) takes no room.
      .filter((el) => el.checkVisibility())
      .filter((el) => el.getBoundingClientRect().right > window.innerWidth + 0.5)
      .map((el) => `${el.tagName.toLowerCase()}#${el.id}.${el.className}`),
  );
  expect(wide).toEqual([]);
  const [scrollWidth, innerWidth] = await page.evaluate(() => [document.scrollingElement!.scrollWidth, window.innerWidth]);
  expect(scrollWidth).toBeLessThanOrEqual(innerWidth);
});

// Screenshots for a look (light, dark, phone): LN_DIFF_BENCH_SHOTS=/tmp/bench-shots.
test('screenshots', async ({ page }) => {
  const dir = process.env.LN_DIFF_BENCH_SHOTS;
  test.skip(!dir, 'set LN_DIFF_BENCH_SHOTS to a folder to take them');
  mkdirSync(dir!, { recursive: true });
  let second = false;
  const s = await server((task, format) =>
    format === 'search-replace' && task === 'ms-index' ? 'prose-only' : format === 'udiff' && task === (second ? 'ms-index' : 'nan-ci') ? 'typo' : 'right',
  );
  await fill(page, s);
  await runButton(page).click();
  await expect(message(page)).toHaveText(`Done: 24 replies from ${MODEL}.`);
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download JSON' }).click()]);
  const first = readFileSync((await download.path())!, 'utf8');
  second = true;
  await page.locator('li[data-format="udiff"] details summary').click();
  await runButton(page).click();
  await expect(message(page)).toHaveText(`Done: 24 replies from ${MODEL}.`);
  await page.locator('#bn-compare-input').setInputFiles({ name: 'first.json', mimeType: 'application/json', buffer: Buffer.from(first) });
  await expect(page.locator('#bn-compare')).toBeVisible();
  await page.getByRole('button', { name: 'Reply: ms-index, search-replace' }).click();
  for (const [name, size, scheme] of [
    ['desktop-light', { width: 1366, height: 768 }, 'light'],
    ['desktop-dark', { width: 1366, height: 768 }, 'dark'],
    ['phone-dark', { width: 390, height: 844 }, 'dark'],
    ['phone', { width: 390, height: 844 }, 'light'],
  ] as const) {
    await page.setViewportSize(size);
    await page.emulateMedia({ colorScheme: scheme });
    await page.screenshot({ path: `${dir}/${name}.png`, fullPage: true });
    await page.locator('#bn-compare').screenshot({ path: `${dir}/${name}-compare.png` });
    if (name === 'phone') {
      const height = await page.evaluate(() => document.documentElement.scrollHeight);
      for (let y = 0, k = 1; y < height; y += 1200, k++)
        await page.screenshot({ path: `${dir}/phone-${k}.png`, fullPage: true, clip: { x: 0, y, width: 390, height: Math.min(1200, height - y) } });
    }
  }
});

