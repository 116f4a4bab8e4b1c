// The playground in a real browser, on files of real size: paste to result,
// keystroke to diagnostics, the longest main-thread tasks per action, the
// page's heap, and the JavaScript each page ships; with --lighthouse,
// Lighthouse scores. Two cases: a 5,000-line source with a 50-edit reply,
// and a 20,000-line source (about 1.1 MB) with a 20-edit reply. Paths on
// the result view besides: an edit added to the reply (and taken away
// again), "Expand unchanged lines" and back, a live run (the reply streamed
// in 40 chunks from a stand-in chat endpoint on 127.0.0.1, the one the
// browser tests use: no network), typing a word and erasing it in the
// source without waiting between keys, and typing in the reply while an
// edit fails (one more edit, citing a line the file does not have).
//
// Usage:
//   npm run build && npm run bench:site
//   npm run bench:site -- --dist DIR          the built site to measure (default dist/)
//   npm run bench:site -- --baseline FILE     figures to print next to these (default bench/fixtures/site-baseline.json)
//   npm run bench:site -- --record FILE       write this run's figures as a baseline (add --commit SHA to name the build)
//   npm run bench:site -- --old DIR [--old-commit SHA]   measure another build in the same run, case by case in
//                                             turn with --dist, and show it as OLD instead of the baseline
//   npm run bench:site -- --runs N            pastes per case (default 3), --keys N keystrokes per editor (default 40)
//   npm run bench:site -- --cases 5k,20k --replay-budget 300 --lighthouse
//   npm run bench:site -- --paths adding,expanding,live,quick   only these paths (pasting, typing, selecting,
//                                             switching, replaying, adding, expanding, live, quick, failing; default all);
//                                             without pasting, the session opens with the source in place
// Prints one table, the baseline's figures next to this run's; asserts nothing about time.

import { createServer, type Server } from 'node:http';
import { existsSync, mkdirSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { availableParallelism, cpus, loadavg, totalmem } from 'node:os';
import { dirname, extname, join, relative, resolve, sep } from 'node:path';
import { gzipSync } from 'node:zlib';
import { execFile, execFileSync } from 'node:child_process';
import { promisify } from 'node:util';
import { chromium, type Browser, type ElementHandle, type Locator, type Page } from '@playwright/test';
import { encodeSession } from '../src/share/share.ts';
import { applyRequest } from '../src/index.ts';
import { largeReply as reply, largeSource as source } from '../test/e2e/fixtures/large.ts';
import { chunksOf, startModelServer } from '../test/e2e/fixtures/model-server.ts';

// ---------------------------------------------------------------- options

const args = process.argv.slice(2);
const option = (name: string): string | undefined => {
  const i = args.indexOf(name);
  if (i < 0) return undefined;
  const value = args[i + 1];
  if (value === undefined || value.startsWith('--')) {
    console.error(`${name} needs a value`);
    process.exit(2);
  }
  return value;
};
const HERE = dirname(new URL(import.meta.url).pathname);
const DIST = resolve(option('--dist') ?? join(HERE, '..', 'dist'));
/** Another build measured in the same run, case by case in turn with DIST, and shown as OLD. */
const OLD_DIST = option('--old') === undefined ? null : resolve(option('--old')!);
const BASELINE = resolve(option('--baseline') ?? join(HERE, 'fixtures', 'site-baseline.json'));
const RECORD = option('--record');
const RUNS = Number(option('--runs') ?? 3);
const KEYS = Number(option('--keys') ?? 40);
const REPLAY_BUDGET_MS = Number(option('--replay-budget') ?? 300) * 1000;
const CASE_IDS = (option('--cases') ?? '5k,20k').split(',');
const PATHS = ['pasting', 'typing', 'selecting', 'switching', 'replaying', 'adding', 'expanding', 'live', 'quick', 'failing'] as const;
const PATH_IDS = (option('--paths') ?? PATHS.join(',')).split(',');
for (const p of PATH_IDS)
  if (!(PATHS as readonly string[]).includes(p)) {
    console.error(`--paths: no path "${p}" (the paths: ${PATHS.join(', ')})`);
    process.exit(2);
  }
const runs = (p: (typeof PATHS)[number]) => PATH_IDS.includes(p);
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const FLAGS = ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];
/** How long a step may take before the bench gives up on it: generous, the page may be slow. */
const STEP_MS = 180_000;

for (const dir of [DIST, OLD_DIST]) {
  if (dir && !existsSync(join(dir, 'index.html'))) {
    console.error(`No built site in ${dir}: run npm run build first (or pass --dist DIR).`);
    process.exit(2);
  }
}

// ---------------------------------------------------------------- a static server

const TYPES: Record<string, string> = { '.html': 'text/html', '.js': 'text/javascript', '.css': 'text/css', '.json': 'application/json', '.svg': 'image/svg+xml' };
function serve(dist: string): Promise<{ server: Server; origin: string }> {
  const server = createServer((req, res) => {
    let path = decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname);
    if (path.endsWith('/')) path += 'index.html';
    const file = join(dist, path);
    if (!(file + sep).startsWith(dist + sep) || !existsSync(file) || statSync(file).isDirectory()) {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream' }).end(readFileSync(file));
  });
  return new Promise((done) =>
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      done({ server, origin: `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}` });
    }),
  );
}

// ---------------------------------------------------------------- inputs
// source() and reply(): the large case, shared with the browser tests (test/e2e/fixtures/large.ts).

/** A second, small file: switching tabs needs two. No edit names it. */
function helper(): string {
  let out = '';
  for (let i = 1; i <= 200; i++) out += `HELPER_${i} = ${i} * 2  # constant ${i}\n`;
  return out;
}

interface Case {
  id: string;
  lines: number;
  edits: number;
  /** Goal for keystroke → diagnostics p95, ms. */
  keyGoal: number;
}
const CASES: Case[] = [
  { id: '5k', lines: 5000, edits: 50, keyGoal: 50 },
  { id: '20k', lines: 20_000, edits: 20, keyGoal: 100 },
].filter((c) => CASE_IDS.includes(c.id));

