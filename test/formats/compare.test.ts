// One change in every format (src/formats/compare.ts): every spec example
// whose edits all apply and that changes something is written again by every
// registered format's writer and applied back; each must give the example's
// result exactly, unless the format cannot carry the change.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import type { FileChange } from '../../src/core/types.ts';
import { specFiles } from '../../src/examples/load.ts';
import { changesFromReply, compareFormats, requestFiles, sourceViews, writeWith, type FormatWriting } from '../../src/formats/compare.ts';
import { formats, getFormat } from '../../src/formats/index.ts';
import { pathProblem } from '../../src/core/paths.ts';

/** The example's change: its files before, and the files it expects after. */
function exampleChanges(files: Record<string, string>, after: Record<string, string | null>): FileChange[] {
  const paths = [...new Set([...Object.keys(files), ...Object.keys(after)])];
  return paths
    .map((file) => ({ file, before: files[file] ?? null, after: Object.hasOwn(after, file) ? after[file] : (files[file] ?? null) }))
    .filter((c) => c.before !== c.after);
}

/** What a format may fail to carry: a deletion, line breaks, a BOM, or a change its writer refuses. */
const CANNOT = /does not carry (deleting a file|which line break|adding the final|removing the final|adding a byte|removing a byte)|cannot write .* as (between snippets|SEARCH\/REPLACE blocks)/;

/**
 * Writer bugs found by this test, kept visible as `todo` (they run, fail,
 * and are reported without failing the suite). Remove an entry once fixed.
 */
const KNOWN_BUGS: { format: string; when: (changes: FileChange[]) => boolean; bug: string }[] = [];

function knownBug(w: FormatWriting, changes: FileChange[]): string | null {
  return KNOWN_BUGS.find((k) => k.format === w.format && k.when(changes))?.bug ?? null;
}

describe('compareFormats: every spec example, written in every format', () => {
  for (const spec of specFiles()) {
    for (const example of spec.examples) {
      if (!example.expected.ok) continue;
      const changes = exampleChanges(example.files, example.expected.files);
      if (changes.length === 0) continue;
      it(`spec/${spec.path} example ${example.number} (${example.section})`, (t) => {
        const writings = compareFormats(changes);
        assert.deepEqual(writings.map((w) => w.format), formats.map((f) => f.name));
        const problems: string[] = [];
        const bugs: string[] = [];
        for (const w of writings) {
          if (w.roundTrip === 'ok') {
            assert.equal(w.problem, undefined);
            continue;
          }
          if (w.roundTrip === 'unsupported' && CANNOT.test(w.problem ?? '')) continue;
          const bug = knownBug(w, changes);
          if (bug) bugs.push(`${w.format}: ${bug}`);
          problems.push(`${w.format} ${w.roundTrip}: ${w.problem}\n${w.reply}`);
        }
        if (bugs.length && bugs.length === problems.length) t.todo(`known writer bugs: ${bugs.join('; ')}`);
        assert.deepEqual(problems, []);
      });
    }
  }
});

