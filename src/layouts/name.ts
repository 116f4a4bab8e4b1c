// The project's name in headings, set in the code font. In a sans-serif
// face "ln-diff" reads "In-diff" (a lower-case l and a capital I look
// alike); in the code font they differ. Applied to every page's HTML once it
// is rendered (src/middleware.ts), so a page or a Markdown file writes the
// name as plain text and still shows it right.
//
// Contract: only the text of <h1>…<h6> elements changes; the name is wrapped
// where it stands alone as a word (not "ln-diff-anthropic-claude", not inside
// <code>, which already uses the code font). Attributes, other elements and
// text outside headings are left byte for byte.

/** The class of the span that holds the name (site.css sets its font). */
export const NAME_CLASS = 'name';

const HEADING = /<(h[1-6])(\s[^>]*)?>([\s\S]*?)<\/\1>/g;
const TAG = /<(\/?)([a-zA-Z][\w-]*)(?:\s(?:[^>"']|"[^"]*"|'[^']*')*)?>/g;
const NAME = /(?<![\w-])ln-diff(?![\w-])/g;

const CODE_LIKE = new Set(['code', 'kbd', 'samp', 'pre']);
const WRAPPED = `<span class="${NAME_CLASS}">ln-diff</span>`;

/** `inner` (a heading's HTML) with each standalone name outside code wrapped in a span. */
function markInner(inner: string): string {
  let out = '';
  let last = 0;
  let inCode = 0;
  const text = (t: string) => (inCode > 0 ? t : t.replace(NAME, WRAPPED));
  for (const m of inner.matchAll(TAG)) {
    out += text(inner.slice(last, m.index)) + m[0];
    last = m.index + m[0].length;
    if (CODE_LIKE.has(m[2].toLowerCase())) inCode += m[1] ? -1 : 1;
  }
  return out + text(inner.slice(last));
}

/** `text` cut around each standalone name: the odd entries are the name (for a script that builds nodes, never HTML). */
export function splitName(text: string): string[] {
  return text.split(/(?<![\w-])(ln-diff)(?![\w-])/);
}

/** `html` with the name set apart in every heading (see the contract above). Idempotent. */
export function markName(html: string): string {
  return html.replace(HEADING, (whole, tag: string, attrs: string | undefined, inner: string) =>
    !inner.includes('ln-diff') || inner.includes(WRAPPED) ? whole : `<${tag}${attrs ?? ''}>${markInner(inner)}</${tag}>`,
  );
}
