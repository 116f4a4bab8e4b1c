// The dry-run diff of the MCP server and of `apply --dry-run` (src/cli/diff.ts): plain unified diff
// headers, and the take-away's time budget for the line diffs, so a file
// whose diff runs out of it comes back as one hunk that replaces it whole.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { unifiedDiff } from '../../src/cli/diff.ts';
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

test("a failed edit's retry message cites its lines as the engine read them, also in a reply of two formats", async () => {
  const { mkdtempSync, writeFileSync, realpathSync, rmSync } = await import('node:fs');
  const { tmpdir } = await import('node:os');
  const { join } = await import('node:path');
  const { plan, report } = await import('../../src/cli/mcp/apply.ts');
  const base = realpathSync(mkdtempSync(join(tmpdir(), 'ln-diff-mcp-retry-')));
  try {
    writeFileSync(join(base, 'a.py'), 'def f():\n    return 1\n');
    writeFileSync(join(base, 'b.py'), 'def g():\n    return 2\n');
    // an ln-diff editblock that applies, then a SEARCH/REPLACE block whose SEARCH is nowhere in b.py
    const reply =
      'a.py\n<editblock>\n<<<<<<< REMOVE\n2│    return 1\n=======\n │    return 10\n>>>>>>> INSERT\n</editblock>\n\n' +
      'b.py\n```python\n<<<<<<< SEARCH\n    return 7\n=======\n    return 70\n>>>>>>> REPLACE\n```\n';
    const p = plan({ base, dirs: [base], clientRoots: null }, reply, 'auto');
    const out = report(p, true);
    const failed = out.edits.find((e) => e.status === 'failed');
    assert.ok(failed, JSON.stringify(out.edits));
    assert.match(failed.retry ?? '', /return 7/);
  } finally {
    rmSync(base, { recursive: true, force: true });
  }
});
