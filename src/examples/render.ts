// Render a spec example as HTML, in the manner of the CommonMark spec: an
// anchor and permalink, the files, the reply and the result side by side,
// whitespace made visible, and a "Try it" link into the playground. Every
// piece of text is escaped: examples hold arbitrary text.

import { applyRequest } from '../formats/index.ts';
import { sessionHref } from '../share/share.ts';
import { resultDigest } from '../digest/digest.ts';
import { VERSION } from '../share/version.ts';
import type { ApplyResult } from '../core/types.ts';
import type { SpecExample } from './extract.ts';

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

/** Text as HTML with tabs, trailing spaces and carriage returns made visible. */
export function visibleWhitespace(text: string): string {
  const bom = text.startsWith('\uFEFF');
  const body = bom ? text.slice(1) : text;
  const lines = body.split('\n');
  const noFinal = lines.length > 0 && lines[lines.length - 1] !== '';
  if (!noFinal) lines.pop();
  const out = lines.map((line) => {
    const cr = line.endsWith('\r');
    let content = cr ? line.slice(0, -1) : line;
    const trailing = /[ ]+$/.exec(content)?.[0].length ?? 0;
    content = content.slice(0, content.length - trailing);
    let html = escapeHtml(content).replace(/\t/g, '<span class="ws" title="tab">→</span>');
    html = html.replace(/\r/g, '<span class="ws" title="carriage return">␍</span>');
    if (trailing) html += `<span class="ws" title="trailing space">${'␣'.repeat(trailing)}</span>`;
    if (cr) html += '<span class="ws" title="CR LF line ending">␍</span>';
    return html;
  });
  let html = out.join('\n');
  if (bom) html = '<span class="ws" title="byte order mark">BOM</span>' + html;
  if (noFinal) html += '<span class="ws" title="no final newline">∅</span>';
  if (body === '') html = '<span class="ws" title="empty text">(empty)</span>';
  return html;
}

function pane(label: string, text: string | null, note = ''): string {
  const body = text === null ? '<span class="ws">(deleted)</span>' : visibleWhitespace(text);
  return `<figure class="example-pane"><figcaption>${escapeHtml(label)}${note}</figcaption><pre tabindex="0">${body}</pre></figure>`;
}

/** An edit as people count it: from #1 (the result's `index` counts from 0). */
export function editNumber(index: number): string {
  return `#${index + 1}`;
}

function resultTable(result: ApplyResult, label: string): string {
  if (result.edits.length === 0) {
    const codes = result.diagnostics.map((d) => `<code>${escapeHtml(d.code)}</code>`).join(', ');
    return `<p class="example-none">No edits${codes ? `; ${codes}` : ''}.</p>`;
  }
  const rows = result.edits.map((e) => {
    const range = e.range ? (e.range.end < e.range.start ? `before ${e.range.start}` : `${e.range.start}-${e.range.end}`) : '';
    const offset = e.offset === null ? '' : e.offset > 0 ? `+${e.offset}` : String(e.offset);
    const detail = [e.match ?? '', offset, e.match === 'fuzzy' && e.similarity !== null ? e.similarity.toFixed(3) : '']
      .filter(Boolean)
      .join(' ');
    const warnings = e.warnings.map((w) => ` <code class="warn">${escapeHtml(w.code)}</code>`).join('');
    const of = e.duplicateOf !== null ? ` of ${editNumber(e.duplicateOf)}` : '';
    return `<tr class="status-${e.status}"><td>${editNumber(e.index)}</td><td>${escapeHtml(e.status)}${
      e.code ? ` <code>${escapeHtml(e.code)}</code>${of}` : ''
    }${warnings}</td><td>${escapeHtml(detail)}</td><td>${escapeHtml(range)}</td><td class="message">${escapeHtml(e.message)}</td></tr>`;
  });
  const extra = result.diagnostics.length
    ? `<p class="example-none">Reply: ${result.diagnostics.map((d) => `<code>${escapeHtml(d.code)}</code>`).join(', ')}</p>`
    : '';
  // The table scrolls sideways inside its own box on a narrow screen; the box is a named region Tab can reach.
  return `<div class="table-scroll" role="region" tabindex="0" aria-label="${escapeHtml(label)}"><table class="example-edits"><thead><tr><th scope="col">#</th><th scope="col">status</th><th scope="col">match</th><th scope="col">lines</th><th scope="col">message</th></tr></thead><tbody>${rows.join(
    '',
  )}</tbody></table></div>${extra}`;
}

/**
 * The HTML of one example. `base` is the site's base path (no trailing
 * slash); `how.tryIt: false` leaves out the "Try it" link (for a page that links
 * to the playground its own way).
 */
export function renderExample(example: SpecExample, base = '', how: { tryIt?: boolean } = {}): string {
  const result = applyRequest({
    format: example.format,
    files: example.files,
    response: example.reply,
    ...(example.options ? { options: example.options } : {}),
  });
  const id = `example-${example.number}`;
  const href = sessionHref(
    {
      format: example.format,
      files: Object.entries(example.files).map(([name, text]) => ({ name, text })),
      reply: example.reply,
      ...(example.options ? { options: example.options } : {}),
      digest: resultDigest(result),
    },
    `${base}/playground/`,
    VERSION,
  );
  const before = Object.entries(example.files).map(([name, text]) => pane(name, text));
  if (before.length === 0) before.push('<figure class="example-pane"><figcaption>No files given</figcaption></figure>');
  const after = Object.entries(example.expected.files)
    .filter(([name, text]) => example.files[name] !== text)
    .map(([name, text]) => pane(`${name} after`, text));
  const options = example.options
    ? `<p class="example-options">Options: <code>${escapeHtml(JSON.stringify(example.options))}</code></p>`
    : '';
  const format = example.format !== 'ln-diff' ? ` <span class="example-format">${escapeHtml(example.format)}</span>` : '';
  const tryIt = how.tryIt === false ? '' : `<a class="example-try" href="${escapeHtml(href)}">Try it</a>`;
  return `<div class="example" id="${id}">
<div class="example-head"><a class="example-permalink" href="#${id}">Example ${example.number}</a>${format}${tryIt}</div>
<div class="example-grid">
<div class="example-col">${before.join('')}</div>
<div class="example-col">${pane('Reply', example.reply)}</div>
<div class="example-col">${after.join('') || '<p class="example-none">Files unchanged.</p>'}${options}</div>
</div>
<div class="example-result">${resultTable(result, `Example ${example.number}: the result of each edit`)}</div>
</div>`;
}
