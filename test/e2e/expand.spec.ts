// "Expand unchanged lines" on a 20,000-line file whose edits each add two
// lines, the first click on it: every line is shown, and the two sides stay
// aligned (an unchanged line is drawn at the same height on both sides)
// wherever the view is scrolled, top, middle and bottom; "Collapse unchanged
// lines" folds them again, still aligned.

import { test, expect, type Page } from '@playwright/test';
import { encodeSession } from '../../src/share/share.ts';
import { BLOCKS, EDITS, blocksSession } from './fixtures/blocks.ts';

const SESSION = blocksSession();

/**
 * The lines drawn inside the view's box on each side, by their height on the
 * screen: the line number and the text, and whether the line is a changed one.
 */
function drawn(page: Page) {
  return page.evaluate(() => {
    const root = document.querySelector('#pg-merge')!;
    const box = root.querySelector('.cm-mergeView')!.getBoundingClientRect();
    const side = (which: 'a' | 'b') => {
      const editor = root.querySelector(`.cm-merge-${which}`)!;
      const numbers = [...editor.querySelectorAll<HTMLElement>('.cm-lineNumbers .cm-gutterElement')].filter((g) => /^\d+$/.test(g.textContent ?? ''));
      return [...editor.querySelectorAll<HTMLElement>('.cm-content .cm-line')]
        .map((line) => {
          const r = line.getBoundingClientRect();
          const g = numbers.find((el) => Math.abs(el.getBoundingClientRect().top - r.top) < 2);
          return { top: Math.round(r.top), n: g ? Number(g.textContent) : null, text: line.textContent ?? '', changed: line.classList.contains('cm-changedLine') };
        })
        .filter((l) => l.top >= box.top && l.top < box.bottom - 20 && l.n !== null);
    };
    return { a: side('a'), b: side('b') };
  });
}

/** Every unchanged line drawn on side A has its twin (same text) at the same height on side B; the numbers on A follow one another. */
async function alignedAndConsecutive(page: Page): Promise<string | null> {
  const { a, b } = await drawn(page);
  if (a.length < 5) return `only ${a.length} lines drawn`;
  for (let i = 1; i < a.length; i++) if (a[i].n !== a[i - 1].n! + 1) return `line ${a[i].n} after ${a[i - 1].n}`;
  for (const line of a) {
    if (line.changed) continue;
    const twin = b.find((x) => Math.abs(x.top - line.top) <= 2);
    if (!twin) return `no line on B beside line ${line.n} of A`;
    if (twin.text !== line.text) return `line ${line.n} of A ("${line.text}") beside line ${twin.n} of B ("${twin.text}")`;
  }
  return null;
}

test('the first "Expand unchanged lines" shows every line, both sides aligned; Collapse folds them again', async ({ page }) => {
  test.setTimeout(120_000);
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  await page.setViewportSize({ width: 1400, height: 1000 });
  await page.goto(`/playground/#${encodeSession(SESSION)}`);
  await expect(page.locator('#pg-summary')).toContainText(`All ${EDITS} edits applied`, { timeout: 30_000 });
  const view = page.getByRole('region', { name: 'Result', exact: true });
  await expect(view.getByRole('group', { name: 'Changes' })).toContainText(`${EDITS} changes`);
  await expect(view.locator('.cm-collapsedLines').first()).toBeAttached();

  const expand = view.getByRole('button', { name: 'Expand unchanged lines' });
  await expand.scrollIntoViewIfNeeded();
  await expand.click();
  await expect(view.getByRole('button', { name: 'Collapse unchanged lines' })).toHaveAttribute('aria-pressed', 'true');
  await expect(view.locator('.cm-collapsedLines')).toHaveCount(0);

  const scroller = view.locator('.cm-mergeView');
  for (const where of ['top', 'middle', 'bottom'] as const) {
    await scroller.evaluate((el, where) => (el.scrollTop = where === 'top' ? 0 : where === 'middle' ? el.scrollHeight / 2 : el.scrollHeight), where);
    await expect.poll(() => alignedAndConsecutive(page), { message: `aligned, every line, at the ${where}` }).toBeNull();
  }
  // At the bottom: the last lines of both documents, side by side.
  const { a, b } = await drawn(page);
  expect(a.map((l) => l.n)).toContain(BLOCKS * 5);
  expect(b.map((l) => l.n)).toContain(BLOCKS * 5 + 2 * EDITS);

  await view.getByRole('button', { name: 'Collapse unchanged lines' }).click();
  await expect(view.locator('.cm-collapsedLines').first()).toBeAttached();
  await scroller.evaluate((el) => (el.scrollTop = 0));
  // Folded: side B beside side A still shows the same text at the same height.
  await expect
    .poll(async () => {
      const now = await drawn(page);
      const bad = now.a.filter((l) => !l.changed && !now.b.some((x) => Math.abs(x.top - l.top) <= 2 && x.text === l.text));
      return now.a.length > 3 && bad.length === 0;
    })
    .toBe(true);
  expect(errors).toEqual([]);
});
