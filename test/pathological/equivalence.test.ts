// The linear-time rewrites agree with what they replace, on inputs small
// enough for the old code: the line-block search (core/find.ts) with a plain
// scan, the hand-written readers with the regexes they replace, the indexed
// str_replace search with a scan of the text, and the engine with its
// previous version (oracle/, the duplicate and overlap pass that compared
// every pair of edits, the match ladder that scanned every place).

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { findBlock, trimEndKey, type LineKey } from '../../src/core/find.ts';
import { runFormat } from '../../src/core/run.ts';
import { parseText } from '../../src/core/text.ts';
import { betweenAnchors, BETWEEN_ARGS } from '../../src/formats/between/syntax.ts';
import { lnDiff } from '../../src/formats/ln-diff/index.ts';
import { editblock } from '../../src/formats/ln-diff/write.ts';
import { searchReplace } from '../../src/formats/search-replace/index.ts';
import { cleanPathLine } from '../../src/formats/search-replace/syntax.ts';
import { occurrences, occurrencesInLines } from '../../src/formats/str-replace/locate.ts';
import { udiff } from '../../src/formats/udiff/index.ts';
import { headerPath } from '../../src/formats/udiff/hunks.ts';
import { openingEnvelope } from '../../src/formats/udiffx/parse.ts';
import { runFormat as oracleRun } from './oracle/run.ts';

const SCALE = Number(process.env.PROPERTY_RUNS_SCALE ?? 1);
const runs = (n: number) => ({ numRuns: n * SCALE });

/** Strings made of a few pieces: what makes regexes and scanners go wrong is repetition. */
const pieces = (parts: string[], maxLength = 30) => fc.array(fc.constantFrom(...parts), { maxLength }).map((xs) => xs.join(''));

describe('findBlock finds what a scan of every place finds', () => {
  const trim = (s: string) => s.trim();
  const keys: [string, LineKey][] = [
    ['lines', null],
    ['trimEnd', trimEndKey],
    ['trim', trim],
  ];
  const naive = (lines: string[], block: string[], key: LineKey, lo: number, hi: number, limit: number) => {
    const k = key ?? ((s: string) => s);
    const out: number[] = [];
    if (block.length === 0) return out;
    for (let s = Math.max(0, lo); s <= Math.min(hi, lines.length - block.length) && out.length < limit; s++) {
      if (block.every((l, i) => k(l) === k(lines[s + i]))) out.push(s);
    }
    return out;
  };
  const line = fc.constantFrom('a', 'a', 'a', 'b', 'a ', 'b\t', '', ' a', 'c');
  it('on files of up to 2,000 lines of a few repeated lines, whole or in a window', () => {
    fc.assert(
      fc.property(
        fc.array(line, { maxLength: 2000 }),
        fc.nat(),
        fc.integer({ min: 0, max: 60 }),
        fc.array(line, { maxLength: 4 }),
        fc.boolean(),
        fc.integer({ min: -5, max: 2100 }),
        fc.integer({ min: -5, max: 2100 }),
        fc.constantFrom(Infinity, 1, 2, 5),
        fc.constantFrom(...keys),
        (lines, at, len, extra, cut, lo, hi, limit, [, key]) => {
          // A block cut from the file (found at least once), or made up.
          const start = lines.length ? at % lines.length : 0;
          const block = cut ? lines.slice(start, start + len) : extra;
          const [a, b] = cut && lo > hi ? [0, lines.length] : [lo, hi];
          assert.deepEqual(findBlock(lines, block, key, a, b, limit), naive(lines, block, key, a, b, limit));
          assert.deepEqual(findBlock(lines, block, key), naive(lines, block, key, 0, lines.length, Infinity));
        },
      ),
      runs(300),
    );
  });
});

