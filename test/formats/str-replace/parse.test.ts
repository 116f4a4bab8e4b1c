// The str-replace parser: tool calls found in a reply, their fields and
// positions, and errors with their positions.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Edit, Span } from '../../../src/core/types.ts';
import { fileLines, parseStrReplace, resolvePath, textLines } from '../../../src/formats/str-replace/parse.ts';

const parse = (reply: string, files: string[] = ['a.py']) => parseStrReplace(reply, { files });
const pos = (s: Span) => `${s.start.line}:${s.start.column}-${s.end.line}:${s.end.column}`;
const codes = (edits: Edit[]) => edits.map((e) => e.error?.code ?? null);

describe('str-replace parser: commands', () => {
  it('reads str_replace into a replace edit with old/new lines, raw strings and spans', () => {
    const reply = 'Fix:\n{"command": "str_replace", "path": "a.py", "old_str": "x = 1\\r\\ny\\u003d2", "new_str": "x = 2"}\nok';
    const { edits, diagnostics } = parse(reply);
    assert.deepEqual(diagnostics, []);
    assert.equal(edits.length, 1);
    const e = edits[0];
    assert.equal(e.index, 0);
    assert.equal(e.kind, 'replace');
    assert.equal(e.file, 'a.py');
    assert.deepEqual(e.old, ['x = 1', 'y=2']);
    assert.deepEqual(e.new, ['x = 2']);
    assert.deepEqual(e.meta, { command: 'str_replace', old_str: 'x = 1\r\ny=2', new_str: 'x = 2' });
    assert.equal(e.error, undefined);
    assert.equal(pos(e.span), '2:1-2:95');
    assert.equal(reply.slice(e.span.from, e.span.to), reply.split('\n')[1]);
    // Each old line's span covers its raw JSON text, up to the escape that ends it.
    assert.deepEqual(e.oldSpans!.map((s) => reply.slice(s.from, s.to)), ['x = 1', 'y\\u003d2']);
  });

  it('reads insert as an insertion before line insert_line + 1', () => {
    const [e] = parse('{"command": "insert", "path": "a.py", "insert_line": 0, "new_str": "a\\nb\\n"}').edits;
    assert.equal(e.kind, 'insert');
    assert.equal(e.cited, 1);
    assert.deepEqual(e.new, ['a', 'b', '']);
    assert.deepEqual(e.meta, { command: 'insert', insert_line: 0 });
  });

  it('reads create as a write of file_text exactly, final line ending included or not', () => {
    const [a, b, c] = parse(
      '{"command": "create", "path": "n1", "file_text": "x\\r\\ny\\n"}\n{"command": "create", "path": "n2", "file_text": "x"}\n{"command": "create", "path": "n3", "file_text": ""}',
    ).edits;
    assert.deepEqual([a.kind, a.new, a.finalNewline], ['write', ['x\r', 'y'], true]);
    assert.deepEqual([b.new, b.finalNewline], [['x'], false]);
    assert.deepEqual([c.new, c.finalNewline], [[], undefined]);
  });

  it('ignores view and undo_edit, and objects that are not tool calls', () => {
    const reply = '{"command": "view", "path": "a.py"} {"command": "undo_edit", "path": "a.py"} {"command": "ls"} {"a": {"b": [1]}} [1, 2]';
    assert.deepEqual(parse(reply).edits, []);
  });
});

describe('str-replace parser: finding calls', () => {
  const call = '{"command": "str_replace", "path": "a.py", "old_str": "a", "new_str": "b"}';

  it('finds calls in wrappers, arrays, fences, JSON Lines and nested messages, in order', () => {
    const reply = [
      '```json',
      `{"type": "tool_use", "id": "t", "name": "str_replace_based_edit_tool", "input": ${call}}`,
      '```',
      `[${call}, ${call}]`,
      `{"name": "str_replace_editor", "arguments": ${call}}`,
      `{"role": "assistant", "content": [{"type": "text", "text": "{not json"}, {"type": "tool_use", "input": ${call}}]}`,
      `{"type": "tool_use", "name": "bash", "input": ${call}}`,
    ].join('\n');
    const { edits } = parse(reply);
    assert.deepEqual(edits.map((e) => [e.index, e.file, pos(e.span)]), [
      [0, 'a.py', '2:1-2:156'],
      [1, 'a.py', '4:2-4:76'],
      [2, 'a.py', '4:78-4:152'],
      [3, 'a.py', '5:1-5:120'],
      [4, 'a.py', '6:74-6:179'],
    ]);
  });

  it('reads a wrapper without a command, or with an unknown one, as malformed', () => {
    const reply = '{"name": "str_replace_editor", "input": {"path": "a.py"}}\n{"type": "tool_use", "input": {"command": "rm", "path": "a.py"}}\n{"name": "str_replace_editor", "input": "{}"}';
    const { edits } = parse(reply);
    assert.deepEqual(codes(edits), ['malformed', 'malformed', 'malformed']);
    assert.equal(edits[0].error!.message, 'line 1, column 41: the tool call has no "command"; expected one of str_replace, insert, create');
    assert.equal(edits[1].error!.message, 'line 2, column 43: unknown command "rm"; expected one of str_replace, insert, create, view, undo_edit');
    assert.equal(edits[2].error!.message, 'line 3, column 41: the tool call\'s "input" must be a JSON object');
  });
});

