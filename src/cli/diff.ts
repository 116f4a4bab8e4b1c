// The changes of one run as a unified diff: what `ln-diff apply --dry-run`
// prints after its summary and what the MCP server's dry run returns (one
// function, so both show the same text).

import * as path from 'node:path';
import { DIFF_BUDGET_MS, unifiedDiff as diffTexts } from '../patch/unified.ts';
import type { Change } from './changes.ts';

/**
 * The changes as one unified diff, paths as `a/…` and `b/…` (`/dev/null` for
 * a file created or deleted), without git's headers. The line diffs share
 * `budgetMs`, as the playground's take-away does: a file whose diff runs out
 * of it is one hunk that replaces it whole (0: every file so). No change:
 * the empty string.
 */
export function unifiedDiff(changes: readonly Change[], budgetMs = DIFF_BUDGET_MS): string {
  const files = changes.map((c) => ({ name: c.target.file.split(path.sep).join('/'), before: c.before, after: c.text }));
  return diffTexts(files, { style: 'plain', budgetMs });
}