describe('hand-written readers read what the regexes read', () => {
  it('between: the anchors of @BETWEEN@ arguments', () => {
    fc.assert(
      fc.property(pieces(['"', ' ', 'AND', 'A', 'N', 'x', '\t', '\n', '" AND "', '"x"', '\u00A0']), (args) => {
        const m = BETWEEN_ARGS.exec(args);
        const want = m && m.indices ? { a: m[1], b: m[2], aAt: m.indices[1], bAt: m.indices[2] } : null;
        assert.deepEqual(betweenAnchors(args), want, JSON.stringify(args));
      }),
      runs(3000),
    );
  });

  it('search-replace: a path line cleaned of its decoration', () => {
    // The regexes the reader used, as they were.
    const old = (line: string) => {
      let s = line.trim();
      s = s.replace(/:+$/, '').trim();
      s = s.replace(/^#+/, '').trim();
      s = s.replace(/^\*+/, '').replace(/\*+$/, '').trim();
      s = s.replace(/:+$/, '').trim();
      const quoted = /^`[^`]+`$/.test(s);
      s = s.replace(/^`+/, '').replace(/`+$/, '').trim();
      s = s.replace(/^\*+/, '').replace(/\*+$/, '').trim();
      s = s.replace(/:+$/, '').trim();
      return { text: s.replace(/\\_/g, '_'), quoted };
    };
    fc.assert(
      fc.property(pieces([':', '*', '`', '#', ' ', 'a', '.', '\\_', 'b/c', '\t']), (line) => {
        assert.deepEqual(cleanPathLine(line), old(line), JSON.stringify(line));
      }),
      runs(3000),
    );
  });

  it('udiff: the path of a --- / +++ line without its timestamp', () => {
    const oldPath = (text: string) => {
      let s = text.slice(4);
      const tab = s.indexOf('\t');
      if (tab >= 0) s = s.slice(0, tab);
      s = s.trim();
      s = s.replace(/\s+\d{4}-\d\d-\d\d[ T]\d\d:\d\d(?::\d\d(?:\.\d+)?)?(?:\s*(?:[+-]\d{4}|Z|UTC))?$/, '');
      return s;
    };
    fc.assert(
      fc.property(pieces([' ', 'a', 'b.txt', '2024-01-02 10:11', '2024-01-02T10:11:12', ':13', '.123', ' +0100', '-0500', 'Z', 'UTC', '\u00A0', '9']), (rest) => {
        const text = '--- ' + rest;
        if (rest.includes('"')) return;
        assert.equal(headerPath(text), oldPath(text), JSON.stringify(text));
      }),
      runs(3000),
    );
  });

  it('udiffx: the <FILE_CHANGES> opening tags', () => {
    fc.assert(
      fc.property(pieces(['<FILE_CHANGES', '<FILE_CHANGES>', '>', '\n', ' ', 'x', '_', 'S', ' a="1"'], 20), (reply) => {
        const want: [number, string][] = [];
        const re = /<FILE_CHANGES\b[^>\n]*>/g;
        for (let m = re.exec(reply); m; m = re.exec(reply)) want.push([m.index, m[0]]);
        const got: [number, string][] = [];
        for (let m = openingEnvelope(reply, 0); m; m = openingEnvelope(reply, m.index + m[0].length)) got.push([m.index, m[0]]);
        assert.deepEqual(got, want, JSON.stringify(reply));
      }),
      runs(3000),
    );
  });
});

describe('str-replace: the indexed search finds every occurrence a scan of the text finds', () => {
  it('for old_str cut from the text or made up, with and without line breaks', () => {
    const line = fc.constantFrom('abcdefghij', 'abcdefghij', 'xyzabcdefgh', 'ab', '', 'abcdefghijab', 'ghij');
    fc.assert(
      fc.property(fc.array(line, { minLength: 1, maxLength: 200 }), fc.nat(), fc.integer({ min: 0, max: 40 }), pieces(['ab', 'cd', '\n', 'ghij', 'abcdefghij']), fc.boolean(), fc.constantFrom(Infinity, 1, 2, 7), (lines, at, len, made, cut, limit) => {
        const text = lines.join('\n') + '\n';
        const oldStr = cut ? text.slice(at % text.length, (at % text.length) + len) : made;
        if (oldStr === '') return;
        assert.deepEqual(occurrencesInLines(lines, oldStr, limit), occurrences(text, oldStr, limit), JSON.stringify(oldStr));
      }),
      runs(500),
    );
  });
});

