// The static site around the playground: home, spec pages, "Try it" links,
// and what the build ships (no WebAssembly, no JavaScript on spec pages,
// no broken internal links).

import { test, expect } from '@playwright/test';
import AxeBuilder from '@axe-core/playwright';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { createHash } from 'node:crypto';
import { THEME_KEY, THEME_SCRIPT } from '../../src/layouts/theme-script.ts';

const DIST = new URL('../../dist/', import.meta.url).pathname;

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = join(dir, name);
    return statSync(full).isDirectory() ? files(full) : [full];
  });
}

test.describe('what the build ships', () => {
  const all = files(DIST);
  const html = all.filter((f) => f.endsWith('.html'));

  test('no WebAssembly anywhere', () => {
    expect(all.filter((f) => f.endsWith('.wasm'))).toEqual([]);
    const mentions = all.filter((f) => /\.(js|mjs|html)$/.test(f) && readFileSync(f, 'utf8').includes('WebAssembly'));
    expect(mentions.map((f) => relative(DIST, f))).toEqual([]);
  });

  test('spec pages and the home page ship no JavaScript but the theme script', () => {
    // The playground, the bench, the search page and the prompt pages (copy
    // buttons) are the only pages with scripts of their own. Every page has one
    // inline script, the theme's: it sets <html data-theme> before the first
    // paint and runs the header's theme button; the page's CSP allows exactly
    // that text by its hash. Nothing else, and no script file.
    const pages = html.filter(
      (f) => !f.includes('/playground/') && !f.includes('/bench/') && !f.includes('/search/') && !relative(DIST, f).startsWith('prompts/'),
    );
    expect(pages.length).toBeGreaterThan(10);
    for (const page of pages) {
      const text = readFileSync(page, 'utf8');
      const scripts = [...text.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/g)];
      expect(scripts.map((m) => m[1].trim()), relative(DIST, page)).toEqual(['']);
      expect(scripts[0][2], relative(DIST, page)).toBe(THEME_SCRIPT);
      expect(scripts[0][2].length, 'the theme script stays small').toBeLessThan(800);
      const hash = `'sha256-${createHash('sha256').update(THEME_SCRIPT).digest('base64')}'`;
      expect(text, relative(DIST, page)).toContain(`script-src 'self' ${hash};`);
    }
  });

  test('every internal link and anchor resolves', () => {
    const broken: string[] = [];
    for (const page of html) {
      const text = readFileSync(page, 'utf8');
      for (const m of text.matchAll(/href="(\/[^"#?]*)(#[^"]*)?"/g)) {
        const [, path, hash] = m;
        const target = path.endsWith('/') ? join(DIST, path, 'index.html') : join(DIST, path);
        if (!existsSync(target)) {
          broken.push(`${relative(DIST, page)} → ${path}`);
          continue;
        }
        if (hash && hash.length > 1 && target.endsWith('.html') && !path.startsWith('/playground')) {
          const id = decodeURIComponent(hash.slice(1));
          if (!readFileSync(target, 'utf8').includes(`id="${id}"`)) broken.push(`${relative(DIST, page)} → ${path}${hash}`);
        }
      }
    }
    expect(broken).toEqual([]);
  });
});

test('the home page says what ln-diff is and where to go', async ({ page }) => {
  await page.goto('/');
  await expect(page.getByRole('heading', { level: 1 })).toContainText('where each edit lands');
  await page.getByRole('link', { name: 'Read the spec' }).click();
  await expect(page).toHaveURL(/\/spec\/ln-diff\/$/);
  await expect(page.getByRole('heading', { level: 1, name: 'ln-diff editblocks' })).toBeVisible();
});

