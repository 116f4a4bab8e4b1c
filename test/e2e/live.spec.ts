// "Run with a model", without the internet: a local stand-in server
// (fixtures/model-server.ts) replays a recorded ln-diff reply for the demo
// source in chunks, over the OpenAI streaming protocol or Anthropic's.

import { test, expect, type Page } from '@playwright/test';
import { ORIGIN } from './fixtures/origin.ts';
import { readFileSync } from 'node:fs';
import { chunksOf, startModelServer, type ModelServer } from './fixtures/model-server.ts';
import { decodeSession, encodeSession } from '../../src/share/share.ts';

const REPLY = readFileSync(new URL('./fixtures/live-reply.txt', import.meta.url), 'utf8');
const KEY = 'sk-test-0123456789';

const diagnostics = (page: Page) => page.getByRole('region', { name: 'Diagnostics', exact: true });
const result = (page: Page) => page.getByRole('region', { name: 'Result', exact: true });
const message = (page: Page) => page.locator('#pg-live-message');
/** Why Run is disabled (empty when it is not). */
const needs = (page: Page) => page.locator('#pg-live-needs');
const runButton = (page: Page) => page.getByRole('button', { name: 'Run', exact: true });
/** What the panel says with the default endpoint (OpenAI) and nothing filled in. */
const OPENAI_NEEDS = 'Enter a model name and an API key for OpenAI.';

let servers: ModelServer[] = [];
test.afterEach(async () => {
  await Promise.all(servers.map((s) => s.close()));
  servers = [];
});

async function server(options: Parameters<typeof startModelServer>[0]): Promise<ModelServer> {
  const s = await startModelServer(options);
  servers.push(s);
  return s;
}

/** Open the playground (the demo session) and the live panel; fill the endpoint. */
async function openPanel(page: Page, base: string, key = KEY, path = '/playground/') {
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  await page.goto(path);
  await expect(page.locator('#pg-summary')).not.toBeEmpty();
  await page.getByText('Run with a model').click();
  // the panel's code is loaded: it fills the base URL (the default one, or this tab's last)
  await expect(page.getByLabel('Base URL')).not.toHaveValue('');
  await page.getByLabel('Base URL').fill(base);
  await page.getByLabel('Model', { exact: true }).fill('test-model');
  await page.getByLabel('API key').fill(key);
  return errors;
}

