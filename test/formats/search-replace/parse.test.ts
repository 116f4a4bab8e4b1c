import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Span } from '../../../src/core/types.ts';
import { parseSearchReplace } from '../../../src/formats/search-replace/parse.ts';
import { cleanPathLine, dividerShapedLike, resolvePath } from '../../../src/formats/search-replace/syntax.ts';

/** The span from (line, column) to (line, column), 1-based, offsets computed from the reply's `\n`s. */
function span(reply: string, startLine: number, startCol: number, endLine: number, endCol: number): Span {
  const starts = [0];
  for (let k = 0; k < reply.length; k++) if (reply[k] === '\n') starts.push(k + 1);
  return {
    from: starts[startLine - 1] + startCol - 1,
    to: starts[endLine - 1] + endCol - 1,
    start: { line: startLine, column: startCol },
    end: { line: endLine, column: endCol },
  };
}

const lines = (...ls: string[]) => ls.map((l) => l + '\n').join('');

describe('blocks', () => {
  it('reads a diff block with its path line, fence and prose around', () => {
    const reply = lines('Intro.', '', 'a.py', '```python', '<<<<<<< SEARCH', 'x = 1', 'y = 2', '=======', 'x = 3', '>>>>>>> REPLACE', '```', 'Bye.');
    const { edits, diagnostics } = parseSearchReplace(reply, { files: ['a.py', 'b.py'] });
    assert.deepEqual(diagnostics, []);
    assert.deepEqual(edits, [
      {
        index: 0,
        kind: 'replace',
        file: 'a.py',
        old: ['x = 1', 'y = 2'],
        new: ['x = 3'],
        span: span(reply, 3, 1, 10, 16),
        oldSpans: [span(reply, 6, 1, 6, 6), span(reply, 7, 1, 7, 6)],
        warnings: [],
      },
    ]);
  });

  it('reads the path from inside the fence (diff-fenced)', () => {
    const reply = lines('```', 'src/b.py', '<<<<<<< SEARCH', 'a', '=======', 'b', '>>>>>>> REPLACE', '```');
    const [edit] = parseSearchReplace(reply, { files: ['src/a.py', 'src/b.py'] }).edits;
    assert.equal(edit.file, 'src/b.py');
    assert.deepEqual(edit.span, span(reply, 2, 1, 7, 16));
  });

  it('takes markers of 5 to 9 characters, blanks around and inside, and `SEARCH>`', () => {
    const reply = lines('f.txt', ' <<<<<SEARCH> ', 'a', '\t=========', 'b', '>>>>>>>>>   REPLACE');
    const [edit] = parseSearchReplace(reply, { files: ['f.txt'] }).edits;
    assert.deepEqual([edit.old, edit.new, edit.error], [['a'], ['b'], undefined]);
  });

  it('ignores markers of 4 or 10 characters and lower-case words', () => {
    for (const head of ['<<<< SEARCH', '<<<<<<<<<< SEARCH', '<<<<<<< search']) {
      const reply = lines(head, 'a', '=======', 'b', '>>>>>>> REPLACE');
      const r = parseSearchReplace(reply, { files: ['f.txt'] });
      assert.equal(r.edits.length, 0, head);
      assert.deepEqual(r.diagnostics.map((d) => d.code), ['stray-marker'], head);
    }
  });

  it('reads an empty SEARCH as an append, and a CRLF reply without its CRs', () => {
    const reply = 'new.txt\r\n```\r\n<<<<<<< SEARCH\r\n=======\r\nhello\r\n\r\n>>>>>>> REPLACE\r\n```\r\n';
    const [edit] = parseSearchReplace(reply, { files: [] }).edits;
    assert.equal(edit.kind, 'append');
    assert.deepEqual(edit.old, []);
    assert.deepEqual(edit.oldSpans, []);
    assert.deepEqual(edit.new, ['hello', '']);
    assert.equal(edit.file, 'new.txt');
  });

  it('reads a SEARCH of blank lines as empty only for a file not given', () => {
    const reply = lines('n.md', '```', '<<<<<<< SEARCH', '', '  ', '=======', '# N', '>>>>>>> REPLACE', '```');
    const created = parseSearchReplace(reply, { files: ['other.md'] }).edits[0];
    assert.deepEqual([created.kind, created.old], ['append', []]);
    const searched = parseSearchReplace(reply, { files: ['n.md'] }).edits[0];
    assert.deepEqual([searched.kind, searched.old], ['replace', ['', '  ']]);
  });
});

