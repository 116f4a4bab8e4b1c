// The prompts pages: the ln-diff page renders every family's prompt, the
// copy button puts the prompt on the clipboard, "Open in playground" loads
// the source and the reply (and the prompt) into the playground, every
// example shows in full, the old /spec/prompts/ addresses lead to the one
// page, the page reads without JavaScript, and axe finds nothing in light or
// dark.

import { test, expect, type Page } from '@playwright/test';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { readPromptPage } from '../../src/prompt/sections.ts';
import { applyRequest } from '../../src/formats/index.ts';

const page = readPromptPage(readFileSync(new URL('../../spec/prompts/ln-diff.md', import.meta.url), 'utf8'), 'ln-diff');

/** The playground's summary line for a reply (see src/playground/diagnostics.ts). */
function expectedSummary(example: (typeof page.sections)[number]['examples'][number]['example']): string {
  const result = applyRequest({ format: example.format, files: example.files, response: example.reply });
  const applied = result.edits.filter((e) => e.status === 'applied').length;
  const all = `${result.edits.length} edit${result.edits.length === 1 ? '' : 's'}`;
  return applied === result.edits.length ? `All ${all} applied.` : `${applied} of ${all} applied, ${result.edits.length - applied} failed.`;
}

function watch(p: Page) {
  const errors: string[] = [];
  p.on('pageerror', (e) => errors.push(String(e)));
  return errors;
}

