// Known values computed with CPython 3.11's difflib:
//   s = difflib.SequenceMatcher(None, a, b)
//   (s.ratio(), s.quick_ratio(), s.real_quick_ratio())
// Comments give len(a)/len(b) in code points and, when autojunk changes the
// result, what SequenceMatcher(None, a, b, autojunk=False).ratio() would be.

import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { quickRatio, ratio, realQuickRatio } from '../../src/core/similarity.ts';
import { prng } from '../prng.ts';

const EPS = 1e-12;

function close(actual: number, expected: number, what: string): void {
  assert.ok(Math.abs(actual - expected) <= EPS, `${what}: got ${actual}, expected ${expected}`);
}

type Vector = [name: string, a: string, b: string, ratio: number, quickRatio: number, realQuickRatio: number];

// prettier-ignore
const VECTORS: Vector[] = [
  ['both empty', '', '', 1.0, 1.0, 1.0], // len 0/0
  ['empty vs line', '', 'abc\n', 0.0, 0.0, 0.0], // len 0/4
  ['line vs empty', 'abc\n', '', 0.0, 0.0, 0.0], // len 4/0
  ['identical line', 'const x = 1;\n', 'const x = 1;\n', 1.0, 1.0, 1.0], // len 13/13
  ['difflib doc example abcd/bcde', 'abcd', 'bcde', 0.75, 0.75, 1.0], // len 4/4
  ['find_longest_match doc example', ' abcd', 'abcd abcd', 0.7142857142857143, 0.7142857142857143, 0.7142857142857143], // len 5/9
  ['ab vs acab', 'ab', 'acab', 0.6666666666666666, 0.6666666666666666, 0.6666666666666666], // len 2/4
  ['x = 1 vs x = 2', 'x = 1\n', 'x = 2\n', 0.8333333333333334, 0.8333333333333334, 1.0], // len 6/6
  ['trailing spaces before newline', 'def foo():\n', 'def foo():  \n', 0.9166666666666666, 0.9166666666666666, 0.9166666666666666], // len 11/13
  ['tab vs 4 spaces', '\treturn x\n', '    return x\n', 0.782608695652174, 0.782608695652174, 0.8695652173913043], // len 10/13
  ['2 tabs vs 8 spaces', '\t\tif (ok) {\n', '        if (ok) {\n', 0.6666666666666666, 0.6666666666666666, 0.8], // len 12/18
  ['4 vs 8 spaces indent', '    if x:\n', '        if x:\n', 0.8333333333333334, 0.8333333333333334, 0.8333333333333334], // len 10/14
  ['40-char call missing its ;', '  const total = computeTotal(items, 2);\n', '  const total = computeTotal(items, 2)\n', 0.9873417721518988, 0.9873417721518988, 0.9873417721518988], // len 40/39
  ['single vs double quotes (45 chars)', "  const label = 'Hello, world' + name + '!';\n", '  const label = "Hello, world" + name + "!";\n', 0.9111111111111111, 0.9111111111111111, 1.0], // len 45/45
  ['missing final newline', 'hello world', 'hello world\n', 0.9565217391304348, 0.9565217391304348, 0.9565217391304348], // len 11/12
  ['CRLF vs LF', 'foo();\r\n', 'foo();\n', 0.9333333333333333, 0.9333333333333333, 0.9333333333333333], // len 8/7
  ['newline vs spaces + newline', '\n', '    \n', 0.3333333333333333, 0.3333333333333333, 0.3333333333333333], // len 1/5
  ['completely different', 'abcdef', 'uvwxyz', 0.0, 0.0, 1.0], // len 6/6
  ['one char differs', 'a', 'b', 0.0, 0.0, 1.0], // len 1/1
  ['tide/diet (asymmetric by tie-break)', 'tide', 'diet', 0.25, 1.0, 1.0], // len 4/4
  ['diet/tide (asymmetric by tie-break)', 'diet', 'tide', 0.5, 1.0, 1.0], // len 4/4
  ['rename identifier', 'let count = 0;\n', 'let total = 0;\n', 0.8, 0.8, 1.0], // len 15/15
  ['reordered args', 'f(a, b, c)\n', 'f(c, b, a)\n', 0.8181818181818182, 1.0, 1.0], // len 11/11
  ['comment appended', 'x = compute(y)\n', 'x = compute(y)  # fixed\n', 0.7692307692307693, 0.7692307692307693, 0.7692307692307693], // len 15/24
  ['accents', 'héllo wörld\n', 'hello world\n', 0.8333333333333334, 0.8333333333333334, 1.0], // len 12/12
  ['combining vs precomposed', 'e\u0301', '\u00e9', 0.0, 0.0, 0.6666666666666666], // len 2/1
  ['CJK', '日本語のテキスト\n', '日本語テキスト\n', 0.9411764705882353, 0.9411764705882353, 0.9411764705882353], // len 9/8
  ['different emoji', '😀', '😃', 0.0, 0.0, 1.0], // len 1/1
  ['emoji between letters', 'a😀b', 'a😃b', 0.6666666666666666, 0.6666666666666666, 1.0], // len 3/3
  ['emoji string literal', 'const s = "😀👍";\n', 'const s = "😀";\n', 0.967741935483871, 0.967741935483871, 0.967741935483871], // len 16/15
  ['repeated emoji', '👍👍👍', '👍👍', 0.8, 0.8, 0.8], // len 3/2
  ['ZWJ family', '👨‍👩‍👧\n', '👨‍👩‍👦\n', 0.8333333333333334, 0.8333333333333334, 1.0], // len 6/6
  ['long indentation, autojunk on spaces', ' '.repeat(200) + 'return x\n', ' '.repeat(196) + 'return x;\n', 0.9879518072289156, 0.9879518072289156, 0.9927710843373494], // len 209/206
  ['short a, long b', 'x = 1\n', ' '.repeat(250) + 'x = 1\n', 0.04580152671755725, 0.04580152671755725, 0.04580152671755725], // len 6/256
  ['long a, short b', ' '.repeat(250) + 'x = 1\n', 'x = 1\n', 0.04580152671755725, 0.04580152671755725, 0.04580152671755725], // len 256/6
  ['autojunk: swapped blocks of popular chars', 'a'.repeat(150) + 'b'.repeat(100), 'b'.repeat(100) + 'a'.repeat(150), 0.0, 1.0, 1.0], // len 250/250, autojunk=False: 0.6
  ['autojunk: ab* vs ba*', 'ab'.repeat(150), 'ba'.repeat(150), 0.0, 1.0, 1.0], // len 300/300, autojunk=False: 0.9966666666666667
  ['identical, all popular', 'a'.repeat(300), 'a'.repeat(300), 1.0, 1.0, 1.0], // len 300/300
  ['all popular, different lengths', 'a'.repeat(250), 'a'.repeat(300), 0.9090909090909091, 0.9090909090909091, 0.9090909090909091], // len 250/300
  ['almost identical, all popular', ' '.repeat(300) + '\n', ' '.repeat(299) + '\n', 0.9983361064891847, 0.9983361064891847, 0.9983361064891847], // len 301/300
  ['autojunk asymmetry: short rule vs long rule', '#' + '-'.repeat(50), '-'.repeat(200), 0.0, 0.398406374501992, 0.4063745019920319], // len 51/200, autojunk=False: 0.398406374501992
  ['autojunk asymmetry: long rule vs short rule', '-'.repeat(200), '#' + '-'.repeat(50), 0.398406374501992, 0.398406374501992, 0.4063745019920319], // len 200/51
  ['long rules, x moved', '#' + '-'.repeat(100) + 'x' + '-'.repeat(120) + '\n', '#' + '-'.repeat(120) + 'x' + '-'.repeat(100) + '\n', 0.9103139013452914, 1.0, 1.0], // len 223/223
  ['long tabs', '\t'.repeat(210) + 'x', '\t'.repeat(205) + 'y', 0.9832134292565947, 0.9832134292565947, 0.988009592326139], // len 211/206
  ['long line vs its trimmed self', ' '.repeat(220) + '}\n', '}\n', 0.017857142857142856, 0.017857142857142856, 0.017857142857142856], // len 222/2
  ['long data line, one number changed', 'const data = [' + Array.from({ length: 60 }, (_, i) => i * 7).join(', ') + '];\n', 'const data = [' + Array.from({ length: 60 }, (_, i) => (i === 30 ? 999 : i * 7)).join(', ') + '];\n', 0.9899328859060402, 0.9899328859060402, 1.0], // len 298/298
  ['long emoji line', '😀'.repeat(120) + 'x' + '😀'.repeat(100), '😀'.repeat(100) + 'y' + '😀'.repeat(120), 0.45248868778280543, 0.995475113122172, 1.0], // len 221/221, autojunk=False: 0.5429864253393665
];

