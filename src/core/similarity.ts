// String similarity, ported from CPython's Lib/difflib.py.
//
// `ratio()` is `difflib.SequenceMatcher(None, a, b).ratio()`, `quickRatio()`
// is `.quick_ratio()` and `realQuickRatio()` is `.real_quick_ratio()`, with
// the same results bit for bit (the final division is the same IEEE
// `2.0 * M / T` in both languages).
//
// Elements are Unicode code points, as in a Python `str`, NOT UTF-16 code
// units: an astral character such as an emoji is one element, so
// `ratio('😀', '😃')` is 0 (as in Python), not 0.5. A lone surrogate (which
// a JS string may hold) counts as one element of its own, just as a Python
// str holding '\ud800' treats it as one code point.
//
// Pure TypeScript: no DOM, no `node:` imports, no dependencies.

/**
 * Write the code points of `s` into `out` (which must hold at least
 * `s.length` entries) and return how many there are. Surrogate pairs become
 * one code point; lone surrogates are kept as they are.
 */
function codePointsInto(s: string, out: Int32Array): number {
  const n = s.length;
  let len = 0;
  for (let i = 0; i < n; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < n) {
      const d = s.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) {
        out[len++] = ((c - 0xd800) << 10) + (d - 0xdc00) + 0x10000;
        i++;
        continue;
      }
    }
    out[len++] = c;
  }
  return len;
}

/** Number of code points in `s` (a surrogate pair counts once). */
function codePointLength(s: string): number {
  const n = s.length;
  let len = n;
  for (let i = 0; i + 1 < n; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff) {
      const d = s.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) {
        len--;
        i++;
      }
    }
  }
  return len;
}

/** difflib's `_calculate_ratio`: `2.0 * matches / length`, or 1.0 when both are empty. */
function calculateRatio(matches: number, length: number): number {
  return length ? (2 * matches) / length : 1;
}

// ---------------------------------------------------------------------------
// Scratch buffers, reused across calls to avoid allocating per line. JS is
// single threaded and nothing here calls out, so sharing them is safe.

let aBuf = new Int32Array(64);
let bBuf = new Int32Array(64);

// CPython's find_longest_match keeps `j2len` (a dict j -> length of the
// longest junk-free match ending with a[i-1] and b[j]) and builds a fresh
// `newj2len` for every i. Here the two dicts are two typed arrays (indexed by
// j + 1 so that j - 1 = -1 needs no check) plus a "row stamp" per entry: an
// entry is present in the dict of row r iff its stamp is r. Rows are numbered
// from a counter that only grows, so nothing ever needs clearing (except on
// the practically unreachable int32 overflow, handled by a reset).
let lenA = new Int32Array(64);
let lenB = new Int32Array(64);
let stampA = new Int32Array(64);
let stampB = new Int32Array(64);
let stamp = 0;
const STAMP_LIMIT = 0x3fffffff;

function ensureJ2lenCapacity(size: number): void {
  if (lenA.length >= size) return;
  let cap = lenA.length;
  while (cap < size) cap *= 2;
  lenA = new Int32Array(cap);
  lenB = new Int32Array(cap);
  stampA = new Int32Array(cap);
  stampB = new Int32Array(cap);
  // Fresh arrays hold stamp 0, which is never a live row once stamp > 0.
}

/** Result slots of findLongestMatch (avoids allocating a tuple per call). */
let bestI = 0;
let bestJ = 0;

/**
 * CPython's `SequenceMatcher.find_longest_match(alo, ahi, blo, bhi)` with
 * `isjunk=None`: the longest block a[i:i+k] == b[j:j+k] inside the ranges,
 * earliest in a, then earliest in b, among blocks made of non-popular
 * elements (those still in `b2j`); then extended on both sides over equal
 * elements that are not junk (with isjunk=None, nothing is junk, so this
 * sucks up equal *popular* elements). CPython's second pair of loops, which
 * extends over equal *junk* elements, can never fire when `bjunk` is empty
 * and is therefore left out.
 *
 * Returns k and leaves i, j in `bestI`, `bestJ`. When nothing matches it
 * returns 0 with (i, j) = (alo, blo), as CPython does.
 */