describe('str-replace parser: field errors', () => {
  it('points at the field that is wrong', () => {
    const reply = [
      '{"command": "str_replace", "path": "a.py", "old_str": ""}',
      '{"command": "str_replace", "path": "a.py", "old_str": 7}',
      '{"command": "insert", "path": "a.py", "insert_line": 2.5, "new_str": "x"}',
      '{"command": "insert", "path": "a.py", "new_str": "x"}',
      '{"command": "create", "path": 3, "file_text": "x"}',
      '{"command": "str_replace", "path": " ", "old_str": "x"}',
    ].join('\n');
    const { edits } = parse(reply);
    assert.deepEqual(codes(edits), ['malformed', 'malformed', 'malformed', 'malformed', 'malformed', 'missing-path']);
    assert.deepEqual(edits.map((e) => pos(e.error!.reply!)), ['1:55-1:57', '2:55-2:56', '3:54-3:57', '4:1-4:54', '5:31-5:32', '6:36-6:39']);
    assert.equal(edits[0].error!.message, 'line 1, column 55: "old_str" is empty; copy the text to replace from the file (to add lines, use the insert command)');
    assert.equal(edits[2].error!.message, 'line 3, column 54: "insert_line" must be a whole number from 0 (the line to insert after), found 2.5');
    assert.equal(edits[3].error!.message, 'line 4, column 1: the insert call needs "insert_line" (the line to insert after; 0 inserts at the top)');
  });

  it('checks that the file exists for str_replace and insert, and does not for create', () => {
    const reply = [
      '{"command": "str_replace", "path": "b.py", "old_str": "x"}',
      '{"command": "create", "path": "a.py", "file_text": "x"}',
      '{"command": "create", "path": "b.py", "file_text": "x"}',
    ].join('\n');
    const { edits } = parse(reply);
    assert.deepEqual(codes(edits), ['file-not-found', 'file-exists', null]);
    assert.equal(edits[0].error!.message, 'line 1, column 36: b.py is not among the files given (a.py); to make a new file, use the create command');
    assert.equal(edits[1].error!.message, 'line 2, column 31: cannot create a.py: it already exists; change it with str_replace or insert');
  });
});

describe('str-replace parser: broken JSON', () => {
  it('reports invalid JSON meant as a call as malformed, at the failing character', () => {
    const reply = 'x {"command": "str_replace", "path": "a.py", "old_str": "a\nb"} y {"note": "not\nan edit"} z';
    const { edits } = parse(reply);
    assert.equal(edits.length, 1);
    const [e] = edits;
    assert.equal(e.kind, 'replace');
    assert.equal(e.file, 'a.py');
    assert.equal(e.error!.code, 'malformed');
    assert.equal(e.error!.message, 'line 1, column 59: the tool call is not valid JSON: a raw line break inside a string; write it as \\n');
    assert.equal(pos(e.error!.reply!), '1:59-2:1');
    assert.equal(pos(e.span), '1:3-2:4');
  });

  it('reports a call cut off by the end of the reply as truncated', () => {
    const reply = '{"command": "insert", "path": "a.py", "insert_line": 1';
    const [e] = parse(reply).edits;
    assert.equal(e.kind, 'insert');
    assert.equal(e.error!.code, 'truncated');
    assert.equal(pos(e.error!.reply!), '1:55-1:55');
    assert.equal(pos(e.span), '1:1-1:55');
  });

  it('reads a valid call inside broken JSON', () => {
    const reply = '{"type": "tool_use", "name": "str_replace_based_edit_tool", "input": {"command": "str_replace", "path": "a.py", "old_str": "a"}';
    const { edits } = parse(reply);
    assert.deepEqual(codes(edits), [null]);
    assert.equal(pos(edits[0].span), '1:70-1:128');
  });
});

