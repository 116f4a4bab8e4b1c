// A remark plugin that turns each spec example fence into its rendered HTML
// (see render.ts). Numbering and sections follow extract.ts exactly, so the
// page's "Example N" is the test's "example N".

import { buildExample, EXAMPLE_FENCE } from './extract.ts';
import { renderExample } from './render.ts';

interface Node {
  type: string;
  url?: string;
  lang?: string | null;
  meta?: string | null;
  value?: string;
  depth?: number;
  children?: Node[];
  position?: { start: { line: number } };
}

interface VFileLike {
  path?: string;
  data: { astro?: { frontmatter?: Record<string, unknown> } };
}

/** `a/b` + `../c.md#x` → `a/c.md#x`, for relative links between spec files. */
function joinPath(dir: string, link: string): string {
  const parts = dir ? dir.split('/') : [];
  for (const seg of link.split('/')) {
    if (seg === '..') parts.pop();
    else if (seg !== '.' && seg !== '') parts.push(seg);
  }
  return parts.join('/');
}

/** Rewrite links between spec Markdown files (`matching.md#x`) to the site's routes (`/spec/matching/#x`). */
function rewriteLinks(node: Node, dir: string, base: string): void {
  if (node.type === 'link' && node.url && !/^[a-z]+:|^\/|^#/i.test(node.url)) {
    const m = /^([^#?]*\.md)(#.*)?$/.exec(node.url);
    if (m) node.url = `${base}/spec/${joinPath(dir, m[1]).replace(/\.md$/, '')}/${m[2] ?? ''}`;
  }
  for (const child of node.children ?? []) rewriteLinks(child, dir, base);
}

function text(node: Node): string {
  if (node.value !== undefined) return node.value;
  return (node.children ?? []).map(text).join('');
}

export function remarkSpecExamples(options: { base?: string } = {}) {
  const base = (options.base ?? '').replace(/\/$/, '');
  return (tree: Node, file: VFileLike) => {
    const format = String(file.data.astro?.frontmatter?.format ?? 'ln-diff');
    const specPath = (file.path ?? '').replace(/\\/g, '/').split('/spec/').pop() ?? '';
    rewriteLinks(tree, specPath.includes('/') ? specPath.slice(0, specPath.lastIndexOf('/')) : '', base);
    let number = 0;
    let section = '';
    const children = tree.children ?? [];
    for (let i = 0; i < children.length; i++) {
      const node = children[i];
      if (node.type === 'heading') section = text(node).trim();
      if (node.type !== 'code' || node.lang !== 'example') continue;
      number++;
      const line = node.position?.start.line ?? 0;
      const body = (node.value ?? '').split('\n');
      const example = buildExample(body, number, section, line, format);
      children[i] = { type: 'html', value: renderExample(example, base) };
    }
  };
}

export { EXAMPLE_FENCE };
