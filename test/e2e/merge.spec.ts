// The result view on a large file: a 20,000-line source and a 20-edit
// reply. The view marks exactly the edited lines (its chunks are the
// engine's, not a diff of its own), "Previous/Next change" walk them,
// selecting an edit brings its lines into view on both sides (inside the
// view, not the page), a keystroke updates the view in place, and a phone
// gets one unified column.

import { test, expect, type Locator, type Page } from '@playwright/test';
import { encodeSession } from '../../src/share/share.ts';
import { BLOCKS, EDITS, blockOf, bodyLine, blocksSession } from './fixtures/blocks.ts';
import { SESSION as FOUR_EDITS } from './fixtures/sessions.ts';

const SESSION = blocksSession(['Here are the edits.', '']);

/** Where edit k's lines are: two in the source, four after (each earlier edit adds two). */
const linesA = (k: number) => [bodyLine(blockOf(k)), bodyLine(blockOf(k)) + 1];
const linesB = (k: number) => [0, 1, 2, 3].map((i) => bodyLine(blockOf(k)) + 2 * k + i);

/** Two animation frames and a task: what a result set off (the result view's update) has run. */
const nextFrames = (page: Page) => page.evaluate(() => new Promise<void>((done) => requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(done, 0)))));

const result = (page: Page) => page.getByRole('region', { name: 'Result', exact: true });
const row = (page: Page, n: number) => page.locator(`#pg-diagnostics li.ld-row[data-edit="${n - 1}"]`);

function watch(page: Page) {
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  return errors;
}

async function open(page: Page) {
  await page.goto(`/playground/#${encodeSession(SESSION)}`);
  await expect(page.locator('#pg-summary')).toContainText(`All ${EDITS} edits applied`, { timeout: 30_000 });
}

/** The errors the page throws from now on, and the session opened in a window of this size. */
async function openAt(page: Page, size: { width: number; height: number }): Promise<string[]> {
  const errors = watch(page);
  await page.setViewportSize(size);
  await open(page);
  return errors;
}

/** The result view's "Changes" bar, once it counts every edit. */
async function changesBar(view: Locator): Promise<Locator> {
  const bar = view.getByRole('group', { name: 'Changes' });
  await expect(bar).toContainText(`${EDITS} changes`);
  return bar;
}

/**
 * Line numbers on one side ('a' before, 'b' after, 'u' the unified view):
 * those drawn, or only those inside the view's scrolling box; and those of
 * lines marked as changed.
 */
function lines(page: Page, side: 'a' | 'b' | 'u', which: 'visible' | 'changed' | 'drawn') {
  return page.evaluate(
    ({ side, which }) => {
      const root = document.querySelector('#pg-merge')!;
      const editor = side === 'u' ? root.querySelector('.pg-merge-unified .cm-editor')! : root.querySelector(`.cm-merge-${side}`)!;
      const box = (root.querySelector('.cm-mergeView') ?? editor.querySelector('.cm-scroller'))!.getBoundingClientRect();
      const numbers = [...editor.querySelectorAll<HTMLElement>('.cm-lineNumbers .cm-gutterElement')].filter((g) => /^\d+$/.test(g.textContent ?? ''));
      const numberAt = (top: number) => {
        const g = numbers.find((el) => Math.abs(el.getBoundingClientRect().top - top) < 2);
        return g ? Number(g.textContent) : null;
      };
      const inside = (r: DOMRect) => r.height > 0 && r.top >= box.top - 1 && r.bottom <= box.bottom + 1;
      if (which === 'changed') {
        return [...editor.querySelectorAll<HTMLElement>('.cm-content .cm-line.cm-changedLine')]
          .map((l) => numberAt(l.getBoundingClientRect().top))
          .filter((n): n is number => n !== null);
      }
      return numbers.filter((g) => which === 'drawn' || inside(g.getBoundingClientRect())).map((g) => Number(g.textContent));
    },
    { side, which },
  );
}

