import { test } from 'node:test';
import assert from 'node:assert/strict';
import { applyChanges, exactDiff, lineInB, textDelta, type ExactChange, type ExactDiff, type Region } from '../../src/text-delta/exact.ts';
import { chunkSpans, lineIndex, spanLines } from '../../src/playground/result/chunking.ts';
import { applySplices, formatText, parseText, setFinalNewline, spliceText } from '../../src/core/text.ts';
import { prng } from '../prng.ts';

/** What the engine writes for these regions (its own splicing code), with their new lines. */
function engineApply(before: string, regions: { region: Region; lines: string[] }[], finalNewline?: boolean): string {
  const file = parseText(before);
  const splices = regions.map(({ region, lines }) => ({ from: region.start - 1, to: region.end, lines }));
  const fast = finalNewline === undefined ? spliceText(before, file, splices) : null;
  if (fast !== null) return fast;
  const spliced = applySplices(file, splices);
  if (finalNewline !== undefined) setFinalNewline(spliced, finalNewline);
  return formatText(spliced);
}

/** The lines the view marks on each side, as sets of 1-based numbers. */
function marked(before: string, after: string, diff: ExactDiff): { a: Set<number>; b: Set<number> } {
  const ia = lineIndex(before);
  const ib = lineIndex(after);
  const a = new Set<number>();
  const b = new Set<number>();
  for (const span of chunkSpans(diff.changes, ia, ib)) {
    const la = spanLines(span.fromA, span.toA, ia);
    const lb = spanLines(span.fromB, span.toB, ib);
    for (let n = la.start; n <= la.end; n++) a.add(n);
    for (let n = lb.start; n <= lb.end; n++) b.add(n);
  }
  return { a, b };
}

function checkShape(changes: ExactChange[], before: string, after: string): void {
  let pa = 0;
  let pb = 0;
  for (const c of changes) {
    assert.ok(c.fromA >= pa && c.fromB >= pb, `changes in order: ${JSON.stringify(changes)}`);
    assert.ok(c.toA >= c.fromA && c.toB >= c.fromB);
    assert.ok(c.toA > c.fromA || c.toB > c.fromB, 'no empty change');
    assert.ok(c.fromA - pa === c.fromB - pb, 'the text between two changes is as long on both sides');
    assert.equal(before.slice(pa, c.fromA), after.slice(pb, c.fromB), 'the text between two changes is the same');
    pa = c.toA;
    pb = c.toB;
  }
  assert.ok(pa <= before.length && pb <= after.length);
  assert.equal(applyChanges(before, after, changes), after);
}

const sorted = (s: Set<number>) => [...s].sort((x, y) => x - y);
const range = (start: number, end: number) => Array.from({ length: Math.max(0, end - start + 1) }, (_, i) => start + i);
const lines = (text: string, from: number, to: number) => text.split('\n').slice(from - 1, to);

test('a replaced line: only that line is marked, with the changed word highlighted', () => {
  const before = 'function f() {\n  const foo = 1;\n  return foo;\n}\n';
  const after = 'function f() {\n  const foo = 2;\n  return foo;\n}\n';
  const diff = exactDiff(before, after, [{ start: 2, end: 2, newLines: 1 }]);
  assert.equal(diff.verified, true);
  assert.deepEqual(diff.regions, [{ a: { start: 2, end: 2 }, b: { start: 2, end: 2 } }]);
  checkShape(diff.changes, before, after);
  const one = before.indexOf('1;');
  assert.deepEqual(diff.changes, [{ fromA: one, toA: one + 1, fromB: one, toB: one + 1 }]);
  const m = marked(before, after, diff);
  assert.deepEqual(sorted(m.a), [2]);
  assert.deepEqual(sorted(m.b), [2]);
});

