// What each format costs: a fixed set of real changes (bench/fixtures/changes),
// each written in every format by that format's writer, applied back with the
// engine and compared byte for byte, and counted in tokens: the reply (the
// cost of writing the edit) and the source view (the cost of showing the
// files to the model).
//
//   npm run bench:costs            writes spec/costs.md and prints its tables
//   npm run bench:costs -- --check exits 1 when spec/costs.md is not what it would write
//
// Counts only: nothing here is timed, so the page is the same on every machine.

import { readFileSync, readdirSync, statSync, writeFileSync, existsSync } from 'node:fs';
import { extname, join, relative } from 'node:path';
import { compareFormats, requestFiles, sourceViews, type FormatWriting, type SourceView } from '../src/formats/compare.ts';
import { formats } from '../src/formats/index.ts';
import { countTokens, method, CLAUDE_FACTOR, GEMINI_CHARS_PER_TOKEN, type TokenCounts } from '../src/tokens/index.ts';
import { parseText } from '../src/core/text.ts';
import { lineSplices } from '../src/core/hunks.ts';
import type { FileChange } from '../src/core/types.ts';

const FIXTURES = new URL('./fixtures/changes/', import.meta.url).pathname;
const PAGE = new URL('../spec/costs.md', import.meta.url).pathname;
const CHECK = process.argv.includes('--check');

/** The changes, in the order the page shows them, with what each one is. */
const CHANGES: { name: string; what: string }[] = [
  { name: 'one-line-fix', what: 'an off-by-one fix: one line of a 45-line module changes' },
  { name: 'rename-function', what: 'a method renamed at its definition and its six call sites, in two files' },
  { name: 'add-function', what: 'a new generic function added between two existing ones' },
  { name: 'delete-block', what: 'a deprecated fallback (twelve lines) removed from a function' },
  { name: 'crlf-file', what: 'two lines changed in a file with CR LF line endings' },
  { name: 'multi-file', what: 'a new field threaded through a library, its test, the binary and the manifest' },
  { name: 'new-file', what: 'a new module, nothing else' },
  { name: 'delete-file', what: 'an obsolete module deleted and its import removed' },
  { name: 'large-file', what: 'one setting and a comment changed near the top of a 2,218-line vendored library (diff-match-patch)' },
];

const LANGUAGES: Record<string, string> = {
  '.py': 'Python',
  '.java': 'Java',
  '.go': 'Go',
  '.js': 'JavaScript',
  '.cs': 'C#',
  '.rs': 'Rust',
  '.toml': 'TOML',
};

// ---------------------------------------------------------------------------
// Reading the fixtures.

function readTree(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  if (!existsSync(dir)) return out;
  const walk = (d: string) => {
    for (const name of readdirSync(d).sort()) {
      const full = join(d, name);
      if (statSync(full).isDirectory()) walk(full);
      else out[relative(dir, full).split('\\').join('/')] = readFileSync(full, 'utf8');
    }
  };
  walk(dir);
  return out;
}

/** A fixture as a change: `before/` and `after/` trees; a file missing from one side is created or deleted. */
function loadChange(name: string): FileChange[] {
  const before = readTree(join(FIXTURES, name, 'before'));
  const after = readTree(join(FIXTURES, name, 'after'));
  const paths = [...new Set([...Object.keys(before), ...Object.keys(after)])].sort();
  return paths
    .map((file) => ({ file, before: before[file] ?? null, after: after[file] ?? null }))
    .filter((c) => c.before !== c.after);
}

// ---------------------------------------------------------------------------
// Measuring.

interface Measured {
  name: string;
  what: string;
  changes: FileChange[];
  writings: (FormatWriting & { tokens: TokenCounts | null })[];
  views: (SourceView & { tokens: TokenCounts })[];
}

async function measure(name: string, what: string): Promise<Measured> {
  const changes = loadChange(name);
  if (changes.length === 0) throw new Error(`fixture ${name}: before/ and after/ are the same`);
  const writings = [];
  for (const w of compareFormats(changes)) writings.push({ ...w, tokens: w.reply === '' && w.roundTrip !== 'ok' ? null : await countTokens(w.reply) });
  const views = [];
  for (const v of sourceViews(requestFiles(changes))) views.push({ ...v, tokens: await countTokens(v.text) });
  return { name, what, changes, writings, views };
}