test('streams a reply from an OpenAI-compatible server into the reply editor and applies it', async ({ page }) => {
  const s = await server({ cors: true, chunks: chunksOf(REPLY, 8), key: KEY, holdAfter: 4 });
  const scripts: string[] = [];
  page.on('request', (r) => {
    if (r.resourceType() === 'script') scripts.push(new URL(r.url()).pathname);
  });
  await page.goto('/playground/');
  await expect(diagnostics(page)).toContainText('3 of 4 edits applied');
  // The live-run code is loaded only when its panel opens.
  const before = scripts.length;
  expect(scripts.some((p) => /\/panel\.[^/]*\.js$/.test(p))).toBe(false);
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  await page.getByText('Run with a model').click();
  await expect.poll(() => scripts.slice(before).some((p) => /\/panel\.[^/]*\.js$/.test(p))).toBe(true);
  await expect(needs(page)).toHaveText(OPENAI_NEEDS);

  await page.getByLabel('Base URL').fill(s.base);
  await page.getByLabel('Model', { exact: true }).fill('test-model');
  await page.getByLabel('API key').fill(KEY);
  await expect(runButton(page)).toBeEnabled();
  await expect(needs(page)).toBeHidden();
  await expect(page.getByLabel('System prompt')).toHaveValue(/editblock/);
  await page.getByLabel('Your request').fill('Add type hints and round the total.');
  await page.getByRole('button', { name: 'Run', exact: true }).click();

  // Half the reply has arrived: it is in the editor, the run can be stopped.
  await s.held;
  const replyEditor = page.getByLabel('Model reply');
  await expect(replyEditor).toContainText("I'll add type hints");
  await expect(replyEditor).not.toContainText('def main() -> None:');
  await expect(page.getByRole('button', { name: 'Stop' })).toBeEnabled();
  await expect(message(page)).toContainText('Receiving the answer from test-model');
  // the engine runs on the reply as it grows: the first editblock is complete
  await expect(diagnostics(page).locator('#pg-summary')).toContainText('All 1 edit applied');
  s.release();

  await expect(message(page)).toContainText(`Done: ${REPLY.length} characters from test-model`);
  await expect(replyEditor).toContainText('def main() -> None:');
  await expect(diagnostics(page)).toContainText('All 3 edits applied');
  const after = result(page).getByLabel('After: greet.py');
  await expect(after).toContainText('def greet(name: str) -> None:');
  await expect(after).toContainText('return round(calculate_total(items, tax_rate), 2)');
  await expect(page.getByRole('button', { name: 'Run', exact: true })).toBeEnabled();
  await expect(page.getByRole('button', { name: 'Stop' })).toBeDisabled();

  // What was sent: the prompt, the numbered source, the request; the key only in its header.
  const call = s.requests.find((r) => r.method === 'POST')!;
  expect(call.path).toBe('/v1/chat/completions');
  expect(call.headers.authorization).toBe(`Bearer ${KEY}`);
  const body = JSON.parse(call.body);
  expect(body.model).toBe('test-model');
  expect(body.stream).toBe(true);
  expect(body.messages[0].role).toBe('system');
  expect(body.messages[0].content).toContain('<editblock>');
  expect(body.messages[1].role).toBe('user');
  expect(body.messages[1].content).toBe(
    'greet.py\n 1│import sys\n 2│\n 3│def greet(name):\n 4│    print("Hello, " + name)\n 5│\n 6│def total(items, tax_rate):\n' +
      ' 7│    return calculate_total(items, tax_rate)\n 8│\n 9│def main():\n10│    greet(sys.argv[1])\n11│    print(total([3, 4], 0.2))\n' +
      '\nAdd type hints and round the total.',
  );

  // The prompt joins the session (shown read-only); the key is in no link and no storage.
  await expect(page.locator('#pg-prompt-box')).toBeVisible();
  await expect.poll(() => {
    const d = decodeSession(new URL(page.url()).hash);
    return d.ok ? `${d.session.reply === REPLY}|${d.session.prompt === body.messages[0].content}` : d.error;
  }).toBe('true|true');
  expect(page.url()).not.toContain(KEY);
  const d = decodeSession(new URL(page.url()).hash);
  expect(JSON.stringify(d)).not.toContain(KEY);
  const stored = await page.evaluate(() => JSON.stringify({ ...sessionStorage }) + JSON.stringify({ ...localStorage }));
  expect(stored).not.toContain(KEY);
  expect(errors).toEqual([]);
});

test('Anthropic Messages: headers, content_block_delta events, applied', async ({ page }) => {
  const s = await server({ cors: true, chunks: chunksOf(REPLY, 5), key: KEY });
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  await page.goto('/playground/');
  await page.getByText('Run with a model').click();
  await expect(needs(page)).toHaveText(OPENAI_NEEDS);
  await page.getByLabel('API', { exact: true }).selectOption('anthropic');
  await expect(page.getByLabel('Base URL')).toHaveValue('https://api.anthropic.com');
  await expect(needs(page)).toHaveText('Enter a model name and an API key for Anthropic.');
  // Anthropic's API needs a model and a key even on this machine
  await page.getByLabel('Base URL').fill(s.origin);
  await expect(needs(page)).toHaveText('Enter a model name and an API key for Anthropic.');
  await page.getByLabel('Model', { exact: true }).fill('claude-test');
  await expect(needs(page)).toHaveText('Enter an API key for Anthropic.');
  await expect(runButton(page)).toBeDisabled();
  await page.getByLabel('API key').fill(KEY);
  await expect(runButton(page)).toBeEnabled();
  await page.getByLabel('Your request').press('Control+Enter');
  await expect(message(page)).toContainText('Done:');
  await expect(diagnostics(page)).toContainText('All 3 edits applied');
  const call = s.requests.find((r) => r.method === 'POST')!;
  expect(call.path).toBe('/v1/messages');
  expect(call.headers['x-api-key']).toBe(KEY);
  expect(call.headers['anthropic-version']).toBe('2023-06-01');
  expect(call.headers['anthropic-dangerous-direct-browser-access']).toBe('true');
  expect(call.headers.authorization).toBeUndefined();
  const body = JSON.parse(call.body);
  expect(body).toMatchObject({ model: 'claude-test', stream: true, max_tokens: 8192 });
  expect(body.system).toContain('<editblock>');
  expect(body.messages).toHaveLength(1);
  expect(errors).toEqual([]);
});

