// The site in a real browser: keystroke-to-diagnostics latency and the
// longest main-thread task while typing in the playground (a 5,000-line
// source, a reply of 50 edits), the JavaScript each page ships, and,
// with --lighthouse, Lighthouse scores.
//
// Usage: npm run build && npm run bench:site [-- --lighthouse] [-- --dist DIR]
// Prints a table; asserts nothing about time.

import { createServer, type Server } from 'node:http';
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { extname, join, relative } from 'node:path';
import { gzipSync } from 'node:zlib';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { chromium } from '@playwright/test';
import { encodeSession } from '../src/playground/share.ts';

const args = process.argv.slice(2);
const DIST = args.includes('--dist') ? args[args.indexOf('--dist') + 1] : new URL('../dist/', import.meta.url).pathname;
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const FLAGS = ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];
if (!existsSync(join(DIST, 'index.html'))) {
  console.error(`No built site in ${DIST}: run npm run build first.`);
  process.exit(2);
}

// ---------------------------------------------------------------- a static server

const TYPES: Record<string, string> = { '.html': 'text/html', '.js': 'text/javascript', '.css': 'text/css', '.json': 'application/json', '.svg': 'image/svg+xml' };
function serve(): Promise<{ server: Server; origin: string }> {
  const server = createServer((req, res) => {
    let path = decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname);
    if (path.endsWith('/')) path += 'index.html';
    const file = join(DIST, path);
    if (!file.startsWith(DIST) || !existsSync(file) || statSync(file).isDirectory()) {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream' }).end(readFileSync(file));
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => {
    const address = server.address();
    resolve({ server, origin: `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}` });
  }));
}

// ---------------------------------------------------------------- inputs

function source(lines: number): string {
  let out = '';
  for (let i = 1; i <= lines; i++) out += i % 10 === 1 ? `def function_${i}(alpha, beta):\n` : `    value_${i} = compute(alpha, beta, ${i})  # step ${i}\n`;
  return out;
}

function reply(lines: number, edits: number): string {
  const step = Math.floor(lines / edits);
  let out = '';
  for (let k = 0; k < edits; k++) {
    const n = k * step + 2 + (k % 3 === 0 ? 1 : 0); // every third edit cites one line off
    const real = n - (k % 3 === 0 ? 1 : 0);
    out += `app.py\n<editblock>\n<<<<<<< REMOVE\n${n}│    value_${real} = compute(alpha, beta, ${real})  # step ${real}\n=======\n    │    value_${real} = compute(beta, alpha, ${real})\n>>>>>>> INSERT\n</editblock>\n\n`;
  }
  return out;
}

// ---------------------------------------------------------------- measurements

const quantile = (xs: number[], q: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(q * s.length))] ?? NaN;
};

async function typing(origin: string) {
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: FLAGS });
  const page = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
  const hash = encodeSession({ format: 'ln-diff', files: [{ name: 'app.py', text: source(5000) }], reply: reply(5000, 50) });
  await page.goto(`${origin}/playground/#${hash}`);
  const diagnostics = page.getByRole('region', { name: 'Diagnostics', exact: true });
  await diagnostics.getByText(/edits? applied/).first().waitFor({ timeout: 30_000 });
  await page.evaluate(() => {
    const w = window as unknown as { __longTasks: number[]; __latency: number[]; __pending: number | null };
    w.__longTasks = [];
    w.__latency = [];
    w.__pending = null;
    new PerformanceObserver((list) => list.getEntries().forEach((e) => w.__longTasks.push(e.duration))).observe({ type: 'longtask', buffered: false });
    const region = document.querySelector('[aria-label="Diagnostics"]')!;
    document.addEventListener('keydown', () => (w.__pending ??= performance.now()), true);
    new MutationObserver(() => {
      if (w.__pending !== null) {
        w.__latency.push(performance.now() - w.__pending);
        w.__pending = null;
      }
    }).observe(region, { subtree: true, childList: true, characterData: true });
  });
  // Type into the reply editor, at the end of a cited line: each keystroke changes the result.
  const editor = page.getByLabel('Model reply');
  await editor.click();
  await page.keyboard.press('Control+End');
  for (let i = 0; i < 40; i++) {
    await page.keyboard.type(i % 2 ? 'x' : ' ');
    await page.waitForTimeout(400);
  }
  const { latency, longTasks } = await page.evaluate(() => {
    const w = window as unknown as { __longTasks: number[]; __latency: number[] };
    return { latency: w.__latency, longTasks: w.__longTasks };
  });
  await browser.close();
  return { latency, longTasks };
}

