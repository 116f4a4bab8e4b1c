// udiff: `--- `/`+++ ` pairs inside hunks (counts decide while a hunk is
// open), deletions that quote the file, paths up to `./`, `\` and case, and
// no fallback file in a detected reply.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Edit } from '../../../src/core/types.ts';
import { rowsOf, scanDiff } from '../../../src/formats/udiff/hunks.ts';
import { parseUdiff } from '../../../src/formats/udiff/parse.ts';
import { replyLines } from '../../../src/core/reply.ts';

const parse = (lines: string[], files: string[] = ['a.md'], detected = false) =>
  parseUdiff(lines.join('\n') + '\n', { files, ...(detected ? { detected } : {}) });
const codes = (edits: Edit[]) => edits.map((e) => e.error?.code ?? null);
const kinds = (lines: string[]) => scanDiff(rowsOf(replyLines(lines.join('\n') + '\n')), 'reply').map((i) => i.type);

describe('udiff: a --- / +++ pair inside a numbered hunk', () => {
  it('is two hunk lines while the counts still need an old and a new line', () => {
    const { edits } = parse(['--- a/a.md', '+++ b/a.md', '@@ -1,3 +1,3 @@', ' x', '--- old', '+++ new', ' y']);
    assert.equal(edits.length, 1);
    assert.deepEqual(edits[0].old, ['x', '-- old', 'y']);
    assert.deepEqual(edits[0].new, ['x', '++ new', 'y']);
    assert.equal(edits[0].error, undefined);
  });

  it('counts blank lines before it as empty context lines', () => {
    const { edits } = parse(['--- a/a.md', '+++ b/a.md', '@@ -1,3 +1,3 @@', '', '--- old', '+++ new', ' y']);
    assert.deepEqual(edits[0].old, ['', '-- old', 'y']);
    assert.equal(edits[0].error, undefined);
  });

  it('is a file header once the counts are used up', () => {
    assert.deepEqual(kinds(['--- a/a.md', '+++ b/a.md', '@@ -1,2 +1,2 @@', ' x', '-y', '+z', '--- a/b.md', '+++ b/b.md', '@@ -1 +1 @@', '-p', '+q']), [
      'header',
      'hunk',
      'header',
      'hunk',
    ]);
  });

  it('is a file header when the counts need only one side', () => {
    // -1,2 +1,1: after " x" the new side is full; the pair cannot be an old and a new line.
    assert.deepEqual(kinds(['@@ -1,2 +1,1 @@', ' x', '--- a/b.md', '+++ b/b.md', '@@ -1 +1 @@', '-p', '+q']), ['hunk', 'header', 'hunk']);
  });

  it('is a file header after prose, whatever the counts', () => {
    assert.deepEqual(kinds(['@@ -1,5 +1,5 @@', ' x', 'Next file:', '--- a/b.md', '+++ b/b.md', '@@ -1 +1 @@', '-p', '+q']), ['hunk', 'header', 'hunk']);
  });

  it('fails the hunk (ambiguous-end) when the counts do not bear it out, and the hunks after it up to the next header', () => {
    const { edits } = parse(
      ['--- a/a.md', '+++ b/a.md', '@@ -1,4 +1,4 @@', ' x', '--- old', '+++ new', '@@ -9 +9 @@', '-p', '+q', '--- a/b.md', '+++ b/b.md', '@@ -1 +1 @@', '-r', '+s'],
      ['a.md', 'b.md'],
    );
    assert.deepEqual(codes(edits), ['ambiguous-end', 'ambiguous-end', null]);
    assert.match(edits[0].error!.message, /^lines 5-6 \("--- old", "\+\+\+ new"\) may be a file header or two lines of this hunk: .* the hunk has 2 old and 2 new lines, not 4 and 4; not applied/);
    assert.match(edits[1].error!.message, /^this hunk comes after lines 5-6 .* of the hunk at line 3: which file it changes is unclear/);
    assert.equal(edits[2].file, 'b.md');
  });

  it('fails when the pair ends the counts and a hunk follows (the counts may be one too high)', () => {
    const { edits } = parse(['--- a/a.md', '+++ b/a.md', '@@ -1,3 +1,3 @@', ' x', '-y', '+z', '--- a/b.md', '+++ b/b.md', '@@ -1 +1 @@', '-p', '+q'], ['a.md', 'b.md']);
    assert.deepEqual(codes(edits), ['ambiguous-end', 'ambiguous-end']);
    assert.match(edits[0].error!.message, /this hunk's last lines by its header's counts \(-1,3 \+1,3\), and a hunk follows/);
    assert.deepEqual(edits[0].error!.reply && [edits[0].error!.reply.start.line, edits[0].error!.reply.end.line], [7, 8]);
  });

  it('stands when the pair ends the counts and no hunk follows (a fence, prose or the end)', () => {
    const hunk = ['--- a/a.md', '+++ b/a.md', '@@ -1,3 +1,2 @@', ' x', '-y', '--- old', '+++ new'];
    for (const lines of [['```diff', ...hunk, '```'], [...hunk, '', 'Done.'], hunk]) {
      const { edits } = parse(lines);
      assert.deepEqual(codes(edits), [null], lines.join('|'));
      assert.deepEqual(edits[0].old, ['x', 'y', '-- old']);
      assert.deepEqual(edits[0].new, ['x', '++ new']);
    }
  });

  it('takes several pairs while the counts need them', () => {
    const { edits } = parse(['@@ -1,4 +1,4 @@', '--- a', '+++ b', '--- c', '+++ d', ' e', ' f']);
    assert.deepEqual(edits[0].old, ['-- a', '-- c', 'e', 'f']);
    assert.deepEqual(edits[0].new, ['++ b', '++ d', 'e', 'f']);
    assert.equal(edits[0].error, undefined);
  });

  it('a hunk cut off at the end of the reply is truncated, pair or not', () => {
    const { edits } = parse(['--- a/a.md', '+++ b/a.md', '@@ -1,5 +1,5 @@', ' x', '--- old', '+++ new']);
    assert.deepEqual(codes(edits), ['truncated']);
  });
});

