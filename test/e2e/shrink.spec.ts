// "Shrink to a minimal failure": from a failed edit of a 17,000-line session,
// the page shrinks the session in a worker to one that still fails with the
// same code, links it in under 2,000 characters and opens it; Cancel stops
// the worker.

import { test, expect, type Page, type Route } from '@playwright/test';
import { applyRequest } from '../../src/formats/index.ts';
import { decodeSession, encodeSession, type Session } from '../../src/share/share.ts';
import { prng } from '../prng.ts';

const diagnostics = (page: Page) => page.getByRole('region', { name: 'Diagnostics', exact: true });
const row = (page: Page, n: number) => diagnostics(page).locator(`li.ld-row[data-edit="${n - 1}"]`);
const panel = (page: Page) => page.getByRole('group', { name: /^Minimal failure/ });

const CALLS = ['baseEach', 'arrayMap', 'isObject', 'toInteger', 'baseGet', 'castPath', 'isArray', 'getTag'];
const WORDS = ['value', 'result', 'index', 'array', 'object', 'iteratee', 'predicate', 'collection'];

/** A 17,000-line script of varied lines, and a 15-edit ln-diff reply whose 10th edit misquotes its first line. */
function bigSession(): { session: Session; wrong: string } {
  const rand = prng(17);
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(rand() * xs.length)];
  const lines: string[] = [];
  for (let n = 1; lines.length < 17_000; n++) {
    lines.push(`  function ${pick(CALLS)}${n}(${pick(WORDS)}) {`);
    for (let k = 0; k < 6; k++) lines.push(`    var ${pick(WORDS)}${n}_${k} = ${pick(CALLS)}(${pick(WORDS)}, ${Math.floor(rand() * 1000)});`);
    lines.push('    return result;', '  }');
  }
  lines.length = 17_000;
  let reply = 'Here are the changes.\n\n';
  let wrong = '';
  for (let k = 0; k < 15; k++) {
    const at = k * 1100 + 3; // a `var` line, followed by another
    let first = lines[at - 1];
    if (k === 9) first = wrong = first.replace(/= (\w+)\((\w+)/, '= $1Deep($2, depth');
    reply += `lodash.js\n<editblock>\n<<<<<<< REMOVE\n${at}│${first}\n${at + 1}│${lines[at]}\n=======\n │${lines[at - 1]} // checked\n │${lines[at]}\n>>>>>>> INSERT\n</editblock>\n\n`;
  }
  const session: Session = {
    format: 'auto',
    files: [
      { name: 'lodash.js', text: lines.join('\n') + '\n' },
      { name: 'README.md', text: '# lodash\n\nA utility library.\n' },
    ],
    reply,
  };
  return { session, wrong };
}

const { session: BIG, wrong: WRONG } = bigSession();