// What the page shows once a case's input is complete. The summary's wording
// is the page's ("All 20 edits applied."); the marker is edit #1's inserted
// line, which the merge view shows on its result side.
const finalSummary = (c: Case) => `All ${c.edits} edits applied`;
const MARKER = 'value_2 = compute(beta, alpha, 2)';
/** One more edit for the reply, of line 7 (which no other edit names). */
/** One more edit that fails: it cites line 9 as a line the file does not have (no line holds "step 90009"). */
const FAILING_EDIT = 'app.py\n<editblock>\n<<<<<<< REMOVE\n9│    value_9 = compute(alpha, beta, 9)  # step 90009 of a long and different loop\n=======\n    │    value_9 = compute(beta, alpha, 9)\n>>>>>>> INSERT\n</editblock>\n';
const EXTRA_EDIT = 'app.py\n<editblock>\n<<<<<<< REMOVE\n7│    value_7 = compute(alpha, beta, 7)  # step 7\n=======\n    │    value_7 = compute(beta, alpha, 7)\n>>>>>>> INSERT\n</editblock>\n';

// ---------------------------------------------------------------- figures

type Action =
  | 'pasting'
  | 'typing'
  | 'selecting edits'
  | 'switching files'
  | 'replaying'
  | 'adding an edit to the reply'
  | 'scrolling to the result view'
  | 'expanding unchanged lines, first click'
  | 'expanding unchanged lines'
  | 'live run'
  | 'typing with many edits'
  | 'typing while an edit fails';
const ACTIONS: Action[] = [
  'pasting',
  'typing',
  'selecting edits',
  'switching files',
  'replaying',
  'adding an edit to the reply',
  'scrolling to the result view',
  'expanding unchanged lines, first click',
  'expanding unchanged lines',
  'live run',
  'typing with many edits',
  'typing while an edit fails',
];

/** Actions whose long tasks are reported, with no goal: a paste, and scrolling the result view into sight. */
const REPORTED: Action[] = ['pasting', 'scrolling to the result view'];

interface CaseFigures {
  lines: number;
  chars: number;
  edits: number;
  /** ms from the paste event to the result shown, one per run. */
  pasteSource: number[];
  pasteReply: number[];
  pasteMethod: string;
  /** ms from keydown to the diagnostics showing the new text, one per keystroke. */
  keySource: number[];
  keyReply: number[];
  /** …in the reply, in the cited line of an edit that fails (a figure recorded before this path: absent). */
  keyFailing?: number[];
  /** Durations (ms) of every long task (> 50 ms) during each action, longest first. */
  longTasks: Record<Action, number[]>;
  /** The actions measured (a figure recorded before there was this list: the first five). */
  ran?: Action[];
  replay: { done: boolean; ms: number; progress: string };
  /** The page's JavaScript heap after the case, after a collection (bytes; workers not included). */
  heapUsed: number;
}

interface Figures {
  date: string;
  commit: string;
  dist: string;
  machine: { nproc: number; cpu: string; memoryGB: number; chromium: string; node: string; platform: string; load: { start: number; end: number } };
  playgroundJsGzip: number;
  cases: Record<string, CaseFigures>;
}

const quantile = (xs: number[], q: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.min(s.length - 1, Math.ceil(q * s.length) - 1)] : NaN;
};

// ---------------------------------------------------------------- page instrumentation

// Installed before the page's own scripts: records every long task, and
// offers two watches the bench arms before an action. Times are the page's
// performance.now(); "shown" is the first task after the next animation frame
// once the DOM holds the expected text (the frame that paints it).
function instrument() {
  const w = window as unknown as { __bench: unknown };
  const long: { start: number; duration: number }[] = [];
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) long.push({ start: e.startTime, duration: e.duration });
  }).observe({ type: 'longtask', buffered: true });
  const afterFrame = (done: (t: number) => void) =>
    requestAnimationFrame(() => {
      const channel = new MessageChannel();
      channel.port1.onmessage = () => done(performance.now());
      channel.port2.postMessage(null);
    });
  const text = (el: Element) => el.textContent ?? '';

  let pasteState: { t0: number | null; result: { ms: number; domMs: number } | null; observer: MutationObserver | null } = { t0: null, result: null, observer: null };
  window.addEventListener(
    'paste',
    (e) => {
      if (pasteState.observer && pasteState.t0 === null) pasteState.t0 = e.timeStamp;
    },
    true,
  );

  // One keystroke at a time: armKey names the text the region will hold once the keystroke's result is shown.
  let keyState: { t0: number | null; target: string | null; region: Element | null; observer: MutationObserver | null; results: { ms: number; domMs: number }[] } = {
    t0: null,
    target: null,
    region: null,
    observer: null,
    results: [],
  };
  window.addEventListener(
    'keydown',
    (e) => {
      if (keyState.target !== null && keyState.t0 === null) keyState.t0 = e.timeStamp;
    },
    true,
  );
  let keyQueued = false;
  const keyCheck = () => {
    keyQueued = false;
    const s = keyState;
    if (s.t0 === null || s.target === null || !s.region || text(s.region) !== s.target) return;
    const t0 = s.t0;
    const dom = performance.now();
    s.target = null;
    s.t0 = null;
    afterFrame((t) => s.results.push({ ms: t - t0, domMs: dom - t0 }));
  };

  w.__bench = {
    long,
    now: () => performance.now(),
    /** Watch for the result of a paste: the region holds `summary` and the merge view `marker`. */
    armPaste(region: Element, merge: Element, summary: string, marker: string) {
      pasteState.observer?.disconnect();
      const state: typeof pasteState = { t0: null, result: null, observer: null };
      let queued = false;
      const check = () => {
        queued = false;
        if (state.t0 === null || state.result || !state.observer) return;
        if (!text(region).includes(summary) || !text(merge).includes(marker)) return;
        const t0 = state.t0;
        const dom = performance.now();
        state.observer.disconnect();
        state.observer = null;
        afterFrame((t) => (state.result = { ms: t - t0, domMs: dom - t0 }));
      };
      state.observer = new MutationObserver(() => {
        if (!queued) queueMicrotask(check);
        queued = true;
      });
      for (const el of [region, merge]) state.observer.observe(el, { subtree: true, childList: true, characterData: true });
      pasteState = state;
    },
    pasteResult: () => pasteState.result,
    pasteStarted: () => pasteState.t0 !== null,
    /** Watch the region for the next keystroke: done when its text is `target`. */
    armKey(region: Element, target: string) {
      keyState.t0 = null;
      keyState.target = target;
      if (keyState.region !== region) {
        keyState.observer?.disconnect();
        keyState.region = region;
        keyState.observer = new MutationObserver(() => {
          if (keyState.target === null || keyQueued) return;
          keyQueued = true;
          queueMicrotask(keyCheck);
        });
        keyState.observer.observe(region, { subtree: true, childList: true, characterData: true });
      }
    },
    keyResults: () => keyState.results,
    regionText: (region: Element) => text(region),
  };
}

