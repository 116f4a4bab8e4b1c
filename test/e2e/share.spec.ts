// Share links, Markdown issues and session files: the whole session in the
// URL byte for byte, the version and a digest of the result in the link,
// and hostile links that must never run script or break the page.

import { test, expect, type Page } from '@playwright/test';
import { ORIGIN } from './fixtures/origin.ts';
import { readFileSync } from 'node:fs';
import LZString from 'lz-string';
import { applyRequest } from '../../src/formats/index.ts';
import { resultDigest } from '../../src/digest/digest.ts';
import { decodeSession, encodeSession, readSessionFile, type Session } from '../../src/share/share.ts';
import { lzBomb } from './fixtures/lz-bomb.ts';
import { largeReply, largeSource } from './fixtures/large.ts';
import { REPLY, SESSION, SOURCE } from './fixtures/sessions.ts';

const VERSION: string = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')).version;

const diagnostics = (page: Page) => page.getByRole('region', { name: 'Diagnostics', exact: true });
const row = (page: Page, n: number) => diagnostics(page).locator(`li.ld-row[data-edit="${n - 1}"]`);

/** Page errors, dialogs and requests that leave the page's origin. */
function watch(page: Page) {
  const errors: string[] = [];
  const dialogs: string[] = [];
  const foreign: string[] = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  page.on('dialog', (d) => {
    dialogs.push(`${d.type()}: ${d.message()}`);
    void d.dismiss();
  });
  page.on('request', (r) => {
    const url = new URL(r.url());
    if (url.protocol !== 'data:' && url.protocol !== 'blob:' && url.origin !== ORIGIN) foreign.push(r.url());
  });
  return { errors, dialogs, foreign };
}

const digestOf = (s: Session) =>
  resultDigest(
    applyRequest({ format: s.format, files: Object.fromEntries(s.files.map((f) => [f.name, f.text])), response: s.reply, ...(s.options ? { options: s.options } : {}) }),
  );

/** A session with every part a link carries: CRLF, no final newline, options, a selection, a prompt. */
const FULL: Session = {
  format: 'ln-diff',
  files: [
    { name: 'app.py', text: SOURCE },
    { name: 'win.txt', text: 'first\r\nsecond\r\nthird' },
  ],
  reply: `${REPLY}\nwin.txt\n<editblock>\n<<<<<<< REMOVE\n2│second\n=======\n │2nd\n>>>>>>> INSERT\n</editblock>\n`,
  options: { fuzzy: false, window: 10 },
  selected: 2,
  prompt: 'Answer with editblocks.\r\nNo prose.',
};

async function copied(page: Page): Promise<string> {
  return page.evaluate(() => navigator.clipboard.readText());
}

