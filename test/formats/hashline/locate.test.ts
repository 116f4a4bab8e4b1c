import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Edit } from '../../../src/core/types.ts';
import { applyRequest } from '../../../src/formats/index.ts';
import { hashline } from '../../../src/formats/hashline/index.ts';

const LIST = ['alpha', 'beta', 'gamma', 'delta', 'epsilon'];
const LIST_TEXT = LIST.join('\n') + '\n';

function edit(call: string): Edit {
  const { edits } = hashline.parse(call, { files: ['list.txt'] });
  assert.equal(edits.length, 1);
  assert.equal(edits[0].error, undefined, edits[0].error?.message);
  return edits[0];
}
const locate = (call: string, lines: readonly string[] = LIST) => hashline.locate!(lines, edit(call), {});

describe('hashline locate', () => {
  it('places a matching replace exactly at the cited lines', () => {
    assert.deepEqual(locate('{"path":"list.txt","lines":"2:kQRj\\n3:Q9Bx","new":"X"}'), {
      ok: true,
      kind: 'exact',
      start: 1,
      end: 3,
      newLines: ['X'],
      offset: 0,
      similarity: 1,
      differing: [],
    });
  });

  it('places a delete as an empty replacement and an insertion as an empty range after the cited line', () => {
    const del = locate('{"path":"list.txt","op":"delete","line":5,"tag":"PpoY"}');
    assert.deepEqual(del.ok && [del.start, del.end, del.newLines, del.message], [4, 5, [], 'deleted line 5']);
    const ins = locate('{"path":"list.txt","op":"insert_after","lines":"2:kQRj\\n3:Q9Bx","new":"X"}');
    assert.deepEqual(ins.ok && [ins.start, ins.end, ins.newLines, ins.message], [3, 3, ['X'], 'inserted 1 line after line 3']);
    const top = locate('{"tool":"edit","path":"list.txt","op":"insert_after","line":0,"new":"X"}', []);
    assert.deepEqual(top.ok && [top.start, top.end, top.newLines, top.message], [0, 0, ['X'], 'inserted 1 line at the top of the file']);
  });

  it('lists every mismatching line with its current tag and text', () => {
    const out = locate('{"path":"list.txt","lines":"1:4Dlq\\n2:kQRJ\\n3:AAAA","new":"X"}');
    assert.deepEqual(out, {
      ok: false,
      code: 'tag-mismatch',
      message:
        'the tags of 2 cited lines do not match list.txt as it is now (cited 2:kQRJ, 3:AAAA); the file changed since it was read, or the tags were misremembered. Those lines are now:\n2:kQRj beta\n3:Q9Bx gamma\nRead the file again and cite the current tags.',
      candidates: [{ start: 1, end: 3, offset: 0, similarity: 0, lines: ['alpha', 'beta', 'gamma'], differs: [false, true, true] }],
      kind: null,
      outside: [],
    });
  });

  it('shows one mismatching line as the view shows it', () => {
    const out = locate('{"path":"list.txt","line":3,"tag":"Kq9z","new":"X"}', ['a', 'b', '    count = limit;']);
    assert.equal(out.ok, false);
    if (!out.ok)
      assert.equal(
        out.message,
        'the tag of 1 cited line does not match list.txt as it is now (cited 3:Kq9z); the file changed since it was read, or the tag was misremembered. That line is now:\n3:UGbs     count = limit;\nRead the file again and cite the current tags.',
      );
  });

  it('fails a line past the end with no-match and the file length', () => {
    const out = locate('{"path":"list.txt","lines":"5:PpoY\\n6:AAAA","new":"X"}');
    assert.deepEqual(out, {
      ok: false,
      code: 'no-match',
      message: 'lines 5-6 are not in list.txt: the file has 5 lines; read the file again and cite lines as the read view numbers them',
      candidates: [],
      kind: null,
      outside: [],
    });
    const one = locate('{"path":"list.txt","line":1,"tag":"4Dlq","new":"X"}', []);
    assert.equal(!one.ok && one.message, 'line 1 is not in list.txt: the file has 0 lines; read the file again and cite lines as the read view numbers them');
  });

  it('checks the file tag first, then the lines, then their tags', () => {
    const stale = locate('{"path":"list.txt","file_tag":"00000000","lines":"9:xxxx","new":"X"}');
    assert.deepEqual(stale, {
      ok: false,
      code: 'stale-file',
      message: "list.txt changed since it was read: the edit cites file_tag 00000000, but the file's tag is now db569149; read the file again and cite its current line numbers and file_tag",
      candidates: [],
      kind: null,
      outside: [],
    });
    const both = locate('{"path":"list.txt","file_tag":"db569149","lines":"2:xxxx","new":"X"}');
    assert.equal(!both.ok && both.code, 'tag-mismatch');
    const range = locate('{"path":"list.txt","file_tag":"db569149","range":[4,6],"new":"X"}');
    assert.equal(!range.ok && range.code, 'no-match');
    const ok = locate('{"path":"list.txt","file_tag":"db569149","range":[4,5],"new":"X"}');
    assert.deepEqual(ok.ok && [ok.start, ok.end], [3, 5]);
  });

  it('falls back to the engine ladder for an edit without hashline meta', () => {
    const e: Edit = { ...edit('{"path":"list.txt","line":2,"tag":"kQRj","new":"X"}'), meta: undefined, old: ['gamma'], cited: 2 };
    const out = hashline.locate!(LIST, e, {});
    assert.deepEqual(out.ok && [out.kind, out.start, out.offset], ['offset', 2, 1]);
  });
});