describe('paths', () => {
  it('cleans decorations like aider', () => {
    assert.deepEqual(cleanPathLine('  **`src/a.py`**:  '), { text: 'src/a.py', quoted: true });
    assert.deepEqual(cleanPathLine('### a\\_b.py:'), { text: 'a_b.py', quoted: false });
    assert.deepEqual(cleanPathLine('`docs/my file.md`'), { text: 'docs/my file.md', quoted: true });
  });

  it('resolves given paths, basenames, and path-like lines', () => {
    const files = ['src/app.py', 'x/README.md', 'README.md', 'lib/util.py'];
    assert.equal(resolvePath('./src/app.py', files), 'src/app.py');
    assert.equal(resolvePath('app.py', files), 'src/app.py');
    assert.equal(resolvePath('README.md', files), 'README.md');
    assert.equal(resolvePath('./README.md', ['x/README.md']), 'README.md');
    assert.equal(resolvePath('README.md', ['x/README.md']), 'x/README.md');
    assert.equal(resolvePath('Makefile', files), null);
    assert.equal(resolvePath('Makefile', files, true), 'Makefile');
    assert.equal(resolvePath('pass', files, true), 'pass');
    assert.equal(resolvePath('Sure!', files, true), null);
    assert.equal(resolvePath('new/dir/file.ts', files), 'new/dir/file.ts');
    assert.equal(resolvePath('`docs/my file.md`', files), 'docs/my file.md');
    assert.equal(resolvePath('Here is the fix:', files), null);
    assert.equal(resolvePath('Sure!', files), null);
    assert.equal(resolvePath('...', files), null);
    assert.equal(resolvePath('=======', files), null);
    assert.equal(resolvePath('```python', files), null);
    assert.equal(resolvePath('---', files), null);
  });

  it('takes a bare name only right next to the opening fence', () => {
    const block = ['<<<<<<< SEARCH', '=======', 'all:', '>>>>>>> REPLACE', '```'];
    const at = (...before: string[]) => parseSearchReplace(lines(...before, ...block), { files: ['a.txt'] }).edits[0].file;
    assert.equal(at('Makefile', '```'), 'Makefile');
    assert.equal(at('```', 'Makefile'), 'Makefile');
    assert.equal(at('Makefile', '', '```'), 'a.txt');
    assert.equal(at('Makefile'), 'a.txt');
    assert.equal(at('Makefile:', '```'), 'Makefile');
  });

  it('falls back to the previous block, then to the only file', () => {
    const block = ['```', '<<<<<<< SEARCH', 'a', '=======', 'b', '>>>>>>> REPLACE', '```'];
    const reply = lines('b.txt', ...block, '', ...block);
    const r = parseSearchReplace(reply, { files: ['a.txt', 'b.txt'] });
    assert.deepEqual(r.edits.map((e) => [e.file, e.error]), [['b.txt', undefined], ['b.txt', undefined]]);
    // The second block's span starts at its head: it has no path line.
    assert.deepEqual(r.edits[1].span.start, { line: 11, column: 1 });
    const only = parseSearchReplace(lines(...block), { files: ['only.txt'] });
    assert.equal(only.edits[0].file, 'only.txt');
  });

  it('stops at the first line that is not blank or a fence, and never reaches into the block before', () => {
    const reply = lines('a.txt', 'Here is the change:', '```', '<<<<<<< SEARCH', 'x', '=======', 'y', '>>>>>>> REPLACE', '```');
    const r = parseSearchReplace(reply, { files: ['a.txt', 'b.txt'] });
    assert.equal(r.edits[0].error?.code, 'missing-path');
    assert.deepEqual(r.edits[0].error?.reply, span(reply, 4, 1, 4, 15));
    assert.equal(
      r.edits[0].error?.message,
      'no file path for the SEARCH/REPLACE block at line 4: put the path alone on the line before the opening fence',
    );
    // A REPLACE line just above the next head is not that block's path.
    const two = lines('a.txt', '<<<<<<< SEARCH', 'x', '=======', 'b.txt', '>>>>>>> REPLACE', '<<<<<<< SEARCH', 'y', '=======', 'z', '>>>>>>> REPLACE');
    assert.deepEqual(parseSearchReplace(two, { files: ['a.txt', 'b.txt'] }).edits.map((e) => e.file), ['a.txt', 'a.txt']);
  });
});

