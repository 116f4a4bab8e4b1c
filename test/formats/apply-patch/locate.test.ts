// The apply_patch chunk matcher: anchors, the four comparisons in order,
// ambiguity, end of file, insertions, and what a failure reports.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { MatchOutcome } from '../../../src/core/match.ts';
import type { Edit, EngineOptions } from '../../../src/core/types.ts';
import { locatePatch, normalise } from '../../../src/formats/apply-patch/locate.ts';

const span = { from: 0, to: 0, start: { line: 1, column: 1 }, end: { line: 1, column: 1 } };

function chunk(old: string[], anchors: string[] = [], eof = false): Edit {
  return { index: 0, kind: 'replace', file: 'f.py', old, new: [], meta: { anchors, eof }, span, warnings: [] };
}

const at = (lines: string[], old: string[], anchors: string[] = [], eof = false, options: EngineOptions = {}): MatchOutcome =>
  locatePatch(lines, chunk(old, anchors, eof), options);

/** The placed outcome in short: kind start-end similarity differing. */
function placed(o: MatchOutcome): string {
  assert.ok(o.ok, `expected a place, got ${JSON.stringify(o)}`);
  return `${o.kind} ${o.start}-${o.end} ${o.similarity} [${o.differing.join(',')}] offset=${o.offset}`;
}

describe('apply-patch locate: comparisons in order', () => {
  it('finds exact lines anywhere in the file', () => {
    assert.equal(placed(at(['a', 'b', 'c', 'd'], ['c', 'd'])), 'exact 2-4 1 [] offset=null');
  });

  it('prefers a single exact place over more places found ignoring whitespace', () => {
    assert.equal(placed(at(['    x = 1', 'x = 1', 'x = 1 '], ['x = 1'])), 'exact 1-2 1 [] offset=null');
  });

  it('ignores trailing whitespace second', () => {
    const o = at(['# T  ', 'b'], ['# T', 'b']);
    // The line differs (0 is listed) but only by trailing blanks: it counts 1, as in every format.
    assert.equal(placed(o), 'whitespace 0-2 1 [0] offset=null');
  });

  it('lowers the similarity only for lines that differ by more than trailing whitespace', () => {
    const o = at(['    x = 1  ', '    y = 2'], ['x = 1', 'y = 2']);
    assert.match(placed(o), /^whitespace 0-2 0\.\d+ \[0,1\] offset=null$/);
  });

  it('ignores surrounding whitespace third', () => {
    const o = at(['if x:', '    y()'], ['if x:', 'y()']);
    assert.ok(o.ok);
    assert.equal(o.kind, 'whitespace');
    assert.deepEqual(o.differing, [1]);
    assert.equal(o.similarity, 2 * 4 / (8 + 4));
  });

  it('normalises typographic punctuation last (fuzzy)', () => {
    const o = at(['s = “a—b”'], ['s = "a-b"']);
    assert.ok(o.ok);
    assert.equal(o.kind, 'fuzzy');
    assert.deepEqual(o.differing, [0]);
    assert.equal(o.similarity, 2 * 7 / 20);
  });

  it('drops the whitespace and fuzzy comparisons when the options say so', () => {
    assert.equal(at(['x  '], ['x'], [], false, { whitespace: false }).ok, false);
    assert.equal(at(['“x”'], ['"x"'], [], false, { fuzzy: false }).ok, false);
    assert.equal(at(['“x”'], ['"x"'], [], false, { whitespace: false }).ok, true);
    assert.equal(at(['“x” '], ['"x"'], [], false, { whitespace: false }).ok, false);
  });
});