test('"}" inserted next to "}" is marked where the region says, not on its twin', () => {
  const before = 'if (a) {\n  if (b) {\n    c();\n  }\n}\n';
  for (const at of [4, 5, 6]) {
    const after = engineApply(before, [{ region: { start: at, end: at - 1, newLines: 1 }, lines: ['}'] }]);
    const diff = exactDiff(before, after, [{ start: at, end: at - 1, newLines: 1 }]);
    assert.equal(diff.verified, true);
    checkShape(diff.changes, before, after);
    const m = marked(before, after, diff);
    assert.deepEqual(sorted(m.a), [], `insert before line ${at}: nothing marked before`);
    assert.deepEqual(sorted(m.b), [at], `insert before line ${at}: line ${at} marked after`);
    assert.deepEqual(diff.regions[0].b, { start: at, end: at });
  }
  // Two "}" replaced by three, and an empty line inserted between two empty lines.
  const before2 = 'x\n\n\ny\n}\n}\n';
  const regions: Region[] = [
    { start: 3, end: 2, newLines: 1 },
    { start: 5, end: 6, newLines: 3 },
  ];
  const after2 = engineApply(before2, [
    { region: regions[0], lines: [''] },
    { region: regions[1], lines: ['}', '}', '}'] },
  ]);
  const diff2 = exactDiff(before2, after2, regions);
  checkShape(diff2.changes, before2, after2);
  const m2 = marked(before2, after2, diff2);
  assert.deepEqual(sorted(m2.a), []);
  // The empty line is the third; of the three "}" (lines 6-8) the line diff keeps two.
  assert.equal(m2.b.has(3), true);
  assert.equal(m2.b.has(2) || m2.b.has(4), false);
  assert.equal(sorted(m2.b).filter((n) => n >= 6).length, 1);
});

test('context lines inside a region (a udiff hunk) and a whole-file rewrite stay unmarked', () => {
  const before = range(1, 200).map((n) => `line ${n}`).join('\n') + '\n';
  const newLines = range(1, 200).map((n) => (n === 50 || n === 120 || n === 121 ? `changed ${n}` : `line ${n}`));
  const after = newLines.join('\n') + '\n';
  const diff = exactDiff(before, after, [{ start: 1, end: 200, newLines: 200 }]);
  assert.equal(diff.verified, true);
  checkShape(diff.changes, before, after);
  const m = marked(before, after, diff);
  assert.deepEqual(sorted(m.a), [50, 120, 121]);
  assert.deepEqual(sorted(m.b), [50, 120, 121]);
});

test('CRLF lines: the CR stays in the text, only the changed line is marked', () => {
  const before = 'a\r\nb\r\nc\r\n';
  const after = engineApply(before, [{ region: { start: 2, end: 2, newLines: 2 }, lines: ['B', 'B2'] }]);
  assert.equal(after, 'a\r\nB\r\nB2\r\nc\r\n');
  const diff = exactDiff(before, after, [{ start: 2, end: 2, newLines: 2 }]);
  assert.equal(diff.verified, true);
  checkShape(diff.changes, before, after);
  const m = marked(before, after, diff);
  assert.deepEqual(sorted(m.a), [2]);
  assert.deepEqual(sorted(m.b), [2, 3]);
});

test('no final newline: an edit at the end gives the old last line its ending (marked, as git does)', () => {
  const before = 'a\nb';
  const after = engineApply(before, [{ region: { start: 3, end: 2, newLines: 1 }, lines: ['c'] }]);
  assert.equal(after, 'a\nb\nc');
  const diff = exactDiff(before, after, [{ start: 3, end: 2, newLines: 1 }]);
  assert.equal(diff.verified, true);
  assert.deepEqual(diff.changes, [{ fromA: 3, toA: 3, fromB: 3, toB: 5 }]);
  assert.deepEqual(diff.regions[0], { a: { start: 3, end: 2 }, b: { start: 3, end: 3 } });
  const m = marked(before, after, diff);
  assert.deepEqual(sorted(m.a), [2]);
  assert.deepEqual(sorted(m.b), [2, 3]);

  // CRLF without a final newline: the old last line gains a CR LF.
  const before2 = 'a\r\nb';
  const after2 = engineApply(before2, [{ region: { start: 3, end: 2, newLines: 1 }, lines: ['c'] }]);
  assert.equal(after2, 'a\r\nb\r\nc');
  const diff2 = exactDiff(before2, after2, [{ start: 3, end: 2, newLines: 1 }]);
  assert.equal(diff2.verified, true);
  checkShape(diff2.changes, before2, after2);
  assert.deepEqual(sorted(marked(before2, after2, diff2).a), [2]);

  // A final newline added by the edit: the last line is the one marked.
  const before3 = 'x\ny\nz';
  const after3 = engineApply(before3, [{ region: { start: 1, end: 1, newLines: 1 }, lines: ['X'] }], true);
  assert.equal(after3, 'X\ny\nz\n');
  const diff3 = exactDiff(before3, after3, [{ start: 1, end: 1, newLines: 1 }]);
  assert.equal(diff3.verified, true);
  checkShape(diff3.changes, before3, after3);
  const m3 = marked(before3, after3, diff3);
  assert.deepEqual(sorted(m3.a), [1, 3]);
  assert.deepEqual(sorted(m3.b), [1, 3]);
});

