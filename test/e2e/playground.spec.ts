// The playground, driven as a person would: by roles and labels, in the
// built site (`npm run build`, then `npx playwright test`).

import { test, expect, type Page } from '@playwright/test';
import { ORIGIN } from './fixtures/origin.ts';
import AxeBuilder from '@axe-core/playwright';
import { decodeSession, encodeSession } from '../../src/share/share.ts';
import { REPLY, SESSION, SOURCE } from './fixtures/sessions.ts';

// SESSION: four edits: exact (line 2), one line off (cites 4 for line 5), fuzzy (a
// stray semicolon on line 8), and no match (line 11 is not what is cited).

/** Collect page errors and requests that leave the page's origin. */
function watch(page: Page) {
  const errors: string[] = [];
  const foreign: string[] = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  page.on('request', (r) => {
    const url = new URL(r.url());
    if (url.protocol === 'data:' || url.protocol === 'blob:') return;
    if (url.origin !== ORIGIN) foreign.push(r.url());
  });
  return { errors, foreign };
}

const diagnostics = (page: Page) => page.getByRole('region', { name: 'Diagnostics', exact: true });
const result = (page: Page) => page.getByRole('region', { name: 'Result', exact: true });
const row = (page: Page, n: number) => diagnostics(page).locator(`li.ld-row[data-edit="${n - 1}"]`);

/** The four rows of SESSION, checked in detail. */
async function expectFourEdits(page: Page) {
  await expect(diagnostics(page).locator('.ld-summary, #pg-summary')).toContainText('3 of 4 edits applied, 1 failed');
  await expect(row(page, 1)).toContainText('applied');
  await expect(row(page, 1)).toContainText('exact');
  await expect(row(page, 1)).toContainText('cited 2, matched 2');

  await expect(row(page, 2)).toContainText('offset +1');
  await expect(row(page, 2)).toContainText('cited 4, matched 5, +1');

  await expect(row(page, 3)).toContainText('fuzzy');
  await expect(row(page, 3)).toContainText('similarity0.989');
  // cited against actual, whitespace drawn: the stray `;` is marked as the reply's
  await expect(row(page, 3).locator('.ld-cmp del')).toHaveText(';');
  await expect(row(page, 3).locator('.ld-cmp-text').first()).toContainText('····return·calculate_total');

  await expect(row(page, 4)).toContainText('failed');
  await expect(row(page, 4)).toContainText('no-match');
  await expect(row(page, 4)).toContainText('closest 11');
  await expect(row(page, 4).locator('.ld-candidate')).toHaveText('11│    return a * b');
  await expect(row(page, 4).locator('.ld-cmp del')).toHaveText('c');
  await expect(row(page, 4).locator('.ld-cmp ins')).toHaveText('b');
  const retry = row(page, 4).locator('.ld-retry-text');
  await expect(retry).toContainText('the cited line 11 does not match app.py');
  await expect(retry).toContainText('11│    return a * c');
  await expect(retry).toContainText('11│    return a * b');
  await expect(row(page, 4).getByRole('button', { name: 'Copy retry message for edit #4' })).toBeVisible();

  // the merge view shows the text after the edits (side by side; one editor, unified, on a narrow screen)
  const narrow = (page.viewportSize()?.width ?? 1400) < 700;
  const after = result(page).getByLabel(narrow ? 'Before and after: app.py' : 'After: app.py');
  await expect(after).toContainText('print("hi", name)');
  await expect(after).toContainText('return round(calculate_total(items, tax_rate), 2)');
  await expect(result(page).getByLabel(narrow ? 'Before and after: app.py' : 'Before: app.py')).toContainText('print("hello", name)');
}

