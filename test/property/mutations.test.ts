// Damage that models really do to a correct reply, for every format: the
// damaged reply either applies each edit at the place the correct reply
// applies it, or fails it. Never a wrong place.
//
// For a random change of a file with distinct lines, the format's own writer
// gives the correct reply C; the reply is damaged one way:
//
// - shift:   its line numbers are off by 1 to 5 (every number the format
//            writes: ln-diff's, hunk headers, :start_line:, hashline's);
// - typo:    one character changed in a cited line;
// - trailing / leading: blanks added at the end, or at the start, of a cited line;
// - quotes:  straight quotes in a cited line turned into typographic ones;
// - tabs:    runs of spaces in a cited line turned into tabs;
// - missing: a cited line replaced by one the file does not have;
// - repeat:  one edit written twice (its text copied after it), or the
//            whole reply written twice.
//
// Then, for the damaged reply's result X (never thrown):
// - every applied edit of X has the file and line range of an edit of C;
// - a file no applied edit names is unchanged, byte for byte;
// - outside the applied ranges, no line of a file changed (nor moved);
// - inside a range that C also has, X wrote what C wrote (up to leading
//   blanks where X matched ignoring whitespace or by similarity, when the
//   format re-indents the lines it writes);
// - when every edit of X applied, the file is C's, byte for byte (up to the
//   same re-indentation).
//
// And the same invariants hold for C itself against its own file: a reply
// that applies reports exactly the lines it changed. Files have mixed line
// endings and, now and then, a line of 20,000 to 60,000 characters. Last, C
// cut at every position: whatever applies, applies at C's places, and
// nothing outside the applied ranges changes.
//
// PROPERTY_RUNS_SCALE multiplies the run count.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { parseText } from '../../src/core/text.ts';
import type { ApplyResult, EditResult, Format } from '../../src/core/types.ts';
import { applyRequest, formats } from '../../src/formats/index.ts';
import { codeLine } from './arbitraries.ts';

const SCALE = Number(process.env.PROPERTY_RUNS_SCALE ?? 1);
const RUNS = 600 * SCALE;

const FILE = 'src/main.ts';
/** A file no edit names: it must come back unchanged. */
const OTHER = { 'other.txt': 'keep\r\nme\n' };

// ---------------------------------------------------------------------------
// Generators.

/** A line that is not code: words, blanks, quotes, braces (no marker syntax: writers have their own tests for that). */
const plainLine: fc.Arbitrary<string> = fc
  .tuple(
    fc.constantFrom('', '  ', '    ', '\t', '        '),
    fc.constantFrom('return', 'if', 'print', 'value', 'items', "name = 'x'", 'say("hi")', '}', '{', 'end', 'x + y'),
    fc.constantFrom('', ';', ' // note', ',', ' {', ')'),
  )
  .map(([a, b, c]) => a + b + c);

/** A long line, like a minified bundle: distinct from every other by its seed. */
const hugeLine: fc.Arbitrary<string> = fc
  .tuple(fc.integer({ min: 20_000, max: 60_000 }), fc.nat())
  .map(([n, seed]) => `/* huge ${seed} */ ` + `var a${seed}=function(b){return b+1};`.repeat(Math.ceil(n / 40)).slice(0, n));

const anyLine = fc.oneof({ weight: 6, arbitrary: codeLine }, { weight: 4, arbitrary: plainLine }, { weight: 1, arbitrary: fc.constant('') });

/** A file's lines (distinct) and its changed version (new lines distinct from everything). */
interface Change {
  before: string[];
  after: string[];
  /** Line endings of `before`'s lines (mixed); new lines take what the engine gives them. */
  eols: ('\n' | '\r\n')[];
  final: boolean;
}

