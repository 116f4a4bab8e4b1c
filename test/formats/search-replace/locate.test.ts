import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Edit, EngineOptions } from '../../../src/core/types.ts';
import { elisionPieces, locateSearch, occurrences } from '../../../src/formats/search-replace/locate.ts';

const SPAN = { from: 0, to: 0, start: { line: 1, column: 1 }, end: { line: 1, column: 1 } };

function edit(old: string[], replacement: string[]): Edit {
  return { index: 0, kind: 'replace', file: 'f.py', old, new: replacement, span: SPAN, warnings: [] };
}

const run = (lines: string[], old: string[], replacement: string[], options: EngineOptions = {}) =>
  locateSearch(lines, edit(old, replacement), options);

describe('exact and whitespace-tolerant', () => {
  it('places a unique exact match, with no offset', () => {
    assert.deepEqual(run(['a', 'b', 'c'], ['b', 'c'], ['B']), {
      ok: true,
      kind: 'exact',
      start: 1,
      end: 3,
      offset: null,
      similarity: 1,
      differing: [],
      message: 'applied at lines 2-3, matched exactly',
    });
  });

  it('ignores trailing whitespace on the second rung', () => {
    const r = run(['a  ', 'b'], ['a', 'b'], ['x']);
    assert.equal(r.ok, true);
    assert.ok(r.ok);
    assert.deepEqual([r.kind, r.start, r.end, r.differing], ['whitespace', 0, 2, [0]]);
    assert.equal((r as { message?: string }).message, 'applied at lines 1-2, matched ignoring trailing whitespace on 1 line');
  });

  it('lists every place of a repeated SEARCH', () => {
    const r = run(['x', 'y', 'x', 'z', 'x'], ['x'], ['w']);
    assert.equal(r.ok, false);
    assert.ok(!r.ok);
    assert.equal(r.code, 'ambiguous');
    assert.equal(r.kind, 'exact');
    assert.deepEqual(r.candidates.map((c) => [c.start, c.end]), [[1, 1], [3, 3], [5, 5]]);
    assert.equal(r.message, 'the SEARCH lines occur 3 times in f.py, at line 1, line 3 and line 5; include more lines in the SEARCH so that it matches one place only');
  });
});

