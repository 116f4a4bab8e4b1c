// Re-indented replies on the bench's real tasks: how many each format
// recovers, refuses, or gets wrong (bytes written that the change does not
// have), with this engine and, with --old DIR, with another checkout's
// engine in the same run. bench/README.md, "reindent.bench.ts", says what it
// does and what the columns mean. Asserts nothing about time.
//
//   npm run bench:reindent
//   npm run bench:reindent -- --old /tmp/old-checkout --old-name 88ab969

import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { ApplyRequest, ApplyResult, FileChange } from '../src/core/types.ts';
import { applyRequest, getFormat } from '../src/formats/index.ts';

const args = process.argv.slice(2);
const option = (name: string) => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : undefined;
};

interface Task {
  id: string;
  files: { path: string; before: string | null; after: string | null }[];
}

const tasks = (JSON.parse(readFileSync(resolve('bench/tasks/suite.json'), 'utf8')) as { tasks: Task[] }).tasks;

/** The formats that quote old lines, and so meet re-indented quotes. */
const FORMATS = ['ln-diff', 'search-replace', 'udiff', 'udiffx', 'roo', 'apply-patch'];

const indentOf = (line: string) => /^[ \t]*/.exec(line)![0];

/** How a model re-indents what it quotes: the file as the model saw it, line by line. */
interface Transform {
  name: string;
  /** The line as quoted, or null when this transform does not apply to the file. */
  line(line: string, width: number): string;
  applies(text: string, width: number | null): boolean;
}

/** The file's indentation step in spaces: the most frequent step between consecutive space-indented lines. */
function spaceWidth(text: string): number | null {
  const steps = new Map<number, number>();
  let previous = 0;
  for (const line of text.split('\n')) {
    if (line.trim() === '' || line.trimStart().startsWith('*')) continue;
    const indent = indentOf(line);
    if (indent.includes('\t')) return null;
    const d = Math.abs(indent.length - previous);
    if (d > 0 && d <= 8) steps.set(d, (steps.get(d) ?? 0) + 1);
    previous = indent.length;
  }
  let best: number | null = null;
  for (const [d, n] of steps) if (best === null || n > steps.get(best)!) best = d;
  return best;
}

const relevel = (line: string, from: number, to: number) => {
  const indent = indentOf(line);
  if (indent.includes('\t') || indent.length === 0) return line;
  const level = Math.floor(indent.length / from);
  return ' '.repeat(level * to + (indent.length % from)) + line.slice(indent.length);
};

const TRANSFORMS: Transform[] = [
  {
    name: 'tabs as 4 spaces',
    applies: (text) => /^\t/m.test(text),
    line: (line) => line.replace(/^\t+/, (tabs) => '    '.repeat(tabs.length)),
  },
  {
    name: '2 spaces as 4',
    applies: (text, width) => width === 2,
    line: (line) => relevel(line, 2, 4),
  },
  {
    // Every line quoted one level deeper than the file has it (a uniform shift: the file's
    // unindented lines too, as a block quoted inside a list item).
    name: 'one level more',
    applies: (text, width) => width !== null,
    line: (line, width) => (line.trim() === '' ? line : ' '.repeat(width) + line),
  },
  {
    name: '4 spaces as 2',
    applies: (text, width) => width === 4,
    line: (line) => relevel(line, 4, 2),
  },
];

/**
 * The change as the model saw it: every edited file (before and after)
 * re-indented by `t`, for which it wrote a correct reply; null when `t`
 * changes none of them.
 */
function asSeen(changes: FileChange[], t: Transform): FileChange[] | null {
  const touched = changes.filter((c) => c.before !== null && c.after !== null && t.applies(c.before, spaceWidth(c.before)));
  if (touched.length === 0) return null;
  const seen = changes.map((c) => {
    if (!touched.includes(c)) return c;
    const width = spaceWidth(c.before!) ?? 4;
    const map = (text: string) => text.split('\n').map((l) => t.line(l, width)).join('\n');
    return { ...c, before: map(c.before!), after: map(c.after!) };
  });
  return seen.some((c, i) => c.before !== changes[i].before) ? seen : null;
}

type Apply = (request: ApplyRequest) => ApplyResult;
type Outcome = 'recovered' | 'refused' | 'wrong';

const lines = (text: string | null | undefined) => (text ?? '').split('\n');

/**
 * recovered: every file is the change's after; wrong: a file holds a line
 * that neither its before nor its after has (bytes the change does not
 * have), or the result is ok but differs; refused: otherwise.
 */
function outcome(result: ApplyResult, changes: FileChange[]): Outcome {
  let same = true;
  for (const c of changes) {
    const got = result.files[c.file];
    if (got === c.after) continue;
    same = false;
    if (got === undefined || got === null) continue;
    const known = new Set([...lines(c.before), ...lines(c.after)]);
    if (lines(got).some((l) => !known.has(l))) return 'wrong';
  }
  if (same) return 'recovered';
  return result.ok ? 'wrong' : 'refused';
}

