// One retryMessages for the playground, the bench and the CLI: a message for
// each failed edit (by its index), none for an applied one, the cited lines
// read from the reply only when something failed.

import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { applyRequest, getFormat } from '../../src/index.ts';
import { numberedLines } from '../../src/formats/index.ts';
import { citedEdits, retryMessage, retryMessages } from '../../src/core/retry.ts';
import type { Format } from '../../src/core/types.ts';

const files = { 'a.txt': 'one\ntwo\nthree\n' };
const reply = [
  'a.txt',
  '```',
  '<<<<<<< SEARCH',
  'two',
  '=======',
  'TWO',
  '>>>>>>> REPLACE',
  '```',
  'a.txt',
  '```',
  '<<<<<<< SEARCH',
  'four',
  '=======',
  'FOUR',
  '>>>>>>> REPLACE',
  '```',
  '',
].join('\n');

describe('retryMessages', () => {
  const result = applyRequest({ format: 'search-replace', files, response: reply });
  const format = getFormat('search-replace')!;

  it('gives each failed edit its message, with the lines it cited, and an applied one none', () => {
    assert.deepEqual(result.edits.map((e) => e.status), ['applied', 'failed']);
    const messages = retryMessages(result, { format, response: reply, files: Object.keys(files) }, numberedLines);
    assert.deepEqual([...messages.keys()], [1]);
    const failed = result.edits[1];
    assert.equal(messages.get(1), retryMessage(failed, ['four'], false));
    assert.match(messages.get(1)!, /^Your edit #2 to a\.txt was not applied \(no-match\)/);
    assert.match(messages.get(1)!, /The edit cites:\nfour/);
  });

  it('takes the edits already read, or reads them only when an edit failed', () => {
    let parsed = 0;
    const counting: Format = { ...format, parse: (text, context) => (parsed++, format.parse(text, context)) };
    const cited = citedEdits({ format: counting, response: reply, files: Object.keys(files) });
    assert.equal(parsed, 1);
    assert.deepEqual(retryMessages(result, cited, numberedLines), retryMessages(result, { format, response: reply, files: Object.keys(files) }, numberedLines));
    const ok = applyRequest({ format: 'search-replace', files, response: reply.split('a.txt\n```\n<<<<<<< SEARCH\nfour')[0] });
    assert.equal(ok.ok, true);
    assert.equal(retryMessages(ok, { format: counting, response: reply, files: [] }, numberedLines).size, 0);
    assert.equal(parsed, 1, 'nothing failed: the reply is not read again');
  });

  it('without the format the messages lack only the cited lines', () => {
    const messages = retryMessages(result, { format: null, response: reply, files: [] }, numberedLines);
    assert.match(messages.get(1)!, /^Your edit #2 to a\.txt was not applied/);
    assert.doesNotMatch(messages.get(1)!, /The edit cites/);
  });
});

describe('a block whose lines occur only outside the window', () => {
  // Lines that look alike near the cited place, the block itself 121 lines below it.
  const lines: string[] = [];
  for (let i = 1; i <= 40; i++) lines.push(`def fn_${i}(x):`, `    y = x + ${i}`, '    return y', '');
  lines.splice(140, 0, 'def special(value):', '    total = value * 2', '    return total', '');
  const files = { 'a.py': lines.join('\n') + '\n' };
  const hunk = '--- a/a.py\n+++ b/a.py\n@@ -20,3 +20,3 @@\n def special(value):\n-    total = value * 2\n+    total = value * 3\n     return total\n';

  it('udiff: the candidate and the retry message are the copy at lines 141-143, and the message gives the header that places it', () => {
    const result = applyRequest({ format: 'udiff', files, response: hunk });
    const [e] = result.edits;
    assert.deepEqual([e.code, e.candidates.map((c) => [c.start, c.end, c.offset, c.similarity])], ['no-match', [[141, 143, 121, 1]]]);
    assert.equal(
      e.message,
      "the hunk's context and removed lines do not match a.py within 50 lines of line 20, where its header's old start puts them; they occur unchanged at lines 141-143, 121 lines below, too far from the header's number to be trusted: if that is the place meant, write the header as `@@ -141,3 +141,3 @@`",
    );
    const message = retryMessages(result, { format: getFormat('udiff'), response: hunk, files: ['a.py'] }, numberedLines).get(0)!;
    assert.match(message, /a\.py has at lines 141-143:\ndef special\(value\):\n    total = value \* 2\n    return total\n/);
    assert.doesNotMatch(message, /fn_/);
    // Without numbers the hunk cites no place, and applies where its lines occur once.
    const bare = applyRequest({ format: 'udiff', files, response: hunk.replace('@@ -20,3 +20,3 @@', '@@ @@') });
    assert.deepEqual([bare.ok, bare.edits[0].range, bare.edits[0].offset], [true, { start: 141, end: 143 }, null]);
  });

  it('udiffx and ln-diff: the same candidate', () => {
    const x = applyRequest({ format: 'udiffx', files, response: `<FILE_CHANGES>\n<FILE_PATCH path="a.py">\n${hunk.split('\n').slice(2).join('\n')}</FILE_PATCH>\n</FILE_CHANGES>\n` });
    assert.deepEqual(x.edits[0].candidates.map((c) => [c.start, c.offset]), [[141, 121]]);
    assert.match(x.edits[0].message, /write the header as `@@ -141,3 \+141,3 @@`$/);
    const lnReply = 'a.py\n<editblock>\n<<<<<<< REMOVE\n20│def special(value):\n21│    total = value * 2\n=======\n  │def special(value):\n  │    total = value * 3\n>>>>>>> INSERT\n</editblock>\n';
    const ln = applyRequest({ format: 'ln-diff', files, response: lnReply });
    assert.deepEqual([ln.edits[0].code, ln.edits[0].candidates.map((c) => [c.start, c.offset])], ['no-match', [[141, 121]]]);
    // ln-diff cites its lines with the numbered view's prefixes: its retry message shows them so.
    const lnRetry = retryMessages(ln, { format: getFormat('ln-diff'), response: lnReply, files: ['a.py'] }, numberedLines).get(0)!;
    assert.match(lnRetry, /The edit cites \(lines 20-21\):\n20│def special\(value\):\n21│    total = value \* 2\n/);
    assert.match(lnRetry, /a\.py has at lines 141-142:\n141│def special\(value\):\n142│    total = value \* 2\n/);
  });
});
