// Taking the result away: the shown file's result on the clipboard and as a
// download, the changed files as a zip, the whole change as a unified diff
// that applies back to the very texts the page shows.

import { test, expect, type Download, type Page } from '@playwright/test';
import AxeBuilder from '@axe-core/playwright';
import { applyPatch, parsePatch } from 'diff';
import { strFromU8, unzipSync } from 'fflate';
import { applyRequest } from '../../src/formats/index.ts';
import { encodeSession, type Session } from '../../src/share/share.ts';
import { SESSION } from './fixtures/sessions.ts';

const BEFORE: Record<string, string> = {
  'src/app.py': 'def f():\n    return 1\n\n\ndef g():\n    return 2\n',
  'win/crlf.txt': 'first\r\nsecond\r\nthird',
  'old.txt': 'x\ny\n',
  'same.txt': 'untouched\n',
};

/** A udiff reply that changes two files (one CRLF without a final newline), creates one in a unicode-named folder and deletes one. */
const REPLY = [
  '--- a/src/app.py',
  '+++ b/src/app.py',
  '@@ -1,2 +1,2 @@',
  ' def f():',
  '-    return 1',
  '+    return 10',
  '--- a/win/crlf.txt',
  '+++ b/win/crlf.txt',
  '@@ -1,3 +1,3 @@',
  ' first',
  '-second',
  '+2nd',
  ' third',
  '\\ No newline at end of file',
  '--- /dev/null',
  '+++ b/docs/café/ü.md',
  '@@ -0,0 +1,2 @@',
  '+# Hallo',
  '+Welt',
  '--- a/old.txt',
  '+++ /dev/null',
  '@@ -1,2 +0,0 @@',
  '-x',
  '-y',
  '',
].join('\n');

const MULTI: Session = { format: 'udiff', files: Object.entries(BEFORE).map(([name, text]) => ({ name, text })), reply: REPLY };

/** What the engine makes of MULTI: the texts the page must hand out. */
const AFTER = applyRequest({ format: 'udiff', files: BEFORE, response: REPLY }).files;

const result = (page: Page) => page.getByRole('region', { name: 'Result', exact: true });
const actions = (page: Page) => page.getByRole('group', { name: 'Take the result away' });
const button = (page: Page, name: string) => actions(page).getByRole('button', { name, exact: true });
const status = (page: Page) => page.locator('#pg-status');

async function open(page: Page, session: Session): Promise<void> {
  await page.goto(`/playground/#${encodeSession(session)}`);
  await expect(result(page).locator('#pg-result-caption')).toContainText('Before on the left');
}

async function show(page: Page, name: string): Promise<void> {
  await result(page).getByLabel('File').selectOption(name);
  await expect(result(page).locator('#pg-result-caption')).toContainText(`${name}:`);
}

async function bytesOf(download: Download): Promise<Buffer> {
  const stream = await download.createReadStream();
  const parts: Buffer[] = [];
  for await (const part of stream) parts.push(part as Buffer);
  return Buffer.concat(parts);
}

async function clipboard(page: Page): Promise<string> {
  return page.evaluate(() => navigator.clipboard.readText());
}

test.beforeEach(async ({ context }) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
});

test('the engine reads the test reply as meant', () => {
  expect(AFTER).toEqual({
    'src/app.py': 'def f():\n    return 10\n\n\ndef g():\n    return 2\n',
    'win/crlf.txt': 'first\r\n2nd\r\nthird',
    'old.txt': null,
    'same.txt': 'untouched\n',
    'docs/café/ü.md': '# Hallo\nWelt\n',
  });
});

test('Copy result puts the shown file\'s exact text on the clipboard', async ({ page }) => {
  await open(page, MULTI);
  await show(page, 'win/crlf.txt');
  await button(page, 'Copy result').click();
  await expect(status(page)).toHaveText('Copied win/crlf.txt as the reply leaves it.');
  expect(await clipboard(page)).toBe(AFTER['win/crlf.txt']);

  await show(page, 'docs/café/ü.md');
  await button(page, 'Copy result').click();
  await expect(status(page)).toHaveText('Copied docs/café/ü.md as the reply leaves it.');
  expect(await clipboard(page)).toBe('# Hallo\nWelt\n');
});

test('Download gives the shown file under its own name, byte for byte', async ({ page }) => {
  await open(page, MULTI);
  await show(page, 'win/crlf.txt');
  const [download] = await Promise.all([page.waitForEvent('download'), button(page, 'Download').click()]);
  expect(download.suggestedFilename()).toBe('crlf.txt');
  expect((await bytesOf(download)).equals(Buffer.from('first\r\n2nd\r\nthird', 'utf8'))).toBe(true);
  await expect(status(page)).toHaveText('Downloaded win/crlf.txt as crlf.txt.');

  await show(page, 'docs/café/ü.md');
  const [created] = await Promise.all([page.waitForEvent('download'), button(page, 'Download').click()]);
  expect(created.suggestedFilename()).toBe('ü.md');
  expect((await bytesOf(created)).equals(Buffer.from('# Hallo\nWelt\n', 'utf8'))).toBe(true);
});

