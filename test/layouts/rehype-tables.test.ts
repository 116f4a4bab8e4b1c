// The spec's Markdown tables: each in a named scrolling box Tab can reach,
// names told apart on one page.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { rehypeTableScroll, tableLabel } from '../../src/layouts/rehype-tables.ts';

type N = { type: string; tagName?: string; value?: string; properties?: Record<string, unknown>; children?: N[] };
const el = (tagName: string, children: N[] = [], properties: Record<string, unknown> = {}): N => ({ type: 'element', tagName, properties, children });
const t = (value: string): N => ({ type: 'text', value });
const table = (...heads: string[]) => el('table', [el('thead', [el('tr', heads.map((h) => el('th', [t(h)])))]), el('tbody', [el('tr', [el('td', [t('x')])])])]);

test('a table is wrapped in a focusable region named by its column headings', () => {
  const tree = el('root', [el('p', [t('before')]), table('code', 'severity')]);
  rehypeTableScroll()(tree);
  const box = tree.children![1];
  assert.equal(box.tagName, 'div');
  assert.deepEqual(box.properties, { className: ['table-scroll'], role: 'region', tabIndex: 0, ariaLabel: 'Table: code, severity' });
  assert.equal(box.children![0].tagName, 'table');
});

test('two tables with the same headings get different names; nested tables are found; a box is not boxed twice', () => {
  const tree = el('root', [table('a', 'b'), el('section', [table('a', 'b')]), el('div', [table('c')], { className: ['table-scroll'] })]);
  rehypeTableScroll()(tree);
  assert.equal(tree.children![0].properties!.ariaLabel, 'Table: a, b');
  assert.equal(tree.children![1].children![0].properties!.ariaLabel, 'Table: a, b (2)');
  assert.equal(tree.children![2].children![0].tagName, 'table');
});

test('a table without headings is called "Table"; a long name is cut at a word', () => {
  assert.equal(tableLabel(el('table')), 'Table');
  const label = tableLabel(table(...Array.from({ length: 30 }, (_, i) => `column${i}`)));
  assert.ok(label.length <= 110 && label.endsWith('…'), label);
});

test('a code block without a tab stop gets one; one that has it keeps it', () => {
  const tree = el('root', [el('pre', [el('code', [t('x')])]), el('pre', [], { tabIndex: -1 })]);
  rehypeTableScroll()(tree);
  assert.equal(tree.children![0].properties!.tabIndex, 0);
  assert.equal(tree.children![1].properties!.tabIndex, -1);
});