// ---------------------------------------------------------------------------
// Writing the page.

const num = (n: number) => n.toLocaleString('en-US');
const pct = (n: number, base: number) => (base === 0 ? '' : `${n >= base ? '+' : '−'}${Math.round((Math.abs(n - base) / base) * 100)}%`);
/** Escape text (engine messages, paths) for Markdown, tables included. */
const md = (text: string) => text.replace(/[\\`*_{}[\]<>|#~]/g, (c) => '\\' + c).replace(/\n/g, ' ');
const code = (text: string) => '`' + text + '`';
const table = (head: string[], rows: string[][], align: ('l' | 'r')[]) =>
  [
    `| ${head.join(' | ')} |`,
    `|${align.map((a) => (a === 'r' ? '---:' : ':---')).join('|')}|`,
    ...rows.map((r) => `| ${r.join(' | ')} |`),
  ].join('\n');

const MARK = { ok: '', unsupported: ' †', failed: ' ✗' } as const;
const cell = (w: Measured['writings'][number], value: (t: TokenCounts) => number) =>
  w.tokens === null ? 'n/a' : num(value(w.tokens)) + MARK[w.roundTrip];

function changeSummary(m: Measured): string[] {
  const languages = [...new Set(m.changes.map((c) => LANGUAGES[extname(c.file)] ?? extname(c.file)))].join(', ');
  let added = 0;
  let removed = 0;
  let linesBefore = 0;
  for (const c of m.changes) {
    const a = c.before === null ? [] : parseText(c.before).lines;
    const b = c.after === null ? [] : parseText(c.after).lines;
    linesBefore += a.length;
    for (const s of lineSplices(a, b)) {
      removed += s.to - s.from;
      added += s.lines.length;
    }
  }
  const files = m.changes
    .map((c) => code(c.file) + (c.before === null ? ' (new)' : c.after === null ? ' (deleted)' : ''))
    .join(', ');
  return [m.name, md(m.what), languages, files, num(linesBefore), `+${added} −${removed}`];
}

function page(all: Measured[]): string {
  const names = formats.map((f) => f.name);
  const viewKinds = all[0].views.map((v) => v.kind);
  const common = all.filter((m) => m.writings.every((w) => w.roundTrip === 'ok'));
  const left = all.filter((m) => !common.includes(m));
  const out: string[] = [];
  out.push('---', 'title: What each format costs', '---', '');
  out.push('<!-- Generated by `npm run bench:costs` (bench/costs.bench.ts). Do not edit by hand: change the script or the fixtures and run it again. -->', '');
  out.push('# What each format costs', '');
  out.push(
    'A format costs tokens twice: once to show the model the files (the *source view*:',
    'plain text, or numbered or tagged lines for the formats that cite lines), and once',
    'for the model to write its edit (the *reply*). This page measures both on a fixed set',
    `of ${all.length} real changes, kept as plain before/after files in \`bench/fixtures/changes/\`.`,
    '',
    'How it is measured:',
    '',
    '- Each change is written in every format by that format\'s own writer (the one the',
    '  playground and the command line use), then applied back with the engine to the files',
    '  it was written against and compared with the intended files byte for byte (a deleted',
    '  file must come back deleted).',
    '- A mark after a count says the reply does not round-trip: **†** the format cannot carry',
    '  part of the change (deleting a file, a line-ending or final-newline change), and **✗**',
    '  the reply applies to something else than intended (a writer bug). `n/a`: the writer',
    '  refused the change. Each is explained under the change it concerns.',
    '- The reply is counted as written, with nothing around it. The source view is every file',
    '  the change touches that exists before it, each under a line with its path; the path lines are',
    '  the same in every view, so views differ only in how they show the lines. A new file has',
    '  nothing to show.',
    '',
    'Tokenizers:',
    '',
    '- **o200k**: OpenAI `o200k_base` (GPT-4o, GPT-4.1, GPT-5, o-series), exact, from',
    '  gpt-tokenizer 4.0.0, a JavaScript port of tiktoken.',
    '- **cl100k**: OpenAI `cl100k_base` (GPT-4, GPT-3.5), exact, from the same package.',
    '- **Llama 3**: exact, from llama3-tokenizer-js 1.2.0, without the begin- and end-of-text',
    '  tokens.',
    '- **Claude (est.)** and **Gemini (est.)** are **estimates**: neither vendor publishes a',
    '  tokenizer that runs on the client, and the exact counts come only from their count-tokens',
    `  APIs. Claude (est.) is the o200k count × ${CLAUDE_FACTOR}, rounded up; Gemini (est.) is`,
    `  the number of characters ÷ ${GEMINI_CHARS_PER_TOKEN}, rounded up.`,
    '',
    'The method as the code states it (`method` in `src/tokens/index.ts`):',
    '',
    `> ${md(method)}`,
    '',
    `This page is generated by \`npm run bench:costs\` (\`bench/costs.bench.ts\`); do not edit it`,
    'by hand.',
    '',
  );

  out.push('## The changes', '');
  out.push(table(['change', 'what', 'language', 'files', 'lines before', 'lines'], all.map(changeSummary), ['l', 'l', 'l', 'l', 'r', 'r']), '');

  out.push('## Tokens to write the edit', '');
  out.push('The reply in each format, in o200k tokens. Lower is cheaper.', '');
  // At most five formats per table: a wider table would scroll sideways.
  const groups = Math.ceil(names.length / 5);
  const per = Math.ceil(names.length / groups);
  for (let g = 0; g < names.length; g += per) {
    const cols = names.slice(g, g + per);
    out.push(
      table(
        ['change', ...cols],
        all.map((m) => [m.name, ...m.writings.slice(g, g + per).map((w) => cell(w, (t) => t.o200k))]),
        ['l', ...cols.map(() => 'r' as const)],
      ),
      '',
    );
  }
  out.push(
    `Totals over the ${common.length} changes every format carries${left.length ? ` (all but ${left.map((m) => code(m.name)).join(', ')})` : ''}, with every tokenizer:`,
    '',
    table(
      ['format', 'o200k', 'cl100k', 'Llama 3', 'Claude (est.)', 'Gemini (est.)', 'changes it carries'],
      names.map((name, i) => {
        const sum = (f: (t: TokenCounts) => number) => num(common.reduce((s, m) => s + f(m.writings[i].tokens!), 0));
        const carried = all.filter((m) => m.writings[i].roundTrip === 'ok').length;
        return [name, sum((t) => t.o200k), sum((t) => t.cl100k), sum((t) => t.llama3), sum((t) => t.claudeEstimate), sum((t) => t.geminiEstimate), `${carried} of ${all.length}`];
      }),
      ['l', 'r', 'r', 'r', 'r', 'r', 'r'],
    ),
    '',
    'Llama 3\'s vocabulary is cl100k\'s plus 28,000 tokens, mostly for languages other than English;',
    'on English text and code the two counts are usually the same.',
    '',
  );

  out.push('## Tokens to show the source', '');
  out.push('The files the change touches, in o200k tokens, in each view; the percentage is the cost over plain text.', '');
  const viewLabel = (kind: string) => (kind === 'plain' ? 'plain' : `${kind} view`);
  out.push(
    table(
      ['change', ...viewKinds.map(viewLabel)],
      all.map((m) => {
        const plain = m.views[0].tokens.o200k;
        return [m.name, ...m.views.map((v, k) => (v.chars === 0 ? '—' : k === 0 ? num(v.tokens.o200k) : `${num(v.tokens.o200k)} (${pct(v.tokens.o200k, plain)})`))];
      }),
      ['l', ...viewKinds.map(() => 'r' as const)],
    ),
    '',
  );
  const viewTotals = viewKinds.map((_, k) => all.reduce((s, m) => s + m.views[k].tokens.o200k, 0));
  out.push(
    `Over all ${all.length} changes: ` +
      viewKinds.map((kind, k) => `${viewLabel(kind)} ${num(viewTotals[k])}${k ? ` (${pct(viewTotals[k], viewTotals[0])})` : ''}`).join(', ') +
      ' o200k tokens.',
    '',
  );

  out.push('## Reading and writing together', '');
  out.push(
    'What one round costs in each format: the source in the view the format reads (its own',
    'view when it has one, plain text otherwise) plus the reply, in o200k tokens, summed over',
    `the ${common.length} changes every format carries. The large file dominates both columns;`,
    'the last column leaves it out.',
    '',
  );
  const small = common.filter((m) => m.name !== 'large-file');
  out.push(
    table(
      ['format', 'reads', 'source', 'reply', 'total', 'total without large-file'],
      names.map((name, i) => {
        const viewOf = (m: Measured) => m.views.find((v) => v.kind === m.writings[i].view.kind)!.tokens.o200k;
        const round = (ms: Measured[]) => ms.reduce((s, m) => s + viewOf(m) + m.writings[i].tokens!.o200k, 0);
        const view = common.reduce((s, m) => s + viewOf(m), 0);
        const reply = common.reduce((s, m) => s + m.writings[i].tokens!.o200k, 0);
        return [name, viewLabel(all[0].writings[i].view.kind), num(view), num(reply), num(view + reply), num(round(small))];
      }),
      ['l', 'l', 'r', 'r', 'r', 'r'],
    ),
    '',
  );

  out.push('## Each change in detail', '');
  for (const m of all) {
    out.push(`### ${m.name}`, '', `${md(m.what)[0].toUpperCase()}${md(m.what).slice(1)}.`, '');
    out.push(
      table(
        ['format', 'round trip', 'chars', 'o200k', 'cl100k', 'Llama 3', 'Claude (est.)', 'Gemini (est.)'],
        m.writings.map((w) => [
          w.format,
          w.roundTrip,
          w.tokens === null ? 'n/a' : num(w.chars),
          ...[(t: TokenCounts) => t.o200k, (t: TokenCounts) => t.cl100k, (t: TokenCounts) => t.llama3, (t: TokenCounts) => t.claudeEstimate, (t: TokenCounts) => t.geminiEstimate].map(
            (f) => (w.tokens === null ? 'n/a' : num(f(w.tokens))),
          ),
        ]),
        ['l', 'l', 'r', 'r', 'r', 'r', 'r', 'r'],
      ),
      '',
    );
    const notes = m.writings.filter((w) => w.roundTrip !== 'ok');
    if (notes.length) {
      for (const w of notes) out.push(`- ${code(w.format)} (${w.roundTrip}): ${md((w.problem ?? '').replace(`the ${w.format} reply `, ''))}`);
      out.push('');
    }
    if (m.views[0].chars > 0) {
      out.push(
        table(
          ['source view', 'chars', 'o200k', 'cl100k', 'Llama 3', 'Claude (est.)', 'Gemini (est.)'],
          m.views.map((v) => [viewLabel(v.kind), num(v.chars), num(v.tokens.o200k), num(v.tokens.cl100k), num(v.tokens.llama3), num(v.tokens.claudeEstimate), num(v.tokens.geminiEstimate)]),
          ['l', 'r', 'r', 'r', 'r', 'r', 'r'],
        ),
        '',
      );
    } else {
      out.push('Nothing to show: every file of this change is new.', '');
    }
  }
  return out.join('\n');
}

