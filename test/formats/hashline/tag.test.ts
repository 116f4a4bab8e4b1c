// The tag functions against vectors computed independently with CPython's
// zlib.crc32 and base64.urlsafe_b64encode (see spec/formats/hashline.md, "Tags").

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { crc32, fileTag, lineTag, normalise, renderView, viewRow } from '../../../src/formats/hashline/tag.ts';
import { hashline } from '../../../src/formats/hashline/index.ts';

// [line, CRC-32 of the normalised UTF-8 bytes, tag], from python3.
const VECTORS: [string, number, string][] = [
  ['', 0x00000000, 'AAAA'],
  ['a', 0xe8b7be43, 't75D'],
  ['int count = 10;', 0xfdc6af88, 'xq-I'],
  ['if (count > limit) {', 0x4a85106e, 'hRBu'],
  ['    count = limit;', 0xdf5066ec, 'UGbs'],
  ['}', 0xfcb6e20c, 'tuIM'],
  ['x = 1', 0x475ba176, 'W6F2'],
  ['x = 1   ', 0x475ba176, 'W6F2'],
  ['  x = 1', 0xd404b5bf, 'BLW_'],
  ['\tx = 1', 0x17b4a600, 'tKYA'],
  ['é', 0x0e048d3e, 'BI0-'],
  ['中文', 0x5a09ed37, 'Ce03'],
  ['😀', 0x054db544, 'TbVE'],
  ['👍🏽 ok', 0x939c6581, 'nGWB'],
  ['\uFFFD', 0x8b7233c9, 'cjPJ'],
  ['a \t\r \t', 0xe8b7be43, 't75D'],
  ['\u00A0', 0x6ec304db, 'wwTb'],
  ['a\u00A0', 0x994e6e21, 'Tm4h'],
  ['x'.repeat(1000), 0x3b41c9e6, 'Qcnm'],
  ['def f():', 0x5d3828f7, 'OCj3'],
];

describe('line tags', () => {
  for (const [line, crc, tag] of VECTORS) {
    it(`${JSON.stringify(line.slice(0, 20))} -> ${tag}`, () => {
      assert.equal(crc32(normalise(line)), crc);
      assert.equal(lineTag(line), tag);
    });
  }

  it('CRC-32 check value of "123456789" is cbf43926', () => {
    assert.equal(crc32('123456789'), 0xcbf43926);
  });

  it('normalises only trailing spaces, tabs and CRs', () => {
    assert.equal(normalise('  a b \t\r'), '  a b');
    assert.equal(normalise('a\u00A0'), 'a\u00A0');
    assert.equal(normalise('\r'), '');
  });

  it('encodes a lone surrogate as U+FFFD', () => {
    assert.equal(lineTag('\uD800'), 'cjPJ');
    assert.equal(lineTag('\uDC00'), 'cjPJ');
  });
});

describe('file tags', () => {
  it('match python vectors', () => {
    assert.equal(fileTag([]), '00000000');
    assert.equal(fileTag(['a']), 'ddeaa107');
    assert.equal(fileTag(['a  ']), 'ddeaa107');
    assert.equal(fileTag(['']), '32d70693');
    assert.equal(fileTag(['', '']), '5be3136b');
    assert.equal(fileTag(['x = 1   ', '  x = 1']), 'a90937b6');
    assert.equal(fileTag(['alpha', 'beta', 'gamma', 'delta', 'epsilon']), 'db569149');
    assert.equal(fileTag(['int count = 10;', 'if (count > limit) {', '    count = limit;', '}']), '620fa496');
  });
});

describe('the read view', () => {
  it('shows a file_tag header and N:TAG rows, no space after the tag of an empty line', () => {
    assert.equal(renderView(['a', '', ' b']), 'file_tag:d8342342\n1:t75D a\n2:AAAA\n3:4TYp  b\n');
    assert.equal(viewRow(12, '    count = limit;'), '12:UGbs     count = limit;');
  });

  it('is the same for LF, CRLF, BOM and no final newline', () => {
    const expected = 'file_tag:d8342342\n1:t75D a\n2:AAAA\n3:4TYp  b\n';
    assert.equal(hashline.view!('a\n\n b\n'), expected);
    assert.equal(hashline.view!('\uFEFFa\r\n\r\n b'), expected);
  });

  it('of an empty file is the header alone', () => {
    assert.equal(hashline.view!(''), 'file_tag:00000000\n');
  });
});