test('a new file, a deleted file, and regions that do not fit (a line diff, never a wrong result)', () => {
  const created = exactDiff('', 'x\ny\n', [{ start: 1, end: 0, newLines: 2 }]);
  assert.equal(created.verified, true);
  assert.deepEqual(created.changes, [{ fromA: 0, toA: 0, fromB: 0, toB: 4 }]);
  assert.deepEqual(created.regions[0].b, { start: 1, end: 2 });
  assert.deepEqual(sorted(marked('', 'x\ny\n', created).b), [1, 2]);

  const deleted = exactDiff('x\ny\n', '', [{ start: 1, end: 2, newLines: 0 }]);
  assert.equal(deleted.verified, true);
  assert.deepEqual(deleted.changes, [{ fromA: 0, toA: 4, fromB: 0, toB: 0 }]);
  assert.deepEqual(sorted(marked('x\ny\n', '', deleted).a), [1, 2]);

  const unknown = exactDiff('x\ny\n', '', []);
  assert.equal(unknown.verified, false);
  assert.deepEqual(unknown.changes, [{ fromA: 0, toA: 4, fromB: 0, toB: 0 }]);

  const before = 'a\nb\nc\nd\n';
  const after = 'a\nB\nc\nD\n';
  for (const wrong of [
    [{ start: 3, end: 3, newLines: 1 }],
    [{ start: 2, end: 2, newLines: 2 }],
    [{ start: 2, end: 9, newLines: 1 }],
    [{ start: 2, end: 3, newLines: 1 }, { start: 3, end: 4, newLines: 1 }],
    [{ start: 0.5, end: 1, newLines: -1 }],
  ]) {
    const diff = exactDiff(before, after, wrong);
    assert.equal(diff.verified, false, JSON.stringify(wrong));
    assert.equal(diff.regions.length, wrong.length);
    checkShape(diff.changes, before, after);
    const m = marked(before, after, diff);
    assert.deepEqual(sorted(m.a), [2, 4]);
    assert.deepEqual(sorted(m.b), [2, 4]);
  }
});

// ---------------------------------------------------------------- property

const VOCAB = ['}', '', '  return x;', '{', '  }', 'end', '\t', ' '];

interface Planned {
  region: Region;
  lines: string[];
  /** Lines of A the view must mark / must not mark; lines of B likewise (null: not checked exactly). */
  exact: { markA: number[]; keepA: number[]; markB: number[]; keepB: number[] } | null;
}

