// The MCP server's dry-run diff (src/cli/mcp/apply.ts): plain unified diff
// headers, and the take-away's time budget for the line diffs, so a file
// whose diff runs out of it comes back as one hunk that replaces it whole.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { unifiedDiff } from '../../src/cli/mcp/apply.ts';
import { DIFF_BUDGET_MS } from '../../src/patch/unified.ts';
import type { Change } from '../../src/cli/changes.ts';

const change = (file: string, before: string | null, text: string | null): Change =>
  ({ target: { file, abs: `/base/${file}`, real: `/base/${file}`, exists: before !== null }, action: before === null ? 'create' : text === null ? 'delete' : 'update', text, before }) as Change;

const BEFORE = Array.from({ length: 40 }, (_, i) => `line ${i + 1}`).join('\n') + '\n';
const AFTER = BEFORE.replace('line 20\n', 'line twenty\n');

test('a dry run diffs each file line by line, with plain headers', () => {
  const diff = unifiedDiff([change('src/a.txt', BEFORE, AFTER)]);
  assert.equal(
    diff,
    ['--- a/src/a.txt', '+++ b/src/a.txt', '@@ -17,7 +17,7 @@', ' line 17', ' line 18', ' line 19', '-line 20', '+line twenty', ' line 21', ' line 22', ' line 23', ''].join('\n'),
  );
});

test('the line diffs have a budget: out of it, a file is one hunk that replaces it whole', () => {
  assert.equal(DIFF_BUDGET_MS, 5000);
  const whole = unifiedDiff([change('src/a.txt', BEFORE, AFTER)], 0);
  const lines = whole.split('\n');
  assert.equal(lines[2], '@@ -1,40 +1,40 @@');
  assert.equal(lines.filter((l) => l.startsWith('-') && !l.startsWith('---')).length, 40);
  assert.equal(lines.filter((l) => l.startsWith('+') && !l.startsWith('+++')).length, 40);
  // created and deleted files keep /dev/null on their missing side
  assert.match(unifiedDiff([change('new.txt', null, 'x\n')], 0), /^--- \/dev\/null\n\+\+\+ b\/new\.txt\n@@ -0,0 \+1,1 @@\n\+x\n$/);
  assert.match(unifiedDiff([change('old.txt', 'x\n', null)], 0), /^--- a\/old\.txt\n\+\+\+ \/dev\/null\n@@ -1,1 \+0,0 @@\n-x\n$/);
});