test.describe('the result view on a 20,000-line file', () => {
  test.setTimeout(120_000);

  test('only the edited lines are marked, on both sides, and unchanged stretches collapse', async ({ page }) => {
    // A window tall enough for the whole collapsed view to be drawn at once.
    const errors = await openAt(page, { width: 1400, height: 8000 });
    await page.addStyleTag({ content: '.pg-merge-split .cm-mergeView { max-height: none !important; }' });
    const view = result(page);
    await expect(view.getByRole('group', { name: 'Changes' })).toContainText(`${EDITS} changes`);
    await expect(view.locator('.cm-collapsedLines').first()).toBeVisible();
    await expect.poll(() => lines(page, 'a', 'changed').then((l) => l.length)).toBe(2 * EDITS);
    const changedA = await lines(page, 'a', 'changed');
    const changedB = await lines(page, 'b', 'changed');
    const expectA = Array.from({ length: EDITS }, (_, k) => linesA(k)).flat();
    const expectB = Array.from({ length: EDITS }, (_, k) => linesB(k)).flat();
    expect(changedA.sort((x, y) => x - y)).toEqual(expectA);
    expect(changedB.sort((x, y) => x - y)).toEqual(expectB);
    // The words that changed are highlighted inside the changed lines.
    await expect(view.locator('.cm-merge-a .cm-changedText').first()).toBeVisible();
    await expect(view.locator('.cm-merge-b .cm-changedText', { hasText: 'return w' }).first()).toBeVisible();
    // Few lines are drawn: 20 chunks with three lines of context each side, not 20,000.
    const drawn = await lines(page, 'a', 'drawn');
    expect(drawn.length).toBeLessThan(EDITS * 12);
    expect(drawn).toContain(linesA(0)[0] - 3);
    expect(drawn).not.toContain(linesA(0)[0] - 4);

    // Expanding: every line can be shown, and the marks stay where they were.
    await view.getByRole('button', { name: 'Expand unchanged lines' }).click();
    await expect(view.locator('.cm-collapsedLines')).toHaveCount(0);
    await expect(view.getByRole('button', { name: 'Collapse unchanged lines' })).toHaveAttribute('aria-pressed', 'true');
    await view.getByRole('button', { name: 'Collapse unchanged lines' }).click();
    await expect(view.locator('.cm-collapsedLines').first()).toBeVisible();
    expect(errors).toEqual([]);
  });

  test('selecting edit #10 shows its lines on both sides, inside the view', async ({ page }) => {
    const errors = await openAt(page, { width: 1400, height: 1000 });
    const view = result(page);
    await expect(view.getByRole('group', { name: 'Changes' })).toContainText(`${EDITS} changes`);
    const scroller = view.locator('.cm-mergeView');
    await row(page, 10).locator('.ld-row-head').scrollIntoViewIfNeeded();
    const pageTop = await page.evaluate(() => scrollY);
    await row(page, 10).locator('.ld-row-head').click();
    // The view scrolled inside itself; the page stayed where it was.
    await expect.poll(() => scroller.evaluate((el) => el.scrollTop)).toBeGreaterThan(1000);
    expect(await page.evaluate(() => scrollY)).toBe(pageTop);
    await view.scrollIntoViewIfNeeded();
    for (const n of linesA(9)) await expect.poll(() => lines(page, 'a', 'visible'), { message: `before, line ${n}` }).toContain(n);
    for (const n of linesB(9)) await expect.poll(() => lines(page, 'b', 'visible'), { message: `after, line ${n}` }).toContain(n);
    await expect(view.getByRole('group', { name: 'Changes' })).toContainText(`Change 10 of ${EDITS}`);

    // Then another edit, far before it: the view moves back.
    await row(page, 2).locator('.ld-row-head').click();
    await view.scrollIntoViewIfNeeded();
    for (const n of linesA(1)) await expect.poll(() => lines(page, 'a', 'visible')).toContain(n);
    for (const n of linesB(1)) await expect.poll(() => lines(page, 'b', 'visible')).toContain(n);
    expect(errors).toEqual([]);
  });

  test('Next and Previous change walk the chunks', async ({ page }) => {
    const errors = await openAt(page, { width: 1400, height: 1000 });
    const view = result(page);
    const bar = await changesBar(view);
    await bar.scrollIntoViewIfNeeded();
    const next = bar.getByRole('button', { name: 'Next change' });
    const previous = bar.getByRole('button', { name: 'Previous change' });
    for (let k = 0; k < 3; k++) {
      await next.click();
      await expect(bar).toContainText(`Change ${k + 1} of ${EDITS}`);
      for (const n of linesB(k)) await expect.poll(() => lines(page, 'b', 'visible')).toContain(n);
      for (const n of linesA(k)) await expect.poll(() => lines(page, 'a', 'visible')).toContain(n);
    }
    await previous.click();
    await expect(bar).toContainText(`Change 2 of ${EDITS}`);
    for (const n of linesB(1)) await expect.poll(() => lines(page, 'b', 'visible')).toContain(n);
    await previous.click();
    await expect(bar).toContainText(`Change 1 of ${EDITS}`);
    await expect(previous).toBeDisabled();
    expect(errors).toEqual([]);
  });

  test('a keystroke in the reply updates the view in place', async ({ page }) => {
    const errors = await openAt(page, { width: 1400, height: 1000 });
    const view = result(page);
    await row(page, 10).locator('.ld-row-head').click();
    await view.scrollIntoViewIfNeeded();
    const after = view.locator('.cm-merge-b .cm-content');
    await expect(after).toContainText('// edit 10');
    // The same editor stays (no rebuild): mark its element, type, look again.
    await after.evaluate((el) => el.setAttribute('data-probe', 'kept'));
    // Selecting the edit selected it in the reply: from its end, up to its comment line, and type.
    const replyEditor = page.getByLabel('Model reply');
    await replyEditor.focus();
    await page.keyboard.press('ArrowRight');
    await expect(replyEditor.locator('.cm-activeLine')).toHaveText('</editblock>');
    for (let i = 0; i < 3; i++) await page.keyboard.press('ArrowUp');
    await expect(replyEditor.locator('.cm-activeLine')).toHaveText(' │  // edit 10');
    await page.keyboard.press('End');
    await page.keyboard.type(' more');
    await view.scrollIntoViewIfNeeded();
    await expect(after).toContainText('// edit 10 more');
    await expect(after).toHaveAttribute('data-probe', 'kept');
    await expect(view.getByRole('group', { name: 'Changes' })).toContainText(`${EDITS} changes`);
    for (const n of linesB(9)) await expect.poll(() => lines(page, 'b', 'visible')).toContain(n);
    expect(errors).toEqual([]);
  });

  test('a keystroke in the source moves both sides; a new line moves the changes after it', async ({ page }) => {
    const errors = await openAt(page, { width: 1400, height: 1000 });
    const view = result(page);
    const bar = await changesBar(view);
    const editors = view.locator('.cm-content');
    await editors.first().evaluate((el) => el.setAttribute('data-probe', 'kept'));
    // The source editor: at the end of its first line, type, then a new line.
    // The unchanged lines folded above the first change, on the side before.
    const firstFold = view.locator('.cm-merge-a .cm-collapsedLines').first();
    const folded = Number(/(\d+) unchanged lines/.exec((await firstFold.textContent()) ?? '')?.[1]);
    expect(folded).toBeGreaterThan(0);
    const sourceEditor = page.getByLabel('Source: big.js');
    await sourceEditor.locator('.cm-line').first().click();
    await page.keyboard.press('End');
    await page.keyboard.type(' // typed');
    await page.keyboard.press('Enter');
    await page.keyboard.type('// a new line');
    // The engine's result has landed when the first edit is found one line below the line it cites,
    // and the result view has followed it when one more unchanged line is folded above the first change
    // (it follows once typing pauses; moving through the changes before that would start over).
    await expect(row(page, 1)).toContainText('offset +1');
    await expect(firstFold).toContainText(`${folded + 1} unchanged lines`);
    await view.scrollIntoViewIfNeeded();
    await expect(bar).toContainText(`${EDITS} changes`);
    await expect(editors.first()).toHaveAttribute('data-probe', 'kept');
    // Every change is one line further down on both sides.
    await bar.getByRole('button', { name: 'Next change' }).click();
    await expect(bar).toContainText(`Change 1 of ${EDITS}`);
    for (const n of linesA(0)) await expect.poll(() => lines(page, 'a', 'visible')).toContain(n + 1);
    for (const n of linesB(0)) await expect.poll(() => lines(page, 'b', 'visible')).toContain(n + 1);
    // The typed lines are the same on both sides: not marked.
    await view.getByRole('button', { name: 'Expand unchanged lines' }).click();
    await view.locator('.cm-mergeView').evaluate((el) => (el.scrollTop = 0));
    await expect(view.locator('.cm-merge-a .cm-line').first()).toHaveText('function f0(x) { // typed');
    await expect(view.locator('.cm-merge-b .cm-line').nth(1)).toHaveText('// a new line');
    expect(await lines(page, 'a', 'changed')).toEqual([]);
    expect(await lines(page, 'b', 'changed')).toEqual([]);
    expect(errors).toEqual([]);
  });

  test('on a phone: one column (unified), the removed lines above the new ones', async ({ page }) => {
    const errors = await openAt(page, { width: 390, height: 844 });
    const view = result(page);
    const editor = view.getByLabel('Before and after: big.js');
    await expect(editor).toBeVisible();
    await expect(view.locator('.cm-mergeView')).toHaveCount(0);
    const width = await view.locator('.pg-merge-unified .cm-editor').evaluate((el) => el.getBoundingClientRect().width);
    expect(width).toBeGreaterThan(300);
    await row(page, 10).locator('.ld-row-head').click();
    await view.scrollIntoViewIfNeeded();
    for (const n of linesB(9)) await expect.poll(() => lines(page, 'u', 'visible')).toContain(n);
    await expect(view.locator('.cm-deletedChunk', { hasText: `const v = x * ${blockOf(9)};` })).toBeVisible();
    await expect(view.getByRole('group', { name: 'Changes' })).toContainText(`Change 10 of ${EDITS}`);
    // Back to a wide window: side by side again.
    await page.setViewportSize({ width: 1400, height: 1000 });
    await expect(view.locator('.cm-mergeView')).toHaveCount(1);
    await expect(view.getByLabel('After: big.js')).toBeVisible();
    expect(errors).toEqual([]);
  });
});