function randomCase(rand: () => number, caseNo: number) {
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(rand() * xs.length)];
  let fresh = 0;
  const unique = () => `fresh ${caseNo}.${fresh++}`;
  const n = Math.floor(rand() * 40);
  const oldLines = range(1, n).map(() => (rand() < 0.6 ? pick(VOCAB) : `l${Math.floor(rand() * 6)}`));
  const style = rand();
  const eol = (i: number) => (style < 0.5 ? '\n' : style < 0.8 ? '\r\n' : rand() < 0.5 ? '\n' : '\r\n');
  let before = oldLines.map((l, i) => l + eol(i)).join('');
  if (n > 0 && oldLines[n - 1] !== '' && rand() < 0.3) before = before.replace(/\r?\n$/, '');
  if (rand() < 0.05) before = '\ufeff' + before;

  // Non-overlapping regions in line order, then given in a shuffled order.
  const plans: Planned[] = [];
  let line = 1;
  while (line <= n + 1 && plans.length < 6) {
    line += Math.floor(rand() * 6);
    if (line > n + 1) break;
    const len = Math.min(Math.floor(rand() * 4), n + 1 - line);
    const start = line;
    const end = line + len - 1;
    const kind = rand();
    let newLines: string[];
    let exact: Planned['exact'] = null;
    if (kind < 0.25 && len > 0) {
      // Every old line replaced by new, unique ones.
      newLines = range(1, 1 + Math.floor(rand() * 3)).map(unique);
      exact = { markA: range(start, end), keepA: [], markB: [], keepB: [] };
    } else if (kind < 0.45 && len > 0) {
      // A hunk: its first line kept as context, the rest replaced by unique lines.
      newLines = [oldLines[start - 1], ...range(1, Math.floor(rand() * 3)).map(unique)];
      exact = { markA: range(start + 1, end), keepA: [start], markB: [], keepB: [] };
    } else if (kind < 0.7) {
      // Lines like their neighbours ("}" next to "}", empty next to empty) inserted.
      const like = oldLines[start - 1] ?? oldLines[start - 2] ?? '}';
      newLines = range(1, 1 + Math.floor(rand() * 2)).map(() => like);
      plans.push({ region: { start, end: start - 1, newLines: newLines.length }, lines: newLines, exact: { markA: [], keepA: [], markB: [], keepB: [] } });
      line = start + (rand() < 0.5 ? 0 : 1);
      continue;
    } else {
      newLines = range(1, Math.floor(rand() * 4)).map(() => pick(VOCAB));
      if (len === 0 && newLines.length === 0) newLines = [pick(VOCAB)];
    }
    plans.push({ region: { start, end, newLines: newLines.length }, lines: newLines, exact });
    line = end + 1 + (rand() < 0.3 ? 0 : 1);
  }
  const flip = rand() < 0.1 ? rand() < 0.5 : undefined;
  const after = engineApply(before, plans, flip);
  // Given in a shuffled order, but for insertions at one place: those keep
  // the engine's order (the order of the edits), as the page passes them.
  const keys = plans.map(() => rand());
  const order = plans.map((_, i) => i).sort((i, j) => keys[i] - keys[j]);
  const place = (i: number) => `${plans[i].region.start}:${plans[i].region.end}`;
  for (const key of new Set(order.map(place))) {
    const slots = order.flatMap((i, k) => (place(i) === key ? [k] : []));
    const ties = slots.map((k) => order[k]).sort((x, y) => x - y);
    slots.forEach((k, t) => (order[k] = ties[t]));
  }
  return { before, after, plans, order };
}