test.describe('the ln-diff prompts page', () => {
  test.use({ permissions: ['clipboard-read', 'clipboard-write'] });

  test('renders every prompt with its note, text and examples', async ({ page: p }) => {
    const errors = watch(p);
    await p.goto('/prompts/ln-diff/');
    await expect(p.getByRole('heading', { level: 1 })).toHaveText('Prompts for ln-diff editblocks');
    await expect(p.locator('section.pp-family')).toHaveCount(page.sections.length);
    for (const s of page.sections) {
      const section = p.getByRole('region', { name: s.family, exact: true });
      await expect(section.getByRole('heading', { level: 2 })).toHaveText(s.family);
      await expect(section.locator('.pp-note')).toContainText('Written for');
      await expect(section.locator('pre').first()).toHaveText(s.prompt!);
      await expect(section.locator('li.pp-example')).toHaveCount(s.examples.length);
      await expect(section.getByRole('link', { name: 'Open in playground' })).toHaveCount(s.examples.length);
    }
    await expect(p.getByRole('navigation', { name: 'Model families' }).getByRole('link')).toHaveCount(page.sections.length);
    expect(errors).toEqual([]);
  });

  test('the copy button puts the prompt on the clipboard', async ({ page: p }) => {
    await p.goto('/prompts/ln-diff/');
    const claude = page.sections.find((s) => /Claude/.test(s.family))!;
    const button = p.getByRole('button', { name: `Copy the system prompt for ${claude.family}` });
    await expect(button).toBeVisible();
    await button.click();
    await expect(button).toHaveText('Copied');
    await expect(p.getByRole('status')).toHaveText(`Copied the system prompt for ${claude.family}.`);
    expect(await p.evaluate(() => navigator.clipboard.readText())).toBe(claude.prompt);

    const reminder = p.getByRole('button', { name: `Copy the reminder for ${claude.family}` });
    await reminder.click();
    expect(await p.evaluate(() => navigator.clipboard.readText())).toBe(claude.reminder);
  });

  for (const [family, n] of [
    [/GPT-4o/, 0],
    [/Llama/, 2],
  ] as const) {
    test(`"Open in playground" loads the source and the reply (${family.source} example ${n + 1})`, async ({ page: p }) => {
      const errors = watch(p);
      const section = page.sections.find((s) => family.test(s.family))!;
      const { example } = section.examples[n];
      const [name, text] = Object.entries(example.files)[0];
      await p.goto('/prompts/ln-diff/');
      const item = p.locator(`#${section.id}-example-${n + 1}`);
      await item.getByRole('link', { name: 'Open in playground' }).click();
      await expect(p).toHaveURL(/\/playground\/#s=/);
      const diagnostics = p.getByRole('region', { name: 'Diagnostics', exact: true });
      await expect(diagnostics).toContainText(expectedSummary(example), { timeout: 15_000 });
      await expect(p.getByLabel('Model reply')).toContainText(example.reply.split('\n')[0]);
      await expect(p.getByLabel(`Source: ${name}`)).toContainText(text.split('\n')[0]);
      await expect(p.getByRole('alert')).toHaveCount(0);
      expect(errors).toEqual([]);
    });
  }

  test('the outcome shown is the engine result', async ({ page: p }) => {
    await p.goto('/prompts/ln-diff/');
    const gpt = page.sections[0];
    await expect(p.locator(`#${gpt.id}-example-1 .pp-outcome`)).toHaveText('OK applied: offset +1.');
    await expect(p.locator(`#${gpt.id}-example-2 .pp-outcome`)).toHaveText('Not OK failed: unnumbered-remove-line.');
    // Several edits are numbered from #1, like everywhere else.
    const several = page.sections.flatMap((s) => s.examples.map((e, k) => ({ id: `${s.id}-example-${k + 1}`, example: e.example })))
      .find(({ example }) => applyRequest({ format: example.format, files: example.files, response: example.reply }).edits.length > 1)!;
    await expect(p.locator(`#${several.id} .pp-outcome`)).toContainText(/\b(OK|Not OK)\s+#1 \w.*; #2 \w/);
  });

  test('every example shows in full: its files, the reply, the files after and the result', async ({ page: p }) => {
    await p.goto('/prompts/ln-diff/');
    const gpt = page.sections[0];
    const { example } = gpt.examples[0];
    const item = p.locator(`#${gpt.id}-example-1`);
    const full = item.locator(`#example-${example.number}`);
    await expect(full).toBeHidden();
    await item.getByText(`Example ${example.number} in full`).click();
    await expect(full).toBeVisible();
    const [name, text] = Object.entries(example.files)[0];
    await expect(full.locator('figure', { hasText: name }).first().locator('pre')).toContainText(text.split('\n')[0]);
    await expect(full.locator('figcaption', { hasText: `${name} after` })).toBeVisible();
    const rows = full.getByRole('region', { name: `Example ${example.number}: the result of each edit` }).locator('tbody tr');
    await expect(rows.first().locator('td').first()).toHaveText('#1');
    await expect(rows.first()).toContainText('offset +1');
    // The example's own anchor opens it.
    await p.goto(`/prompts/ln-diff/#example-${gpt.examples[1].example.number}`);
    await expect(p.locator(`#example-${gpt.examples[1].example.number}`)).toBeInViewport();
  });
});

test('/spec/prompts/<format>/ leads to /prompts/<format>/, the one page of the prompts', async ({ page: p, request }) => {
  for (const format of ['ln-diff', 'udiff']) {
    await p.goto(`/spec/prompts/${format}/`);
    await expect(p).toHaveURL(new RegExp(`/prompts/${format}/$`));
    expect(new URL(p.url()).pathname).toBe(`/prompts/${format}/`);
    await expect(p.getByRole('heading', { level: 1 })).toHaveText(/^Prompts for /);
    // The page names itself canonical; the old address names it too, and links to it for a reader without refresh.
    const canonical = await p.locator('link[rel="canonical"]').getAttribute('href');
    expect(new URL(canonical!).pathname).toBe(`/prompts/${format}/`);
    const old = await (await request.get(`/spec/prompts/${format}/`, { maxRedirects: 0 })).text();
    expect(old).toMatch(new RegExp(`<meta http-equiv="refresh" content="0; url=/prompts/${format}/"`));
    expect(old).toMatch(new RegExp(`<link rel="canonical" href="[^"]*/prompts/${format}/"`));
    expect(old).toContain(`<a href="/prompts/${format}/">`);
    expect(old).toContain('<meta name="robots" content="noindex">');
  }
});

test('no page links to the old addresses of the prompts', () => {
  const DIST = new URL('../../dist/', import.meta.url).pathname;
  const html = (dir: string): string[] =>
    readdirSync(dir).flatMap((name) => {
      const full = join(dir, name);
      return statSync(full).isDirectory() ? html(full) : full.endsWith('.html') ? [full] : [];
    });
  const pages = html(DIST).filter((f) => !relative(DIST, f).startsWith('spec/prompts/'));
  const linking = pages.filter((f) => /href="[^"]*\/spec\/prompts\//.test(readFileSync(f, 'utf8')));
  expect(linking.map((f) => relative(DIST, f))).toEqual([]);
});

test('without JavaScript the page reads the same, without copy buttons', async ({ browser }) => {
  const context = await browser.newContext({ javaScriptEnabled: false });
  const p = await context.newPage();
  await p.goto('/prompts/ln-diff/');
  await expect(p.locator('button[data-copy]').first()).toBeHidden();
  await expect(p.getByRole('button')).toHaveCount(0);
  await expect(p.locator('pre').first()).toHaveText(page.sections[0].prompt!);
  const href = await p.getByRole('link', { name: 'Open in playground' }).first().getAttribute('href');
  expect(href).toMatch(/^\/playground\/#s=/);
  await context.close();
});

test('the prompts index links every format and family', async ({ page: p }) => {
  await p.goto('/prompts/');
  await expect(p.getByRole('heading', { level: 1 })).toHaveText('Prompts');
  const rows = p.locator('table.pp-matrix tbody tr');
  expect(await rows.count()).toBeGreaterThanOrEqual(1);
  await rows.first().getByRole('link', { name: 'ln-diff', exact: true }).click();
  await expect(p).toHaveURL(/\/prompts\/ln-diff\/$/);
});

for (const scheme of ['light', 'dark'] as const) {
  // Every prompts page passes axe in both schemes: site.spec.ts's sweep of every page.
  test(`the prompts pages (${scheme}), drawn for a look`, async ({ page: p }) => {
    await p.emulateMedia({ colorScheme: scheme });
    await p.goto('/prompts/ln-diff/#anthropic-claude');
    await p.screenshot({ path: `test-results/prompts-${scheme}.png` });
    await p.locator('#anthropic-claude-example-1 details summary').click();
    await expect(p.locator('#anthropic-claude-example-1 details')).toHaveAttribute('open', '');
    await p.locator('#anthropic-claude-example-1').scrollIntoViewIfNeeded();
    await p.screenshot({ path: `test-results/prompts-example-${scheme}.png` });
    await p.goto('/prompts/ln-diff/#example-1');
    await p.screenshot({ path: `test-results/prompts-full-example-${scheme}.png` });
    await p.goto('/prompts/hashline/');
    await p.screenshot({ path: `test-results/prompts-top-${scheme}.png` });
    await p.goto('/prompts/');
    await p.screenshot({ path: `test-results/prompts-index-${scheme}.png`, fullPage: true });
  });
}