function shippedJs() {
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
  const all = readdirSync(join(DIST, '_astro')).filter((f) => f.endsWith('.js')).map((f) => {
    const buf = readFileSync(join(DIST, '_astro', f));
    return { file: f, raw: buf.length, gzip: gzipSync(buf, { level: 9 }).length };
  });
  return { rows, all };
}

// Lighthouse runs in a child process while this process serves the site: it must not block.
async function lighthouse(origin: string) {
  const out: { page: string; scores: string }[] = [];
  for (const path of ['/', '/spec/ln-diff/', '/playground/']) {
    const { stdout: json } = await promisify(execFile)('npx', ['--yes', 'lighthouse@12.8.2', origin + path, '--quiet', '--output=json', '--preset=desktop',
      '--only-categories=performance,accessibility,best-practices,seo', `--chrome-flags=--headless=new ${FLAGS.join(' ')}`], {
      env: { ...process.env, CHROME_PATH: CHROMIUM }, maxBuffer: 64 << 20,
    });
    const cats = JSON.parse(json).categories as Record<string, { score: number }>;
    out.push({ page: path, scores: Object.entries(cats).map(([k, v]) => `${k} ${Math.round(v.score * 100)}`).join(', ') });
  }
  return out;
}

// ---------------------------------------------------------------- report

const { server, origin } = await serve();
try {
  const kb = (n: number) => `${(n / 1024).toFixed(1)} kB`;
  const { rows, all } = shippedJs();
  console.log('JavaScript each page loads (scripts and module preloads; gzip -9):');
  for (const r of rows.sort((a, b) => b.gzip - a.gzip).slice(0, 6)) console.log(`  ${r.page.padEnd(34)} ${String(r.files).padStart(2)} files  ${kb(r.raw).padStart(10)} raw  ${kb(r.gzip).padStart(9)} gzip`);
  const zero = rows.filter((r) => r.files === 0).length;
  console.log(`  … and ${zero} of ${rows.length} pages load no JavaScript at all`);
  console.log('All chunks (workers and lazy chunks load on demand):');
  for (const c of all.sort((a, b) => b.gzip - a.gzip)) console.log(`  ${c.file.padEnd(40)} ${kb(c.raw).padStart(10)} raw  ${kb(c.gzip).padStart(9)} gzip`);
  const playground = rows.find((r) => r.page === '/playground/');
  console.log(`Goal: playground initial JavaScript under 120 kB gzip: ${playground ? kb(playground.gzip) : '?'} ${playground && playground.gzip < 120 * 1024 ? 'met' : 'NOT met'}`);

  const { latency, longTasks } = await typing(origin);
  console.log(`\nTyping in the playground (5,000-line source, 50 edits, ${latency.length} keystrokes measured):`);
  console.log(`  keystroke to diagnostics: median ${quantile(latency, 0.5).toFixed(0)} ms, p95 ${quantile(latency, 0.95).toFixed(0)} ms (goal p95 < 50 ms: ${quantile(latency, 0.95) < 50 ? 'met' : 'NOT met'})`);
  const longest = longTasks.length ? Math.max(...longTasks) : 0;
  console.log(`  main-thread long tasks while typing: ${longTasks.length}, longest ${longest.toFixed(0)} ms (goal: none over 50 ms: ${longest <= 50 ? 'met' : 'NOT met'})`);

  if (args.includes('--lighthouse')) {
    console.log('\nLighthouse 12.8.2, desktop preset:');
    for (const r of await lighthouse(origin)) console.log(`  ${r.page.padEnd(16)} ${r.scores}`);
  } else {
    console.log('\n(Lighthouse: add -- --lighthouse; it fetches lighthouse@12.8.2 with npx.)');
  }
} finally {
  server.close();
}
