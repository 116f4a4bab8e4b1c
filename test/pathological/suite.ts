// One node:test test per (family, format): the family's inputs run in a
// worker thread (runner.ts), so a run that never ends fails its test after
// LIMIT_MS instead of hanging the suite. The tests assert that every input
// completes without throwing and that its result is sound (work.ts, `check`);
// they assert no times.

import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { SPLICE_FORMATS, type SpliceFormat } from './replies.ts';
import { Runner, type Done } from './runner.ts';
import { FAMILIES } from './inputs.ts';

/** Longer than any input needs when the engine is linear, by far. */
const LIMIT_MS = 120_000;

export interface Plan {
  family: string;
  scale: number;
  /** What the run stands for, in the test name ("2,000 blocks"). */
  label: string;
  /** Inputs to run (by index in the family's list); all by default. */
  only?: number[];
  /**
   * Inputs known to take quadratic time in a format, with the reason: left
   * out of the run (each is listed in the test's name, so it stays visible).
   */
  known?: Partial<Record<SpliceFormat, { inputs: number[] | 'all'; reason: string }>>;
  /** Extra checks on the outcomes. */
  expect?: (format: SpliceFormat, done: Done) => void;
}

export function pathologicalSuite(title: string, plans: Plan[]): void {
  const runner = new Runner();
  after(() => runner.close());
  describe(title, () => {
    for (const plan of plans) {
      describe(`${plan.family}: ${plan.label}`, () => {
        const about = FAMILIES.find((f) => f.name === plan.family)?.formats;
        for (const format of SPLICE_FORMATS.filter((f) => !about || about.includes(f))) {
          const known = plan.known?.[format];
          if (known?.inputs === 'all') {
            test(format, { skip: known.reason }, () => {});
            continue;
          }
          const name = known ? `${format} (without inputs ${known.inputs.join(', ')}: ${known.reason})` : format;
          test(name, { timeout: LIMIT_MS + 10_000 }, async () => {
            const job = { family: plan.family, format, scale: plan.scale, only: plan.only, skip: known?.inputs as number[] | undefined };
            const done = await runner.run(job, LIMIT_MS);
            assert.ok(done.inputs > 0, 'the family built inputs');
            done.outcomes.forEach((o, i) => {
              assert.equal(o.threw, null, `input ${i} threw`);
              assert.deepEqual(o.problems, [], `input ${i}: ${o.kinds}`);
            });
            plan.expect?.(format, done);
          });
        }
      });
    }
  });
}
