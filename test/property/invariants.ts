// Checks shared by the per-format round-trip properties: what holds for the
// result of any reply in any format (edits numbered in reply order, known
// codes, spans inside the reply with positions that agree with their offsets,
// files changed only through their applied edits), the garbage-reply loop
// and the truncation loop.
//
// PROPERTY_RUNS_SCALE=20 multiplies every run count, for a longer hunt;
// PROPERTY_STATS=1 prints the outcomes the garbage generators reached.

import assert from 'node:assert/strict';
import fc from 'fast-check';
import { CODES } from '../../src/core/diagnostics.ts';
import { editSplices } from '../../src/core/hunks.ts';
import { applySplices, BOM, formatText, parseText, uniformEndings, type Splice, type TextFile } from '../../src/core/text.ts';
import type { ApplyResult, Diagnostic, Edit, EditKind, EditResult, EngineOptions, Format, ParseResult, Span } from '../../src/core/types.ts';
import { applyRequest } from '../../src/formats/index.ts';
import type { Version } from './arbitraries.ts';

export const SCALE = Number(process.env.PROPERTY_RUNS_SCALE ?? 1);
export const RUNS = 300 * SCALE;

export const show = (v: unknown): string => JSON.stringify(v);

export type Files = Record<string, string>;

/** `apply(files, reply)` for one format (by name), with engine options if given. */
export const applier =
  (format: string, options?: EngineOptions) =>
  (files: Files, response: string): ApplyResult =>
    applyRequest(options ? { format, files, response, options } : { format, files, response });

/** Offset -> 1-based line/column, counting `\n` as the line break. */
export function positionAt(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let lineStart = 0;
  for (let k = 0; k < offset; k++) {
    if (text.charCodeAt(k) === 10) {
      line++;
      lineStart = k + 1;
    }
  }
  return { line, column: offset - lineStart + 1 };
}

/** A span lies in the reply, and its line/column positions agree with its offsets. */
export function checkSpan(reply: string, span: Span, what: string): void {
  assert.ok(0 <= span.from && span.from <= span.to && span.to <= reply.length, `${what}: ${show(span)} outside the reply`);
  assert.deepEqual(span.start, positionAt(reply, span.from), `${what}: start of ${show(span)}`);
  assert.deepEqual(span.end, positionAt(reply, span.to), `${what}: end of ${show(span)}`);
}

/** What a format's one-file round trip checks besides the shared checks. */
export interface OneFileCheck {
  /** The reply for the change; null when the format cannot write it (the case is skipped). Default: `format.write`. */
  write?: (v: Version) => string | null;
  /** Warnings a written reply's edits may carry. Default: none. */
  warning?: (w: Diagnostic) => boolean;
  /** More checks of each edit. */
  edit?: (e: EditResult) => void;
  /** More checks of the whole case. */
  after?: (v: Version, reply: string) => void;
}

/**
 * The writer's reply for one file, applied to `before`, gives `after` byte
 * for byte: every edit applied exactly, no code, no unexpected warning, and
 * no diagnostic but `no-edits` for an unchanged file. Returns how many cases
 * were written.
 */
export function checkOneFileRoundTrip(format: Format, versions: fc.Arbitrary<Version>, check: OneFileCheck = {}): number {
  const apply = applier(format.name);
  const write = check.write ?? ((v: Version) => format.write([{ file: 'f.txt', before: v.before, after: v.after }]));
  let written = 0;
  fc.assert(
    fc.property(versions, (v) => {
      const reply = write(v);
      if (reply === null) return;
      written++;
      const r = apply({ 'f.txt': v.before }, reply);
      assert.equal(r.files['f.txt'], v.after, `reply:\n${reply}\nresult: ${show(r.edits)}`);
      assert.equal(r.ok, true, show(r.edits));
      for (const e of r.edits) {
        assert.equal(e.status, 'applied');
        assert.equal(e.match, 'exact');
        assert.equal(e.code, null);
        for (const w of e.warnings) assert.ok(check.warning?.(w), `unexpected warning ${show(w)}`);
        check.edit?.(e);
      }
      assert.deepEqual(r.diagnostics.map((d) => d.code), v.before === v.after ? ['no-edits'] : []);
      check.after?.(v, reply);
    }),
    { numRuns: RUNS },
  );
  return written;
}

