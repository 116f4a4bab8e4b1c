// A file given empty, and an edit that cites lines in it: the edit fails,
// and its message says how this format adds lines to an empty file. That
// advice must be a reply the same format accepts: each case writes the
// advised reply and applies it.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { applyRequest } from '../../src/formats/index.ts';

const FILES = { 'a.txt': '' };
const AFTER = 'one\ntwo\n';

/** Per format: a reply citing a line of the empty file, what its message must advise, and that advice written out. */
const CASES: { format: string; cites: string; advice: RegExp; advised: string[] }[] = [
  {
    format: 'ln-diff',
    cites: 'a.txt\n<editblock>\n<<<<<<< REMOVE\n1│x\n=======\n│one\n>>>>>>> INSERT\n</editblock>\n',
    advice: /leave the lines to remove empty/,
    advised: ['a.txt\n<editblock>\n<<<<<<< REMOVE\n=======\n│one\n│two\n>>>>>>> INSERT\n</editblock>\n'],
  },
  {
    format: 'search-replace',
    cites: 'a.txt\n```\n<<<<<<< SEARCH\nx\n=======\none\n>>>>>>> REPLACE\n```\n',
    advice: /leave the SEARCH section empty/,
    advised: ['a.txt\n```\n<<<<<<< SEARCH\n=======\none\ntwo\n>>>>>>> REPLACE\n```\n'],
  },
  {
    format: 'roo',
    cites: '<<<<<<< SEARCH\n:start_line:1\n-------\nx\n=======\none\n>>>>>>> REPLACE\n',
    advice: /leave the SEARCH section empty/,
    advised: ['<<<<<<< SEARCH\n=======\none\ntwo\n>>>>>>> REPLACE\n'],
  },
  {
    format: 'udiff',
    cites: '--- a/a.txt\n+++ b/a.txt\n@@\n x\n+one\n',
    advice: /a hunk of added lines only: @@ -0,0 \+1,N @@/,
    advised: ['--- a/a.txt\n+++ b/a.txt\n@@ -0,0 +1,2 @@\n+one\n+two\n'],
  },
  {
    format: 'udiff',
    cites: '--- a/a.txt\n+++ b/a.txt\n@@ -1,1 +1,2 @@\n-x\n+one\n+two\n',
    advice: /a hunk of added lines only: @@ -0,0 \+1,N @@/,
    advised: ['--- a/a.txt\n+++ b/a.txt\n@@ -0,0 +1,2 @@\n+one\n+two\n'],
  },
  {
    format: 'udiffx',
    cites: '<FILE_CHANGES>\n<FILE_PATCH path="a.txt">\n@@\n-x\n+one\n</FILE_PATCH>\n</FILE_CHANGES>\n',
    advice: /<FILE_NEW path="...">, or a FILE_PATCH hunk of added lines only: @@ -0,0 \+1,N @@/,
    advised: [
      '<FILE_CHANGES>\n<FILE_NEW path="a.txt">\none\ntwo\n</FILE_NEW>\n</FILE_CHANGES>\n',
      '<FILE_CHANGES>\n<FILE_PATCH path="a.txt">\n@@ -0,0 +1,2 @@\n+one\n+two\n</FILE_PATCH>\n</FILE_CHANGES>\n',
    ],
  },
];

describe('an edit citing lines of an empty file: the advice is a reply the format accepts', () => {
  for (const c of CASES) {
    it(`${c.format}: ${JSON.stringify(c.cites.slice(0, 40))}`, () => {
      const failed = applyRequest({ format: c.format, files: FILES, response: c.cites });
      assert.equal(failed.ok, false);
      assert.deepEqual(failed.files, FILES);
      assert.match(failed.edits[0].message, c.advice);
      for (const reply of c.advised) {
        const r = applyRequest({ format: c.format, files: FILES, response: reply });
        assert.equal(r.ok, true, `${reply}: ${JSON.stringify(r.edits.map((e) => e.message))}`);
        assert.equal(r.files['a.txt'], AFTER, reply);
      }
    });
  }
});

describe('a hunk of added lines with no numbers: an empty file has one place for them', () => {
  for (const [format, response] of [
    ['udiff', '--- a/a.txt\n+++ b/a.txt\n@@\n+one\n+two\n'],
    ['udiffx', '<FILE_CHANGES>\n<FILE_PATCH path="a.txt">\n@@\n+one\n+two\n</FILE_PATCH>\n</FILE_CHANGES>\n'],
  ]) {
    it(`${format}: applied to the empty file; malformed in a file with lines`, () => {
      const r = applyRequest({ format, files: FILES, response });
      assert.equal(r.ok, true, JSON.stringify(r.edits.map((e) => e.message)));
      assert.equal(r.files['a.txt'], AFTER);
      const full = applyRequest({ format, files: { 'a.txt': 'x\n' }, response });
      assert.deepEqual(full.edits.map((e) => e.code), ['malformed']);
      assert.match(full.edits[0].message, /no telling where they go/);
      assert.deepEqual(full.files, { 'a.txt': 'x\n' });
    });
  }
  it('udiffx: into an empty file written earlier in the reply, too', () => {
    const r = applyRequest({
      format: 'udiffx',
      files: {},
      response: '<FILE_CHANGES>\n<FILE_NEW path="n.txt"/>\n<FILE_PATCH path="n.txt">\n@@\n+one\n+two\n</FILE_PATCH>\n</FILE_CHANGES>\n',
    });
    assert.equal(r.files['n.txt'], AFTER, JSON.stringify(r.edits.map((e) => e.message)));
  });
});
