// The key under which the engine finds an edit that repeats another (run.ts).

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { changeKey } from '../../src/core/run.ts';

test('two changes share a key exactly when place, kind, move target and new lines are equal', () => {
  const changes: [number, number, string, string, string[]][] = [
    [0, 1, 'replace', '', ['a', 'b']],
    [0, 1, 'replace', '', ['ab']],
    [0, 1, 'replace', '', ['a,b']],
    [0, 1, 'replace', '', ['a', 'b', '']],
    [0, 1, 'replace', '', ['', 'a', 'b']],
    [0, 1, 'replace', '', ['a\nb']],
    [0, 1, 'replace', '', ['1|a', 'b']],
    [0, 1, 'replace', '', []],
    [0, 1, 'replace', '', ['']],
    [0, 1, 'replace', 'a', ['b']],
    [0, 1, 'replace', 'ab', []],
    [0, 1, 'rename', 'x', []],
    [0, 11, 'replace', '', ['a', 'b']],
    [10, 1, 'replace', '', ['a', 'b']],
    [1, 0, 'replace', '', ['a', 'b']],
    [0, 1, 'insert', '', ['a', 'b']],
  ];
  for (const a of changes)
    for (const b of changes) {
      const same = JSON.stringify(a) === JSON.stringify(b);
      assert.equal(changeKey(...a) === changeKey(...b), same, `${JSON.stringify(a)} ${JSON.stringify(b)}`);
    }
  assert.equal(changeKey(3, 4, 'replace', '', ['x', 'y']), changeKey(3, 4, 'replace', '', ['x', 'y'].slice()));
});