describe('udiff: a --- / +++ pair after a number-less hunk line', () => {
  it('is a file header when both lines name one file', () => {
    for (const [minus, plus] of [
      ['--- b.md', '+++ b.md'],
      ['--- a/b.md', '+++ b/b.md'],
      ['--- ./b.md', '+++ b.md'],
      ['--- /dev/null', '+++ b/c.md'],
      ['--- a/b.md', '+++ /dev/null'],
    ]) {
      assert.deepEqual(kinds(['@@ ... @@', '-x', '+y', minus, plus, '@@ ... @@', '-p', '+q']), ['hunk', 'header', 'hunk'], minus);
    }
  });

  it('fails as ambiguous-end when the lines name two files, with the hunks after it', () => {
    const { edits } = parse(['--- a.md', '+++ a.md', '@@ ... @@', ' x', '-y', '--- old', '+++ new', ' z', '@@ ... @@', '-p', '+q', '--- b.md', '+++ b.md', '@@ ... @@', '-r', '+s'], [
      'a.md',
      'b.md',
    ]);
    assert.deepEqual(codes(edits), ['ambiguous-end', 'ambiguous-end', null]);
    assert.match(edits[0].error!.message, /right after a line of this hunk, which has no counts to tell, and name two different files; not applied\. To start another file, name the same file on both lines/);
  });

  it('is a file header after a blank line', () => {
    assert.deepEqual(kinds(['@@ ... @@', '-x', '+y', '', '--- old', '+++ new', '@@ ... @@', '-p', '+q']), ['hunk', 'header', 'hunk']);
  });

  it('right after the @@ line is a file header (the hunk has no line yet)', () => {
    assert.deepEqual(kinds(['@@ ... @@', '--- old', '+++ new', ' x']), ['hunk', 'header', 'hunk']);
  });
});

