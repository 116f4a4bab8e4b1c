// The text model (src/core/text.ts): lines, endings, BOM, final newline, and
// how splices keep all of them.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import {
  BOM,
  applySplices,
  dominantEol,
  formatText,
  lacksFinalNewline,
  newFile,
  parseText,
  setFinalNewline,
  spliceText,
  type Splice,
  type TextFile,
} from '../../src/core/text.ts';

/** Texts of up to `max` of the given lines, each ended by LF or CR LF, with or without a final newline and a BOM. */
const texts = (lines: string[], max: number) =>
  fc
    .tuple(
      fc.array(fc.constantFrom(...lines), { maxLength: max }),
      fc.array(fc.constantFrom<'\n' | '\r\n'>('\n', '\r\n'), { minLength: max, maxLength: max }),
      fc.boolean(),
      fc.boolean(),
    )
    .map(([ls, eols, final, bom]) => {
      let text = bom ? BOM : '';
      ls.forEach((l, i) => (text += l + (i < ls.length - 1 || final ? eols[i] : '')));
      return text;
    });

/** Parse, splice, format. */
function splice(text: string, ...splices: Splice[]): string {
  return formatText(applySplices(parseText(text), splices));
}

describe('parseText', () => {
  const cases: [string, TextFile][] = [
    ['', { bom: false, lines: [], eols: [] }],
    ['a', { bom: false, lines: ['a'], eols: [''] }],
    ['a\n', { bom: false, lines: ['a'], eols: ['\n'] }],
    ['a\r\n', { bom: false, lines: ['a'], eols: ['\r\n'] }],
    ['\n', { bom: false, lines: [''], eols: ['\n'] }],
    ['\r\n', { bom: false, lines: [''], eols: ['\r\n'] }],
    ['\n\n', { bom: false, lines: ['', ''], eols: ['\n', '\n'] }],
    ['a\nb', { bom: false, lines: ['a', 'b'], eols: ['\n', ''] }],
    ['a\r\nb\nc\r\n', { bom: false, lines: ['a', 'b', 'c'], eols: ['\r\n', '\n', '\r\n'] }],
    // A lone CR is content, wherever it is.
    ['\r', { bom: false, lines: ['\r'], eols: [''] }],
    ['a\rb\n', { bom: false, lines: ['a\rb'], eols: ['\n'] }],
    ['a\r', { bom: false, lines: ['a\r'], eols: [''] }],
    ['a\r\r\n', { bom: false, lines: ['a\r'], eols: ['\r\n'] }],
    ['\r\r\n\r', { bom: false, lines: ['\r', '\r'], eols: ['\r\n', ''] }],
    ['a\n\rb', { bom: false, lines: ['a', '\rb'], eols: ['\n', ''] }],
    // The BOM is kept out of the lines; only one is a BOM.
    [BOM, { bom: true, lines: [], eols: [] }],
    [BOM + 'a\n', { bom: true, lines: ['a'], eols: ['\n'] }],
    [BOM + '\n', { bom: true, lines: [''], eols: ['\n'] }],
    [BOM + BOM + 'a', { bom: true, lines: [BOM + 'a'], eols: [''] }],
    ['a' + BOM, { bom: false, lines: ['a' + BOM], eols: [''] }],
    // Other line separators are content.
    ['a\u2028b\u0085c\u000Bd\fe', { bom: false, lines: ['a\u2028b\u0085c\u000Bd\fe'], eols: [''] }],
    ['😀\n中文', { bom: false, lines: ['😀', '中文'], eols: ['\n', ''] }],
  ];
  for (const [text, expected] of cases) {
    it(`${JSON.stringify(text)}`, () => {
      assert.deepEqual(parseText(text), expected);
      assert.equal(formatText(expected), text);
    });
  }

  it('formatText(parseText(s)) is s for every string', () => {
    const unit = fc.constantFrom('a', 'b', ' ', '\t', '\n', '\r', '\r\n', BOM, '😀', '\uD800', '│');
    fc.assert(
      fc.property(fc.string({ unit, maxLength: 40 }), (s) => {
        const t = parseText(s);
        assert.equal(formatText(t), s);
        assert.equal(t.lines.length, t.eols.length);
        // Only the last line may lack an ending; no line holds a line feed or ends with CR LF.
        t.eols.forEach((e, i) => assert.ok(e !== '' || i === t.eols.length - 1));
        for (const l of t.lines) assert.ok(!l.includes('\n'));
        t.lines.forEach((l, i) => assert.ok(!(l.endsWith('\r') && t.eols[i] === '\n'), 'CR before LF belongs to the ending'));
      }),
      { numRuns: 1000 },
    );
  });

  it('lines are the text split at line endings', () => {
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom('a', '\n', '\r', ' '), maxLength: 30 }), (s) => {
        const expected = s === '' ? [] : s.replace(/\r\n/g, '\n').replace(/\n$/, '').split('\n');
        assert.deepEqual(parseText(s).lines, expected);
      }),
      { numRuns: 500 },
    );
  });
});

