// Typing in a large session on the page's own clock, which the test moves:
// the saved copy and the link in the address are written once typing pauses,
// not once per keystroke; what was typed survives a reload after the pause,
// and one made before the pause (the page is left at once); the same holds
// while typing in the cited line of an edit that fails. Counted by spies
// on localStorage.setItem and history.replaceState installed before the
// page's scripts; no assertion depends on how fast the machine is.

import { test, expect, type Page } from '@playwright/test';
import { encodeSession } from '../../src/share/share.ts';
import { SAVE_KEY } from '../../src/playground/persist.ts';
import { LINK_PAUSE, SAVE_PAUSE, pauseFor } from '../../src/session/pause.ts';
import { largeReply, largeSource } from './fixtures/large.ts';

const CLOCK_START = Date.UTC(2025, 0, 1);
const LINES = 20_000;
const TYPED = 'typed_';

/** Count the page's saves of the session and its address updates. */
function spies() {
  const w = window as unknown as { __counts: { saves: number; addresses: number } };
  w.__counts = { saves: 0, addresses: 0 };
  const setItem = Storage.prototype.setItem;
  Storage.prototype.setItem = function (key: string, value: string) {
    if (key === 'ln-diff:playground:session') w.__counts.saves++;
    return setItem.call(this, key, value);
  };
  const replaceState = History.prototype.replaceState;
  History.prototype.replaceState = function (...args: Parameters<History['replaceState']>) {
    w.__counts.addresses++;
    return replaceState.apply(this, args);
  };
  const pushState = History.prototype.pushState;
  History.prototype.pushState = function (...args: Parameters<History['pushState']>) {
    w.__counts.addresses++;
    return pushState.apply(this, args);
  };
}
const counts = (page: Page) => page.evaluate(() => (window as unknown as { __counts: { saves: number; addresses: number } }).__counts);
const resetCounts = (page: Page) => page.evaluate(() => ((window as unknown as { __counts: unknown }).__counts = { saves: 0, addresses: 0 }));

/**
 * Move the page's clock a quarter of a second at a time until the counts
 * are `want`, for at most `most` ms of it: the link waits its pause, or as
 * long as the last link took to write if that was longer (a busy machine),
 * and is made in a worker, on the real clock.
 */
async function runUntil(page: Page, want: { saves: number; addresses: number }, most = 60_000) {
  for (let t = 0; t < most; t += 250) {
    const now = await counts(page);
    if (now.saves === want.saves && now.addresses === want.addresses) return;
    await page.clock.runFor(250);
  }
  await expect.poll(() => counts(page), { timeout: 60_000 }).toEqual(want);
}

const source = largeSource(LINES);
const session = { format: 'ln-diff', files: [{ name: 'app.py', text: source }], reply: largeReply(LINES, 20) };
const size = source.length + session.reply.length;

/** Open the large session on a paused clock, the cursor at the start of app.py's first line. */
async function open(page: Page) {
  await page.clock.install({ time: CLOCK_START });
  await page.addInitScript(spies);
  await page.goto(`/playground/#${encodeSession(session)}`);
  await expect(page.locator('#pg-summary')).toContainText('All 20 edits applied', { timeout: 60_000 });
  await expect(page.locator('#pg-engine')).toHaveText(/Engine: (<1|\d+) ms/, { timeout: 60_000 });
  await page.clock.pauseAt(CLOCK_START + 3_600_000);
  const editor = page.getByLabel('Source: app.py', { exact: true });
  await editor.click();
  await page.keyboard.press('Control+Home');
  await resetCounts(page);
  return editor;
}

/** Type `text` one key at a time, `gap` ms of the page's clock apart, each keystroke's result shown before the next. */
async function type(page: Page, text: string, gap: number) {
  for (const key of text) {
    await page.keyboard.press(key);
    await page.clock.runFor(gap);
    // An upper bound for the run on 20,000 lines to finish (a busy machine), not a speed check.
    await expect(page.locator('#pg-engine')).toHaveText(/Engine: (<1|\d+) ms/, { timeout: 60_000 });
  }
}

