// A request that is not a request: `applyRequest` and `validateRequest` refuse
// it alike, with a RequestError naming the field, as the request schema says.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { readFileSync } from 'node:fs';
import { applyRequest } from '../../src/formats/index.ts';
import { RequestError, validateRequest } from '../../src/formats/validate.ts';
import { OPTION_FIELDS, REQUEST_FIELDS } from '../../src/core/request.ts';
import type { ApplyRequest } from '../../src/core/types.ts';

const schema = JSON.parse(readFileSync(new URL('../../spec/schema/request.schema.json', import.meta.url), 'utf8'));

const bad: [string, unknown, RegExp][] = [
  ['files null', { format: 'udiff', files: null, response: 'x' }, /"files" must be an object/],
  ['files an array', { format: 'udiff', files: ['a.txt'], response: 'x' }, /"files" must be an object/],
  ['a file text a number', { format: 'udiff', files: { 'a.txt': 5 }, response: 'x' }, /"files"\["a\.txt"\] must be a string/],
  ['an extra field', { format: 'udiff', files: {}, response: 'x', extra: 1 }, /unknown field "extra"/],
  ['an unknown option', { format: 'udiff', files: {}, response: 'x', options: { window: 3, fuzzyTreshold: 0.5 } }, /unknown option "fuzzyTreshold"/],
  ['response missing', { format: 'udiff', files: {} }, /"response" must be a string/],
  ['response null', { format: 'udiff', files: {}, response: null }, /"response" must be a string/],
  ['not an object', null, /must be a JSON object/],
  ['an unknown format', { format: 'diff', files: {}, response: 'x' }, /unknown format "diff"/],
  ['options null', { format: 'udiff', files: {}, response: 'x', options: null }, /"options" must be an object/],
  ['a window not an integer', { files: {}, response: 'x', options: { window: 1.5 } }, /"options.window"/],
];

describe('a malformed request', () => {
  for (const [name, value, message] of bad) {
    it(`${name}: applyRequest throws RequestError, as validateRequest does`, () => {
      assert.throws(() => applyRequest(value as ApplyRequest), (e: unknown) => e instanceof RequestError && message.test(e.message));
      assert.throws(() => validateRequest(value), (e: unknown) => e instanceof RequestError && message.test(e.message));
    });
  }

  it('the fields allowed are the schema\'s, for the request and for its options', () => {
    assert.deepEqual([...REQUEST_FIELDS].sort(), Object.keys(schema.properties).sort());
    assert.equal(schema.additionalProperties, false);
    assert.deepEqual([...OPTION_FIELDS].sort(), Object.keys(schema.properties.options.properties).sort());
    assert.equal(schema.properties.options.additionalProperties, false);
  });

  it('format and files may be left out (auto, no files); a field set to undefined counts as left out', () => {
    const result = applyRequest({ response: 'Nothing to change.' } as ApplyRequest);
    assert.deepEqual(result.files, {});
    assert.notEqual(result.detection, null);
    const typed = applyRequest({ format: 'udiff', files: { 'a.txt': 'a\n' }, response: '', options: { window: undefined } });
    assert.equal(typed.format, 'udiff');
  });

  it('a file named __proto__ in a map with no prototype is a file', () => {
    const files: Record<string, string> = Object.create(null);
    files['__proto__'] = 'x\n';
    const result = applyRequest({ format: 'whole', files, response: '__proto__\n```\ny\n```\n' });
    assert.equal(result.files['__proto__'], 'y\n');
  });
});