describe('the engine gives what it gave before its linear-time rewrite', () => {
  const fileLine = fc.constantFrom('a', 'b', 'c', 'a ', 'def f():', '    return 1', '    return 2', '', '}', 'x = 1');
  const file = fc.array(fileLine, { minLength: 1, maxLength: 25 });
  /** Blocks citing stretches of the file (some numbers off, some lines changed), repeated and overlapping. */
  const blocks = (lines: string[]) =>
    fc.array(
      fc.record({
        at: fc.nat({ max: lines.length - 1 }),
        len: fc.integer({ min: 0, max: 3 }),
        shift: fc.constantFrom(0, 0, 0, 1, -1, 3),
        damage: fc.constantFrom(false, false, true),
        insert: fc.array(fileLine, { maxLength: 3 }),
        copies: fc.constantFrom(1, 1, 2),
      }),
      { maxLength: 8 },
    );
  const request = file.chain((lines) => fc.tuple(fc.constant(lines), blocks(lines), fc.constantFrom('ln-diff', 'search-replace', 'udiff')));

  it('on random requests with repeated, overlapping, shifted and damaged edits (ln-diff, search-replace, udiff)', () => {
    fc.assert(
      fc.property(request, ([lines, bs, name]) => {
        const text = lines.join('\n') + '\n';
        const replyLines: string[] = [];
        for (const b of bs) {
          const cited: string[] = lines.slice(b.at, b.at + b.len).map((l, i) => (b.damage && i === 0 ? l + 'q' : l));
          let one: string;
          if (name === 'ln-diff') {
            const from = Math.max(0, b.at + b.shift);
            const padded = [...Array.from({ length: from }, () => ''), ...cited];
            one = editblock('f.txt', padded, from, from + cited.length, b.insert);
          } else if (name === 'search-replace') {
            one = ['f.txt', '```', '<<<<<<< SEARCH', ...cited, '=======', ...b.insert, '>>>>>>> REPLACE', '```', ''].join('\n');
          } else {
            const start = Math.max(1, b.at + 1 + b.shift);
            one = [`@@ -${start},${cited.length} +${start},${b.insert.length} @@`, ...cited.map((l) => '-' + l), ...b.insert.map((l) => '+' + l), ''].join('\n');
          }
          for (let k = 0; k < b.copies; k++) replyLines.push(one);
        }
        const response = name === 'udiff' ? '--- a/f.txt\n+++ b/f.txt\n' + replyLines.join('') : replyLines.join('\n');
        const format = name === 'ln-diff' ? lnDiff : name === 'search-replace' ? searchReplace : udiff;
        const req = { format: name, files: { 'f.txt': text }, response };
        assert.deepEqual(runFormat(format, req), oracleRun(format, req), response);
      }),
      runs(1500),
    );
  });

  it('on a file whose lines all repeat, for every ln-diff number cited', () => {
    const lines = ['x', 'y', 'x', 'y', 'x', 'y', 'x', 'z', 'x', 'y'];
    const text = lines.join('\n') + '\n';
    for (let n = 1; n <= 12; n++) {
      for (const cited of [['x'], ['x', 'y'], ['y', 'x', 'y'], ['x', 'q'], ['z', 'x']]) {
        const response = `f.txt\n<editblock>\n<<<<<<< REMOVE\n${cited.map((l, i) => `${n + i}│${l}`).join('\n')}\n=======\n │new\n>>>>>>> INSERT\n</editblock>\n`;
        const req = { format: 'ln-diff', files: { 'f.txt': text }, response };
        assert.deepEqual(runFormat(lnDiff, req), oracleRun(lnDiff, req), response);
      }
    }
    assert.equal(parseText(text).lines.length, 10);
  });
});
