// What the user typed survives a reload (localStorage, debounced, never the
// API key, size-capped); a share link wins over it; Reset asks first, then
// brings the demo back and forgets the saved state.

import { test, expect, type Page } from '@playwright/test';
import { encodeSession, type Session } from '../../src/share/share.ts';
import { SAVE_KEY } from '../../src/playground/persist.ts';

const saved = (page: Page) => page.evaluate((key) => localStorage.getItem(key), SAVE_KEY);
const replyEditor = (page: Page) => page.getByLabel('Model reply');
const DEMO_TAB = 'greet.py';

/** The reply's last lines (the editor draws only what is in view). */
async function expectReplyEnd(page: Page, text: string) {
  await replyEditor(page).click();
  await page.keyboard.press('Control+End');
  await expect(replyEditor(page)).toContainText(text);
}

function watch(page: Page) {
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  return errors;
}

test.describe('saved state', () => {
  test('typed text, a new file and the format survive a reload; the API key is never saved', async ({ page }) => {
    const errors = watch(page);
    await page.goto('/playground/');
    await expect(page.getByRole('tab', { name: DEMO_TAB })).toBeVisible();
    expect(await saved(page)).toBeNull();

    // an API key typed in the live panel
    await page.locator('#pg-live > summary').click();
    await page.getByLabel('API key').fill('sk-secret-never-saved-1234');

    await page.getByRole('button', { name: 'Add file' }).click();
    await page.getByLabel('File name', { exact: true }).fill('notes.md');
    await page.getByLabel('File name', { exact: true }).press('Enter');
    await page.getByLabel('Source: notes.md').fill('kept across reloads\n');
    await page.getByRole('combobox', { name: 'Format', exact: true }).selectOption('whole');
    await replyEditor(page).click();
    await page.keyboard.press('Control+End');
    await page.keyboard.type('\nA line typed by hand.');

    await expect.poll(async () => (await saved(page)) ?? '').toContain('A line typed by hand.');
    const text = (await saved(page))!;
    expect(text).toContain('kept across reloads');
    expect(text).not.toContain('sk-secret-never-saved-1234');
    const stored = JSON.parse(text) as { v: number; session: Session };
    expect(stored.v).toBe(1);
    expect(stored.session.format).toBe('whole');
    expect(stored.session.files.map((f) => f.name)).toEqual([DEMO_TAB, 'notes.md']);
    expect(Object.keys(stored.session).sort()).toEqual(['files', 'format', 'reply']);

    // the bare address (no link) restores it
    await page.goto('/playground/');
    await expect(page.getByRole('tab', { name: 'notes.md' })).toBeVisible();
    await expect(page.getByRole('tab', { name: DEMO_TAB })).toBeVisible();
    await expect(page.getByRole('status')).toContainText('Restored the session saved in this browser');
    await expect(page.getByRole('combobox', { name: 'Format', exact: true })).toHaveValue('whole');
    await expectReplyEnd(page, 'A line typed by hand.');
    const all = await page.evaluate(() => JSON.stringify({ ...localStorage }));
    expect(all).not.toContain('sk-secret-never-saved-1234');
    expect(errors).toEqual([]);
  });

  test('a change made just before leaving the page is saved on the way out', async ({ page }) => {
    await page.goto('/playground/');
    await expect(page.getByRole('tab', { name: DEMO_TAB })).toBeVisible();
    await replyEditor(page).click();
    await page.keyboard.press('Control+End');
    await page.keyboard.type('\nlast words');
    await page.goto('/');
    await page.goto('/playground/');
    await expect(page.getByRole('status')).toContainText('Restored the session saved in this browser');
    await expectReplyEnd(page, 'last words');
  });

  test('a share link wins over the saved state', async ({ page }) => {
    await page.goto('/playground/');
    await replyEditor(page).click();
    await page.keyboard.press('Control+End');
    await page.keyboard.type('\nsaved locally');
    await expect.poll(async () => (await saved(page)) ?? '').toContain('saved locally');

    const linked: Session = { format: 'auto', files: [{ name: 'linked.txt', text: 'from the link\n' }], reply: 'the linked reply' };
    await page.goto(`/playground/#${encodeSession(linked)}`);
    await expect(page.getByRole('tab', { name: 'linked.txt' })).toBeVisible();
    await expect(page.getByRole('tab')).toHaveCount(1);
    await expect(replyEditor(page)).toHaveText('the linked reply');
    // opening a link does not overwrite what was saved
    expect(await saved(page)).toContain('saved locally');
  });

  test('a broken saved state is ignored and the demo opens', async ({ page }) => {
    await page.goto('/playground/');
    await page.evaluate((key) => localStorage.setItem(key, '{"v":1,"session":{"files":"nope"}}'), SAVE_KEY);
    await page.goto('/playground/');
    await expect(page.getByRole('tab', { name: DEMO_TAB })).toBeVisible();
    await page.evaluate((key) => localStorage.setItem(key, 'not json at all'), SAVE_KEY);
    await page.goto('/playground/');
    await expect(page.getByRole('tab', { name: DEMO_TAB })).toBeVisible();
  });

  test('a session over 4 MB is not saved, and the page says so', async ({ page }) => {
    await page.goto('/playground/');
    await replyEditor(page).click();
    await page.keyboard.press('Control+End');
    await page.keyboard.type('\nsmall');
    await expect.poll(async () => (await saved(page)) ?? '').toContain('small');

    const big = 'x'.repeat(99) + '\n';
    const file = { name: 'big.txt', mimeType: 'text/plain', buffer: Buffer.from(big.repeat(45_000)) }; // 4.5 MB
    await page.locator('#pg-file-input').setInputFiles(file);
    await expect(page.getByRole('tab', { name: 'big.txt' })).toBeVisible();
    const note = page.locator('#pg-save-note');
    await expect(note).toBeVisible();
    await expect(note).toContainText('too large to keep in this browser');
    await expect(note).toContainText('4.5 MB');
    // the older, smaller state is gone too: it would not be what the user has now
    expect(await saved(page)).toBeNull();

    // small again: saved again, the note goes
    await page.getByRole('button', { name: 'Remove file' }).click();
    await expect(note).toBeHidden();
    await expect.poll(async () => (await saved(page)) ?? '').toContain('small');
  });

  test('Reset asks first; "No" keeps everything, "Yes" brings the demo back and clears the saved state', async ({ page }) => {
    const errors = watch(page);
    const linked: Session = { format: 'whole', files: [{ name: 'mine.txt', text: 'my text\n' }], reply: 'my reply' };
    await page.goto(`/playground/#${encodeSession(linked)}`);
    await expect(page.getByRole('tab', { name: 'mine.txt' })).toBeVisible();
    await replyEditor(page).click();
    await page.keyboard.press('End');
    await page.keyboard.type(' and more');
    await expect.poll(async () => (await saved(page)) ?? '').toContain('my reply and more');

    await page.getByRole('button', { name: 'Reset' }).click();
    const confirm = page.getByRole('group', { name: 'Confirm reset' });
    await expect(confirm).toContainText('Discard everything?');
    await expect(page.getByRole('button', { name: 'Reset' })).toBeHidden();
    await confirm.getByRole('button', { name: 'No' }).click();
    await expect(confirm).toBeHidden();
    await expect(page.getByRole('button', { name: 'Reset' })).toBeFocused();
    await expect(replyEditor(page)).toHaveText('my reply and more');
    expect(await saved(page)).toContain('my reply and more');

    await page.getByRole('button', { name: 'Reset' }).click();
    await page.keyboard.press('Escape');
    await expect(confirm).toBeHidden();
    await expect(replyEditor(page)).toHaveText('my reply and more');

    await page.getByRole('button', { name: 'Reset' }).click();
    await confirm.getByRole('button', { name: 'Yes, discard' }).click();
    await expect(page.getByRole('tab', { name: DEMO_TAB })).toBeVisible();
    await expect(page.getByRole('tab')).toHaveCount(1);
    await expect(page.getByRole('combobox', { name: 'Format', exact: true })).toHaveValue('auto');
    await expect(page.getByRole('status')).toContainText('Reset');
    expect(await saved(page)).toBeNull();
    expect(new URL(page.url()).hash).toBe('');
    // and it stays cleared once the demo has run
    await expect(page.locator('#pg-summary')).toContainText('edits applied');
    await page.waitForTimeout(1000);
    expect(await saved(page)).toBeNull();
    expect(new URL(page.url()).hash).toBe('');

    await page.reload();
    await expect(page.getByRole('tab', { name: DEMO_TAB })).toBeVisible();
    await expect(page.getByRole('tab')).toHaveCount(1);
    expect(errors).toEqual([]);
  });
});