test('a wrong key (401) says so and keeps the reply', async ({ page }) => {
  const s = await server({ cors: true, chunks: [REPLY], key: KEY });
  const errors = await openPanel(page, s.base, 'sk-wrong');
  await page.getByRole('button', { name: 'Run', exact: true }).click();
  await expect(message(page)).toContainText('The server refused the key (HTTP 401');
  await expect(message(page)).toContainText('Incorrect API key provided.');
  await expect(page.getByLabel('Model reply')).toContainText('Here are the changes.');
  await expect(page.getByRole('button', { name: 'Run', exact: true })).toBeEnabled();
  expect(errors).toEqual([]);
});

test('a server without CORS headers: the page says what to enable', async ({ page }) => {
  const s = await server({ cors: false, chunks: [REPLY], key: KEY });
  const errors = await openPanel(page, s.base);
  await page.getByRole('button', { name: 'Run', exact: true }).click();
  await expect(message(page)).toContainText('does not allow requests from this page (CORS)');
  await expect(message(page)).toContainText(`OLLAMA_ORIGINS=${ORIGIN}`);
  await expect(message(page)).toContainText('--cors');
  await expect(page.getByLabel('Model reply')).toContainText('Here are the changes.');
  expect(errors).toEqual([]);
});

test('no server at the address: a network failure', async ({ page }) => {
  const s = await startModelServer({ cors: true, chunks: [REPLY], key: KEY });
  await s.close(); // the port is free again: nothing answers there
  const errors = await openPanel(page, s.base);
  await page.getByRole('button', { name: 'Run', exact: true }).click();
  await expect(message(page)).toContainText(`Could not reach ${s.base}/chat/completions`);
  await expect(message(page)).not.toContainText('CORS');
  expect(errors).toEqual([]);
});

test('Stop cancels a run and keeps what arrived; a bad base URL is refused', async ({ page }) => {
  const s = await server({ cors: true, chunks: chunksOf(REPLY, 6), key: KEY, holdAfter: 2 });
  const errors = await openPanel(page, s.base);
  await page.getByRole('button', { name: 'Run', exact: true }).click();
  await s.held;
  await expect(page.getByLabel('Model reply')).toContainText("I'll add");
  await expect(page.getByRole('button', { name: 'Stop' })).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(message(page)).toContainText('Stopped. The reply so far is kept in the editor.');
  await expect(page.getByLabel('Model reply')).toContainText("I'll add");
  await expect(page.getByLabel('Model reply')).not.toContainText('def main() -> None:');
  await expect(page.getByRole('button', { name: 'Run', exact: true })).toBeFocused();

  await page.getByLabel('Base URL').fill('javascript:alert(1)');
  await expect(needs(page)).toHaveText('The base URL must start with http:// or https://, not javascript:.');
  await expect(page.getByLabel('Base URL')).toHaveAttribute('aria-invalid', 'true');
  await expect(runButton(page)).toBeDisabled();
  // Ctrl+Enter in the request runs too: it takes the user to the field to fix, which the reason describes
  await page.getByLabel('Your request').press('Control+Enter');
  await expect(page.getByLabel('Base URL')).toBeFocused();
  await expect(page.getByLabel('Base URL')).toHaveAccessibleDescription(/^The base URL must start with http:\/\/ or https:\/\/, not javascript:\. OpenAI: /);
  await expect(message(page)).toBeHidden();
  expect(errors).toEqual([]);
});

test('an endpoint outside the page CSP is refused before any request, saying how to allow it', async ({ page }) => {
  const requests: string[] = [];
  page.on('request', (r) => {
    if (!r.url().startsWith(`${ORIGIN}/`)) requests.push(r.url());
  });
  const errors = await openPanel(page, 'https://llm.example.com/v1');
  const csp = await page.locator('meta[http-equiv="Content-Security-Policy"]').getAttribute('content');
  const connect = / connect-src ([^;]*)/.exec(csp ?? '')?.[1].split(' ') ?? [];
  expect(connect).toContain('https://api.openai.com');
  expect(connect).toContain('http://127.0.0.1:*');
  expect(connect).not.toContain('https:');
  await expect(page.locator('#pg-live-origins')).toContainText('api.openai.com');
  await expect(needs(page)).toContainText('This page may not connect to https://llm.example.com');
  await expect(needs(page)).toContainText('LN_DIFF_LIVE_ORIGINS=https://llm.example.com');
  await expect(runButton(page)).toBeDisabled();
  await page.getByLabel('Your request').press('Control+Enter');
  await expect(page.getByLabel('Base URL')).toBeFocused();
  await expect(page.getByLabel('Base URL')).toHaveAccessibleDescription(/^This page may not connect to https:\/\/llm\.example\.com/);
  expect(requests).toEqual([]);
  expect(errors).toEqual([]);
});