describe('compareFormats: what a format cannot carry', () => {
  const deletion: FileChange[] = [
    { file: 'app/__init__.py', before: 'from .compat import x\nVERSION = 1\n', after: 'VERSION = 1\n' },
    { file: 'app/compat.py', before: 'x = 1\n', after: null },
  ];

  it('formats with a delete operation round-trip a deleted file; the others say they cannot', () => {
    const byName = new Map(compareFormats(deletion).map((w) => [w.format, w]));
    for (const name of ['udiff', 'udiffx', 'apply-patch']) assert.equal(byName.get(name)!.roundTrip, 'ok', name);
    for (const name of ['ln-diff', 'search-replace', 'whole', 'roo', 'hashline', 'between']) {
      const w = byName.get(name)!;
      assert.equal(w.roundTrip, 'unsupported', name);
      assert.equal(
        w.problem,
        `the ${name} reply does not carry deleting a file (app/compat.py came back emptied instead of deleted)`,
      );
      assert.equal(w.files!['app/__init__.py'], 'VERSION = 1\n', `${name} still applies the rest`);
    }
    // str-replace leaves the deletion out: the file comes back as it was.
    assert.equal(byName.get('str-replace')!.roundTrip, 'unsupported');
    assert.match(byName.get('str-replace')!.problem!, /app\/compat\.py came back unchanged instead of deleted/);
  });

  it('the unified diffs carry a change of the final newline; line formats say they cannot', () => {
    const change: FileChange[] = [{ file: 'VERSION', before: '1.0.0\n', after: '1.0.1' }];
    const byName = new Map(compareFormats(change).map((w) => [w.format, w]));
    assert.equal(byName.get('udiff')!.roundTrip, 'ok');
    assert.equal(byName.get('udiffx')!.roundTrip, 'ok');
    const ln = byName.get('ln-diff')!;
    assert.equal(ln.roundTrip, 'unsupported');
    assert.equal(ln.problem, 'the ln-diff reply does not carry removing the final line break (VERSION: line 1 is "1.0.1\\n" instead of "1.0.1")');
  });

  it('reports a writer that refuses the change as unsupported, with its reason and no reply', () => {
    const change: FileChange[] = [{ file: 'notes.txt', before: 'top\nmiddle\nbottom\n', after: 'top\n@WHOLE FILE@\nbottom\n' }];
    const w = writeWith(getFormat('between')!, change);
    assert.equal(w.roundTrip, 'unsupported');
    assert.equal(w.reply, '');
    assert.equal(w.chars, 0);
    assert.equal(w.files, undefined);
    assert.match(w.problem!, /^cannot write notes\.txt as between snippets: the line "@WHOLE FILE@" would be read as a tag line/);
  });

  it('a writer that crashes is failed, not unsupported', () => {
    const ln = getFormat('ln-diff')!;
    const crashing = { ...ln, write: (): string => { throw new TypeError('x is undefined'); } };
    const w = writeWith(crashing, [{ file: 'a.txt', before: 'one\n', after: 'two\n' }]);
    assert.equal(w.roundTrip, 'failed');
    assert.equal(w.problem, 'the writer threw: x is undefined');
  });

  it('a reply that gives something else is failed, with the first difference', () => {
    // A format whose writer miswrites one inserted line: the reply no longer says the change.
    const ln = getFormat('ln-diff')!;
    const broken = { ...ln, write: (cs: FileChange[]) => ln.write(cs).replace(' │two\n', ' │TWO\n') };
    const w = writeWith(broken, [{ file: 'a.txt', before: 'one\n', after: 'two\n' }]);
    assert.equal(w.roundTrip, 'failed');
    assert.equal(w.problem, 'a.txt: line 1 is "TWO\\n" instead of "two\\n"');
  });
});

describe('compareFormats: the writings', () => {
  const change: FileChange[] = [{ file: 'src/app.py', before: 'def f():\n    return 1\n', after: 'def f():\n    return 2\n' }];

  it('gives the reply, its size and the files it gives, per format', () => {
    const ln = compareFormats(change).find((w) => w.format === 'ln-diff')!;
    const reply = 'src/app.py\n<editblock>\n<<<<<<< REMOVE\n2│    return 1\n=======\n │    return 2\n>>>>>>> INSERT\n</editblock>\n';
    assert.deepEqual({ ...ln, view: undefined }, {
      format: 'ln-diff',
      title: getFormat('ln-diff')!.title,
      reply,
      chars: reply.length,
      roundTrip: 'ok',
      files: { 'src/app.py': 'def f():\n    return 2\n' },
      view: undefined,
    });
  });

  it("gives each format the source view it reads: its own view, else plain text", () => {
    const byName = new Map(compareFormats(change).map((w) => [w.format, w.view]));
    assert.deepEqual(byName.get('ln-diff'), {
      kind: 'ln-diff',
      label: getFormat('ln-diff')!.title,
      text: 'src/app.py\n1│def f():\n2│    return 1\n',
      chars: 37,
    });
    assert.equal(byName.get('roo')!.text, 'src/app.py\n1 | def f():\n2 |     return 1\n');
    assert.equal(byName.get('udiff')!.kind, 'plain');
    assert.equal(byName.get('udiff')!.text, 'src/app.py\ndef f():\n    return 1\n');
    assert.equal(byName.get('hashline')!.kind, 'hashline');
    assert.equal(byName.get('hashline')!.text, 'src/app.py\n' + getFormat('hashline')!.view!('def f():\n    return 1\n'));
  });

  it('leaves out files that do not change', () => {
    const writings = compareFormats([...change, { file: 'same.txt', before: 'x\n', after: 'x\n' }]);
    for (const w of writings) assert.equal(w.roundTrip, 'ok', w.format);
    assert.ok(!writings.find((w) => w.format === 'whole')!.reply.includes('same.txt'));
  });
});