test('property: random files and edits (LF, CRLF, mixed, no final newline, BOM): exact and only the edited lines marked', () => {
  const rand = prng(12);
  for (let caseNo = 0; caseNo < 1500; caseNo++) {
    const { before, after, plans, order } = randomCase(rand, caseNo);
    const given = order.map((i) => plans[i]);
    const diff = exactDiff(before, after, given.map((p) => p.region));
    const what = `case ${caseNo}: ${JSON.stringify({ before, after, regions: given.map((p) => p.region) })}`;
    checkShape(diff.changes, before, after);
    // Dropping the final newline after an empty last line leaves a text
    // that reads as one line fewer: the regions cannot fit it.
    const count = parseText(before).lines.length + plans.reduce((s, p) => s + p.lines.length - (p.region.end - p.region.start + 1), 0);
    if (parseText(after).lines.length !== count) {
      assert.equal(diff.verified, false, what);
      continue;
    }
    assert.equal(diff.verified, true, what);

    // Each region placed where its new lines are.
    const afterLines = after.replace(/^\ufeff/, '').split('\n').map((l) => l.replace(/\r$/, ''));
    given.forEach((p, k) => {
      const placed = diff.regions[k];
      assert.deepEqual(placed.a, { start: p.region.start, end: p.region.end }, what);
      assert.equal(placed.b.end - placed.b.start + 1, p.lines.length, what);
      assert.deepEqual(afterLines.slice(placed.b.start - 1, placed.b.end), p.lines, what);
    });

    // Only lines inside regions are marked (and, when a final newline is
    // missing or changes, the last line whose ending changed).
    const m = marked(before, after, diff);
    const allowA = new Set<number>();
    const allowB = new Set<number>();
    for (const placed of diff.regions) {
      for (const n of range(placed.a.start, placed.a.end)) allowA.add(n);
      for (const n of range(placed.b.start, placed.b.end)) allowB.add(n);
    }
    // The old last line (where the text lacks a final newline or the edit
    // changes it), at its place on each side, and the new last line.
    const endings = !before.endsWith('\n') || !after.endsWith('\n');
    const lastA = before.split('\n').length - (before.endsWith('\n') ? 1 : 0);
    const lastB = after.split('\n').length - (after.endsWith('\n') ? 1 : 0);
    let toB = 0; // lastA's shift into B
    let toA = 0; // lastB's shift into A
    for (const r of diff.regions) {
      const grow = r.b.end - r.b.start - (r.a.end - r.a.start);
      if (r.a.end < lastA) toB += grow;
      if (r.b.end < lastB) toA -= grow;
    }
    // A byte order mark is in the first line on screen: when an edit changes
    // line 1, the BOM moves to another line, which is marked too.
    const bomA = new Set<number>();
    const bomB = new Set<number>();
    if (before.startsWith('\ufeff')) {
      for (const r of diff.regions) {
        if (r.a.start !== 1) continue;
        bomA.add(1).add(r.a.end + 1);
        bomB.add(1).add(r.b.end + 1);
      }
    }
    const endA = (n: number) => (endings && (n === lastA || n === lastB + toA)) || bomA.has(n);
    const endB = (n: number) => (endings && (n === lastB || n === lastA + toB)) || bomB.has(n);
    for (const n of m.a) assert.ok(allowA.has(n) || endA(n), `A line ${n} marked: ${what}`);
    for (const n of m.b) assert.ok(allowB.has(n) || endB(n), `B line ${n} marked: ${what}`);

    // Where the region's lines are unambiguous, exactly its changed lines are marked.
    given.forEach((p, k) => {
      // (Before line 1 of a file with a BOM, the BOM blurs which line is new.)
      if (!p.exact || (bomA.size > 0 && p.region.start === 1)) return;
      const placed = diff.regions[k];
      // A context line (the region's first) is unchanged unless it took another line ending.
      const rawA = before.split('\n');
      const rawB = after.split('\n');
      // A removed line is marked, unless one of the new lines is the same (the line diff keeps it).
      const newRaw = new Set(rawB.slice(placed.b.start - 1, placed.b.end));
      for (const n of p.exact.markA) if (!newRaw.has(rawA[n - 1])) assert.ok(m.a.has(n), `A line ${n} not marked: ${what}`);
      const kept = p.exact.keepA.length > 0 && rawA[p.region.start - 1] === rawB[placed.b.start - 1];
      if (kept && !endA(p.region.start)) assert.ok(!m.a.has(p.region.start), `context A line ${p.region.start} marked: ${what}`);
      const fresh = p.lines.map((l, i) => ({ l, n: placed.b.start + i }));
      for (const { l, n } of fresh) {
        if (l.startsWith('fresh ')) assert.ok(m.b.has(n), `new B line ${n} not marked: ${what}`);
        else if (kept && !endA(p.region.start) && !endB(n)) assert.ok(!m.b.has(n), `context B line ${n} marked: ${what}`);
      }
      if (p.region.end < p.region.start) {
        // A pure insertion: exactly its lines, and not the lines around it.
        for (const { n } of fresh) assert.ok(m.b.has(n), `inserted B line ${n} not marked: ${what}`);
        for (const n of [placed.b.start - 1, placed.b.end + 1]) {
          if (!endB(n) && !allowB.has(n)) assert.ok(!m.b.has(n), `B line ${n} next to an insertion marked: ${what}`);
        }
      }
    });
  }
});

