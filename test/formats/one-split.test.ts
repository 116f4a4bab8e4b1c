// A request splits its reply into lines once (src/core/reply.ts, `lexReply`):
// detection, every format's reading and the marker search share that one
// split, in every format and under auto, whatever the reply holds. Counted
// (not timed): the passes that look for the reply's line breaks from its
// start, through `split('\n')` or `indexOf('\n')`.

import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { planDisk } from '../../src/cli/plan.ts';
import type { Format } from '../../src/core/types.ts';
import { applyRequest, formats, FORMAT_NAMES } from '../../src/formats/index.ts';

const FILE = 'one\ntwo\nthree\n';
const PROSE = 'A line of prose in the reply.\n'.repeat(200);

/** The passes over `watched` that split it into lines, counted while set. */
let watched: string | null = null;
let splits = 0;
const proto = String.prototype as unknown as Record<'split' | 'indexOf', (...args: unknown[]) => unknown>;
const original = { split: proto.split, indexOf: proto.indexOf };
before(() => {
  proto.split = function (this: string, ...args: unknown[]) {
    if (watched !== null && args[0] === '\n' && this === watched) splits++;
    return original.split.apply(this, args);
  };
  proto.indexOf = function (this: string, ...args: unknown[]) {
    if (watched !== null && args[0] === '\n' && !args[1] && this === watched) splits++;
    return original.indexOf.apply(this, args);
  };
});
after(() => Object.assign(proto, original));

/** Each format's `parse` calls on `watched`, counted while set. */
const parses = new Map<string, number>();
const parse = new Map<Format, Format['parse']>();
before(() => {
  for (const f of formats) {
    const own = f.parse;
    parse.set(f, own);
    (f as { parse: Format['parse'] }).parse = (reply, context) => {
      if (watched !== null && reply === watched) parses.set(f.name, (parses.get(f.name) ?? 0) + 1);
      return own.call(f, reply, context);
    };
  }
});
after(() => {
  for (const [f, own] of parse) (f as { parse: Format['parse'] }).parse = own;
});

/** The splits of the reply, and the most times one format parsed it, while `run` runs. */
function counted(reply: string, run: () => void): { splits: number; parses: number } {
  watched = reply;
  splits = 0;
  parses.clear();
  try {
    run();
  } finally {
    watched = null;
  }
  return { splits, parses: Math.max(0, ...parses.values()) };
}

function splitsOf(format: string, reply: string): number {
  const { splits: n, parses: most } = counted(reply, () => applyRequest({ format, files: { 'a.txt': FILE }, response: reply }));
  // A format reads a reply at most twice per request: as asked for, and as detected (`ParseContext.detected`).
  assert.ok(most <= 2, `${format}: one format parsed the reply ${most} times`);
  return n;
}

const edit = (name: string) => formats.find((f) => f.name === name)!.write([{ file: 'a.txt', before: FILE, after: 'one\nTWO\nthree\n' }]);

describe('one split of the reply per request', () => {
  for (const name of FORMAT_NAMES) {
    it(`${name}: prose, an edit in each format, and two formats mixed`, () => {
      for (const reply of [PROSE, ...formats.map((f) => edit(f.name) + PROSE), edit('ln-diff') + '\n' + edit('udiff') + PROSE]) {
        assert.equal(splitsOf(name, reply), 1, `${name} on ${JSON.stringify(reply.slice(0, 60))}`);
      }
    });
  }
});

describe('one split of the reply for a reply applied on disk', () => {
  let dir = '';
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'ln-diff-split-'));
    writeFileSync(join(dir, 'a.txt'), FILE);
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  for (const name of FORMAT_NAMES) {
    it(`${name}: read in two rounds at most (no file known, then the files found), parsed at most twice a round`, () => {
      for (const reply of [PROSE, ...formats.map((f) => edit(f.name) + PROSE)]) {
        const { splits: n, parses: most } = counted(reply, () => planDisk(dir, name, reply));
        assert.equal(n, 1, `${name} on ${JSON.stringify(reply.slice(0, 60))}`);
        assert.ok(most <= 4, `${name}: one format parsed the reply ${most} times`);
      }
    });
  }
});