type Bench = {
  long: { start: number; duration: number }[];
  now(): number;
  armPaste(region: Element, merge: Element, summary: string, marker: string): void;
  pasteResult(): { ms: number; domMs: number } | null;
  pasteStarted(): boolean;
  armKey(region: Element, target: string): void;
  keyResults(): { ms: number; domMs: number }[];
  regionText(region: Element): string;
};
declare global {
  interface Window {
    __bench: Bench;
  }
}

// ---------------------------------------------------------------- steps

/** Run one step; a failure names the step and shows what the Diagnostics region held. */
async function step<T>(page: Page, name: string, fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (e) {
    const held = async (where: Locator) => {
      try {
        return ((await where.textContent({ timeout: 2000 })) ?? '').replace(/\s+/g, ' ').slice(0, 300);
      } catch {
        return '(could not read it)';
      }
    };
    throw new Error(
      `bench:site: step "${name}" failed: ${e instanceof Error ? e.message.split('\n')[0] : String(e)}\n` +
        `  The Diagnostics region held: ${await held(page.getByRole('region', { name: 'Diagnostics', exact: true }))}\n` +
        `  The merge view held: ${await held(page.locator('#pg-merge'))}`,
    );
  }
}

/** Two animation frames and a moment: what a keystroke or a click set off has run. */
const settle = (page: Page, ms = 150) =>
  page.evaluate((ms) => new Promise<void>((done) => requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(done, ms)))), ms);

async function regionText(page: Page, region: ElementHandle<Element>): Promise<string> {
  return page.evaluate((r) => window.__bench.regionText(r), region);
}

async function waitRegion(page: Page, region: ElementHandle<Element>, test: 'includes' | 'excludes' | 'equals' | 'differs', text: string, timeout = STEP_MS) {
  await page.waitForFunction(
    ({ r, test, text }) => {
      const t = r.textContent ?? '';
      return test === 'includes' ? t.includes(text) : test === 'excludes' ? !t.includes(text) : test === 'equals' ? t === text : t !== text;
    },
    { r: region, test, text },
    { timeout, polling: 50 },
  );
}

/** Put `text` in the editor as a user's paste: Control+V with the text on the clipboard, or, where the clipboard is refused, a paste event. */
async function paste(page: Page, editor: Locator, text: string, atEnd = false): Promise<string> {
  await editor.click();
  if (atEnd) await page.keyboard.press('Control+End');
  const clipboard = await page.evaluate(async (text) => {
    try {
      await navigator.clipboard.writeText(text);
      return (await navigator.clipboard.readText()) === text;
    } catch {
      return false;
    }
  }, text);
  if (clipboard) {
    await editor.press('Control+V');
    return 'Control+V';
  }
  await editor.evaluate((el, text) => {
    const data = new DataTransfer();
    data.setData('text/plain', text);
    (el.querySelector('.cm-content') ?? el).dispatchEvent(new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true }));
  }, text);
  return 'paste event';
}

async function clear(page: Page, editor: Locator) {
  await editor.click();
  await page.keyboard.press('Control+A');
  await page.keyboard.press('Delete');
}

