import { test } from 'node:test';
import assert from 'node:assert/strict';
import { OVER_KEY, SAVE_KEY, Saver, markSavedOver, parseSaved, serializeSession, sessionSize, takeSavedOver, type SaveState } from '../../src/playground/persist.ts';
import type { Session } from '../../src/session/session.ts';

const SESSION: Session = {
  format: 'ln-diff',
  files: [{ name: 'a.py', text: 'x = 1\n' }],
  reply: 'a reply',
  options: { fuzzy: false },
  selected: 0,
  prompt: 'a prompt',
};

class MemoryStorage implements Storage {
  map = new Map<string, string>();
  failWrites = false;
  get length() {
    return this.map.size;
  }
  clear() {
    this.map.clear();
  }
  getItem(key: string) {
    return this.map.get(key) ?? null;
  }
  key(i: number) {
    return [...this.map.keys()][i] ?? null;
  }
  removeItem(key: string) {
    this.map.delete(key);
  }
  setItem(key: string, value: string) {
    if (this.failWrites) throw new Error('QuotaExceededError');
    this.map.set(key, value);
  }
}

test('serializeSession keeps exactly the session fields, in a versioned envelope', () => {
  const extra = { ...SESSION, digest: 'abcd1234', apiKey: 'sk-secret', endpoint: 'https://x' } as Session;
  const saved = serializeSession(extra);
  assert.equal(saved.ok, true);
  if (!saved.ok) return;
  assert.deepEqual(JSON.parse(saved.text), {
    v: 1,
    session: { format: 'ln-diff', files: [{ name: 'a.py', text: 'x = 1\n' }], reply: 'a reply', options: { fuzzy: false }, selected: 0, prompt: 'a prompt' },
  });
  assert.ok(!saved.text.includes('sk-secret'));
  assert.ok(!saved.text.includes('abcd1234'));
});

test('serializeSession refuses sessions over the limit', () => {
  const big: Session = { format: 'auto', files: [{ name: 'b', text: 'x'.repeat(5_000) }], reply: '' };
  assert.deepEqual(serializeSession(big, 4_000), { ok: false, size: sessionSize(big) });
  assert.equal(sessionSize(big), 5_000 + 1 + 30 + 200);
  // JSON escaping can make the text larger than the estimate: still refused
  const quotes: Session = { format: 'auto', files: [{ name: 'q', text: '"'.repeat(3_000) }], reply: '' };
  const r = serializeSession(quotes, 4_000);
  assert.equal(r.ok, false);
  assert.ok(!r.ok && r.size > 6_000);
  assert.equal(serializeSession(SESSION, 4_000).ok, true);
});

test('parseSaved reads back only a v1 envelope holding an object', () => {
  const saved = serializeSession(SESSION);
  assert.ok(saved.ok);
  if (!saved.ok) return;
  assert.deepEqual(parseSaved(saved.text), { ...SESSION });
  assert.equal(parseSaved(null), null);
  assert.equal(parseSaved(''), null);
  assert.equal(parseSaved('not json'), null);
  assert.equal(parseSaved('{"v":2,"session":{}}'), null);
  assert.equal(parseSaved('{"v":1,"session":"text"}'), null);
  assert.equal(parseSaved('{"v":1}'), null);
  assert.equal(parseSaved('[1,2]'), null);
  assert.deepEqual(parseSaved('{"v":1,"session":{"files":"nope"}}'), { files: 'nope' });
});

test('Saver debounces, saves, reports, refuses large sessions and clears', async () => {
  const storage = new MemoryStorage();
  let session: Session = SESSION;
  const reports: [SaveState, number][] = [];
  const saver = new Saver({ storage: () => storage, session: () => session, report: (s, n) => reports.push([s, n]), delayMs: 10, limit: 1_000 });
  saver.schedule();
  saver.schedule();
  assert.equal(saver.pending, true);
  assert.equal(storage.getItem(SAVE_KEY), null);
  await new Promise((r) => setTimeout(r, 40));
  assert.equal(saver.pending, false);
  assert.deepEqual(saver.read(), { ...SESSION });
  assert.equal(reports.length, 1);
  assert.equal(reports[0][0], 'saved');

  session = { format: 'auto', files: [{ name: 'b', text: 'x'.repeat(2_000) }], reply: '' };
  saver.flush();
  assert.equal(storage.getItem(SAVE_KEY), null, 'a session too large to save removes the older one');
  assert.deepEqual(reports.at(-1), ['too-large', 2_231]);

  session = SESSION;
  storage.failWrites = true;
  saver.flush();
  assert.equal(reports.at(-1)?.[0], 'failed');
  storage.failWrites = false;
  saver.flush();
  assert.equal(reports.at(-1)?.[0], 'saved');

  saver.schedule();
  saver.clear();
  assert.equal(saver.pending, false);
  assert.equal(storage.getItem(SAVE_KEY), null);
  assert.deepEqual(reports.at(-1), ['cleared', 0]);
  await new Promise((r) => setTimeout(r, 30));
  assert.equal(storage.getItem(SAVE_KEY), null, 'the cleared timer does not save later');
});

test('Saver without storage does nothing and reads nothing', () => {
  const reports: SaveState[] = [];
  const saver = new Saver({ storage: () => null, session: () => SESSION, report: (s) => reports.push(s) });
  saver.flush();
  assert.equal(saver.read(), null);
  assert.deepEqual(reports, []);
});

test('Saver waits longer for a larger session: one save after the pause, however many changes came before', async (t) => {
  t.mock.timers.enable({ apis: ['setTimeout'] });
  const storage = new MemoryStorage();
  let size = 2_000;
  let saves = 0;
  const saver = new Saver({ storage: () => storage, session: () => SESSION, size: () => size, report: (s) => s === 'saved' && saves++ });
  assert.equal(saver.delay(), 402);
  size = 1_100_000;
  assert.equal(saver.delay(), 1610);
  // 50 keystrokes 300 ms apart: no save while they come
  for (let i = 0; i < 50; i++) {
    saver.schedule();
    t.mock.timers.tick(300);
  }
  assert.equal(saves, 0);
  assert.equal(saver.pending, true);
  assert.equal(saver.current, false);
  t.mock.timers.tick(1310);
  assert.equal(saves, 1);
  assert.equal(saver.current, true);
  assert.deepEqual(saver.read(), { ...SESSION });
  // a change makes the saved copy old again until the next save
  saver.schedule();
  assert.equal(saver.current, false);
  saver.flush();
  assert.equal(saves, 2);
  assert.equal(saver.current, true);
  storage.failWrites = true;
  saver.schedule();
  saver.flush();
  assert.equal(saver.current, false, 'a failed save leaves no current copy');
});

test('the mark of a link the saved copy was typed over: only for that link, read once', () => {
  const tab = new MemoryStorage();
  assert.equal(takeSavedOver(tab, 's=abc'), false);
  markSavedOver(tab, 's=abc');
  assert.equal(takeSavedOver(tab, 's=abd'), false, 'another link');
  assert.equal(tab.getItem(OVER_KEY), null, 'asked once');
  markSavedOver(tab, 's=abc');
  assert.equal(takeSavedOver(tab, 's=abc'), true);
  assert.equal(takeSavedOver(tab, 's=abc'), false);
  markSavedOver(tab, '');
  assert.equal(takeSavedOver(tab, ''), false, 'no link, nothing to stand in for');
  markSavedOver(null, 's=abc');
  assert.equal(takeSavedOver(null, 's=abc'), false);
});