test('a deleted file has no result to take: the buttons say why', async ({ page }) => {
  await open(page, MULTI);
  await show(page, 'old.txt');
  for (const name of ['Copy result', 'Download']) {
    await expect(button(page, name)).toBeDisabled();
    await expect(button(page, name)).toHaveAttribute('title', 'The reply deletes old.txt: it has no result.');
  }
  // Still focusable: a click (or Enter) says the reason.
  await button(page, 'Download').focus();
  await page.keyboard.press('Enter');
  await expect(status(page)).toHaveText('The reply deletes old.txt: it has no result.');
  await show(page, 'same.txt');
  await expect(button(page, 'Copy result')).toBeEnabled();
});

test('Download changed files gives a zip of the changed and created files, folders kept', async ({ page }) => {
  const requests: string[] = [];
  page.on('request', (r) => requests.push(r.url()));
  await open(page, MULTI);
  expect(requests.filter((u) => /takeaway/.test(u)), 'the zip and the diff load on first use').toEqual([]);
  await expect(button(page, 'Download changed files')).toBeVisible();
  const [download] = await Promise.all([page.waitForEvent('download'), button(page, 'Download changed files').click()]);
  expect(download.suggestedFilename()).toBe('ln-diff-changes.zip');
  const entries = unzipSync(new Uint8Array(await bytesOf(download)));
  expect(Object.keys(entries)).toEqual(['src/app.py', 'win/crlf.txt', 'docs/café/ü.md']);
  for (const [name, bytes] of Object.entries(entries)) expect(strFromU8(bytes), name).toBe(AFTER[name]);
  await expect(status(page)).toHaveText('Downloaded 3 files as ln-diff-changes.zip. Not in it, as the reply deletes it: old.txt.');
  expect(requests.some((u) => /takeaway\.worker/.test(u))).toBe(true);
});

test('Copy diff and Download diff give one unified diff that applies back exactly', async ({ page }) => {
  await open(page, MULTI);
  await button(page, 'Copy diff').click();
  await expect(status(page)).toHaveText('Copied the diff of 4 files.');
  const copied = await clipboard(page);
  expect(copied).toContain('diff --git a/old.txt b/old.txt\ndeleted file mode 100644\n');
  expect(copied).toContain('new file mode 100644\n--- /dev/null\n');
  expect(copied).not.toContain('same.txt');

  // Through the engine's own udiff reader...
  const back = applyRequest({ format: 'udiff', files: BEFORE, response: copied });
  expect(back.edits.every((e) => e.status === 'applied')).toBe(true);
  expect(back.files).toEqual(AFTER);
  // ...and through jsdiff, byte for byte.
  for (const p of parsePatch(copied)) {
    const name = (p.isCreate ? p.newFileName : p.oldFileName)!.replace(/^[ab]\//, '');
    const applied = applyPatch(BEFORE[name] ?? '', p, { autoConvertLineEndings: false });
    expect(p.isDelete ? null : applied, name).toBe(AFTER[name]);
  }

  const [download] = await Promise.all([page.waitForEvent('download'), button(page, 'Download diff').click()]);
  expect(download.suggestedFilename()).toBe('ln-diff-changes.patch');
  expect((await bytesOf(download)).toString('utf8')).toBe(copied);
  await expect(status(page)).toHaveText('Downloaded the diff of 4 files as ln-diff-changes.patch.');
});

test('a diff that takes a while says so, and the button stays busy until it is done', async ({ page }) => {
  await open(page, MULTI);
  // Hold the worker's script back (the diff cannot finish), and drive the page's timers by hand.
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  let asked!: () => void;
  const requested = new Promise<void>((resolve) => (asked = resolve));
  await page.route(/takeaway\.worker/, async (route) => {
    asked();
    await held;
    await route.continue();
  });
  await page.clock.install();
  await button(page, 'Copy diff').click();
  await requested;
  await expect(button(page, 'Copy diff')).toHaveAttribute('aria-busy', 'true');
  await expect(status(page)).not.toHaveText('Making the diff…');
  await page.clock.runFor(400);
  await expect(status(page)).toHaveText('Making the diff…');
  release();
  await expect(status(page)).toHaveText('Copied the diff of 4 files.');
  await expect(button(page, 'Copy diff')).not.toHaveAttribute('aria-busy', /.*/);
  expect(await clipboard(page)).toContain('diff --git a/src/app.py b/src/app.py\n');
});

test('one changed file: no zip; nothing changed: no diff, and the reason', async ({ page }) => {
  await open(page, SESSION);
  await expect(button(page, 'Copy result')).toBeEnabled();
  await expect(button(page, 'Download changed files')).toBeHidden();
  await expect(button(page, 'Copy diff')).toBeEnabled();

  await open(page, { format: 'ln-diff', files: [{ name: 'a.txt', text: 'a\n' }], reply: 'No edits here.' });
  for (const name of ['Copy diff', 'Download diff']) {
    await expect(button(page, name)).toBeDisabled();
    await expect(button(page, name)).toHaveAttribute('title', 'The reply changes no file.');
  }
  await button(page, 'Copy diff').click({ force: true });
  await expect(status(page)).toHaveText('The reply changes no file.');
  await expect(button(page, 'Copy result')).toBeEnabled();
});

for (const colorScheme of ['light', 'dark'] as const) {
  test(`axe finds nothing in the buttons (${colorScheme}), enabled, disabled and hidden`, async ({ page }) => {
    await page.emulateMedia({ colorScheme });
    await open(page, MULTI);
    await show(page, 'old.txt');
    await expect(button(page, 'Copy result')).toBeDisabled();
    const { violations } = await new AxeBuilder({ page }).include('#pg-result').analyze();
    expect(violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
  });
}
