// The site search's index, built once at build time from the spec's
// Markdown: one entry per heading (its section's prose as plain text) and
// one per numbered example. Pure: no DOM, no `node:`; the page endpoint
// (src/pages/search-index.json.ts) feeds it each spec file and the headings
// Astro rendered, so every entry links to an anchor the page really has.

import { extractExamples, EXAMPLE_FENCE } from '../examples/extract.ts';

export interface SearchDoc {
  /** `section` (a heading and the prose under it, up to the next heading) or `example`. */
  kind: 'section' | 'example';
  /** The page's title, e.g. `Matching: where an edit belongs`. */
  page: string;
  /** What a result shows as its link: the heading, or `Example 12`. */
  title: string;
  /** Site path with the anchor, e.g. `/spec/matching/#the-ladder`. */
  url: string;
  /** Plain text searched and quoted in results. */
  text: string;
  /** The example's number on its page (examples only). */
  number?: number;
}

/** A heading as Astro renders it (`render(entry).headings`). */
export interface RenderedHeading {
  depth: number;
  slug: string;
  text: string;
}

/** Markdown inline syntax reduced to the words a reader sees. */
export function plainText(markdown: string): string {
  return markdown
    .replace(/<!--[\s\S]*?-->/g, ' ')
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/<[^>]+>/g, ' ')
    .replace(/[*`]+/g, '')
    .replace(/\|/g, ' ')
    .replace(/^\s*(?:[-+]|\d+[.)])\s+/gm, '')
    .replace(/^\s*>\s?/gm, '')
    .replace(/^\s*:?-{3,}:?(?:\s+:?-{3,}:?)*\s*$/gm, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

const FENCE = /^ {0,3}(`{3,}|~{3,})/;

/**
 * The entries of one spec page. `path` is the page's site path
 * (`/spec/matching/`), `markdown` its source, `headings` what Astro rendered
 * for it, in order. Headings are read from the source outside fences and
 * paired with the rendered ones in order: a different count is an error
 * (the index would link to anchors that are not there).
 */
export function pageDocs(path: string, markdown: string, headings: readonly RenderedHeading[], format: string): SearchDoc[] {
  const body = markdown.replace(/^---\n[\s\S]*?\n---\n/, '');
  const lines = body.split('\n');
  const sections: { depth: number; lines: string[] }[] = [{ depth: 0, lines: [] }];
  let fence: string | null = null;
  let inExample = false; // examples are indexed on their own, not as their section's prose
  for (const line of lines) {
    if (fence) {
      const close = /^ {0,3}(`{3,}|~{3,})\s*$/.exec(line);
      if (close && close[1][0] === fence[0] && close[1].length >= fence.length) fence = null;
      else if (!inExample) sections[sections.length - 1].lines.push(line);
      continue;
    }
    const open = FENCE.exec(line);
    if (open) {
      fence = open[1];
      inExample = EXAMPLE_FENCE.test(line);
      continue;
    }
    const h = /^ {0,3}(#{1,6})\s+(.*?)\s*#*\s*$/.exec(line);
    if (h) sections.push({ depth: h[1].length, lines: [] });
    else sections[sections.length - 1].lines.push(line);
  }
  const found = sections.slice(1);
  if (found.length !== headings.length)
    throw new Error(`search index: ${path} has ${found.length} headings in its source but ${headings.length} rendered; the index would link to missing anchors`);
  const title = headings.find((h) => h.depth === 1)?.text ?? path;
  const docs: SearchDoc[] = found.map((s, i) => ({
    kind: 'section',
    page: title,
    title: headings[i].text,
    url: headings[i].depth === 1 ? path : `${path}#${headings[i].slug}`,
    text: plainText(s.lines.join('\n')),
  }));
  for (const ex of extractExamples(markdown, format)) {
    const codes = [...new Set(ex.expected.edits.flatMap((e) => [e.status, e.fields.match ?? '', e.fields.code ?? '', ...(e.fields.warnings ?? [])]))]
      .filter(Boolean)
      .join(' ');
    const files = Object.keys(ex.files).join(' ');
    docs.push({
      kind: 'example',
      page: title,
      title: `Example ${ex.number}`,
      url: `${path}#example-${ex.number}`,
      text: [ex.section, ex.format, files, codes].filter(Boolean).join(' · '),
      number: ex.number,
    });
  }
  return docs;
}