const change: fc.Arbitrary<Change> = fc
  .record({
    // Distinct even once blanks and quotes are set aside: damage to one line must not make it another line of the file.
    before: fc.uniqueArray(fc.oneof({ weight: 30, arbitrary: anyLine }, { weight: 1, arbitrary: hugeLine }), {
      minLength: 3,
      maxLength: 40,
      selector: (l) => l.replace(/[\s'"\u2018\u2019\u201C\u201D]+/g, ''),
    }),
    edits: fc.array(fc.record({ at: fc.nat({ max: 1000 }), remove: fc.nat({ max: 3 }), insert: fc.array(anyLine, { maxLength: 3 }) }), {
      minLength: 1,
      maxLength: 4,
    }),
    eols: fc.array(fc.constantFrom<'\n' | '\r\n'>('\n', '\n', '\r\n'), { minLength: 40, maxLength: 40 }),
    final: fc.boolean(),
  })
  .map(({ before, edits, eols, final }) => {
    const after = [...before];
    let k = 0;
    for (const e of edits) {
      const at = e.at % (after.length + 1);
      after.splice(at, Math.min(e.remove, after.length - at), ...e.insert.map((l) => `${l} /* new ${k++} */`));
    }
    // Without a final newline a text cannot end with an empty line ("a\n" is one line): keep the newline then.
    const keepsEmptyLast = before[before.length - 1] === '' || after[after.length - 1] === '';
    return { before, after, eols: eols.slice(0, before.length), final: final || keepsEmptyLast };
  })
  .filter((c) => c.before.join('\n') !== c.after.join('\n'));

/** The file's text: `lines` with their own endings (mixed); the last without one unless `final`. */
function textOf(lines: readonly string[], eols: readonly string[], final: boolean): string {
  return lines.map((l, i) => l + (i < lines.length - 1 || final ? (eols[i] ?? '\n') : '')).join('');
}

type Damage = 'shift' | 'typo' | 'trailing' | 'leading' | 'quotes' | 'tabs' | 'missing' | 'repeat' | 'repeat-all';
const DAMAGE: Damage[] = ['shift', 'typo', 'trailing', 'leading', 'quotes', 'tabs', 'missing', 'repeat', 'repeat-all'];

interface Plan {
  damage: Damage;
  /** shift: by how many lines, and which way. */
  by: number;
  /** Which edits and which of their cited lines to damage (taken modulo the counts). */
  picks: { edit: number; line: number }[];
  blank: string;
}

const plan: fc.Arbitrary<Plan> = fc.record({
  damage: fc.constantFrom(...DAMAGE),
  by: fc.integer({ min: 1, max: 5 }).chain((n) => fc.constantFrom(n, -n)),
  picks: fc.array(fc.record({ edit: fc.nat(), line: fc.nat() }), { minLength: 1, maxLength: 3 }),
  blank: fc.constantFrom(' ', '  ', '\t', ' \t'),
});

// ---------------------------------------------------------------------------
// Damage.

/** Splice `replacement` over `[from, to)` of `text`. */
const splice = (text: string, from: number, to: number, replacement: string) => text.slice(0, from) + replacement + text.slice(to);

function damageLine(line: string, p: Plan): string {
  switch (p.damage) {
    case 'typo': {
      if (line === '') return '¤';
      const at = Math.floor(line.length / 2);
      return splice(line, at, at + 1, line[at] === '¤' ? '¥' : '¤');
    }
    case 'trailing':
      return line + p.blank;
    case 'leading':
      return /^[ \t]/.test(line) && p.blank === '\t' ? line.slice(1) : p.blank + line;
    case 'quotes':
      return line.replace(/"([^"]*)"/g, '\u201C$1\u201D').replace(/'/g, '\u2019');
    case 'tabs':
      return line.replace(/ {4}| {2}/g, '\t');
    case 'missing':
      return '¤ a line this file does not have ¤';
    default:
      return line;
  }
}

/** Add `by` to a line number as written (never below 1). */
const moved = (n: string, by: number) => String(Math.max(1, Number(n) + by));

/** The reply with every line number it writes moved by `by` (formats without numbers: unchanged). */
function shiftNumbers(format: Format, reply: string, by: number): string {
  switch (format.name) {
    case 'ln-diff':
      // The numbered lines to remove: digits, then the bar.
      return reply.replace(/^([ \t]*)(\d+)([ \t]*\u2502)/gm, (_, a, n, b) => a + moved(n, by) + b);
    case 'udiff':
    case 'udiffx':
      return reply.replace(/^@@ -(\d+)((?:,\d+)? \+)(\d+)/gm, (_, a, mid, c) => `@@ -${moved(a, by)}${mid}${moved(c, by)}`);
    case 'roo':
      return reply.replace(/^:(start|end)_line:(\d+)$/gm, (_, which, n) => `:${which}_line:${moved(n, by)}`);
    case 'hashline':
      // "line": N (N = 0, the top of the file, is no line), and each N: of "lines".
      return reply
        .replace(/"line":([1-9]\d*)/g, (_, n) => `"line":${moved(n, by)}`)
        .replace(/"lines":"([^"]*)"/g, (_, list: string) => `"lines":"${list.replace(/(^|\\n)(\d+):/g, (_m, sep, n) => sep + moved(n, by) + ':')}"`);
    case 'str-replace':
      return reply.replace(/"insert_line": (\d+)/g, (_, n) => `"insert_line": ${moved(n, by)}`);
    default:
      return reply;
  }
}