// ---------------------------------------------------------------------------

const found = readdirSync(FIXTURES).filter((n) => statSync(join(FIXTURES, n)).isDirectory()).sort();
const listed = CHANGES.map((c) => c.name);
const unlisted = found.filter((n) => !listed.includes(n));
const missing = listed.filter((n) => !found.includes(n));
if (unlisted.length || missing.length) {
  console.error(`bench/fixtures/changes and the list in bench/costs.bench.ts differ: unlisted ${unlisted.join(', ') || '-'}; missing ${missing.join(', ') || '-'}`);
  process.exit(2);
}

const measured: Measured[] = [];
for (const { name, what } of CHANGES) measured.push(await measure(name, what));
const text = page(measured) + '\n';

if (CHECK) {
  const current = existsSync(PAGE) ? readFileSync(PAGE, 'utf8') : '';
  if (current !== text) {
    console.error('spec/costs.md is out of date: run npm run bench:costs');
    process.exit(1);
  }
} else {
  writeFileSync(PAGE, text);
}

// The tables, for the terminal: everything from the first table to the details.
const body = text.slice(text.indexOf('## The changes'), text.indexOf('## Each change in detail')).trimEnd();
console.log(body);
const problems = measured.flatMap((m) => m.writings.filter((w) => w.roundTrip === 'failed').map((w) => `${m.name} ${w.format}: ${w.problem}`));
if (problems.length) console.log(`\nReplies that do not round-trip (writer bugs):\n${problems.map((p) => '  ' + p).join('\n')}`);
console.log(CHECK ? '\nspec/costs.md is up to date.' : `\nwrote ${relative(process.cwd(), PAGE)}`);
