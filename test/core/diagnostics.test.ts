import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { it } from 'node:test';
import { CODES, isCode } from '../../src/core/diagnostics.ts';

const errorsPage = readFileSync(new URL('../../spec/errors.md', import.meta.url), 'utf8');

it('documents every code in spec/errors.md, and only those', () => {
  const documented = [...errorsPage.matchAll(/^\| `([a-z-]+)` \|/gm)].map((m) => m[1]);
  assert.deepEqual([...documented].sort(), [...CODES].sort());
});

it('recognises codes', () => {
  assert.equal(isCode('no-match'), true);
  assert.equal(isCode('nope'), false);
  assert.equal(isCode(3), false);
});
