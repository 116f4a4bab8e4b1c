// The site search beyond the spec: entries read from a built page's HTML
// (src/search/html.ts) and how a query ranks them with the spec's
// (src/search/query.ts): a page's title and headings first, the little words
// of a question dropped.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { decodeEntities, htmlDocs, MAX_TEXT, textFragment } from '../src/search/html.ts';
import { queryWords, search } from '../src/search/query.ts';
import type { SearchDoc } from '../src/search/sections.ts';

const agents = `<!doctype html><html lang="en"><head><meta charset="utf-8">
<meta name="description" content="Configure Claude &amp; Cursor to apply edits">
<title>ln-diff in your agent: an MCP server · ln-diff</title>
<script>var x = "<h2>not a heading</h2>";</script></head>
<body><header class="site-header"><nav aria-label="Site"><a href="/agents/">Agents</a></nav></header>
<main id="main"><article>
<h1 data-astro-cid-x><span class="name">ln-diff</span> in your agent</h1>
<p class="lead">Every agent needs an edit tool: <code>ln-diff mcp</code> is one.</p>
<pre data-lang="sh"><code>npx -y ln-diff mcp --root /path/to/project</code></pre>
<nav aria-label="Clients"><ul><li><a href="#cursor">Cursor</a></li></ul></nav>
<h2 id="tools">What it offers</h2><p>read_file and apply_edits &lt;dry runs&gt;.</p>
<select><option>ln-diff</option><option>udiff</option></select><button type="button">Copy</button>
<h3 id="cursor">Cursor</h3><p data-x='a > b'>.cursor/mcp.json in the project</p>
<h3>Illustrative replies</h3><p>first</p>
<h3>Illustrative replies</h3><p>second</p>
<div class="example" id="example-1"><p>SECRET example text</p></div>
<p hidden>hidden text</p><p aria-hidden="true">decoration</p>
<h2>Why line numbers</h2><p>The number says where to look.</p>
<h2 id="empty">Diagnostics</h2>
<style>.x{}</style>
</article></main>
<footer>the footer is not read</footer></body></html>`;

test('a built page: one entry per h1-h3, the page itself first under its <title>', () => {
  const docs = htmlDocs('/agents/', agents);
  assert.deepEqual(
    docs.map((d) => [d.title, d.url]),
    [
      ['ln-diff in your agent: an MCP server', '/agents/'],
      ['What it offers', '/agents/#tools'],
      ['Cursor', '/agents/#cursor'],
      ['Why line numbers', '/agents/#:~:text=Why%20line%20numbers'],
    ],
  );
  assert.ok(docs.every((d) => d.kind === 'section' && d.page === 'ln-diff in your agent: an MCP server'));
  // The description, the h1 and the text under it, install lines included.
  assert.equal(
    docs[0].text,
    'Configure Claude & Cursor to apply edits ln-diff in your agent Every agent needs an edit tool: ln-diff mcp is one. npx -y ln-diff mcp --root /path/to/project',
  );
  assert.equal(docs[1].text, 'read_file and apply_edits <dry runs>.');
  // A heading that repeats without an id stays in the section above; examples, hidden text and controls are not read.
  assert.equal(docs[2].text, '.cursor/mcp.json in the project Illustrative replies first Illustrative replies second');
  const all = docs.map((d) => d.text).join(' ');
  for (const gone of ['SECRET', 'hidden text', 'decoration', 'Copy', 'udiff', 'not a heading', 'footer', 'Agents'])
    assert.ok(!all.includes(gone), gone);
});

test('a page without <main> has no entries; a long section is cut', () => {
  assert.deepEqual(htmlDocs('/x/', '<html><head><title>X</title></head><body><h1>X</h1></body></html>'), []);
  const long = htmlDocs('/x/', `<title>X</title><main><h1>X</h1><p>${'word '.repeat(2000)}</p></main>`);
  assert.equal(long.length, 1);
  assert.equal(long[0].text.length, MAX_TEXT);
});

test('character references and text fragments', () => {
  assert.equal(decodeEntities('a &amp; b &lt;c&gt; &#39;d&#x27; &quot;e&quot; &bogus;'), `a & b <c> 'd' "e" &bogus;`);
  assert.equal(textFragment('/', 'In your agent (MCP)'), '/#:~:text=In%20your%20agent%20(MCP)');
  assert.equal(textFragment('/', 'line-number diff, again'), '/#:~:text=line%2Dnumber%20diff%2C%20again');
});

test('the little words of a question are dropped, unless nothing else is left', () => {
  assert.deepEqual(queryWords('How do I prompt Claude?'), ['prompt', 'claude']);
  assert.deepEqual(queryWords('the ladder'), ['ladder']);
  assert.deepEqual(queryWords('how to'), ['how', 'to']);
});

// A small site: a spec page that mentions the words in passing, and the
// pages that are about them.
const spec: SearchDoc[] = [
  { kind: 'section', page: 'Matching', title: 'Matching', url: '/spec/matching/', text: 'Every format, mcp or not, in an editor such as Cursor: a cursor, a prompt, Claude.' },
  { kind: 'section', page: 'Matching', title: 'Streaming', url: '/spec/matching/#streaming', text: 'The cursor moves as the mcp server streams; prompt Claude or any model.' },
];
const site = [
  ...spec,
  ...htmlDocs('/agents/', agents),
  ...htmlDocs(
    '/prompts/ln-diff/',
    `<title>Prompts for ln-diff editblocks · ln-diff</title><main><h1>Prompts for ln-diff editblocks</h1><p>One prompt per model family.</p>
     <h2 id="anthropic-claude">Anthropic Claude</h2><p>Claude follows the system prompt closely.</p></main>`,
  ),
];

test('a page about the words comes before a spec section that mentions them', () => {
  const first = (q: string) => search(site, q)[0]?.doc.url;
  assert.equal(first('mcp'), '/agents/');
  assert.equal(first('cursor'), '/agents/#cursor');
  assert.equal(first('claude'), '/prompts/ln-diff/#anthropic-claude');
  assert.equal(first('how do I prompt claude'), '/prompts/ln-diff/#anthropic-claude');
  // The spec's own entries still rank by their headings.
  assert.equal(first('streaming'), '/spec/matching/#streaming');
});