describe('broken blocks', () => {
  it('missing divider: the error points at the end marker', () => {
    const reply = lines('f.txt', '<<<<<<< SEARCH', 'a', '>>>>>>> REPLACE');
    const [edit] = parseSearchReplace(reply, { files: ['f.txt'] }).edits;
    assert.equal(edit.error?.code, 'missing-divider');
    assert.deepEqual(edit.error?.reply, span(reply, 4, 1, 4, 16));
    assert.equal(edit.error?.message, 'expected `=======` between the SEARCH and the REPLACE lines, found `>>>>>>> REPLACE` at line 4 first');
    assert.deepEqual(edit.span, span(reply, 1, 1, 4, 16));
  });

  it('missing end marker: the block stops before the next block and its path', () => {
    const reply = lines('a.txt', '```', '<<<<<<< SEARCH', '1', '=======', 'one', '```', '', 'b.txt', '```', '<<<<<<< SEARCH', '2', '=======', 'two', '>>>>>>> REPLACE', '```');
    const { edits } = parseSearchReplace(reply, { files: ['a.txt', 'b.txt'] });
    assert.equal(edits.length, 2);
    assert.equal(edits[0].error?.code, 'missing-end-marker');
    assert.equal(
      edits[0].error?.message,
      'expected `>>>>>>> REPLACE` to end the block that starts at line 3 before the next `<<<<<<< SEARCH` at line 11; the block was not applied',
    );
    assert.deepEqual(edits[0].error?.reply, span(reply, 11, 1, 11, 15));
    assert.deepEqual(edits[0].span, span(reply, 1, 1, 6, 4));
    assert.deepEqual([edits[1].file, edits[1].error, edits[1].old, edits[1].new], ['b.txt', undefined, ['2'], ['two']]);
  });

  it('a head before any divider asks for both markers', () => {
    const reply = lines('<<<<<<< SEARCH', 'a', '<<<<<<< SEARCH', 'b', '=======', 'c', '>>>>>>> REPLACE');
    const { edits } = parseSearchReplace(reply, { files: ['f'] });
    assert.match(edits[0].error!.message, /^expected `=======` and `>>>>>>> REPLACE` to end the block that starts at line 1 /);
    assert.deepEqual(edits[0].span, span(reply, 1, 1, 2, 2));
  });

  it('truncated: the error is at the end of the reply', () => {
    const reply = 'f.txt\n<<<<<<< SEARCH\na\n=======\nb';
    const [edit] = parseSearchReplace(reply, { files: ['f.txt'] }).edits;
    assert.equal(edit.error?.code, 'truncated');
    assert.deepEqual(edit.error?.reply, span(reply, 5, 2, 5, 2));
    assert.deepEqual(edit.span, span(reply, 1, 1, 5, 2));
    assert.equal(
      edit.error?.message,
      'the reply ends inside the SEARCH/REPLACE block that starts at line 2 (expected `>>>>>>> REPLACE`): it was cut off or its end marker is missing; the block was not applied',
    );
  });

  it('a stray end marker is a reply-level warning', () => {
    const reply = lines('Text', '  >>>>>>> REPLACE');
    const r = parseSearchReplace(reply, { files: [] });
    assert.deepEqual(r.edits, []);
    assert.deepEqual(r.diagnostics, [
      {
        code: 'stray-marker',
        severity: 'warning',
        message: '`>>>>>>> REPLACE` at line 2 is outside any SEARCH/REPLACE block and was ignored',
        reply: span(reply, 2, 1, 2, 18),
      },
    ]);
  });
});

