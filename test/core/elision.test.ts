import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { findElision, placeholderShape } from '../../src/core/elision.ts';

describe('placeholderShape', () => {
  it('recognises the placeholders models write', () => {
    for (const line of [
      '// ... existing code ...',
      '// ...existing code...',
      '# rest of function unchanged',
      '...',
      '…',
      '[...]',
      '// ...',
      '/* ... */',
      '# ... (unchanged)',
      '// other methods unchanged',
      '{/* ... existing JSX ... */}',
      '<!-- ... existing markup ... -->',
      '// ... rest of the code ...',
      '# Rest of the file remains the same',
      '// existing code ...',
      '// (... rest unchanged)',
      '-- ... existing columns ...',
      '// Keep existing implementation',
      '; ... other rules ...',
      '% rest of the document unchanged',
    ])
      assert.notEqual(placeholderShape(line), null, line);
  });
  it('leaves code and ordinary comments alone', () => {
    for (const line of [
      '// TODO: handle more cases...',
      '// wait for the rest...',
      '...args',
      'foo(...args)',
      '// loading...',
      '# This is the rest of it',
      '// ... loop over the items',
      'return ...;',
      'x = ...',
      '#!/usr/bin/env python',
      '#include <stdio.h>',
      '// Unchanged behaviour: returns null',
      '# other',
      '// see existing docs',
      'print("...")',
    ])
      assert.equal(placeholderShape(line), null, line);
  });
});

describe('findElision', () => {
  const none = () => [];
  it('finds the first placeholder of the new lines', () => {
    assert.equal(findElision(['a = 1', '    # ... existing code ...', 'b'], [], none), 1);
    assert.equal(findElision(['a = 1'], [], none), -1);
  });
  it("takes Python's `...` body for code", () => {
    assert.equal(findElision(['class P(Protocol):', '    def f(self):', '', '        ...'], [], none), -1);
    assert.equal(findElision(['def f():', '    x = 1', '    ...'], [], none), 2);
    assert.equal(findElision(['def f():', '...'], [], none), 1); // not indented deeper
  });
  it('a placeholder-like line in the old lines or the file is text', () => {
    assert.equal(findElision(['  // ...', 'x'], ['  // ...'], none), -1);
    assert.equal(findElision(['// ... existing code ...'], [], () => ['a', '   // ... existing code ...']), -1);
  });
  it('reads the file only when a placeholder-shaped line is found', () => {
    let reads = 0;
    const file = () => (reads++, ['a']);
    findElision(['x', 'y'], [], file);
    assert.equal(reads, 0);
    findElision(['// ...', '# ...'], [], file);
    assert.equal(reads, 1);
  });
});

// spec/ln-diff.md, "Elisions", states the rule in full: each sample the
// prose gives, and each edge it names, holds here as written there.
describe('the Elisions rule as spec/ln-diff.md states it', () => {
  const yes = (line: string) => assert.notEqual(placeholderShape(line), null, line);
  const no = (line: string) => assert.equal(placeholderShape(line), null, line);
  it('a phrase starts the text, and anything may follow it', () => {
    yes('# rest of function unchanged');
    yes('# rest of function unchanged, see above');
    yes('# REST OF FUNCTION UNCHANGED');
    no('# handle the rest of the input here');
    no('# sort by rank so that the rest of the list stays stable');
    no('# [rest of function unchanged]');
  });
  it('`rest of`: up to 40 characters, then one of its closing words', () => {
    for (const l of ['# rest of the file unchanged', '# rest of function remains the same', '# the rest of the code here', '# rest of function as is', '# rest of main.py stays'])
      yes(l);
    yes(`# rest of the ${'x'.repeat(39)} unchanged`); // 39 letters and the space before the word
    no(`# rest of the ${'x'.repeat(40)} unchanged`);
    no('# rest of the méthode unchanged'); // ASCII letters only
    no('# the rest of the list is sorted below');
  });
  it('a noun after up to three words, then its verb', () => {
    for (const l of ['# other methods unchanged', '# code omitted for brevity', '# all other tests are unchanged', '# this function stays the same', '# tests not shown', '# imports remain unchanged'])
      yes(l);
    no('# all the other helper methods unchanged'); // four words before the noun
    no('# other helpers unchanged'); // not one of the nouns
  });
  it('keep, existing, and the bare words', () => {
    yes('# keep existing implementation');
    yes('# keeping the original order');
    no('# keep in sync with parse()');
    yes('# existing code');
    for (const l of ['# unchanged', '# omitted.', '# snip', '# snipped!']) yes(l);
    no('# unchanged for now');
  });
  it('the dot shapes', () => {
    for (const l of ['# (...)', '/* … */', '# ... more', '# ... (rest unchanged)', '// existing code ...', '# rest ...)']) yes(l);
    for (const l of ['# ..', '// TODO: more cases...', '# code ...', '# ... loop over the items']) no(l);
  });
  it('only a comment on its own line, and not a directive', () => {
    for (const l of ['x = 1  # rest unchanged', '#!/usr/bin/env rest unchanged', '#region rest unchanged', '#include rest unchanged']) no(l);
    for (const l of ['#rest of function unchanged', '### rest of section unchanged', '-- rest of query unchanged', '<!-- rest of page unchanged -->', '{/* existing code */}'])
      yes(l);
  });
  it('no placeholder over 200 characters without its blanks, nor over 300 with them', () => {
    no(`# rest unchanged ${'x'.repeat(200)}`);
    assert.equal(findElision([`${' '.repeat(290)}# rest unchanged`], [], () => []), -1);
    assert.equal(findElision([`${' '.repeat(200)}# rest unchanged`], [], () => []), 0);
  });
});
