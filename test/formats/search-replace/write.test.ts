import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { runFormat } from '../../../src/core/run.ts';
import type { FileChange } from '../../../src/core/types.ts';
import { detectSearchReplace, searchReplace } from '../../../src/formats/search-replace/index.ts';
import { fenceFor, markersFor, pathLine, searchGroups } from '../../../src/formats/search-replace/write.ts';

const lines = (...ls: string[]) => ls.map((l) => l + '\n').join('');

/** Write the changes, apply the reply to the befores, and check the afters come back. */
function roundTrip(changes: FileChange[]): string {
  const reply = searchReplace.write(changes);
  const files = Object.fromEntries(changes.filter((c) => c.before !== null).map((c) => [c.file, c.before!]));
  const r = runFormat(searchReplace, { format: 'search-replace', files, response: reply });
  assert.equal(r.ok, true, `${reply}\n${JSON.stringify(r.edits)}`);
  for (const c of changes) assert.equal(r.files[c.file], c.after ?? '', reply);
  return reply;
}

describe('writer', () => {
  it('writes aider diff layout with a minimal unique SEARCH', () => {
    const reply = roundTrip([{ file: 'a.py', before: lines('x = 1', 'y = 2', 'z = 3'), after: lines('x = 1', 'y = 20', 'z = 3') }]);
    assert.equal(reply, lines('a.py', '```', '<<<<<<< SEARCH', 'y = 2', '=======', 'y = 20', '>>>>>>> REPLACE', '```'));
  });

  it('grows the SEARCH with neighbours until it is unique', () => {
    const before = lines('}', '}', 'a', '}', 'b');
    const reply = roundTrip([{ file: 'f', before, after: lines('}', '}', 'a', '};', 'b') }]);
    assert.equal(reply, lines('f', '```', '<<<<<<< SEARCH', '}', 'b', '=======', '};', 'b', '>>>>>>> REPLACE', '```'));
  });

  it('anchors an insertion on a neighbouring line, and appends at the end', () => {
    const before = lines('a', 'b');
    const reply = roundTrip([{ file: 'f', before, after: lines('a', 'new', 'b', 'tail') }]);
    assert.equal(
      reply,
      lines('f', '```', '<<<<<<< SEARCH', 'b', '=======', 'new', 'b', '>>>>>>> REPLACE', '```', '', 'f', '```', '<<<<<<< SEARCH', '=======', 'tail', '>>>>>>> REPLACE', '```'),
    );
  });

  it('merges changes whose SEARCH would overlap', () => {
    const a = ['x', 'x', 'x', 'x'];
    const groups = searchGroups(a, [
      { from: 1, to: 1, lines: ['n1'] },
      { from: 3, to: 3, lines: ['n2'] },
    ]);
    assert.deepEqual(groups.map((g) => [g.from, g.to, g.splices.length]), [[0, 4, 2]]);
    roundTrip([{ file: 'f', before: lines('x', 'x', 'x', 'x'), after: lines('x', 'n1', 'x', 'x', 'n2', 'x') }]);
  });

  it('writes a new file as an empty SEARCH, and a deleted one as removing every line', () => {
    const reply = searchReplace.write([
      { file: 'new.txt', before: null, after: lines('hello') },
      { file: 'old.txt', before: lines('bye', 'now'), after: null },
    ]);
    assert.equal(
      reply,
      lines('new.txt', '```', '<<<<<<< SEARCH', '=======', 'hello', '>>>>>>> REPLACE', '```', '', 'old.txt', '```', '<<<<<<< SEARCH', 'bye', 'now', '=======', '>>>>>>> REPLACE', '```'),
    );
    const r = runFormat(searchReplace, { format: 'search-replace', files: { 'old.txt': lines('bye', 'now') }, response: reply });
    assert.deepEqual(r.files, { 'old.txt': '', 'new.txt': 'hello\n' });
  });

  it('chooses markers no content line equals, and a longer fence', () => {
    assert.deepEqual(markersFor(['a']), { head: '<<<<<<< SEARCH', divider: '=======', end: '>>>>>>> REPLACE' });
    assert.deepEqual(markersFor(['=======']), { head: '<<<<<<<< SEARCH', divider: '========', end: '>>>>>>>> REPLACE' });
    const all = ['=====', '======', '=======', '========', '========='];
    assert.deepEqual(markersFor(all), { head: ' <<<<<<< SEARCH', divider: ' =======', end: ' >>>>>>> REPLACE' });
    assert.equal(fenceFor(['x']), '```');
    assert.equal(fenceFor(['  ````ts', '```']), '`````');
    const reply = roundTrip([{ file: 'r.md', before: lines('=======', 'a', '=======', 'a'), after: lines('=======', 'a', '=======', '```', 'b') }]);
    assert.equal(reply, lines('r.md', '````', '<<<<<<<< SEARCH', 'a', '=======', 'a', '========', 'a', '=======', '```', 'b', '>>>>>>>> REPLACE', '````'));
    roundTrip([{ file: 'r.md', before: lines(...all, 'x'), after: lines(...all, 'y') }]);
  });

  it('writes a path line that reads back as the same file', () => {
    assert.equal(pathLine('src/a.ts', ['src/a.ts']), 'src/a.ts');
    assert.equal(pathLine('README.md', ['x/README.md']), './README.md');
    assert.equal(pathLine('docs/with space.md', []), 'docs/with space.md');
    assert.equal(pathLine('with space.md', []), '`with space.md`');
    assert.equal(pathLine('x.py', ['src/x.py']), './x.py');
    roundTrip([
      { file: 'x/README.md', before: lines('a'), after: lines('b') },
      { file: 'README.md', before: null, after: lines('top') },
      { file: 'docs/with space.md', before: null, after: lines('s') },
    ]);
  });

  it('refuses a content line that reads as a head or an end marker (no escape), rather than write another change', () => {
    for (const line of ['>>>>>>> REPLACE', '  <<<<< SEARCH']) {
      assert.throws(
        () => searchReplace.write([{ file: 'n.md', before: lines('TODO'), after: lines('Example:', line) }]),
        (e: Error) => e.name === 'UnwritableChange' && e.message.startsWith('cannot write n.md as SEARCH/REPLACE blocks: the line '),
      );
    }
  });

  it('keeps CRLF, BOM and a missing final newline', () => {
    roundTrip([{ file: 'w.txt', before: '\uFEFFa\r\nb\r\nc', after: '\uFEFFa\r\nB\r\nc' }]);
    roundTrip([{ file: 'w.txt', before: 'a\r\nb', after: 'a\r\nb\r\nc' }]);
  });
});