async function runCase(browser: Browser, origin: string, c: Case): Promise<CaseFigures> {
  const src = source(c.lines);
  const rep = reply(c.lines, c.edits);
  const check = applyRequest({ format: 'ln-diff', files: { 'app.py': src }, response: rep });
  if (check.edits.length !== c.edits || check.edits.some((e) => e.status !== 'applied')) throw new Error(`bench:site: the ${c.id} inputs do not apply cleanly in the engine`);

  const context = await browser.newContext({ viewport: { width: 1400, height: 1000 }, permissions: ['clipboard-read', 'clipboard-write'] });
  // As text, with the helper tsx's compiler names inner functions with (it is not in the page).
  await context.addInitScript({ content: `var __name = (f) => f; (${instrument.toString()})();` });
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  const windows: { action: Action; start: number; end: number }[] = [];
  const during = async (action: Action, fn: () => Promise<void>) => {
    const start = await page.evaluate(() => window.__bench.now());
    await fn();
    await settle(page, 300);
    windows.push({ action, start, end: await page.evaluate(() => window.__bench.now()) });
  };
  const log = (what: string) => process.stdout.write(`  [${c.id}] ${what}\n`);

  const summary = finalSummary(c);
  // The session starts with the reply and an empty app.py, and a second file for the tabs.
  // (Without the pastes, app.py holds the source from the start.)
  const hash = encodeSession({ format: 'ln-diff', files: [{ name: 'app.py', text: runs('pasting') ? '' : src }, { name: 'util.py', text: helper() }], reply: rep });
  await step(page, 'open the playground', async () => {
    await page.goto(`${origin}/playground/#${hash}`, { timeout: STEP_MS });
    await page.getByRole('region', { name: 'Diagnostics', exact: true }).locator('.ld-row[data-edit]').first().waitFor({ timeout: STEP_MS });
  });
  const regionLoc = page.getByRole('region', { name: 'Diagnostics', exact: true });
  const region = (await regionLoc.elementHandle())!;
  const merge = (await page.locator('#pg-merge').elementHandle())!;
  const sourceEditor = page.getByLabel('Source: app.py', { exact: true });
  const replyEditor = page.getByLabel('Model reply', { exact: true });
  await step(page, 'select the app.py tab', async () => {
    await page.getByRole('tab', { name: 'app.py' }).click();
    await sourceEditor.waitFor({ state: 'visible', timeout: STEP_MS });
  });

  // ------------------------------------------------ pastes
  const pasteSource: number[] = [];
  const pasteReply: number[] = [];
  let pasteMethod = '';
  const measurePaste = async (what: string, editor: Locator, text: string, into: number[]) => {
    // The page and the merge view at their top: the result's first lines (edit #1's) are the ones a view shows.
    await page.evaluate((m) => {
      window.scrollTo(0, 0);
      for (const el of [m, ...m.querySelectorAll('*')]) if (el.scrollTop) el.scrollTop = 0;
    }, merge);
    await settle(page, 300);
    await page.evaluate(({ r, m, s, k }) => window.__bench.armPaste(r, m, s, k), { r: region, m: merge, s: summary, k: MARKER });
    let ms = NaN;
    await during('pasting', async () => {
      pasteMethod = await paste(page, editor, text);
      await page.waitForFunction(() => window.__bench.pasteStarted(), null, { timeout: STEP_MS }).catch(() => {
        throw new Error(`no paste event reached the page (${pasteMethod})`);
      });
      const result = await page.waitForFunction(() => window.__bench.pasteResult(), null, { timeout: STEP_MS, polling: 50 });
      ms = (await result.jsonValue())!.ms;
    });
    into.push(ms);
    log(`paste ${what}: ${ms.toFixed(0)} ms`);
  };
  if (runs('pasting')) {
    for (let run = 1; run <= RUNS; run++) {
      if (run > 1)
        await step(page, `empty app.py before paste ${run}`, async () => {
          await clear(page, sourceEditor);
          await waitRegion(page, region, 'excludes', summary);
        });
      await settle(page, 500);
      await step(page, `paste the source (run ${run}): wait for "${summary}" and the merge view showing "${MARKER}"`, () => measurePaste('source', sourceEditor, src, pasteSource));
      await settle(page, 500);
      await step(page, `empty the reply before paste ${run}`, async () => {
        await clear(page, replyEditor);
        await page.waitForFunction((r) => r.querySelectorAll('.ld-row[data-edit]').length === 0, region, { timeout: STEP_MS, polling: 50 });
      });
      await settle(page, 500);
      await step(page, `paste the reply (run ${run}): wait for "${summary}" and the merge view showing "${MARKER}"`, () => measurePaste('reply', replyEditor, rep, pasteReply));
      await settle(page, 500);
    }
  }

  // ------------------------------------------------ typing
  // At the end of line 2 of the source (the line edit #1 replaces), or of the
  // reply's line 4 (edit #1's cited line): "x" makes edit #1 a fuzzy match,
  // Backspace makes it exact again, and each changes the diagnostics.
  // With `up`, the cursor goes that many lines up from the editor's end instead.
  const typeIn = async (what: string, editor: Locator, down: number, into: number[], up?: number) => {
    await step(page, `put the cursor in the ${what}`, async () => {
      await editor.click();
      await page.keyboard.press(up === undefined ? 'Control+Home' : 'Control+End');
      for (let i = 0; i < (up ?? down); i++) await page.keyboard.press(up === undefined ? 'ArrowDown' : 'ArrowUp');
      await page.keyboard.press('End');
      await settle(page, 300);
    });
    const before = await regionText(page, region);
    // One unmeasured x / Backspace learns the text the diagnostics take after "x".
    const after = await step(page, `type "x" in the ${what} (unmeasured): wait for the diagnostics to change`, async () => {
      await page.keyboard.press('x');
      await waitRegion(page, region, 'differs', before);
      await settle(page, 1000);
      return regionText(page, region);
    });
    await step(page, `Backspace in the ${what} (unmeasured): wait for the diagnostics as before`, async () => {
      await page.keyboard.press('Backspace');
      await waitRegion(page, region, 'equals', before);
      await settle(page, 300);
    });
    for (let i = 0; i < KEYS; i++) {
      const key = i % 2 === 0 ? 'x' : 'Backspace';
      await step(page, `keystroke ${i + 1} of ${KEYS} in the ${what} (${key}): wait for the diagnostics to show its result`, async () => {
        await page.evaluate(({ r, t }) => window.__bench.armKey(r, t), { r: region, t: key === 'x' ? after : before });
        await page.keyboard.press(key);
        await page.waitForFunction((n) => window.__bench.keyResults().length >= n, i + 1, { timeout: STEP_MS, polling: 20 });
        await settle(page, 100);
      });
    }
    const results = await page.evaluate(() => window.__bench.keyResults().map((r) => r.ms));
    into.push(...results.splice(0, KEYS));
    await page.evaluate(() => (window.__bench.keyResults().length = 0));
    log(`typing in the ${what}: p50 ${quantile(into, 0.5).toFixed(0)} ms, p95 ${quantile(into, 0.95).toFixed(0)} ms`);
  };
  const keySource: number[] = [];
  const keyReply: number[] = [];
  if (!runs('pasting'))
    await step(page, `wait for "${summary}" and the merge view showing "${MARKER}"`, async () => {
      await waitRegion(page, region, 'includes', summary);
      await waitRegion(page, merge, 'includes', MARKER);
      await settle(page, 500);
    });
  if (runs('typing'))
    await during('typing', async () => {
      await typeIn('source', sourceEditor, 1, keySource);
      await typeIn('reply', replyEditor, 3, keyReply);
    });

  // ------------------------------------------------ selecting edits
  if (runs('selecting')) await during('selecting edits', async () => {
    const rows = regionLoc.locator('.ld-row[data-edit]');
    const count = await rows.count();
    for (let i = 0; i < count; i++) {
      const row = rows.nth(i);
      await step(page, `select edit row ${i + 1} of ${count}`, async () => {
        await row.getByRole('button').first().click({ timeout: STEP_MS });
        await row
          .locator('xpath=self::*[contains(@class,"ld-row-selected") or @aria-current="true" or @aria-selected="true" or .//*[@aria-current="true"]]')
          .waitFor({ timeout: STEP_MS });
        await settle(page);
      });
    }
    log(`selected ${count} edits`);
  });

  // ------------------------------------------------ switching files
  if (runs('switching')) await during('switching files', async () => {
    const tabs = page.getByRole('tablist', { name: 'Source files' }).getByRole('tab');
    const names = await tabs.allTextContents();
    if (names.length < 2) throw new Error(`bench:site: step "switch files" failed: the session has ${names.length} tab(s)`);
    for (let round = 0; round < 3; round++)
      for (let i = names.length - 1; i >= 0; i--) {
        const tab = tabs.nth(i);
        await step(page, `switch to the tab "${names[i].trim()}"`, async () => {
          await tab.click({ timeout: STEP_MS });
          await page.waitForFunction((t) => t.getAttribute('aria-selected') === 'true', await tab.elementHandle(), { timeout: STEP_MS });
          await settle(page);
        });
      }
    log(`switched files 6 times`);
  });

  // ------------------------------------------------ replaying
  let replay = { done: false, ms: 0, progress: '' };
  if (runs('replaying')) await during('replaying', async () => {
    const panel = page.locator('#pg-replay');
    const play = page.locator('#pg-replay-play');
    const progress = page.locator('#pg-replay-progress');
    await step(page, 'open the Replay panel', async () => {
      await panel.locator('summary').first().click({ timeout: STEP_MS });
      await play.waitFor({ state: 'visible', timeout: STEP_MS });
      await page.waitForFunction((b) => !(b as HTMLButtonElement).disabled, await play.elementHandle(), { timeout: STEP_MS });
    });
    await step(page, 'set the replay speed to 10,000 tokens per second', () => page.locator('#pg-replay-speed').fill('10000', { timeout: STEP_MS }));
    const t0 = Date.now();
    await step(page, 'press Play', () => play.click({ timeout: STEP_MS }));
    const done = await progress
      .filter({ hasText: /\bdone\b/ })
      .waitFor({ timeout: REPLAY_BUDGET_MS })
      .then(
        () => true,
        () => false,
      );
    replay = { done, ms: Date.now() - t0, progress: ((await progress.textContent({ timeout: STEP_MS })) ?? '').trim() };
    log(done ? `replayed in ${(replay.ms / 1000).toFixed(1)} s` : `replay not done after ${REPLAY_BUDGET_MS / 1000} s: ${replay.progress}`);
    if (!done && (await play.textContent()) === 'Pause') await play.click().catch(() => undefined);
  });

  // ------------------------------------------------ the result view's paths
  // Each on the session as the steps above left it: app.py holds the source, the reply its edits.
  const expandButton = page.locator('#pg-merge').getByRole('button', { name: /^(Expand|Collapse) unchanged lines$/ });
  const moreSummary = `All ${c.edits + 1} edits applied`;
  if (runs('adding'))
    await during('adding an edit to the reply', async () => {
      // One more editblock at the end of the reply (line 7 is no other edit's), then Undo: the set of edits grows and shrinks.
      for (let run = 1; run <= RUNS; run++) {
        await step(page, `add an edit at the end of the reply (run ${run}): wait for "${moreSummary}"`, async () => {
          await paste(page, replyEditor, EXTRA_EDIT, true);
          await waitRegion(page, region, 'includes', moreSummary);
          await settle(page, 300);
        });
        await step(page, `undo the added edit (run ${run}): wait for "${summary}"`, async () => {
          await page.keyboard.press('Control+z');
          await waitRegion(page, region, 'includes', summary);
          await settle(page, 300);
        });
      }
      log(`added an edit to the reply and took it away ${RUNS} times`);
    });
  if (runs('expanding')) {
    // The button brought into view first, as a reader scrolls to it: the result view drawing what
    // comes into sight is this scroll's, not the click's.
    await during('scrolling to the result view', () =>
      step(page, 'scroll the "Expand unchanged lines" button into view', async () => {
        await expandButton.scrollIntoViewIfNeeded({ timeout: STEP_MS });
        await settle(page, 300);
      }),
    );
    const expand = (what: string) =>
      step(page, `Expand unchanged lines (${what})`, async () => {
        await expandButton.click({ timeout: STEP_MS });
        await page.waitForFunction((m) => m.querySelector('[aria-pressed="true"]') && !m.querySelector('.cm-collapsedLines'), merge, { timeout: STEP_MS, polling: 50 });
        await settle(page, 300);
      });
    const collapse = (what: string) =>
      step(page, `Collapse unchanged lines (${what})`, async () => {
        await expandButton.click({ timeout: STEP_MS });
        await page.waitForFunction((m) => m.querySelector('.cm-collapsedLines'), merge, { timeout: STEP_MS, polling: 50 });
        await settle(page, 300);
      });
    // The first click on its own: the code it runs is new to the page then.
    await during('expanding unchanged lines, first click', () => expand('the first click'));
    await during('expanding unchanged lines', async () => {
      await collapse('run 1');
      for (let run = 2; run <= RUNS; run++) {
        await expand(`run ${run}`);
        await collapse(`run ${run}`);
      }
      log(`expanded and collapsed unchanged lines ${RUNS} times`);
    });
  }
  if (runs('quick'))
    await during('typing with many edits', async () => {
      // A word typed at the end of line 8 of the source, 30 ms a key without waiting for any result, then erased.
      const word = 'quickly';
      await step(page, 'put the cursor at the end of line 8 of the source', async () => {
        await sourceEditor.click();
        await page.keyboard.press('Control+Home');
        for (let i = 0; i < 7; i++) await page.keyboard.press('ArrowDown');
        await page.keyboard.press('End');
        await settle(page, 300);
      });
      const before = await regionText(page, region);
      for (let run = 1; run <= RUNS; run++) {
        await step(page, `type "${word}" and erase it (run ${run}): wait for the diagnostics as before`, async () => {
          await page.keyboard.type(word, { delay: 30 });
          for (let i = 0; i < word.length; i++) await page.keyboard.press('Backspace', { delay: 30 });
          await waitRegion(page, region, 'equals', before);
          await settle(page, 300);
        });
      }
      log(`typed and erased "${word}" ${RUNS} times`);
    });
  const keyFailing: number[] = [];
  if (runs('failing')) {
    const failing = `${c.edits} of ${c.edits + 1} edits applied, 1 failed`;
    await step(page, `add an edit that fails at the end of the reply: wait for "${failing}"`, async () => {
      await paste(page, replyEditor, FAILING_EDIT, true);
      await waitRegion(page, region, 'includes', failing);
      await settle(page, 1000);
    });
    // Its cited line is the fifth up from the reply's end: each keystroke there changes the failure's message.
    await during('typing while an edit fails', () => typeIn('reply, in the edit that fails', replyEditor, 0, keyFailing, 5));
    await step(page, `take the failing edit away (Undo until the paste is undone): wait for "${summary}"`, async () => {
      for (let i = 0; i < 4 * KEYS && !(await regionText(page, region)).includes(summary); i++) {
        await page.keyboard.press('Control+z');
        await settle(page, 200);
      }
      await waitRegion(page, region, 'includes', summary);
      await settle(page, 300);
    });
  }
  if (runs('live')) {
    // The reply streamed back by a stand-in chat endpoint (OpenAI's protocol) on 127.0.0.1.
    const key = 'sk-bench-0123456789';
    const model = await startModelServer({ cors: true, chunks: chunksOf(rep, 40), key });
    try {
      await step(page, 'empty the reply before the live run', async () => {
        await clear(page, replyEditor);
        await page.waitForFunction((r) => r.querySelectorAll('.ld-row[data-edit]').length === 0, region, { timeout: STEP_MS, polling: 50 });
        await settle(page, 300);
      });
      await step(page, 'open "Run with a model" and fill in the stand-in endpoint', async () => {
        await page.getByText('Run with a model').click({ timeout: STEP_MS });
        // The panel's code is loaded once it fills the base URL: only then fill it in.
        const base = await page.getByLabel('Base URL').elementHandle({ timeout: STEP_MS });
        await page.waitForFunction((el) => (el as HTMLInputElement).value !== '', base, { timeout: STEP_MS, polling: 50 });
        await page.getByLabel('Base URL').fill(model.base, { timeout: STEP_MS });
        await page.getByLabel('Model', { exact: true }).fill('bench-model', { timeout: STEP_MS });
        await page.getByLabel('API key').fill(key, { timeout: STEP_MS });
        await page.getByLabel('Your request').fill('Swap the arguments of compute on the lines named.', { timeout: STEP_MS });
        await settle(page, 300);
      });
      await during('live run', async () => {
        await step(page, `Run: wait for the whole reply and "${summary}"`, async () => {
          await page.getByRole('button', { name: 'Run', exact: true }).click({ timeout: STEP_MS });
          // Over 100,000 tokens the panel asks first (the 20,000-line case is about 280,000): send.
          const send = page.locator('#pg-live-confirm-send');
          await page.waitForFunction(
            () => document.getElementById('pg-live-confirm')?.hidden === false || (document.getElementById('pg-live-message')?.textContent ?? '').includes('Done:'),
            null,
            { timeout: STEP_MS, polling: 50 },
          );
          if (await send.isVisible()) await send.click({ timeout: STEP_MS });
          await page.locator('#pg-live-message').filter({ hasText: 'Done:' }).waitFor({ timeout: STEP_MS });
          await waitRegion(page, region, 'includes', summary);
        });
        log('live run done');
      });
    } finally {
      await model.close();
    }
  }

  // ------------------------------------------------ heap, long tasks
  const cdp = await context.newCDPSession(page);
  await cdp.send('HeapProfiler.collectGarbage');
  const { usedSize } = await cdp.send('Runtime.getHeapUsage');
  const long = await page.evaluate(() => window.__bench.long);
  const longTasks = Object.fromEntries(ACTIONS.map((a) => [a, [] as number[]])) as Record<Action, number[]>;
  for (const task of long) {
    const w = windows.find((w) => task.start >= w.start && task.start <= w.end);
    if (w) longTasks[w.action].push(task.duration);
  }
  for (const a of ACTIONS) longTasks[a].sort((x, y) => y - x);
  if (errors.length) log(`page errors: ${errors.join(' | ')}`);
  await context.close();
  const ran = [...new Set(windows.map((w) => w.action))];
  return { lines: c.lines, chars: src.length, edits: c.edits, pasteSource, pasteReply, pasteMethod, keySource, keyReply, keyFailing, longTasks, ran, replay, heapUsed: usedSize };
}

