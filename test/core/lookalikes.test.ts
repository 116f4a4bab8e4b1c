import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { diagnostic } from '../../src/core/diagnostics.ts';
import { addLookalikeWarnings, bidiLines, bidiMessage, lookalikeIndex, lookalikeOf, skeleton, type Placed } from '../../src/core/lookalikes.ts';
import type { ApplyResult } from '../../src/core/types.ts';
import { applyRequest } from '../../src/formats/index.ts';

const apply = (format: string, files: Record<string, string>, response: string): ApplyResult => applyRequest({ format, files, response });
const codes = (r: ApplyResult) => r.edits.map((e) => e.warnings.map((w) => w.code));
const patch = (...lines: string[]) => ['*** Begin Patch', ...lines, '*** End Patch', ''].join('\n');

describe('skeleton', () => {
  it('reads look-alike letters, fullwidth forms, invisible characters and entities as what they look like', () => {
    assert.equal(skeleton('\u0430\u0440\u0440.py'), 'app.py', 'Cyrillic а р');
    assert.equal(skeleton('\u0391\u03a1\u0399.md'), 'API.md', 'Greek capitals');
    assert.equal(skeleton('c\u03bfnfig.ts'), 'config.ts', 'Greek ο');
    assert.equal(skeleton('\uff41\uff50\uff50.py'), 'app.py', 'fullwidth');
    assert.equal(skeleton('ap\u200bp.py'), 'app.py', 'zero-width space');
    assert.equal(skeleton('a\u202epp.py'), 'app.py', 'BiDi override');
    assert.equal(skeleton('\ufeffapp.py'), 'app.py', 'BOM');
    assert.equal(skeleton('R&amp;D.txt'), 'R&D.txt');
    assert.equal(skeleton('R&AMP;D.txt'), 'R&D.txt');
    assert.equal(skeleton('R&#38;D.txt'), 'R&D.txt');
    assert.equal(skeleton('R&#x26;D.txt'), 'R&D.txt');
    assert.equal(skeleton('src\u2215a.ts'), 'src/a.ts', 'division slash');
    assert.equal(skeleton('my\u2010file.ts'), 'my-file.ts', 'hyphen');
  });
  it('keeps what is visibly different: accents, letter case, ordinary ASCII, unknown entities', () => {
    assert.equal(skeleton('caf\u00e9.txt'), 'caf\u00e9.txt');
    assert.equal(skeleton('App.py'), 'App.py');
    assert.equal(skeleton('modern.ts'), 'modern.ts', 'not rn as m: ASCII is never rewritten');
    assert.equal(skeleton('Il1.txt'), 'Il1.txt');
    assert.equal(skeleton('a&nbsp;b.txt'), 'a&nbsp;b.txt');
    assert.equal(skeleton('a&#0;b.txt'), 'a&#0;b.txt', 'no NUL from an entity');
    assert.equal(skeleton('a&#xD800;b.txt'), 'a&#xD800;b.txt', 'no lone surrogate');
    assert.equal(skeleton('\u0436.txt'), '\u0436.txt', 'Cyrillic ж is drawn like no Latin letter');
  });
});

describe('lookalikeOf', () => {
  it('finds the other path with the same skeleton, never the path itself', () => {
    const index = lookalikeIndex(['app.py', 'R&D.txt', 'src/\u0430.ts']);
    assert.equal(lookalikeOf('\u0430pp.py', index), 'app.py');
    assert.equal(lookalikeOf('R&amp;D.txt', index), 'R&D.txt');
    assert.equal(lookalikeOf('src/a.ts', index), 'src/\u0430.ts', 'a plain path beside a given odd one');
    assert.equal(lookalikeOf('app.py', index), null);
    assert.equal(lookalikeOf('apps.py', index), null);
  });
});

