// Stage "splice": the new text of every file the edits change, from the
// verdicts. The edits of a file are applied together, against its original
// lines; a file deleted is null; a file moved leaves its old name null.
// Line endings, the byte order mark and the final line break are kept as
// the file has them (src/core/text.ts).

import { diagnostic } from './diagnostics.ts';
import { editSplices } from './hunks.ts';
import { strayMarker } from './messages.ts';
import type { Originals } from './originals.ts';
import { written } from './place.ts';
import { applySplices, formatText, lacksFinalNewline, setFinalNewline, spliceText, uniformEndings, type Splice, type TextFile } from './text.ts';
import { live, type Verdict } from './verdict.ts';

/** Set `key` on a result map as an own property, whatever the key (`__proto__` too). */
function setOwn<T>(map: Record<string, T>, key: string, value: T): void {
  Object.defineProperty(map, key, { value, writable: true, enumerable: true, configurable: true });
}

/**
 * The splices of one placed edit. In a file whose lines all end alike, one
 * splice (every rule gives the new lines that ending); otherwise the edit is
 * cut around the lines it keeps, which keep their own endings (`editSplices`).
 */
function placedSplices(v: Verdict, file: TextFile, uniform: boolean, created: boolean): Splice[] {
  const from = v.from!;
  const to = v.to!;
  const lines = written(v.lines ?? v.edit.new, from === 0, created);
  if (uniform || from === to) return [{ from, to, lines }];
  return editSplices(file, from, to, lines, v.keeps !== false ? v.edit.keep : undefined);
}

/**
 * Every file after the edits: the given files, with each file an edit
 * changes replaced by its new text (null when deleted or moved away), and
 * the verdicts with the warnings splicing finds (a stray "\ No newline at
 * end of file" marker).
 */
export function splice(verdicts: readonly Verdict[], files: Originals): { files: Record<string, string | null>; verdicts: Verdict[] } {
  const out: Record<string, string | null> = {};
  for (const [path, text] of Object.entries(files.texts)) setOwn(out, path, text);
  const notes = verdicts.map(() => [] as ReturnType<typeof diagnostic>[]);
  const touched = new Map<string, number[]>();
  verdicts.forEach((v, i) => {
    if (!live(v)) return;
    const list = touched.get(v.edit.file) ?? [];
    list.push(i);
    touched.set(v.edit.file, list);
  });
  for (const [path, list] of touched) {
    if (list.some((i) => verdicts[i].edit.kind === 'delete')) {
      setOwn(out, path, null);
      continue;
    }
    const created = !files.has(path);
    const base = files.text(path) ?? { bom: false, lines: [], eols: [] };
    // (A text without a CR has only LF endings: no need to look at them one by one.)
    const uniform = (!created && files.texts[path].indexOf('\r') === -1) || uniformEndings(base);
    const splices: Splice[] = list.flatMap((i) => (verdicts[i].outcome === 'inert' ? [] : placedSplices(verdicts[i], base, uniform, created)));
    const finalNewline = endOfFile(list.map((i) => verdicts[i]), base, (k, message) => notes[list[k]].push(diagnostic('stray-marker', 'warning', message, verdicts[list[k]].edit.span)));
    // The common case written from the original string's slices; the general one through the line model.
    let text = finalNewline === undefined && !created ? spliceText(files.texts[path], base, splices) : null;
    if (text === null) {
      const spliced = applySplices(base, splices);
      if (finalNewline !== undefined) setFinalNewline(spliced, finalNewline);
      text = formatText(spliced);
    }
    const moveTo = list.map((i) => verdicts[i]).find((v) => v.edit.moveTo)?.edit.moveTo;
    if (moveTo && moveTo !== path) {
      setOwn(out, path, null);
      setOwn(out, moveTo, text);
    } else {
      setOwn(out, path, text);
    }
  }
  const withNotes = verdicts.map((v, i) => (notes[i].length === 0 ? v : { ...v, result: { ...v.result, warnings: [...v.result.warnings, ...notes[i]] } }));
  return { files: out, verdicts: withNotes };
}

/**
 * The final-newline state the edits of one file set (`Edit.finalNewline`, a
 * unified diff's `\ No newline at end of file`), or undefined. Only an edit
 * that reaches the end of the file may set it; another one's is ignored,
 * with a `stray-marker` warning (`warn`, by the edit's place in `list`): no
 * line break inside the file is lost. A marker after a context line
 * (`Edit.claimsNoFinalNewline`) sets nothing: at the end of a file that ends
 * with a line break it is wrong, and is warned of as stray too.
 */
function endOfFile(list: readonly Verdict[], base: TextFile, warn: (k: number, message: string) => void): boolean | undefined {
  const n = base.lines.length;
  let state: boolean | undefined;
  list.forEach((v, k) => {
    const set = v.edit.finalNewline;
    if (set === undefined && v.edit.claimsNoFinalNewline !== true) return;
    if (v.to === n) {
      if (set !== undefined) state ??= set;
      else if (n > 0 && !lacksFinalNewline(base)) warn(k, strayMarker.afterContext(v.edit.file));
      return;
    }
    warn(k, strayMarker.notAtEnd(v.edit.file, v.from!, v.to!, n));
  });
  return state;
}
