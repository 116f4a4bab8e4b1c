// The Agents page (/agents/): what `ln-diff mcp` offers and each client's
// configuration, every snippet well-formed and naming the command, each
// linked to the client's documentation; in the site nav and on the home
// page; no JavaScript shipped; axe finds nothing in light or dark; nothing
// overflows a phone's width. The playground's result summary links to it.
// Screenshots (desktop light and dark, phone) go to test-results/.

import { test, expect } from '@playwright/test';
import AxeBuilder from '@axe-core/playwright';
import { encodeSession } from '../../src/share/share.ts';
import { SESSION } from './fixtures/sessions.ts';

const CLIENTS = ['Claude Desktop', 'Claude Code', 'Cursor', 'VS Code', 'Zed', 'Codex CLI', 'Continue'];

test('the page lists the tools and every client, each snippet well-formed with its documentation', async ({ page }) => {
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  await page.goto('/agents/');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('ln-diff in your agent');
  await expect(page.getByRole('link', { name: 'Agents', exact: true })).toHaveAttribute('aria-current', 'page');
  await expect(page.getByLabel('Run the server')).toHaveText('node /absolute/path/to/ln-diff/bin/ln-diff.cjs mcp');
  // Not on the npm registry yet: the npx form is shown only as what works once it is.
  await expect(page.getByText(/Once ln-diff is published on npm, npx -y ln-diff mcp will run it/)).toBeVisible();
  const tools = page.locator('table tbody tr td:first-child code.tool');
  await expect(tools).toHaveText(['read_file', 'apply_edits', 'list_formats']);

  for (const name of CLIENTS) {
    const section = page.getByRole('region', { name, exact: true });
    await expect(section).toBeVisible();
    const snippet = (await section.getByLabel(`${name} configuration`).textContent()) ?? '';
    expect(snippet, name).toMatch(/ln-diff/);
    expect(snippet, name).toMatch(/\bmcp\b/);
    expect(snippet, name).not.toMatch(/npx/);
    const lang = await section.locator('pre').getAttribute('data-lang');
    if (lang === 'json') {
      const config = JSON.parse(snippet) as Record<string, Record<string, { command: string; args: string[] }>>;
      const servers = config.mcpServers ?? config.servers ?? config.context_servers;
      expect(servers, name).toBeTruthy();
      expect(servers['ln-diff'].command, name).toBe('node');
      expect(servers['ln-diff'].args.slice(0, 2), name).toEqual(['/absolute/path/to/ln-diff/bin/ln-diff.cjs', 'mcp']);
    }
    const doc = await section.getByRole('link').last().getAttribute('href');
    expect(doc, name).toMatch(/^https:\/\//);
  }
  // VS Code's file is "servers" with a required "type"; Zed's is "context_servers".
  expect(await page.getByLabel('VS Code configuration').textContent()).toContain('"type": "stdio"');
  expect(await page.getByLabel('Zed configuration').textContent()).toContain('"context_servers"');
  expect(await page.getByLabel('Codex CLI configuration').textContent()).toContain('[mcp_servers.ln-diff]');
  expect(errors).toEqual([]);
});

test('no JavaScript is shipped on the page, and the home page links to it', async ({ page }) => {
  await page.goto('/agents/');
  // Only the layout's inline theme script (see site.spec.ts), no script of its own.
  await expect(page.locator('script')).toHaveCount(1);
  await expect(page.locator('head > script:not([src])')).toHaveCount(1);
  await page.goto('/');
  await page.getByRole('link', { name: /In your agent/ }).click();
  await expect(page).toHaveURL(/\/agents\/$/);
});

test("the playground's result summary offers the format it used for an agent", async ({ page }) => {
  await page.goto(`/playground/#${encodeSession(SESSION)}`);
  const link = page.getByRole('region', { name: 'Diagnostics', exact: true }).getByRole('link', { name: /^Use [a-z-]+ in your agent$/ });
  await expect(link).toHaveText('Use ln-diff in your agent');
  await expect(link).toHaveAttribute('href', '/agents/#configure');
});

for (const scheme of ['light', 'dark'] as const) {
  test(`accessibility and a desktop screenshot (${scheme})`, async ({ page }) => {
    await page.setViewportSize({ width: 1440, height: 1000 });
    await page.emulateMedia({ colorScheme: scheme });
    await page.goto('/agents/');
    const results = await new AxeBuilder({ page }).analyze();
    expect(results.violations.map((v) => `${v.id} ${v.nodes.map((n) => n.target).join(' ')}`)).toEqual([]);
    await page.screenshot({ path: `test-results/agents-desktop-${scheme}.png`, fullPage: true });
  });
}

test('on a phone (390 px) nothing is wider than the screen', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto('/agents/');
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  expect(overflow).toBeLessThanOrEqual(0);
  await page.screenshot({ path: 'test-results/agents-phone.png', fullPage: true });
});
