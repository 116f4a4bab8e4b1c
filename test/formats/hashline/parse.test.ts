import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Edit } from '../../../src/core/types.ts';
import { hashline } from '../../../src/formats/hashline/index.ts';
import { textLines } from '../../../src/formats/hashline/parse.ts';

const FILES = ['limit.c', 'list.txt'];
const parse = (reply: string, files: string[] = FILES) => hashline.parse(reply, { files });

function one(reply: string, files: string[] = FILES): Edit {
  const { edits } = parse(reply, files);
  assert.equal(edits.length, 1, JSON.stringify(edits));
  return edits[0];
}

describe('hashline parse: antirez calls', () => {
  it('reads the single-line call with its place in the reply', () => {
    const reply = 'Change it:\n{"tool":"edit","path":"limit.c","line":10,"tag":"Q8fA","new":"int count = 11;"}\nok';
    const e = one(reply);
    assert.equal(e.error, undefined);
    assert.equal(e.kind, 'replace');
    assert.equal(e.file, 'limit.c');
    assert.deepEqual(e.old, ['Q8fA']);
    assert.equal(e.cited, 10);
    assert.deepEqual(e.new, ['int count = 11;']);
    assert.deepEqual(e.meta, { op: 'replace', lines: [10], tags: ['Q8fA'], fileTag: null });
    assert.deepEqual(e.span, { from: 11, to: 90, start: { line: 2, column: 1 }, end: { line: 2, column: 80 } });
    assert.equal(reply.slice(e.span.from, e.span.to), reply.split('\n')[1]);
    assert.equal(e.oldSpans!.length, 1);
    assert.equal(reply.slice(e.oldSpans![0].from, e.oldSpans![0].to), 'Q8fA');
    assert.deepEqual(e.oldSpans![0].start, { line: 2, column: 50 });
  });

  it('reads the multi-line call, pretty-printed, with a span per cited tag', () => {
    const reply = [
      '{',
      '  "tool": "edit",',
      '  "path": "limit.c",',
      '  "lines": "11:rA3_\\n12:Kq9z\\n13:PX0b",',
      '  "new": "if (count > limit)\\n    return limit;"',
      '}',
    ].join('\n');
    const e = one(reply);
    assert.equal(e.error, undefined);
    assert.deepEqual(e.old, ['rA3_', 'Kq9z', 'PX0b']);
    assert.equal(e.cited, 11);
    assert.deepEqual(e.new, ['if (count > limit)', '    return limit;']);
    assert.deepEqual(e.meta, { op: 'replace', lines: [11, 12, 13], tags: ['rA3_', 'Kq9z', 'PX0b'], fileTag: null });
    assert.deepEqual(e.span.start, { line: 1, column: 1 });
    assert.deepEqual(e.span.end, { line: 6, column: 2 });
    assert.deepEqual(
      e.oldSpans!.map((s) => [reply.slice(s.from, s.to), s.start.line, s.start.column]),
      [
        ['rA3_', 4, 16],
        ['Kq9z', 4, 25],
        ['PX0b', 4, 34],
      ],
    );
  });

  it('accepts the other forms of lines and line', () => {
    const forms: [string, number[], string[]][] = [
      ['"lines": "1:4Dlq, 2:kQRj"', [1, 2], ['4Dlq', 'kQRj']],
      ['"lines": "1:4Dlq 2:kQRj;3:Q9Bx"', [1, 2, 3], ['4Dlq', 'kQRj', 'Q9Bx']],
      ['"lines": "1:4Dlq alpha\\n2:kQRj beta, more"', [1, 2], ['4Dlq', 'kQRj']],
      ['"lines": ["4:Q_7Z", " 5:PpoY epsilon"]', [4, 5], ['Q_7Z', 'PpoY']],
      ['"line": "3:Q9Bx"', [3], ['Q9Bx']],
      ['"line": "3", "tag": " Q9Bx "', [3], ['Q9Bx']],
    ];
    for (const [cite, lines, tags] of forms) {
      const reply = `{"tool": "edit", "path": "list.txt", ${cite}, "new": "x"}`;
      const e = one(reply);
      assert.equal(e.error, undefined, cite);
      assert.deepEqual(e.meta, { op: 'replace', lines, tags, fileTag: null }, cite);
      assert.deepEqual(e.oldSpans?.map((s) => reply.slice(s.from, s.to)), tags, cite);
    }
  });

  it('reads the operations', () => {
    let e = one('{"tool":"edit","path":"list.txt","op":"delete","lines":"2:kQRj\\n3:Q9Bx"}');
    assert.deepEqual([e.kind, e.new, e.meta?.op, e.cited], ['replace', [], 'delete', 2]);
    e = one('{"tool":"edit","path":"list.txt","op":"insert_after","line":0,"new":"top"}');
    assert.deepEqual([e.new, e.meta, e.cited, e.old], [['top'], { op: 'insert_after', lines: [], tags: [], fileTag: null }, undefined, []]);
    e = one('{"tool":"edit","path":"list.txt","op":"insert_after","line":0,"tag":"AAAA","new":"top"}');
    assert.equal(e.error, undefined);
    assert.deepEqual(e.meta?.lines, []);
  });

  it('reads whole-file citations', () => {
    let e = one('{"tool":"edit","path":"list.txt","file_tag":"DB569149","range":[2,4],"new":"x"}');
    assert.deepEqual(e.meta, { op: 'replace', lines: [2, 3, 4], tags: ['', '', ''], fileTag: 'db569149' });
    assert.deepEqual(e.old, ['', '', '']);
    assert.equal(e.oldSpans, undefined);
    e = one('{"tool":"edit","path":"list.txt","file_tag":"db569149","range":"2:3","new":"x"}');
    assert.deepEqual(e.meta?.lines, [2, 3]);
    e = one('{"tool":"edit","path":"list.txt","file_tag":"db569149","line":5,"new":"x"}');
    assert.deepEqual(e.meta, { op: 'replace', lines: [5], tags: [''], fileTag: 'db569149' });
    e = one('{"tool":"edit","path":"list.txt","file_tag":"db569149","lines":"5:PpoY","new":"x"}');
    assert.deepEqual(e.meta, { op: 'replace', lines: [5], tags: ['PpoY'], fileTag: 'db569149' });
  });

  it('reads "new" as a text, an array or null', () => {
    const news: [string, string[]][] = [
      ['"a\\nb"', ['a', 'b']],
      ['"a\\nb\\n"', ['a', 'b']],
      ['"a\\r\\nb\\r"', ['a', 'b\r']],
      ['"\\n"', ['']],
      ['"\\n\\n"', ['', '']],
      ['"\\ufeffx"', ['\uFEFFx']],
      ['["a", "", "b\\r"]', ['a', '', 'b\r']],
      ['[]', []],
      ['null', []],
    ];
    for (const [value, lines] of news) {
      const e = one(`{"tool":"edit","path":"list.txt","line":1,"tag":"4Dlq","new":${value}}`);
      assert.equal(e.error, undefined, value);
      assert.deepEqual(e.new, lines, value);
    }
    assert.deepEqual(textLines(''), []);
    assert.deepEqual(textLines('a\r'), ['a\r']);
  });

  it('reads a write call', () => {
    const e = one('{"tool": "Write", "path": "./docs/new.md", "content": "# New\\n"}');
    assert.deepEqual([e.kind, e.file, e.new, e.old, e.error], ['write', 'docs/new.md', ['# New'], [], undefined]);
  });
});