describe('similarity: values from CPython difflib', () => {
  for (const [name, a, b, r, q, rq] of VECTORS) {
    it(name, () => {
      close(ratio(a, b), r, 'ratio');
      close(quickRatio(a, b), q, 'quickRatio');
      close(realQuickRatio(a, b), rq, 'realQuickRatio');
    });
  }

  it('has the expected number of vectors', () => {
    assert.equal(VECTORS.length, 47);
  });
});

describe('similarity: bounds and symmetry', () => {
  it('realQuickRatio >= quickRatio >= ratio on every vector', () => {
    for (const [name, a, b] of VECTORS) {
      const r = ratio(a, b);
      const q = quickRatio(a, b);
      const rq = realQuickRatio(a, b);
      assert.ok(q >= r, `${name}: quickRatio ${q} < ratio ${r}`);
      assert.ok(rq >= q, `${name}: realQuickRatio ${rq} < quickRatio ${q}`);
      assert.ok(r >= 0 && rq <= 1, `${name}: out of [0, 1]`);
    }
  });

  it('quickRatio and realQuickRatio are symmetric', () => {
    for (const [name, a, b] of VECTORS) {
      assert.equal(quickRatio(a, b), quickRatio(b, a), name);
      assert.equal(realQuickRatio(a, b), realQuickRatio(b, a), name);
    }
  });

  it('ratio is not symmetric (tie-breaking), as in difflib', () => {
    assert.equal(ratio('tide', 'diet'), 0.25);
    assert.equal(ratio('diet', 'tide'), 0.5);
  });

  it('ratio is not symmetric (autojunk only looks at b), as in difflib', () => {
    const short = '#' + '-'.repeat(50);
    const long = '-'.repeat(200);
    // b = long: '-' is popular, the junk-free match is empty at (0, 0) and
    // cannot be extended because a[0] is '#'.
    assert.equal(ratio(short, long), 0);
    // b = short (< 200 code points): no autojunk, 50 dashes match.
    close(ratio(long, short), 100 / 251, 'ratio(long, short)');
  });

  it('identical strings give 1, both empty give 1, one empty gives 0', () => {
    for (const s of ['', 'a', 'x = 1\n', ' '.repeat(500), '😀'.repeat(300)]) {
      assert.equal(ratio(s, s), 1);
      assert.equal(quickRatio(s, s), 1);
      assert.equal(realQuickRatio(s, s), 1);
    }
    assert.equal(ratio('', 'a'), 0);
    assert.equal(ratio('a', ''), 0);
    assert.equal(quickRatio('', 'a'), 0);
    assert.equal(realQuickRatio('a', ''), 0);
  });

  it('counts code points, not UTF-16 units', () => {
    // As UTF-16 these would share a high surrogate and score 0.5.
    assert.equal(ratio('😀', '😃'), 0);
    assert.equal(quickRatio('😀', '😃'), 0);
    // 2 code points + 1 code point, not 4 + 2 units.
    close(realQuickRatio('😀😀', '😀'), 2 / 3, 'realQuickRatio');
  });
});