test('the key is kept in session storage only when asked; the prompt comes from the session', async ({ page }) => {
  const prompt = 'You are a careful editor. <b>Reply</b> with editblocks.';
  const link = `/playground/#${encodeSession({ format: 'ln-diff', files: [{ name: 'a.py', text: 'x = 1\n' }], reply: '', prompt })}`;
  const errors = await openPanel(page, 'http://127.0.0.1:8080/v1', KEY, link);
  await expect(page.getByLabel('System prompt')).toHaveValue(prompt);
  await expect(page.getByRole('region', { name: 'Prompt' })).toBeHidden(); // collapsed
  await page.getByText('Prompt', { exact: true }).click();
  await expect(page.getByRole('region', { name: 'Prompt' })).toHaveText(prompt);
  expect(await page.evaluate(() => sessionStorage.getItem('ln-diff.live.key'))).toBeNull();

  await page.getByLabel("Keep the key in this tab's session storage").check();
  expect(await page.evaluate(() => sessionStorage.getItem('ln-diff.live.key'))).toBe(KEY);
  await page.reload();
  await page.getByText('Run with a model').click();
  await expect(page.getByRole('button', { name: 'Run', exact: true })).toBeEnabled();
  await expect(page.getByLabel('API key')).toHaveValue(KEY);
  await expect(page.getByLabel('Base URL')).toHaveValue('http://127.0.0.1:8080/v1');
  await page.getByLabel("Keep the key in this tab's session storage").uncheck();
  expect(await page.evaluate(() => sessionStorage.getItem('ln-diff.live.key'))).toBeNull();
  expect(await page.evaluate(() => JSON.stringify({ ...localStorage }))).not.toContain(KEY);

  // A default prompt follows the format; "Default prompt" brings it back.
  await page.getByLabel('System prompt').fill('mine');
  await page.getByRole('button', { name: 'Default prompt' }).click();
  await expect(page.getByLabel('System prompt')).toHaveValue(/editblock/);
  await page.getByRole('combobox', { name: 'Format', exact: true }).selectOption('search-replace');
  await expect(page.getByLabel('System prompt')).toHaveValue(/SEARCH\/REPLACE/);
  await expect(page.locator('#pg-live-format')).toHaveText('The model is asked for search-replace edits (the Format menu above).');
  expect(errors).toEqual([]);
});

/** Requests the page sends anywhere but the site itself. */
function outside(page: Page): string[] {
  const requests: string[] = [];
  page.on('request', (r) => {
    if (!r.url().startsWith(`${ORIGIN}/`)) requests.push(r.url());
  });
  return requests;
}

