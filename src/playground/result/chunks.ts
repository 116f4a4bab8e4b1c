// The merge view's chunks, straight from the engine's exact changes.
//
// @codemirror/merge gets a view's chunks from three static methods:
// `Chunk.build` (a new view) and `Chunk.updateA` / `Chunk.updateB` (after a
// change to either document, which re-diff a slice around the change).
// Its `diffConfig.override` only replaces the diff underneath them: what it
// returns still goes through `presentableDiff`, which slides an inserted or
// deleted run of whole lines to where it prefers (an inserted "}" next to
// a "}" is drawn on its twin), and the update path calls it again on
// slices of the documents. So, rather than an override whose result is then
// checked and rebuilt, the three methods are wrapped once, for the diff
// configurations made here only (`exactConfig`): such a view asks its
// source for the chunks of the documents it has, and the source builds
// them from the exact changes (`chunkSpans`, a few line look-ups per
// change: nothing scales with the file). Every other merge view keeps the
// library's own behaviour.

import { Change, Chunk, type DiffConfig } from '@codemirror/merge';
import type { Text } from '@codemirror/state';
import { chunkSpans } from './chunking.ts';
import type { ExactDiff } from '../../text-delta/exact.ts';

/** The chunks of two documents, as the view must show them. */
export type ChunkSource = (a: Text, b: Text) => readonly Chunk[];

const sources = new WeakMap<DiffConfig, ChunkSource>();
let wrapped = false;

function wrap(): void {
  if (wrapped) return;
  wrapped = true;
  const { build, updateA, updateB } = Chunk;
  const source = (conf: DiffConfig | undefined) => (conf ? sources.get(conf) : undefined);
  Chunk.build = (a, b, conf) => source(conf)?.(a, b) ?? build.call(Chunk, a, b, conf);
  Chunk.updateA = (chunks, a, b, changes, conf) => source(conf)?.(a, b) ?? updateA.call(Chunk, chunks, a, b, changes, conf);
  Chunk.updateB = (chunks, a, b, changes, conf) => source(conf)?.(a, b) ?? updateB.call(Chunk, chunks, a, b, changes, conf);
}

/** A diff configuration whose views take their chunks from `source`. */
export function exactConfig(source: ChunkSource): DiffConfig {
  wrap();
  // No diff is ever run for it; were one asked for all the same, it finds nothing.
  const conf: DiffConfig = { override: () => [] };
  sources.set(conf, source);
  return conf;
}

/** The diff's changes fit two documents of these lengths (and say how one becomes the other). */
export function fits(diff: ExactDiff, lengthA: number, lengthB: number): boolean {
  let grow = 0;
  let pa = 0;
  let pb = 0;
  for (const c of diff.changes) {
    if (c.fromA < pa || c.fromB < pb || c.toA < c.fromA || c.toB < c.fromB) return false;
    grow += c.toB - c.fromB - (c.toA - c.fromA);
    pa = c.toA;
    pb = c.toB;
  }
  return pa <= lengthA && pb <= lengthB && lengthB - lengthA === grow;
}

/** The chunks of `diff` on documents `a` and `b`. */
export function buildChunks(diff: ExactDiff, a: Text, b: Text): Chunk[] {
  return chunkSpans(diff.changes, a, b).map(
    (s) =>
      new Chunk(
        s.changes.map((c) => new Change(c.fromA, c.toA, c.fromB, c.toB)),
        s.fromA,
        s.toA,
        s.fromB,
        s.toB,
      ),
  );
}
