// Read a prompt page (spec/prompts/<format>.md) into its parts: one section
// per model family (a `### ` heading), each with the note saying what the
// prompt was written for and why, the system prompt (the first ```text fence
// of the section), the reminder (the second, if any) and the illustrative
// examples (read by extract.ts, like every spec example). The prompts pages
// and test/prompts.test.ts both go through here. No DOM, no `node:`.

import { extractExamples, type SpecExample } from '../examples/extract.ts';

export interface PromptExample {
  example: SpecExample;
  /** The paragraph just before the example fence (starts with "Illustrative"). */
  lead: string;
}

export interface PromptSection {
  /** The heading text, e.g. `Anthropic Claude`. */
  family: string;
  /** An id for the heading, unique within the page. */
  id: string;
  /** 1-based line of the heading. */
  line: number;
  /** The first paragraph after the heading: what the prompt was written for, and why. */
  note: string;
  /** The system prompt: the first ```text fence of the section (null when missing). */
  prompt: string | null;
  /** The reminder: the second ```text fence of the section, if any. */
  reminder: string | null;
  /** Every fenced block of the section other than examples: info string and text. */
  fences: { info: string; text: string; line: number }[];
  examples: PromptExample[];
}

/** A `## ` section of prose before the prompts (e.g. "Using these prompts"). */
export interface ProseSection {
  heading: string;
  /** An id for the heading, unique within the page. */
  id: string;
  /** Its paragraphs (a bulleted list is one paragraph, see `blockHtml`) and fenced blocks, in order. */
  blocks: { kind: 'paragraph' | 'fence'; text: string }[];
}

export interface PromptPage {
  format: string;
  title: string;
  /** The first paragraph after the page's `# ` heading. */
  intro: string;
  /** The `## ` sections with prose of their own, in order (the one holding the `### ` prompts has none). */
  prose: ProseSection[];
  sections: PromptSection[];
}

/** A heading's text as an id: lower case, letters and digits joined by `-`. */
export function slugify(text: string): string {
  return (
    text
      .toLowerCase()
      .normalize('NFKD')
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-+|-+$/g, '') || 'section'
  );
}

interface Block {
  kind: 'heading' | 'fence' | 'paragraph';
  line: number;
  depth?: number;
  info?: string;
  text: string;
}

/** Split Markdown into headings, fenced blocks and paragraphs (enough of CommonMark for these pages). */
function blocks(markdown: string): Block[] {
  const lines = markdown.replace(/^---\n[\s\S]*?\n---\n/, (fm) => '\n'.repeat(fm.split('\n').length - 1)).split('\n');
  const out: Block[] = [];
  let para: string[] = [];
  let paraLine = 0;
  const flush = () => {
    if (para.length) out.push({ kind: 'paragraph', line: paraLine, text: para.join('\n') });
    para = [];
  };
  for (let i = 0; i < lines.length; i++) {
    const text = lines[i].replace(/\r$/, '');
    const open = /^ {0,3}(`{3,}|~{3,})\s*(.*)$/.exec(text);
    if (open && !(open[1][0] === '`' && open[2].includes('`'))) {
      flush();
      const fence = open[1];
      const body: string[] = [];
      let j = i + 1;
      for (; j < lines.length; j++) {
        const t = lines[j].replace(/\r$/, '');
        const close = /^ {0,3}(`{3,}|~{3,})\s*$/.exec(t);
        if (close && close[1][0] === fence[0] && close[1].length >= fence.length) break;
        body.push(t);
      }
      out.push({ kind: 'fence', line: i + 1, info: open[2].trim(), text: body.join('\n') });
      i = j;
      continue;
    }
    const h = /^(#{1,6})\s+(.*?)\s*#*\s*$/.exec(text);
    if (h) {
      flush();
      out.push({ kind: 'heading', line: i + 1, depth: h[1].length, text: h[2] });
      continue;
    }
    if (text.trim() === '') {
      flush();
      continue;
    }
    if (para.length === 0) paraLine = i + 1;
    para.push(text.trim());
  }
  flush();
  return out;
}

