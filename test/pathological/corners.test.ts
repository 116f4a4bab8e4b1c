// The corners that grew faster than their input: a long reply of prose (split
// into lines once per request), str_replace calls whose old_str ends with its
// line break, and thousands of given and created paths (indexed once). Each
// run completes in a worker with a time limit, and its result is sound (see
// suite.ts); the work itself is counted in the tests of each module
// (test/formats/one-split.test.ts, test/formats/str-replace/occurrences.test.ts,
// test/core/paths.test.ts). No clock is asserted.

import assert from 'node:assert/strict';
import { pathologicalSuite } from './suite.ts';

pathologicalSuite('pathological: corners', [
  { family: 'prose', scale: 20, label: '90,900 prose lines, no edit' },
  { family: 'old-str-eol', scale: 100, label: '1,000 calls on an 80,000-line file, old_str ending with its line break' },
  {
    family: 'given-paths',
    scale: 20,
    label: '2,000 given files and 2,000 created ones, then 2,000 look-alikes',
    expect(_format, done) {
      for (const o of done.outcomes) assert.equal(o.applied, o.edits, o.kinds);
    },
  },
]);