async function engines(): Promise<{ name: string; apply: Apply }[]> {
  const list: { name: string; apply: Apply }[] = [];
  const old = option('--old');
  if (old) {
    const mod = (await import(pathToFileURL(join(resolve(old), 'src/formats/index.ts')).href)) as { applyRequest: Apply };
    list.push({ name: option('--old-name') ?? 'OLD', apply: mod.applyRequest });
  }
  list.push({ name: 'NEW', apply: applyRequest });
  return list;
}

const counts = new Map<string, Record<Outcome, number>>();
const bump = (key: string, o: Outcome) => {
  const c = counts.get(key) ?? { recovered: 0, refused: 0, wrong: 0 };
  c[o]++;
  counts.set(key, c);
};

const all = await engines();
let cases = 0;
for (const task of tasks) {
  const changes: FileChange[] = task.files.map((f) => ({ file: f.path, before: f.before, after: f.after }));
  for (const t of TRANSFORMS) {
    const seen = asSeen(changes, t);
    if (seen === null) continue;
    const files = Object.fromEntries(changes.filter((c) => c.before !== null).map((c) => [c.file, c.before!]));
    for (const name of FORMATS) {
      let reply: string;
      try {
        reply = getFormat(name)!.write(seen);
      } catch {
        continue; // a change the format cannot say
      }
      cases++;
      for (const engine of all) {
        const result = engine.apply({ format: name, files, response: reply });
        bump(`${engine.name}\t${name}\t${t.name}`, outcome(result, changes));
      }
    }
  }
}

// One row per format and way of re-indenting, each engine's figures side by side.
const names = all.map((e) => e.name);
const rows: string[][] = [['format', 're-indented as', 'replies', ...names.map((n) => `${n}: recovered / refused / wrong`)]];
const keys = [...new Set([...counts.keys()].map((k) => k.split('\t').slice(1).join('\t')))].sort();
const cell = (c: Record<Outcome, number> | undefined) => (c ? `${c.recovered} / ${c.refused} / ${c.wrong}` : '');
const total = (engine: string, match: (format: string) => boolean) => {
  const sum = { recovered: 0, refused: 0, wrong: 0 };
  for (const [key, c] of counts) {
    const [e, format] = key.split('\t');
    if (e !== engine || !match(format)) continue;
    for (const k of ['recovered', 'refused', 'wrong'] as const) sum[k] += c[k];
  }
  return sum;
};
for (const key of keys) {
  const [format, t] = key.split('\t');
  const first = counts.get(`${names[0]}\t${key}`)!;
  rows.push([format, t, String(first.recovered + first.refused + first.wrong), ...names.map((n) => cell(counts.get(`${n}\t${key}`)))]);
}
for (const format of FORMATS) {
  const c = total(names[0], (f) => f === format);
  rows.push([format, 'all', String(c.recovered + c.refused + c.wrong), ...names.map((n) => cell(total(n, (f) => f === format)))]);
}
const grand = total(names[0], () => true);
rows.push(['all', 'all', String(grand.recovered + grand.refused + grand.wrong), ...names.map((n) => cell(total(n, () => true)))]);
const widths = rows[0].map((_, i) => Math.max(...rows.map((r) => r[i].length)));
console.log(`${cases} re-indented replies (${tasks.length} tasks, ${FORMATS.length} formats, ${TRANSFORMS.length} ways of re-indenting)\n`);
rows.forEach((r, k) => {
  console.log(`| ${r.map((v, i) => v.padEnd(widths[i])).join(' | ')} |`);
  if (k === 0) console.log(`|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`);
});

if (args.includes('--show-wrong')) {
  const show = Number(option('--show-wrong') ?? 3);
  let shown = 0;
  for (const task of tasks) {
    const changes: FileChange[] = task.files.map((f) => ({ file: f.path, before: f.before, after: f.after }));
    for (const t of TRANSFORMS) {
      const seen = asSeen(changes, t);
      if (seen === null) continue;
      const files = Object.fromEntries(changes.filter((c) => c.before !== null).map((c) => [c.file, c.before!]));
      for (const name of (option('--formats') ?? FORMATS.join(',')).split(',')) {
        let reply: string;
        try {
          reply = getFormat(name)!.write(seen);
        } catch {
          continue;
        }
        const result = applyRequest({ format: name, files, response: reply });
        if (outcome(result, changes) !== 'wrong' || shown >= show) continue;
        shown++;
        console.log(`\n### ${task.id} ${name} ${t.name}`);
        for (const c of changes) {
          const got = result.files[c.file];
          if (got === c.after || typeof got !== 'string') continue;
          const known = new Set([...lines(c.before), ...lines(c.after)]);
          const g = lines(got);
          g.forEach((l, i) => {
            if (!known.has(l)) console.log(`${c.file}:${i + 1} ${JSON.stringify(l)}  | after has ${JSON.stringify(lines(c.after)[i])}`);
          });
        }
        for (const e of result.edits) if (e.status === 'applied' && e.match !== 'exact') console.log(`  edit ${e.index} ${e.match} ${e.range?.start}-${e.range?.end}: ${e.message.slice(0, 300)}`);
      }
    }
  }
}
