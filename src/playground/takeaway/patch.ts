// The result as one git-style unified diff (src/patch/unified.ts), of the
// files the result changes, with a time budget for the line diffs.

import { DIFF_BUDGET_MS, unifiedDiff as diffTexts } from '../../patch/unified.ts';
import { changedFiles, type FileText } from './plan.ts';

/** Every changed file's diff, in the order given ('' when nothing changed); the line diffs share `budgetMs` (0: every file in one hunk). */
export function unifiedDiff(files: readonly FileText[], budgetMs = DIFF_BUDGET_MS): string {
  return diffTexts(changedFiles(files), { style: 'git', budgetMs });
}
