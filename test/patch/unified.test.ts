// Whole texts as one unified diff: the plain style is what jsdiff's
// createTwoFilesPatch writes (without its `===` rule), file after file.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createTwoFilesPatch } from 'diff';
import { unifiedDiff, type PatchFile } from '../../src/patch/unified.ts';

const twoFiles = (files: PatchFile[]) =>
  files
    .map((c) =>
      createTwoFilesPatch(c.before === null ? '/dev/null' : `a/${c.name}`, c.after === null ? '/dev/null' : `b/${c.name}`, c.before ?? '', c.after ?? '', undefined, undefined, { context: 3 }).replace(/^=+\n/, ''),
    )
    .join('');

test('the plain style: --- and +++ only, /dev/null, quoted names, no-newline markers, CRs kept', () => {
  const cases: PatchFile[][] = [
    [{ name: 'a.txt', before: 'one\ntwo\n', after: 'one\n2\n' }],
    [{ name: 'n.txt', before: null, after: 'new' }],
    [{ name: 'e.txt', before: null, after: '' }],
    [{ name: 'd.txt', before: 'old\r\n', after: null }],
    [
      { name: 'ü x.txt', before: 'x\n', after: 'y' },
      { name: 'b', before: 'a\nb\nc\nd\ne\nf\ng\nh\ni\n', after: 'a\nB\nc\nd\ne\nf\ng\nh\nI\n' },
    ],
  ];
  for (const files of cases) assert.equal(unifiedDiff(files, { style: 'plain' }), twoFiles(files), JSON.stringify(files));
  assert.equal(unifiedDiff([{ name: 'a.txt', before: 'x\n', after: 'y\n' }], { style: 'plain' }), '--- a/a.txt\n+++ b/a.txt\n@@ -1,1 +1,1 @@\n-x\n+y\n');
});

test('the git style adds the diff --git and mode lines; a file whose texts are equal is left out', () => {
  assert.equal(
    unifiedDiff([
      { name: 'same.txt', before: 'x\n', after: 'x\n' },
      { name: 'n.txt', before: null, after: 'y\n' },
    ]),
    'diff --git a/n.txt b/n.txt\nnew file mode 100644\n--- /dev/null\n+++ b/n.txt\n@@ -0,0 +1,1 @@\n+y\n',
  );
});

test('a budget of 0 writes each file as one hunk that replaces it whole', () => {
  const files = [{ name: 'a.txt', before: 'a\nb\nc\n', after: 'a\nB\nc' }];
  assert.equal(unifiedDiff(files, { style: 'plain', budgetMs: 0 }), '--- a/a.txt\n+++ b/a.txt\n@@ -1,3 +1,3 @@\n-a\n-b\n-c\n+a\n+B\n+c\n\\ No newline at end of file\n');
});