describe('uniform indent shift', () => {
  const file = ['class A:', '    def f(self):', '        return 1', '', '    def g(self):', '        return 2'];

  it('adds the file indentation to SEARCH and REPLACE alike', () => {
    const r = run(file, ['def f(self):', '    return 1'], ['def f(self):', '', '    return 10']);
    assert.deepEqual(r, {
      ok: true,
      kind: 'whitespace',
      start: 1,
      end: 3,
      offset: null,
      similarity: 26 / 30, // difflib ratio of "def f(self):" against "    def f(self):" (and of the second pair)
      differing: [0, 1],
      newLines: ['    def f(self):', '', '        return 10'],
      message:
        'applied at lines 2-3 with the indentation changed: the SEARCH lines are indented with "" where the file has "    ", "    " where the file has "        ", and the REPLACE lines were indented as the SEARCH lines show the file\'s indentation',
    });
  });

  it('removes indentation the file does not have, and converts spaces to tabs, the deeper lines too', () => {
    const r = run(['fn x() {', '\tgo();', '}'], ['    go();'], ['    go(1);', '        more();']);
    assert.ok(r.ok);
    assert.deepEqual(r.newLines, ['\tgo(1);', '\t\tmore();']);
    assert.equal(r.kind, 'whitespace');
  });

  it('fails rather than mix: eight spaces cited for one tab, and a line four spaces deeper', () => {
    const r = run(['fn x() {', '\tgo();', '}'], ['        go();'], ['        go(1);', '            more();']);
    assert.ok(!r.ok);
    assert.equal(r.code, 'no-match');
    assert.match(r.message ?? '', /shifted by the same amount it would be "\\t    ", read with spaces changed to tabs it has no place/);
  });

  it('shifts by the same amount when the cited lines show one depth only and no other unit, as aider does', () => {
    const r = run(['def f():', '    go()'], [' go()'], [' if a:', '     stop()']);
    assert.ok(r.ok, JSON.stringify(r));
    assert.deepEqual(r.newLines, ['    if a:', '        stop()']);
    assert.equal(r.kind, 'whitespace');
  });

  it('fails when one depth allows a shift and a change of unit that write other bytes', () => {
    // Four spaces for the file's two: two spaces missing, or four spaces a level for two.
    const r = run(['def f():', '  go()'], ['    go()'], ['    if a:', '        stop()']);
    assert.ok(!r.ok);
    assert.equal(r.code, 'no-match');
    assert.match(r.message ?? '', /read shifted by the same amount it would be "      ", read with 4 spaces a level changed to the file's 2 it would be "    "/);
  });

  it('converts four-space units to the file\'s two when the cited lines show two depths', () => {
    const r = run(['def f():', '  if a:', '    go()'], ['    if a:', '        go()'], ['    if a:', '        if b:', '            stop()']);
    assert.ok(r.ok, JSON.stringify(r));
    assert.deepEqual(r.newLines, ['  if a:', '    if b:', '      stop()']);
  });

  it('needs one and the same shift for every line', () => {
    const r = run(['  a', '    b'], ['a', 'b'], ['c']);
    assert.equal(r.ok, false);
    assert.ok(!r.ok);
    assert.equal(r.code, 'no-match');
  });

  it('is ambiguous when the shift fits two places', () => {
    const r = run(['if a:', '    run()', 'if b:', '        run()'], ['run()'], ['stop()']);
    assert.ok(!r.ok);
    assert.equal(r.code, 'ambiguous');
    assert.equal(r.kind, 'whitespace');
    assert.deepEqual(r.candidates.map((c) => c.start), [2, 4]);
  });

  it('keeps REPLACE lines already written at the file\'s indentation: the shift is never applied twice', () => {
    const r = run(file, ['def f(self):', '    return 1'], ['    def f(self):', '        return 10']);
    assert.ok(r.ok);
    assert.equal(r.newLines, undefined);
    assert.equal(
      (r as { message?: string }).message,
      'applied at lines 2-3 with the indentation changed: the SEARCH lines are indented with "" where the file has "    ", "    " where the file has "        ", and the REPLACE lines, already indented like the file, were kept as written',
    );
  });

  it('fails when the REPLACE lines are indented like neither the SEARCH nor the file', () => {
    const r = run(file, ['def f(self):', '    return 1'], ['  def f(self):', '      return 10']);
    assert.ok(!r.ok);
    assert.equal(r.code, 'no-match');
    assert.deepEqual(r.candidates.map((c) => [c.start, c.end]), [[2, 3]]);
    assert.equal(
      r.message,
      'the SEARCH lines match lines 2-3 of f.py only with their indentation changed (the SEARCH lines are indented with "" where the file has "    ", "    " where the file has "        "), and the REPLACE lines are indented with "  " at the least, like neither the SEARCH lines ("") nor the file ("    "), so where they belong is unclear; nothing was changed: indent the REPLACE lines with 4 spaces per level, as the file is, or copy the SEARCH lines exactly as the file has them, indentation included',
    );
  });

  it('takes REPLACE lines that are all blank as written', () => {
    const r = run(file, ['def f(self):', '    return 1'], ['', '  ']);
    assert.ok(r.ok);
    assert.equal(r.newLines, undefined);
  });

  it('is off with `whitespace: false`', () => {
    const r = run(['    x = 1'], ['x = 1'], ['x = 2'], { whitespace: false });
    assert.ok(!r.ok);
    assert.equal(r.code, 'no-match');
    assert.match(r.message!, /^the SEARCH lines do not match f\.py: not exactly; closest is line 1/);
  });
});

describe('elision', () => {
  const file = ['def main():', '    a()', '    b()', '    c()', '    end()', 'main()'];

  it('splits at lines that are exactly `...`', () => {
    assert.deepEqual(elisionPieces(['x', '...', ' ...', '...', 'y']), [['x'], [' ...'], ['y']]);
    assert.deepEqual(occurrences(['a', 'b', 'a', 'b'], ['a', 'b']), [0, 2]);
    assert.deepEqual(occurrences(['a'], []), []);
  });

  it('replaces each piece and keeps the lines between', () => {
    const r = run(file, ['def main():', '...', '    end()'], ['def main(v):', '...', '    end()', '    log()']);
    assert.deepEqual(r, {
      ok: true,
      kind: 'exact',
      start: 0,
      end: 5,
      offset: null,
      similarity: 1,
      differing: [],
      newLines: ['def main(v):', '    a()', '    b()', '    c()', '    end()', '    log()'],
      message: 'applied at lines 1-5 by elision: 2 SEARCH pieces matched at line 1, line 5, and the 3 lines between them were kept',
    });
  });

  it('skips empty pieces at the ends', () => {
    const r = run(file, ['...', '    b()', '...'], ['...', '    B()', '...']);
    assert.ok(r.ok);
    assert.deepEqual([r.start, r.end, r.newLines], [2, 3, ['    B()']]);
  });

  it('fails when the `...` lines do not pair up', () => {
    const r = run(file, ['def main():', '...', '    end()'], ['def main(v):']);
    assert.ok(!r.ok);
    assert.equal(r.code, 'no-match');
    assert.equal(
      r.message,
      'the SEARCH lines are not in f.py as written, and cannot be matched piece by piece: the SEARCH has 1 `...` line and the REPLACE 0 `...` lines; they must pair up',
    );
    assert.equal(r.candidates.length, 1);
  });

  it('fails when pieces are out of order', () => {
    const r = run(file, ['    end()', '...', 'def main():'], ['x', '...', 'y']);
    assert.ok(!r.ok);
    assert.equal(r.code, 'no-match');
    assert.equal(r.message, 'piece 2 of the SEARCH (split at `...` lines) is at line 1 of f.py, before the piece above it ends; the pieces must be in file order and must not overlap');
  });

  it('fails when an empty SEARCH piece has REPLACE lines', () => {
    const r = run(file, ['...', '    b()'], ['    first()', '...', '    b()']);
    assert.ok(!r.ok);
    assert.equal(r.code, 'no-match');
    assert.match(r.message!, /^SEARCH piece 1 \(between `\.\.\.` lines\) is empty but its REPLACE piece has 1 line/);
  });

  it('names a piece that is not in the file, and one that occurs twice', () => {
    const missing = run(file, ['def main():', '...', '    zzz()'], ['x', '...', 'y']);
    assert.ok(!missing.ok);
    assert.equal(
      missing.message,
      'the SEARCH lines are not in f.py as written, and its piece 2 of 2 (split at `...` lines) is not in f.py either: "    zzz()"; copy each piece exactly as the file has it',
    );
    const twice = run(['a', 'x', 'b', 'x'], ['a', '...', 'x'], ['A', '...', 'x']);
    assert.ok(!twice.ok);
    assert.equal(twice.code, 'ambiguous');
    assert.deepEqual(twice.candidates.map((c) => c.start), [2, 4]);
  });
});

describe('no match', () => {
  it('names the closest place and the first differing line', () => {
    const r = run(['x = 1', 'y = 2'], ['x = 3'], ['x = 4']);
    assert.ok(!r.ok);
    assert.equal(r.code, 'no-match');
    assert.deepEqual(r.candidates.map((c) => [c.start, c.end]), [[1, 1]]);
    assert.equal(
      r.message,
      'the SEARCH lines do not match f.py: not exactly, not ignoring trailing whitespace, not with the indentation changed; closest is line 1 (similarity 0.833), where line 1 is "x = 1" but the SEARCH has "x = 3"; copy the lines exactly as the file has them',
    );
  });

  it('says when the REPLACE lines are already there', () => {
    const r = run(['a', 'new', 'c'], ['old'], ['new']);
    assert.ok(!r.ok);
    assert.match(r.message!, /; note that the REPLACE lines are already in f\.py at line 2: was this edit applied already\?$/);
  });

  it('names no closest place when none shares half the text', () => {
    const r = run(['alpha = 1', 'beta = 2'], ['completely_different_text()'], ['x']);
    assert.ok(!r.ok);
    assert.deepEqual(r.candidates, []);
    assert.equal(
      r.message,
      'the SEARCH lines do not match f.py: not exactly, not ignoring trailing whitespace, not with the indentation changed, and no stretch of it comes close (none shares half the text); copy the lines exactly as the file has them',
    );
  });

  it('explains an empty file', () => {
    const r = run([], ['x'], ['y']);
    assert.ok(!r.ok);
    assert.deepEqual(r.candidates, []);
    assert.match(r.message!, /f\.py is empty: to add lines to it, leave the SEARCH section empty/);
  });
});
