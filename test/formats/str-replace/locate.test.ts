// The str_replace matcher: the unique substring, the whole lines it touches,
// the replacement lines, and what a failure reports.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { MatchOutcome } from '../../../src/core/match.ts';
import type { Edit } from '../../../src/core/types.ts';
import { locateStr, occurrences } from '../../../src/formats/str-replace/locate.ts';

const span = { from: 0, to: 0, start: { line: 1, column: 1 }, end: { line: 1, column: 1 } };

function call(oldStr: string, newStr: string): Edit {
  return {
    index: 0,
    kind: 'replace',
    file: 'f.txt',
    old: oldStr.split('\n'),
    new: newStr.split('\n'),
    meta: { command: 'str_replace', old_str: oldStr, new_str: newStr },
    span,
    warnings: [],
  };
}

const at = (lines: string[], oldStr: string, newStr: string): MatchOutcome => locateStr(lines, call(oldStr, newStr));

/** `start-end: new lines` of a placed outcome. */
function placed(o: MatchOutcome): string {
  assert.ok(o.ok, JSON.stringify(o));
  assert.equal(o.kind, 'exact');
  assert.equal(o.offset, null);
  assert.equal(o.similarity, 1);
  assert.deepEqual(o.differing, []);
  return `${o.start}-${o.end}: ${JSON.stringify(o.newLines)}`;
}

describe('str-replace locate: the replaced lines', () => {
  const lines = ['const a = 1; const b = 2;', 'const c = 3;', 'const d = 4;'];

  it('replaces within one line, keeping the rest of it', () => {
    assert.equal(placed(at(lines, 'b = 2', 'b = 20')), '0-1: ["const a = 1; const b = 20;"]');
  });

  it('takes every line an occurrence spans', () => {
    assert.equal(placed(at(lines, '2;\nconst c', '2; const c')), '0-2: ["const a = 1; const b = 2; const c = 3;"]');
  });

  it('removes whole lines when old_str ends with a line feed and new_str is empty', () => {
    assert.equal(placed(at(lines, 'const c = 3;\n', '')), '1-2: []');
    assert.equal(placed(at(lines, 'const c = 3;', '')), '1-2: [""]');
  });

  it('joins the next line when the occurrence ends a line and new_str does not', () => {
    assert.equal(placed(at(lines, 'const c = 3;\n', 'X')), '1-3: ["Xconst d = 4;"]');
  });

  it('matches a line feed after the last line even when the file has none, without joining past the end', () => {
    assert.equal(placed(at(lines, 'const d = 4;\n', 'D')), '2-3: ["D"]');
    assert.equal(placed(at(lines, 'const d = 4;\n', 'D\n')), '2-3: ["D"]');
  });

  it('reads CR LF in old_str and new_str as line feeds', () => {
    assert.equal(placed(at(lines, '2;\r\nconst c', '2;\r\nconst C')), '0-2: ["const a = 1; const b = 2;","const C = 3;"]');
  });

  it('leaves no text behind when everything is replaced', () => {
    assert.equal(placed(at(['x'], 'x', '')), '0-1: [""]');
    assert.equal(placed(at(['x'], 'x\n', '')), '0-1: []');
  });
});

describe('str-replace locate: failures', () => {
  it('lists every occurrence as an ambiguous candidate, counting overlaps', () => {
    const o = at(['x = 1', 'y = x = 1', '----'], 'x = 1', 'x = 2');
    assert.ok(!o.ok);
    assert.equal(o.code, 'ambiguous');
    assert.equal(o.kind, 'exact');
    assert.deepEqual(o.candidates.map((c) => [c.start, c.end, c.offset, c.similarity, c.lines]), [
      [1, 1, null, 1, ['x = 1']],
      [2, 2, null, 1, ['y = x = 1']],
    ]);
    assert.equal(o.message, 'old_str occurs 2 times in f.txt: at line 1, line 2; it must occur exactly once: add the lines around it to old_str until it does');
    const dashes = at(['Title', '----'], '---', '===');
    assert.ok(!dashes.ok);
    assert.equal(dashes.message, 'old_str occurs 2 times in f.txt: at line 2 (2 times); it must occur exactly once: add the lines around it to old_str until it does');
  });

  it('names the line most like old_str\'s first non-blank line when it does not occur', () => {
    const o = at(['def f():', '\treturn 1', 'def g():'], '\n    return 1\n', 'x');
    assert.ok(!o.ok);
    assert.equal(o.code, 'no-match');
    assert.deepEqual(o.candidates.map((c) => [c.start, c.end, c.lines]), [[1, 3, ['def f():', '\treturn 1', 'def g():']]]);
    assert.equal(
      o.message,
      'old_str does not occur in f.txt; the line most like its line 2 "    return 1" is line 2, "\\treturn 1" (similarity 0.783); old_str must match the file exactly, whitespace and indentation included',
    );
  });

  it('names the closest place of an old_str of several lines, anchored on its lines the file has as they are', () => {
    const file = ['def area(w, h):', '    s = w * h', '    return s', '', 'def perimeter(w, h):', '    s = 2 * (w + h)', '    return s', '', 'def main():', '    print(perimeter(2, 3))'];
    // Its first line is line 3's too; its other lines are at 8-10: the place is 7-10, not 3.
    const o = at(file, '    return s\n\ndef main():\n    print(perimiter(2, 3))\n', 'x\n');
    assert.ok(!o.ok);
    assert.deepEqual(o.candidates.map((c) => [c.start, c.end, c.differs]), [[7, 10, [false, false, false, true]]]);
    assert.equal(
      o.message,
      'old_str does not occur in f.txt; the closest place is lines 7-10 (similarity 0.963), where line 10 is "    print(perimeter(2, 3))" but old_str has "    print(perimiter(2, 3))"; old_str must match the file exactly, whitespace and indentation included',
    );
    // A leading line feed is a line boundary, not a line: the same place.
    const lead = at(file, '\n    return s\n\ndef main():\n    print(perimiter(2, 3))', 'x');
    assert.ok(!lead.ok);
    assert.deepEqual(lead.candidates.map((c) => [c.start, c.end]), [[7, 10]]);
  });

  it('falls back to the line most like the first non-blank line when no place shares half the text', () => {
    const o = at(['alpha', 'beta', 'gamma'], 'zzzz qqqq\nwwww vvvv\nbeta', 'x');
    assert.ok(!o.ok);
    assert.match(o.message ?? '', /^old_str does not occur in f\.txt; the line most like its first line "zzzz qqqq" is line \d/);
  });

  it('says so when the file is empty', () => {
    const o = at([], 'x', 'y');
    assert.ok(!o.ok);
    assert.deepEqual(o.candidates, []);
    assert.equal(o.message, 'old_str does not occur in f.txt, which is empty');
  });
});

describe('str-replace occurrences', () => {
  it('finds overlapping occurrences and stops at the limit', () => {
    assert.deepEqual(occurrences('aaaa', 'aa'), [0, 1, 2]);
    assert.deepEqual(occurrences('aaaa', 'aa', 2), [0, 1]);
    assert.deepEqual(occurrences('abc', ''), []);
  });
});
