// The pause the playground waits for before work whose cost grows with the
// session (src/session/pause.ts).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { LINK_PAUSE, MERGE_PAUSE, SAVE_PAUSE, pauseFor, type Pause } from '../../src/session/pause.ts';

test('pauseFor: the least wait for a small session, growing with its size, never over the most', () => {
  const p: Pause = { least: 400, perMillion: 1000, most: 3000 };
  assert.equal(pauseFor(0, p), 400);
  assert.equal(pauseFor(-5, p), 400);
  assert.equal(pauseFor(1000, p), 401);
  assert.equal(pauseFor(500_000, p), 900);
  assert.equal(pauseFor(1_000_000, p), 1400);
  assert.equal(pauseFor(2_600_000, p), 3000);
  assert.equal(pauseFor(50_000_000, p), 3000);
  assert.ok(Number.isInteger(pauseFor(123_457, p)));
});

test('the playground\'s pauses: a save and a link of a 20,000-line file (about 1.1 MB) wait longer than a keystroke\'s interval', () => {
  assert.equal(pauseFor(2_000, SAVE_PAUSE), 402);
  assert.equal(pauseFor(1_100_000, SAVE_PAUSE), 1610);
  assert.equal(pauseFor(1_100_000, LINK_PAUSE), 1710);
  assert.equal(pauseFor(10_000_000, SAVE_PAUSE), SAVE_PAUSE.most);
  assert.ok(pauseFor(1_100_000, MERGE_PAUSE) < pauseFor(1_100_000, SAVE_PAUSE));
  for (const p of [SAVE_PAUSE, LINK_PAUSE, MERGE_PAUSE]) assert.ok(p.least <= p.most);
});