describe('sourceViews', () => {
  it('is plain text, then every registered view, each file under its path', () => {
    const views = sourceViews({ 'a.txt': 'one\ntwo', 'b.txt': '' });
    assert.deepEqual(
      views.map((v) => v.kind),
      ['plain', ...formats.filter((f) => f.view).map((f) => f.name)],
    );
    assert.deepEqual(views[0], { kind: 'plain', label: 'plain text', text: 'a.txt\none\ntwo\n\nb.txt\n', chars: 21 });
    assert.equal(views.find((v) => v.kind === 'ln-diff')!.text, 'a.txt\n1│one\n2│two\n\nb.txt\n');
  });

  it('shows nothing for no files', () => {
    for (const v of sourceViews({})) assert.equal(v.text, '');
  });
});

describe('changesFromReply', () => {
  it('gives the files a reply changes, created and deleted ones included', () => {
    const files = { 'a.py': 'x = 1\n', 'b.py': 'y = 2\n', 'c.py': 'z = 3\n' };
    const reply = [
      '*** Begin Patch',
      '*** Update File: a.py',
      '@@',
      '-x = 1',
      '+x = 10',
      '*** Delete File: b.py',
      '*** Add File: d.py',
      '+w = 4',
      '*** End Patch',
      '',
    ].join('\n');
    assert.deepEqual(changesFromReply('apply-patch', files, reply), [
      { file: 'a.py', before: 'x = 1\n', after: 'x = 10\n' },
      { file: 'b.py', before: 'y = 2\n', after: null },
      { file: 'd.py', before: null, after: 'w = 4\n' },
    ]);
  });

  it('detects the format with auto, and leaves out what failed', () => {
    const reply = 'a.py\n<editblock>\n<<<<<<< REMOVE\n1│x = 1\n=======\n │x = 2\n>>>>>>> INSERT\n</editblock>\n' +
      'a.py\n<editblock>\n<<<<<<< REMOVE\n9│nowhere\n=======\n │x\n>>>>>>> INSERT\n</editblock>\n';
    assert.deepEqual(changesFromReply('auto', { 'a.py': 'x = 1\n' }, reply), [{ file: 'a.py', before: 'x = 1\n', after: 'x = 2\n' }]);
  });

  it('round-trips: the change a spec reply makes, written in every format, gives the same files', () => {
    let checked = 0;
    for (const spec of specFiles()) {
      for (const example of spec.examples) {
        if (!example.expected.ok || example.options) continue;
        const changes = changesFromReply(example.format, example.files, example.reply);
        assert.deepEqual(changes, exampleChanges(example.files, example.expected.files), `spec/${spec.path} example ${example.number}`);
        assert.deepEqual(requestFiles(changes), Object.fromEntries(changes.filter((c) => c.before !== null).map((c) => [c.file, c.before])));
        checked++;
      }
    }
    assert.ok(checked > 100, `checked ${checked} examples`);
  });
});

describe('compareFormats: changes that repeat lines', () => {
  it('every writer writes a change that adds a line next to an equal one so that it applies back (never read as already applied)', () => {
    const text = fc.array(fc.constantFrom('a', 'b', '', '    a'), { maxLength: 10 }).map((lines) => lines.map((l) => l + '\n').join(''));
    fc.assert(
      fc.property(text, text, (before, after) => {
        if (before === after) return;
        for (const w of compareFormats([{ file: 'f.txt', before, after }]))
          assert.notEqual(w.roundTrip, 'failed', `${w.format}: ${w.problem}\n${JSON.stringify({ before, after })}\n${w.reply}`);
      }),
      { numRuns: 300 },
    );
  });
});
