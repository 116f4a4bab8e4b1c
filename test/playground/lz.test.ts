import { test } from 'node:test';
import assert from 'node:assert/strict';
import LZString from 'lz-string';
import fc from 'fast-check';
import { inflateUriComponent } from '../../src/share/lz.ts';

test('reads what lz-string writes, byte for byte', () => {
  fc.assert(
    fc.property(fc.string({ unit: 'binary', maxLength: 400 }), (text) => {
      const packed = LZString.compressToEncodedURIComponent(text);
      assert.deepEqual(inflateUriComponent(packed, 1e6), { ok: true, text });
    }),
    { numRuns: 500 },
  );
  for (const text of ['', 'a', 'a\r\nb', '\u{1F600}x\u0000', 'abc'.repeat(5000), JSON.stringify({ v: 1, f: 'ln-diff', fs: [['a.py', 'x\r\n']] })]) {
    assert.deepEqual(inflateUriComponent(LZString.compressToEncodedURIComponent(text), 1e6), { ok: true, text });
  }
});

test('stops at the limit instead of building the whole text', () => {
  const text = 'a'.repeat(2_000_000);
  const packed = LZString.compressToEncodedURIComponent(text);
  // LZ codes for a run grow by one character each: 2 MB fit in a few kB of link.
  assert.ok(packed.length < 5000, `packed ${packed.length}`);
  assert.deepEqual(inflateUriComponent(packed, 1_999_999), { ok: false, reason: 'too-large' });
  assert.deepEqual(inflateUriComponent(packed, 2_000_000), { ok: true, text });
});

test('cut, empty and altered input is corrupt, never an exception', () => {
  const packed = LZString.compressToEncodedURIComponent('hello world, hello world, hello world');
  assert.deepEqual(inflateUriComponent('', 100), { ok: false, reason: 'corrupt' });
  assert.deepEqual(inflateUriComponent(packed.slice(0, 8), 100), { ok: false, reason: 'corrupt' });
  assert.deepEqual(inflateUriComponent('$$$$$$$$', 100), { ok: false, reason: 'corrupt' });
  fc.assert(
    fc.property(fc.string({ unit: fc.constantFrom(...'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+-$'), maxLength: 60 }), (junk) => {
      const out = inflateUriComponent(junk, 10_000);
      assert.equal(typeof out.ok, 'boolean');
    }),
    { numRuns: 2000 },
  );
});

test('a crafted link standing for gigabytes is refused after the limit, quickly', async () => {
  const { lzBomb } = await import('../e2e/fixtures/lz-bomb.ts');
  const small = lzBomb(10);
  assert.equal(small.length, 66);
  assert.equal(LZString.decompressFromEncodedURIComponent(small.packed), 'a'.repeat(66));
  assert.deepEqual(inflateUriComponent(small.packed, 66), { ok: true, text: 'a'.repeat(66) });
  // 100,000 codes: about 5 billion characters, in a link of about 240 kB.
  const big = lzBomb(100_000);
  assert.ok(big.length > 5e9 && big.packed.length < 300_000, `${big.length} ${big.packed.length}`);
  assert.deepEqual(inflateUriComponent(big.packed, 1_000_000), { ok: false, reason: 'too-large' });
});