describe('hashline parse: finding calls', () => {
  it('finds calls in fences, arrays, wrappers and JSON lines, in reply order', () => {
    const reply = [
      'First {"tool": "read", "path": "list.txt"} then:',
      '```json',
      '[{"tool":"edit","path":"list.txt","line":1,"tag":"4Dlq","new":"A"},',
      ' {"tool":"edit","path":"list.txt","line":2,"tag":"kQRj","new":"B"}]',
      '```',
      '{"calls": {"x": [{"path":"list.txt","line":3,"tag":"Q9Bx","new":"C"}]}}',
      '{"tool":"edit","path":"list.txt","line":4,"tag":"Q_7Z","new":"D"}',
    ].join('\n');
    const { edits, diagnostics } = parse(reply);
    assert.deepEqual(diagnostics, []);
    assert.deepEqual(edits.map((e) => [e.index, e.cited, e.new[0], e.span.start.line]), [
      [0, 1, 'A', 3],
      [1, 2, 'B', 4],
      [2, 3, 'C', 6],
      [3, 4, 'D', 7],
    ]);
  });

  it('ignores other tools and braces in prose', () => {
    assert.deepEqual(parse('Use {x} or {"tool": "search", "q": "{"} or [1, {2}] {"a": {"b": 1}}').edits, []);
  });

  it('reads a broken array element by element', () => {
    const reply = '[{"tool":"edit","path":"list.txt","line":1,"tag":"4Dlq","new":"A"} {"tool":"edit","path":"list.txt","line":2,"tag":"kQRj","new":"B"}]';
    assert.deepEqual(parse(reply).edits.map((e) => [e.error?.code, e.cited]), [
      [undefined, 1],
      [undefined, 2],
    ]);
  });

  it('reports invalid JSON that means a call as malformed, with line and column', () => {
    const reply = 'Here:\n{"tool": "edit" "path": "list.txt", "line": 1, "tag": "4Dlq", "new": "A"}\n{"tool": "edit", "path": "list.txt", "line": 2, "tag": "kQRj", "new": "B"}';
    const { edits } = parse(reply);
    assert.equal(edits.length, 2);
    const [bad, good] = edits;
    assert.equal(bad.error?.code, 'malformed');
    assert.equal(bad.error?.message, 'line 2, column 17: this edit call is not valid JSON: expected `,` or `}` after the value, found `"`');
    assert.deepEqual(bad.error?.reply?.start, { line: 2, column: 17 });
    assert.equal(bad.file, 'list.txt');
    assert.deepEqual(bad.span.start, { line: 2, column: 1 });
    assert.deepEqual(bad.span.end, { line: 2, column: 74 });
    assert.equal(good.error, undefined);
    assert.equal(good.index, 1);
  });

  it('reports single quotes as malformed', () => {
    const e = one("{'tool': 'edit', 'path': 'list.txt', 'line': 1, 'tag': '4Dlq', 'new': 'A'}");
    assert.equal(e.error?.code, 'malformed');
    assert.equal(e.error?.message, 'line 1, column 2: this edit call is not valid JSON: expected a key in double quotes or `}`, found `\'`');
    assert.equal(e.span.to, 74);
  });

  it('ends an unbalanced call at the line of its error', () => {
    const reply = '{"tool": "edit", "path": "list.txt", "line": 1, "tag": "4Dlq", "new": "A"\n\nthen {"tool":"edit","path":"list.txt","line":2,"tag":"kQRj","new":"B"}';
    const { edits } = parse(reply);
    assert.deepEqual(edits.map((e) => [e.error?.code, e.span.start.line, e.span.end.line, e.cited]), [
      ['malformed', 1, 1, undefined],
      [undefined, 3, 3, 2],
    ]);
    assert.equal(edits[0].error?.message, 'line 3, column 1: this edit call is not valid JSON: expected `,` or `}` after the value, found `t`');
  });

  it('reports a reply that ends inside a call as truncated', () => {
    const reply = '{"tool":"edit","path":"list.txt","line":1,"tag":"4Dlq","new":"A"}\n{"tool":"edit","path":"list.txt","line":2,"tag":"kQRj","new":"B';
    const { edits } = parse(reply);
    assert.equal(edits.length, 2);
    assert.equal(edits[1].error?.code, 'truncated');
    assert.equal(edits[1].file, 'list.txt');
    assert.deepEqual(edits[1].span.start, { line: 2, column: 1 });
    assert.equal(edits[1].span.to, reply.length);
    assert.equal(
      edits[1].error?.message,
      'line 2, column 64: the reply ends inside this edit call (expected a closing `"` for the string that starts at line 2, column 62); the reply was cut off: send this call again, complete',
    );
  });

  it('does not let a broken call run past its code fence', () => {
    const reply = '```json\n{"tool":"edit","path":"list.txt","line":1,"tag":"4Dlq","new":"A\n```\n{"tool":"edit","path":"list.txt","line":2,"tag":"kQRj","new":"B"}\n';
    const { edits } = parse(reply);
    assert.deepEqual(edits.map((e) => [e.error?.code, e.span.start.line]), [
      ['malformed', 2],
      [undefined, 4],
    ]);
    assert.match(edits[0].error!.message, /found the end of the code block$/);
  });
});