describe('hashline through the engine', () => {
  it('reports applied edits with exact, offset 0, similarity 1 and the engine message', () => {
    const r = applyRequest({
      format: 'hashline',
      files: { 'list.txt': LIST_TEXT },
      response: '{"tool":"edit","path":"list.txt","op":"insert_after","line":2,"tag":"kQRj","new":"x"}\n{"tool":"edit","path":"list.txt","line":4,"tag":"Q_7Z","new":"D"}',
    });
    assert.equal(r.ok, true);
    assert.equal(r.files['list.txt'], 'alpha\nbeta\nx\ngamma\nD\nepsilon\n');
    assert.deepEqual(
      r.edits.map((e) => [e.match, e.offset, e.similarity, e.range, e.cited, e.message]),
      [
        ['exact', 0, 1, { start: 3, end: 2 }, { start: 2, end: 2 }, 'inserted 1 line after line 2'],
        ['exact', 0, 1, { start: 4, end: 4 }, { start: 4, end: 4 }, 'applied at line 4'],
      ],
    );
  });

  it('reports a failed edit with its code, message and candidate, and changes nothing', () => {
    const r = applyRequest({
      format: 'hashline',
      files: { 'list.txt': LIST_TEXT },
      response: '{"tool":"edit","path":"list.txt","line":2,"tag":"abcd","new":"B"}',
    });
    assert.equal(r.ok, false);
    assert.equal(r.files['list.txt'], LIST_TEXT);
    const [e] = r.edits;
    assert.deepEqual([e.status, e.code, e.range, e.match, e.cited], ['failed', 'tag-mismatch', null, null, { start: 2, end: 2 }]);
    assert.match(e.message, /\n2:kQRj beta\n/);
    assert.deepEqual(e.candidates, [{ start: 2, end: 2, offset: 0, similarity: 0, lines: ['beta'], differs: [true] }]);
  });

  it('fails an edit of a file not given with file-not-found and suggests a write call', () => {
    const r = applyRequest({
      format: 'hashline',
      files: { 'list.txt': LIST_TEXT },
      response: '{"tool":"edit","path":"nope.txt","line":1,"tag":"4Dlq","new":"A"}',
    });
    assert.deepEqual(
      [r.edits[0].code, r.edits[0].message],
      ['file-not-found', 'nope.txt is not among the files given (list.txt); to create a file, use {"tool": "write", "path": ..., "content": ...}'],
    );
  });

  it('refuses an absolute path with unsafe-path', () => {
    const r = applyRequest({
      format: 'hashline',
      files: { 'list.txt': LIST_TEXT },
      response: '{"tool":"edit","path":"/tmp/example.c","line":10,"tag":"Q8fA","new":"int count = 11;"}',
    });
    assert.deepEqual([r.edits[0].code, r.edits[0].message], ['unsafe-path', 'refused to write "/tmp/example.c": the path is absolute']);
  });
});
