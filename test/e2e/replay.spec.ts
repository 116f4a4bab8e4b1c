// The playground's Replay panel: the reply played as if a model were writing
// it, with each edit applied when its block closes, before the reply ends.

import { readFileSync } from 'node:fs';
import { test, expect, type Locator, type Page } from '@playwright/test';
import AxeBuilder from '@axe-core/playwright';
import { applyRequest } from '../../src/formats/index.ts';
import { encodeSession } from '../../src/share/share.ts';
import { largeReply as reply, largeSource as source } from './fixtures/large.ts';

interface Example {
  id: string;
  title: string;
  session: { format: string; files: { name: string; text: string }[]; reply: string };
}

async function loadExample(page: Page, title: string): Promise<void> {
  const picker = page.getByRole('combobox', { name: 'Example', exact: true });
  await expect(picker).toBeEnabled();
  await picker.selectOption({ label: title });
  await page.getByRole('button', { name: 'Load example' }).click();
  await expect(page.locator('#pg-reply-editor')).toContainText('Both files are now consistent.');
}

function watchErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  return errors;
}

const panel = (page: Page) => page.locator('#pg-replay');
const log = (page: Page) => page.getByRole('list', { name: 'Events' });
const progress = (page: Page) => page.locator('#pg-replay-progress');
const sourceViews = (page: Page) => page.getByRole('region', { name: 'Source: lines each edit touches' });
const appliedViews = (page: Page) => page.getByRole('region', { name: 'Files with the edits applied so far' });

/**
 * Open the Replay panel once the page has settled: a click while the result
 * view above it is still being laid out can land elsewhere (the summary moves
 * between the press and the release), so the panel's state is checked and the
 * click repeated only if it did not open.
 */
async function openReplay(page: Page): Promise<void> {
  await expect(page.locator('#pg-merge .cm-editor').first()).toBeVisible();
  const box = panel(page);
  await expect(async () => {
    if (!(await box.evaluate((d) => (d as HTMLDetailsElement).open))) await box.locator('summary').click();
    await expect(box).toHaveAttribute('open', '', { timeout: 1000 });
  }).toPass();
}

/** The line numbers an editor shows inside its scroller. */
async function visibleLines(editor: Locator): Promise<number[]> {
  await editor.scrollIntoViewIfNeeded();
  return editor.evaluate((el) => {
    const box = el.querySelector('.cm-scroller')!.getBoundingClientRect();
    return [...el.querySelectorAll('.cm-lineNumbers .cm-gutterElement')]
      .filter((g) => {
        const r = g.getBoundingClientRect();
        return r.height > 0 && r.top >= box.top - 1 && r.bottom <= box.bottom + 1;
      })
      .map((g) => Number(g.textContent))
      .filter((n) => n > 0);
  });
}

/** The text the Download button of a file's applied view saves. */
async function downloaded(page: Page, file: string): Promise<string> {
  const [download] = await Promise.all([page.waitForEvent('download'), appliedViews(page).getByRole('button', { name: `Download ${file} with the edits applied so far` }).click()]);
  return readFileSync((await download.path())!, 'utf8');
}