describe('bidiLines', () => {
  it('numbers the lines holding a control from `first`, names each control once, and passes over kept lines', () => {
    const lines = ['a', 'b\u202ec\u202e', 'x\u2066y\u2069', 'kept\u202e'];
    assert.deepEqual(bidiLines(lines, 10, new Set(['kept\u202e'])), [
      { line: 11, controls: ['\u202e'] },
      { line: 12, controls: ['\u2066', '\u2069'] },
    ]);
    assert.deepEqual(bidiLines(['\u200eשלום', 'x\u200f', '\u061c1'], 1), [], 'the marks are not controls');
  });
  it('says the file, the line, the code points and how many more lines', () => {
    const message = bidiMessage('src/a.js', bidiLines(['\u202ex', 'y\u2067', 'z\u2067'], 4));
    assert.match(message, /^line 4 of src\/a\.js holds U\+202E RIGHT-TO-LEFT OVERRIDE \(and 2 more lines\): /);
    assert.match(message, /Trojan Source/);
  });
});

describe('the engine adds the warnings', () => {
  it('a path written in NFD names the NFC file given, in every format (no second file)', () => {
    const files = { 'caf\u00e9.txt': 'a\n' };
    const nfd = 'cafe\u0301.txt';
    const replies: [string, string][] = [
      ['whole', `${nfd}\n\`\`\`\nb\n\`\`\`\n`],
      ['search-replace', `${nfd}\n\`\`\`\n<<<<<<< SEARCH\na\n=======\nb\n>>>>>>> REPLACE\n\`\`\`\n`],
      ['apply-patch', patch(`*** Update File: ${nfd}`, '@@', '-a', '+b')],
      ['udiff', `--- a/${nfd}\n+++ b/${nfd}\n@@ -1 +1 @@\n-a\n+b\n`],
      ['ln-diff', `${nfd}\n<editblock>\n<<<<<<< REMOVE\n1│a\n=======\n │b\n>>>>>>> INSERT\n</editblock>\n`],
    ];
    for (const [format, reply] of replies) {
      const r = apply(format, files, reply);
      assert.deepEqual(r.files, { 'caf\u00e9.txt': 'b\n' }, format);
      assert.deepEqual(codes(r), [[]], format);
    }
  });

  it('confusable-path on a created file, on a move, and between two files the reply creates', () => {
    const created = apply('apply-patch', { 'app.py': 'x\n' }, patch('*** Add File: \u0430pp.py', '+y'));
    assert.deepEqual(codes(created), [['confusable-path']]);
    assert.match(created.edits[0].warnings[0].message, /^created "аpp\.py", which looks like "app\.py" but is another file \(it holds U\+0430 "а"\); /);
    assert.equal(created.edits[0].warnings[0].severity, 'warning');
    assert.equal(created.ok, true, 'a warning: the edit applied');

    const moved = apply('apply-patch', { 'app.py': 'x\n', 'old.py': 'o\n' }, patch('*** Update File: old.py', '*** Move to: ap\u200bp.py', '@@', '-o', '+p'));
    assert.deepEqual(codes(moved), [['confusable-path']]);
    assert.match(moved.edits[0].warnings[0].message, /U\+200B \(invisible\)/);

    const both = apply('apply-patch', {}, patch('*** Add File: R&D.txt', '+a', '*** Add File: R&amp;D.txt', '+b', '*** Update File: R&D.txt', '@@', '-a', '+c'));
    assert.deepEqual(codes(both), [[], ['confusable-path'], []], 'the later of two created look-alikes, on the first edit that writes it');
    assert.match(both.edits[1].warnings[0].message, /^created "R&amp;D\.txt", which looks like "R&D\.txt"/);

    const plain = apply('apply-patch', { 'app.py': 'x\n' }, patch('*** Add File: apps.py', '+y', '*** Update File: app.py', '@@', '-x', '+z'));
    assert.deepEqual(codes(plain), [[], []], 'an ordinary new name, and an edit of the given file');

    const givenOdd = apply('apply-patch', { '\u0430pp.py': 'x\n' }, patch('*** Add File: app.py', '+y'));
    assert.match(givenOdd.edits[0].warnings[0].message, /\(".pp\.py" holds U\+0430 "а"\)/, 'the odd one is the given file');
  });

  it('no warning on an edit that failed or repeats another', () => {
    const failed = apply('apply-patch', { 'app.py': 'x\n', 'b.py': 'b\n' }, patch('*** Add File: \u0430pp.py', '+y', '*** Update File: b.py', '@@', '-nope', '+z'));
    assert.deepEqual(codes(failed), [['confusable-path'], []]);
    const block = (text: string) => `a.js\n<editblock>\n<<<<<<< REMOVE\n1│x\n=======\n │${text}\n>>>>>>> INSERT\n</editblock>\n`;
    const twice = apply('ln-diff', { 'a.js': 'x\n' }, block('y\u202e') + '\n' + block('y\u202e'));
    assert.equal(twice.edits[1].code, 'duplicate');
    assert.deepEqual(codes(twice), [['bidi-control'], []]);
    const fails = apply('ln-diff', { 'a.js': 'x\n' }, block('y\u202e').replace('1│x', '1│not x'));
    assert.deepEqual(codes(fails), [[]]);
  });

  it('bidi-control numbers the line in the file as written, after the edits above it', () => {
    const files = { 'a.js': 'one\ntwo\nthree\n' };
    const reply = patch('*** Update File: a.js', '@@', '-one', '+zero', '+one', '+half', '@@', ' two', '-three', '+thr\u2067ee');
    const r = apply('apply-patch', files, reply);
    assert.equal(r.files['a.js'], 'zero\none\nhalf\ntwo\nthr\u2067ee\n');
    const w = r.edits.flatMap((e) => e.warnings);
    assert.equal(w.length, 1);
    assert.match(w[0].message, /^line 5 of a\.js holds U\+2067 RIGHT-TO-LEFT ISOLATE: /);
  });

  it('bidi-control in a new file and in a whole-file write, not for a line kept as it was', () => {
    const created = apply('whole', {}, 'new.js\n```\nok\nx = "\u202a"\n```\n');
    assert.deepEqual(codes(created), [['bidi-control']]);
    assert.match(created.edits[0].warnings[0].message, /^line 2 of new\.js holds U\+202A LEFT-TO-RIGHT EMBEDDING/);
    const kept = apply('whole', { 'k.js': 'a\u202e\nb\n' }, 'k.js\n```\na\u202e\nc\n```\n');
    assert.deepEqual(codes(kept), [[]]);
    const moved = apply('whole', { 'k.js': 'a\u202e\nb\n' }, 'k.js\n```\nb\na\u202e\n```\n');
    assert.deepEqual(codes(moved), [[]], 'a line of the file, moved: not new');
  });
});