test.describe('playground', () => {
  test('typing a source and a reply shows exact, +1, fuzzy and failed edits', async ({ page }) => {
    const { errors, foreign } = watch(page);
    await page.goto('/playground/');
    // start from a clean slate: remove the demo file, add one
    await expect(page.getByRole('tab')).toHaveCount(1);
    await page.getByRole('button', { name: 'Remove file' }).click();
    await expect(page.getByRole('tab')).toHaveCount(0);
    await page.getByRole('button', { name: 'Add file' }).click();
    await page.getByLabel('File name', { exact: true }).fill('app.py');
    await page.getByLabel('File name', { exact: true }).press('Enter');
    await expect(page.getByRole('tab', { name: 'app.py' })).toHaveAttribute('aria-selected', 'true');
    await page.getByLabel('Source: app.py').fill(SOURCE);
    await page.getByLabel('Model reply').fill(REPLY);
    await expectFourEdits(page);

    // in place: reply lines coloured by status, source badges for +1 and ≈, failure underlined
    const replyEditor = page.locator('#pg-reply-editor');
    await expect(replyEditor.locator('.ld-line.ld-ok').first()).toBeVisible();
    await expect(replyEditor.locator('.ld-line.ld-warn')).not.toHaveCount(0);
    await expect(replyEditor.locator('.ld-line.ld-bad')).not.toHaveCount(0);
    await expect(replyEditor.locator('.ld-char.ld-bad').first()).toHaveText(';');
    const sourceEditor = page.locator('.pg-panel:not([hidden])');
    await expect(sourceEditor.locator('.ld-badge', { hasText: '+1' })).toBeVisible();
    await expect(sourceEditor.locator('.ld-badge', { hasText: '≈' })).toBeVisible();
    await expect(sourceEditor.locator('.ld-line.ld-warn')).toHaveCount(2);

    // a diagnostic row selects the edit in the reply and its lines in the source
    await row(page, 4).getByRole('button', { name: /#4 app\.py/ }).click();
    await expect(row(page, 4).locator('.ld-row-head')).toHaveAttribute('aria-current', 'true');
    await expect(replyEditor.locator('.ld-line.ld-selected')).toHaveCount(8);
    await expect(sourceEditor.locator('.ld-line.ld-selected')).toHaveCount(1);
    await expect(sourceEditor.locator('.ld-line.ld-selected')).toHaveText('    return a * b');
    await expect(replyEditor.locator('.cm-selectionBackground').first()).toBeAttached();
    // … with the cited line compared in place, under the cited line in the reply
    await expect(replyEditor.locator('.ld-inline-cmp')).toContainText('app.py 11');
    // and clicking into an edit in the reply selects its row
    await replyEditor.getByText('return b + a').click();
    await expect(row(page, 2).locator('.ld-row-head')).toHaveAttribute('aria-current', 'true');

    // the URL hash follows the session (throttled)
    await expect.poll(() => new URL(page.url()).hash.length, { timeout: 5000 }).toBeGreaterThan(10);
    await expect
      .poll(() => {
        const d = decodeSession(new URL(page.url()).hash);
        return d.ok ? d.session.files.map((f) => f.name).join() + '|' + (d.session.reply === REPLY) : d.error;
      })
      .toBe('app.py|true');

    expect(errors).toEqual([]);
    expect(foreign).toEqual([]);
  });

  test('a share link made with encodeSession opens the same session', async ({ page }) => {
    const { errors, foreign } = watch(page);
    await page.goto(`/playground/#${encodeSession({ ...SESSION, selected: 1 })}`);
    await expect(page.getByRole('tab', { name: 'app.py' })).toBeVisible();
    await expectFourEdits(page);
    await expect(row(page, 2).locator('.ld-row-head')).toHaveAttribute('aria-current', 'true');
    await expect(page.getByRole('alert')).toHaveCount(0);
    expect(errors).toEqual([]);
    expect(foreign).toEqual([]);
  });

  test('a broken link shows an alert and opens an empty playground', async ({ page }) => {
    const { errors, foreign } = watch(page);
    for (const hash of ['s=this-is-not-a-session', 's=N4Ig', 's=!!!', 'nothing']) {
      await page.goto(`/playground/#${hash}`);
      await page.reload();
      await expect(page.getByRole('alert')).toContainText('This share link is broken');
      await expect(page.getByLabel('Model reply')).toHaveText('');
      await expect(page.getByRole('tab')).toHaveCount(1);
      // reply-level diagnostics: an empty reply has no edits
      await expect(diagnostics(page)).toContainText('No edits found in the reply.');
      await expect(diagnostics(page)).toContainText('no-edits');
    }
    // a good link afterwards clears it
    await page.goto(`/playground/#${encodeSession(SESSION)}`);
    await expect(page.getByRole('alert')).toHaveCount(0);
    await expectFourEdits(page);
    expect(errors).toEqual([]);
    expect(foreign).toEqual([]);
  });

  test('format picker, the model\'s view, tabs and dropped files', async ({ page }) => {
    const { errors } = watch(page);
    await page.goto(`/playground/#${encodeSession(SESSION)}`);
    await expectFourEdits(page);

    const format = page.getByRole('combobox', { name: 'Format', exact: true });
    await expect(format).toHaveValue('auto');
    await expect(format.locator('option')).toContainText(['auto', 'ln-diff', 'search-replace']);
    await page.getByText('Show the source as the model sees it').click();
    const view = page.getByRole('region', { name: 'The source as the model sees it' });
    await expect(view).toContainText(' 1│def greet(name):');
    await expect(view).toContainText('11│    return a * b');
    await expect(page.getByText('app.py as the ln-diff format shows it to the model')).toBeVisible();

    await format.selectOption('search-replace');
    await expect(diagnostics(page)).toContainText('Format search-replace');
    await expect(page.getByText('The search-replace format shows app.py to the model as it is')).toBeVisible();
    await format.selectOption('ln-diff');
    await expect(diagnostics(page)).toContainText('3 of 4 edits applied');
    await expect(view).toContainText(' 1│def greet(name):');

    // add, rename and remove a file
    await page.getByRole('button', { name: 'Add file' }).click();
    await expect(page.getByRole('tab', { name: 'untitled.txt' })).toHaveAttribute('aria-selected', 'true');
    await page.getByLabel('File name', { exact: true }).fill('notes.md');
    await page.getByLabel('File name', { exact: true }).press('Enter');
    await expect(page.getByRole('tab', { name: 'notes.md' })).toBeVisible();
    await expect(page.getByLabel('Source: notes.md')).toBeVisible();
    // a duplicate name is refused
    await page.getByLabel('File name', { exact: true }).fill('app.py');
    await page.getByLabel('File name', { exact: true }).press('Enter');
    await expect(page.getByRole('status')).toContainText('already a file named app.py');
    await expect(page.getByRole('tab', { name: 'notes.md' })).toBeVisible();
    // arrow keys move between tabs
    await page.getByRole('tab', { name: 'notes.md' }).focus();
    await page.keyboard.press('ArrowLeft');
    await expect(page.getByRole('tab', { name: 'app.py' })).toBeFocused();
    await expect(page.getByRole('tab', { name: 'app.py' })).toHaveAttribute('aria-selected', 'true');
    await page.getByRole('tab', { name: 'notes.md' }).click();
    await page.getByRole('button', { name: 'Remove file' }).click();
    await expect(page.getByRole('tab')).toHaveCount(1);

    // a file dropped on the page becomes a tab; a too large one is refused
    const drop = async (name: string, text: string | number) => {
      const data = await page.evaluateHandle(
        ([n, t]) => {
          const dt = new DataTransfer();
          dt.items.add(new File([typeof t === 'number' ? 'x'.repeat(t) : t], n as string));
          return dt;
        },
        [name, text] as const,
      );
      await page.dispatchEvent('#pg', 'dragover', { dataTransfer: data });
      await page.dispatchEvent('#pg', 'drop', { dataTransfer: data });
    };
    await drop('dropped.py', 'x = 1\n');
    await expect(page.getByRole('tab', { name: 'dropped.py' })).toHaveAttribute('aria-selected', 'true');
    await expect(page.getByLabel('Source: dropped.py')).toHaveText('x = 1');
    await drop('huge.txt', 10_000_001);
    await expect(page.getByRole('alert')).toContainText('Not added: huge.txt');
    await expect(page.getByRole('tab')).toHaveCount(2);
    expect(errors).toEqual([]);
  });

  test('examples load the whole session', async ({ page }) => {
    const { errors, foreign } = watch(page);
    const examples = [
      { id: 'demo-1', title: 'Four edits', session: SESSION },
      { id: 'demo-2', title: 'Empty', session: { format: 'whole', files: [{ name: 'a.txt', text: 'a\n' }], reply: '' } },
      { id: 'bad', title: 'Broken', session: { format: 7, files: 'x' } },
    ];
    await page.route('**/examples.json', (route) => route.fulfill({ json: examples }));
    await page.goto('/playground/');
    const picker = page.getByRole('combobox', { name: 'Example', exact: true });
    await expect(picker).toBeEnabled();
    await picker.selectOption({ label: 'Four edits' });
    await page.getByRole('button', { name: 'Load example' }).click();
    await expectFourEdits(page);
    await expect(page.getByRole('combobox', { name: 'Format', exact: true })).toHaveValue('auto');
    await picker.selectOption({ label: 'Empty' });
    await page.getByRole('button', { name: 'Load example' }).click();
    await expect(page.getByRole('combobox', { name: 'Format', exact: true })).toHaveValue('whole');
    await expect(page.getByRole('tab', { name: 'a.txt' })).toBeVisible();
    await picker.selectOption({ label: 'Broken' });
    await page.getByRole('button', { name: 'Load example' }).click();
    await expect(page.getByRole('status')).toContainText('Could not load the example');
    await expect(page.getByRole('tab', { name: 'a.txt' })).toBeVisible();
    expect(errors).toEqual([]);
    expect(foreign).toEqual([]);
  });

  test('a slow run is stopped and a crashed worker replaced', async ({ page }) => {
    const { errors } = watch(page);
    await page.goto(`/playground/?test-hooks#${encodeSession(SESSION)}`);
    await expectFourEdits(page);
    await page.evaluate(() => {
      const hooks = (window as unknown as { __lnDiffPlayground: { setTimeoutMs(ms: number): void; spin(ms: number): void } }).__lnDiffPlayground;
      hooks.setTimeoutMs(500);
      hooks.spin(5000);
    });
    await expect(page.getByRole('alert')).toContainText('took longer than', { timeout: 3000 });
    // the replacement worker runs the next change, with a limit no busy
    // machine reaches (the 500 ms one served only to stop the spin)
    await page.evaluate(() => (window as unknown as { __lnDiffPlayground: { setTimeoutMs(ms: number): void } }).__lnDiffPlayground.setTimeoutMs(60_000));
    await page.getByLabel('Model reply').press('End');
    await page.getByLabel('Model reply').press('Enter');
    await expect(page.getByRole('alert')).toHaveCount(0);
    await expect(diagnostics(page)).toContainText('3 of 4 edits applied');

    await page.evaluate(() => (window as unknown as { __lnDiffPlayground: { crash(): void } }).__lnDiffPlayground.crash());
    await expect(page.getByRole('alert')).toContainText('worker crashed');
    await page.getByLabel('Model reply').press('Enter');
    await expect(page.getByRole('alert')).toHaveCount(0);
    await expect(diagnostics(page)).toContainText('3 of 4 edits applied');
    expect(errors).toEqual([]);
  });

  test('copy link, copy retry message, and keyboard focus leaves an editor with Tab', async ({ page, context }) => {
    await context.grantPermissions(['clipboard-read', 'clipboard-write']);
    await page.goto(`/playground/#${encodeSession(SESSION)}`);
    await expectFourEdits(page);
    await page.getByRole('button', { name: 'Copy link', exact: true }).click();
    await expect(page.getByRole('status')).toContainText('Link copied');
    const link = await page.evaluate(() => navigator.clipboard.readText());
    const decoded = decodeSession(new URL(link).hash);
    expect(decoded.ok && decoded.session.reply).toBe(REPLY);

    await row(page, 4).getByRole('button', { name: 'Copy retry message for edit #4' }).click();
    const retry = await page.evaluate(() => navigator.clipboard.readText());
    expect(retry).toContain('11│    return a * c');

    const reply = page.getByLabel('Model reply');
    await reply.focus();
    await page.keyboard.press('Tab');
    await expect(reply).not.toBeFocused();
    await expect(reply).toContainText('Here are the edits.');
  });

  test('texts a message quotes keep their whitespace, drawn as in the rows below: two lines differing in leading spaces look different', async ({ page }) => {
    const seen = watch(page);
    const file = 'def parse(text):\n    items = text.split(",")\n\treturn items\n';
    // the SEARCH indents the second line by two spaces where the file has four, and the third with
    // the file's tab: no indentation of the SEARCH stands consistently for the file's, so it fails
    const reply = 'app.py\n<<<<<<< SEARCH\ndef parse(text):\n  items = text.split(",")\n\treturn items\n=======\ndef parse(text):\n  items = text.split(";")\n\treturn items\n>>>>>>> REPLACE\n';
    await page.goto(`/playground/#${encodeSession({ format: 'search-replace', files: [{ name: 'app.py', text: file }], reply })}`);
    await expect(diagnostics(page).locator('#pg-summary')).toContainText('0 of 1 edit applied, 1 failed');
    const message = row(page, 1).locator('.ld-message');
    const quotes = message.locator('.ld-quote');
    await expect(quotes).toHaveText(['····items·=·text.split(",")', '··items·=·text.split(",")']);
    await expect(message).toContainText('where line 2 is "····items·=·text.split(",")" but the SEARCH has "··items·=·text.split(",")"');
    for (const q of await quotes.all()) {
      expect(['pre', 'pre-wrap']).toContain(await q.evaluate((el) => getComputedStyle(el).whiteSpace));
      // the marks are the rows' own: muted spans, the text itself untouched
      await expect(q.locator('.ld-ws[data-ch="space"]').first()).toHaveText('·');
    }
    // the two quotes differ where the file and the SEARCH differ, and look it
    const [a, b] = await quotes.evaluateAll((els) => els.map((el) => (el as HTMLElement).getBoundingClientRect().width));
    expect(a).toBeGreaterThan(b);
    // the same marks as the comparison row below
    await expect(row(page, 1).locator('.ld-cmp-text').first()).toHaveText('··items·=·text.split(",")');
    // nothing in a message is markup: the quotes are text nodes and spans only
    expect(await message.evaluate((el) => [...el.querySelectorAll('*')].every((n) => n.matches('code.ld-quote, span.ld-ws')))).toBe(true);
    expect(seen).toEqual({ errors: [], foreign: [] });
  });

  test('no accessibility violations (light and dark)', async ({ page }) => {
    await page.goto(`/playground/#${encodeSession({ ...SESSION, selected: 3 })}`);
    await expectFourEdits(page);
    await page.getByText('Show the source as the model sees it').click();
    await page.getByText('Matching options').click();
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      const { violations } = await new AxeBuilder({ page }).analyze();
      const summary = violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).slice(0, 5).join(' | ')}`);
      expect(summary, `${scheme}: ${summary.join('\n')}`).toEqual([]);
    }
  });

  test('screenshots', async ({ page }) => {
    const session = { ...SESSION, selected: 3 };
    for (const [name, size] of [
      ['desktop', { width: 1440, height: 2000 }],
      ['phone', { width: 390, height: 3400 }],
    ] as const) {
      for (const scheme of ['light', 'dark'] as const) {
        await page.setViewportSize(size);
        await page.emulateMedia({ colorScheme: scheme });
        await page.goto(`/playground/#${encodeSession(session)}`);
        await expectFourEdits(page);
        await page.waitForTimeout(300);
        await page.screenshot({ path: `test-results/playground-${name}-${scheme}.png`, fullPage: true });
      }
    }
  });
});