test.describe('shrink to a minimal failure', () => {
  test.beforeAll(() => {
    // The case as the engine sees it: edit #10 alone fails, with no-match.
    const result = applyRequest({ format: BIG.format, files: Object.fromEntries(BIG.files.map((f) => [f.name, f.text])), response: BIG.reply });
    expect(result.edits.map((e) => e.code)).toEqual(result.edits.map((_, k) => (k === 9 ? 'no-match' : null)));
  });

  test('a 17,000-line session shrinks to a short link that fails the same way, and opens here', async ({ page, context }) => {
    await context.grantPermissions(['clipboard-read', 'clipboard-write']);
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(String(e)));
    await page.goto(`/playground/#${encodeSession(BIG)}`);
    await expect(diagnostics(page).locator('#pg-summary')).toContainText('14 of 15 edits applied, 1 failed');

    // Only failed edits offer it.
    await expect(row(page, 1).getByRole('button', { name: /Shrink to a minimal failure/ })).toHaveCount(0);
    await expect(panel(page)).toBeHidden();
    await row(page, 10).getByRole('button', { name: 'Shrink to a minimal failure (edit #10)' }).click();
    await expect(panel(page)).toBeVisible();
    await expect(panel(page).getByRole('heading')).toHaveText('Minimal failure: edit #10 (no-match)');

    const outcome = panel(page).locator('.pg-shrink-outcome');
    await expect(outcome).toContainText('Edit #10 still fails with no-match in this smaller session (as edit #1).', { timeout: 60_000 });
    await expect(outcome).toContainText(/Removed 1 other file, 14 other edits, 16,99\d of 17,000 lines of lodash\.js and \d+ of \d+ lines of the reply\./);
    await expect(panel(page).getByRole('button', { name: 'Cancel' })).toHaveCount(0);

    // Sizes before and after, the link's too.
    const table = panel(page).getByRole('table', { name: 'Size of the session' });
    const cells = async (name: string) => table.getByRole('row', { name: new RegExp(`^${name}`) }).getByRole('cell').allTextContents();
    expect(await cells('files')).toEqual(['2', '1']);
    expect(await cells('edits')).toEqual(['15', '1']);
    const [linkBefore, linkAfter] = (await cells('link')).map((t) => Number(t.replace(/\D/g, '')));
    expect(linkBefore).toBeGreaterThan(100_000);
    expect(linkAfter).toBeLessThan(2000);

    await panel(page).getByRole('button', { name: 'Copy link' }).click();
    await expect(page.getByRole('status')).toContainText('Link to the minimal failure copied');
    const link = await page.evaluate(() => navigator.clipboard.readText());
    expect(link.length).toBe(linkAfter);
    expect(link.length).toBeLessThan(2000);
    const decoded = decodeSession(new URL(link).hash);
    expect(decoded.ok).toBe(true);
    if (!decoded.ok) return;
    expect(decoded.session.reply).toContain(WRONG);
    expect(decoded.session.selected).toBe(0);

    // Open it here: the minimal session, its edit failing with the same code, selected.
    await panel(page).getByRole('button', { name: 'Open it here' }).click();
    await expect(page.getByRole('tab')).toHaveText(['lodash.js']);
    await expect(diagnostics(page).locator('#pg-summary')).toContainText('0 of 1 edit applied, 1 failed');
    await expect(row(page, 1)).toContainText('no-match');
    await expect(row(page, 1).locator('.ld-row-head')).toHaveAttribute('aria-current', 'true');
    await expect(row(page, 1).locator('.ld-cmp del').first()).toHaveText('Deep');
    // The address now holds the short link: the very link copied (its hash made once, by the shrink worker).
    await expect.poll(() => page.evaluate(() => location.href)).toBe(link);
    expect(errors).toEqual([]);
  });

  test('Cancel stops the shrink worker and changes nothing', async ({ page }) => {
    await page.goto(`/playground/#${encodeSession(BIG)}`);
    await expect(diagnostics(page).locator('#pg-summary')).toContainText('14 of 15 edits applied, 1 failed');
    const before = await page.evaluate(() => location.hash);

    // Hold the module the worker loads once its engine runs are done (the link
    // compressor, to measure the links): the shrink is then in progress, whatever the machine's speed.
    let release: (() => Promise<void>) | null = null;
    const held = new Promise<void>((resolve) => {
      void page.route('**/measure-*.js', (route: Route) => {
        release = () => route.continue().catch(() => undefined);
        resolve();
      });
    });
    const started = page.waitForEvent('worker', (w) => w.url().includes('shrink.worker'));
    await row(page, 10).getByRole('button', { name: 'Shrink to a minimal failure (edit #10)' }).click();
    const worker = await started;
    const closed = new Promise<void>((resolve) => worker.on('close', () => resolve()));
    await held;
    await expect(panel(page).getByRole('progressbar', { name: 'Engine runs' })).toBeVisible();
    const progress = panel(page).locator('.pg-shrink-progress');
    await expect(progress).toHaveText(/^Measuring the links… [\d,]+ of 3,000 engine runs used; smallest failing session so far: \d+ lines, \d+ characters\.$/);
    const runs = (await progress.textContent())?.match(/… ([\d,]+) of/)?.[1];
    expect(Number(runs?.replace(',', ''))).toBeGreaterThan(10);

    await panel(page).getByRole('button', { name: 'Cancel' }).click();
    await closed; // the worker is ended
    await expect(panel(page).locator('.pg-shrink-outcome')).toHaveText(`Cancelled after ${runs} engine runs; nothing was changed.`);
    await expect(page.getByRole('status')).toContainText('Shrink cancelled');
    await release!();

    // Nothing arrives later, the session is as it was; closing hides the panel.
    await expect(panel(page).getByRole('progressbar')).toHaveCount(0);
    await expect(panel(page).getByRole('button', { name: 'Copy link' })).toHaveCount(0);
    expect(await page.evaluate(() => location.hash)).toBe(before);
    await panel(page).getByRole('button', { name: 'Close the minimal failure' }).click();
    await expect(panel(page)).toBeHidden();
  });

  test('a shrunk session keeps the failure itself: its message names the same differing line', async ({ page }) => {
    // parse() cited whole in a larger file, its last line indented by two spaces instead of four.
    // Shrunk to that line alone, the engine would read an indentation shift, another failure.
    const lines: string[] = [];
    for (let n = 1; n <= 40; n++) lines.push(`def helper_${n}(value):`, `    total = value * ${n}`, '    return total', '');
    const parse = ['def parse(text):', '    items = text.split(",")', '    result = [i.strip() for i in items]', '    return result'];
    lines.splice(80, 0, ...parse, '');
    const search = [...parse.slice(0, 3), '  return result'];
    const reply = `Lower-case the items:\n\napp.py\n\`\`\`python\n<<<<<<< SEARCH\n${search.join('\n')}\n=======\n${search.join('\n').replace('strip()', 'strip().lower()')}\n>>>>>>> REPLACE\n\`\`\`\n`;
    const session: Session = { format: 'search-replace', files: [{ name: 'app.py', text: lines.join('\n') + '\n' }, { name: 'README.md', text: '# app\n' }], reply };
    await page.goto(`/playground/#${encodeSession(session)}`);
    await expect(diagnostics(page).locator('#pg-summary')).toContainText('0 of 1 edit applied, 1 failed');
    const message = row(page, 1).locator('.ld-message');
    await expect(message).toContainText(/where line 84 is "····return·result" but the SEARCH has "··return·result"/);
    const quotes = await message.locator('.ld-quote').allTextContents();

    await row(page, 1).getByRole('button', { name: 'Shrink to a minimal failure (edit #1)' }).click();
    await expect(panel(page).locator('.pg-shrink-outcome')).toContainText('Edit #1 still fails with no-match in this smaller session (as edit #1).', { timeout: 60_000 });
    await panel(page).getByRole('button', { name: 'Open it here' }).click();
    await expect(page.getByRole('tab')).toHaveText(['app.py']);
    await expect(diagnostics(page).locator('#pg-summary')).toContainText('0 of 1 edit applied, 1 failed');
    // The same message's differing line: the file's line and the SEARCH's, as before (at another line number).
    await expect(message).toContainText(/where line \d+ is "····return·result" but the SEARCH has "··return·result"/);
    await expect(message).not.toContainText('only with their indentation changed');
    expect(await message.locator('.ld-quote').allTextContents()).toEqual(quotes);
    await expect(row(page, 1).locator('.ld-cmp-text').first()).toHaveText('··return·result');
    // and it is smaller
    const lengths = await page.evaluate(() => location.hash.length);
    expect(lengths).toBeLessThan(encodeSession(session).length);
    const shown = decodeSession(new URL(page.url()).hash);
    expect(shown.ok && shown.session.files[0].text.split('\n').length).toBeLessThan(10);
  });

  test('a session that is already minimal is said so', async ({ page }) => {
    const tiny: Session = { format: 'ln-diff', files: [{ name: 'a.txt', text: 'a\n' }], reply: '<<<<<<< REMOVE\n1│b\n=======\n>>>>>>> INSERT\n' };
    await page.goto(`/playground/#${encodeSession(tiny)}`);
    await expect(diagnostics(page).locator('#pg-summary')).toContainText('0 of 1 edit applied, 1 failed');
    await row(page, 1).getByRole('button', { name: 'Shrink to a minimal failure (edit #1)' }).click();
    await expect(panel(page).locator('.pg-shrink-outcome')).toHaveText(
      'Could not shrink it: edit #1 needs every file, edit and line of this session to fail with no-match.',
    );
    await expect(page.getByRole('status')).toContainText('Could not shrink the failure');
  });
});