// A plain transliteration of CPython's SequenceMatcher (dicts as Maps, the
// recursion as a list used as a stack, arrays of code points), to check the
// optimised implementation on many random inputs, including long ones where
// autojunk kicks in and the scratch buffers get reused and regrown.
function referenceRatio(aStr: string, bStr: string): number {
  const a = Array.from(aStr);
  const b = Array.from(bStr);
  const b2j = new Map<string, number[]>();
  b.forEach((elt, i) => {
    const idxs = b2j.get(elt);
    if (idxs) idxs.push(i);
    else b2j.set(elt, [i]);
  });
  if (b.length >= 200) {
    const ntest = Math.floor(b.length / 100) + 1;
    const popular = [...b2j].filter(([, idxs]) => idxs.length > ntest).map(([elt]) => elt);
    for (const elt of popular) b2j.delete(elt);
  }
  const findLongestMatch = (alo: number, ahi: number, blo: number, bhi: number): [number, number, number] => {
    let besti = alo;
    let bestj = blo;
    let bestsize = 0;
    let j2len = new Map<number, number>();
    for (let i = alo; i < ahi; i++) {
      const newj2len = new Map<number, number>();
      for (const j of b2j.get(a[i]!) ?? []) {
        if (j < blo) continue;
        if (j >= bhi) break;
        const k = (j2len.get(j - 1) ?? 0) + 1;
        newj2len.set(j, k);
        if (k > bestsize) [besti, bestj, bestsize] = [i - k + 1, j - k + 1, k];
      }
      j2len = newj2len;
    }
    while (besti > alo && bestj > blo && a[besti - 1] === b[bestj - 1]) [besti, bestj, bestsize] = [besti - 1, bestj - 1, bestsize + 1];
    while (besti + bestsize < ahi && bestj + bestsize < bhi && a[besti + bestsize] === b[bestj + bestsize]) bestsize++;
    return [besti, bestj, bestsize];
  };
  const queue: [number, number, number, number][] = [[0, a.length, 0, b.length]];
  let matches = 0;
  while (queue.length) {
    const [alo, ahi, blo, bhi] = queue.pop()!;
    const [i, j, k] = findLongestMatch(alo, ahi, blo, bhi);
    if (k) {
      matches += k;
      if (alo < i && blo < j) queue.push([alo, i, blo, j]);
      if (i + k < ahi && j + k < bhi) queue.push([i + k, ahi, j + k, bhi]);
    }
  }
  const total = a.length + b.length;
  return total ? (2 * matches) / total : 1;
}

