// Replies made of nothing but marker lines, for every format: every marker
// of every format repeated 1,000 times, all of them cycled 1,000 times, and
// all of them nested (each repeated 1,000 times in turn). Each run completes
// (in a worker, with a time limit) and its result is sound; see suite.ts.

import { pathologicalSuite } from './suite.ts';

pathologicalSuite('pathological: only markers', [{ family: 'markers', scale: 10, label: 'replies of 1,000 to 70,000 marker lines' }]);
