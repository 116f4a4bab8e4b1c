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