/** What a format's invariant check needs besides the shared checks. */
export interface InvariantOptions {
  /**
   * The reply span of each parsed old line holds exactly that line. Off for
   * formats that escape the old text in the reply (JSON strings).
   */
  oldText?: boolean;
  /** Kinds of applied edit that may bring a file the request did not hold into being. */
  creates?: readonly EditKind[];
  /**
   * Recompute each touched file from the parse and compare: `true` (the
   * default), or `false` for formats whose edits are not line splices at
   * their reported ranges (then only untouched files are checked).
   */
  recompute?: boolean;
  /** The lines an applied edit puts in place of its range; by default its `new` lines, context lines kept from the file. */
  newLines?(edit: Edit, result: EditResult, original: TextFile): string[];
  /** Compare a recomputed file with the result; by default they are equal. */
  compare?(got: string | null | undefined, want: string, mine: readonly EditResult[], original: TextFile, path: string): void;
  /** Format-specific checks of one edit and its parse. */
  edit?(e: EditResult, parsed: Edit, k: number): void;
  /** Format-specific checks of one touched file (after the shared ones). */
  file?(path: string, mine: readonly EditResult[], original: TextFile, parsed: ParseResult): void;
}

/** The new lines of an applied edit: `new`, with `keep` entries taken from the file's own lines at the range. */
export function keptLines(edit: Edit, e: EditResult, original: TextFile): string[] {
  if (!edit.keep) return edit.new;
  const actual = original.lines.slice(e.range!.start - 1, e.range!.end);
  return edit.new.map((l, i) => (edit.keep![i] === null ? l : actual[edit.keep![i]!]));
}

/**
 * Check a result against the reply it came from: invariants that hold for
 * every reply in every format. Returns the parse of the reply.
 */
export function checkInvariants(format: Format, files: Files, reply: string, r: ApplyResult, opts: InvariantOptions = {}): ParseResult {
  const parsed = format.parse(reply, { files: Object.keys(files) });
  assert.equal(r.edits.length, parsed.edits.length);
  r.edits.forEach((e, k) => {
    const p = parsed.edits[k];
    assert.equal(e.index, k);
    assert.ok(e.status === 'applied' || e.status === 'failed', e.status);
    if (e.code !== null) assert.ok((CODES as readonly string[]).includes(e.code), e.code);
    if (e.status === 'failed') {
      assert.equal(e.range, null);
      assert.notEqual(e.code, null, `failed edit without a code: ${show(e)}`);
      assert.ok(e.message.length > 0);
    } else {
      assert.notEqual(e.range, null);
      assert.notEqual(e.match, null);
    }
    checkSpan(reply, e.reply, `edit ${k} span`);
    checkSpan(reply, p.span, `edit ${k} parsed span`);
    // Edits are in reply order and do not overlap in the reply.
    if (k > 0) assert.ok(parsed.edits[k - 1].span.to <= p.span.from, `edit ${k} starts before the previous one ends`);
    if (k > 0) assert.ok(r.edits[k - 1].reply.to <= e.reply.from, `edit ${k} span starts before the previous one ends`);
    for (const w of e.warnings) if (w.reply) checkSpan(reply, w.reply, `edit ${k} warning ${w.code}`);
    p.oldSpans?.forEach((s, j) => {
      checkSpan(reply, s, `edit ${k} old span ${j}`);
      if (opts.oldText !== false) assert.equal(reply.slice(s.from, s.to), p.old[j], `edit ${k} old span ${j} text`);
    });
    if (p.error?.reply) checkSpan(reply, p.error.reply, `edit ${k} error`);
    opts.edit?.(e, p, k);
  });
  for (const d of r.diagnostics) if (d.reply) checkSpan(reply, d.reply, `diagnostic ${d.code}`);
  assert.equal(r.ok, r.edits.every((e) => e.status === 'applied') && !r.diagnostics.some((d) => d.severity === 'error'));
  checkFiles(files, r, parsed, opts);
  return parsed;
}

