// The site search: the index read from spec Markdown (sections.ts) and the
// query rules (query.ts), on the real spec pages and on small made-up ones.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { pageDocs, plainText, type RenderedHeading } from '../src/search/sections.ts';
import { search, words } from '../src/search/query.ts';

const md = `---
title: T
---

# Matching

Intro text.

## The ladder

Exact, then **shifted**, then [fuzzy](x.md) matches.

\`\`\`ts
## not a heading
const fuzzy = 1;
\`\`\`

${'`'.repeat(32)} example
//// file a.txt
one
//// reply
## not a heading either
//// edits
failed code=no-match
${'`'.repeat(32)}

## Bounds

Example 120 is far away; so is a window of 50 lines.
`;
const headings: RenderedHeading[] = [
  { depth: 1, slug: 'matching', text: 'Matching' },
  { depth: 2, slug: 'the-ladder', text: 'The ladder' },
  { depth: 2, slug: 'bounds', text: 'Bounds' },
];

test('one entry per heading, prose without markup, code fences kept as text, examples apart', () => {
  const docs = pageDocs('/spec/m/', md, headings, 'ln-diff');
  assert.deepEqual(
    docs.map((d) => [d.kind, d.title, d.url]),
    [
      ['section', 'Matching', '/spec/m/'],
      ['section', 'The ladder', '/spec/m/#the-ladder'],
      ['section', 'Bounds', '/spec/m/#bounds'],
      ['example', 'Example 1', '/spec/m/#example-1'],
    ],
  );
  assert.match(docs[1].text, /^Exact, then shifted, then fuzzy matches\. ## not a heading const fuzzy = 1;$/);
  assert.ok(!docs[1].text.includes('not a heading either'), 'an example body is not its section prose');
  assert.equal(docs[3].number, 1);
  assert.match(docs[3].text, /The ladder/);
  assert.match(docs[3].text, /no-match/);
});

test('a heading count that differs from the rendered page is an error, not a wrong anchor', () => {
  assert.throws(() => pageDocs('/spec/m/', md, headings.slice(0, 2), 'ln-diff'), /3 headings in its source but 2 rendered/);
});

test('plain text drops links, emphasis, code marks and table rules', () => {
  assert.equal(plainText('| a | `b` |\n|---|---|\n| [c](d) | **e** |'), 'a b c e');
});

test('every word must match; letters match a word start, numbers only the same number', () => {
  const docs = pageDocs('/spec/m/', md, headings, 'ln-diff');
  assert.deepEqual(search(docs, 'ladder').map((h) => h.doc.title), ['The ladder', 'Example 1']);
  assert.deepEqual(search(docs, 'fuzz ladd').map((h) => h.doc.title)[0], 'The ladder');
  assert.deepEqual(search(docs, 'ladder zebra'), []);
  assert.deepEqual(search(docs, 'example 1').map((h) => h.doc.title), ['Example 1']);
  assert.deepEqual(search(docs, '12').map((h) => h.doc.title), []);
  assert.deepEqual(search(docs, '120').map((h) => h.doc.title), ['Bounds']);
  assert.deepEqual(search(docs, 'match').map((h) => h.doc.title).slice(0, 1), ['Matching']);
  assert.deepEqual(search(docs, 'no-match').map((h) => h.doc.title), ['Example 1']);
  assert.deepEqual(search(docs, '   '), []);
});

test('a snippet quotes the text around the first matched word', () => {
  const docs = pageDocs('/spec/m/', md, headings, 'ln-diff');
  const hit = search(docs, 'window')[0];
  assert.equal(hit.doc.title, 'Bounds');
  assert.match(hit.snippet, /a window of 50 lines/);
});

test('words keep hyphenated codes whole and lower-case everything', () => {
  assert.deepEqual(words('No-Match, at LINE 12!'), ['no-match', 'at', 'line', '12']);
});

test('the real spec pages: Example 12 of ln-diff.md is found by number', () => {
  const text = readFileSync(new URL('../spec/ln-diff.md', import.meta.url), 'utf8');
  const fake: RenderedHeading[] = [];
  // Headings as the source has them (the page endpoint pairs them with Astro's slugs).
  let fence = '';
  for (const line of text.replace(/^---\n[\s\S]*?\n---\n/, '').split('\n')) {
    const f = /^ {0,3}(`{3,}|~{3,})/.exec(line);
    if (fence) {
      if (f && f[1][0] === fence[0] && f[1].length >= fence.length && /^ {0,3}[`~]+\s*$/.test(line)) fence = '';
      continue;
    }
    if (f) fence = f[1];
    else if (/^#{1,6}\s/.test(line)) fake.push({ depth: line.indexOf(' '), slug: `h${fake.length}`, text: line.replace(/^#+\s+/, '') });
  }
  const docs = pageDocs('/spec/ln-diff/', text, fake, 'ln-diff');
  const hits = search(docs, 'example 12');
  assert.equal(hits[0].doc.url, '/spec/ln-diff/#example-12');
  assert.ok(docs.filter((d) => d.kind === 'example').length > 100);
});
