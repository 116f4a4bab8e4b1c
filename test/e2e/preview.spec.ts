// `npm run preview -- --port N` serves the built site on port N: the
// script names no port of its own (the default, 4321, is astro.config.mjs's
// server.port), so the one given is the only one Astro sees.

import { test, expect } from '@playwright/test';
import { spawn } from 'node:child_process';
import { freePort } from './fixtures/port.ts';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

test('npm run preview -- --port N serves the site on port N', async () => {
  const port = await freePort();
  // Its own process group, so that npm, the shell and Astro all stop with it.
  const child = spawn('npm', ['run', 'preview', '--', '--port', String(port)], { cwd: ROOT, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (d) => (output += String(d)));
  child.stderr.on('data', (d) => (output += String(d)));
  try {
    await expect
      .poll(
        async () => {
          try {
            return (await fetch(`http://127.0.0.1:${port}/`)).status;
          } catch {
            return 0;
          }
        },
        { timeout: 45_000, message: `preview on ${port}: ${output}` },
      )
      .toBe(200);
    const html = await (await fetch(`http://127.0.0.1:${port}/`)).text();
    expect(html).toContain('ln-diff');
    expect(output).toContain(`127.0.0.1:${port}`);
  } finally {
    if (child.pid !== undefined) process.kill(-child.pid, 'SIGTERM');
  }
});
