// Stage "verdict": what becomes of each placed edit beside the others. An
// edit whose new lines already stand where it goes was applied already; a
// repeat of an edit (same place, same new lines) applies once; an edit that
// changes nothing is inert (it overlaps none); two edits that claim the same
// lines both fail. Every verdict is reached on the original places, before
// any edit fails (failing forgets the place).

import { alreadyAppliedMessage, alreadyStands } from './applied.ts';
import { decided, noChange } from './messages.ts';
import type { Originals } from './originals.ts';
import { firstClashes } from './overlaps.ts';
import { failed, written, type Placement } from './place.ts';
import type { Edit, LineRange } from './types.ts';
import { lacksFinalNewline, type TextFile } from './text.ts';

/**
 * What becomes of an edit: `applied` (it writes its lines), `inert` (applied,
 * but it changes nothing: it writes no splice and overlaps no edit),
 * `duplicate` (applied once, by the edit it repeats), `failed`.
 */
export type Outcome = 'applied' | 'inert' | 'duplicate' | 'failed';

export interface Verdict extends Placement {
  outcome: Outcome;
  /** For an inert edit: why it changes nothing (its `no-change` warning). */
  unchanged?: string;
}

/** An edit that takes effect: it is applied, and is not a repeat of another. */
export const live = (v: Verdict): boolean => v.outcome === 'applied' || v.outcome === 'inert';

/**
 * An edit that writes lines at a place of its file, moving none: the edits
 * that can be already applied (src/core/applied.ts). A whole-file write is
 * not one (written with the text the file has, it is `no-change`), nor a
 * deletion or a rename.
 */
const appliesLines = (edit: Edit) => (edit.kind === 'replace' || edit.kind === 'insert' || edit.kind === 'append') && (edit.moveTo === undefined || edit.moveTo === edit.file);

const whole = (p: Placement) => p.edit.kind === 'write' || p.edit.kind === 'delete';

/** The verdict on every placed edit (in the order given: reply order). */
export function verdicts(placed: readonly Placement[], files: Originals): Verdict[] {
  // Edits whose new lines already stand where they go fail, before they can clash with another.
  const out: Verdict[] = placed.map((p) => {
    if (p.result.status !== 'applied') return { ...p, outcome: 'failed' };
    const file = appliesLines(p.edit) ? files.text(p.edit.file) : undefined;
    if (file) {
      const append = p.edit.kind === 'append';
      const at = alreadyStands({ file: file.lines, from: p.from!, to: p.to!, lines: written(p.lines ?? p.edit.new, p.from === 0, false), append });
      if (at) return { ...failed(p, { code: 'already-applied', message: alreadyAppliedMessage(p.edit.file, at, append) }), outcome: 'failed' };
    }
    return { ...p, outcome: 'applied' };
  });

  // Duplicates apply once; overlapping edits both fail.
  const byFile = new Map<string, number[]>();
  out.forEach((v, i) => {
    if (v.outcome !== 'applied') return;
    const list = byFile.get(v.edit.file) ?? [];
    list.push(i);
    byFile.set(v.edit.file, list);
  });
  for (const list of byFile.values()) {
    const active: number[] = [];
    // The first edit of each place and new lines (a map, not a scan: thousands of edits may share a place).
    const byChange = new Map<string, number>();
    for (const i of list) {
      const v = out[i];
      const change = changeKey(v.from!, v.to!, v.edit.kind, v.edit.moveTo ?? '', v.lines ?? v.edit.new);
      const twin = byChange.get(change);
      if (twin !== undefined && v.edit.kind !== 'append' && v.edit.kind !== 'insert') {
        const t = out[twin].edit;
        out[i] = { ...v, outcome: 'duplicate', result: { ...v.result, code: 'duplicate', duplicateOf: t.index, message: decided.duplicate(t.span.start.line) } };
        continue;
      }
      active.push(i);
      if (twin === undefined) byChange.set(change, i);
    }
    // An edit that changes nothing (a context-only hunk) overlaps none: it never blocks one that changes lines.
    for (const i of active) {
      const why = unchanged(out[i], files.text(out[i].edit.file));
      if (why !== null) out[i] = { ...out[i], outcome: 'inert', unchanged: why };
    }
    // Each clashing edit names the first edit in reply order that it clashes with.
    const partners = firstClashes(active.map((i) => ({ from: out[i].from!, to: out[i].to!, whole: whole(out[i]), moveTo: out[i].edit.moveTo, inert: out[i].outcome === 'inert' })));
    // Every message is written from the places before any edit fails (failing forgets the place).
    const clashes = active.flatMap((x, k) => (partners[k] < 0 ? [] : [{ x, y: active[partners[k]] }]));
    const messages = clashes.map(({ x, y }) => decided.overlap(out[y].edit.span.start.line, shared(out[x], out[y]), out[x].edit.file));
    const clashing = new Set<number>();
    clashes.forEach(({ x }, k) => {
      out[x] = { ...failed(out[x], { code: 'overlap', message: messages[k] }), outcome: 'failed' };
      clashing.add(x);
    });
    // A repeat of an edit that overlaps another overlaps it too.
    const byIndex = new Map(active.map((i) => [out[i].edit.index, i]));
    for (const i of list) {
      const v = out[i];
      const twin = v.outcome === 'duplicate' && v.result.duplicateOf !== null ? byIndex.get(v.result.duplicateOf) : undefined;
      if (twin !== undefined && clashing.has(twin))
        out[i] = { ...failed(v, { code: 'overlap', message: decided.repeatsOverlap(out[twin].result.message) }), outcome: 'failed' };
    }
  }
  return out;
}