test.describe('replay', () => {
  let example: Example;

  test.beforeAll(async ({ request }) => {
    const all = (await (await request.get('/examples.json')).json()) as Example[];
    example = all.find((x) => x.title === 'ln-diff: Several files')!;
    expect(example).toBeTruthy();
  });

  test('plays a multi-block reply and applies the first edit before the reply ends', async ({ page }) => {
    const errors = watchErrors(page);
    await page.goto('/playground/');
    await loadExample(page, 'ln-diff: Several files');
    const total = example.session.reply.length;

    await openReplay(page);
    await expect(panel(page).getByText('about 4 characters')).toBeVisible();
    await page.getByRole('spinbutton', { name: 'Speed (tokens per second)' }).fill('200');
    await page.getByRole('button', { name: 'Play', exact: true }).click();

    const first = log(page).getByText(/^Edit 1 \(src\/config\.ts\) applied at/);
    await expect(first).toBeVisible();
    const m = /applied at ([\d,]+) ms \(character ([\d,]+) of ([\d,]+)\)/.exec((await first.textContent()) ?? '');
    expect(m).not.toBeNull();
    const [appliedMs, appliedChar, of] = m!.slice(1).map((s) => Number(s.replace(/,/g, '')));
    expect(of).toBe(total);
    expect(appliedChar).toBeLessThan(total);
    // the first block ends where its </editblock> line ends
    expect(appliedChar).toBeGreaterThanOrEqual(example.session.reply.indexOf('</editblock>\n') + '</editblock>\n'.length);

    await expect(progress(page)).toContainText(`reply: ${total} of ${total} characters`);
    await expect(progress(page)).toContainText('done');
    await expect(log(page).getByText(/^Edit 2 \(src\/server\.ts\) applied at/)).toBeVisible();
    const summary = page.getByRole('table', { name: /^Whole reply at [\d,]+ ms/ });
    await expect(summary).toBeVisible();
    const whole = Number(/Whole reply at ([\d,]+) ms/.exec((await summary.locator('caption').textContent()) ?? '')![1].replace(/,/g, ''));
    expect(appliedMs).toBeLessThan(whole);
    // the applied files show both edits
    const files = page.getByRole('region', { name: 'Files with the edits applied so far' });
    await expect(files).toContainText('port: 3000,');
    await expect(files).toContainText('server listening on port');
    // the source shows the lines each edit touched, marked applied
    const source = page.getByRole('region', { name: 'Source: lines each edit touches' });
    await expect(source.locator('.cm-line.ld-ok')).toHaveCount(2);
    await expect(page.getByRole('button', { name: 'Play again' })).toBeVisible();
    expect(errors).toEqual([]);
  });

  test('pause and step, from the keyboard', async ({ page }) => {
    const errors = watchErrors(page);
    await page.goto('/playground/');
    await loadExample(page, 'ln-diff: Several files');
    const reply = example.session.reply;
    const total = reply.length;

    const summary = page.getByText('Replay the reply', { exact: true });
    await summary.focus();
    await page.keyboard.press('Enter');
    const step = page.getByRole('button', { name: 'Step one line' });
    await expect(step).toBeEnabled();
    await step.focus();
    await expect(step).toBeFocused();

    // One line at a time: the first line of the reply, then the next.
    const lineEnd = (from: number) => reply.indexOf('\n', from) + 1;
    await page.keyboard.press('Enter');
    let at = lineEnd(0);
    await expect(progress(page)).toContainText(`reply: ${at} of ${total} characters`);
    await expect(progress(page)).toContainText('paused');
    await expect(page.getByRole('region', { name: 'Reply so far' })).toHaveText(reply.slice(0, at));

    // Step until the first edit's lines are known: line 2 of src/config.ts is highlighted as pending.
    const source = page.getByRole('region', { name: 'Source: lines each edit touches' });
    const known = log(page).getByText('Edit 1 (src/config.ts): line 2 known at');
    while (!(await known.isVisible())) {
      await page.keyboard.press('Enter');
      at = lineEnd(at);
      await expect(progress(page)).toContainText(`reply: ${at} of ${total} characters`);
    }
    await expect(source.locator('.cm-line.ld-warn')).toHaveCount(1);
    await expect(source.locator('.cm-line.ld-warn')).toContainText('port: 8080,');
    // The line `2│  port: 8080,` made it known.
    expect(reply.slice(0, at).endsWith('2│  port: 8080,\n')).toBe(true);

    // Step until edit 1 applies: exactly at the end of its </editblock> line.
    const applied = log(page).getByText(/^Edit 1 \(src\/config\.ts\) applied at/);
    while (!(await applied.isVisible())) {
      await page.keyboard.press('Enter');
      at = lineEnd(at);
      await expect(progress(page)).toContainText(`reply: ${at} of ${total} characters`);
    }
    const closes = reply.indexOf('</editblock>\n') + '</editblock>\n'.length;
    expect(at).toBe(closes);
    await expect(applied).toContainText(`(character ${closes} of ${total})`);
    await expect(page.getByRole('region', { name: 'Files with the edits applied so far' })).toContainText('port: 3000,');

    // Play, then pause: the position holds.
    const play = page.getByRole('button', { name: 'Resume' });
    await play.focus();
    await page.getByRole('spinbutton', { name: 'Speed (tokens per second)' }).fill('1');
    await play.focus();
    await page.keyboard.press('Enter');
    const pause = page.getByRole('button', { name: 'Pause' });
    await expect(pause).toBeFocused();
    await page.keyboard.press('Enter');
    await expect(page.getByRole('button', { name: 'Resume' })).toBeVisible();
    await expect(progress(page)).toContainText('paused');
    // a piece already on its way to the worker when Pause was pressed still lands: read the position once
    // two reads 200 ms apart agree (however late that piece lands), then it must not move again
    let held = await progress(page).textContent();
    for (;;) {
      await page.waitForTimeout(200);
      const now = await progress(page).textContent();
      if (now === held) break;
      held = now;
    }
    await page.waitForTimeout(300);
    expect(await progress(page).textContent()).toBe(held);

    // Restart goes back to the beginning.
    await page.getByRole('button', { name: 'Restart' }).click();
    await expect(progress(page)).toContainText(`reply: 0 of ${total} characters`);
    await expect(log(page).locator('li')).toHaveCount(0);
    // the applied edit is undone and no line is marked
    await expect(appliedViews(page)).toContainText('port: 8080,');
    await expect(appliedViews(page)).not.toContainText('port: 3000,');
    await expect(page.locator('#pg-replay .cm-line.ld-line')).toHaveCount(0);
    expect(errors).toEqual([]);
  });

  test('every example with several edits applies its first edit before the reply ends', async ({ page, request }) => {
    test.setTimeout(120_000);
    const all = (await (await request.get('/examples.json')).json()) as Example[];
    await page.goto('/playground/');
    await openReplay(page);
    const picker = page.getByRole('combobox', { name: 'Example', exact: true });
    await expect(picker).toBeEnabled();
    const several: string[] = [];
    for (const ex of all) {
      await picker.selectOption({ label: ex.title });
      await page.getByRole('button', { name: 'Load example' }).click();
      await expect(page.getByRole('status')).toContainText(`Loaded the example “${ex.title}”.`);
      await page.getByRole('spinbutton', { name: 'Speed (tokens per second)' }).fill('100');
      await page.getByRole('button', { name: /^(Play|Play again)$/ }).click();
      await expect(progress(page)).toContainText(`reply: ${ex.session.reply.length} of ${ex.session.reply.length} characters`);
      await expect(progress(page)).toContainText('done');
      const completed = log(page).getByText(/^Edit \d+ \(.*\) (applied|failed) at/);
      if ((await completed.count()) < 2) continue;
      several.push(ex.title);
      const first = /\(character ([\d,]+) of ([\d,]+)\)/.exec((await completed.first().textContent()) ?? '')!;
      expect(Number(first[1].replace(/,/g, '')), ex.title).toBeLessThan(Number(first[2].replace(/,/g, '')));
    }
    console.log(`examples with several edits: ${several.join('; ')}`);
    expect(several.length).toBeGreaterThanOrEqual(2);
  });

  test('the demo session: four edits, each reported, the failed one too', async ({ page }) => {
    await page.goto('/playground/');
    await expect(page.locator('#pg-reply-editor')).toContainText('Here are the changes.');
    await openReplay(page);
    await page.getByRole('spinbutton', { name: 'Speed (tokens per second)' }).fill('2000');
    await page.getByRole('button', { name: 'Play', exact: true }).click();
    await expect(progress(page)).toContainText('done');
    await expect(progress(page)).toContainText('4 of 4 edits complete');
    await expect(log(page).getByText(/^Edit 4 \(greet\.py\) failed at/)).toBeVisible();
    await expect(page.getByRole('table', { name: /^Whole reply at/ }).locator('tbody tr')).toHaveCount(4);
  });

  test('a 20,000-line file: replays to the end at the chosen pace, follows the last touched lines, and applies what the engine applies', async ({ page }) => {
    test.setTimeout(180_000);
    const errors = watchErrors(page);
    const files = { 'app.py': source(20_000) };
    const text = reply(20_000, 20);
    await page.goto(`/playground/#${encodeSession({ format: 'ln-diff', files: [{ name: 'app.py', text: files['app.py'] }], reply: text })}`);
    await openReplay(page);
    await page.getByRole('spinbutton', { name: 'Speed (tokens per second)' }).fill('10000');
    await page.getByRole('button', { name: 'Play', exact: true }).click();
    await expect(progress(page)).toContainText('done', { timeout: 120_000 });
    await expect(progress(page)).toContainText(`reply: ${text.length.toLocaleString('en-US')} of ${text.length.toLocaleString('en-US')} characters`);
    await expect(progress(page)).toContainText('20 of 20 edits complete');
    // The simulated clock: 4 characters a token at 10,000 tokens per second.
    const whole = Math.round((text.length / 4 / 10_000) * 1000);
    await expect(progress(page)).toContainText(` · ${whole} ms · `);
    await expect(log(page).getByText(/^Edit 20 \(app\.py\) applied at/)).toBeVisible();

    // Both views are scrolled to the last edit's line (19002), marked applied.
    const src = sourceViews(page).locator('.cm-editor');
    const out = appliedViews(page).locator('.cm-editor');
    await expect(src).toHaveCount(1);
    await expect.poll(() => visibleLines(src)).toContain(19_002);
    await expect.poll(() => visibleLines(out)).toContain(19_002);
    await expect(src.locator('.cm-line.ld-ok')).toContainText(['value_19002 = compute(alpha, beta, 19002)']);
    await expect(out.locator('.cm-line.ld-ok')).toContainText(['value_19002 = compute(beta, alpha, 19002)']);
    await expect(src.locator('.ld-badge').filter({ hasText: '#20' })).toBeVisible();

    // The applied file is the engine's result for the whole reply.
    const engine = applyRequest({ format: 'ln-diff', files, response: text });
    expect(engine.edits.filter((e) => e.status === 'applied')).toHaveLength(20);
    expect(await downloaded(page, 'app.py')).toBe(engine.files['app.py']);

    // Played again (the applied edits undone first), it ends with the same file.
    await page.getByRole('button', { name: 'Play again' }).click();
    await expect(progress(page)).toContainText('done', { timeout: 120_000 });
    await expect(progress(page)).toContainText('20 of 20 edits complete');
    expect(await downloaded(page, 'app.py')).toBe(engine.files['app.py']);
    expect(errors).toEqual([]);
  });

  test('an edit undone at the end of the reply (an overlap): the log says so and the applied file is the engine\'s', async ({ page, request }) => {
    const all = (await (await request.get('/examples.json')).json()) as Example[];
    const ex = all.find((x) => x.title === 'ln-diff: Overlapping edits')!;
    expect(ex).toBeTruthy();
    const files = Object.fromEntries(ex.session.files.map((f) => [f.name, f.text]));
    const engine = applyRequest({ format: ex.session.format, files, response: ex.session.reply });
    const undone = engine.edits.filter((e) => e.code === 'overlap');
    expect(undone.length).toBeGreaterThan(0);
    await page.goto(`/playground/#${encodeSession(ex.session)}`);
    await openReplay(page);
    await page.getByRole('spinbutton', { name: 'Speed (tokens per second)' }).fill('2000');
    await page.getByRole('button', { name: 'Play', exact: true }).click();
    await expect(progress(page)).toContainText('done');
    // Reported applied when its block closed, failed once the whole reply is read.
    const first = undone[0];
    await expect(log(page).getByText(new RegExp(`^Edit ${first.index + 1} \\(${first.file.replace(/\./g, '\\.')}\\) applied at`))).toBeVisible();
    await expect(log(page).getByText(`Edit ${first.index + 1} (${first.file}), read with the whole reply: failed: overlaps`)).toBeVisible();
    await expect(sourceViews(page).locator('.cm-line.ld-bad').first()).toBeVisible();
    for (const [name, text] of Object.entries(engine.files)) if (text !== null) expect(await downloaded(page, name), name).toBe(text);
  });

  test('no accessibility violations with both panels open (light and dark), screenshots', async ({ page }) => {
    await page.setViewportSize({ width: 1440, height: 2400 });
    await page.goto('/playground/');
    await loadExample(page, 'ln-diff: Several files');
    await openReplay(page);
    await page.getByRole('spinbutton', { name: 'Speed (tokens per second)' }).fill('400');
    await page.getByRole('button', { name: 'Play', exact: true }).click();
    await expect(progress(page)).toContainText('done');
    await page.getByText('Compare formats', { exact: true }).click();
    await expect(page.locator('#pg-compare-status')).toContainText('Token counts ready.', { timeout: 30_000 });
    await page.locator('#pg-compare-replies summary').first().click();
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      const { violations } = await new AxeBuilder({ page }).analyze();
      const summary = violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).slice(0, 5).join(' | ')}`);
      expect(summary, `${scheme}: ${summary.join('\n')}`).toEqual([]);
      await page.locator('#pg-replay').screenshot({ path: `test-results/replay-${scheme}.png` });
      await page.locator('#pg-compare').screenshot({ path: `test-results/compare-${scheme}.png` });
    }
  });
});
