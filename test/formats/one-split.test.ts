// A request splits its reply into lines once (src/core/reply.ts, `lexReply`):
// detection, every format's reading and the marker search share that one
// split, in every format and under auto, whatever the reply holds. Counted
// (not timed): the passes that look for the reply's line breaks from its
// start, through `split('\n')` or `indexOf('\n')`.

import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
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

function splitsOf(format: string, reply: string): number {
  watched = reply;
  splits = 0;
  try {
    applyRequest({ format, files: { 'a.txt': FILE }, response: reply });
  } finally {
    watched = null;
  }
  return splits;
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