describe('detect', () => {
  it('scores aider blocks 0.9, Roo blocks 0, a lone head (a block cut off) 0.8: structure, read under auto', () => {
    assert.deepEqual(detectSearchReplace(lines('f', '```', '<<<<<<< SEARCH', 'a', '=======', 'b', '>>>>>>> REPLACE', '```')), {
      score: 0.9,
      reason: '`<<<<<<< SEARCH` at line 3 and `>>>>>>> REPLACE` at line 7',
    });
    assert.deepEqual(detectSearchReplace(lines('<<<<<<< SEARCH', ':start_line:3', '-------', 'a', '=======', 'b', '>>>>>>> REPLACE')), {
      score: 0,
      reason: "`:start_line:3` at line 2 belongs to Roo Code's variant",
    });
    assert.equal(detectSearchReplace(lines('<<<<<<< SEARCH', '-------', 'a', '=======', 'b', '>>>>>>> REPLACE')).score, 0);
    assert.equal(detectSearchReplace(lines('<<<<<<< SEARCH', '---', 'a', '=======', 'b', '>>>>>>> REPLACE')).score, 0.9);
    assert.equal(detectSearchReplace('<<<<<<< SEARCH\r\na\r\n').score, 0.8);
    assert.deepEqual(detectSearchReplace('<<<<<<< REMOVE\n1│a\n=======\n>>>>>>> INSERT\n'), { score: 0, reason: 'no `<<<<<<< SEARCH` or `------- SEARCH` line' });
  });
});
