// A message cut into its own words and the texts it quotes, for the page to
// draw the quoted texts with their whitespace visible.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { quote } from '../../src/core/diagnostics.ts';
import { messageParts } from '../../src/playground/present.ts';

test('the texts a message quotes come back as they were, its words as written', () => {
  const message = `closest is line 3, where line 3 is ${quote('    foo()')} but the SEARCH has ${quote('  foo()')}; copy the lines exactly`;
  assert.deepEqual(messageParts(message), [
    { kind: 'words', text: 'closest is line 3, where line 3 is ' },
    { kind: 'quoted', text: '    foo()' },
    { kind: 'words', text: ' but the SEARCH has ' },
    { kind: 'quoted', text: '  foo()' },
    { kind: 'words', text: '; copy the lines exactly' },
  ]);
  // tabs, carriage returns, quotes and backslashes read back; other escapes stay visible as written
  assert.deepEqual(messageParts(`is ${quote('\tx = "a\\b"\r')} and ${quote('a\nb\u0007')}`), [
    { kind: 'words', text: 'is ' },
    { kind: 'quoted', text: '\tx = "a\\b"\r' },
    { kind: 'words', text: ' and ' },
    { kind: 'quoted', text: 'a\\nb\\u0007' },
  ]);
  // a cut quote: the quoted part, then the words saying how long the line is
  const long = 'x '.repeat(150);
  assert.deepEqual(messageParts(`has ${quote(long)}.`).map((p) => p.kind), ['words', 'quoted', 'words']);
  assert.equal(messageParts(`has ${quote(long)}.`)[1].text, long.slice(0, 200));
  // no quote, an empty one, a stray quote mark
  assert.deepEqual(messageParts('no quotes here'), [{ kind: 'words', text: 'no quotes here' }]);
  assert.deepEqual(messageParts('an empty line "" here'), [
    { kind: 'words', text: 'an empty line ' },
    { kind: 'quoted', text: '' },
    { kind: 'words', text: ' here' },
  ]);
  assert.deepEqual(messageParts('a stray " mark'), [{ kind: 'words', text: 'a stray " mark' }]);
  assert.deepEqual(messageParts(''), []);
});