/** The reply with the damage of `p` done to its numbers, its cited lines (through the parse's spans) or its edits. */
function damaged(format: Format, reply: string, files: string[], p: Plan): string {
  if (p.damage === 'shift') return shiftNumbers(format, reply, p.by);
  if (p.damage === 'repeat-all') return reply + '\n' + reply;
  const { edits } = format.parse(reply, { files });
  if (edits.length === 0) return reply;
  if (p.damage === 'repeat') {
    const e = edits[p.picks[0].edit % edits.length];
    return reply.slice(0, e.span.to) + '\n' + reply.slice(e.span.from, e.span.to) + reply.slice(e.span.to);
  }
  // Cited lines, by their spans in the reply; damaged from the last so that offsets stay right.
  const spans = new Map<number, { from: number; to: number }>();
  for (const pick of p.picks) {
    const e = edits[pick.edit % edits.length];
    let list = e.oldSpans ?? [];
    // old_str ending with a line break reads as one more, empty, line after it: not a line of the file.
    if (format.name === 'str-replace' && list.length > 1 && list[list.length - 1].from === list[list.length - 1].to) list = list.slice(0, -1);
    if (list.length === 0) continue;
    const s = list[pick.line % list.length];
    spans.set(s.from, s);
  }
  let out = reply;
  for (const s of [...spans.values()].sort((a, b) => b.from - a.from)) out = splice(out, s.from, s.to, damageLine(out.slice(s.from, s.to), p));
  return out;
}

// ---------------------------------------------------------------------------
// Checks.

const apply = (format: Format, files: Record<string, string>, response: string): ApplyResult =>
  applyRequest({ format: format.name, files, response });

/**
 * The lines a result wrote in place of each group of its ranges (ranges that
 * touch form one group), found by walking the file's unchanged lines, which
 * are all distinct: null when a line outside the ranges changed or moved.
 */
function blocks(before: readonly string[], after: readonly string[], ranges: readonly { start: number; end: number }[]): Map<string, string[]> | null {
  const groups: { s: number; e: number }[] = [];
  for (const r of [...ranges].sort((a, b) => a.start - b.start || a.end - b.end)) {
    const s = r.start - 1;
    const e = r.end;
    const last = groups[groups.length - 1];
    if (last && s <= last.e) last.e = Math.max(last.e, e);
    else groups.push({ s, e });
  }
  const out = new Map<string, string[]>();
  let b = 0;
  let a = 0;
  for (const g of groups) {
    for (; b < g.s; b++, a++) if (after[a] !== before[b]) return null;
    const next = g.e < before.length ? after.indexOf(before[g.e], a) : after.length;
    if (next < 0) return null;
    out.set(`${g.s}-${g.e}`, after.slice(a, next));
    b = g.e;
    a = next;
  }
  for (; b < before.length; b++, a++) if (after[a] !== before[b]) return null;
  return a === after.length ? out : null;
}

