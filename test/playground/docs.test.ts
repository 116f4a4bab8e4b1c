import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ChangeSet, Text } from '@codemirror/state';
import { applyChanges, Docs } from '../../src/worker/docs.ts';
import { prng } from '../prng.ts';

test('applyChanges gives what CodeMirror gives, for random composed change sets', () => {
  const rand = prng(12);
  const words = ['a', 'bc', '\n', 'x\ny', '', '\r\n', 'ü', '😀', '  '];
  for (let round = 0; round < 400; round++) {
    let doc = Text.of(Array.from({ length: 1 + Math.floor(rand() * 6) }, () => words[Math.floor(rand() * words.length)].replace(/\n/g, '')));
    const start = doc;
    let composed = ChangeSet.empty(doc.length);
    for (let step = 0; step < 1 + Math.floor(rand() * 5); step++) {
      const from = Math.floor(rand() * (doc.length + 1));
      const to = Math.min(doc.length, from + Math.floor(rand() * 4));
      const insert = words[Math.floor(rand() * words.length)];
      const change = ChangeSet.of({ from, to, insert }, doc.length, '\n');
      composed = composed.compose(change);
      doc = change.apply(doc);
    }
    const json = JSON.parse(JSON.stringify(composed.toJSON()));
    assert.equal(applyChanges(start.toString(), json), doc.toString());
  }
});

test('applyChanges refuses changes that do not fit the text', () => {
  assert.throws(() => applyChanges('abc', [5]), RangeError);
  assert.throws(() => applyChanges('abc', [2]), RangeError);
  assert.equal(applyChanges('abc', [1, [1, 'X', 'Y'], 1]), 'aX\nYc');
});

test('Docs asks for a whole text when a change arrives for a document it never saw', () => {
  const docs = new Docs();
  assert.equal(docs.sync({ 1: { changes: [3] } }), false);
  assert.equal(docs.sync({ 1: { set: 'abc' } }), true);
  assert.equal(docs.sync({ 1: { changes: [[3, 'z']] } }), true);
  assert.equal(docs.get(1), 'z');
  docs.retain([2]);
  assert.equal(docs.get(1), undefined);
});