function sameLines(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((line, i) => line === b[i]);
}

/**
 * Why an applied edit changes nothing (the message of its `no-change`
 * warning), or null when it changes its file: its lines replace lines that
 * are the same (a SEARCH equal to its REPLACE, a line replaced by itself, a
 * file written with the text it has), it inserts or appends no line to a
 * file that exists, and it neither moves the file nor sets its final newline
 * to another state. Deletions and creations always change something.
 */
function unchanged(p: Placement, file: TextFile | undefined): string | null {
  const { edit } = p;
  if (!file || edit.kind === 'delete' || edit.kind === 'rename') return null;
  if (edit.moveTo !== undefined && edit.moveTo !== edit.file) return null;
  if (edit.finalNewline !== undefined && edit.finalNewline === lacksFinalNewline(file) && file.lines.length > 0) return null;
  const from = p.from!;
  const to = p.to!;
  const replacement = p.lines ?? edit.new;
  if (!sameLines(replacement, file.lines.slice(from, to))) return null;
  if (edit.kind === 'write') return noChange.write(edit.file);
  if (to === from) return noChange.adds(edit.file);
  return noChange.same(edit.file, from, to);
}

/**
 * The original lines two clashing edits (src/core/overlaps.ts, `clashes`)
 * both claim, for the message: the whole file when one rewrites or deletes
 * it; none (an empty range at line 1) when they move the file to different
 * paths; the insertion point inside the other's range; the shared lines.
 */
function shared(a: Placement, b: Placement): LineRange {
  if (whole(a) || whole(b)) return { start: 1, end: Math.max(a.to!, b.to!) };
  if (a.edit.moveTo && b.edit.moveTo && a.edit.moveTo !== b.edit.moveTo) return { start: 1, end: 0 };
  const [af, at, bf, bt] = [a.from!, a.to!, b.from!, b.to!];
  if (af === at) return { start: af + 1, end: af };
  if (bf === bt) return { start: bf + 1, end: bf };
  return { start: Math.max(af, bf) + 1, end: Math.min(at, bt) };
}

/**
 * A key equal for two changes exactly when they replace the same lines
 * `[from, to)` the same way (kind, target of a move, new lines): the lines'
 * lengths, then their text run together (the lengths tell where each line
 * ends, whatever it holds), so that no character needs escaping.
 */
export function changeKey(from: number, to: number, kind: string, moveTo: string, lines: readonly string[]): string {
  return `${from} ${to} ${kind} ${moveTo.length} ${lines.map((l) => l.length).join(',')}|${moveTo}${lines.join('')}`;
}
