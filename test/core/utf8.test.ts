import assert from 'node:assert/strict';
import { it } from 'node:test';
import fc from 'fast-check';
import { decodeUtf8 } from '../../src/core/utf8.ts';

it('decodes as TextDecoder does, valid or not', () => {
  const cases = [
    [0x68, 0xc3, 0xa9, 0xe2, 0x82, 0xac, 0xf0, 0x9f, 0x8e, 0x89],
    [0xff], [0xc3], [0xe2, 0x82], [0xe0, 0x80, 0x80], [0xed, 0xa0, 0x80], [0xf4, 0x90, 0x80, 0x80], [0xc0, 0xaf], [0x80, 0x41],
  ];
  for (const bytes of cases) assert.equal(decodeUtf8(bytes), new TextDecoder().decode(new Uint8Array(bytes)), JSON.stringify(bytes));
  fc.assert(
    fc.property(fc.uint8Array({ maxLength: 40 }), (bytes) => {
      assert.equal(decodeUtf8(bytes), new TextDecoder().decode(bytes));
    }),
    { numRuns: 2000 },
  );
  fc.assert(fc.property(fc.string({ unit: 'binary' }), (s) => {
    const bytes = new TextEncoder().encode(s);
    assert.equal(decodeUtf8(bytes), new TextDecoder().decode(bytes));
  }));
});