describe('udiff: deletions', () => {
  it('quote the file: the removed lines of every hunk, in order, are the edit\'s old lines', () => {
    const { edits } = parse(['--- a/a.md', '+++ /dev/null', '@@ -1,2 +0,0 @@', '-one', '-two', '@@ -3 +0,0 @@', '-three']);
    assert.equal(edits.length, 1);
    assert.equal(edits[0].kind, 'delete');
    assert.deepEqual(edits[0].old, ['one', 'two', 'three']);
    assert.equal(edits[0].error, undefined);
  });

  it('with no hunk, or no removed line, are malformed', () => {
    for (const body of [[], ['@@ -0,0 +0,0 @@']]) {
      const { edits } = parse(['--- a/a.md', '+++ /dev/null', ...body]);
      assert.deepEqual(codes(edits), ['malformed'], JSON.stringify(body));
      assert.match(edits[0].error!.message, /removes none of its lines: a deletion is checked against the file/);
    }
  });

  it('with a context or added line are malformed', () => {
    const { edits } = parse(['--- a/a.md', '+++ /dev/null', '@@ -1,2 +0,0 @@', ' one', '-two']);
    assert.deepEqual(codes(edits), ['malformed']);
  });
});

describe('udiff: paths', () => {
  const file = (minus: string, plus: string, files: string[]) => parse([minus, plus, '@@ -1 +1 @@', '-x', '+y'], files).edits[0].file;
  it('name a given file up to ./, \\ and letter case', () => {
    assert.equal(file('--- ./src\\App.js', '+++ ./src\\App.js', ['src/App.js']), 'src/App.js');
    assert.equal(file('--- a/SRC/app.js', '+++ b/SRC/app.js', ['src/App.js']), 'src/App.js');
    assert.equal(file('--- a/./src/App.js', '+++ b/./src/App.js', ['src/App.js']), 'src/App.js');
  });
  it('are normalised when they name no given file', () => {
    assert.equal(file('--- a/src\\new.js', '+++ b/src\\new.js', ['src/App.js']), 'src/new.js');
    assert.equal(file('--- ./x.js', '+++ ./x.js', []), 'x.js');
  });
  it('never pick between two files that differ only by case', () => {
    assert.equal(file('--- a/readme.md', '+++ b/readme.md', ['README.md', 'Readme.md']), 'readme.md');
  });
});

describe('udiff: hunks without a header', () => {
  it('change the only file given', () => {
    assert.equal(parse(['@@ -1 +1 @@', '-x', '+y']).edits[0].file, 'a.md');
  });
  it('change no file in a detected reply (missing-path)', () => {
    const { edits } = parse(['@@ -1 +1 @@', '-x', '+y'], ['a.md'], true);
    assert.deepEqual(codes(edits), ['missing-path']);
    assert.match(edits[0].error!.message, /the format of the reply was detected, not asked for/);
  });
});

describe('udiff: a fence line inside a numbered hunk', () => {
  const hunk = (header: string, after: string[]) => ['```diff', '--- a/a.md', '+++ b/a.md', header, ' # Tool', '+Build it with:', '```', ...after];
  it('fails the hunk (ambiguous-end) when the counts take it and the hunk lines after it exactly', () => {
    for (const [header, after] of [
      ['@@ -1,2 +1,6 @@', ['+make', '+```', ' Done.', '```']], // the fence line as an added line
      ['@@ -1,3 +1,6 @@', ['+make', '+```', ' Done.', '```']], // or as a context line
    ] as const) {
      const { edits } = parse(hunk(header, [...after]));
      assert.deepEqual(codes(edits), ['ambiguous-end'], header);
      assert.match(edits[0].error!.message, /^line 7 \("```"\) closes the code fence around this hunk, but the hunk's header/);
    }
  });
  it('leaves the fence a fence when the counts do not come out exactly', () => {
    for (const [header, after] of [
      ['@@ -1,2 +1,4 @@', ['- a list item after the diff']],
      ['@@ -1,1 +1,2 @@', ['+more']],
      ['@@ -1,1 +1,9 @@', ['+make']],
      ['@@ -1,1 +1,3 @@', []], // short by one line, but no hunk line after the fence to show it
    ] as const) {
      assert.deepEqual(codes(parse(hunk(header, [...after])).edits), [null], header);
    }
  });
  it('leaves a fence after a blank line or prose a fence', () => {
    const { edits } = parse(['```diff', '--- a/a.md', '+++ b/a.md', '@@ -1,1 +1,3 @@', ' # Tool', '+Build it with:', '', '```', '+make']);
    assert.deepEqual(codes(edits), [null]);
  });
});
