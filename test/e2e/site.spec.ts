// The static site around the playground: home, spec pages, "Try it" links,
// and what the build ships (no WebAssembly, no JavaScript on spec pages,
// no broken internal links).

import { test, expect } from '@playwright/test';
import AxeBuilder from '@axe-core/playwright';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

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

  test('spec pages and the home page ship no JavaScript', () => {
    // The playground, the bench and the prompt pages (copy buttons) are the only pages with scripts.
    const pages = html.filter((f) => !f.includes('/playground/') && !f.includes('/bench/') && !relative(DIST, f).startsWith('prompts/'));
    expect(pages.length).toBeGreaterThan(10);
    for (const page of pages) {
      const text = readFileSync(page, 'utf8');
      expect(text.includes('<script'), relative(DIST, page)).toBe(false);
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

for (const scheme of ['light', 'dark'] as const) {
  test(`accessibility of the home and a spec page (${scheme})`, async ({ page }) => {
    await page.emulateMedia({ colorScheme: scheme });
    for (const path of ['/', '/spec/matching/', '/spec/formats/']) {
      await page.goto(path);
      const results = await new AxeBuilder({ page }).analyze();
      expect(results.violations.map((v) => `${path}: ${v.id} ${v.nodes.map((n) => n.target).join(' ')}`)).toEqual([]);
    }
    await page.goto('/spec/ln-diff/#example-105');
    await page.screenshot({ path: `test-results/spec-${scheme}.png` });
  });
}

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
