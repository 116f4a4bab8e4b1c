// What a new user runs into with real files: a reply in another format than
// the one picked, folders opened with their paths, a file named differently
// from the reply's path, CRLF files, a new empty session, and the page
// sending the engine only what changed.

import { test, expect, type Page } from '@playwright/test';
import { mkdtempSync, mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { encodeSession, type Session } from '../../src/share/share.ts';
import { REPLY, SESSION, SOURCE } from './fixtures/sessions.ts';

const diagnostics = (page: Page) => page.getByRole('region', { name: 'Diagnostics', exact: true });
const summary = (page: Page) => page.locator('#pg-summary');

test('the pinned format: a reply in another format says so and switches in one click', async ({ page }) => {
  await page.goto(`/playground/#${encodeSession({ ...SESSION, format: 'udiff' })}`);
  await expect(summary(page)).toContainText('No edits found in the reply.');
  const alert = page.getByRole('alert');
  await expect(alert).toContainText('The format udiff finds no edits in this reply, but ln-diff finds 4 edits.');
  await alert.getByRole('button', { name: 'Switch to ln-diff' }).click();
  await expect(page.getByLabel('Format', { exact: true })).toHaveValue('ln-diff');
  await expect(summary(page)).toContainText('3 of 4 edits applied');
  await expect(page.locator('#pg-alert')).not.toContainText('finds no edits');
  // a reply with no edits in any format offers nothing
  await page.goto(`/playground/#${encodeSession({ ...SESSION, format: 'udiff', reply: 'Sure, I can help with that.' })}`);
  await expect(summary(page)).toContainText('No edits found in the reply.');
  await expect(page.getByRole('button', { name: /Switch to/ })).toHaveCount(0);
});

test('a folder keeps its paths, skips .git and node_modules; a file-not-found offers the rename', async ({ page }) => {
  const root = mkdtempSync(join(tmpdir(), 'ln-diff-folder-'));
  const project = join(root, 'lodash');
  mkdirSync(join(project, 'src/v4/core'), { recursive: true });
  mkdirSync(join(project, '.git'), { recursive: true });
  mkdirSync(join(project, 'node_modules/x'), { recursive: true });
  writeFileSync(join(project, 'src/v4/core/core.ts'), 'export const a = 1;\nexport const b = 2;\n');
  writeFileSync(join(project, 'README.md'), '# lodash\n');
  writeFileSync(join(project, '.git/config'), '[core]\n');
  writeFileSync(join(project, 'node_modules/x/index.js'), 'module.exports = 1;\n');
  const empty: Session = { format: 'auto', files: [], reply: '' };
  await page.goto(`/playground/#${encodeSession(empty)}`);
  await page.locator('#pg-folder-input').setInputFiles(project);
  await expect(page.getByRole('tab')).toHaveText(['README.md', 'src/v4/core/core.ts']);
  await expect(page.getByRole('alert')).toContainText('version-control or dependency folders');

  // a session whose file is named by its base name only: the reply's path is not found
  const reply = 'src/v4/core/core.ts\n<editblock>\n<<<<<<< REMOVE\n1│export const a = 1;\n=======\n │export const a = 10;\n>>>>>>> INSERT\n</editblock>\n';
  await page.goto(`/playground/#${encodeSession({ format: 'ln-diff', files: [{ name: 'core.ts', text: 'export const a = 1;\nexport const b = 2;\n' }], reply })}`);
  await expect(summary(page)).toContainText('0 of 1 edit applied');
  await diagnostics(page).getByRole('button', { name: 'Did you mean core.ts? Rename it to src/v4/core/core.ts' }).click();
  await expect(page.getByRole('tab')).toHaveText(['src/v4/core/core.ts']);
  await expect(summary(page)).toContainText('All 1 edit applied');
});

test('two files share the base name of a path the reply lacks: the one whose path ends the same way is offered for the rename', async ({ page }) => {
  const text = 'x = 1\n';
  const reply = 'coders/util.py\n<editblock>\n<<<<<<< REMOVE\n1│x = 1\n=======\n │x = 2\n>>>>>>> INSERT\n</editblock>\n';
  const files = [
    { name: 'aider/coders/util.py', text },
    { name: 'aider/tests/util.py', text },
  ];
  await page.goto(`/playground/#${encodeSession({ format: 'ln-diff', files, reply })}`);
  await expect(summary(page)).toContainText('0 of 1 edit applied');
  await diagnostics(page).getByRole('button', { name: 'Did you mean aider/coders/util.py? Rename it to coders/util.py' }).click();
  await expect(page.getByRole('tab')).toHaveText(['coders/util.py', 'aider/tests/util.py']);
  await expect(summary(page)).toContainText('All 1 edit applied');
  // the File name field renames a file to any path
  await page.getByRole('tab', { name: 'aider/tests/util.py' }).click();
  await page.getByLabel('File name').fill('tests/test_util.py');
  await page.getByLabel('File name').press('Enter');
  await expect(page.getByRole('tab')).toHaveText(['coders/util.py', 'tests/test_util.py']);
});

test('New, then Open files…: the empty untitled file gives way to the files opened; the Result shows the changed file first', async ({ page }) => {
  const dir = mkdtempSync(join(tmpdir(), 'ln-diff-open-'));
  writeFileSync(join(dir, 'base_coder.py'), 'def a():\n    return 1\n');
  writeFileSync(join(dir, 'other.py'), 'x = 1\n');
  await page.goto(`/playground/#${encodeSession(SESSION)}`);
  await expect(summary(page)).toContainText('3 of 4 edits applied');
  await page.getByRole('button', { name: 'New', exact: true }).click();
  await expect(page.getByRole('tab')).toHaveText(['untitled.txt']);
  await page.locator('#pg-file-input').setInputFiles([join(dir, 'other.py'), join(dir, 'base_coder.py')]);
  await expect(page.getByRole('tab')).toHaveText(['other.py', 'base_coder.py']);
  await page.getByLabel('Model reply').click();
  await page.keyboard.insertText('base_coder.py\n```python\n<<<<<<< SEARCH\n    return 1\n=======\n    return 2\n>>>>>>> REPLACE\n```\n');
  await expect(summary(page)).toContainText('All 1 edit applied');
  await expect(page.locator('#pg-result-file option')).toHaveText(['base_coder.py (changed)', 'other.py (unchanged)']);
  await expect(page.locator('#pg-result-caption')).toContainText('base_coder.py: changed.');
  await expect(diagnostics(page)).not.toContainText('untitled.txt');
  // a file the user named or wrote in stays
  await page.getByRole('button', { name: 'New', exact: true }).click();
  await page.getByLabel('Source: untitled.txt').click();
  await page.keyboard.insertText('notes');
  await page.locator('#pg-file-input').setInputFiles([join(dir, 'other.py')]);
  await expect(page.getByRole('tab')).toHaveText(['untitled.txt', 'other.py']);
});

test('CRLF and a missing final newline: readable markers and a badge', async ({ page }) => {
  const crlf: Session = { ...SESSION, files: [{ name: 'app.py', text: SOURCE.replace(/\n/g, '\r\n').replace(/\r\n$/, '') }] };
  await page.goto(`/playground/#${encodeSession(crlf)}`);
  await expect(summary(page)).toContainText('edits applied');
  const badge = page.locator('#pg-file-badge');
  await expect(badge).toContainText('CRLF');
  await expect(badge).toContainText('no final newline');
  const source = page.getByLabel('Source: app.py');
  await expect(source.locator('.ld-special').first()).toHaveText('CR');
  // an LF file says LF and nothing about the final newline
  await page.goto(`/playground/#${encodeSession(SESSION)}`);
  await expect(badge).toHaveText('LF');
});

test('New starts an empty session; Back returns to the one before', async ({ page }) => {
  await page.goto(`/playground/#${encodeSession(SESSION)}`);
  await expect(summary(page)).toContainText('3 of 4 edits applied');
  await page.getByRole('button', { name: 'New', exact: true }).click();
  await expect(page.getByRole('tab')).toHaveText(['untitled.txt']);
  await expect(page.getByLabel('Source: untitled.txt')).toHaveText('');
  await expect(page.getByLabel('Model reply')).toHaveText('');
  await expect(summary(page)).toContainText('No edits found in the reply.');
  await page.goBack();
  await expect(page.getByRole('tab')).toHaveText(['app.py']);
  await expect(summary(page)).toContainText('3 of 4 edits applied');
  expect(REPLY.length).toBeGreaterThan(0);
});

test('a keystroke sends the engine the keystroke, not the file', async ({ page }) => {
  // Record every message the page posts to the engine worker, by size (workers are told apart by their name).
  await page.addInitScript(() => {
    const sizes: number[] = [];
    (window as unknown as { __posted: number[] }).__posted = sizes;
    const names = new WeakMap<Worker, string>();
    const Original = window.Worker;
    window.Worker = class extends Original {
      constructor(url: string | URL, options?: WorkerOptions) {
        super(url, options);
        names.set(this, options?.name ?? '');
      }
    } as typeof Worker;
    const post = Original.prototype.postMessage;
    Original.prototype.postMessage = function (this: Worker, message: unknown, ...rest: unknown[]) {
      if (names.get(this) === 'ln-diff engine') sizes.push(JSON.stringify(message)?.length ?? 0);
      return (post as (...args: unknown[]) => void).call(this, message, ...rest);
    } as typeof Worker.prototype.postMessage;
  });
  let big = '';
  for (let i = 1; i <= 20_000; i++) big += `    value_${i} = compute(alpha, beta, ${i})  # step ${i}\n`;
  const reply = 'big.py\n<editblock>\n<<<<<<< REMOVE\n10000│    value_10000 = compute(alpha, beta, 10000)  # step 10000\n=======\n     │    value_10000 = compute(beta, alpha, 10000)\n>>>>>>> INSERT\n</editblock>\n';
  await page.goto(`/playground/#${encodeSession({ format: 'ln-diff', files: [{ name: 'big.py', text: big }], reply })}`);
  await expect(summary(page)).toContainText('All 1 edit applied');
  const posted = () => page.evaluate(() => (window as unknown as { __posted: number[] }).__posted.slice());
  expect(Math.max(...(await posted()))).toBeGreaterThan(big.length); // the first run sends the file whole
  const before = (await posted()).length;
  const source = page.getByLabel('Source: big.py');
  await source.click();
  await page.keyboard.press('Control+Home');
  await page.keyboard.type('# ');
  await expect(page.locator('#pg-engine')).toHaveText(/Engine: \d+ ms|Engine: <1 ms/);
  await expect(summary(page)).toContainText('All 1 edit applied');
  await expect.poll(async () => (await posted()).length).toBeGreaterThan(before);
  const after = (await posted()).slice(before);
  // Every message to the engine since is small: it got the change, never the file again.
  expect(after.length).toBeGreaterThan(0);
  expect(Math.max(...after)).toBeLessThan(2_000);
});
