// A reply cut off inside an edit (spec/errors.md, `truncated`): every format's
// complete reply cut at every character, read with the format named and with
// `auto`. From the cut where the format's structure shows (before it, the
// reply cannot be told from prose: `{"tool": "edi` names no tool yet), both
// readings agree on `truncated` at every cut, and up to the cut before the
// edit is complete both say `truncated` (never `malformed`, never a reply
// with no edits). The same for a cut in a second edit after a complete one.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ApplyResult } from '../../src/core/types.ts';
import { applyRequest } from '../../src/formats/index.ts';

const files = { 'a.txt': 'x = 1\ny = 2\n', 'b.txt': 'x = 1\ny = 2\n' };

/** A complete one-edit reply per format, the text once which its structure shows, and the text that completes the edit. */
const REPLIES: { format: string; reply: string; shows: string; ends: string }[] = [
  { format: 'ln-diff', reply: 'a.txt\n<editblock>\n<<<<<<< REMOVE\n1│x = 1\n=======\n │x = 10\n>>>>>>> INSERT\n</editblock>\n', shows: '<editblock>', ends: '>>>>>>> INSERT' },
  { format: 'search-replace', reply: 'a.txt\n```\n<<<<<<< SEARCH\nx = 1\n=======\nx = 10\n>>>>>>> REPLACE\n```\n', shows: 'a.txt\n```', ends: '>>>>>>> REPLACE' },
  { format: 'whole', reply: 'a.txt\n```\nx = 10\ny = 2\n```\n', shows: 'a.txt\n```', ends: 'y = 2\n```' },
  { format: 'udiff', reply: '```diff\n--- a/a.txt\n+++ b/a.txt\n@@ -1,2 +1,2 @@\n-x = 1\n+x = 10\n y = 2\n```\n', shows: '+++ b', ends: 'y = 2\n```' },
  {
    format: 'roo',
    reply: '<apply_diff>\n<path>a.txt</path>\n<diff>\n<<<<<<< SEARCH\n:start_line:1\n-------\nx = 1\n=======\nx = 10\n>>>>>>> REPLACE\n</diff>\n</apply_diff>\n',
    shows: '<apply_diff>',
    ends: '>>>>>>> REPLACE',
  },
  {
    format: 'udiffx',
    reply: '<FILE_CHANGES>\n<FILE_PATCH path="a.txt">\n@@ -1,2 +1,2 @@\n-x = 1\n+x = 10\n y = 2\n</FILE_PATCH>\n</FILE_CHANGES>\n',
    shows: '<FILE_CHANGES',
    ends: '</FILE_',
  },
  { format: 'hashline', reply: '{"tool": "edit", "path": "a.txt", "line": 1, "tag": "abcd", "new": "x = 10"}\n', shows: '"tool": "edit"', ends: '}' },
  { format: 'between', reply: 'a.txt\n```\n@BETWEEN@ "x = 1" AND "y = 2"\nz = 3\n```\n', shows: 'a.txt\n```', ends: 'z = 3\n```' },
  { format: 'apply-patch', reply: '*** Begin Patch\n*** Update File: a.txt\n@@\n-x = 1\n+x = 10\n y = 2\n*** End Patch\n', shows: '*** Begin Patch', ends: '*** End Patch' },
  { format: 'str-replace', reply: '{"command": "str_replace", "path": "a.txt", "old_str": "x = 1", "new_str": "x = 10"}\n', shows: '"command": "str_replace"', ends: '}' },
];

const truncated = (r: ApplyResult) => r.edits.some((e) => e.code === 'truncated') || r.diagnostics.some((d) => d.code === 'truncated');
const codes = (r: ApplyResult) => JSON.stringify([r.edits.map((e) => e.code), r.diagnostics.map((d) => d.code)]);

