// The site search's entries for a page that is not a spec page (the home
// page, Agents, the Prompts pages, the Playground, the Bench), read from the
// HTML the build wrote, so the index holds what a reader sees there, install
// lines and all. Pure: no DOM, no `node:`; src/search/build.ts feeds it each
// built page.
//
// What is read: the page's <title> and description, and the text of <main>.
// Left out: scripts, styles, form controls (a format list, a button's
// label), navigation lists (they repeat the headings), anything hidden, and
// rendered spec examples (`class="example"`: a prompts page shows its
// illustrative replies in full, files and all).
//
// One entry per heading h1-h3, holding the text up to the next one (deeper
// headings stay in their section's text). An entry links to its heading's
// id; a heading without an id links by a text fragment (`#:~:text=`), and
// one whose text repeats on the page (such as "Illustrative replies" under
// every model family) is no entry of its own: its text stays in the section
// above. The page's first entry is the page itself: its title is the page's
// <title> (the site's name after " · " dropped), its text starts with the
// description. A heading with no text under it (an empty pane the page's
// script fills) is no entry.

import type { SearchDoc } from './sections.ts';

/** The most text an entry keeps (a Bench page lists a hundred tasks). */
export const MAX_TEXT = 4000;

const VOID = new Set(['area', 'base', 'br', 'col', 'embed', 'hr', 'img', 'input', 'link', 'meta', 'source', 'track', 'wbr']);
/** Elements whose text is not read (their content is code, markup or controls). */
const RAW = new Set(['script', 'style', 'textarea', 'title']);
const SKIP = new Set(['template', 'noscript', 'svg', 'select', 'button', 'nav', 'dialog']);
/** Inline elements: no space between their text and what is around it. */
const INLINE = new Set(['a', 'abbr', 'b', 'bdi', 'cite', 'code', 'data', 'em', 'i', 'kbd', 'mark', 'q', 's', 'samp', 'small', 'span', 'strong', 'sub', 'sup', 'time', 'u', 'var']);

const TAG = /<!--[\s\S]*?-->|<!doctype[^>]*>|<(\/?)([a-zA-Z][a-zA-Z0-9-]*)((?:\s+[^\s"'>/=]+(?:\s*=\s*(?:"[^"]*"|'[^']*'|[^\s"'=<>`]+))?)*)\s*\/?>/gi;
const ATTR = /([^\s"'>/=]+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'=<>`]+)))?/g;

const NAMED: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ', hellip: '…', mdash: '—', ndash: '–' };

/** HTML character references decoded (the numeric ones and the few named ones a build writes). */
export function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#[0-9]+|[a-z]+);/gi, (whole, ref: string) => {
    if (ref[0] === '#') {
      const code = ref[1] === 'x' || ref[1] === 'X' ? parseInt(ref.slice(2), 16) : parseInt(ref.slice(1), 10);
      return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : whole;
    }
    return NAMED[ref.toLowerCase()] ?? whole;
  });
}

function attributes(source: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const m of source.matchAll(ATTR)) out.set(m[1].toLowerCase(), decodeEntities(m[2] ?? m[3] ?? m[4] ?? ''));
  return out;
}

function skipped(tag: string, attrs: Map<string, string>): boolean {
  return (
    SKIP.has(tag) ||
    attrs.has('hidden') ||
    attrs.get('aria-hidden') === 'true' ||
    (attrs.get('class') ?? '').split(/\s+/).includes('example')
  );
}

interface Section {
  level: number;
  title: string;
  id: string | null;
  text: string[];
}

const clean = (s: string) => s.replace(/\s+/g, ' ').trim();

/** A link to the first place on a page where `text` stands (a text fragment). */
export function textFragment(path: string, text: string): string {
  const enc = encodeURIComponent(text).replace(/-/g, '%2D');
  return `${path}#:~:text=${enc}`;
}