/** The range lies in the group `key` (`s-e`, 0-based half-open) that `blocks` names. */
function groupOf(key: string, r: { start: number; end: number }): boolean {
  const [s, e] = key.split('-').map(Number);
  return r.start - 1 >= s && r.end <= e;
}

const placeOf = (e: EditResult) => `${e.file}:${e.range ? `${e.range.start}-${e.range.end}` : e.kind}`;

interface Leeway {
  /** Edits that may land elsewhere (the rest still holds: nothing outside applied ranges changes). */
  exempt?: (e: EditResult) => boolean;
  /** An applied edit need only overlap an edit of the correct reply (old_str matched as a substring). */
  overlap?: boolean;
  /** Compare what was written with what the correct reply writes (not when the damage could change that). */
  sameText?: boolean;
}

const overlaps = (a: { start: number; end: number }, b: { start: number; end: number }) =>
  Math.max(a.start, b.start) <= Math.min(a.end, b.end) || (a.start === b.start && a.end === b.end);

/** The invariants of the file comment: `x` (the damaged reply's result) against `c` (the correct reply's). */
function check(files: Record<string, string>, c: ApplyResult, x: ApplyResult, context: () => string, leeway: Leeway = {}): void {
  const exempt = leeway.exempt ?? (() => false);
  const sameText = leeway.sameText ?? true;
  const correct = new Set(c.edits.map(placeOf));
  const applied = x.edits.filter((e) => e.status === 'applied');
  for (const e of applied) {
    if (exempt(e)) continue;
    const right =
      correct.has(placeOf(e)) ||
      (leeway.overlap === true && e.range !== null && c.edits.some((t) => t.file === e.file && t.range !== null && overlaps(t.range, e.range!)));
    assert.ok(right, `edit ${e.index} applied at ${placeOf(e)} (${e.match}), where the correct reply has no edit: ${context()}`);
    if (e.code === 'duplicate') assert.ok(applied.some((t) => t.index === e.duplicateOf), `duplicate of an edit that did not apply: ${context()}`);
  }
  for (const [path, text] of Object.entries(files)) {
    const mine = applied.filter((e) => e.file === path && e.code !== 'duplicate');
    if (mine.length === 0) {
      assert.equal(x.files[path], text, `${path} changed without an applied edit: ${context()}`);
      continue;
    }
    const before = parseText(text).lines;
    const got = blocks(before, parseText(x.files[path] ?? '').lines, mine.map((e) => e.range!));
    assert.ok(got, `a line outside the applied ranges of ${path} changed: ${context()}`);
    const theirs = c.edits.filter((e) => e.file === path);
    const want = blocks(before, parseText(c.files[path] ?? '').lines, theirs.map((e) => e.range!));
    assert.ok(want, `the correct reply changed a line outside its ranges: ${context()}`);
    if (!sameText) continue;
    const loose = mine.some((e) => e.match === 'whitespace' || e.match === 'fuzzy');
    const same = (p: string[], q: string[]) => p.length === q.length && p.every((l, i) => l === q[i] || (loose && l.trimStart() === q[i].trimStart()));
    // Per group of ranges: where the damaged reply applied other edits than the correct one
    // (a repeated insertion stacks; an exempt edit lands there), the lines are not compared.
    const inGroup = (edits: EditResult[], key: string) => edits.filter((e) => groupOf(key, e.range!));
    for (const [key, lines] of got) {
      const expected = want.get(key);
      const here = inGroup(mine, key);
      if (!expected || here.length !== inGroup(theirs, key).length || here.some(exempt)) continue;
      assert.ok(same(lines, expected), `${path} lines ${key}: wrote ${JSON.stringify(lines)}, the correct reply ${JSON.stringify(expected)}: ${context()}`);
    }
    if (mine.length === theirs.length && !loose && !mine.some(exempt))
      assert.equal(x.files[path], c.files[path], `every edit applied, yet ${path} differs from the correct result: ${context()}`);
  }
}