// ---------------------------------------------------------------- JavaScript shipped

function shippedJs(DIST: string) {
  const rows: { page: string; files: number; raw: number; gzip: number }[] = [];
  const html = (function walk(dir: string): string[] {
    return readdirSync(dir).flatMap((n) => (statSync(join(dir, n)).isDirectory() ? walk(join(dir, n)) : n.endsWith('.html') ? [join(dir, n)] : []));
  })(DIST);
  for (const page of html) {
    const text = readFileSync(page, 'utf8');
    const srcs = new Set([...text.matchAll(/<script[^>]+src="([^"]+)"/g), ...text.matchAll(/<link[^>]+rel="modulepreload"[^>]+href="([^"]+)"/g)].map((m) => m[1]));
    let raw = 0;
    let gzip = 0;
    for (const src of srcs) {
      const buf = readFileSync(join(DIST, src));
      raw += buf.length;
      gzip += gzipSync(buf, { level: 9 }).length;
    }
    rows.push({ page: '/' + relative(DIST, page).replace(/index\.html$/, ''), files: srcs.size, raw, gzip });
  }
  const all = readdirSync(join(DIST, '_astro'))
    .filter((f) => f.endsWith('.js'))
    .map((f) => {
      const buf = readFileSync(join(DIST, '_astro', f));
      return { file: f, raw: buf.length, gzip: gzipSync(buf, { level: 9 }).length };
    });
  return { rows, all };
}