function findLongestMatch(
  a: Int32Array,
  b: Int32Array,
  b2j: Map<number, number[]>,
  alo: number,
  ahi: number,
  blo: number,
  bhi: number,
): number {
  let besti = alo;
  let bestj = blo;
  let bestsize = 0;

  if (stamp + (ahi - alo) + 2 >= STAMP_LIMIT) {
    stampA.fill(0);
    stampB.fill(0);
    stamp = 0;
  }
  // Leave a gap so that the first row of this call does not see the last
  // row of the previous call as its predecessor (CPython starts from {}).
  stamp++;

  let prevLen = lenA;
  let prevStamp = stampA;
  let curLen = lenB;
  let curStamp = stampB;
  for (let i = alo; i < ahi; i++) {
    const prevRow = stamp;
    const row = ++stamp;
    const js = b2j.get(a[i]!);
    if (js !== undefined) {
      for (let t = 0, n = js.length; t < n; t++) {
        const j = js[t]!;
        if (j < blo) continue;
        if (j >= bhi) break;
        // j2len.get(j - 1, 0) + 1; slot j holds j - 1 (slots are j + 1).
        const k = (prevStamp[j] === prevRow ? prevLen[j]! : 0) + 1;
        curLen[j + 1] = k;
        curStamp[j + 1] = row;
        if (k > bestsize) {
          besti = i - k + 1;
          bestj = j - k + 1;
          bestsize = k;
        }
      }
    }
    // j2len = newj2len (even when a[i] is not in b2j: then it is {}).
    const tl = prevLen;
    prevLen = curLen;
    curLen = tl;
    const ts = prevStamp;
    prevStamp = curStamp;
    curStamp = ts;
  }

  // Extend the best by equal non-junk (here: popular, or simply not taken
  // into account yet) elements on each end.
  while (besti > alo && bestj > blo && a[besti - 1] === b[bestj - 1]) {
    besti--;
    bestj--;
    bestsize++;
  }
  while (
    besti + bestsize < ahi &&
    bestj + bestsize < bhi &&
    a[besti + bestsize] === b[bestj + bestsize]
  ) {
    bestsize++;
  }

  bestI = besti;
  bestJ = bestj;
  return bestsize;
}

/**
 * Total size M of CPython's `get_matching_blocks()` for a[0:la], b[0:lb].
 *
 * Same work queue as CPython (a LIFO list of (alo, ahi, blo, bhi) ranges
 * instead of recursion). CPython then sorts the blocks and merges adjacent
 * ones; neither step changes the sum of the sizes, so they are skipped.
 */
function matchedCount(a: Int32Array, la: number, b: Int32Array, lb: number): number {
  // __chain_b: b2j maps each element of b to its ascending indices.
  const b2j = new Map<number, number[]>();
  for (let j = 0; j < lb; j++) {
    const elt = b[j]!;
    const idxs = b2j.get(elt);
    if (idxs === undefined) b2j.set(elt, [j]);
    else idxs.push(j);
  }
  // isjunk is None: no junk. autojunk: for len(b) >= 200, elements that
  // occur more than len(b) // 100 + 1 times are "popular" and dropped from
  // b2j (they can still be matched by the extension step).
  if (lb >= 200) {
    const ntest = Math.floor(lb / 100) + 1;
    for (const [elt, idxs] of b2j) {
      if (idxs.length > ntest) b2j.delete(elt);
    }
  }

  ensureJ2lenCapacity(lb + 1);

  let matches = 0;
  const queue: number[] = [0, la, 0, lb];
  while (queue.length > 0) {
    const bhi = queue.pop()!;
    const blo = queue.pop()!;
    const ahi = queue.pop()!;
    const alo = queue.pop()!;
    const k = findLongestMatch(a, b, b2j, alo, ahi, blo, bhi);
    if (k) {
      const i = bestI;
      const j = bestJ;
      matches += k;
      if (alo < i && blo < j) queue.push(alo, i, blo, j);
      if (i + k < ahi && j + k < bhi) queue.push(i + k, ahi, j + k, bhi);
    }
  }
  return matches;
}