/** Every file changes exactly by its applied edits, each at its reported range. */
function checkFiles(files: Files, r: ApplyResult, parsed: ParseResult, opts: InvariantOptions): void {
  const applied = r.edits.filter((e) => e.status === 'applied' && e.code !== 'duplicate');
  const movedTo = new Set(applied.map((e) => parsed.edits[e.index].moveTo).filter((p): p is string => p !== undefined));
  for (const path of new Set([...Object.keys(files), ...Object.keys(r.files)])) {
    const mine = applied.filter((e) => e.file === path);
    if (!Object.hasOwn(files, path) && !movedTo.has(path)) {
      const creates = opts.creates ?? ['append', 'write'];
      assert.ok(mine.length > 0 && mine.every((e) => creates.includes(e.kind)), `unexpected file ${show(path)}: ${show(mine.map((e) => e.kind))}`);
    }
    if (mine.length === 0 && !movedTo.has(path)) {
      assert.equal(r.files[path], files[path], `${path} changed without an applied edit`);
      continue;
    }
    // A file moved away or moved in is checked by the formats that move files.
    const moves = movedTo.has(path) || mine.some((e) => e.kind === 'rename' || parsed.edits[e.index].moveTo !== undefined);
    if (opts.recompute === false || moves) continue;
    const original = parseText(files[path] ?? '');
    if (mine.some((e) => e.kind === 'delete')) {
      assert.equal(r.files[path], null, `${path} deleted by an applied edit`);
      continue;
    }
    const edits = mine.map((e) => parsed.edits[e.index]);
    // Line endings (spec/formats.md): the file's first line starts with no copied byte order mark (a created
    // file keeps one), and in a file with mixed endings the lines an edit keeps keep theirs.
    const uniform = uniformEndings(original);
    const created = !Object.hasOwn(files, path);
    const splices: Splice[] = mine.flatMap((e, k) => {
      // An edit that changes nothing writes no splice (it may share lines with one that does: it overlaps none).
      if (e.warnings.some((w) => w.code === 'no-change')) return [];
      const from = e.range!.start - 1;
      const to = e.range!.end;
      const lines = (opts.newLines ?? keptLines)(edits[k], e, original).map((l, i) => {
        let line = l;
        if (i === 0 && from === 0 && line.startsWith(BOM)) line = (created ? BOM : '') + line.replace(/^\uFEFF+/, '');
        return line;
      });
      if (uniform || from === to) return [{ from, to, lines }];
      return editSplices(original, from, to, lines, opts.newLines ? undefined : edits[k].keep);
    });
    const spliced = applySplices(original, splices);
    // An edit that sets the final newline (a diff's `\ No newline at end of file`) sets the last line's ending,
    // when it reaches the end of the file (elsewhere its marker is ignored).
    const fn = edits.find((e, k) => e.finalNewline !== undefined && mine[k].range!.end === original.lines.length)?.finalNewline;
    const eols = spliced.eols;
    if (fn !== undefined && spliced.lines.length) {
      eols[eols.length - 1] = fn ? eols[eols.length - 1] || (eols.includes('\r\n') && !eols.includes('\n') ? '\r\n' : '\n') : '';
    }
    const want = formatText(spliced);
    const got = r.files[path];
    // An edit whose cited lines were indented otherwise than the file's writes its new lines re-indented
    // (spec/matching.md, Indentation): such a file equals the recomputed one line for line but for leading blanks.
    const reindented = mine.some((e) => e.status === 'applied' && /with the indentation changed|show the file's indentation/.test(e.message));
    const seen = (t: string | null | undefined) => (fn === true ? t?.replace(/\r?\n$/, '') : t);
    const unindent = (t: string | null | undefined) => t?.split('\n').map((l) => l.replace(/^[ \t]+/, ''));
    if (opts.compare) opts.compare(got, want, mine, original, path);
    else if (reindented) assert.deepEqual(unindent(seen(got)), unindent(seen(want)), `${path} is not its applied edits, leading blanks aside`);
    else assert.equal(seen(got), seen(want), `${path} is not its applied edits`);
    opts.file?.(path, mine, original, parsed);
  }
}

// ---------------------------------------------------------------------------
// Garbage replies.

export interface GarbageCheck {
  /** Files the replies are applied to. */
  files: fc.Arbitrary<Files>;
  /** Replies for those files. */
  reply: (files: Files) => fc.Arbitrary<string>;
  numRuns: number;
  seed?: number;
  /** Engine options for the request. */
  options?: EngineOptions;
  invariants?: InvariantOptions;
  /** Format-specific checks of one case. */
  check?(files: Files, reply: string, r: ApplyResult, parsed: ParseResult): void;
  /** The outcome an edit counts as, for `expected`. */
  key?(e: EditResult, parsed: ParseResult): string;
  /** Outcomes the run must reach (the generator reaches the interesting cases, not only "no edits"). */
  expected?: readonly string[];
}

/** The seed of the pass that checks `expected`: which outcomes a generator reaches is then the same on every run. */
export const COVERAGE_SEED = 20261122;

/**
 * Any reply is read without throwing, and keeps the invariants. A run with a
 * random seed looks for new failures; the expected outcomes are checked on a
 * pass with a fixed seed (`g.seed`, else COVERAGE_SEED), so that a generator
 * that reaches an outcome only now and then cannot make the test flaky.
 */
export function checkGarbage(format: Format, g: GarbageCheck): void {
  const apply = applier(format.name, g.options);
  const pass = (seed: number | undefined): Map<string, number> => {
    const seen = new Map<string, number>();
    fc.assert(
      fc.property(g.files.chain((files) => fc.tuple(fc.constant(files), g.reply(files))), ([files, reply]) => {
        const r = apply(files, reply);
        const parsed = checkInvariants(format, files, reply, r, g.invariants);
        g.check?.(files, reply, r, parsed);
        if (g.key) {
          for (const e of r.edits) {
            const key = g.key(e, parsed);
            seen.set(key, (seen.get(key) ?? 0) + 1);
          }
        }
      }),
      seed === undefined ? { numRuns: g.numRuns } : { numRuns: g.numRuns, seed },
    );
    return seen;
  };
  const first = pass(g.seed);
  if (process.env.PROPERTY_STATS) console.log(format.name, first);
  if (!g.expected?.length) return;
  const seen = g.seed === undefined ? pass(COVERAGE_SEED) : first;
  for (const key of g.expected) assert.ok(seen.has(key), `no ${key} edit in the run with seed ${g.seed ?? COVERAGE_SEED}: ${show([...seen])}`);
}

/** The usual outcome of an edit: `applied <match>` or `failed <code>`. */
export const byMatch = (e: EditResult): string => (e.status === 'applied' ? `applied ${e.match}` : `failed ${e.code}`);
/** `applied <kind>` or `failed <code>`. */
export const byKind = (e: EditResult): string => (e.status === 'applied' ? `applied ${e.kind}` : `failed ${e.code}`);

// ---------------------------------------------------------------------------
// Truncation.

/**
 * Run `body` on every prefix of `reply` from the empty one up to
 * `reply.length - shorter` characters; `where` names the cut in messages.
 */
export function forEachCut(reply: string, shorter: number, tail: number, body: (prefix: string, cut: number, where: string) => void): void {
  for (let cut = 0; cut <= reply.length - shorter; cut++) {
    const prefix = reply.slice(0, cut);
    body(prefix, cut, `cut at ${cut}: ${show(prefix.slice(-tail))}`);
  }
}

/** Offsets just past each line of `reply` that passes `test`. */
export function lineEnds(reply: string, test: (row: string) => boolean): number[] {
  const out: number[] = [];
  let pos = 0;
  for (const row of reply.split('\n')) {
    if (test(row)) out.push(pos + row.length);
    pos += row.length + 1;
  }
  return out;
}

/**
 * A cut reply that began `started` edits and completed `complete` of them:
 * it reads exactly `started` edits, the complete ones applied where the whole
 * reply applies them, the one cut short (if any) failed with one of
 * `cutCodes`, and each file holds its original with exactly the complete
 * edits applied.
 */
export function checkCompletePrefix(
  files: Files,
  full: ApplyResult,
  fullParse: ParseResult,
  r: ApplyResult,
  started: number,
  complete: number,
  where: string,
  cutCodes: readonly string[] = ['truncated'],
): void {
  assert.equal(r.edits.length, started, where);
  for (let k = 0; k < complete; k++) {
    assert.equal(r.edits[k].status, 'applied', where);
    assert.deepEqual(r.edits[k].range, full.edits[k].range, where);
    assert.equal(r.edits[k].file, full.edits[k].file, where);
  }
  if (started > complete) {
    assert.equal(r.edits[complete].status, 'failed', where);
    assert.ok(cutCodes.includes(r.edits[complete].code ?? ''), `${where}: ${r.edits[complete].code}`);
  }
  for (const path of Object.keys(files)) {
    const mine = full.edits.slice(0, complete).filter((e) => e.file === path);
    const splices = mine.map((e) => ({ from: e.range!.start - 1, to: e.range!.end, lines: fullParse.edits[e.index].new }));
    assert.equal(r.files[path], formatText(applySplices(parseText(files[path]), splices)), `${where}: ${path}`);
  }
}

/**
 * A cut reply reads no more edits than the whole one, and applies only edits
 * the whole reply applies, as it does: same file, kind and range, the same
 * new lines and final-newline setting in the parse. With `onlyLastFails`, a
 * failed edit is the last one and failed as truncated.
 */
export function checkAppliedAsFull(
  format: Format,
  paths: string[],
  full: ApplyResult,
  fullParse: ParseResult,
  prefix: string,
  r: ApplyResult,
  where: string,
  onlyLastFails = true,
): void {
  const parsed = format.parse(prefix, { files: paths });
  assert.ok(r.edits.length <= full.edits.length, `${where}: ${r.edits.length} edits`);
  r.edits.forEach((e, k) => {
    if (e.status === 'applied') {
      const want = full.edits[k];
      assert.deepEqual([e.file, e.kind, e.range], [want.file, want.kind, want.range], where);
      assert.deepEqual(parsed.edits[k].new, fullParse.edits[k].new, `${where}: part of an edit applied`);
      assert.equal(parsed.edits[k].finalNewline, fullParse.edits[k].finalNewline, where);
    } else if (onlyLastFails) {
      assert.equal(e.code, 'truncated', `${where}: ${e.message}`);
      assert.equal(k, r.edits.length - 1, where);
    }
  });
}

/**
 * Whether a reply written by a format of whole-file blocks (`whole`,
 * `between`) has a block that another format reads as an edit of its own (an
 * empty editblock, a SEARCH/REPLACE block): such a block is refused with
 * `mixed-formats` by design (spec/formats.md, "Detection and mixed
 * replies"), since the format cannot tell it from a reply in that format. A
 * refused block must leave its file as it was; round trips hold for every
 * other text.
 */
export function refusedAsOtherFormat(apply: ReturnType<typeof applier>, files: Record<string, string>, reply: string): boolean {
  const r = apply(files, reply);
  const refused = r.edits.filter((e) => e.code === 'mixed-formats');
  for (const e of refused) assert.equal(r.files[e.file], files[e.file], `a refused block changed ${e.file}`);
  return refused.length > 0;
}