test.describe('typing in a large session', () => {
  test.setTimeout(180_000);

  test('one save and one address update after the pause, none per keystroke; a reload after the pause has the typed text', async ({ page }) => {
    const editor = await open(page);
    const save = pauseFor(size, SAVE_PAUSE);
    const link = pauseFor(size, LINK_PAUSE);
    // keystrokes 500 ms apart: longer than a small session's pause, shorter than either pause for a session this large
    expect(pauseFor(0, SAVE_PAUSE)).toBeLessThan(500);
    expect(save).toBeGreaterThan(500);
    await type(page, TYPED, 500);
    await expect(editor).toContainText(`${TYPED}def function_1(alpha, beta):`);
    expect(await counts(page)).toEqual({ saves: 0, addresses: 0 });

    // the pause: the saved copy is written once, then the link once (made in the link worker)
    await page.clock.runFor(save);
    await expect.poll(() => counts(page)).toEqual({ saves: 1, addresses: 0 });
    await page.clock.runFor(link - save);
    await runUntil(page, { saves: 1, addresses: 1 });
    expect(await page.evaluate((key) => localStorage.getItem(key)?.includes('typed_def function_1(alpha, beta):'), SAVE_KEY)).toBe(true);
    // and nothing more while nothing changes
    await page.clock.runFor(10_000);
    expect(await counts(page)).toEqual({ saves: 1, addresses: 1 });

    // the address holds the typed session: a reload opens it
    await page.reload();
    await expect(page.locator('#pg-summary')).toContainText('All 20 edits applied', { timeout: 60_000 });
    await expect(page.getByLabel('Source: app.py', { exact: true })).toContainText(`${TYPED}def function_1(alpha, beta):`);
    // and so does the saved copy, opened from the bare address
    await page.goto('/playground/');
    await expect(page.getByRole('status')).toContainText('Restored the session saved in this browser', { timeout: 60_000 });
    await expect(page.getByLabel('Source: app.py', { exact: true })).toContainText(`${TYPED}def function_1(alpha, beta):`);
  });

  test('reloaded before the pause: the saved copy is written on the way out, and opens in place of the older link in the address', async ({ page }) => {
    await open(page);
    await type(page, TYPED, 300);
    expect(await counts(page)).toEqual({ saves: 0, addresses: 0 });
    // no pause: the page is reloaded right away
    await page.reload();
    await expect(page.getByRole('status')).toContainText('Restored the session saved in this browser', { timeout: 60_000 });
    await expect(page.getByLabel('Source: app.py', { exact: true })).toContainText(`${TYPED}def function_1(alpha, beta):`);
    // the address follows the session shown; opening the link anew opens the link
    await expect.poll(() => page.evaluate(() => location.hash.length), { timeout: 60_000 }).toBeGreaterThan(10);
    await page.goto(`/playground/#${encodeSession(session)}`);
    await expect(page.locator('#pg-summary')).toContainText('All 20 edits applied', { timeout: 60_000 });
    await expect(page.getByLabel('Source: app.py', { exact: true })).not.toContainText(TYPED);
  });
});

test.describe('typing while an edit fails', () => {
  test.setTimeout(180_000);
  // 2,500 lines and a reply whose last edit cites a line the file does not have.
  const lines = 2500;
  const typo = '    value_1502 = compute(alpha, beta, 1052)  # step 1502';
  const failing = {
    format: 'ln-diff',
    files: [{ name: 'app.py', text: largeSource(lines) }],
    reply: `${largeReply(lines, 10)}app.py\n<editblock>\n<<<<<<< REMOVE\n1502│${typo}\n=======\n    │    value_1502 = compute(beta, alpha, 1502)\n>>>>>>> INSERT\n</editblock>\n`,
  };
  const failingSize = failing.files[0].text.length + failing.reply.length;

  test('in the failing edit: nothing is saved or written to the address while keys come, once each after the pause', async ({ page }) => {
    await page.clock.install({ time: CLOCK_START });
    await page.addInitScript(spies);
    await page.goto(`/playground/#${encodeSession(failing)}`);
    await expect(page.locator('#pg-summary')).toContainText('10 of 11 edits applied, 1 failed', { timeout: 60_000 });
    await expect(page.locator('#pg-engine')).toHaveText(/Engine: (<1|\d+) ms/, { timeout: 60_000 });
    await page.clock.pauseAt(CLOCK_START + 3_600_000);
    // the cursor at the end of the failing edit's cited line
    await page.getByLabel('Model reply', { exact: true }).click();
    await page.keyboard.press('Control+End');
    for (let i = 0; i < 5; i++) await page.keyboard.press('ArrowUp');
    await page.keyboard.press('End');
    await resetCounts(page);
    const save = pauseFor(failingSize, SAVE_PAUSE);
    const link = pauseFor(failingSize, LINK_PAUSE);
    // keystrokes a little quicker than the shorter pause
    for (let n = 1; n <= 8; n++) {
      await page.keyboard.press('x');
      await page.clock.runFor(save - 100);
      // each keystroke's failure shown before the next (the message quotes the cited line)
      await expect(page.locator('#pg-edits')).toContainText(`step 1502${'x'.repeat(n)}"`, { timeout: 60_000 });
    }
    expect(await counts(page)).toEqual({ saves: 0, addresses: 0 });
    await page.clock.runFor(save);
    await expect.poll(() => counts(page)).toEqual({ saves: 1, addresses: 0 });
    await page.clock.runFor(link - save);
    await runUntil(page, { saves: 1, addresses: 1 });
    await page.clock.runFor(10_000);
    expect(await counts(page)).toEqual({ saves: 1, addresses: 1 });
  });
});
