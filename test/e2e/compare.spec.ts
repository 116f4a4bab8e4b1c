// The playground's Compare formats panel: the demo session's change written in
// every format, with sizes, round trips and token counts; the tokenizers load
// only once the panel opens.

import { test, expect } from '@playwright/test';

const FORMATS = ['ln-diff', 'search-replace', 'whole', 'udiff', 'roo', 'udiffx', 'hashline', 'between', 'apply-patch', 'str-replace'];
const TOKENIZER = /o200k|cl100k|llama3|GptEncoding|tokens\//i;

test.describe('compare formats', () => {
  test('lists every format with its size, round trip and token counts; tokenizers load only on open', async ({ page }) => {
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(String(e)));
    const requested: string[] = [];
    page.on('request', (r) => requested.push(new URL(r.url()).pathname));

    await page.goto('/playground/');
    await expect(page.locator('#pg-reply-editor')).toContainText('Here are the changes.');
    await expect(page.getByText('Engine: ready', { exact: false })).toBeVisible().catch(() => undefined);
    // Open the replay panel and run the page a while: still no tokenizer.
    await page.getByText('Replay the reply', { exact: true }).click();
    await page.getByRole('button', { name: 'Step one line' }).click();
    await expect(page.locator('#pg-replay-progress')).toContainText('reply:');
    await page.waitForLoadState('networkidle');
    expect(requested.filter((p) => TOKENIZER.test(p))).toEqual([]);

    await page.getByText('Compare formats', { exact: true }).click();
    const table = page.getByRole('table', { name: 'The change, written in each format' });
    const rows = table.locator('tbody tr');
    await expect(rows).toHaveCount(FORMATS.length);
    await expect(rows.locator('th')).toHaveText(FORMATS);
    await expect(page.locator('#pg-compare-status')).toContainText('Token counts ready.', { timeout: 30_000 });
    expect(requested.filter((p) => TOKENIZER.test(p)).length).toBeGreaterThan(0);

    for (const format of FORMATS) {
      const row = table.locator(`tbody tr[data-format="${format}"]`);
      const cells = row.locator('td');
      // characters, o200k, cl100k, Llama 3, Claude, Gemini: all numbers above zero
      for (let i = 0; i < 6; i++) await expect(cells.nth(i)).toHaveText(/^[1-9][\d,]*$/);
      await expect(cells.nth(6)).toHaveText('✓ round-trips');
    }
    await expect(page.locator('#pg-compare-status')).toContainText('The change to greet.py, in 10 formats (10 round-trip).');

    // The source views: plain text first, each with its size and counts.
    const views = page.getByRole('table', { name: 'Showing the source to the model' }).locator('tbody tr');
    await expect(views.first().locator('th')).toHaveText('plain text');
    expect(await views.count()).toBeGreaterThanOrEqual(3);
    for (let i = 0; i < (await views.count()); i++) {
      for (let c = 1; c < 7; c++) await expect(views.nth(i).locator('td').nth(c)).toHaveText(/^[1-9][\d,]*$/);
    }
    // How the counts are made, estimates named as such.
    await page.getByText('How tokens are counted', { exact: true }).click();
    await expect(page.locator('#pg-compare-method')).toContainText('Claude and Gemini are estimates');

    // Each reply is there to read.
    await page.locator('#pg-compare-replies summary', { hasText: /^udiff:/ }).click();
    await expect(page.getByRole('region', { name: 'The change in udiff' })).toContainText('+def greet(name: str) -> None:');
    expect(errors).toEqual([]);
  });
});