test.describe('share links', () => {
  test('a link reproduces the session byte for byte, and the page keeps the address current', async ({ page, context }) => {
    await context.grantPermissions(['clipboard-read', 'clipboard-write']);
    const seen = watch(page);
    await page.goto(`/playground/#${encodeSession(FULL)}`);
    await expect(page.getByRole('tab')).toHaveText(['app.py', 'win.txt']);
    await expect(page.getByRole('combobox', { name: 'Format', exact: true })).toHaveValue('ln-diff');
    await expect(page.locator('#pg-opt-fuzzy')).not.toBeChecked();
    await expect(page.locator('#pg-opt-window')).toHaveValue('10');
    await expect(page.locator('#pg-opt-whitespace')).toBeChecked();
    // fuzzy off: edit #3 (a stray semicolon) fails now; the CRLF file's edit applies
    await expect(diagnostics(page).locator('#pg-summary')).toContainText('3 of 5 edits applied, 2 failed');
    await expect(row(page, 3).locator('.ld-row-head')).toHaveAttribute('aria-current', 'true');
    await expect(row(page, 5)).toContainText('applied');
    await page.getByText('Prompt', { exact: true }).click();
    await expect(page.getByRole('region', { name: 'Prompt' })).toHaveText('Answer with editblocks.\nNo prose.');

    await page.getByRole('button', { name: 'Copy link', exact: true }).click();
    await expect(page.getByRole('status')).toContainText('Link copied');
    const link = new URL(await copied(page));
    expect(link.pathname).toBe('/playground/');
    expect(link.search).toBe(`?v=${VERSION}`);
    const decoded = decodeSession(link.hash);
    expect(decoded).toEqual({ ok: true, session: { ...FULL, digest: digestOf(FULL) } });
    expect(page.url()).toBe(link.href);

    // Typing changes the address (throttled), in place: no new history entry.
    const entries = await page.evaluate(() => history.length);
    await page.getByLabel('Source: app.py').press('End');
    await page.getByLabel('Source: app.py').pressSequentially('# x');
    await expect.poll(() => {
      const d = decodeSession(new URL(page.url()).hash);
      return d.ok && d.session.files[0].text.includes('# x');
    }).toBe(true);
    expect(await page.evaluate(() => history.length)).toBe(entries);
    expect(seen).toEqual({ errors: [], dialogs: [], foreign: [] });
  });

  test('"Copy link to this failure" opens with that edit selected and scrolled to', async ({ page, context }) => {
    await context.grantPermissions(['clipboard-read', 'clipboard-write']);
    const seen = watch(page);
    await page.goto(`/playground/#${encodeSession(SESSION)}`);
    await expect(diagnostics(page)).toContainText('3 of 4 edits applied');
    await expect(diagnostics(page).getByRole('button', { name: /Copy link to this failure/ })).toHaveCount(1);
    await row(page, 4).getByRole('button', { name: 'Copy link to this failure (edit #4)' }).click();
    await expect(page.getByRole('status')).toContainText('Link to edit #4 copied');
    const link = await copied(page);
    const decoded = decodeSession(new URL(link).hash);
    expect(decoded.ok && decoded.session.selected).toBe(3);
    expect(decoded.ok && decoded.session.digest).toBe(digestOf(SESSION));

    const other = await context.newPage();
    const seen2 = watch(other);
    await other.setViewportSize({ width: 1280, height: 700 });
    await other.goto(link);
    const failed = row(other, 4);
    await expect(failed.locator('.ld-row-head')).toHaveAttribute('aria-current', 'true');
    await expect(failed).toBeInViewport();
    await expect(other.locator('#pg-reply-editor .ld-line.ld-selected')).toHaveCount(8);
    await expect(other.getByRole('alert')).toHaveCount(0);
    expect(seen).toEqual({ errors: [], dialogs: [], foreign: [] });
    expect(seen2).toEqual({ errors: [], dialogs: [], foreign: [] });
  });

  test('"Copy as Markdown issue": versions, options, collapsed source and reply, the result table, the link', async ({ page, context }) => {
    await context.grantPermissions(['clipboard-read', 'clipboard-write']);
    const reply = `${REPLY}\nA fence in prose:\n\`\`\`\nnot an edit\n\`\`\`\n`;
    const session: Session = { format: 'auto', files: [{ name: 'app.py', text: SOURCE }], reply, options: { whitespace: false } };
    await page.goto(`/playground/#${encodeSession(session)}`);
    await expect(diagnostics(page)).toContainText('3 of 4 edits applied');
    await page.getByRole('button', { name: 'Copy as Markdown issue' }).click();
    await expect(page.getByRole('status')).toContainText('Markdown issue copied');
    const md = await copied(page);
    const lines = md.split('\n');
    expect(lines.slice(0, 6)).toEqual([
      '### ln-diff playground session',
      '',
      `- ln-diff (engine and spec): ${VERSION}`,
      '- format: auto (detected: ln-diff)',
      '- options: `{"whitespace":false}`',
      `- link: ${page.url()}`,
    ]);
    expect(md).toContain(`<details>\n<summary>Source: app.py (11 lines)</summary>\n\n\`\`\`\n${SOURCE}\`\`\`\n\n</details>`);
    // the reply holds a ``` fence, so its own fence is longer
    expect(md).toContain(`<details>\n<summary>Reply (${reply.split('\n').length - 1} lines)</summary>\n\n\`\`\`\`\n${reply}\`\`\`\`\n\n</details>`);
    expect(md).toContain(
      [
        '3 of 4 edits applied, 1 failed.',
        '',
        '| edit | status | match | offset | code | message |',
        '| --- | --- | --- | --- | --- | --- |',
        '| #1 app.py | applied | exact | 0 |  | applied at line 2 |',
        '| #2 app.py | applied | offset | 1 |  | applied at line 5: the content matched 1 line below the cited line 4 (offset +1) |',
        '| #3 app.py | applied | fuzzy | 0 |  | applied at line 8 by similarity 0.989 (threshold 0.95): 1 line differs; line 8 is "    return calculate_total(items, tax_rate)" where the edit cites "    return calculate_total(items, tax_rate);" |',
        '| #4 app.py | failed |  |  | no-match | the cited line 11 does not match app.py; closest is line 11 (similarity 0.941), where line 11 is "    return a * b" but the edit cites "    return a * c"; copy the lines exactly as the file has them |',
      ].join('\n'),
    );
    expect(md.trimEnd().endsWith(`[Open this session in the playground](${page.url()})`)).toBe(true);
  });

  test('a Markdown issue too long for GitHub says its size and copies the minimal failure’s issue in one click', async ({ page, context }) => {
    await context.grantPermissions(['clipboard-read', 'clipboard-write']);
    const seen = watch(page);
    // 3,000 lines of source and 30 edits, the last citing a line that is not in the file
    const typo = '    value_1502 = compute(alpha, beta, 1052)  # step 1502';
    const reply = `${largeReply(3000, 30)}app.py\n<editblock>\n<<<<<<< REMOVE\n1502│${typo}\n=======\n    │    value_1502 = compute(beta, alpha, 1502)\n>>>>>>> INSERT\n</editblock>\n`;
    const session: Session = { format: 'ln-diff', files: [{ name: 'app.py', text: largeSource(3000) }], reply };
    await page.goto(`/playground/#${encodeSession(session)}`);
    await expect(diagnostics(page)).toContainText('30 of 31 edits applied, 1 failed');

    await page.getByRole('button', { name: 'Copy as Markdown issue' }).click();
    const status = page.getByRole('status');
    await expect(status).toContainText(/^Markdown issue \([\d,]+ characters: too long for a GitHub issue\) copied\.$/);
    const size = Number((await status.textContent())!.match(/\(([\d,]+) characters/)![1].replace(/,/g, ''));
    const md = await copied(page);
    expect(md.length).toBe(size);
    expect(size).toBeGreaterThan(65_536);
    const alert = page.getByRole('alert');
    await expect(alert).toContainText(
      `The Markdown issue is ${size.toLocaleString('en')} characters long: GitHub refuses an issue body over 65,536 characters, so pasting it there will fail. Copy the issue of the minimal failure instead: the failure is shrunk, the minimal session opened (Back returns to this one) and its issue copied.`,
    );
    const bigUrl = page.url();

    // One click: the failed edit shrunk, the minimal session opened, its issue copied.
    await alert.getByRole('button', { name: 'Copy the minimal failure’s issue' }).click();
    const panel = page.getByRole('group', { name: /^Minimal failure/ });
    await expect(panel.getByRole('heading')).toHaveText('Minimal failure: edit #31 (no-match)');
    await expect(status).toHaveText('Markdown issue copied.', { timeout: 60_000 });
    await expect(diagnostics(page)).toContainText('0 of 1 edit applied, 1 failed');
    const small = await copied(page);
    expect(small.length).toBeLessThan(65_536);
    expect(small).toContain(typo);
    expect(small).toContain('0 of 1 edit applied, 1 failed.');
    expect(small).toContain(`- link: ${page.url()}`);
    await expect(page.getByRole('alert')).toHaveCount(0);
    // Back returns to the whole session.
    await page.goBack();
    await expect(diagnostics(page)).toContainText('30 of 31 edits applied, 1 failed');
    expect(page.url()).toBe(bigUrl);
    expect(seen).toEqual({ errors: [], dialogs: [], foreign: [] });
  });

  test('a link from another version still opens, and says when its recorded result differs', async ({ page }) => {
    const seen = watch(page);
    const good = digestOf(SESSION);
    // recorded by 0.0.1 with the same result: nothing to say
    await page.goto(`/playground/?v=0.0.1#${encodeSession({ ...SESSION, digest: good })}`);
    await expect(diagnostics(page)).toContainText('3 of 4 edits applied');
    await expect(page.getByRole('alert')).toHaveCount(0);
    // recorded by 0.0.1 with another result; the address stays as opened
    const opened = `/playground/?v=0.0.1#${encodeSession({ ...SESSION, digest: '0badf00d' })}`;
    await page.goto('about:blank');
    await page.goto(opened);
    await expect(diagnostics(page)).toContainText('3 of 4 edits applied');
    await expect(page.getByRole('alert')).toHaveText(
      `This link was made with ln-diff 0.0.1 and records a different result: this page runs ln-diff ${VERSION}, and the result shown below is this version's.`,
    );
    await page.waitForTimeout(800); // longer than the address's write throttle
    expect(page.url()).toBe(`${ORIGIN}${opened}`);
    // same version, other result: the link was altered
    await page.goto('about:blank');
    await page.goto(`/playground/?v=${VERSION}#${encodeSession({ ...SESSION, digest: '0badf00d', selected: 1 })}`);
    await expect(page.getByRole('alert')).toContainText(`This link was made with this version of ln-diff (${VERSION}), but it records a different result`);
    // no version: says so
    await page.goto('about:blank');
    await page.goto(`/playground/#${encodeSession({ ...SESSION, digest: '0badf00d', selected: 2 })}`);
    await expect(page.getByRole('alert')).toContainText('the link does not say which version made it');
    expect(seen).toEqual({ errors: [], dialogs: [], foreign: [] });
  });

  test('a link too long for an issue tracker warns and offers the session as a file; the file opens the same session; back returns', async ({ page }) => {
    const seen = watch(page);
    // incompressible text: the link grows with it
    let noise = '';
    for (let i = 0, x = 7; i < 80_000; i++) noise += String.fromCharCode(33 + ((x = (x * 1103515245 + 12345) % 2147483648) % 90));
    const long: Session = { format: 'whole', files: [{ name: 'noise.txt', text: `${noise}\r\nend` }], reply: '', prompt: 'p' };
    await page.goto(`/playground/#${encodeSession(SESSION)}`);
    await expect(diagnostics(page)).toContainText('3 of 4 edits applied');
    await expect(page.locator('#pg-link-warning')).toBeHidden();
    // a link of a few thousand characters works in issues and the address bar: no warning
    let some = '';
    for (let i = 0, x = 5; i < 3000; i++) some += String.fromCharCode(33 + ((x = (x * 1103515245 + 12345) % 2147483648) % 90));
    await page.goto(`/playground/#${encodeSession({ ...SESSION, files: [...SESSION.files, { name: 'some.txt', text: some }] })}`);
    await page.getByRole('button', { name: /#4 app\.py/ }).click();
    await expect(diagnostics(page)).toContainText('3 of 4 edits applied');
    expect(page.url().length).toBeGreaterThan(3000);
    await page.waitForFunction(() => location.search.includes('v='));
    await expect(page.locator('#pg-link-warning')).toBeHidden();
    await page.goto(`/playground/#${encodeSession(SESSION)}`);
    await expect(diagnostics(page)).toContainText('3 of 4 edits applied');

    // open a session file: a new history entry
    await page.locator('#pg-session-input').setInputFiles({
      name: 'long.json',
      mimeType: 'application/json',
      buffer: Buffer.from(JSON.stringify({ lnDiffSession: 1, version: '0.0.1', ...long })),
    });
    await expect(page.getByRole('status')).toContainText('Opened the session from long.json');
    await expect(page.getByRole('tab')).toHaveText(['noise.txt']);
    await expect(diagnostics(page)).toContainText('No edits found in the reply.');
    const warning = page.locator('#pg-link-warning');
    await expect(warning).toBeVisible();
    await expect(warning).toContainText(/The link to this session is [\d,]+ characters long/);
    await expect(warning).toContainText('Download session');

    // the warning's own button downloads the session
    const [download] = await Promise.all([page.waitForEvent('download'), warning.getByRole('button', { name: 'Download session' }).click()]);
    expect(download.suggestedFilename()).toBe('ln-diff-session.json');
    const text = readFileSync(await download.path(), 'utf8');
    const read = readSessionFile(text);
    expect(read).toEqual({ ok: true, version: VERSION, session: { ...long, digest: expect.stringMatching(/^[0-9a-f]{8}$/) } });
    expect(JSON.parse(text).files[0].text.endsWith('\r\nend')).toBe(true);

    // back: the session before the file
    await page.goBack();
    await expect(page.getByRole('tab')).toHaveText(['app.py']);
    await expect(diagnostics(page)).toContainText('3 of 4 edits applied');
    await page.goForward();
    await expect(page.getByRole('tab')).toHaveText(['noise.txt']);
    // a long link opened directly warns too
    const longLink = page.url();
    await page.goto('about:blank');
    await page.goto(longLink);
    await expect(page.getByRole('tab')).toHaveText(['noise.txt']);
    await expect(warning).toContainText(/The link to this session is [\d,]+ characters long/);

    // a file that holds no session changes nothing
    await page.locator('#pg-session-input').setInputFiles({ name: 'bad.json', mimeType: 'application/json', buffer: Buffer.from('{"format": 3}') });
    await expect(page.getByRole('alert')).toContainText('The file bad.json holds no usable session');
    await expect(page.getByRole('tab')).toHaveText(['noise.txt']);
    await page.locator('#pg-session-input').setInputFiles({ name: 'x.json', mimeType: 'application/json', buffer: Buffer.from('<script>alert(1)</script>') });
    await expect(page.getByRole('alert')).toContainText('The file x.json holds no usable session: the file is not JSON');
    expect(seen).toEqual({ errors: [], dialogs: [], foreign: [] });
  });
});

// ---------------------------------------------------------------- hostile links

const PAYLOAD = `<img src=x onerror="window.__pwned=1;alert(1)"><script>window.__pwned=2;alert(2)</script><svg onload="window.__pwned=3">`;
const packJson = (value: unknown) => `s=${LZString.compressToEncodedURIComponent(JSON.stringify(value))}`;
const valid = encodeSession(SESSION);

/** Each hostile hash, and what the page must say (null: it opens, showing the text as text). */
const HOSTILE: { name: string; hash: string; says: string | null }[] = [
  { name: 'truncated', hash: valid.slice(0, Math.floor(valid.length / 2)), says: 'This share link is broken' },
  { name: 'corrupted', hash: `${valid.slice(0, 40)}$$$$$$$$$$${valid.slice(50)}`, says: 'This share link is broken' },
  { name: 'not lz at all', hash: 's=%3Cscript%3Ealert(1)%3C/script%3E', says: 'characters a session never has' },
  { name: 'JSON of the wrong shape', hash: packJson({ v: 1, f: 'ln-diff', fs: 'x', r: '' }), says: "the session's files are missing" },
  { name: 'files not pairs', hash: packJson({ v: 1, f: 'ln-diff', fs: [{ name: 'a', text: 'b' }], r: '' }), says: 'not a name and a text' },
  { name: 'a number for a reply', hash: packJson({ v: 1, f: 'ln-diff', fs: [], r: 7 }), says: 'no reply text' },
  { name: 'an unknown version', hash: packJson({ v: 99, f: 'ln-diff', fs: [], r: '' }), says: 'unknown version' },
  { name: 'an array', hash: packJson([1, 2, 3]), says: 'unknown version' },
  { name: 'not JSON', hash: `s=${LZString.compressToEncodedURIComponent('{"v":1,')}`, says: 'not valid JSON' },
  { name: 'too many files', hash: packJson({ v: 1, f: 'ln-diff', fs: Array.from({ length: 51 }, (_, i) => [`f${i}`, '']), r: '' }), says: 'too many (at most 50)' },
  { name: 'a huge file name', hash: packJson({ v: 1, f: 'ln-diff', fs: [['n'.repeat(501), '']], r: '' }), says: 'file name in the session is too long' },
  { name: 'a decompression bomb', hash: `s=${lzBomb(12_000).packed}`, says: 'the session is too large' },
  { name: 'prototype pollution', hash: packJson(JSON.parse('{"v":1,"f":"ln-diff","fs":[["a.py","x\\n"]],"r":"","o":{"__proto__":{"polluted":1},"window":3},"__proto__":{"polluted":2}}')), says: null },
  { name: 'script in a format name', hash: packJson({ v: 1, f: PAYLOAD, fs: [['a.py', 'x\n']], r: '' }), says: 'the session names no valid format' },
  { name: 'script in a short format name', hash: packJson({ v: 1, f: '<img src=x onerror=alert(1)>', fs: [['a.py', 'x\n']], r: '' }), says: 'unknown format "<img src=x onerror=alert(1)>"' },
  {
    name: 'script in names, texts, reply and prompt',
    hash: encodeSession({
      format: 'auto',
      files: [{ name: PAYLOAD, text: `${PAYLOAD}\n` }, { name: 'b.html', text: `<p>${PAYLOAD}</p>\n` }],
      reply: `${PAYLOAD}\n<editblock>\n<<<<<<< REMOVE\n1│${PAYLOAD}\n=======\n │${PAYLOAD}<b>x</b>\n>>>>>>> INSERT\n</editblock>\n\nb.html\n<editblock>\n<<<<<<< REMOVE\n1│<p>nothing like it</p>\n=======\n │${PAYLOAD}\n>>>>>>> INSERT\n</editblock>\n`,
      prompt: PAYLOAD,
      selected: 1,
    }),
    says: null,
  },
];

test.describe('hostile links', () => {
  test('never run script, never throw, and say what was wrong', async ({ page, context }) => {
    test.setTimeout(120_000);
    await context.grantPermissions(['clipboard-read', 'clipboard-write']);
    const seen = watch(page);
    await page.goto('/playground/');
    await expect(diagnostics(page)).toContainText('edits applied');
    const baseline: string[] = await page.evaluate(() => Object.getOwnPropertyNames(window));

    for (const { name, hash, says } of HOSTILE) {
      await page.goto('about:blank');
      await page.goto(`/playground/#${hash}`);
      await expect(page.locator('#pg-summary'), name).not.toBeEmpty();
      if (says) await expect(page.getByRole('alert'), name).toContainText(says);
      else await expect(page.getByRole('alert'), name).toHaveCount(0);
      if (says && !says.startsWith('unknown format')) {
        await expect(page.getByRole('alert'), name).toContainText('This share link is broken');
        // an empty playground: one empty file, no reply
        await expect(page.getByLabel('Model reply'), name).toHaveText('');
        await expect(page.getByRole('tab'), name).toHaveCount(1);
      }
      if (name === 'script in names, texts, reply and prompt') {
        // shown as text everywhere: the tab, the diagnostics, the prompt, the merge view
        await expect(page.getByRole('tab', { name: PAYLOAD })).toBeVisible();
        await expect(diagnostics(page)).toContainText(`#1 ${PAYLOAD}`);
        await expect(diagnostics(page)).toContainText('1 of 2 edits applied');
        await page.getByText('Prompt', { exact: true }).click();
        await expect(page.getByRole('region', { name: 'Prompt' })).toHaveText(PAYLOAD);
        await page.getByText('Show the source as the model sees it').click();
        await expect(page.getByRole('region', { name: 'The source as the model sees it' })).toContainText(PAYLOAD);
        await page.evaluate(() => navigator.clipboard.writeText(''));
        await page.getByRole('button', { name: 'Copy as Markdown issue' }).click();
        await expect(page.getByRole('status')).toContainText('Markdown issue copied');
        const md = await copied(page);
        expect(md).toContain(`| #1 ${PAYLOAD.replace(/</g, '&lt;').replace(/>/g, '&gt;')} | applied |`);
        expect(md).toContain(`<summary>Source: ${PAYLOAD.replace(/</g, '&lt;').replace(/>/g, '&gt;')} (1 line)</summary>`);
        await row(page, 2).getByRole('button', { name: 'Copy link to this failure (edit #2)' }).click();
        await expect(page.getByRole('status')).toContainText('Link to edit #2 copied');
        const again = decodeSession(new URL(await copied(page)).hash);
        expect(again.ok && again.session.files[0].name).toBe(PAYLOAD);
      }
      if (name === 'prototype pollution') {
        await expect(page.locator('#pg-opt-window')).toHaveValue('3');
        expect(await page.evaluate(() => ({} as Record<string, unknown>).polluted)).toBeUndefined();
      }
      // nothing from the payload became markup or ran
      expect(await page.locator('[onerror], [onload]').count(), name).toBe(0);
      expect(await page.locator('img[src="x"], svg[onload]').count(), name).toBe(0);
      const scripts = await page.locator('script').evaluateAll((els) => els.map((e) => e.textContent ?? '').filter((t) => t.includes('__pwned')));
      expect(scripts, name).toEqual([]);
      const globals: string[] = await page.evaluate(() => Object.getOwnPropertyNames(window));
      expect(globals.filter((g) => !baseline.includes(g)), name).toEqual([]);
      expect(await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned), name).toBeUndefined();
    }
    expect(seen).toEqual({ errors: [], dialogs: [], foreign: [] });
  });
});

test('the sharing controls, the prompt panel, the notices and the live panel: accessible, light and dark', async ({ page }) => {
  test.setTimeout(120_000);
  const { default: AxeBuilder } = await import('@axe-core/playwright');
  let noise = '';
  for (let i = 0, x = 3; i < 80_000; i++) noise += String.fromCharCode(33 + ((x = (x * 1103515245 + 12345) % 2147483648) % 90));
  const session: Session = {
    ...SESSION,
    files: [...SESSION.files, { name: 'noise.txt', text: noise }],
    prompt: 'You are a careful programmer.\nAnswer with ln-diff editblocks only.',
    digest: '0badf00d',
  };
  await page.setViewportSize({ width: 1280, height: 1800 });
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await page.goto('about:blank');
    await page.goto(`/playground/?v=0.0.1#${encodeSession(session)}`);
    await expect(page.getByRole('alert')).toContainText('This link was made with ln-diff 0.0.1');
    // any change writes the link again: now long
    await page.getByRole('button', { name: /#4 app\.py/ }).click();
    await expect(page.locator('#pg-link-warning')).toBeVisible();
    await page.getByText('Prompt', { exact: true }).click();
    await page.getByText('Run with a model').click();
    await expect(page.locator('#pg-live-needs')).toHaveText('Enter a model name and an API key for OpenAI.');
    const { violations } = await new AxeBuilder({ page }).analyze();
    const summary = violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).slice(0, 5).join(' | ')}`);
    expect(summary, `${scheme}: ${summary.join('\n')}`).toEqual([]);
    await page.waitForTimeout(200);
    await page.screenshot({ path: `test-results/share-${scheme}.png`, fullPage: true });
  }
});
