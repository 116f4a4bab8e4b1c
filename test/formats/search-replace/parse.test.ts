import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Span } from '../../../src/core/types.ts';
import { parseSearchReplace } from '../../../src/formats/search-replace/parse.ts';
import { dividerShapedLike, isFence } from '../../../src/formats/search-replace/syntax.ts';

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
  const block = ['```', '<<<<<<< SEARCH', '=======', 'all:', '>>>>>>> REPLACE', '```'];
  const read = (files: string[], ...before: string[]) => {
    const [edit] = parseSearchReplace(lines(...before, ...block), { files }).edits;
    return edit.error ? edit.error.code : edit.file;
  };

  it('reads the line above the fence with core\'s path reader: given paths by name, case, `./` and `\\`', () => {
    const files = ['src/app.py', 'x/README.md', 'README.md', 'lib/util.py'];
    assert.equal(read(files, './src/app.py'), 'src/app.py');
    assert.equal(read(files, 'app.py'), 'src/app.py');
    assert.equal(read(files, 'SRC\\App.py'), 'src/app.py');
    assert.equal(read(files, 'README.md'), 'README.md');
    assert.equal(read(['x/README.md'], './README.md'), 'README.md');
    assert.equal(read(['x/README.md'], 'README.md'), 'x/README.md');
    assert.equal(read(files, '**`src/app.py`**:'), 'src/app.py');
    assert.equal(read(files, '### lib/util.py'), 'lib/util.py');
    assert.equal(read(files, 'new/dir/file.ts'), 'new/dir/file.ts');
    assert.equal(read(files, '`docs/my file.md`'), 'docs/my file.md');
  });

  it('takes extension-less names and paths with blanks as paths, never the only file', () => {
    for (const name of ['Makefile', 'Dockerfile', 'LICENSE', 'README', 'Procfile', 'Gemfile', '.gitignore', 'docs/My Notes.md'])
      for (const gap of [[], ['']]) assert.equal(read(['app.py'], name, ...gap), name, `${name} ${gap.length}`);
  });

  it('a line where the path goes that is not a path is missing-path, never another file', () => {
    assert.equal(read(['app.py'], 'Sure.'), 'missing-path');
    assert.equal(read(['app.py'], 'Output:'), 'missing-path');
    assert.equal(read(['app.py'], 'https://example.com/a.py'), 'missing-path');
    const [edit] = parseSearchReplace(lines('src/app.py...', ...block), { files: ['src/app.py'] }).edits;
    assert.equal(
      edit.error?.message,
      'no file path for the SEARCH/REPLACE block at line 3: "src/app.py..." at line 1, where the path goes, is not one (it holds an ellipsis); the block was not applied to any other file. Put the path alone on the line before the opening fence',
    );
    assert.deepEqual(edit.error?.reply, span(lines('src/app.py...'), 1, 1, 1, 14));
  });

  it('a sentence, a rule or an elision line names no file: the only file, or the previous block\'s', () => {
    assert.equal(read(['app.py'], 'Here is the fix:'), 'app.py');
    assert.equal(read(['app.py'], '---'), 'app.py');
    assert.equal(read(['app.py'], '...'), 'app.py');
    assert.equal(read(['a.py', 'b.py'], 'Here is the fix:'), 'missing-path');
  });

  it('takes a bare word only right next to the opening fence', () => {
    assert.equal(read(['a.txt'], 'run'), 'run');
    assert.equal(read(['a.txt'], 'run', ''), 'missing-path');
    assert.equal(read(['a.txt'], '`run`', ''), 'run');
    assert.equal(read(['a.txt'], 'Makefile', ''), 'Makefile');
    const inside = parseSearchReplace(lines('```', 'run', '<<<<<<< SEARCH', '=======', 'x', '>>>>>>> REPLACE', '```'), { files: ['a.txt'] }).edits[0];
    assert.equal(inside.file, 'run');
    const bare = parseSearchReplace(lines('run', '<<<<<<< SEARCH', '=======', 'x', '>>>>>>> REPLACE'), { files: ['a.txt'] }).edits[0];
    assert.equal(bare.error?.code, 'missing-path');
  });

  it('falls back to the previous block, then to the only file (not when the format was detected)', () => {
    const one = ['```', '<<<<<<< SEARCH', 'a', '=======', 'b', '>>>>>>> REPLACE', '```'];
    const reply = lines('b.txt', ...one, '', ...one);
    const r = parseSearchReplace(reply, { files: ['a.txt', 'b.txt'] });
    assert.deepEqual(r.edits.map((e) => [e.file, e.error]), [['b.txt', undefined], ['b.txt', undefined]]);
    // The second block's span starts at its head: it has no path line.
    assert.deepEqual(r.edits[1].span.start, { line: 11, column: 1 });
    const only = parseSearchReplace(lines(...one), { files: ['only.txt'] });
    assert.equal(only.edits[0].file, 'only.txt');
    const detected = parseSearchReplace(lines(...one), { files: ['only.txt'], detected: true });
    assert.equal(detected.edits[0].error?.code, 'missing-path');
  });

  it('after a path line that could not be read, the next blocks without a path fail too', () => {
    const one = ['```', '<<<<<<< SEARCH', 'a', '=======', 'b', '>>>>>>> REPLACE', '```'];
    const reply = lines('a.txt', ...one, '', 'Sure.', ...one, '', ...one, '', 'a.txt', ...one, '', ...one);
    const r = parseSearchReplace(reply, { files: ['a.txt'] });
    assert.deepEqual(r.edits.map((e) => e.error?.code ?? e.file), ['a.txt', 'missing-path', 'missing-path', 'a.txt', 'a.txt']);
    assert.match(r.edits[2].error!.message, /the block before it named no file that could be read/);
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

describe('fences', () => {
  it('reads every fence aider writes: backticks, tildes, and its tag fences with or without a language', () => {
    for (const f of ['```', '````', '```python', '~~~', '<source>', '<source>python', '</source>', '<code>', '</code>', '<pre>', '</pre>', '<codeblock>', '</codeblock>', '<sourcecode>js', '</sourcecode>'])
      assert.ok(isFence(f), f);
    for (const f of ['``', '<code>x()</code>', '<sources>', '</source> more', '<span>', 'source'])
      assert.ok(!isFence(f), f);
  });

  it('reads a path written on the opening fence line, as aider does, but not a language', () => {
    const at = (open: string, files = ['main.py']) =>
      parseSearchReplace(lines(open, '<<<<<<< SEARCH', '=======', 'x = 1', '>>>>>>> REPLACE', '```'), { files }).edits[0];
    assert.equal(at('```src/new.py').file, 'src/new.py');
    assert.equal(at('<source>new.py').file, 'new.py');
    assert.equal(at('```python').file, 'main.py');
    assert.equal(at('```python3.12').file, 'main.py');
    assert.equal(at('```MAIN.PY', ['main.py', 'b.py']).file, 'main.py');
    // The fence names the file even with a path line above it: the nearest wins.
    assert.equal(parseSearchReplace(lines('a.py', '```b.py', '<<<<<<< SEARCH', '=======', 'x', '>>>>>>> REPLACE'), { files: [] }).edits[0].file, 'b.py');
  });

  it('finds the path above an aider tag fence, and inside it (diff-fenced)', () => {
    for (const [open, close] of [['<source>python', '</source>'], ['<code>', '</code>'], ['<pre>', '</pre>'], ['<codeblock>', '</codeblock>'], ['<sourcecode>', '</sourcecode>'], ['````python', '````']]) {
      const body = ['<<<<<<< SEARCH', 'x = 1', '=======', 'x = 2', '>>>>>>> REPLACE', close];
      const diff = parseSearchReplace(lines('src/b.py', open, ...body), { files: ['src/a.py', 'src/b.py'] }).edits[0];
      assert.deepEqual([diff.file, diff.error], ['src/b.py', undefined], open);
      const fenced = parseSearchReplace(lines(open, 'src/b.py', ...body), { files: ['src/a.py', 'src/b.py'] }).edits[0];
      assert.deepEqual([fenced.file, fenced.error], ['src/b.py', undefined], open);
    }
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

  it('a second end marker before any new head makes the block fail with ambiguous-end, spanning both', () => {
    const reply = lines('f.txt', '```', '<<<<<<< SEARCH', 'a', '=======', 'Example: the end marker is', '>>>>>>> REPLACE', 'That is all.', '>>>>>>> REPLACE', '```');
    const r = parseSearchReplace(reply, { files: ['f.txt'] });
    assert.deepEqual(r.diagnostics, []);
    assert.equal(r.edits.length, 1);
    assert.equal(r.edits[0].error?.code, 'ambiguous-end');
    assert.deepEqual(r.edits[0].error?.reply, span(reply, 9, 1, 9, 16));
    assert.deepEqual(r.edits[0].span, span(reply, 1, 1, 9, 16));
    assert.equal(
      r.edits[0].error?.message,
      'the block that starts at line 3 has an end marker `>>>>>>> REPLACE` at line 7 and another at line 9, with no new block between: the lines between may be REPLACE lines, so the block could end at either; it was not applied. A line that reads as `>>>>>>> REPLACE` cannot be content in a SEARCH/REPLACE block: if the second marker is a repeat, remove it; else write the change so that no content line is an end marker',
    );
    // A marker repeated right away is the same case; the next block is read as usual, with its own path.
    const twice = lines('f.txt', '<<<<<<< SEARCH', 'a', '=======', 'b', '>>>>>>> REPLACE', '>>>>>>> REPLACE', '', 'g.txt', '<<<<<<< SEARCH', 'c', '=======', 'd', '>>>>>>> REPLACE');
    const t = parseSearchReplace(twice, { files: ['f.txt', 'g.txt'] });
    assert.deepEqual(t.edits.map((e) => [e.file, e.error?.code]), [['f.txt', 'ambiguous-end'], ['g.txt', undefined]]);
    // An end marker inside the SEARCH lines: the block could end there too.
    const early = parseSearchReplace(lines('f.txt', '<<<<<<< SEARCH', 'a', '>>>>>>> REPLACE', 'b', '=======', 'c', '>>>>>>> REPLACE'), { files: ['f.txt'] });
    assert.deepEqual(early.edits.map((e) => e.error?.code), ['ambiguous-end']);
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

describe("search-replace parser: Cline's replace_in_file", () => {
  const parse = (reply: string, files: string[] = ['a.txt', 'b.txt']) => parseSearchReplace(reply, { files });

  it('reads Cline markers with any number (3 or more) of - and +, and a trailing > on either marker', () => {
    for (const [head, end] of [
      ['------- SEARCH', '+++++++ REPLACE'],
      ['--- SEARCH', '+++ REPLACE'],
      ['------------SEARCH>', '++++++++++++REPLACE>'],
      ['------- SEARCH', '>>>>>>> REPLACE'],
      ['<<<<<<< SEARCH', '+++++++ REPLACE'],
    ]) {
      const { edits } = parse(lines('a.txt', '```', head, 'a', '=======', 'A', end, '```'));
      assert.equal(edits.length, 1, head);
      assert.deepEqual([edits[0].file, edits[0].old, edits[0].new, edits[0].error], ['a.txt', ['a'], ['A'], undefined], head);
    }
    for (const head of ['-- SEARCH', '------- search', '- SEARCH']) assert.equal(parse(lines('a.txt', '```', head, 'a', '=======', 'A', '+++++++ REPLACE', '```')).edits.length, 0, head);
  });

  it('takes the path of a call from its <path>, never from a line above the head', () => {
    const reply = lines('b.txt', '<replace_in_file>', '<path>./A.TXT</path>', '<diff>', 'b.txt', '------- SEARCH', 'a', '=======', 'A', '+++++++ REPLACE', '</diff>', '</replace_in_file>');
    const { edits } = parse(reply);
    assert.deepEqual(edits.map((e) => [e.file, e.error?.code]), [['a.txt', undefined]]);
    assert.deepEqual(edits[0].span, span(reply, 6, 1, 10, 16));
  });

  it('ends a block at its call\'s </diff> with missing-end-marker, naming the marker the head calls for, and reads on', () => {
    const reply = lines('<replace_in_file>', '<path>a.txt</path>', '<diff>', '------- SEARCH', 'a', '=======', 'A', '</diff>', '</replace_in_file>', 'b.txt', '```', '<<<<<<< SEARCH', 'b', '=======', 'B', '>>>>>>> REPLACE', '```');
    const { edits } = parse(reply);
    assert.deepEqual(edits.map((e) => [e.file, e.error?.code]), [['a.txt', 'missing-end-marker'], ['b.txt', undefined]]);
    assert.equal(
      edits[0].error!.message,
      'expected `+++++++ REPLACE` to end the block that starts at line 4 before `</diff>` at line 8 closes the replace_in_file call; the block was not applied',
    );
    assert.deepEqual(edits[0].error!.reply, span(reply, 8, 1, 8, 8));
  });

  it('fails every block of a call without a <path>, or with an empty one, as missing-path (never the only file given)', () => {
    for (const pathLine of [[], ['<path> </path>']]) {
      const reply = lines('<replace_in_file>', ...pathLine, '<diff>', '------- SEARCH', 'a', '=======', 'A', '+++++++ REPLACE', '------- SEARCH', 'b', '=======', 'B', '+++++++ REPLACE', '</diff>', '</replace_in_file>');
      const { edits } = parseSearchReplace(reply, { files: ['a.txt'] });
      assert.deepEqual(edits.map((e) => e.error?.code), ['missing-path', 'missing-path']);
      assert.match(edits[0].error!.message, /^no file path for the SEARCH\/REPLACE block at line \d+: its <replace_in_file> call at line 1 has (no <path>…<\/path> line before <diff>|an empty <path><\/path>);/);
    }
  });

  it('ends a call\'s last block at its </diff>: an end marker after the call is stray, not a second end', () => {
    const { edits, diagnostics } = parse(lines('<replace_in_file>', '<path>a.txt</path>', '<diff>', '------- SEARCH', 'a', '=======', 'A', '+++++++ REPLACE', '</diff>', '</replace_in_file>', '+++++++ REPLACE'));
    assert.deepEqual(edits.map((e) => e.error?.code), [undefined]);
    assert.deepEqual(diagnostics.map((d) => d.code), ['stray-marker']);
  });

  it('tells a divider in content from the divider by the Cline head\'s length', () => {
    const { edits } = parse(lines('a.txt', '```', '--------- SEARCH', 'a', '=======', 'x', '=========', 'A', '+++++++ REPLACE', '```'));
    assert.deepEqual([edits[0].old, edits[0].new], [['a', '=======', 'x'], ['A']]);
    assert.equal(dividerShapedLike('  ----- SEARCH'), '  =====');
  });
});