// ---------------------------------------------------------------------------

describe('damaged replies apply at the right place or fail, for every format', () => {
  for (const format of formats) {
    it(format.name, () => {
      const seen = new Map<string, number>();
      fc.assert(
        fc.property(change, plan, (ch, p) => {
          const files = { [FILE]: textOf(ch.before, ch.eols, ch.final), ...OTHER };
          const correctReply = format.write([{ file: FILE, before: files[FILE], after: textOf(ch.after, [], ch.final) }]);
          const c = apply(format, files, correctReply);
          const context = (reply = correctReply, r = c) =>
            `\nreply:\n${reply.slice(0, 3000)}\nedits: ${JSON.stringify(r.edits.map((e) => [e.index, e.status, e.code, e.match, e.range, e.message.slice(0, 200)]))}`;

          // The correct reply applies every edit and reports exactly the lines it changed.
          assert.equal(c.ok, true, `the correct reply failed: ${context()}`);
          assert.equal(parseText(c.files[FILE] ?? '').lines.join('\n'), ch.after.join('\n'), `the correct reply gave another text: ${context()}`);
          check(files, c, c, () => context());

          const reply = damaged(format, correctReply, Object.keys(files), p);
          const x = apply(format, files, reply);
          // An edit that cites nothing but a line number (a text-editor `insert`) cannot notice a wrong number.
          const exempt = (e: EditResult) => p.damage === 'shift' && format.name === 'str-replace' && e.kind === 'insert';
          // old_str is matched as a substring: with blanks added or taken at its ends it can still
          // match, over more or fewer lines than the correct one (and then writes other lines).
          const substring = format.name === 'str-replace' && ['leading', 'trailing', 'tabs'].includes(p.damage);
          // A copied edit text can read differently where it lands (a path line, a fence): its lines may differ.
          const huge = ch.before.some((l) => l.length > 10_000) ? ' huge' : '';
          for (const e of x.edits) {
            const key = `${p.damage}${huge}: ${e.status === 'applied' ? `${e.match}${e.code ? ` ${e.code}` : ''}` : `failed ${e.code}`}`;
            seen.set(key, (seen.get(key) ?? 0) + 1);
          }
          check(files, c, x, () => `${p.damage} ${p.by}` + context(reply, x), {
            exempt,
            overlap: substring,
            sameText: p.damage !== 'repeat' && !substring,
          });
        }),
        { numRuns: RUNS, includeErrorInReport: true },
      );
      if (process.env.PROPERTY_STATS) console.log(format.name, [...seen].sort());
    });
  }
});

describe('a correct reply cut at every position applies only at its own places, for every format', () => {
  const small: fc.Arbitrary<Change> = change.filter((c) => c.before.length <= 12 && c.before.every((l) => l.length < 200));
  for (const format of formats) {
    it(format.name, () => {
      fc.assert(
        fc.property(small, (ch) => {
          const files = { [FILE]: textOf(ch.before, ch.eols, ch.final), ...OTHER };
          const reply = format.write([{ file: FILE, before: files[FILE], after: textOf(ch.after, [], ch.final) }]);
          const c = apply(format, files, reply);
          for (let cut = 0; cut < reply.length; cut++) {
            const x = apply(format, files, reply.slice(0, cut));
            check(files, c, x, () => `cut at ${cut}: ${JSON.stringify(reply.slice(Math.max(0, cut - 60), cut))}`, { sameText: false });
          }
        }),
        { numRuns: 12 * SCALE, includeErrorInReport: true },
      );
    });
  }
});
