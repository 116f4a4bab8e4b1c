// Differences that do not show (src/core/invisible.ts): the whitespace-equal
// key, which lines may look alike, and how the difference is named.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { alikeNote, codePointName, firstDifference, looksAlike, visibleKey } from '../../src/core/invisible.ts';
import { locate, type Placed } from '../../src/core/match.ts';

const NFC = 'caf\u00e9 = 1';
const NFD = 'cafe\u0301 = 1';

describe('visibleKey', () => {
  it('sets aside the normalisation form, zero-width characters and trailing white space', () => {
    assert.equal(visibleKey(NFD), visibleKey(NFC));
    for (const zw of ['\u200b', '\u200c', '\u200d', '\u2060', '\ufeff']) assert.equal(visibleKey(`foo${zw} = 1`), 'foo = 1', zw);
    assert.equal(visibleKey('x = 1 \t\r'), 'x = 1');
    assert.equal(visibleKey('x = 1\u200b '), 'x = 1');
  });
  it('keeps what shows: leading white space, a no-break space, a homoglyph, a curly quote', () => {
    assert.notEqual(visibleKey('  x'), visibleKey('x'));
    assert.notEqual(visibleKey('foo\u00a0= 1'), visibleKey('foo = 1'));
    assert.notEqual(visibleKey('v\u0430lue'), visibleKey('value'));
    assert.notEqual(visibleKey('\u2018a\u2019'), visibleKey("'a'"));
  });
});

describe('looksAlike and firstDifference', () => {
  it('names the code points each side has at the first differing column', () => {
    assert.equal(firstDifference(NFC, NFD), 'at column 4 the file has U+00E9 "é" where the edit has U+0065 "e", U+0301 COMBINING ACUTE ACCENT');
    assert.equal(firstDifference('foo\u200b = 1', 'foo = 1', 'the SEARCH'), 'at column 4 the file has U+200B ZERO WIDTH SPACE, which the SEARCH does not have');
    assert.equal(firstDifference('foo = 1', 'foo\u2060 = 1'), 'at column 4 the edit has U+2060 WORD JOINER, which the file does not have');
    assert.equal(firstDifference('x', 'x'), '');
  });
  it('counts columns in code points, not UTF-16 units', () => {
    assert.match(firstDifference('😀 foo\u200b', '😀 foo'), /^at column 6 /);
  });
  it('holds lines alike when a small difference involves a code point outside ASCII', () => {
    assert.ok(looksAlike(NFC, NFD));
    assert.ok(looksAlike('foo\u00a0= 1', 'foo = 1'));
    assert.ok(looksAlike('v\u0430lue = 1', 'value = 1'));
    assert.ok(!looksAlike('x = 1', 'x = 2'), 'ASCII differences show');
    assert.ok(!looksAlike(NFC, NFC));
    assert.ok(!looksAlike('caf\u00e9 = compute(1)', 'tea = other(2)'), 'a large difference is not hidden');
  });
  it('notes the difference only for lines that may look alike', () => {
    assert.equal(alikeNote('x = 1', 'x = 2'), '');
    assert.match(alikeNote('foo\u00a0= 1', 'foo = 1'), /U\+00A0 NO-BREAK SPACE/);
    assert.equal(codePointName(0x1f600), 'U+1F600 "😀"');
  });
});

describe('the ladder: invisible differences are whitespace-equal', () => {
  it('places a block cited in another normalisation form at the whitespace rung, with its offset', () => {
    const o = locate(['a', NFC, 'b'], [NFD], 1) as Placed;
    assert.equal(o.ok, true);
    assert.deepEqual([o.kind, o.start, o.offset, o.similarity, o.differing], ['whitespace', 1, 0, 1, [0]]);
  });
  it('finds a block without a cited place only where it is alone', () => {
    const two = locate(['foo\u200b = 1', 'x', 'foo = 1\u200d'], ['foo = 1\u200c'], null);
    assert.equal(two.ok, false);
    assert.equal(!two.ok && two.code, 'ambiguous');
  });
  it('prefers the exact line over the invisible-equal one', () => {
    const o = locate(['foo\u200b = 1', 'x', 'foo = 1'], ['foo = 1'], null) as Placed;
    assert.deepEqual([o.kind, o.start], ['exact', 2]);
  });
  it('is off with the whitespace option', () => {
    assert.equal(locate([NFC], [NFD], 0, { whitespace: false, fuzzy: false }).ok, false);
  });
});
