import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { applyRequest } from '../../../src/formats/index.ts';
import { hashline } from '../../../src/formats/hashline/index.ts';
import { newValue } from '../../../src/formats/hashline/write.ts';

const LIST = 'alpha\nbeta\ngamma\ndelta\nepsilon\n';

describe('hashline write', () => {
  it('writes one call per changed stretch, tagged from before', () => {
    const after = 'top\nalpha\nBETA\ngamma\nepsilon\nzeta\n';
    const reply = hashline.write([{ file: 'list.txt', before: LIST, after }]);
    assert.equal(
      reply,
      [
        '{"tool":"edit","path":"list.txt","op":"insert_after","line":0,"new":"top"}',
        '{"tool":"edit","path":"list.txt","line":2,"tag":"kQRj","new":"BETA"}',
        '{"tool":"edit","path":"list.txt","op":"delete","line":4,"tag":"Q_7Z"}',
        '{"tool":"edit","path":"list.txt","op":"insert_after","line":5,"tag":"PpoY","new":"zeta"}',
        '',
      ].join('\n'),
    );
    const r = applyRequest({ format: 'hashline', files: { 'list.txt': LIST }, response: reply });
    assert.equal(r.ok, true);
    assert.equal(r.files['list.txt'], after);
  });

  it('cites several lines with "lines"', () => {
    const reply = hashline.write([{ file: 'limit.c', before: 'int count = 10;\nif (count > limit) {\n    count = limit;\n}\n', after: 'int count = 10;\nif (count > limit)\n    return limit;\n' }]);
    assert.equal(reply, '{"tool":"edit","path":"limit.c","lines":"2:hRBu\\n3:UGbs\\n4:tuIM","new":"if (count > limit)\\n    return limit;"}\n');
  });

  it('writes a new file as a write call and nothing for an unchanged file', () => {
    assert.equal(
      hashline.write([
        { file: 'same.txt', before: 'a\n', after: 'a\n' },
        { file: 'docs/new.md', before: null, after: '# New\n\nText.\n' },
        { file: 'empty.txt', before: null, after: '' },
      ]),
      '{"tool":"write","path":"docs/new.md","content":"# New\\n\\nText.\\n"}\n{"tool":"write","path":"empty.txt","content":""}\n',
    );
  });

  it('writes a deleted file as the removal of every line', () => {
    assert.equal(
      hashline.write([{ file: 'list.txt', before: 'a\nb\n', after: null }]),
      '{"tool":"edit","path":"list.txt","op":"delete","lines":"1:t75D\\n2:vu_5"}\n',
    );
  });

  it('keeps empty last lines and lines ending in CR', () => {
    assert.deepEqual(newValue(['a', 'b']), 'a\nb');
    assert.deepEqual(newValue(['']), '\n');
    assert.deepEqual(newValue(['a', '']), 'a\n\n');
    assert.deepEqual(newValue([]), '');
    assert.deepEqual(newValue(['a\r', 'b']), ['a\r', 'b']);
  });
});
