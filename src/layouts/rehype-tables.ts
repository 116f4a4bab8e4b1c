// A rehype plugin for the spec's Markdown tables: each goes in a box that
// scrolls sideways on a narrow screen, as the examples' result tables do
// (render.ts): a named region that Tab can reach, so a keyboard can scroll
// it (axe: scrollable-region-focusable). The name is the table's column
// headings, e.g. "Table: format, the model writes, locates an edit by",
// numbered when two tables of a page would have the same name ("… (2)").
// A code block that shiki left alone (no language) is made focusable the
// same way (shiki's own blocks already are).

interface HastNode {
  type: string;
  tagName?: string;
  value?: string;
  properties?: Record<string, unknown>;
  children?: HastNode[];
}

function text(node: HastNode): string {
  if (node.type === 'text') return node.value ?? '';
  return (node.children ?? []).map(text).join('');
}

function find(node: HastNode, tag: string): HastNode | undefined {
  for (const child of node.children ?? []) {
    if (child.tagName === tag) return child;
    const inner = find(child, tag);
    if (inner) return inner;
  }
  return undefined;
}

/** The table's name: its first row's cells, the whole at most about 100 characters. */
export function tableLabel(table: HastNode): string {
  const row = find(table, 'tr');
  const cells = (row?.children ?? []).filter((c) => c.tagName === 'th' || c.tagName === 'td').map((c) => text(c).trim()).filter(Boolean);
  let label = cells.join(', ');
  if (label.length > 100) label = `${label.slice(0, 99).replace(/\s+\S*$/, '')}…`;
  return label ? `Table: ${label}` : 'Table';
}

function wrap(node: HastNode, seen: Map<string, number>): void {
  const children = node.children ?? [];
  for (let i = 0; i < children.length; i++) {
    const child = children[i];
    if (child.type !== 'element') continue;
    if (child.tagName === 'pre' && child.properties?.tabIndex === undefined) {
      child.properties = { ...child.properties, tabIndex: 0 };
      continue;
    }
    if (child.tagName === 'table') {
      let label = tableLabel(child);
      const n = (seen.get(label) ?? 0) + 1;
      seen.set(label, n);
      if (n > 1) label = `${label} (${n})`;
      children[i] = {
        type: 'element',
        tagName: 'div',
        properties: { className: ['table-scroll'], role: 'region', tabIndex: 0, ariaLabel: label },
        children: [child],
      };
    } else if (!(Array.isArray(child.properties?.className) && (child.properties.className as unknown[]).includes('table-scroll'))) {
      wrap(child, seen);
    }
  }
}

export function rehypeTableScroll() {
  return (tree: HastNode) => wrap(tree, new Map());
}
