// The linear-time rewrites agree with what they replace, on inputs small
// enough for the old code: the line-block search (core/find.ts) with a plain
// scan, the hand-written readers with the regexes they replace, and the
// indexed str_replace search with a scan of the text. The engine gives the
// results recorded in corpus/engine-results.json (ln-diff, search-replace and
// udiff replies with repeated, overlapping, shifted and damaged edits, and an
// ln-diff edit citing every line number of a file of repeated lines), which
// were checked, when recorded, against the engine before its rewrite (the
// duplicate and overlap pass that compared every pair of edits, the match
// ladder that scanned every place).
//
// After a change meant to alter results, re-record with
//   node --import tsx test/pathological/record.ts
// and review the diff of the JSON (one entry a line) before keeping it.

import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { findBlock, trimEndKey, type LineKey } from '../../src/core/find.ts';
import { runFormat } from '../../src/core/run.ts';
import type { Format } from '../../src/core/types.ts';
import { betweenAnchors, BETWEEN_ARGS } from '../../src/formats/between/syntax.ts';
import { lnDiff } from '../../src/formats/ln-diff/index.ts';
import { searchReplace } from '../../src/formats/search-replace/index.ts';
import { occurrences, occurrencesInLines } from '../../src/formats/str-replace/locate.ts';
import { udiff } from '../../src/formats/udiff/index.ts';
import { headerPath } from '../../src/formats/udiff/hunks.ts';
import { openingEnvelope } from '../../src/formats/udiffx/parse.ts';
import type { CorpusEntry, CorpusFormat } from './record.ts';

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

describe('the engine gives the recorded results', () => {
  const formatByName: Record<CorpusFormat, Format> = { 'ln-diff': lnDiff, 'search-replace': searchReplace, udiff };
  const corpus: CorpusEntry[] = JSON.parse(readFileSync(new URL('corpus/engine-results.json', import.meta.url), 'utf8'));

  it('on ln-diff, search-replace and udiff requests with repeated, overlapping, shifted and damaged edits, and on every line number cited in a file of repeated lines', () => {
    assert.ok(corpus.length > 400, `the corpus holds ${corpus.length} entries`);
    for (const entry of corpus) {
      // Through JSON, as recorded: a field left undefined is a field left out.
      const got = JSON.parse(JSON.stringify(runFormat(formatByName[entry.format], entry.request)));
      assert.deepEqual(got, entry.result, `${entry.name} (${entry.format}), reply:\n${entry.request.response}`);
    }
  });
});