describe('apply-patch locate: ambiguity and failures', () => {
  it('fails with every place when the deciding comparison finds several', () => {
    const o = at(['a', 'x', 'b', 'x '], ['x ']);
    assert.equal(o.ok, true); // exact once at line 4
    const amb = at(['a', 'x', 'b', 'x'], ['x']);
    assert.ok(!amb.ok);
    assert.equal(amb.code, 'ambiguous');
    assert.equal(amb.kind, 'exact');
    assert.deepEqual(amb.candidates.map((c) => [c.start, c.end, c.offset, c.similarity]), [
      [2, 2, null, 1],
      [4, 4, null, 1],
    ]);
    assert.equal(
      amb.message,
      "the chunk's context and removed lines (1 line) match 2 places in f.py, compared exactly: line 2, line 4; add context lines, or an @@ line naming the enclosing function or class, until they match one place",
    );
  });

  it('counts overlapping places', () => {
    const o = at(['-', '-', '-'], ['-', '-']);
    assert.ok(!o.ok);
    assert.deepEqual(o.candidates.map((c) => c.start), [1, 2]);
  });

  it('names the closest place when nothing fits', () => {
    const o = at(['def f():', '    return 1', 'def g():', '    return 2'], ['def g():', '    return 3']);
    assert.ok(!o.ok);
    assert.equal(o.code, 'no-match');
    assert.deepEqual(o.candidates.map((c) => [c.start, c.end, c.differs]), [[3, 4, [false, true]]]);
    assert.equal(
      o.message,
      'the chunk\'s context and removed lines are not in f.py; the closest place is lines 3-4 (similarity 0.923), where line 4 is "    return 2" but the chunk has "    return 3"; copy them exactly from the file',
    );
  });

  it('says so when the file is empty', () => {
    const o = at([], ['x']);
    assert.ok(!o.ok);
    assert.deepEqual(o.candidates, []);
    assert.equal(o.message, "f.py is empty, so the chunk's context and removed lines cannot be found in it");
  });
});

describe('apply-patch locate: anchors, end of file, insertions', () => {
  const lines = ['class A:', '    def run(self):', '        return 0', 'class B:', '    def run(self):', '        return 0'];

  it('searches the chunk from the anchor down', () => {
    assert.equal(placed(at(lines, ['        return 0'], ['class B:'])), 'exact 5-6 1 [] offset=null');
    assert.equal(placed(at(lines, ['        return 0'], ['class B:', 'def run(self):'])), 'exact 5-6 1 [] offset=null');
  });

  it('still fails when the chunk fits twice below the anchor', () => {
    const o = at(lines, ['        return 0'], ['class A:']);
    assert.ok(!o.ok);
    assert.equal(o.code, 'ambiguous');
    assert.match(o.message!, / after the @@ line at line 1, compared exactly: line 3, line 6;/);
  });

  it('lets a chunk start at its anchor line', () => {
    assert.equal(placed(at(lines, ['    def run(self):', '        return 0'], ['class B:', '    def run(self):'])), 'exact 4-6 1 [] offset=null');
  });

  it('fails when an anchor is not found below the one before it', () => {
    const o = at(lines, ['x'], ['class B:', 'class A:']);
    assert.ok(!o.ok);
    assert.equal(o.code, 'no-match');
    // No line below is even half like it: none is named.
    assert.equal(
      o.message,
      'the @@ line "class A:" is not in f.py after line 4; an @@ line must copy a line of the file (a function or class header) that comes before the chunk',
    );
    const near = at(lines, ['x'], ['class A:', 'class Bx:']);
    assert.ok(!near.ok);
    assert.equal(
      near.message,
      'the @@ line "class Bx:" is not in f.py after line 1; the most similar line is 4: "class B:" (similarity 0.947); an @@ line must copy a line of the file (a function or class header) that comes before the chunk',
    );
  });

  it('inserts a chunk without old lines below its anchor, or at the end of the file', () => {
    assert.equal(placed(at(lines, [], ['class A:'])), 'exact 1-1 1 [] offset=null');
    assert.equal(placed(at(lines, [])), 'exact 6-6 1 [] offset=null');
    assert.equal(placed(at(lines, [], ['class A:'], true)), 'exact 6-6 1 [] offset=null');
    assert.equal(placed(at([], [])), 'exact 0-0 1 [] offset=null');
  });

  it('compares an *** End of File chunk with the last lines only', () => {
    assert.equal(placed(at(['}', 'x', '}'], ['}'], [], true)), 'exact 2-3 1 [] offset=null');
    const o = at(['}', 'x'], ['}'], [], true);
    assert.ok(!o.ok);
    assert.deepEqual(o.candidates.map((c) => [c.start, c.end]), [[2, 2]]);
  });
});

describe('apply-patch normalise', () => {
  it('maps the reference punctuation to ASCII and trims', () => {
    assert.equal(normalise('\u00A0 “a” ‘b’ a‐b‑c‒d–e—f―g−h\u3000'), '"a" \'b\' a-b-c-d-e-f-g-h');
    assert.equal(normalise('x\u2009=\u202F1'), 'x = 1');
  });
});
