// Placing @BETWEEN@ edits (src/formats/between/locate.ts).

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { locateBetween } from '../../../src/formats/between/locate.ts';
import type { Edit } from '../../../src/core/types.ts';

const span = { from: 0, to: 0, start: { line: 1, column: 1 }, end: { line: 1, column: 1 } };
const edit = (a: string, b: string, lines: string[] = ['N']): Edit => ({
  index: 0,
  kind: 'replace',
  file: 'f.txt',
  old: [a, b],
  new: lines,
  span,
  warnings: [],
});

const FILE = ['alpha', '  beta', 'gamma', '}', 'delta', '}', 'omega'];

describe('locateBetween', () => {
  it('places the lines strictly between the anchors, exact', () => {
    assert.deepEqual(locateBetween(FILE, edit('alpha', 'gamma'), {}), {
      ok: true,
      kind: 'exact',
      start: 1,
      end: 2,
      newLines: ['N'],
      offset: null,
      similarity: 1,
      differing: [],
    });
  });

  it('places an insertion between adjacent anchors, and replaces several lines', () => {
    const adjacent = locateBetween(FILE, edit('alpha', 'beta', []), {});
    assert.equal(adjacent.ok, true);
    if (adjacent.ok) assert.deepEqual([adjacent.start, adjacent.end, adjacent.newLines, adjacent.kind], [1, 1, [], 'whitespace']);
    const wide = locateBetween(FILE, edit('alpha', 'delta', ['x', 'y']), {});
    if (wide.ok) assert.deepEqual([wide.start, wide.end, wide.newLines], [1, 4, ['x', 'y']]);
    else assert.fail('expected a place');
  });

  it('compares trimmed lines and reports whitespace with the differing anchors', () => {
    const r = locateBetween(FILE, edit(' beta ', 'gamma'), {});
    assert.equal(r.ok, true);
    if (r.ok) {
      assert.equal(r.kind, 'whitespace');
      assert.deepEqual(r.differing, [0]);
      assert.deepEqual([r.start, r.end], [2, 2]);
    }
  });

  it('compares exactly with the whitespace option off', () => {
    const r = locateBetween(FILE, edit('beta', 'gamma'), { whitespace: false });
    assert.equal(r.ok, false);
    if (!r.ok) {
      assert.equal(r.code, 'no-match');
      assert.equal(
        r.message,
        'the first anchor "beta" is not a line of f.txt; closest is line 2 "  beta" (similarity 1.000); quote a line exactly as it is in the file',
      );
    }
  });

  it('fails no-match for a missing anchor, with the closest line as candidate', () => {
    const r = locateBetween(FILE, edit('alpha', 'gamma!'), {});
    assert.equal(r.ok, false);
    if (!r.ok) {
      assert.equal(r.code, 'no-match');
      assert.equal(r.candidates.length, 1);
      assert.equal(r.candidates[0].start, 3);
      assert.deepEqual(r.candidates[0].lines, ['gamma']);
      assert.match(r.message!, /^the second anchor "gamma!" is not a line of f\.txt \(compared without the white space around it\); closest is line 3 "gamma" \(similarity 0\.923\)/);
    }
  });

  it('fails no-match in an empty file', () => {
    const r = locateBetween([], edit('a', 'b'), {});
    assert.equal(!r.ok && r.code, 'no-match');
    if (!r.ok) {
      assert.deepEqual(r.candidates, []);
      assert.match(r.message!, /f\.txt is empty/);
    }
  });

  it('fails ambiguous listing every place of every repeated anchor', () => {
    const r = locateBetween(FILE, edit('delta', '}'), {});
    assert.equal(r.ok, false);
    if (!r.ok) {
      assert.equal(r.code, 'ambiguous');
      assert.deepEqual(r.candidates.map((c) => [c.start, c.end, c.lines]), [
        [4, 4, ['}']],
        [6, 6, ['}']],
      ]);
      assert.equal(
        r.message,
        'the second anchor "}" occurs 2 times in f.txt (lines 4, 6); each anchor must be a line that occurs once in the file: quote a nearby line that does',
      );
    }
  });

  it('fails no-match when the anchors are in the wrong order or the same line', () => {
    const r = locateBetween(FILE, edit('gamma', 'alpha'), {});
    assert.equal(!r.ok && r.code, 'no-match');
    if (!r.ok) assert.match(r.message!, /the second anchor "alpha" \(line 1\) comes before the first anchor "gamma" \(line 3\)/);
    const s = locateBetween(FILE, edit('omega', ' omega'), {});
    assert.equal(!s.ok && s.code, 'no-match');
    if (!s.ok) assert.match(s.message!, /both anchors are line 7 of f\.txt/);
  });
});