describe('dividers in content', () => {
  it('takes the one divider written like the head, with a warning', () => {
    const reply = lines('f.rst', '<<<<<<<< SEARCH', 'Title', '=======', '========', 'Title', '=======', 'More', '>>>>>>>> REPLACE');
    const [edit] = parseSearchReplace(reply, { files: ['f.rst'] }).edits;
    assert.deepEqual([edit.old, edit.new, edit.error], [['Title', '======='], ['Title', '=======', 'More'], undefined]);
    assert.deepEqual(edit.warnings, [
      {
        code: 'ambiguous-structure',
        severity: 'warning',
        message:
          'lines 4, 5 and 7 all read as the divider; line 5 was taken because it is written like this block\'s `<<<<<<<< SEARCH` ("========"), and lines 4 and 7 were read as content',
        reply: span(reply, 5, 1, 5, 9),
      },
    ]);
  });

  it('the shape includes the head indent', () => {
    assert.equal(dividerShapedLike('  <<<<< SEARCH'), '  =====');
    const reply = lines('  <<<<<<< SEARCH', 'a', '=======', 'b', '  =======', 'c', '  >>>>>>> REPLACE');
    const [edit] = parseSearchReplace(reply, { files: ['f'] }).edits;
    assert.deepEqual([edit.old, edit.new], [['a', '=======', 'b'], ['c']]);
  });

  it('fails as malformed when no single divider is written like the head', () => {
    const reply = lines('f.md', '<<<<<<< SEARCH', 'a', '=======', 'b', '=======', 'c', '>>>>>>> REPLACE');
    const [edit] = parseSearchReplace(reply, { files: ['f.md'] }).edits;
    assert.equal(edit.error?.code, 'malformed');
    assert.deepEqual(edit.error?.reply, span(reply, 4, 1, 6, 8));
    assert.equal(
      edit.error?.message,
      'lines 4 and 6 all read as the `=======` divider between SEARCH and REPLACE, and the block\'s markers do not tell which one is: reading line 4 gives 1 SEARCH line and 3 REPLACE lines; line 6 gives 3 SEARCH lines and 1 REPLACE line; the block was not applied. Write the markers with a length no content line has (for example `<<<<<<<< SEARCH`, `========`, `>>>>>>>> REPLACE`)',
    );
  });
});

describe('robustness', () => {
  it('never throws on odd input', () => {
    const odd = ['', '\n', '<<<<<<< SEARCH', '>>>>>>> REPLACE', '=======', '<<<<<<< SEARCH\n<<<<<<< SEARCH\n', '\r\n\r', '```\n<<<<<<< SEARCH\n```', '\uFEFF<<<<<<< SEARCH\n=======\n>>>>>>> REPLACE'];
    for (const reply of odd) {
      assert.doesNotThrow(() => parseSearchReplace(reply, { files: [] }), JSON.stringify(reply));
      assert.doesNotThrow(() => parseSearchReplace(reply, { files: ['a', 'b'] }), JSON.stringify(reply));
    }
    assert.deepEqual(
      parseSearchReplace('<<<<<<< SEARCH\n<<<<<<< SEARCH\n', { files: [] }).edits.map((e) => e.error?.code),
      ['missing-end-marker', 'truncated'],
    );
  });
});
