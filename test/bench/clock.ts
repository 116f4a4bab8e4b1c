// A clock the test moves by hand: `sleep` waits until `advance` has moved
// `now` past its deadline (or its signal aborts). No timers, no wall time.

import type { BenchClock } from '../../src/bench/client.ts';

export class TestClock implements BenchClock {
  private at: number;
  private sleepers: { until: number; ms: number; wake: () => void }[] = [];

  constructor(start = Date.UTC(2025, 0, 2, 3, 4, 5)) {
    this.at = start;
  }

  now(): number {
    return this.at;
  }

  sleep(ms: number, signal: AbortSignal): Promise<void> {
    return new Promise((resolve, reject) => {
      if (signal.aborted) return reject(new DOMException('The operation was aborted.', 'AbortError'));
      const sleeper = {
        until: this.at + ms,
        ms,
        wake: () => {
          signal.removeEventListener('abort', stop);
          resolve();
        },
      };
      const stop = () => {
        this.sleepers = this.sleepers.filter((s) => s !== sleeper);
        reject(new DOMException('The operation was aborted.', 'AbortError'));
      };
      signal.addEventListener('abort', stop, { once: true });
      this.sleepers.push(sleeper);
    });
  }

  /** The durations of the sleeps now pending. */
  pending(): number[] {
    return this.sleepers.map((s) => s.ms);
  }

  /** Move time on by `ms`, waking every sleep whose deadline is passed. */
  advance(ms: number): void {
    this.at += ms;
    const due = this.sleepers.filter((s) => s.until <= this.at);
    this.sleepers = this.sleepers.filter((s) => s.until > this.at);
    for (const s of due) s.wake();
  }
}