// Lighthouse runs in a child process while this process serves the site: it must not block.
async function lighthouse(origin: string) {
  const out: { page: string; scores: string }[] = [];
  for (const path of ['/', '/spec/ln-diff/', '/playground/']) {
    const { stdout: json } = await promisify(execFile)(
      'npx',
      ['--yes', 'lighthouse@12.8.2', origin + path, '--quiet', '--output=json', '--preset=desktop', '--only-categories=performance,accessibility,best-practices,seo', `--chrome-flags=--headless=new ${FLAGS.join(' ')}`],
      { env: { ...process.env, CHROME_PATH: CHROMIUM }, maxBuffer: 64 << 20 },
    );
    const cats = JSON.parse(json).categories as Record<string, { score: number }>;
    out.push({ page: path, scores: Object.entries(cats).map(([k, v]) => `${k} ${Math.round(v.score * 100)}`).join(', ') });
  }
  return out;
}

// ---------------------------------------------------------------- the table

const kB = (n: number) => `${(n / 1024).toFixed(1)} kB`;
const msText = (n: number) => (Number.isFinite(n) ? `${n.toFixed(0)} ms` : '-');
const medianText = (xs: number[]) => (xs.length ? msText(quantile(xs, 0.5)) + (xs.length > 1 ? ` (max ${quantile(xs, 1).toFixed(0)})` : '') : 'not measured');
const longText = (xs: number[]) => (xs.length ? xs.slice(0, 3).map((d) => d.toFixed(0)).join(', ') + ` ms${xs.length > 3 ? ` (+${xs.length - 3})` : ''}` : 'none over 50 ms');