test('a spec example renders with its anchor, and "Try it" reproduces it in the playground', async ({ page }) => {
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  await page.goto('/spec/matching/#example-2');
  const example = page.locator('#example-2');
  await expect(example.getByRole('link', { name: 'Example 2' })).toHaveAttribute('href', '#example-2');
  // The page shows the engine's own result: one edit, matched one line off.
  await expect(example.locator('table.example-edits')).toContainText('offset +1');
  await example.getByRole('link', { name: 'Try it' }).click();
  await expect(page).toHaveURL(/\/playground\/\?v=[^#]+#s=/);
  const diagnostics = page.getByRole('region', { name: 'Diagnostics', exact: true });
  await expect(diagnostics).toContainText('All 1 edit applied', { timeout: 15_000 });
  await expect(diagnostics).toContainText('offset +1');
  await expect(page.getByLabel('Model reply')).toContainText('<<<<<<< REMOVE');
  await expect(page.getByLabel('Source: greet.py')).toContainText('def greet(name):');
  expect(errors).toEqual([]);
});

test('every format has a spec page with examples, reachable from the comparison', async ({ page }) => {
  await page.goto('/spec/formats/');
  const links = page.locator('article table').first().getByRole('link');
  const count = await links.count();
  expect(count).toBe(10);
  for (let i = 0; i < count; i++) {
    const href = await links.nth(i).getAttribute('href');
    const res = await page.request.get(href!);
    expect(res.status(), href!).toBe(200);
    expect(await res.text(), href!).toContain('id="example-25"');
  }
});

// Every page of the build, light and dark, on a desktop and a 390 px phone:
// no axe violation, target size (WCAG 2.2 2.5.8, 24 x 24 px) included. Every
// page is checked with every rule light at 1440 px and for target size dark
// at 390 px; one page of each kind with every rule dark at 390 px too, and
// for target size in the two other combinations. The spec's numbered
// examples are checked on /spec/matching/ only: every page draws them with
// the same component, and axe's time grows with the page (one run over
// /spec/ln-diff/'s 230 examples takes half a minute on a busy machine).
const ALL_PAGES = files(DIST)
  .filter((f) => f.endsWith('index.html') && !relative(DIST, f).startsWith('spec/prompts/'))
  .map((f) => `/${relative(DIST, f).replace(/index\.html$/, '')}`)
  .sort();

const ONE_OF_EACH = new Set(['/', '/agents/', '/bench/', '/playground/', '/prompts/', '/prompts/ln-diff/', '/search/', '/spec/matching/', '/spec/formats/', '/spec/formats/hashline/', '/spec/errors/']);

const SWEEP = [
  { scheme: 'light', size: { width: 1440, height: 900 }, full: true },
  { scheme: 'dark', size: { width: 390, height: 844 }, full: true },
  { scheme: 'light', size: { width: 390, height: 844 }, full: false },
  { scheme: 'dark', size: { width: 1440, height: 900 }, full: false },
] as const;

test.describe('accessibility of every page, target size included (light and dark, 1440 and 390 px)', () => {
  test('the sweep covers every page', () => {
    expect(ALL_PAGES.length).toBeGreaterThan(25);
    for (const path of ONE_OF_EACH) expect(ALL_PAGES).toContain(path);
  });
  for (const path of ALL_PAGES) {
    test(path, async ({ page }) => {
      test.setTimeout(180_000);
      const violations: string[] = [];
      await page.goto(path);
      if (path === '/playground/')
        await expect(page.getByRole('region', { name: 'Diagnostics', exact: true })).toContainText('applied', { timeout: 15_000 });
      for (const { scheme, size, full } of SWEEP) {
        const every = ONE_OF_EACH.has(path);
        if (!full && !every) continue;
        await page.setViewportSize(size);
        await page.emulateMedia({ colorScheme: scheme });
        let axe = new AxeBuilder({ page });
        axe = full && (every || scheme === 'light') ? axe.options({ rules: { 'target-size': { enabled: true } } }) : axe.withRules(['target-size']);
        if (path.startsWith('/spec/') && path !== '/spec/matching/') axe = axe.exclude('.example');
        for (const v of (await axe.analyze()).violations) violations.push(`${scheme} ${size.width} px: ${v.id} ${v.nodes.map((n) => n.target).join(' ')}`);
      }
      expect(violations).toEqual([]);
    });
  }
});

test('a spec page in the dark theme', async ({ page }) => {
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.goto('/spec/ln-diff/#example-105');
  await expect(page.locator('#example-105')).toBeInViewport();
  await page.screenshot({ path: `test-results/spec-dark.png` });
});

// The theme button: system → light → dark, kept across reloads, applied
// before the first paint (the attribute is there when DOMContentLoaded fires).
test('the theme switch cycles, persists across reload and applies before paint', async ({ page }) => {
  await page.emulateMedia({ colorScheme: 'light' });
  await page.addInitScript(() => {
    document.addEventListener('DOMContentLoaded', () => {
      (window as unknown as { themeAtLoad: string | null }).themeAtLoad = document.documentElement.getAttribute('data-theme');
    });
  });
  await page.goto('/spec/matching/');
  const toggle = page.getByRole('button', { name: /^Theme: / });
  await expect(toggle).toHaveText('Theme: system');
  const bg = () => page.evaluate(() => getComputedStyle(document.body).backgroundColor);
  expect(await bg()).toBe('rgb(255, 255, 255)');
  await toggle.click();
  await expect(toggle).toHaveText('Theme: light');
  await toggle.click();
  await expect(toggle).toHaveText('Theme: dark');
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
  expect(await bg()).toBe('rgb(13, 17, 23)');
  // Code blocks follow the chosen theme, not the system's.
  const shiki = page.locator('pre.shiki').first();
  if (await shiki.count()) expect(await shiki.evaluate((el) => getComputedStyle(el).backgroundColor)).toBe('rgb(13, 17, 23)');
  expect(await page.evaluate((k) => localStorage.getItem(k), THEME_KEY)).toBe('dark');

  for (const path of ['/spec/matching/', '/', '/playground/']) {
    await page.goto(path);
    // The head's script has set the theme before the body was parsed: it is there when DOMContentLoaded fires.
    expect(await page.evaluate(() => (window as unknown as { themeAtLoad: string | null }).themeAtLoad), path).toBe('dark');
    expect(await bg(), path).toBe('rgb(13, 17, 23)');
    await expect(page.getByRole('button', { name: /^Theme: / }), path).toHaveText('Theme: dark');
  }
  // Back to the system setting: the choice is forgotten.
  await page.getByRole('button', { name: /^Theme: / }).click();
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'system');
  expect(await page.evaluate((k) => localStorage.getItem(k), THEME_KEY)).toBeNull();
  await page.emulateMedia({ colorScheme: 'dark' });
  expect(await bg()).toBe('rgb(13, 17, 23)');
});

// CodeMirror themes an editor light or dark by classes on its root: the
// playground's editors take the theme the button chose, not only the system's.
test("the playground's editors follow the theme button", async ({ page }) => {
  await page.emulateMedia({ colorScheme: 'light' });
  await page.goto('/playground/');
  const editor = page.locator('.cm-editor').first();
  await expect(editor).toBeVisible();
  const classes = () => editor.evaluate((el) => [...el.classList].sort().join(' '));
  const light = await classes();
  const toggle = page.getByRole('button', { name: /^Theme: / });
  await toggle.click(); // light
  await expect(toggle).toHaveText('Theme: light');
  expect(await classes()).toBe(light);
  await toggle.click(); // dark
  await expect(toggle).toHaveText('Theme: dark');
  await expect.poll(classes).not.toBe(light);
  const dark = await classes();
  await toggle.click(); // system, which is light
  await expect.poll(classes).toBe(light);
  await page.emulateMedia({ colorScheme: 'dark' });
  await expect.poll(classes).toBe(dark);
});

test('without JavaScript the theme button is hidden and the system decides', async ({ browser }) => {
  const context = await browser.newContext({ javaScriptEnabled: false, colorScheme: 'dark' });
  const page = await context.newPage();
  await page.goto('/spec/errors/');
  await expect(page.locator('.theme-toggle')).toBeHidden();
  expect(await page.evaluate(() => getComputedStyle(document.body).backgroundColor)).toBe('rgb(13, 17, 23)');
  await context.close();
});

// Search: the header's box is a form that goes to /search/, which finds a
// heading and an example by its number, and every page of the site.
test('search finds a heading and an example by number', async ({ page }) => {
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  await page.goto('/spec/errors/');
  const box = page.getByRole('searchbox', { name: 'Search the site' });
  await box.fill('the ladder');
  await box.press('Enter');
  await expect(page).toHaveURL(/\/search\/\?q=the\+ladder$/);
  const results = page.locator('#search-results');
  const first = results.getByRole('link').first();
  await expect(first).toHaveText('The ladder');
  await expect(first).toHaveAttribute('href', '/spec/matching/#the-ladder');
  await expect(page.getByRole('status')).toContainText('for “the ladder”');

  // An example by number: Example 12 of every page, never Example 120.
  const input = page.getByRole('searchbox', { name: /Words, or an example by number/ });
  await input.fill('example 12');
  await expect(results.getByRole('link', { name: 'Example 12', exact: true }).first()).toBeVisible();
  const titles = await results.getByRole('link').allTextContents();
  expect(titles.filter((t) => /^Example \d+$/.test(t)).every((t) => t === 'Example 12')).toBe(true);
  const lnDiff12 = results.locator('a[href="/spec/ln-diff/#example-12"]');
  await expect(lnDiff12).toHaveText('Example 12');
  await expect(page).toHaveURL(/\?q=example\+12$/);
  await lnDiff12.click();
  await expect(page).toHaveURL(/\/spec\/ln-diff\/#example-12$/);
  await expect(page.locator('#example-12')).toBeInViewport();

  // Nothing found says so.
  await page.goto('/search/?q=zzzqqq');
  await expect(page.getByRole('status')).toHaveText('Nothing on the site matches “zzzqqq”.');
  // Result text is text: markup in the query is never rendered.
  await page.goto('/search/?q=%3Cimg%20src%3Dx%3E');
  await expect(page.locator('#search-results img')).toHaveCount(0);
  expect(errors).toEqual([]);
});

// Every page is in the index, not the spec alone: a page about the words
// (its title, its headings) comes before a spec section that mentions them.
test('search finds the agents and prompts pages first, by their titles and headings', async ({ page }) => {
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  const results = page.locator('#search-results');
  const first = async (query: string) => {
    await page.goto(`/search/?q=${encodeURIComponent(query)}`);
    await expect(page.getByRole('status')).toContainText(`for “${query}”`);
    return results.getByRole('link').first();
  };
  await expect(await first('mcp')).toHaveAttribute('href', '/agents/');
  await expect(await first('mcp')).toHaveText('ln-diff in your agent: an MCP server');
  await expect(await first('cursor')).toHaveAttribute('href', '/agents/#cursor');
  await expect(await first('claude')).toHaveAttribute('href', /^\/prompts\/[a-z-]+\/#anthropic-claude$/);
  const question = await first('how do I prompt claude');
  await expect(question).toHaveAttribute('href', /^\/prompts\/[a-z-]+\/#anthropic-claude$/);
  await expect(question).toHaveText('Anthropic Claude');
  // A result names its page; the project's name in it is set as in headings.
  await page.goto('/search/?q=ln-diff%20anthropic%20claude');
  const name = results.locator('.search-page-name').first().locator('.name');
  await expect(name).toHaveText('ln-diff');
  expect(await name.evaluate((el) => getComputedStyle(el).fontFamily)).toMatch(/monospace/);
  // Each agent client has its entry; the playground and the bench pages are found by name.
  const mcp = await (await first('mcp')).evaluate(() => [...document.querySelectorAll('#search-results a')].map((a) => a.getAttribute('href')));
  expect(mcp).toEqual(expect.arrayContaining(['/agents/#claude-code', '/agents/#cursor', '/agents/#vscode']));
  await expect(await first('playground')).toHaveAttribute('href', '/playground/');
  await expect(await first('bench')).toHaveAttribute('href', '/bench/');
  // A result that links to the place on the page: the agents page opens at Cursor.
  await (await first('cursor')).click();
  await expect(page).toHaveURL(/\/agents\/#cursor$/);
  await expect(page.getByRole('heading', { name: 'Cursor', exact: true })).toBeInViewport();
  expect(errors).toEqual([]);
});

test('the home page says how to use the command, the library and the agent server', async ({ page }) => {
  await page.goto('/');
  const use = page.getByRole('region', { name: 'Use it' });
  await expect(use.getByLabel('Install from a clone')).toContainText('npm install -g .');
  await expect(use.getByLabel('Command line examples')).toContainText('ln-diff apply --dry-run reply.md');
  await expect(use.getByLabel('Command line examples')).not.toContainText('npx');
  await expect(use.getByLabel('Library example')).toContainText("import { applyRequest } from 'ln-diff'");
  await expect(use).toContainText('ln-diff mcp serves the Model Context Protocol');
  await expect(use).toContainText('Once ln-diff is published on npm, npm i ln-diff will install it');
  await use.getByRole('link', { name: /configuration for Claude/ }).click();
  await expect(page).toHaveURL(/\/agents\/$/);
  await page.goto('/');
  await page.getByRole('link', { name: /What each format costs/ }).first().click();
  await expect(page).toHaveURL(/\/spec\/costs\/$/);
});

test('every page declares a Content-Security-Policy, and nothing on the pages breaks it', async ({ page }) => {
  const violations: string[] = [];
  page.on('console', (m) => {
    if (/Content Security Policy/i.test(m.text())) violations.push(`${page.url()}: ${m.text()}`);
  });
  for (const path of ['/', '/spec/ln-diff/', '/prompts/ln-diff/', '/playground/']) {
    await page.goto(path);
    const csp = await page.locator('meta[http-equiv="Content-Security-Policy"]').getAttribute('content');
    expect(csp, path).toContain("script-src 'self'");
    expect(csp, path).not.toContain("'unsafe-eval'");
    if (path !== '/playground/') expect(csp, path).toContain("connect-src 'self';");
  }
  // The playground works under its policy: the worker runs and results appear.
  await expect(page.getByRole('region', { name: 'Diagnostics', exact: true })).toContainText('applied', { timeout: 15_000 });
  expect(violations).toEqual([]);
});

// Phones and keyboards: the layout at 390 px, the skip link, the header's
// edges, the spec's result tables, the playground's folding toolbar.

const PHONE = { width: 390, height: 844 };
const PAGES = ['/', '/spec/matching/', '/prompts/ln-diff/', '/playground/'];

async function ready(page: import('@playwright/test').Page, path: string) {
  await page.goto(path);
  if (path === '/playground/')
    await expect(page.getByRole('region', { name: 'Diagnostics', exact: true })).toContainText('applied', { timeout: 15_000 });
}

test('at 390 px no page scrolls sideways', async ({ page }) => {
  await page.setViewportSize(PHONE);
  for (const path of ['/', '/spec/ln-diff/', '/spec/formats/', '/spec/errors/', '/prompts/', '/prompts/ln-diff/', '/playground/']) {
    await ready(page, path);
    const [scrollWidth, innerWidth] = await page.evaluate(() => [document.scrollingElement!.scrollWidth, window.innerWidth]);
    expect(scrollWidth, path).toBeLessThanOrEqual(innerWidth);
  }
});

test('at 390 px a result table scrolls inside its own box, which Tab reaches', async ({ page }) => {
  await page.setViewportSize(PHONE);
  await page.goto('/spec/matching/#example-3');
  const example = page.locator('#example-3');
  const box = example.getByRole('region', { name: 'Example 3: the result of each edit' });
  await expect(box.locator('table.example-edits')).toBeVisible();
  const [scrollWidth, clientWidth] = await box.evaluate((el) => [el.scrollWidth, el.clientWidth]);
  expect(scrollWidth).toBeGreaterThan(clientWidth);
  // The box stays inside the page; only its content is wider.
  expect(await box.evaluate((el) => el.getBoundingClientRect().right)).toBeLessThanOrEqual(PHONE.width);
  // Tab from the last text of the example lands on the box; the arrow keys scroll it.
  await example.locator('pre').last().focus();
  await page.keyboard.press('Tab');
  await expect(box).toBeFocused();
  await page.keyboard.press('ArrowRight');
  await expect.poll(() => box.evaluate((el) => el.scrollLeft)).toBeGreaterThan(0);
});

test('spec tables number edits from #1, as the playground does', async ({ page }) => {
  await page.goto('/spec/ln-diff/');
  // The results section: two edits, the second failed.
  const two = page.locator('.example', { hasText: 'VERSION = "1.1.0"' }).first().locator('table.example-edits tbody tr');
  await expect(two).toHaveCount(2);
  await expect(two.nth(0).locator('td').first()).toHaveText('#1');
  await expect(two.nth(1).locator('td').first()).toHaveText('#2');
  // A repeat names the edit it repeats the same way.
  const repeat = page.locator('table.example-edits tr', { hasText: 'duplicate' }).first();
  await expect(repeat.locator('td').first()).toHaveText('#2');
  await expect(repeat.locator('td').nth(1)).toHaveText('applied duplicate of #1');
  const zero = await page.locator('table.example-edits td:first-child').evaluateAll((cells) => cells.filter((c) => c.textContent === '#0').length);
  expect(zero).toBe(0);
});

test('the skip link is the first Tab stop, shows itself and moves the focus to the main content', async ({ page }) => {
  for (const size of [PHONE, { width: 1400, height: 1000 }]) {
    await page.setViewportSize(size);
    for (const path of PAGES) {
      await ready(page, path);
      const skip = page.getByRole('link', { name: 'Skip to the content' });
      await expect(skip).not.toBeInViewport();
      await page.keyboard.press('Tab');
      await expect(skip, path).toBeFocused();
      await expect(skip, path).toBeInViewport();
      await page.keyboard.press('Enter');
      await expect(page.getByRole('main'), path).toBeFocused();
      // The next Tab goes on from the main content, past the header.
      await page.keyboard.press('Tab');
      expect(await page.evaluate(() => document.querySelector('main')!.contains(document.activeElement)), path).toBe(true);
    }
  }
});

test('the header lines up with the page at every width', async ({ page }) => {
  for (const width of [390, 800, 1400]) {
    await page.setViewportSize({ width, height: 900 });
    for (const path of PAGES) {
      await ready(page, path);
      const edges = await page.evaluate(() => {
        const inner = (el: Element) => {
          const r = el.getBoundingClientRect();
          const s = getComputedStyle(el);
          return { left: r.left + parseFloat(s.paddingLeft), right: r.right - parseFloat(s.paddingRight) };
        };
        return {
          nav: inner(document.querySelector('.site-header nav')!),
          brand: document.querySelector('.site-header .brand')!.getBoundingClientRect().left,
          main: inner(document.querySelector('main')!),
          h1: document.querySelector('main h1')!.getBoundingClientRect().left,
        };
      });
      const at = `${path} at ${width} px`;
      expect(Math.abs(edges.brand - edges.h1), at).toBeLessThanOrEqual(1);
      expect(Math.abs(edges.nav.left - edges.main.left), at).toBeLessThanOrEqual(1);
      expect(Math.abs(edges.nav.right - edges.main.right), at).toBeLessThanOrEqual(1);
    }
  }
});

test('the playground toolbar folds away on a phone and is open on a desktop', async ({ page }) => {
  await page.setViewportSize(PHONE);
  await ready(page, '/playground/');
  const toggle = page.locator('.pg-tools > summary');
  const copy = page.getByRole('button', { name: 'Copy link', exact: true });
  await expect(toggle).toBeVisible();
  await expect(copy).toBeHidden();
  // The engine's state stays in view while the controls are folded.
  await expect(page.locator('#pg-engine')).toBeVisible();
  await toggle.click();
  await expect(copy).toBeVisible();
  await expect(page.getByLabel('Format', { exact: true })).toBeVisible();
  await toggle.click();
  await expect(copy).toBeHidden();
  // On a wide screen the same controls show without a click.
  await page.setViewportSize({ width: 1400, height: 1000 });
  await expect(toggle).toBeHidden();
  await expect(copy).toBeVisible();
  await expect(page.getByLabel('Format', { exact: true })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Reset' })).toBeVisible();
});

// The header: one row on a desktop; on a phone the links fold into a Menu
// (a <details> disclosure: keyboard, screen reader, no script) that opens
// over the page.

/** The accessibility tree's expanded state of the element `selector` finds (what a screen reader announces). */
async function expandedState(page: import('@playwright/test').Page, selector: string): Promise<unknown> {
  const cdp = await page.context().newCDPSession(page);
  const { root } = await cdp.send('DOM.getDocument', { depth: 0 });
  const { nodeId } = await cdp.send('DOM.querySelector', { nodeId: root.nodeId, selector });
  const { nodes } = await cdp.send('Accessibility.getPartialAXTree', { nodeId, fetchRelatives: false });
  await cdp.detach();
  return nodes[0].properties?.find((p) => p.name === 'expanded')?.value.value;
}

const HEADER_PAGES = ['/', '/spec/matching/', '/agents/', '/prompts/ln-diff/', '/playground/', '/bench/', '/search/'];

test('at 1440 px the header is one row: the name, every link, the search box and the theme button', async ({ page }) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  for (const path of HEADER_PAGES) {
    await page.goto(path);
    const nav = page.getByRole('navigation', { name: 'Site' });
    for (const name of ['Spec', 'Matching', 'Errors', 'Formats', 'Conformance', 'Prompts', 'Playground', 'Bench', 'Agents'])
      await expect(nav.getByRole('link', { name, exact: true }), `${path} ${name}`).toBeVisible();
    await expect(nav.getByRole('searchbox', { name: 'Search the site' })).toBeVisible();
    await expect(nav.locator('.nav-menu')).toBeHidden();
    const rows = await page.evaluate(() => {
      const items = [
        ...document.querySelectorAll('.site-header .brand, .site-header .nav-links a, .site-header .site-search input, .site-header .theme-toggle'),
      ].filter((el) => el.getBoundingClientRect().width > 0);
      const centres = items.map((el) => {
        const r = el.getBoundingClientRect();
        return Math.round((r.top + r.bottom) / 2);
      });
      return { count: items.length, spread: Math.max(...centres) - Math.min(...centres), height: document.querySelector('.site-header')!.getBoundingClientRect().height };
    });
    expect(rows.count, path).toBe(12);
    expect(rows.spread, `${path}: every item on one line`).toBeLessThanOrEqual(2);
    expect(rows.height, path).toBeLessThan(56);
  }
});

test('at 390 px the links fold into a Menu that opens by keyboard, says it is expanded and moves nothing', async ({ page }) => {
  await page.setViewportSize(PHONE);
  for (const path of ['/', '/spec/matching/', '/playground/']) {
    await ready(page, path);
    const nav = page.getByRole('navigation', { name: 'Site' });
    const header = await page.locator('.site-header').boundingBox();
    expect(header!.height, `${path}: one row`).toBeLessThan(56);
    await expect(nav.getByRole('link', { name: 'Conformance', exact: true })).toBeHidden();
    await expect(nav.getByRole('searchbox', { name: 'Search the site' })).toBeVisible();
    const menu = nav.locator('summary');
    await expect(menu).toHaveText('Menu');
    await expect(menu).toBeVisible();
    expect(await expandedState(page, '.nav-menu > summary'), path).toBe(false);
    const mainTop = () => page.locator('main').evaluate((el) => el.getBoundingClientRect().top);
    const before = await mainTop();

    // The keyboard: the skip link, the name, the search box, the theme button, then the Menu.
    await page.keyboard.press('Tab');
    for (let i = 0; i < 6 && !(await menu.evaluate((el) => el === document.activeElement)); i++) await page.keyboard.press('Tab');
    await expect(menu).toBeFocused();
    await page.keyboard.press('Enter');
    expect(await expandedState(page, '.nav-menu > summary'), path).toBe(true);
    const agents = nav.getByRole('link', { name: 'Agents', exact: true });
    await expect(agents).toBeInViewport();
    // The open menu passes axe, target size included.
    const axe = await new AxeBuilder({ page }).include('.site-header').options({ rules: { 'target-size': { enabled: true } } }).analyze();
    expect(axe.violations.map((v) => `${v.id} ${v.nodes.map((n) => n.target).join(' ')}`), path).toEqual([]);
    // It opens over the page: the content below the header has not moved.
    expect(await mainTop(), path).toBe(before);
    expect(await page.evaluate(() => document.scrollingElement!.scrollWidth), path).toBeLessThanOrEqual(PHONE.width);
    // Tab goes on into its links; Space on the Menu closes it again.
    await page.keyboard.press('Tab');
    await expect(nav.getByRole('link', { name: 'Spec', exact: true })).toBeFocused();
    await menu.focus();
    await page.keyboard.press('Space');
    expect(await expandedState(page, '.nav-menu > summary'), path).toBe(false);
    await expect(agents).toBeHidden();
  }
  // The current page is marked in the menu too.
  await page.goto('/agents/');
  await page.locator('.nav-menu > summary').click();
  await expect(page.getByRole('navigation', { name: 'Site' }).getByRole('link', { name: 'Agents', exact: true })).toHaveAttribute('aria-current', 'page');
});

test('without JavaScript the Menu opens and its links work', async ({ browser }) => {
  const context = await browser.newContext({ javaScriptEnabled: false, viewport: PHONE });
  const page = await context.newPage();
  await page.goto('/spec/errors/');
  await page.getByText('Menu', { exact: true }).click();
  await page.getByRole('navigation', { name: 'Site' }).getByRole('link', { name: 'Prompts', exact: true }).click();
  await expect(page).toHaveURL(/\/prompts\/$/);
  await context.close();
});

// "ln-diff" in a sans-serif face reads "In-diff": where the name stands alone
// (the header, headings) it is set in the code font.
test('the name is set in the code font in the header and in headings', async ({ page }) => {
  const mono = async () => page.evaluate(() => {
    const code = document.createElement('code');
    document.body.append(code);
    const family = getComputedStyle(code).fontFamily;
    code.remove();
    return family;
  });
  for (const [path, heading] of [['/spec/ln-diff/', 'ln-diff editblocks'], ['/agents/', /^ln-diff in your agent/], ['/prompts/ln-diff/', /ln-diff/]] as const) {
    await page.goto(path);
    const family = await mono();
    expect(family).toMatch(/monospace/);
    const brand = page.locator('.site-header .brand');
    await expect(brand).toHaveText('ln-diff');
    expect(await brand.evaluate((el) => getComputedStyle(el.querySelector('.name') ?? el).fontFamily), path).toBe(family);
    const h1 = page.getByRole('heading', { level: 1, name: heading });
    expect(await h1.locator('.name').evaluate((el) => [el.textContent, getComputedStyle(el).fontFamily]), path).toEqual(['ln-diff', family]);
    // The rest of the heading stays in the text font.
    expect(await h1.evaluate((el) => getComputedStyle(el).fontFamily), path).not.toBe(family);
  }
});