test('property: a large file (20,000 lines, 20 edits) is placed exactly, only its edited lines marked', () => {
  const rand = prng(20_000);
  const oldLines = range(1, 20_000).map((n) => (n % 7 === 0 ? '}' : n % 11 === 0 ? '' : `  value_${n % 997} = compute(${n % 13});`));
  const before = oldLines.join('\n') + '\n';
  const plans: { region: Region; lines: string[] }[] = [];
  for (let k = 0; k < 20; k++) {
    const start = 500 + k * 950 + Math.floor(rand() * 400);
    const len = 1 + Math.floor(rand() * 4);
    const newLines = range(1, len).map((i) => `  edited_${k}_${i}();`);
    plans.push({ region: { start, end: start + len - 1, newLines: len }, lines: newLines });
  }
  const after = engineApply(before, plans);
  const diff = exactDiff(before, after, plans.map((p) => p.region));
  assert.equal(diff.verified, true);
  checkShape(diff.changes, before, after);
  const m = marked(before, after, diff);
  const expectA = plans.flatMap((p) => range(p.region.start, p.region.end));
  assert.deepEqual(sorted(m.a), expectA);
  assert.deepEqual(sorted(m.b), diff.regions.flatMap((r) => range(r.b.start, r.b.end)));
  assert.equal(m.a.size, 20 + plans.reduce((s, p) => s + p.lines.length - 1, 0));
});

test('textDelta: the one replacement between two texts, keeping surrogate pairs whole', () => {
  assert.equal(textDelta('same', 'same'), null);
  assert.deepEqual(textDelta('abcdef', 'abXdef'), { from: 2, to: 3, insert: 'X' });
  assert.deepEqual(textDelta('', 'new'), { from: 0, to: 0, insert: 'new' });
  assert.deepEqual(textDelta('old', ''), { from: 0, to: 3, insert: '' });
  assert.deepEqual(textDelta('aaa', 'aaaa'), { from: 3, to: 3, insert: 'a' });
  // U+1F600 and U+1F601 share their high surrogate: the delta replaces the whole pair.
  assert.deepEqual(textDelta('x\u{1F600}y', 'x\u{1F601}y'), { from: 1, to: 3, insert: '\u{1F601}' });
  const rand = prng(7);
  const alphabet = ['a', 'b', '\n', '\u{1F600}', 'é'];
  const make = (len: number) => Array.from({ length: len }, () => alphabet[Math.floor(rand() * alphabet.length)]).join('');
  for (let i = 0; i < 2000; i++) {
    const big = rand() < 0.1 ? 'z'.repeat(10_000) : '';
    const prev = big + make(Math.floor(rand() * 20)) + big;
    const next = rand() < 0.1 ? prev : big + make(Math.floor(rand() * 20)) + big;
    const d = textDelta(prev, next);
    if (prev === next) {
      assert.equal(d, null);
      continue;
    }
    assert.ok(d);
    assert.equal(prev.slice(0, d.from) + d.insert + prev.slice(d.to), next);
    // Minimal up to one code unit of a surrogate pair on each end.
    assert.ok(d.from >= 0 && d.to <= prev.length && d.from <= d.to);
    let maxPrefix = 0;
    while (maxPrefix < Math.min(prev.length, next.length) && prev[maxPrefix] === next[maxPrefix]) maxPrefix++;
    assert.ok(maxPrefix - d.from <= 1);
    assert.ok(!/[\ud800-\udbff]$/.test(prev.slice(0, d.from)), 'no pair split at the start');
  }
});

test('lineInB: an unchanged line of A, where it is in B', () => {
  const before = 'a\nb\nc\nd\ne\n';
  const regions: Region[] = [
    { start: 2, end: 1, newLines: 2 },
    { start: 3, end: 4, newLines: 1 },
  ];
  const after = engineApply(before, [
    { region: regions[0], lines: ['x', 'y'] },
    { region: regions[1], lines: ['C'] },
  ]);
  assert.equal(after, 'a\nx\ny\nb\nC\ne\n');
  const diff = exactDiff(before, after, regions);
  assert.deepEqual([1, 2, 3, 4, 5].map((n) => lineInB(diff, n)), [1, 4, 5, 5, 6]);
});
