// A tiny DOM builder. Strings always become text nodes: nothing the user or
// a link supplies is ever parsed as HTML.

type Child = Node | string | number | null | undefined | false;

export interface Props {
  class?: string;
  /** Attributes, set with setAttribute (null or undefined: left out). */
  attrs?: Record<string, string | number | boolean | null | undefined>;
  on?: { [K in keyof HTMLElementEventMap]?: (event: HTMLElementEventMap[K]) => void };
}

export function h<K extends keyof HTMLElementTagNameMap>(tag: K, props: Props | null, ...children: Child[]): HTMLElementTagNameMap[K] {
  const el = document.createElement(tag);
  if (props?.class) el.className = props.class;
  for (const [name, value] of Object.entries(props?.attrs ?? {})) {
    if (value === null || value === undefined || value === false) continue;
    el.setAttribute(name, value === true ? '' : String(value));
  }
  for (const [type, handler] of Object.entries(props?.on ?? {})) el.addEventListener(type, handler as EventListener);
  append(el, ...children);
  return el;
}

export function append(parent: Node, ...children: Child[]): void {
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    parent.appendChild(typeof child === 'string' || typeof child === 'number' ? document.createTextNode(String(child)) : child);
  }
}

const VISIBLE: Record<string, string> = { ' ': '·', '\t': '→', '\r': '␍', '\u00a0': '⍽', '\ufeff': '␂' };

/** A text with its whitespace drawn (· space, → tab, ␍ CR), as DOM nodes. */
export function visibleWhitespace(text: string): DocumentFragment {
  const frag = document.createDocumentFragment();
  let run = '';
  for (const ch of text) {
    const shown = VISIBLE[ch];
    if (shown === undefined) {
      run += ch;
      continue;
    }
    if (run) frag.appendChild(document.createTextNode(run));
    run = '';
    frag.appendChild(h('span', { class: 'ld-ws', attrs: { 'data-ch': ch === ' ' ? 'space' : ch === '\t' ? 'tab' : 'other' } }, shown));
  }
  if (run) frag.appendChild(document.createTextNode(run));
  return frag;
}

/** Copy text to the clipboard; falls back to a selected textarea. */
export async function copyText(text: string): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    const area = h('textarea', { attrs: { readonly: true, 'aria-hidden': 'true' }, class: 'pg-offscreen' });
    area.value = text;
    document.body.appendChild(area);
    area.select();
    let ok = false;
    try {
      ok = document.execCommand('copy');
    } catch {
      ok = false;
    }
    area.remove();
    return ok;
  }
}

/** Save `data` as a file named `name` that the browser downloads. */
export function saveFile(name: string, data: BlobPart, type: string): void {
  const url = URL.createObjectURL(new Blob([data], { type }));
  const a = h('a', { attrs: { href: url, download: name, hidden: true } });
  document.body.append(a);
  a.click();
  a.remove();
  // Some browsers read the URL after click() returns.
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