describe('str-replace helpers', () => {
  it('resolves paths: exact, ./, or an absolute path ending in exactly one given file', () => {
    const files = ['src/app.py', 'app.py', 'lib/x.ts'];
    assert.equal(resolvePath('src/app.py', files), 'src/app.py');
    assert.equal(resolvePath('./lib/x.ts', files), 'lib/x.ts');
    assert.equal(resolvePath('/repo/lib/x.ts', files), 'lib/x.ts');
    assert.equal(resolvePath('/repo/src/app.py', files), '/repo/src/app.py'); // ends in src/app.py and in app.py
    assert.equal(resolvePath('/repo/other.py', files), '/repo/other.py');
  });

  it('resolves a path differing from a given file only by case, ./ or \\ to that file, in relative and absolute paths', () => {
    const files = ['src/App.js', 'README.md', 'lib/x.ts'];
    assert.equal(resolvePath('src\\App.js', files), 'src/App.js');
    assert.equal(resolvePath('.\\SRC\\app.JS', files), 'src/App.js');
    assert.equal(resolvePath(' ./readme.md ', files), 'README.md');
    assert.equal(resolvePath('C:\\work\\proj\\src\\App.js', files), 'src/App.js');
    assert.equal(resolvePath('/home/me/proj/LIB/X.ts', files), 'lib/x.ts');
    assert.equal(resolvePath('.\\new\\file.ts', files), 'new/file.ts');
    assert.equal(resolvePath('a.txt', ['A.txt', 'a.TXT']), 'a.txt'); // two fit ignoring case: neither
  });

  it('splits text into lines', () => {
    assert.deepEqual(textLines('a\r\nb\nc\r'), ['a', 'b', 'c\r']);
    assert.deepEqual(textLines(''), ['']);
    assert.deepEqual(fileLines(''), []);
    assert.deepEqual(fileLines('\n'), ['']);
    assert.deepEqual(fileLines('a\n\n'), ['a', '']);
  });
});

describe('str-replace parser: arguments as JSON text, duplicate keys', () => {
  const held = (args: Record<string, unknown>) =>
    JSON.stringify({ type: 'function', function: { name: 'str_replace_based_edit_tool', arguments: JSON.stringify(args) } });

  it('reads "arguments" holding a call as JSON text like the call itself, its spans in the reply', () => {
    const reply = held({ command: 'str_replace', path: 'a.py', old_str: 'x = "1"\ny', new_str: 'z' });
    const { edits } = parse(reply);
    assert.deepEqual(codes(edits), [null]);
    assert.deepEqual(edits[0].old, ['x = "1"', 'y']);
    assert.deepEqual(edits[0].new, ['z']);
    // The first old line starts where its text is in the reply: after `\"old_str\": \"`.
    const first = edits[0].oldSpans![0];
    assert.equal(reply.slice(first.from, first.to), String.raw`x = \\\"1\\\"`);
    assert.equal(reply.slice(edits[0].oldSpans![1].from, edits[0].oldSpans![1].to), 'y');
  });

  it('reads the same call with its arguments as an object or as JSON text into the same edit', () => {
    const args = { command: 'insert', path: 'a.py', insert_line: 2, new_str: 'q\n' };
    const a = parse(held(args)).edits[0];
    const b = parse(JSON.stringify({ name: 'str_replace_based_edit_tool', arguments: args })).edits[0];
    assert.deepEqual([a.kind, a.file, a.cited, a.new, a.error], [b.kind, b.file, b.cited, b.new, b.error]);
  });

  it('reports arguments text that is not JSON as malformed, at the character of the reply where it breaks', () => {
    const reply = '{"name": "str_replace_editor", "arguments": "{\\"command\\": \\"create\\", \\"path\\": \\"n.py\\" \\"file_text\\": \\"\\"}"}';
    const { edits } = parse(reply);
    assert.deepEqual(codes(edits), ['malformed']);
    const at = edits[0].error!.reply!.from;
    assert.equal(reply.slice(at, at + 11), '\\"file_text');
    assert.match(edits[0].error!.message, /^line 1, column \d+: the JSON text in the tool call's "arguments" string is not valid JSON: expected "," or "}"/);
  });

  it('reports arguments text cut off as truncated; a string that holds no object is still malformed', () => {
    const cut = parse('{"name": "str_replace_editor", "arguments": "{\\"command\\": \\"create\\", \\"path\\""}').edits;
    assert.deepEqual(codes(cut), ['truncated']);
    const text = parse('{"name": "str_replace_editor", "arguments": "create a.py"}').edits;
    assert.deepEqual(codes(text), ['malformed']);
    assert.match(text[0].error!.message, /must be a JSON object, or a string holding one$/);
  });

  it('refuses a command object with a key twice, naming the key and pointing at its second copy', () => {
    const reply = '{"command": "str_replace", "path": "a.py", "old_str": "a", "new_str": "b", "new_str": "c"}';
    const { edits } = parse(reply);
    assert.deepEqual(codes(edits), ['malformed']);
    assert.equal(edits[0].error!.message, `line 1, column ${reply.lastIndexOf('"new_str"') + 1}: the key "new_str" appears twice in this str_replace call; give it once`);
    const held2 = parse(held({ command: 'str_replace', path: 'a.py', old_str: 'a' }).replace('\\"a\\"}', '\\"a\\", \\"path\\": \\"b.py\\"}')).edits;
    assert.deepEqual(codes(held2), ['malformed']);
    assert.match(held2[0].error!.message, /the key "path" appears twice/);
  });
});
