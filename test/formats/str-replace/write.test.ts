// The str-replace writer (exact output) and detection.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { runFormat } from '../../../src/core/run.ts';
import { strReplace } from '../../../src/formats/str-replace/index.ts';
import { planCalls } from '../../../src/formats/str-replace/write.ts';

const text = (lines: string[]) => lines.map((l) => l + '\n').join('');
/** The calls of a written reply, parsed back from their fences. */
const calls = (reply: string) => [...reply.matchAll(/```json\n([\s\S]*?)\n```/g)].map((m) => JSON.parse(m[1]));

describe('str-replace writer', () => {
  it('writes a line whose text ends in CR (CR CR LF in a CRLF file) so that it reads back with its CR', () => {
    const before = 'a\r\n    run()\r\r\nb\r\n';
    const after = 'a\r\n    run(fast=True)\r\r\nb\r\nc\r\r\n';
    const reply = strReplace.write([{ file: 'x.py', before, after }]);
    assert.deepEqual(calls(reply), [
      { command: 'str_replace', path: 'x.py', old_str: '    run()\r\r\n', new_str: '    run(fast=True)\r\r\n' },
      { command: 'insert', path: 'x.py', insert_line: 3, new_str: 'c\r' },
    ]);
    const r = runFormat(strReplace, { format: 'str-replace', files: { 'x.py': before }, response: reply });
    assert.equal(r.ok, true, JSON.stringify(r.edits));
    assert.equal(r.files['x.py'], after);
  });

  it('writes one pretty-printed call per fence', () => {
    const reply = strReplace.write([{ file: 'a.txt', before: 'one\ntwo\nthree\n', after: 'one\n2\nthree\n' }]);
    assert.equal(
      reply,
      '```json\n{\n  "command": "str_replace",\n  "path": "a.txt",\n  "old_str": "two\\n",\n  "new_str": "2\\n"\n}\n```\n',
    );
  });

  it('writes create for new files, insert for added lines, nothing for deleted or unchanged files', () => {
    const reply = strReplace.write([
      { file: 'new.txt', before: null, after: 'x\r\ny' },
      { file: 'a.txt', before: 'one\ntwo\n', after: 'zero\none\ntwo\nthree\n' },
      { file: 'gone.txt', before: 'bye\n', after: null },
      { file: 'same.txt', before: 's\n', after: 's\n' },
    ]);
    assert.deepEqual(calls(reply), [
      { command: 'create', path: 'new.txt', file_text: 'x\r\ny' },
      { command: 'insert', path: 'a.txt', insert_line: 0, new_str: 'zero' },
      { command: 'insert', path: 'a.txt', insert_line: 2, new_str: 'three' },
    ]);
  });

  it('widens old_str with neighbouring lines until it occurs once', () => {
    const before = ['x = 1', 'a', 'x = 1', 'b'];
    assert.deepEqual(planCalls(before, ['x = 1', 'a', 'x = 2', 'b']).map((g) => [g.from, g.to]), [[1, 4]]);
    const reply = strReplace.write([{ file: 'v.py', before: text(before), after: text(['x = 1', 'a', 'x = 2', 'b']) }]);
    assert.deepEqual(calls(reply), [{ command: 'str_replace', path: 'v.py', old_str: 'a\nx = 1\nb\n', new_str: 'a\nx = 2\nb\n' }]);
  });

  it('widens past a line that occurs inside another line', () => {
    // "b\n" occurs at the end of "ab\n" too.
    assert.deepEqual(planCalls(['ab', 'b', 'c'], ['ab', 'B', 'c']).map((g) => [g.from, g.to]), [[0, 3]]);
  });

  it('merges widened replacements that share a line, with an insertion inside them', () => {
    const before = ['-', '-', '-', '-'];
    const after = ['+', '-', 'new', '-', '+'];
    // Splices: insert "+" before line 1, insert "new" before line 2, replace lines 3-4 by "+" (jsdiff's
    // choice). The replacement widens to the whole file (every shorter run of "-" repeats) and takes in
    // the insertion inside it; the insertion at its boundary stays a separate insert call.
    const groups = planCalls(before, after);
    assert.deepEqual(groups.map((g) => [g.from, g.to, g.splices.length]), [[0, 0, 1], [0, 4, 2]]);
    const r = runFormat(strReplace, { format: 'str-replace', files: { 'd.txt': text(before) }, response: strReplace.write([{ file: 'd.txt', before: text(before), after: text(after) }]) });
    assert.equal(r.files['d.txt'], text(after));
  });
});

describe('str-replace detect', () => {
  it('is sure at an editor command or the tool name, weakly so at old_str alone', () => {
    assert.deepEqual(strReplace.detect('x\n{"command" : "insert"}'), { score: 1, reason: '`"command": "insert"` at line 2' });
    assert.deepEqual(strReplace.detect('{"name": "str_replace_editor"}'), { score: 1, reason: 'the tool name `str_replace_editor` at line 1' });
    assert.deepEqual(strReplace.detect('\n\n{"old_str": "x"}'), { score: 0.3, reason: '`"old_str"` at line 3, without a command' });
    assert.deepEqual(strReplace.detect('{"command": "view"}'), { score: 0, reason: 'no `"command": "str_replace"`, `"insert"` or `"create"`' });
  });
});