/** Read a prompt page. `format` is the page's format (its front matter `format:`). */
export function readPromptPage(markdown: string, format: string): PromptPage {
  const all = blocks(markdown);
  const examples = extractExamples(markdown, format);
  const title = /^---\n[\s\S]*?^title:\s*(.+?)\s*$/m.exec(markdown)?.[1] ?? format;
  const h1 = all.findIndex((b) => b.kind === 'heading' && b.depth === 1);
  const intro = all.slice(h1 + 1).find((b) => b.kind !== 'fence');
  const sections: PromptSection[] = [];
  const prose: ProseSection[] = [];
  const ids = new Set<string>();
  const uniqueId = (text: string) => {
    let id = slugify(text);
    for (let n = 2; ids.has(id); n++) id = `${slugify(text)}-${n}`;
    ids.add(id);
    return id;
  };
  let current: PromptSection | null = null;
  let topic: ProseSection | null = null;
  let previous: Block | null = null;
  for (const b of all) {
    if (b.kind === 'heading') {
      current = null;
      topic = null;
      if (b.depth === 2) {
        topic = { heading: b.text, id: uniqueId(b.text), blocks: [] };
        prose.push(topic);
      }
      if (b.depth === 3) {
        current = { family: b.text, id: uniqueId(b.text), line: b.line, note: '', prompt: null, reminder: null, fences: [], examples: [] };
        sections.push(current);
      }
    } else if (topic && (b.kind === 'paragraph' || (b.kind === 'fence' && b.info !== 'example'))) {
      topic.blocks.push({ kind: b.kind, text: b.text });
    } else if (current && b.kind === 'paragraph' && current.note === '' && current.fences.length === 0 && current.examples.length === 0) {
      current.note = b.text;
    } else if (current && b.kind === 'fence') {
      if (b.info === 'example') {
        const example = examples.find((e) => e.line === b.line);
        if (example) current.examples.push({ example, lead: previous?.kind === 'paragraph' ? previous.text : '' });
      } else {
        current.fences.push({ info: b.info ?? '', text: b.text, line: b.line });
        if (b.info === 'text') {
          if (current.prompt === null) current.prompt = b.text;
          else if (current.reminder === null) current.reminder = b.text;
        }
      }
    }
    previous = b;
  }
  return {
    format,
    title,
    intro: h1 >= 0 && intro?.kind === 'paragraph' ? intro.text : '',
    prose: prose.filter((p) => p.blocks.length > 0),
    sections,
  };
}

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
const escape = (s: string) => s.replace(/[&<>"']/g, (c) => ESCAPES[c]);

/**
 * A paragraph's inline Markdown as HTML: code spans, links, strong and
 * emphasis; everything else is text, escaped. Links to spec Markdown files
 * (relative to spec/prompts/) become the site's routes (a prompt page's is
 * /prompts/<format>/); other links must be http(s) or site-absolute, or
 * they stay text.
 */
export function inlineHtml(markdown: string, base = ''): string {
  const parts: string[] = [];
  const re = /`([^`]+)`|\[([^\]]+)\]\(([^)\s]+)\)/g;
  let last = 0;
  for (let m = re.exec(markdown); m; m = re.exec(markdown)) {
    parts.push(emphasis(markdown.slice(last, m.index)));
    if (m[1] !== undefined) parts.push(`<code>${escape(m[1])}</code>`);
    else {
      const href = linkTarget(m[3], base);
      const label = inlineHtml(m[2], base);
      parts.push(href ? `<a href="${escape(href)}">${label}</a>` : emphasis(m[0]));
    }
    last = m.index + m[0].length;
  }
  parts.push(emphasis(markdown.slice(last)));
  return parts.join('');
}

/**
 * A block of a prose section as HTML: a fenced block as preformatted text, a
 * paragraph whose lines start items with `- ` as a list, any other as a
 * paragraph (its inline Markdown through `inlineHtml`).
 */
export function blockHtml(block: { kind: 'paragraph' | 'fence'; text: string }, base = ''): string {
  if (block.kind === 'fence') return `<pre tabindex="0">${escape(block.text)}</pre>`;
  if (block.text.startsWith('- ')) {
    const items = block.text.split(/\n(?=- )/).map((item) => `<li>${inlineHtml(item.slice(2), base)}</li>`);
    return `<ul>${items.join('')}</ul>`;
  }
  return `<p>${inlineHtml(block.text, base)}</p>`;
}

function emphasis(text: string): string {
  return escape(text)
    .replace(/\*\*([^*]+)\*\*/g, '<strong>$1</strong>')
    .replace(/(^|[^\w*])\*([^*\s][^*]*)\*(?=[^\w*]|$)/g, '$1<em>$2</em>')
    .replace(/\n/g, ' ');
}

function linkTarget(url: string, base: string): string | null {
  if (/^https?:\/\//i.test(url) || url.startsWith('#')) return url;
  if (url.startsWith('/')) return `${base}${url}`;
  const m = /^([^#?]*\.md)(#.*)?$/.exec(url);
  if (!m) return null;
  const parts = ['prompts'];
  for (const seg of m[1].split('/')) {
    if (seg === '..') parts.pop();
    else if (seg !== '.' && seg !== '') parts.push(seg);
  }
  const path = parts.join('/').replace(/\.md$/, '');
  // The prompt pages live at /prompts/<format>/, the rest of the spec under /spec/.
  return `${base}/${path.startsWith('prompts/') ? path : `spec/${path}`}/${m[2] ?? ''}`;
}
