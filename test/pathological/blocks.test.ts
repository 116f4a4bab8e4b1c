// Thousands of blocks in one reply, for every format: all correct, all
// shifted by lines added at the top of the file, all with a typo in their
// cited lines, all citing lines the file does not have. Each run completes
// (in a worker, with a time limit) and its result is sound; see suite.ts.

import assert from 'node:assert/strict';
import { pathologicalSuite } from './suite.ts';

/** Formats whose failed edits name a closest place found by a bounded search. */
const BOUNDED_SEARCH = ['ln-diff', 'udiff', 'udiffx', 'search-replace', 'apply-patch', 'str-replace'];

pathologicalSuite('pathological: thousands of blocks', [
  { family: 'blocks', scale: 40, label: '2,000 correct blocks on a 20,000-line file' },
  { family: 'blocks-shifted', scale: 40, label: '2,000 blocks, the file 7 lines longer at the top' },
  { family: 'blocks-typo', scale: 40, label: '2,000 blocks with one character changed in every cited line' },
  {
    family: 'blocks-missing',
    scale: 40,
    label: '2,000 blocks citing lines the file does not have',
    expect(format, done) {
      const [o] = done.outcomes;
      if (format === 'whole' || format === 'between') {
        // Neither cites the lines it replaces: whole rewrites the file, between quotes the lines around.
        assert.equal(o.applied, o.edits);
        return;
      }
      assert.equal(o.edits, format === 'hashline' ? 2000 : 2000);
      assert.equal(o.applied, 0, o.kinds);
      // The search for closest places stops once the reply's failed edits have used it up, and says so.
      if (BOUNDED_SEARCH.includes(format)) assert.match(o.lastFailure ?? '', /no place was compared|the search for the closest place/, o.lastFailure ?? '');
    },
  },
]);
