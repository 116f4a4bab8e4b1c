// What a keystroke redraws in the diagnostics, on a 5,000-line source with
// a 50-edit reply: a key typed in the line edit #1 replaces makes #1 a fuzzy
// match, on that line (its row, the mark and the badge on line 2 of the
// source); Backspace makes it the offset match it was. Only edit #1's row is
// drawn anew: the other 49 rows stay where they are, the same elements,
// never taken out of the list; the summary is left as it is. Keys typed
// without waiting for any result end in the result of the text they leave.

import { test, expect, type Page } from '@playwright/test';
import { encodeSession } from '../../src/share/share.ts';
import { largeReply, largeSource } from './fixtures/large.ts';

const LINES = 5000;
const EDITS = 50;
const SESSION = { format: 'ln-diff', files: [{ name: 'app.py', text: largeSource(LINES) }], reply: largeReply(LINES, EDITS) };

const row = (page: Page, n: number) => page.locator(`#pg-edits li.ld-row[data-edit="${n - 1}"]`);

/**
 * At the end of a line edit #1 cites, "xy" and a Backspace typed without
 * waiting: edit #1 matches fuzzily, quoting "2x" (what the keys left); one
 * Backspace more, and it matches again at its offset.
 */
async function typeThenUndo(page: Page) {
  await page.keyboard.type('xy', { delay: 5 });
  await page.keyboard.press('Backspace', { delay: 5 });
  await expect(row(page, 1)).toContainText('fuzzy');
  await expect(row(page, 1)).toContainText('2x');
  await expect(row(page, 1)).not.toContainText('2xy');
  await page.keyboard.press('Backspace');
  await expect(row(page, 1)).toContainText('offset');
}

/** Record every row taken out of the list or put into it, and mark the rows and the summary's text as they are now. */
function watchList(page: Page) {
  return page.evaluate(() => {
    const list = document.querySelector('#pg-edits')!;
    const w = window as unknown as { __moved: string[] };
    w.__moved = [];
    new MutationObserver((records) => {
      for (const r of records) {
        for (const n of r.removedNodes) w.__moved.push(`out ${(n as HTMLElement).dataset?.edit}`);
        for (const n of r.addedNodes) w.__moved.push(`in ${(n as HTMLElement).dataset?.edit}`);
      }
    }).observe(list, { childList: true });
    for (const li of list.querySelectorAll<HTMLElement>('li.ld-row')) li.dataset.probe = 'kept';
    (document.querySelector('#pg-summary strong') as HTMLElement).dataset.probe = 'kept';
  });
}
const moved = (page: Page) => page.evaluate(() => (window as unknown as { __moved: string[] }).__moved);

/** The badge and the mark's tone on a line of the source editor (the line is in sight). */
function sourceLine(page: Page, n: number) {
  return page.evaluate((n) => {
    const editor = document.querySelector('[aria-label="Source: app.py"]')!.closest('.cm-editor')!;
    const numbers = [...editor.querySelectorAll<HTMLElement>('.cm-lineNumbers .cm-gutterElement')];
    const g = numbers.find((el) => el.textContent === String(n));
    if (!g) return null;
    const top = g.getBoundingClientRect().top;
    const line = [...editor.querySelectorAll<HTMLElement>('.cm-content .cm-line')].find((l) => Math.abs(l.getBoundingClientRect().top - top) < 2);
    const badge = [...editor.querySelectorAll<HTMLElement>('.ld-badges .cm-gutterElement')].find((el) => Math.abs(el.getBoundingClientRect().top - top) < 2);
    const tone = line ? (['ld-ok', 'ld-warn', 'ld-bad'].find((c) => line.classList.contains(c)) ?? 'none') : 'no line';
    return { text: line?.textContent ?? '', tone, badge: badge?.textContent ?? '' };
  }, n);
}

test.describe('a keystroke in a 5,000-line session', () => {
  test.setTimeout(120_000);

  test.beforeEach(async ({ page }) => {
    await page.setViewportSize({ width: 1400, height: 1000 });
    await page.goto(`/playground/#${encodeSession(SESSION)}`);
    await expect(page.locator('#pg-summary')).toContainText(`All ${EDITS} edits applied`, { timeout: 60_000 });
    await expect(row(page, 1)).toContainText('offset');
  });

  test('redraws only the row of the edit it changes, and marks the right line', async ({ page }) => {
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(String(e)));
    const editor = page.getByLabel('Source: app.py', { exact: true });
    await editor.click();
    await page.keyboard.press('Control+Home');
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('End');
    // Edit #1 is an offset match (it cites line 3): marked on line 2, with its offset.
    await expect.poll(() => sourceLine(page, 2)).toEqual({ text: '    value_2 = compute(alpha, beta, 2)  # step 2', tone: 'ld-warn', badge: '\u22121' });
    expect(await sourceLine(page, 3)).toMatchObject({ tone: 'none', badge: '' });
    await watchList(page);

    await page.keyboard.press('x');
    await expect(row(page, 1)).toContainText('fuzzy');
    await expect.poll(() => sourceLine(page, 2)).toEqual({ text: '    value_2 = compute(alpha, beta, 2)  # step 2x', tone: 'ld-warn', badge: '\u2248' });
    await expect(page.locator('#pg-summary')).toContainText(`All ${EDITS} edits applied`);
    // Row #1 replaced in place; the 49 others untouched; the summary's text the same element.
    expect(await moved(page)).toEqual(['out 0', 'in 0']);
    await expect(page.locator('#pg-edits li.ld-row[data-probe="kept"]')).toHaveCount(EDITS - 1);
    await expect(row(page, 1)).not.toHaveAttribute('data-probe', 'kept');
    await expect(page.locator('#pg-summary strong')).toHaveAttribute('data-probe', 'kept');

    await page.keyboard.press('Backspace');
    await expect(row(page, 1)).toContainText('offset');
    await expect.poll(() => sourceLine(page, 2)).toEqual({ text: '    value_2 = compute(alpha, beta, 2)  # step 2', tone: 'ld-warn', badge: '\u22121' });
    await expect(page.locator('#pg-edits li.ld-row[data-probe="kept"]')).toHaveCount(EDITS - 1);
    const rows = await page.locator('#pg-edits li.ld-row').evaluateAll((els) => els.map((el) => (el as HTMLElement).dataset.edit));
    expect(rows).toEqual(Array.from({ length: EDITS }, (_, i) => String(i)));
    expect(errors).toEqual([]);
  });

  test('keys typed without waiting end in the result of the text they leave, in the reply and in the source', async ({ page }) => {
    // The reply: the end of edit #1's cited line (its fourth line).
    const reply = page.getByLabel('Model reply', { exact: true });
    await reply.click();
    await page.keyboard.press('Control+Home');
    for (let i = 0; i < 3; i++) await page.keyboard.press('ArrowDown');
    await page.keyboard.press('End');
    // The reply cites "2x" where the file has "2": a fuzzy match, its comparison quoting what the keys left.
    await typeThenUndo(page);
    await expect(row(page, 1)).not.toContainText('2x');
    // The same in the source, at the end of line 2 (the line edit #1 replaces).
    const source = page.getByLabel('Source: app.py', { exact: true });
    await source.click();
    await page.keyboard.press('Control+Home');
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('End');
    await typeThenUndo(page);
    await expect(page.locator('#pg-summary')).toContainText(`All ${EDITS} edits applied`);
  });
});