test('a hosted API: Run stays disabled, saying what is missing, until the model and the key are given', async ({ page }) => {
  const requests = outside(page);
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  await page.goto('/playground/');
  await page.getByText('Run with a model').click();
  const run = runButton(page);
  // The default endpoint: OpenAI, with no model and no key
  await expect(page.getByLabel('Base URL')).toHaveValue('https://api.openai.com/v1');
  await expect(needs(page)).toHaveText(OPENAI_NEEDS);
  await expect(run).toBeDisabled();
  await expect(run).toHaveAccessibleDescription(OPENAI_NEEDS);
  await expect(needs(page)).toHaveAttribute('aria-live', 'polite');
  await expect(page.getByLabel('Model', { exact: true })).toHaveAttribute('placeholder', 'e.g. gpt-4.1-mini');
  await expect(page.getByLabel('API key')).toHaveAttribute('placeholder', 'your OpenAI key');
  await page.getByLabel('Your request').fill('Add type hints.');
  await page.getByLabel('Your request').press('Control+Enter');
  await expect(page.getByLabel('Model', { exact: true })).toBeFocused();
  await expect(page.getByLabel('Model', { exact: true })).toHaveAccessibleDescription(OPENAI_NEEDS);
  await expect(message(page)).toBeHidden();

  await page.getByLabel('Model', { exact: true }).fill('gpt-4.1-mini');
  await expect(needs(page)).toHaveText('Enter an API key for OpenAI.');
  await expect(run).toHaveAccessibleDescription('Enter an API key for OpenAI.');
  await expect(page.getByLabel('API key')).toHaveAccessibleDescription('Enter an API key for OpenAI.');
  await expect(page.getByLabel('Model', { exact: true })).toHaveAccessibleDescription('');
  await expect(run).toBeDisabled();
  await page.getByLabel('API key').fill(KEY);
  await expect(run).toBeEnabled();
  await expect(needs(page)).toBeHidden();
  await page.getByLabel('API key').fill('');
  await expect(needs(page)).toHaveText('Enter an API key for OpenAI.');
  await expect(run).toBeDisabled();

  // Another hosted API behind the OpenAI-compatible protocol is named
  await page.getByLabel('Base URL').fill('https://generativelanguage.googleapis.com/v1beta/openai');
  await expect(needs(page)).toHaveText('Enter an API key for Gemini.');
  // Anthropic's Messages API: the base follows, the model stays, the key is still missing
  await page.getByLabel('API', { exact: true }).selectOption('anthropic');
  await page.getByLabel('Base URL').fill('https://api.anthropic.com');
  await expect(needs(page)).toHaveText('Enter an API key for Anthropic.');
  await page.getByLabel('Model', { exact: true }).fill('');
  await expect(needs(page)).toHaveText('Enter a model name and an API key for Anthropic.');
  await expect(run).toBeDisabled();
  expect(requests).toEqual([]);
  expect(errors).toEqual([]);
});

test('a server on this machine needs no key, nor a model unless it is Ollama', async ({ page }) => {
  const s = await server({ cors: true, chunks: chunksOf(REPLY, 4), key: KEY });
  const sent: Record<string, string>[] = [];
  // The stand-in checks a key; on the way there, add it, as a server that
  // checks none would accept the request as the page sent it.
  await page.route(`${s.base}/chat/completions`, async (route) => {
    const headers = route.request().headers();
    if (route.request().method() === 'POST') sent.push(headers);
    await route.continue({ headers: { ...headers, authorization: `Bearer ${KEY}` } });
  });
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  await page.goto('/playground/');
  await page.getByText('Run with a model').click();
  await expect(needs(page)).toHaveText(OPENAI_NEEDS);

  await page.getByLabel('Base URL').fill('http://127.0.0.1:11434/v1');
  await expect(needs(page)).toHaveText('Enter a model name: Ollama needs one (for example llama3.2).');
  await expect(page.getByLabel('Model', { exact: true })).toHaveAttribute('placeholder', 'e.g. llama3.2');
  await expect(runButton(page)).toBeDisabled();
  await page.getByLabel('Model', { exact: true }).fill('llama3.2');
  await expect(runButton(page)).toBeEnabled();
  await expect(needs(page)).toBeHidden();

  await page.getByLabel('Model', { exact: true }).fill('');
  await page.getByLabel('Base URL').fill(s.base);
  await expect(runButton(page)).toBeEnabled();
  await expect(needs(page)).toBeHidden();
  await expect(page.getByLabel('Model', { exact: true })).toHaveAttribute('placeholder', 'optional: the loaded model');
  await expect(page.getByLabel('API key')).toHaveAttribute('placeholder', 'not needed for a local server');
  await expect(page.getByLabel('API key')).toHaveValue('');
  await runButton(page).click();
  await expect(message(page)).toContainText(`Done: ${REPLY.length} characters from the model`);
  await expect(diagnostics(page)).toContainText('All 3 edits applied');
  // as the page sent it: no key, no model
  expect(sent).toHaveLength(1);
  expect(sent[0].authorization).toBeUndefined();
  const call = s.requests.find((r) => r.method === 'POST')!;
  expect(JSON.parse(call.body).model).toBeUndefined();
  expect(errors).toEqual([]);
});

