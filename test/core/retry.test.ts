// One retryMessages for the playground, the bench and the CLI: a message for
// each failed edit (by its index), none for an applied one, the cited lines
// read from the reply only when something failed.

import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { applyRequest, getFormat } from '../../src/index.ts';
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
    const messages = retryMessages(result, { format, response: reply, files: Object.keys(files) });
    assert.deepEqual([...messages.keys()], [1]);
    const failed = result.edits[1];
    assert.equal(messages.get(1), retryMessage(failed, ['four']));
    assert.match(messages.get(1)!, /^Your edit #2 to a\.txt was not applied \(no-match\)/);
    assert.match(messages.get(1)!, /The edit cites:\nfour/);
  });

  it('takes the edits already read, or reads them only when an edit failed', () => {
    let parsed = 0;
    const counting: Format = { ...format, parse: (text, context) => (parsed++, format.parse(text, context)) };
    const cited = citedEdits({ format: counting, response: reply, files: Object.keys(files) });
    assert.equal(parsed, 1);
    assert.deepEqual(retryMessages(result, cited), retryMessages(result, { format, response: reply, files: Object.keys(files) }));
    const ok = applyRequest({ format: 'search-replace', files, response: reply.split('a.txt\n```\n<<<<<<< SEARCH\nfour')[0] });
    assert.equal(ok.ok, true);
    assert.equal(retryMessages(ok, { format: counting, response: reply, files: [] }).size, 0);
    assert.equal(parsed, 1, 'nothing failed: the reply is not read again');
  });

  it('without the format the messages lack only the cited lines', () => {
    const messages = retryMessages(result, { format: null, response: reply, files: [] });
    assert.match(messages.get(1)!, /^Your edit #2 to a\.txt was not applied/);
    assert.doesNotMatch(messages.get(1)!, /The edit cites/);
  });
});