test.describe('the result view stays built as the edits change', () => {
  test.setTimeout(120_000);

  /** One more edit, of block 50 (which no other edit names): its body line. */
  const EXTRA_LINE = bodyLine(50);
  const EXTRA = ['', 'big.js', '<editblock>', '<<<<<<< REMOVE', `${EXTRA_LINE}│  const v = x * 50;`, '=======', ' │  const v = x * 50 + 1;', '>>>>>>> INSERT', '</editblock>', ''].join('\n');
  const counts = (page: Page) => page.locator('#pg-merge').evaluate((el: HTMLElement) => ({ builds: el.dataset.builds, reconfigures: el.dataset.reconfigures }));

  test('an edit added to the reply updates the view in place (nothing rebuilt or reconfigured); Expand shows every line', async ({ page }) => {
    const errors = await openAt(page, { width: 1400, height: 1000 });
    const view = result(page);
    const bar = await changesBar(view);
    const start = await counts(page);
    expect(start.builds).toBe('1');
    expect(start.reconfigures).toBe('0');
    // The same editors stay: mark their elements.
    await view.locator('.cm-content').first().evaluate((el) => el.setAttribute('data-probe', 'kept'));
    await view.locator('.cm-content').nth(1).evaluate((el) => el.setAttribute('data-probe', 'kept'));
    const replyEditor = page.getByLabel('Model reply');
    await replyEditor.focus();
    await page.keyboard.press('Control+End');
    await page.keyboard.insertText(EXTRA);
    await expect(page.locator('#pg-summary')).toContainText(`All ${EDITS + 1} edits applied`, { timeout: 30_000 });
    await expect(bar).toContainText(`${EDITS + 1} changes`);
    await expect(view.locator('.cm-content').first()).toHaveAttribute('data-probe', 'kept');
    await expect(view.locator('.cm-content').nth(1)).toHaveAttribute('data-probe', 'kept');
    expect(await counts(page)).toEqual(start);
    // The new change is the first: its line is out of the folds, on both sides.
    await bar.getByRole('button', { name: 'Next change' }).click();
    await expect(bar).toContainText(`Change 1 of ${EDITS + 1}`);
    await expect.poll(() => lines(page, 'a', 'visible')).toContain(EXTRA_LINE);
    await expect.poll(() => lines(page, 'b', 'visible')).toContain(EXTRA_LINE);
    await expect.poll(() => lines(page, 'a', 'changed')).toContain(EXTRA_LINE);

    // Taking it away again: the folds come back where they were, still without a rebuild.
    await replyEditor.focus();
    await page.keyboard.press('Control+z');
    await expect(page.locator('#pg-summary')).toContainText(`All ${EDITS} edits applied`, { timeout: 30_000 });
    await expect(bar).toContainText(`${EDITS} changes`);
    expect(await counts(page)).toEqual(start);

    // Expand unchanged lines: an effect, not a new configuration; then every line can be shown.
    await view.getByRole('button', { name: 'Expand unchanged lines' }).click();
    await expect(view.locator('.cm-collapsedLines')).toHaveCount(0);
    expect(await counts(page)).toEqual(start);
    const scroller = view.locator('.cm-mergeView');
    for (const where of ['top', 'middle', 'bottom'] as const) {
      await scroller.evaluate((el, where) => (el.scrollTop = where === 'top' ? 0 : where === 'middle' ? el.scrollHeight / 2 : el.scrollHeight), where);
      // The lines drawn in the box follow one another, with none folded between them.
      await expect
        .poll(async () => {
          const shown = await lines(page, 'a', 'visible');
          return shown.length > 5 && shown.every((n, i) => i === 0 || n === shown[i - 1] + 1);
        }, { message: `consecutive lines at the ${where}` })
        .toBe(true);
    }
    // At the bottom: the last lines of both documents.
    await expect.poll(() => lines(page, 'a', 'visible')).toContain(BLOCKS * 5);
    await expect.poll(() => lines(page, 'b', 'visible')).toContain(BLOCKS * 5 + 2 * EDITS);
    // And folded again.
    await view.getByRole('button', { name: 'Collapse unchanged lines' }).click();
    await expect(view.locator('.cm-collapsedLines').first()).toBeAttached();
    expect(await counts(page)).toEqual(start);
    expect(errors).toEqual([]);
  });
});