describe('hashline parse: form errors', () => {
  const cases: [string, string, string][] = [
    ['{"tool":"edit","line":1,"tag":"4Dlq","new":"A"}', 'missing-path', 'line 1, column 1: this edit call names no file: add "path" with the file\'s path as the read view names it'],
    ['{"tool":"edit","path":"  ","line":1,"tag":"4Dlq","new":"A"}', 'missing-path', 'line 1, column 23: this edit call names no file: add "path" with the file\'s path as the read view names it'],
    ['{"tool":"edit","path":7,"line":1,"tag":"4Dlq","new":"A"}', 'malformed', 'line 1, column 23: "path" must be a string, found 7'],
    ['{"tool":"edit","path":"list.txt","op":"append","line":1,"tag":"4Dlq","new":"A"}', 'malformed', 'line 1, column 39: "op" must be "replace", "insert_after" or "delete", found "append"'],
    ['{"tool":"edit","path":"list.txt","line":1,"tag":"4Dlq","new":"A","new":"B"}', 'malformed', 'line 1, column 66: the key "new" appears twice in this edit call; give it once'],
    ['{"tool":"edit","path":"list.txt","line":1,"new":"A"}', 'malformed', 'line 1, column 41: this edit call cites line 1 without its tag: add "tag" with the 4 characters the read view shows after "1:"'],
    ['{"tool":"edit","path":"list.txt","line":-1,"tag":"4Dlq","new":"A"}', 'malformed', 'line 1, column 41: "line" must be a line number (a whole number, 0 for the top of the file), found -1'],
    ['{"tool":"edit","path":"list.txt","line":0,"new":"A"}', 'malformed', 'line 1, column 41: line 0 is the place before the first line: only "op": "insert_after" can cite it; lines are numbered from 1, found 0'],
    ['{"tool":"edit","path":"list.txt","new":"A"}', 'malformed', 'line 1, column 1: this edit call cites no line: give "line" and "tag" for one line, or "lines" ("11:rA3_\\n12:Kq9z") for several, as the read view shows them'],
    ['{"tool":"edit","path":"list.txt","line":1,"lines":"1:4Dlq","new":"A"}', 'malformed', 'line 1, column 43: this edit call cites lines with both "line" and "lines"; use one: "line" and "tag" for one line, "lines" for several, or "range" with "file_tag"'],
    ['{"tool":"edit","path":"list.txt","lines":"1:4Dlq","tag":"4Dlq","new":"A"}', 'malformed', 'line 1, column 57: "tag" goes with "line" (one line); with "lines", write each tag after its number ("11:rA3_\\n12:Kq9z"), found "4Dlq"'],
    ['{"tool":"edit","path":"list.txt","lines":"1:4Dlq\\n3:Q9Bx","new":"A"}', 'remove-number-gap', 'line 1, column 51: the cited lines jump from 1 to 3; one edit cites one continuous stretch: cite the lines in between, or use two edits'],
    ['{"tool":"edit","path":"list.txt","lines":"3:Q9Bx\\n3:Q9Bx","new":"A"}', 'remove-number-repeat', 'line 1, column 51: line 3 is cited after line 3; cite each line once, in increasing order'],
    ['{"tool":"edit","path":"list.txt","lines":"2:3","new":"A"}', 'malformed', 'line 1, column 43: a tag is 4 characters; to cite a range of lines by number, use "range": [FIRST, LAST] with "file_tag", found "2:3"'],
    ['{"tool":"edit","path":"list.txt","lines":"alpha","new":"A"}', 'malformed', 'line 1, column 43: each entry of "lines" must be "N:TAG" (a line number, ":", the line\'s tag), as the read view shows it, found "alpha"'],
    ['{"tool":"edit","path":"list.txt","lines":"0:AAAA","new":"A"}', 'malformed', 'line 1, column 43: lines are numbered from 1, found "0:AAAA"'],
    ['{"tool":"edit","path":"list.txt","lines":"","new":"A"}', 'malformed', 'line 1, column 42: "lines" must cite at least one line ("11:rA3_\\n12:Kq9z"), found ""'],
    ['{"tool":"edit","path":"list.txt","range":[1,2],"new":"A"}', 'malformed', 'line 1, column 42: "range" cites lines by number only, so it needs "file_tag" (the read view\'s first line); or cite "lines" with their tags, found an array'],
    ['{"tool":"edit","path":"list.txt","file_tag":"db569149","range":[3,2],"new":"A"}', 'malformed', 'line 1, column 64: "range" must not end (line 2) before it starts (line 3), found an array'],
    ['{"tool":"edit","path":"list.txt","file_tag":"db56914","line":1,"new":"A"}', 'malformed', 'line 1, column 45: "file_tag" must be the 8 hexadecimal digits the read view shows after "file_tag:", found "db56914"'],
    ['{"tool":"edit","path":"list.txt","line":1,"tag":"4Dlq"}', 'malformed', 'line 1, column 1: this replace has no "new": give the replacement lines ("" to remove the lines)'],
    ['{"tool":"edit","path":"list.txt","line":1,"tag":"4Dlq","new":5}', 'malformed', 'line 1, column 62: "new" must be a string (lines separated by "\\n") or an array of lines, found 5'],
    ['{"tool":"edit","path":"list.txt","line":1,"tag":"4Dlq","new":["a\\nb"]}', 'malformed', 'line 1, column 63: a line of "new" given as an array holds no line break (split it into two lines), found "a\\nb"'],
    ['{"tool":"edit","path":"list.txt","op":"delete","line":1,"tag":"4Dlq","new":"x"}', 'malformed', 'line 1, column 76: "op": "delete" takes no "new"; to replace the lines, use "op": "replace", found "x"'],
    ['{"tool":"edit","path":"list.txt","op":"insert_after","line":1,"tag":"4Dlq","new":[]}', 'malformed', 'line 1, column 82: "op": "insert_after" needs at least one line in "new" (for one empty line write "\\n" or [""]), found an array'],
    ['{"tool":"write","path":"a.txt"}', 'malformed', 'line 1, column 1: this write call has no "content": give the file\'s whole text'],
  ];
  for (const [reply, code, message] of cases) {
    it(`${code}: ${reply}`, () => {
      const e = one(reply);
      assert.equal(e.error?.code, code);
      assert.equal(e.error?.message, message);
      assert.equal(e.error?.severity, 'error');
      const m = /^line 1, column (\d+)/.exec(message);
      if (m) assert.equal(e.error?.reply?.start.column, Number(m[1]));
    });
  }

  it('leaves unsafe paths to the engine', () => {
    const e = one('{"tool":"edit","path":"/tmp/example.c","line":1,"tag":"4Dlq","new":"A"}');
    assert.equal(e.error, undefined);
    assert.equal(e.file, '/tmp/example.c');
  });

  it('resolves a path differing from a given file only by case, ./ or \\, in valid and broken calls', () => {
    const files = ['src/App.js', 'list.txt'];
    const file = (path: string) => one(`{"tool":"edit","path":${JSON.stringify(path)},"line":1,"tag":"4Dlq","new":"A"}`, files).file;
    assert.deepEqual(
      ['src\\App.js', './SRC/app.js', ' LIST.TXT ', '.\\new\\x.txt', 'list.txt'].map(file),
      ['src/App.js', 'src/App.js', 'list.txt', 'new/x.txt', 'list.txt'],
    );
    const broken = one('{"tool":"edit","path":"./Src\\\\APP.js","line":1,"tag":"4Dlq","new":"A",}', files);
    assert.deepEqual([broken.file, broken.error?.code], ['src/App.js', 'malformed']);
  });
});

describe('hashline detect', () => {
  const cases: [string, number, string][] = [
    ['x\n{"tool": "edit", "path": "a"}', 1, '`"tool": "edit"` at line 2'],
    ['{"path": "a", "lines": "3:abcd\\n4:efgh"}', 1, 'a hashline `"lines": "N:TAG"` at line 1'],
    ['\n\n{"path": "a", "line": 3, "tag": "abcd"}', 1, 'a hashline `"line"` with its `"tag"` at line 3'],
    ['{"file_tag": "0123abcd"}', 1, 'a hashline `"file_tag"` at line 1'],
    ['{"tool": "write", "path": "a", "content": ""}', 0.9, '`"tool": "write"` at line 1'],
    ['{"tag": "beta"}', 0, 'no `"tool": "edit"` call and no `"lines"`/`"tag"` citation'],
    ['<<<<<<< REMOVE', 0, 'no `"tool": "edit"` call and no `"lines"`/`"tag"` citation'],
  ];
  for (const [reply, score, reason] of cases) {
    it(`${score}: ${JSON.stringify(reply)}`, () => assert.deepEqual(hashline.detect(reply), { score, reason }));
  }
});