describe('similarity: agrees with a plain transliteration of difflib', () => {
  // Deterministic PRNG so failures are reproducible.
  const rand = prng(0x5eed);
  const alphabets = [' ', 'ab', ' \tx=1;\n', 'abcdefghij(){}; ', ' 😀é\n'];
  const randomString = (alphabet: string[], len: number): string => {
    let s = '';
    for (let i = 0; i < len; i++) s += alphabet[Math.floor(rand() * alphabet.length)];
    return s;
  };
  const mutate = (s: string, alphabet: string[]): string => {
    const cps = Array.from(s);
    const edits = 1 + Math.floor(rand() * 5);
    for (let e = 0; e < edits; e++) {
      const p = Math.floor(rand() * (cps.length + 1));
      const op = Math.floor(rand() * 3);
      const c = alphabet[Math.floor(rand() * alphabet.length)]!;
      if (op === 0) cps.splice(p, 0, c);
      else if (op === 1) cps.splice(p, 1);
      else cps.splice(p, 1, c);
    }
    return cps.join('');
  };

  it('on 600 random pairs (short and 200+ code points)', () => {
    for (let n = 0; n < 600; n++) {
      const alphabet = Array.from(alphabets[n % alphabets.length]!);
      const len = rand() < 0.5 ? Math.floor(rand() * 40) : 180 + Math.floor(rand() * 120);
      const a = randomString(alphabet, len);
      const b = rand() < 0.7 ? mutate(a, alphabet) : randomString(alphabet, Math.floor(rand() * 300));
      const expected = referenceRatio(a, b);
      assert.equal(ratio(a, b), expected, `ratio(${JSON.stringify(a)}, ${JSON.stringify(b)})`);
      assert.equal(ratio(b, a), referenceRatio(b, a), `ratio(${JSON.stringify(b)}, ${JSON.stringify(a)})`);
      assert.ok(quickRatio(a, b) >= expected);
      assert.ok(realQuickRatio(a, b) >= quickRatio(a, b));
    }
  });
});