interface Row {
  metric: string;
  goal: string;
  show: (f: Figures) => string;
  met?: (f: Figures) => boolean;
}

function rowsFor(cases: string[]): Row[] {
  const rows: Row[] = [
    { metric: 'initial JS of /playground/ (gzip -9)', goal: '< 120 kB', show: (f) => kB(f.playgroundJsGzip), met: (f) => f.playgroundJsGzip < 120 * 1024 },
  ];
  for (const id of cases) {
    const c = CASES.find((x) => x.id === id) ?? { id, keyGoal: 100 };
    const get = (f: Figures) => f.cases[id];
    const has = (f: Figures) => get(f) !== undefined;
    const when = (fn: (x: CaseFigures) => string) => (f: Figures) => (has(f) ? fn(get(f)) : 'not measured');
    const ok = (fn: (x: CaseFigures) => boolean) => (f: Figures) => has(f) && fn(get(f));
    const key = (which: 'keySource' | 'keyReply' | 'keyFailing', name: string): Row => ({
      metric: `${id}: keystroke in the ${name} → diagnostics, p50 / p95`,
      goal: `p95 < ${c.keyGoal} ms`,
      show: when((x) => (x[which]?.length ? `${quantile(x[which], 0.5).toFixed(0)} / ${quantile(x[which], 0.95).toFixed(0)} ms` : 'not measured')),
      met: ok((x) => (x[which]?.length ?? 0) > 0 && quantile(x[which]!, 0.95) < c.keyGoal),
    });
    const paste = (which: 'pasteSource' | 'pasteReply', name: string): Row => ({
      metric: `${id}: paste the ${name} → result shown, median`,
      goal: '< 500 ms',
      show: when((x) => medianText(x[which])),
      met: ok((x) => quantile(x[which], 0.5) < 500),
    });
    rows.push(
      paste('pasteSource', 'source'),
      paste('pasteReply', 'reply'),
      key('keySource', 'source'),
      key('keyReply', 'reply'),
      key('keyFailing', 'reply while an edit fails'),
    );
    const measured = (x: CaseFigures, a: Action) => (x.ran ?? ACTIONS.slice(0, 5)).includes(a);
    for (const a of ACTIONS)
      rows.push({
        metric: `${id}: longest tasks, ${a}`,
        goal: REPORTED.includes(a) ? '(reported)' : 'none > 100 ms',
        show: when((x) => (measured(x, a) ? longText(x.longTasks[a] ?? []) : 'not measured')),
        met: REPORTED.includes(a) ? undefined : ok((x) => measured(x, a) && (x.longTasks[a]?.[0] ?? 0) <= 100),
      });
    rows.push(
      {
        metric: `${id}: replay at 10,000 tokens/s, Play → done`,
        goal: '(reported)',
        show: when((x) =>
          !measured(x, 'replaying') ? 'not measured' : x.replay.done ? `${(x.replay.ms / 1000).toFixed(1)} s` : `not done in ${(x.replay.ms / 1000).toFixed(0)} s`,
        ),
      },
      { metric: `${id}: page JS heap after the case`, goal: '(reported)', show: when((x) => `${(x.heapUsed / 1048576).toFixed(1)} MB`) },
    );
  }
  return rows;
}

function table(now: Figures, base: Figures | null): string {
  const ids = [...new Set([...Object.keys(now.cases), ...Object.keys(base?.cases ?? {})])];
  const rows = rowsFor(ids);
  const head = ['metric', 'goal', base ? `OLD ${base.commit}` : 'OLD', `NEW ${now.commit}`, 'NEW meets goal'];
  const body = rows.map((r) => [r.metric, r.goal, base ? r.show(base) : '(no baseline)', r.show(now), r.met && r.show(now) !== 'not measured' ? (r.met(now) ? 'met' : 'NOT met') : '']);
  const widths = head.map((h, i) => Math.max(h.length, ...body.map((b) => b[i].length)));
  const line = (cells: string[]) => '| ' + cells.map((c, i) => c.padEnd(widths[i])).join(' | ') + ' |';
  return [line(head), '|' + widths.map((w) => '-'.repeat(w + 2)).join('|') + '|', ...body.map(line)].join('\n');
}