describe('lacksFinalNewline, dominantEol, newFile', () => {
  it('lacksFinalNewline', () => {
    assert.equal(lacksFinalNewline(parseText('')), false);
    assert.equal(lacksFinalNewline(parseText(BOM)), false);
    assert.equal(lacksFinalNewline(parseText('a')), true);
    assert.equal(lacksFinalNewline(parseText('a\n')), false);
    assert.equal(lacksFinalNewline(parseText('a\r\nb')), true);
    assert.equal(lacksFinalNewline(parseText('a\r')), true);
  });

  it('dominantEol: CRLF only when strictly more common than LF', () => {
    assert.equal(dominantEol(parseText('')), '\n');
    assert.equal(dominantEol(parseText('a')), '\n');
    assert.equal(dominantEol(parseText('a\r\n')), '\r\n');
    assert.equal(dominantEol(parseText('a\r\nb\n')), '\n'); // a tie is LF
    assert.equal(dominantEol(parseText('a\r\nb\nc\r\n')), '\r\n');
    assert.equal(dominantEol(parseText('a\r\nb\r\nc\nd\ne\n')), '\n');
    assert.equal(dominantEol(parseText('a\r\nb')), '\r\n'); // the missing ending does not count
    assert.equal(dominantEol(parseText('a\r\r')), '\n'); // lone CRs are content
  });

  it('newFile: LF endings, a final newline, no BOM, its own copy of the lines', () => {
    const lines = ['a', '', 'b'];
    const f = newFile(lines);
    assert.deepEqual(f, { bom: false, lines: ['a', '', 'b'], eols: ['\n', '\n', '\n'] });
    lines.push('c');
    assert.equal(f.lines.length, 3);
    assert.equal(formatText(newFile([])), '');
  });
});