describe('a cut-off reply is truncated with the format named and with auto', () => {
  for (const { format, reply, shows, ends } of REPLIES) {
    it(format, () => {
      const from = reply.indexOf(shows) + shows.length;
      const to = reply.indexOf(ends) + ends.length - 1;
      assert.ok(from > shows.length - 1 && to >= from, 'the markers are in the reply');
      // The reply once, then cut in the same edit for a second file after a complete first one.
      const second = `${reply}\nAnd the other file:\n\n${reply.replaceAll('a.txt', 'b.txt')}`;
      for (const [text, start] of [[reply, from], [second, reply.length]] as const) {
        for (let cut = start; cut < text.length; cut++) {
          const response = text.slice(0, cut);
          const named = applyRequest({ format, files, response });
          const auto = applyRequest({ format: 'auto', files, response });
          const where = `cut at ${cut}: ${JSON.stringify(response.slice(-30))}: ${format} ${codes(named)}, auto ${codes(auto)}`;
          assert.equal(truncated(named), truncated(auto), where);
          if (text === reply && cut >= from && cut <= to) {
            assert.ok(truncated(named), where);
            assert.equal(named.ok, false, where);
          }
        }
      }
    });
  }
});

describe('the messages of a reply cut off before an edit could be read', () => {
  it('search-replace: under auto the cut block is read as search-replace, as with the format named', () => {
    const response = 'a.txt\n```\n<<<<<<< SEARCH\nx = 1\n=======\nx = 10\n';
    const auto = applyRequest({ format: 'auto', files, response });
    assert.equal(auto.detection?.format, 'search-replace');
    assert.deepEqual([auto.edits.map((e) => e.code), auto.diagnostics], [['truncated'], []]);
    assert.match(auto.edits[0].message, /^the reply ends inside the SEARCH\/REPLACE block that starts at line 3 \(expected `>>>>>>> REPLACE`\)/);
  });

  it('search-replace: a reply that ends inside the fence after a path line, before the head is complete', () => {
    const r = applyRequest({ format: 'search-replace', files, response: 'a.txt\n```\n<<<<<<< SEA' });
    assert.deepEqual([r.ok, r.edits.map((e) => [e.file, e.code])], [false, [['a.txt', 'truncated']]]);
    assert.match(r.edits[0].message, /^the reply ends inside the fenced block that begins at line 2 .*no SEARCH\/REPLACE block of a\.txt was read/);
    // A fence closed, or no path line above it, is no such cut.
    assert.deepEqual(applyRequest({ format: 'search-replace', files, response: 'a.txt\n```\nx\n```\n' }).diagnostics.map((d) => d.code), ['no-edits']);
    assert.deepEqual(applyRequest({ format: 'search-replace', files, response: 'Here:\n\n```\nx = 1\n' }).diagnostics.map((d) => d.code), ['no-edits']);
  });

  it('roo: an apply_diff call never closed, with no block', () => {
    const r = applyRequest({ format: 'roo', files, response: '<apply_diff>\n<path>a.txt</path>\n<diff>\n' });
    assert.deepEqual([r.edits, r.diagnostics.map((d) => d.code)], [[], ['truncated']]);
    assert.match(r.diagnostics[0].message, /^the reply ends inside the apply_diff call opened at line 1 for a\.txt, before `<\/apply_diff>`/);
    assert.deepEqual(r.diagnostics[0].reply?.start, { line: 4, column: 1 });
    // Closed, it is a call with no block: malformed.
    assert.deepEqual(applyRequest({ format: 'roo', files, response: '<apply_diff>\n<path>a.txt</path>\n</apply_diff>\n' }).diagnostics.map((d) => d.code), ['malformed']);
  });

  it('udiffx: an envelope never closed, with no directive, or its opening tag cut', () => {
    for (const response of ['<FILE_CHANGES>\n', '<FILE_CHANGES>\n<FILE_PATCH path="a.txt"', '<FILE_CHANGES', '<FILE_CHANGES version="1']) {
      const r = applyRequest({ format: 'udiffx', files, response });
      assert.deepEqual([r.edits, r.diagnostics.map((d) => d.code)], [[], ['truncated']], JSON.stringify(response));
      assert.match(r.diagnostics[0].message, /^the reply ends inside the (<FILE_CHANGES> envelope opened at line 1|`<FILE_CHANGES>` tag at line 1)/);
    }
    assert.deepEqual(applyRequest({ format: 'udiffx', files, response: '<FILE_CHANGES>\n</FILE_CHANGES>\n' }).diagnostics.map((d) => d.code), ['malformed']);
  });
});
