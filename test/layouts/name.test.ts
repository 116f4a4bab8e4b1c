// The project's name in headings, wrapped for the code font (src/layouts/name.ts).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { markName, NAME_CLASS, splitName } from '../../src/layouts/name.ts';

const wrapped = `<span class="${NAME_CLASS}">ln-diff</span>`;

test('the name standing alone in a heading is wrapped', () => {
  assert.equal(markName('<h1 id="ln-diff-editblocks">ln-diff editblocks</h1>'), `<h1 id="ln-diff-editblocks">${wrapped} editblocks</h1>`);
  assert.equal(markName('<h2 class="a">Why ln-diff’s numbers</h2>'), `<h2 class="a">Why ${wrapped}’s numbers</h2>`);
  assert.equal(markName('<h3><a href="/spec/ln-diff/">The ln-diff spec</a></h3>'), `<h3><a href="/spec/ln-diff/">The ${wrapped} spec</a></h3>`);
});

test('code, longer words, attributes and text outside headings are left as they are', () => {
  for (const html of [
    '<h2>The <code>ln-diff</code> command</h2>',
    '<h2>ln-diff-anthropic-claude and my-ln-diff</h2>',
    '<p>ln-diff in a paragraph</p>',
    '<h2 title="ln-diff">Other</h2>',
    '<title>ln-diff editblocks</title>',
  ])
    assert.equal(markName(html), html);
});

test('twice is the same as once', () => {
  const once = markName('<h1>ln-diff in your agent</h1><h2>ln-diff</h2>');
  assert.equal(markName(once), once);
  assert.equal(once, `<h1>${wrapped} in your agent</h1><h2>${wrapped}</h2>`);
});

test('a text cut around the name, for a script that builds nodes', () => {
  assert.deepEqual(splitName('Prompts for ln-diff editblocks'), ['Prompts for ', 'ln-diff', ' editblocks']);
  assert.deepEqual(splitName('ln-diff-anthropic-claude'), ['ln-diff-anthropic-claude']);
  assert.deepEqual(splitName('ln-diff'), ['', 'ln-diff', '']);
});
