// Very long lines, for every format: a 10 MB line edited exactly and cited
// with a typo; a 1 MB line inserted and next to a cited line; a line with
// a million blanks inside; runs of 200,000 marker, fence, quote and blank
// characters around and inside a reply. Each run completes (in a worker, with a time limit) and its
// result is sound; see suite.ts.

import { pathologicalSuite } from './suite.ts';

pathologicalSuite('pathological: long lines', [
  { family: 'long-line', scale: 100, only: [0, 1], label: 'a 10 MB line, edited exactly and cited with a typo' },
  { family: 'long-line', scale: 10, only: [2, 3], label: 'a 1 MB line inserted and next to a cited line' },
  { family: 'long-blanks', scale: 10, label: 'a million blanks inside a line' },
  { family: 'long-runs', scale: 20, label: 'runs of 200,000 characters in a reply' },
]);
