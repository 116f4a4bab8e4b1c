// Search the site's index (sections.ts: the spec; html.ts: every other
// page) for a query typed by a person. Pure: the /search/ page renders what
// this returns.
//
// Rules: the query is split into words (letters and digits); the little
// words of a question (`how do I prompt claude`: how, do, I) are dropped
// unless nothing else is left; a result must contain every word that
// remains. A word of letters matches the start of a word of the entry
// (`fuzz` finds `fuzzy`); a number matches only the same number, so
// `example 12` finds Example 12 and not Example 120. A word in the title (a
// heading, or a page's title) counts more than one in the text, and an
// entry whose title holds the whole query first of all; a page's own entry
// comes before its sections when they match alike.

import type { SearchDoc } from './sections.ts';

export interface SearchHit {
  doc: SearchDoc;
  score: number;
  /** An example's whole text; for a section up to about 160 characters around the first matched word ('' when only the title matched). */
  snippet: string;
}

/** The words of a text, lower-cased: runs of letters, digits, `-` and `_` inside a word kept (`no-match`). */
export function words(text: string): string[] {
  return text.toLowerCase().match(/[\p{L}\p{N}]+(?:[-_][\p{L}\p{N}]+)*/gu) ?? [];
}

/** Words that say nothing about what is sought: dropped from a query that has others. */
export const STOP_WORDS: ReadonlySet<string> = new Set(
  'a an and are at be by can did do does for from how i in is it me my of on or should the this to was what where which who why with you your'.split(' '),
);

/** The words of a query that a result must hold: its words, the little ones dropped unless nothing else is left. */
export function queryWords(query: string): string[] {
  const all = [...new Set(words(query))];
  const kept = all.filter((w) => !STOP_WORDS.has(w));
  return kept.length > 0 ? kept : all;
}

function matches(word: string, token: string): boolean {
  if (/^\p{N}+$/u.test(token)) return word === token;
  return word.startsWith(token) || (word.includes('-') && word.split('-').some((part) => part.startsWith(token)));
}

function snippetAt(text: string, tokens: readonly string[]): string {
  const lower = text.toLowerCase();
  let at = -1;
  for (const t of tokens) {
    const re = new RegExp(`(?<![\\p{L}\\p{N}])${t.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`, 'u');
    const m = re.exec(lower);
    if (m && (at < 0 || m.index < at)) at = m.index;
  }
  if (at < 0) return '';
  let start = Math.max(0, at - 60);
  if (start > 0) start = Math.min(at, lower.indexOf(' ', start) + 1 || at); // from a word's start
  const end = Math.min(text.length, at + 100);
  return `${start > 0 ? '…' : ''}${text.slice(start, end).trim()}${end < text.length ? '…' : ''}`;
}

/** The entries that hold every word of `query`, best first, at most `limit`. */
export function search(docs: readonly SearchDoc[], query: string, limit = 50): SearchHit[] {
  const tokens = queryWords(query);
  if (tokens.length === 0) return [];
  const phrase = tokens.join(' ');
  const hits: SearchHit[] = [];
  docs.forEach((doc, order) => {
    const title = words(doc.title);
    const text = words(doc.text);
    const page = words(doc.page);
    let score = 0;
    for (const t of tokens) {
      const inTitle = title.filter((w) => matches(w, t)).length;
      const inText = text.filter((w) => matches(w, t)).length;
      const inPage = page.some((w) => matches(w, t));
      if (!inTitle && !inText && !inPage) return;
      score += inTitle * 10 + Math.min(inText, 5) + (inPage ? 2 : 0) + (title.includes(t) ? 5 : 0);
    }
    if (title.join(' ').includes(phrase)) score += 50;
    if (doc.kind === 'section') score += 1;
    if (doc.kind === 'section' && !doc.url.includes('#')) score += 3; // a page's own entry
    // An example's text is short (its section, format, files and outcomes): shown whole.
    const snippet = doc.kind === 'example' ? doc.text : snippetAt(doc.text, tokens);
    hits.push({ doc, score: score - order / 1e6, snippet });
  });
  return hits.sort((a, b) => b.score - a.score).slice(0, limit);
}
