// The "Running… Cancel" indicator's rule, on a clock the test moves by hand:
// a run shows only once it has lasted longer than the delay, and a run that
// ends before never shows, however the time falls.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DelayedShow, SHOW_AFTER_MS, TICK_MS, runningLabel, type Clock } from '../../src/playground/guard.ts';

/** A clock that moves only when told to, firing its timers in order. */
class ManualClock implements Clock {
  private time = 0;
  private nextId = 1;
  private timers = new Map<number, { at: number; fn: () => void; every: number | null }>();
  now(): number {
    return this.time;
  }
  setTimeout(fn: () => void, ms: number): number {
    this.timers.set(this.nextId, { at: this.time + ms, fn, every: null });
    return this.nextId++;
  }
  setInterval(fn: () => void, ms: number): number {
    this.timers.set(this.nextId, { at: this.time + ms, fn, every: ms });
    return this.nextId++;
  }
  clearTimeout(id: unknown): void {
    this.timers.delete(id as number);
  }
  clearInterval(id: unknown): void {
    this.timers.delete(id as number);
  }
  get pending(): number {
    return this.timers.size;
  }
  /** Move time on by `ms`, firing every timer that falls due, in time order. */
  advance(ms: number): void {
    const end = this.time + ms;
    for (;;) {
      let next: [number, { at: number; fn: () => void; every: number | null }] | null = null;
      for (const entry of this.timers) if (entry[1].at <= end && (!next || entry[1].at < next[1].at)) next = entry;
      if (!next) break;
      const [id, timer] = next;
      this.time = timer.at;
      if (timer.every === null) this.timers.delete(id);
      else timer.at += timer.every;
      timer.fn();
    }
    this.time = end;
  }
}

function setup() {
  const clock = new ManualClock();
  const shows: number[] = [];
  let hides = 0;
  const rule = new DelayedShow({ show: (ms) => shows.push(ms), hide: () => hides++ }, clock);
  return { clock, shows, hides: () => hides, rule };
}

test('a run that ends before the delay is never shown, even a moment before it', () => {
  for (const lasted of [0, 1, SHOW_AFTER_MS / 2, SHOW_AFTER_MS - 1]) {
    const { clock, shows, rule } = setup();
    rule.start();
    clock.advance(lasted);
    rule.stop();
    clock.advance(60_000);
    assert.deepEqual(shows, [], `a run of ${lasted} ms`);
    assert.equal(rule.shown, false);
    assert.equal(clock.pending, 0, 'no timer is left behind');
  }
});

test('a run is shown exactly when it has lasted the delay, not before', () => {
  const { clock, shows, rule } = setup();
  rule.start();
  clock.advance(SHOW_AFTER_MS - 1);
  assert.equal(rule.shown, false);
  assert.deepEqual(shows, []);
  clock.advance(1);
  assert.equal(rule.shown, true);
  assert.deepEqual(shows, [SHOW_AFTER_MS]);
});

test('while shown, the elapsed time is reported every tick; stopping hides it and ends the ticks', () => {
  const { clock, shows, hides, rule } = setup();
  rule.start();
  clock.advance(SHOW_AFTER_MS + 3 * TICK_MS);
  assert.deepEqual(shows, [SHOW_AFTER_MS, SHOW_AFTER_MS + TICK_MS, SHOW_AFTER_MS + 2 * TICK_MS, SHOW_AFTER_MS + 3 * TICK_MS]);
  const before = hides();
  rule.stop();
  assert.equal(rule.shown, false);
  assert.equal(hides(), before + 1);
  clock.advance(10_000);
  assert.equal(shows.length, 4, 'no tick after stop');
  assert.equal(clock.pending, 0);
});

test('a start while a run is being timed or shown keeps the first start time', () => {
  const { clock, shows, rule } = setup();
  rule.start();
  clock.advance(200);
  rule.start(); // the next run follows at once
  clock.advance(SHOW_AFTER_MS - 200);
  assert.deepEqual(shows, [SHOW_AFTER_MS], 'shown after the delay from the first start, not postponed');
  rule.start();
  clock.advance(TICK_MS);
  assert.deepEqual(shows, [SHOW_AFTER_MS, SHOW_AFTER_MS + TICK_MS]);
});

test('after a stop, the next run gets the whole delay again', () => {
  const { clock, shows, rule } = setup();
  rule.start();
  clock.advance(SHOW_AFTER_MS - 1);
  rule.stop();
  rule.start();
  clock.advance(SHOW_AFTER_MS - 1);
  assert.deepEqual(shows, []);
  clock.advance(1);
  assert.deepEqual(shows, [SHOW_AFTER_MS]);
});

test('the delay is the one given', () => {
  const clock = new ManualClock();
  const shows: number[] = [];
  const rule = new DelayedShow({ show: (ms) => shows.push(ms), hide: () => undefined }, clock, 1000);
  rule.start();
  clock.advance(999);
  assert.deepEqual(shows, []);
  clock.advance(1);
  assert.deepEqual(shows, [1000]);
});

test('the label counts whole seconds from one second on', () => {
  assert.equal(runningLabel(0), 'Running…');
  assert.equal(runningLabel(999), 'Running…');
  assert.equal(runningLabel(1000), 'Running… 1 s');
  assert.equal(runningLabel(2300), 'Running… 2 s');
  assert.equal(runningLabel(61_000), 'Running… 61 s');
});