/**
 * `difflib.SequenceMatcher(None, a, b).ratio()`: 2*M/T where T is the total
 * number of code points in a and b and M the number of them in the
 * Ratcliff/Obershelp matching blocks, with difflib's autojunk heuristic (b of
 * 200+ code points: code points occurring more than len(b)//100+1 times in b
 * are "popular" and junked).
 *
 * Edge cases, all as in Python:
 * - both empty: 1.0; exactly one empty: 0.0.
 * - equal strings: 1.0 (returned without running the matcher; the matcher
 *   would reach 1.0 too, even when every element is popular, because the
 *   empty match at (0, 0) is extended over the equal elements).
 * - not symmetric: ratio(a, b) may differ from ratio(b, a), both because ties
 *   between longest blocks go to the earliest in a, and because autojunk only
 *   looks at b (e.g. ratio('tide', 'diet') = 0.25, ratio('diet', 'tide') = 0.5).
 * - autojunk can make ratio lower than the "true" longest-common-subsequence
 *   figure for long lines made mostly of one character (indentation spaces).
 * - code points, not UTF-16 units: ratio('a😀b', 'a😃b') is 2*2/6.
 */
export function ratio(a: string, b: string): number {
  if (a === b) return 1;
  if (a.length === 0 || b.length === 0) return 0;
  if (aBuf.length < a.length) aBuf = new Int32Array(Math.max(a.length, aBuf.length * 2));
  if (bBuf.length < b.length) bBuf = new Int32Array(Math.max(b.length, bBuf.length * 2));
  const la = codePointsInto(a, aBuf);
  const lb = codePointsInto(b, bBuf);
  return calculateRatio(matchedCount(aBuf, la, bBuf, lb), la + lb);
}

/**
 * difflib's `quick_ratio()`: an upper bound on `ratio()`, 2*M'/T where M' is
 * the size of the intersection of a and b seen as multisets of code points
 * (order ignored, no autojunk). 1.0 when both are empty. Symmetric.
 */
export function quickRatio(a: string, b: string): number {
  if (a.length === 0 && b.length === 0) return 1;
  const avail = new Map<number, number>();
  const nb = b.length;
  let lb = 0;
  for (let i = 0; i < nb; i++) {
    let c = b.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < nb) {
      const d = b.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) {
        c = ((c - 0xd800) << 10) + (d - 0xdc00) + 0x10000;
        i++;
      }
    }
    avail.set(c, (avail.get(c) ?? 0) + 1);
    lb++;
  }
  const na = a.length;
  let la = 0;
  let matches = 0;
  for (let i = 0; i < na; i++) {
    let c = a.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < na) {
      const d = a.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) {
        c = ((c - 0xd800) << 10) + (d - 0xdc00) + 0x10000;
        i++;
      }
    }
    la++;
    const n = avail.get(c);
    if (n !== undefined && n > 0) {
      avail.set(c, n - 1);
      matches++;
    }
  }
  return calculateRatio(matches, la + lb);
}

/**
 * difflib's `real_quick_ratio()`: 2*min(la, lb)/(la + lb) over code point
 * counts, an even cheaper upper bound on `quickRatio()` (and so on
 * `ratio()`). 1.0 when both are empty. Symmetric.
 */
export function realQuickRatio(a: string, b: string): number {
  const la = codePointLength(a);
  const lb = codePointLength(b);
  return calculateRatio(Math.min(la, lb), la + lb);
}