test('ports the browser refuses (9, 6000) are named as such, and no request is sent', async ({ page }) => {
  const requests = outside(page);
  const errors = await openPanel(page, 'http://127.0.0.1:8080/v1');
  await expect(runButton(page)).toBeEnabled();
  await page.getByLabel('Your request').fill('Add type hints.');
  for (const [base, port, service] of [
    ['http://127.0.0.1:9/v1', 9, 'discard'],
    ['http://localhost:6000/v1', 6000, 'x11'],
  ] as const) {
    const said = `The browser refuses to connect to port ${port} (a port reserved for other protocols: ${service}); use another port.`;
    await page.getByLabel('Base URL').fill(base);
    await expect(needs(page)).toHaveText(said);
    await expect(runButton(page)).toBeDisabled();
    await expect(runButton(page)).toHaveAccessibleDescription(said);
    await expect(page.getByLabel('Base URL')).toHaveAttribute('aria-invalid', 'true');
    await page.getByLabel('Your request').press('Control+Enter');
    await expect(page.getByLabel('Base URL')).toBeFocused();
    await expect(page.getByLabel('Base URL')).toHaveAccessibleDescription(new RegExp(`^${said.replace(/[()?.]/g, '\\$&')} OpenAI: `));
    await expect(message(page)).toBeHidden();
    await page.getByLabel('Your request').focus();
  }
  // a usual port is fine again
  await page.getByLabel('Base URL').fill('http://127.0.0.1:8080/v1');
  await expect(needs(page)).toBeHidden();
  await expect(page.getByLabel('Base URL')).not.toHaveAttribute('aria-invalid');
  await expect(runButton(page)).toBeEnabled();
  expect(requests).toEqual([]);

  // What the panel spares the user: the browser itself refuses the port (the
  // CSP allows 127.0.0.1 on any port), with a bare network error, and the
  // attempt is seen by the listener above.
  const failed = await page.evaluate(() =>
    fetch('http://127.0.0.1:9/v1/chat/completions', { method: 'POST' }).then(
      () => 'answered',
      (e: unknown) => (e instanceof TypeError ? 'TypeError' : String(e)),
    ),
  );
  expect(failed).toBe('TypeError');
  expect(requests).toEqual(['http://127.0.0.1:9/v1/chat/completions']);
  expect(errors).toEqual([]);
});