/**
 * The entries of one built page. `path` is its site path (`/agents/`),
 * `html` the whole document. A page without <main> has none.
 */
export function htmlDocs(path: string, html: string): SearchDoc[] {
  const titleMatch = /<title>([\s\S]*?)<\/title>/i.exec(html);
  const pageTitle = clean(decodeEntities(titleMatch?.[1] ?? '')).replace(/ · ln-diff$/, '') || path;
  let description = '';
  for (const m of html.matchAll(/<meta\s[^>]*>/gi)) {
    const attrs = attributes(m[0].slice(5, -1));
    if (attrs.get('name') === 'description') description = clean(attrs.get('content') ?? '');
  }
  const mainStart = html.search(/<main[\s>]/i);
  if (mainStart < 0) return [];

  const sections: Section[] = [{ level: 1, title: pageTitle, id: null, text: description ? [description] : [] }];
  let skipDepth = 0; // > 0: inside an element whose text is not read
  const open: { tag: string; skip: boolean }[] = [];
  let heading: { level: number; id: string | null; parts: string[] } | null = null;
  const emit = (t: string) => {
    if (skipDepth > 0 || t === '') return;
    if (heading) heading.parts.push(t);
    else sections[sections.length - 1].text.push(t);
  };

  TAG.lastIndex = mainStart;
  let last = mainStart;
  for (let m = TAG.exec(html); m; m = TAG.exec(html)) {
    emit(decodeEntities(html.slice(last, m.index)));
    last = TAG.lastIndex;
    if (!m[2]) continue; // a comment
    const tag = m[2].toLowerCase();
    const closing = m[1] === '/';
    if (!closing && RAW.has(tag)) {
      const end = html.toLowerCase().indexOf(`</${tag}`, last);
      last = end < 0 ? html.length : end;
      TAG.lastIndex = last;
      continue;
    }
    if (!INLINE.has(tag)) emit(' ');
    if (closing) {
      if (tag === 'main' && open.length === 0) break;
      const at = open.map((o) => o.tag).lastIndexOf(tag);
      if (at < 0) continue;
      for (const o of open.splice(at)) if (o.skip) skipDepth--;
      if (heading && /^h[1-3]$/.test(tag)) {
        const title = clean(heading.parts.join(''));
        if (title) sections.push({ level: heading.level, title, id: heading.id, text: [] });
        heading = null;
      }
      continue;
    }
    if (VOID.has(tag) || m[0].endsWith('/>')) continue;
    if (tag === 'main') continue;
    const attrs = attributes(m[3] ?? '');
    const skip = skipDepth > 0 || skipped(tag, attrs);
    open.push({ tag, skip });
    if (skip) skipDepth++;
    else if (/^h[1-3]$/.test(tag) && !heading) heading = { level: Number(tag[1]), id: attrs.get('id') ?? null, parts: [] };
  }

  // The page's own h1 is its first entry (already made, under the <title>).
  const [page, ...rest] = sections;
  const body = rest[0]?.level === 1 ? [rest.shift()!] : [];
  for (const h of body) page.text.push(' ', h.title, ' ', ...h.text);
  const counts = new Map<string, number>();
  for (const s of rest) counts.set(s.title, (counts.get(s.title) ?? 0) + 1);
  const kept: Section[] = [page];
  for (const s of rest) {
    if (s.id === null && counts.get(s.title)! > 1) kept[kept.length - 1].text.push(' ', s.title, ' ', ...s.text);
    else kept.push(s);
  }
  return kept
    .filter((s, i) => i === 0 || s.text.join('').trim() !== '') // a heading over an empty pane says nothing
    .map((s, i) => ({
      kind: 'section',
      page: pageTitle,
      title: s.title,
      url: i === 0 ? path : s.id ? `${path}#${encodeURIComponent(s.id)}` : textFragment(path, s.title),
      text: clean(s.text.join('')).slice(0, MAX_TEXT),
    }));
}