test('typing in an edit that fails leaves the result view as it is: nothing in it is redrawn', async ({ page }) => {
  // The four-edit session: #1 to #3 change app.py, #4 fails (its cited line 11 is not in the file).
  await page.setViewportSize({ width: 1400, height: 1000 });
  await page.goto(`/playground/#${encodeSession(FOUR_EDITS)}`);
  await expect(page.locator('#pg-summary')).toContainText('3 of 4 edits applied');
  const view = result(page);
  await expect(view.locator('.cm-editor')).toHaveCount(2);
  // The cursor at the end of edit #4's cited line, in the reply.
  const replyEditor = page.getByLabel('Model reply');
  await replyEditor.locator('.cm-line', { hasText: /^11│ {4}return a \* c$/ }).click();
  await page.keyboard.press('End');
  await expect(page.locator('.ld-row-head[aria-current="true"]')).toContainText('#4');
  await nextFrames(page);
  await page.locator('#pg-merge').evaluate((el) => {
    const w = window as unknown as { __redrawn: string[] };
    w.__redrawn = [];
    new MutationObserver((records) => {
      for (const r of records) w.__redrawn.push(`${r.type} ${(r.target as Element).className ?? ''}`);
    }).observe(el, { subtree: true, childList: true, characterData: true, attributes: true });
  });
  const edits = page.locator('#pg-edits');
  for (const [key, shown, gone] of [
    ['x', 'a * cx', null],
    ['y', 'a * cxy', null],
    ['Backspace', 'a * cx', 'a * cxy'],
  ] as const) {
    await page.keyboard.press(key);
    await expect(edits).toContainText(shown);
    if (gone) await expect(edits).not.toContainText(gone);
    await expect(page.locator('#pg-summary')).toContainText('3 of 4 edits applied');
    await nextFrames(page);
  }
  expect(await page.evaluate(() => (window as unknown as { __redrawn: string[] }).__redrawn)).toEqual([]);
});