test('the request\'s size is shown as it changes; over 100,000 tokens Run asks first, Cancel sends nothing, Send sends one request', async ({ page }) => {
  const s = await server({ cors: true, chunks: chunksOf(REPLY, 4), key: KEY });
  const posts = () => s.requests.filter((r) => r.method === 'POST').length;
  const size = page.locator('#pg-live-size');
  const confirm = page.getByRole('group', { name: /^This request is about/ });

  // The demo source: a small request, no confirm step.
  const errors = await openPanel(page, s.base);
  await expect(size).toHaveText(/^About [\d,]+ tokens to send \(an estimate: [\d,]+ characters ÷ 4\)\.$/);
  await expect(size).not.toContainText('Run asks');
  /** The characters and tokens the size says. */
  const said = async () => {
    const m = /^About ([\d,]+) tokens to send \(an estimate: ([\d,]+) characters/.exec((await size.textContent()) ?? '');
    return m ? { tokens: Number(m[1].replace(/,/g, '')), chars: Number(m[2].replace(/,/g, '')) } : { tokens: 0, chars: 0 };
  };
  expect((await said()).tokens).toBeLessThan(2000);
  // the estimate follows the request as it is typed: 8,000 characters, then 4,000 fewer
  await page.getByLabel('Your request').fill('y'.repeat(8000));
  await expect.poll(async () => (await said()).chars).toBeGreaterThan(8000);
  const long = await said();
  expect(long.tokens).toBe(Math.ceil(long.chars / 4));
  await page.getByLabel('Your request').fill('y'.repeat(4000));
  await expect.poll(async () => (await said()).chars).toBe(long.chars - 4000);
  expect((await said()).tokens).toBe(Math.ceil((long.chars - 4000) / 4));
  // and names the tokenizer of a model it knows
  await page.getByLabel('Model', { exact: true }).fill('gpt-4.1');
  await expect(size).toContainText('the model counts with the o200k tokenizer');
  await page.getByLabel('Model', { exact: true }).fill('test-model');
  await page.getByLabel('Your request').fill('Add type hints.');
  // the source changed while the panel was closed: the size is measured again when it opens
  await expect.poll(async () => (await said()).chars).toBeLessThan(long.chars - 4000);
  const shut = await said();
  await page.getByText('Run with a model').click();
  await expect(page.getByLabel('Your request')).toBeHidden();
  const source = page.locator('.cm-content[aria-label^="Source: "]').first();
  await source.click();
  await page.keyboard.press('Control+End');
  await page.keyboard.insertText('z'.repeat(400));
  await page.getByText('Run with a model').click();
  await expect.poll(async () => (await said()).chars).toBeGreaterThanOrEqual(shut.chars + 400);

  // A source of about 150,000 tokens (a session link: the files are in it).
  const lines = Array.from({ length: 8_000 }, (_, i) => `const value${i} = compute(${i}, "some text to make the line longer");`);
  const big = encodeSession({ format: 'ln-diff', files: [{ name: 'big.js', text: lines.join('\n') + '\n' }], reply: '' });
  await page.goto(`/playground/#${big}`);
  await page.reload();
  await expect(page.locator('#pg-summary')).not.toBeEmpty();
  await page.getByText('Run with a model').click();
  await page.getByLabel('Base URL').fill(s.base);
  await page.getByLabel('Model', { exact: true }).fill('test-model');
  await page.getByLabel('API key').fill(KEY);
  await expect(size).toHaveText(/^About [\d,]+ tokens to send \(an estimate: [\d,]+ characters ÷ 4\)\. More than 100,000: Run asks before sending\.$/);
  const large = await said();
  expect(large.tokens).toBeGreaterThan(100_000);
  expect(large.tokens).toBeLessThan(250_000);
  await expect(confirm).toBeHidden();

  // Run asks; Cancel sends nothing.
  await runButton(page).click();
  await expect(confirm).toBeVisible();
  await expect(confirm).toContainText(`This request is about ${large.tokens.toLocaleString('en-US')} tokens (an estimate), more than 100,000`);
  await expect(page.getByRole('button', { name: 'Cancel' })).toBeFocused();
  // Screenshots for a look: LN_DIFF_LIVE_SHOTS=/tmp/live-shots.
  const shots = process.env.LN_DIFF_LIVE_SHOTS;
  if (shots) {
    for (const [name, width, scheme] of [['wide-light', 1440, 'light'], ['wide-dark', 1440, 'dark'], ['phone-light', 390, 'light'], ['phone-dark', 390, 'dark']] as const) {
      await page.setViewportSize({ width, height: 900 });
      await page.emulateMedia({ colorScheme: scheme });
      await page.locator('#pg-live-confirm').scrollIntoViewIfNeeded();
      await page.locator('#pg-live').screenshot({ path: `${shots}/live-confirm-${name}.png` });
    }
  }
  await page.getByRole('button', { name: 'Cancel' }).click();
  await expect(confirm).toBeHidden();
  await expect(message(page)).toHaveText('Not sent: the request was not confirmed.');
  await expect(runButton(page)).toBeEnabled();
  expect(posts()).toBe(0);
  // Escape cancels too.
  await runButton(page).click();
  await expect(confirm).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(confirm).toBeHidden();
  expect(posts()).toBe(0);

  // Run, then Send: one request, with the whole source.
  await runButton(page).click();
  await page.getByRole('button', { name: `Send about ${large.tokens.toLocaleString('en-US')} tokens` }).click();
  await expect(message(page)).toContainText('Done:');
  expect(posts()).toBe(1);
  const body = JSON.parse(s.requests.find((r) => r.method === 'POST')!.body);
  expect(body.messages[1].content).toContain('const value7999 = compute(7999');
  expect(errors).toEqual([]);
});

test('screenshots of the live panel (light and dark)', async ({ page }) => {
  const s = await server({ cors: true, chunks: chunksOf(REPLY, 4), key: KEY });
  await page.setViewportSize({ width: 1280, height: 1400 });
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await openPanel(page, s.base);
    await page.getByLabel('Your request').fill('Add type hints and round the total.');
    await page.getByRole('button', { name: 'Run', exact: true }).click();
    await expect(diagnostics(page)).toContainText('All 3 edits applied');
    await page.getByText('Prompt', { exact: true }).click();
    await page.waitForTimeout(200);
    await page.screenshot({ path: `test-results/live-${scheme}.png`, fullPage: false });
  }
});
