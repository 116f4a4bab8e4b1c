// "Copy as Markdown issue": a playground session as a bug report, with the
// versions, format, options, the source files and the reply (collapsed, in
// fences longer than anything in them), the result table and the link.
// Pure; loaded on the first click.

import type { ApplyResult, EngineOptions } from '../core/types.ts';
import { lineCount } from '../core/text.ts';
import { fenced } from '../prompt/fence.ts';
import type { Session } from '../share/share.ts';

export interface IssueInput {
  /** The version running the page. */
  version: string;
  session: Session;
  /** The result of the session's current input; null when the engine failed. */
  result: ApplyResult | null;
  /** The engine's error when it failed. */
  error?: string | null;
  /** The share link, or null when the session is too large for one. */
  link: string | null;
}

/** Text for an HTML context inside Markdown (a summary line). */
const html = (text: string): string => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** Text for a table cell: one line, pipes and markup escaped. */
export function cell(text: string | number | null | undefined): string {
  if (text === null || text === undefined || text === '') return '';
  return html(String(text))
    .replace(/\\/g, '\\\\')
    .replace(/\|/g, '\\|')
    .replace(/\r\n|\r|\n/g, ' ');
}

/** What a text's line endings and last line are, when a fence would hide it. */
function shape(text: string): string {
  const notes: string[] = [];
  if (text.includes('\r\n')) notes.push('CRLF line endings');
  if (text !== '' && !text.endsWith('\n')) notes.push('no final newline');
  if (text.startsWith('\ufeff')) notes.push('byte order mark');
  return notes.length ? `, ${notes.join(', ')}` : '';
}

const lines = (text: string): string => `${lineCount(text)} line${lineCount(text) === 1 ? '' : 's'}`;

function details(summary: string, body: string): string {
  return `<details>\n<summary>${html(summary)}</summary>\n\n${body}\n\n</details>`;
}

function optionsText(options: EngineOptions | undefined): string {
  if (!options || Object.keys(options).length === 0) return 'defaults';
  return `\`${JSON.stringify(options)}\``;
}

function summaryLine(result: ApplyResult): string {
  const applied = result.edits.filter((e) => e.status === 'applied').length;
  if (result.edits.length === 0) return 'No edits found in the reply.';
  const failed = result.edits.length - applied;
  // Worded as the page's Diagnostics summary words it.
  const all = `${result.edits.length} edit${result.edits.length === 1 ? '' : 's'}`;
  return failed === 0 ? `All ${all} applied.` : `${applied} of ${all} applied, ${failed} failed.`;
}

/** The Markdown text of an issue about a session. */
export function issueMarkdown(input: IssueInput): string {
  const { version, session, result, link } = input;
  const out: string[] = ['### ln-diff playground session', ''];
  out.push(`- ln-diff (engine and spec): ${version}`);
  const detected = result && session.format === 'auto' ? ` (detected: ${result.format})` : '';
  out.push(`- format: ${session.format}${detected}`);
  out.push(`- options: ${optionsText(session.options)}`);
  out.push(link ? `- link: ${link}` : '- link: the session is too large for a link; attach the file from “Download session”');
  out.push('');
  if (session.prompt !== undefined) out.push(details(`Prompt (${lines(session.prompt)})`, fenced(session.prompt)), '');
  for (const file of session.files) {
    out.push(details(`Source: ${file.name} (${lines(file.text)}${shape(file.text)})`, fenced(file.text)), '');
  }
  out.push(details(`Reply (${lines(session.reply)}${shape(session.reply)})`, fenced(session.reply)), '');
  out.push('#### Result', '');
  if (!result) {
    out.push(`The engine failed: ${cell(input.error ?? 'unknown error')}`);
  } else {
    out.push(summaryLine(result), '');
    if (result.edits.length) {
      out.push('| edit | status | match | offset | code | message |', '| --- | --- | --- | --- | --- | --- |');
      for (const e of result.edits) {
        out.push(`| #${e.index + 1} ${cell(e.file)} | ${e.status} | ${cell(e.match)} | ${cell(e.offset)} | ${cell(e.code)} | ${cell(e.message)} |`);
      }
    }
    for (const d of result.diagnostics) out.push('', `- ${d.severity} \`${d.code}\`: ${cell(d.message)}`);
  }
  if (link) out.push('', `[Open this session in the playground](${link})`);
  return `${out.join('\n')}\n`;
}
