// 100,000 identical lines, for every format: an edit of three of them (placed
// by its line number, or ambiguous without one), an edit citing a line that
// is not there, and an edit whose cited lines are 50,000 identical lines.
// Each run completes (in a worker, with a time limit) and its result is
// sound; see suite.ts.

import assert from 'node:assert/strict';
import { pathologicalSuite } from './suite.ts';

/** Formats that place an edit by line number (or line tags): the rest see 100,000 equal places. */
const NUMBERED = ['ln-diff', 'udiff', 'udiffx', 'roo', 'hashline'];

pathologicalSuite('pathological: identical lines', [
  {
    family: 'identical',
    scale: 100,
    label: '100,000 identical lines',
    expect(format, done) {
      const [edit] = done.outcomes;
      if (format === 'whole') assert.equal(edit.kinds, 'applied exact: 1');
      else if (NUMBERED.includes(format)) assert.equal(edit.kinds, 'applied exact: 1');
      else assert.equal(edit.kinds, 'failed ambiguous: 1');
    },
  },
  {
    family: 'identical-block',
    scale: 100,
    label: '50,000 identical cited lines in a file of 100,000',
    expect(format, done) {
      const [o] = done.outcomes;
      if (format === 'whole' || NUMBERED.includes(format)) assert.equal(o.kinds, 'applied exact: 1');
      else assert.equal(o.kinds, 'failed ambiguous: 1');
    },
  },
]);