describe('many paths and edits', () => {
  /** A small deterministic generator (no clock, no Math.random). */
  const random = (seed: number) => () => {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    return seed / 2147483648;
  };

  /** Placed edits over `files` files: some repeat a path, some hold a BiDi control, some fail. */
  function placedEdits(count: number, files: number, seed: number): Placed[] {
    const next = random(seed);
    const kinds = ['replace', 'insert', 'write', 'delete', 'rename'] as const;
    return Array.from({ length: count }, (): Placed => {
      const f = Math.floor(next() * files);
      const file = next() < 0.1 ? `src/\u0430${f}.ts` : `src/a${f}.ts`;
      const from = Math.floor(next() * 50);
      const to = from + Math.floor(next() * 3);
      const lines = Array.from({ length: Math.floor(next() * 4) }, (_, k) => (next() < 0.2 ? `x\u202e${k}` : `line ${k}`));
      return {
        edit: { file, kind: kinds[Math.floor(next() * kinds.length)], new: lines, ...(next() < 0.05 ? { moveTo: `moved/${f}.ts` } : {}) },
        result: { status: next() < 0.9 ? 'applied' : 'failed', code: next() < 0.05 ? 'duplicate' : null, warnings: [] },
        ...(next() < 0.9 ? { from, to } : {}),
      };
    });
  }

  /** The bidi part of addLookalikeWarnings as first written (filtering every edit once per file), to compare with. */
  function bidiReference(placed: readonly Placed[], given: readonly string[], original: (path: string) => readonly string[]): void {
    const live = placed.filter((w) => w.result.status === 'applied' && w.result.code !== 'duplicate');
    const givenSet = new Set(given);
    const byFile = new Map<string, Placed[]>();
    for (const w of live) {
      if (w.edit.kind === 'delete' || w.edit.kind === 'rename' || w.from === undefined) continue;
      if (!(w.lines ?? w.edit.new).some((l) => /[\u202a-\u202e\u2066-\u2069]/u.test(l))) continue;
      byFile.set(w.edit.file, [...(byFile.get(w.edit.file) ?? []), w]);
    }
    for (const [file, list] of byFile) {
      const order = live
        .filter((w) => w.edit.file === file && w.from !== undefined)
        .map((w, i) => ({ w, i }))
        .sort((a, b) => a.w.from! - b.w.from! || a.w.to! - b.w.to! || a.i - b.i);
      const lines = givenSet.has(file) ? original(file) : [];
      let shift = 0;
      for (const { w } of order) {
        const text = w.lines ?? w.edit.new;
        if (list.includes(w)) {
          const found = bidiLines(text, w.from! + 1 + shift, new Set(lines.slice(w.from, w.to)));
          if (found.length > 0) w.result.warnings = [...w.result.warnings, diagnostic('bidi-control', 'warning', bidiMessage(w.edit.moveTo ?? file, found))];
        }
        shift += text.length - (w.to! - w.from!);
      }
    }
  }

  it('warns as the per-file filter did, on 3000 edits over 400 files', () => {
    const given = Array.from({ length: 400 }, (_, f) => `src/a${f}.ts`);
    const original = (path: string) => Array.from({ length: 60 }, (_, k) => (k % 7 === 0 ? `x\u202e${k % 4}` : `line ${k} of ${path}`));
    const ours = placedEdits(3000, 400, 7);
    const theirs = placedEdits(3000, 400, 7);
    addLookalikeWarnings(ours, given, original);
    bidiReference(theirs, given, original);
    const bidi = (p: Placed[]) => p.map((w) => w.result.warnings.filter((d) => d.code === 'bidi-control').map((d) => d.message));
    assert.deepEqual(bidi(ours), bidi(theirs));
    assert.ok(bidi(ours).flat().length > 100, 'the case exercises the warning');
    assert.ok(ours.some((w) => w.result.warnings.some((d) => d.code === 'confusable-path')), 'and the look-alike one');
  });

  it('reads each edit a bounded number of times, however many files there are', () => {
    const placed = placedEdits(4000, 2000, 11);
    let reads = 0;
    const counted = placed.map((w) => new Proxy(w, { get: (t, key) => (key === 'edit' && reads++, Reflect.get(t, key)) }));
    addLookalikeWarnings(counted, [], () => []);
    // Filtering every edit once per file would read `edit` millions of times here.
    assert.ok(reads < 40 * placed.length, `${reads} reads of an edit for ${placed.length} edits`);
  });

  it('indexes repeated paths once', () => {
    const paths = Array.from({ length: 20_000 }, (_, i) => (i % 2 ? 'app.py' : `\u0430pp${i % 3}.py`));
    const index = lookalikeIndex(paths);
    assert.deepEqual([...index.entries()], [
      ['app0.py', ['\u0430pp0.py']],
      ['app.py', ['app.py']],
      ['app2.py', ['\u0430pp2.py']],
      ['app1.py', ['\u0430pp1.py']],
    ]);
  });
});
