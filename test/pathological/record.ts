// Records the engine's results on a fixed set of requests in
// corpus/engine-results.json, which equivalence.test.ts checks the engine
// against. The requests: ln-diff, search-replace and udiff replies with
// repeated, overlapping, shifted and damaged edits on small files of a few
// repeated lines (sampled from fast-check arbitraries with a fixed seed), and
// an ln-diff edit citing every line number of a file whose lines all repeat.
//
// Run: node --import tsx test/pathological/record.ts
// The output is the same on every run of the same engine; after a change meant
// to alter results, re-record and review the diff of the JSON (one entry a line).

import { mkdirSync, writeFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import fc from 'fast-check';
import { runFormat } from '../../src/core/run.ts';
import type { ApplyRequest, ApplyResult, Format } from '../../src/core/types.ts';
import { lnDiff } from '../../src/formats/ln-diff/index.ts';
import { editblock } from '../../src/formats/ln-diff/write.ts';
import { searchReplace } from '../../src/formats/search-replace/index.ts';
import { udiff } from '../../src/formats/udiff/index.ts';

export type CorpusFormat = 'ln-diff' | 'search-replace' | 'udiff';

export interface CorpusEntry {
  name: string;
  format: CorpusFormat;
  request: ApplyRequest;
  result: ApplyResult;
}

const FORMATS: Record<CorpusFormat, Format> = { 'ln-diff': lnDiff, 'search-replace': searchReplace, udiff };

const SEED = 20261122;
const RANDOM_REQUESTS = 400;

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
const randomRequest = file.chain((lines) => fc.tuple(fc.constant(lines), blocks(lines), fc.constantFrom<CorpusFormat>('ln-diff', 'search-replace', 'udiff')));

type Block = ReturnType<typeof blocks> extends fc.Arbitrary<(infer B)[]> ? B : never;

/** The reply writing each block in the format, each as many times as it has copies. */
function reply(lines: string[], bs: Block[], name: CorpusFormat): string {
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
  return name === 'udiff' ? '--- a/f.txt\n+++ b/f.txt\n' + replyLines.join('') : replyLines.join('\n');
}

/** Every request of the corpus, in a fixed order. */
function corpusRequests(): Omit<CorpusEntry, 'result'>[] {
  const out: Omit<CorpusEntry, 'result'>[] = [];
  fc.sample(randomRequest, { seed: SEED, numRuns: RANDOM_REQUESTS }).forEach(([lines, bs, name], i) => {
    const request = { format: name, files: { 'f.txt': lines.join('\n') + '\n' }, response: reply(lines, bs, name) };
    out.push({ name: `random ${i + 1}`, format: name, request });
  });
  // A file whose lines all repeat, with every line number an ln-diff edit can cite.
  const text = ['x', 'y', 'x', 'y', 'x', 'y', 'x', 'z', 'x', 'y'].join('\n') + '\n';
  for (let n = 1; n <= 12; n++) {
    for (const cited of [['x'], ['x', 'y'], ['y', 'x', 'y'], ['x', 'q'], ['z', 'x']]) {
      const response = `f.txt\n<editblock>\n<<<<<<< REMOVE\n${cited.map((l, i) => `${n + i}│${l}`).join('\n')}\n=======\n │new\n>>>>>>> INSERT\n</editblock>\n`;
      out.push({ name: `repeated lines, ${cited.join(' ')} cited from line ${n}`, format: 'ln-diff', request: { format: 'ln-diff', files: { 'f.txt': text }, response } });
    }
  }
  return out;
}

const CORPUS_URL = new URL('corpus/engine-results.json', import.meta.url);

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const entries: CorpusEntry[] = corpusRequests().map((e) => ({ ...e, result: runFormat(FORMATS[e.format], e.request) }));
  mkdirSync(new URL('.', CORPUS_URL), { recursive: true });
  writeFileSync(CORPUS_URL, '[\n' + entries.map((e) => JSON.stringify(e)).join(',\n') + '\n]\n');
  console.log(`${entries.length} results written to ${CORPUS_URL.pathname}`);
}