describe('applySplices', () => {
  it('no splices: the text is unchanged, byte for byte', () => {
    for (const t of ['', BOM, 'a', 'a\r\nb\nc', 'x\r\n\r\n', BOM + 'a\rb\r\n']) assert.equal(splice(t), t);
  });

  it('lines outside the splices keep their own endings', () => {
    assert.equal(splice('a\r\nb\nc\r\nd\n', { from: 2, to: 3, lines: ['C'] }), 'a\r\nb\nC\r\nd\n');
    assert.equal(splice('a\nb\r\nc\n', { from: 0, to: 1, lines: [] }), 'b\r\nc\n');
  });

  it('new lines take the ending of the last line they replace', () => {
    // a CRLF line replaced in an LF-dominant file stays CRLF ...
    assert.equal(splice('a\nb\r\nc\nd\n', { from: 1, to: 2, lines: ['x', 'y'] }), 'a\nx\r\ny\r\nc\nd\n');
    // ... and the last of several replaced lines decides.
    assert.equal(splice('a\r\nb\nc\r\n', { from: 0, to: 2, lines: ['x', 'y', 'z'] }), 'x\ny\nz\nc\r\n');
  });

  it('new lines that replace nothing take the dominant ending', () => {
    assert.equal(splice('a\r\nb\r\nc\n', { from: 1, to: 1, lines: ['x'] }), 'a\r\nx\r\nb\r\nc\n');
    assert.equal(splice('a\r\nb\nc\n', { from: 1, to: 1, lines: ['x'] }), 'a\r\nx\nb\nc\n');
    assert.equal(splice('a\r\nb\r\n', { from: 2, to: 2, lines: ['x'] }), 'a\r\nb\r\nx\r\n');
  });

  it('an empty file gains LF lines and a final newline; the BOM stays', () => {
    assert.equal(splice('', { from: 0, to: 0, lines: ['a', 'b'] }), 'a\nb\n');
    assert.equal(splice(BOM, { from: 0, to: 0, lines: ['a'] }), BOM + 'a\n');
    assert.equal(splice('', { from: 0, to: 0, lines: [] }), '');
  });

  it('removing every line leaves the empty text (and the BOM)', () => {
    assert.equal(splice('a\nb\n', { from: 0, to: 2, lines: [] }), '');
    assert.equal(splice(BOM + 'a\r\nb', { from: 0, to: 2, lines: [] }), BOM);
  });

  it('a file without a final newline keeps that state', () => {
    // replacing the last line: the new last line has no ending, earlier new lines get the dominant one
    assert.equal(splice('a\r\nb', { from: 1, to: 2, lines: ['x', 'y'] }), 'a\r\nx\r\ny');
    assert.equal(splice('a\nb', { from: 1, to: 2, lines: ['x', 'y'] }), 'a\nx\ny');
    // appending: the old last line gains an ending, the new last line has none
    assert.equal(splice('a\r\nb', { from: 2, to: 2, lines: ['c'] }), 'a\r\nb\r\nc');
    assert.equal(splice('a', { from: 1, to: 1, lines: ['b', 'c'] }), 'a\nb\nc');
    // removing the last line: the line that becomes last loses its ending
    assert.equal(splice('a\r\nb\r\nc', { from: 2, to: 3, lines: [] }), 'a\r\nb');
    // inserting before the last line does not touch the final state
    assert.equal(splice('a\nb', { from: 1, to: 1, lines: ['x'] }), 'a\nx\nb');
    // a lone CR at the end is content, not an ending
    assert.equal(splice('a\r', { from: 1, to: 1, lines: ['b'] }), 'a\r\nb');
  });

  it('a file with a final newline keeps it', () => {
    assert.equal(splice('a\nb\n', { from: 1, to: 2, lines: [] }), 'a\n');
    assert.equal(splice('a\r\nb\r\n', { from: 1, to: 2, lines: ['x', 'y'] }), 'a\r\nx\r\ny\r\n');
  });

  it('splices apply against the original indexes, in any order', () => {
    const t = 'l1\nl2\nl3\nl4\nl5\n';
    const s1: Splice = { from: 0, to: 1, lines: ['A'] };
    const s2: Splice = { from: 2, to: 4, lines: [] };
    const s3: Splice = { from: 5, to: 5, lines: ['end'] };
    const expected = 'A\nl2\nl5\nend\n';
    assert.equal(splice(t, s1, s2, s3), expected);
    assert.equal(splice(t, s3, s2, s1), expected);
    assert.equal(splice(t, s2, s3, s1), expected);
  });

  it('insertions at one point keep their given order; an insertion before a replacement at the same line comes first', () => {
    const t = 'a\nb\n';
    assert.equal(splice(t, { from: 1, to: 1, lines: ['x'] }, { from: 1, to: 1, lines: ['y'] }), 'a\nx\ny\nb\n');
    assert.equal(splice(t, { from: 1, to: 1, lines: ['y'] }, { from: 1, to: 1, lines: ['x'] }), 'a\ny\nx\nb\n');
    assert.equal(splice(t, { from: 1, to: 2, lines: ['B'] }, { from: 1, to: 1, lines: ['x'] }), 'a\nx\nB\n');
  });

  it('the BOM is kept whatever the splices do', () => {
    assert.equal(splice(BOM + 'a\n', { from: 0, to: 1, lines: ['b'] }), BOM + 'b\n');
    assert.equal(splice(BOM + 'a', { from: 0, to: 0, lines: ['z'] }), BOM + 'z\na');
  });

  it('does not modify its input', () => {
    const f = parseText('a\nb');
    const copy = structuredClone(f);
    applySplices(f, [{ from: 0, to: 2, lines: ['x'] }]);
    assert.deepEqual(f, copy);
  });

  it('property: the spliced lines are the expected lines, endings follow the rules', () => {
    const textArb = texts(['a', 'b', '', ' x ', '\r', 'y\r'], 8);
    fc.assert(
      fc.property(textArb, fc.nat(), fc.nat({ max: 3 }), fc.array(fc.constantFrom('n1', 'n2', ''), { maxLength: 3 }), (text, at, count, lines) => {
        const f = parseText(text);
        const from = at % (f.lines.length + 1);
        const to = Math.min(f.lines.length, from + count);
        const out = applySplices(f, [{ from, to, lines }]);
        assert.deepEqual(out.lines, [...f.lines.slice(0, from), ...lines, ...f.lines.slice(to)]);
        assert.equal(out.bom, f.bom);
        assert.equal(out.lines.length, out.eols.length);
        // Final-newline state is kept (when any line is left; an empty file gains a final newline).
        if (out.lines.length > 0) assert.equal(lacksFinalNewline(out), lacksFinalNewline(f));
        // Untouched lines keep their endings, except the old and the new last line.
        for (let i = 0; i < from; i++) {
          if (i === f.lines.length - 1 || i === out.lines.length - 1) continue;
          assert.equal(out.eols[i], f.eols[i]);
        }
        for (let i = to; i < f.lines.length - 1; i++) assert.equal(out.eols[i - to + from + lines.length], f.eols[i]);
        // New lines (except a new last line) end like the last replaced line, else (nothing
        // replaced, or the whole file replaced) the dominant ending.
        const own = to > from && !(from === 0 && to === f.lines.length) ? f.eols[to - 1] : '';
        const expected = own === '' ? dominantEol(f) : own;
        for (let k = 0; k < lines.length; k++) {
          if (from + k === out.lines.length - 1) continue;
          assert.equal(out.eols[from + k], expected);
        }
        // Only the last line may lack an ending.
        out.eols.forEach((e, i) => assert.ok(e !== '' || i === out.eols.length - 1));
      }),
      { numRuns: 1000 },
    );
  });
});

