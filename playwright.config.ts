import { freePort } from './test/e2e/fixtures/port.ts';
import { defineConfig } from '@playwright/test';

// End-to-end tests of the built site in Debian's Chromium (never a
// downloaded browser): `npm run build`, then `npx playwright test`.
// The site is served on a free port, chosen once by the runner and handed
// to its workers through the environment, so two runs on one machine do not
// collide. Tests read the origin from LN_DIFF_E2E_ORIGIN.

process.env.LN_DIFF_E2E_PORT ??= String(await freePort());
const port = Number(process.env.LN_DIFF_E2E_PORT);
const origin = `http://127.0.0.1:${port}`;
process.env.LN_DIFF_E2E_ORIGIN = origin;

export default defineConfig({
  testDir: 'test/e2e',
  outputDir: 'test-results',
  timeout: 60_000,
  fullyParallel: false,
  workers: 1,
  reporter: 'list',
  use: {
    baseURL: origin,
    browserName: 'chromium',
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    },
  },
  webServer: {
    command: `npx astro preview --host 127.0.0.1 --port ${port}`,
    url: `${origin}/`,
    reuseExistingServer: false,
    timeout: 60_000,
  },
});