function gitCommit(): string {
  try {
    return execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: HERE, encoding: 'utf8' }).trim();
  } catch {
    return 'unknown';
  }
}

// ---------------------------------------------------------------- main

function printJs(dist: string) {
  const { rows, all } = shippedJs(dist);
  console.log(`Site: ${dist}`);
  console.log('JavaScript each page loads (scripts and module preloads; gzip -9):');
  for (const r of rows.sort((a, b) => b.gzip - a.gzip).slice(0, 6)) console.log(`  ${r.page.padEnd(34)} ${String(r.files).padStart(2)} files  ${kB(r.raw).padStart(10)} raw  ${kB(r.gzip).padStart(9)} gzip`);
  console.log(`  … and ${rows.filter((r) => r.files === 0).length} of ${rows.length} pages load no JavaScript at all`);
  console.log('All chunks (workers and lazy chunks load on demand):');
  for (const c of all.sort((a, b) => b.gzip - a.gzip).slice(0, 12)) console.log(`  ${c.file.padEnd(40)} ${kB(c.raw).padStart(10)} raw  ${kB(c.gzip).padStart(9)} gzip`);
  if (all.length > 12) console.log(`  … and ${all.length - 12} smaller chunks`);
  return rows.find((r) => r.page === '/playground/')?.gzip ?? NaN;
}

const servers: Server[] = [];
try {
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: FLAGS });
  const machine: Figures['machine'] = {
    nproc: availableParallelism(),
    cpu: cpus()[0]?.model ?? 'unknown',
    memoryGB: Math.round(totalmem() / 2 ** 30),
    chromium: browser.version(),
    node: process.version,
    platform: `${process.platform} ${process.arch}`,
    load: { start: loadavg()[0], end: NaN },
  };
  const sites: { label: string; dist: string; origin: string; figures: Figures }[] = [];
  for (const [label, dist, commit] of [
    ...(OLD_DIST ? [['OLD', OLD_DIST, option('--old-commit') ?? 'old'] as const] : []),
    ['NEW', DIST, option('--commit') ?? gitCommit()] as const,
  ]) {
    const { server, origin } = await serve(dist);
    servers.push(server);
    if (OLD_DIST) console.log(`\n${label}:`);
    const gzip = printJs(dist);
    sites.push({ label, dist, origin, figures: { date: new Date().toISOString(), commit, dist, machine, playgroundJsGzip: gzip, cases: {} } });
  }
  console.log(`\nMachine: ${machine.nproc} CPUs (${machine.cpu}), ${machine.memoryGB} GB, Chromium ${machine.chromium}, Node.js ${machine.node}`);
  try {
    for (const [i, c] of CASES.entries()) {
      // With --old, the two builds take turns, each going first in every other case.
      const order = i % 2 === 0 ? sites : [...sites].reverse();
      for (const site of order) {
        console.log(`\nCase ${c.id}${OLD_DIST ? ` on ${site.label}` : ''}: ${c.lines.toLocaleString('en-US')}-line source, ${c.edits}-edit reply`);
        site.figures.cases[c.id] = await runCase(browser, site.origin, c);
      }
    }
  } finally {
    await browser.close();
  }
  machine.load.end = loadavg()[0];
  // The bench's own browser keeps about one CPU busy: the load before it started tells of other work.
  if (machine.load.start > machine.nproc / 2 || machine.load.end > machine.nproc)
    console.log(
      `\nThe machine was busy with other work (load average ${machine.load.start.toFixed(1)} at the start, ${machine.load.end.toFixed(1)} at the end, on ${machine.nproc} CPUs): these figures are slower than the page is.`,
    );

  const figures = sites[sites.length - 1].figures;
  if (RECORD) {
    mkdirSync(dirname(resolve(RECORD)), { recursive: true });
    writeFileSync(resolve(RECORD), JSON.stringify(figures, (_, v) => (typeof v === 'number' && !Number.isInteger(v) ? Math.round(v * 10) / 10 : v), 2) + '\n');
    console.log(`\nRecorded the figures of ${DIST} in ${RECORD}.`);
  }
  const base = OLD_DIST
    ? sites[0].figures
    : existsSync(BASELINE) && (!RECORD || resolve(RECORD) !== BASELINE)
      ? (JSON.parse(readFileSync(BASELINE, 'utf8')) as Figures)
      : null;
  console.log(`\n${table(figures, base)}`);
  if (OLD_DIST) console.log(`OLD: ${OLD_DIST}, measured in this run, case by case in turn with NEW.`);
  else if (base) {
    const other = base.machine.nproc !== machine.nproc || base.machine.chromium !== machine.chromium;
    console.log(
      `OLD: ${relative(process.cwd(), BASELINE)}, measured ${base.date.slice(0, 10)} on ${base.machine.nproc} CPUs, Chromium ${base.machine.chromium}, ` +
        `load average ${base.machine.load?.start ?? '?'} to ${base.machine.load?.end ?? '?'}.` +
        (other ? ' Another machine or browser than NEW: compare with care.' : ''),
    );
  }
  console.log(`NEW: ${DIST}, load average ${machine.load.start.toFixed(1)} to ${machine.load.end.toFixed(1)}.`);
  console.log('Paste methods: ' + Object.entries(figures.cases).map(([id, x]) => `${id} ${x.pasteMethod}`).join(', ') + '. Long tasks: the 3 longest (ms) and how many more, of those over 50 ms.');

  if (args.includes('--lighthouse')) {
    console.log('\nLighthouse 12.8.2, desktop preset:');
    for (const r of await lighthouse(sites[sites.length - 1].origin)) console.log(`  ${r.page.padEnd(16)} ${r.scores}`);
  }
} finally {
  for (const server of servers) server.close();
}