describe('spliceText', () => {
  it('writes what applySplices and formatText write, for every file that ends with a newline', () => {
    const textArb = texts(['a', 'b', '', ' x ', '\r', 'y\r', 'long line of text'], 12);
    // Non-overlapping splices (insertions may share a point with each other and with a replacement's start), in any order.
    const splicesArb = fc.array(
      fc.tuple(
        fc.nat(),
        fc.nat({ max: 3 }),
        fc.array(fc.constantFrom('n1', 'n2', '', 'n\r'), { maxLength: 3 }),
        fc.constantFrom<'\n' | '\r\n' | undefined>(undefined, undefined, '\n', '\r\n'),
      ),
      { maxLength: 5 },
    );
    let fast = 0;
    fc.assert(
      fc.property(textArb, splicesArb, fc.nat(), (text, raw, shuffle) => {
        const f = parseText(text);
        const n = f.lines.length;
        const splices: Splice[] = [];
        let pos = 0;
        for (const [gap, count, lines, eol] of raw) {
          const from = Math.min(n, pos + (gap % 3));
          const to = Math.min(n, from + count);
          splices.push(eol ? { from, to, lines, eol } : { from, to, lines });
          pos = to;
        }
        // In any order (a rotation of the list).
        const k = shuffle % (splices.length + 1);
        const given = [...splices.slice(k), ...splices.slice(0, k)];
        const expected = formatText(applySplices(f, given));
        const got = spliceText(text, f, given);
        if (n === 0 || lacksFinalNewline(f)) assert.equal(got, null);
        else {
          fast++;
          assert.equal(got, expected);
        }
      }),
      { numRuns: 3000 },
    );
    assert.ok(fast > 500, `the fast path was taken ${fast} times`);
  });

  it('keeps the BOM, CRLF endings and lone CRs byte for byte', () => {
    const text = `${BOM}a\r\nb\r\nc\rd\r\ne\n`;
    const f = parseText(text);
    const splices = [{ from: 1, to: 2, lines: ['B'] }, { from: 3, to: 3, lines: ['new'] }];
    assert.equal(spliceText(text, f, splices), `${BOM}a\r\nB\r\nc\rd\r\nnew\r\ne\n`);
    assert.equal(spliceText(text, f, splices), formatText(applySplices(f, splices)));
  });
});

describe('setFinalNewline', () => {
  const set = (text: string, on: boolean) => {
    const f = parseText(text);
    setFinalNewline(f, on);
    return formatText(f);
  };
  it('adds the dominant ending or removes the last one', () => {
    assert.equal(set('a\r\nb', true), 'a\r\nb\r\n');
    assert.equal(set('a', true), 'a\n');
    assert.equal(set('a\nb\n', true), 'a\nb\n');
    assert.equal(set('a\r\nb\r\n', false), 'a\r\nb');
    assert.equal(set('a', false), 'a');
    assert.equal(set('', true), '');
    assert.equal(set(BOM, false), BOM);
  });
});
