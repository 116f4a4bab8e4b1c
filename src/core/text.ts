// The text model: a file as lines plus everything needed to write it back
// byte for byte (each line's own ending, the BOM, the final-newline state).

export const BOM = '\uFEFF';

export type Eol = '\n' | '\r\n' | '';

/**
 * `line` without the U+FEFF characters it starts with: a model that copies a
 * file shown with a byte order mark may put one (or several) at the start of
 * the file's first line, where the mark is never content.
 */
export function withoutBom(line: string): string {
  let k = 0;
  while (line.charCodeAt(k) === 0xfeff) k++;
  return k === 0 ? line : line.slice(k);
}

export interface TextFile {
  /** The file started with U+FEFF (kept out of `lines`). */
  bom: boolean;
  /** Line contents without their endings. An empty file has no lines. */
  lines: string[];
  /** Each line's ending; only the last may be '' (no final newline). */
  eols: Eol[];
}

/**
 * Split a text into lines. Line endings are `\n` and `\r\n`; a lone `\r` is
 * content. `""` has no lines; `"a"` has one line without an ending; `"a\n"`
 * has one line with one.
 */
export function parseText(text: string): TextFile {
  let bom = false;
  if (text.startsWith(BOM)) {
    bom = true;
    text = text.slice(1);
  }
  if (text === '') return { bom, lines: [], eols: [] };
  // The native split does the work; a piece ending in CR (but the last, which no LF follows) ended in CR LF.
  const lines = text.split('\n');
  const final = lines[lines.length - 1] === '';
  if (final) lines.pop();
  // A copy of the (packed) array filled natively stays packed, unlike new Array(n).fill(), and costs no call per line.
  const eols = lines.slice().fill('\n') as Eol[];
  if (!final) eols[lines.length - 1] = '';
  if (text.indexOf('\r') !== -1) {
    const last = final ? lines.length : lines.length - 1;
    for (let i = 0; i < last; i++) {
      const line = lines[i];
      if (line.charCodeAt(line.length - 1) === 13) {
        lines[i] = line.slice(0, -1);
        eols[i] = '\r\n';
      }
    }
  }
  return { bom, lines, eols };
}

export function formatText(file: TextFile): string {
  const { lines, eols } = file;
  const n = lines.length;
  const head = file.bom ? BOM : '';
  if (n === 0) return head;
  // One ending between every two lines (the usual case): a native join.
  const sep = eols[0] === '' ? '\n' : eols[0];
  let uniform = true;
  for (let i = 0; i < n - 1 && uniform; i++) uniform = eols[i] === sep;
  if (uniform) {
    // The final ending joined in too (an empty last piece), so that the result is one flat string, not a concatenation.
    if (eols[n - 1] !== sep) return head + lines.join(sep) + eols[n - 1];
    (lines as string[]).push('');
    try {
      return head + lines.join(sep);
    } finally {
      (lines as string[]).pop();
    }
  }
  let out = head;
  for (let i = 0; i < n; i++) out += lines[i] + eols[i];
  return out;
}

/** The file has lines and its last line has no ending. */
export function lacksFinalNewline(file: TextFile): boolean {
  return file.lines.length > 0 && file.eols[file.eols.length - 1] === '';
}

/**
 * The ending new lines get: the most common one in the file, CRLF only when
 * it is strictly more common than LF; LF for a file with no endings.
 */
export function dominantEol(file: TextFile): '\n' | '\r\n' {
  let lf = 0;
  let crlf = 0;
  for (const eol of file.eols) {
    if (eol === '\n') lf++;
    else if (eol === '\r\n') crlf++;
  }
  return crlf > lf ? '\r\n' : '\n';
}

/** A new file holding `lines`, LF endings, with a final newline. */
export function newFile(lines: string[]): TextFile {
  return { bom: false, lines: [...lines], eols: lines.map(() => '\n' as Eol) };
}

/** One replacement of original lines: `[from, to)` (0-based) becomes `lines`. */
export interface Splice {
  from: number;
  to: number;
  lines: string[];
  /**
   * The ending the new lines take; unset, the default of `applySplices`
   * (the last replaced line's, else the file's dominant one).
   */
  eol?: '\n' | '\r\n';
}

/**
 * Whether every line of the file but the last ends alike (the last too, when
 * it has an ending): the usual file, whose new lines all take that ending
 * whichever rule picks it, so an edit may be applied as one splice.
 */
export function uniformEndings(file: TextFile): boolean {
  const { eols } = file;
  const n = eols.length;
  if (n < 2) return true;
  const first = eols[0];
  for (let i = 1; i < n - 1; i++) if (eols[i] !== first) return false;
  return eols[n - 1] === '' || eols[n - 1] === first;
}

/**
 * Apply non-overlapping splices, all expressed against `file`'s original line
 * indexes (order does not matter; splices at the same insertion point keep
 * their given order). Lines outside the splices keep their bytes. New lines
 * take the splice's `eol` when it has one, else the ending of the last line
 * they replace, else (nothing replaced, or the whole file replaced) the
 * file's dominant ending. A file without a final newline keeps that state: when a splice
 * reaches the end of the file, the new last line has no ending and the line
 * that used to be last gains one.
 */
export function applySplices(file: TextFile, splices: readonly Splice[]): TextFile {
  const sorted = splices
    .map((s, i) => ({ s, i }))
    .sort((a, b) => a.s.from - b.s.from || a.s.to - b.s.to || a.i - b.i)
    .map((x) => x.s);
  const fallback = dominantEol(file);
  const noFinal = lacksFinalNewline(file);
  // The result as a list of pieces (runs of the file's own lines, and new lines), joined once.
  const lineParts: string[][] = [];
  const eolParts: Eol[][] = [];
  let pos = 0;
  for (const s of sorted) {
    if (pos < s.from) {
      lineParts.push(file.lines.slice(pos, s.from));
      eolParts.push(file.eols.slice(pos, s.from));
      pos = s.from;
    }
    // A splice over the whole file takes the file's dominant ending, not its last line's.
    const whole = s.from === 0 && s.to === file.lines.length;
    const last = s.to > s.from && !whole ? file.eols[s.to - 1] : '';
    const eol: Eol = s.eol ?? (last === '' ? fallback : last);
    lineParts.push(s.lines);
    eolParts.push(s.lines.map(() => eol));
    pos = Math.max(pos, s.to);
  }
  if (pos < file.lines.length) {
    lineParts.push(file.lines.slice(pos));
    eolParts.push(file.eols.slice(pos));
  }
  const lines = ([] as string[]).concat(...lineParts);
  const eols = ([] as Eol[]).concat(...eolParts);
  // Only the file's old last line can lack an ending; inside the file it takes the dominant one.
  if (noFinal) for (let i = 0; i < eols.length - 1; i++) if (eols[i] === '') eols[i] = fallback;
  if (eols.length > 0) eols[eols.length - 1] = noFinal ? '' : eols[eols.length - 1] || fallback;
  return { bom: file.bom, lines, eols };
}

/** Give the last line an ending (the dominant one) or take it away. */
export function setFinalNewline(file: TextFile, on: boolean): void {
  const last = file.eols.length - 1;
  if (last < 0) return;
  if (!on) file.eols[last] = '';
  else if (file.eols[last] === '') file.eols[last] = dominantEol(file);
}

/**
 * `formatText(applySplices(file, splices))` written straight from `text`, the
 * string `file` was parsed from: the runs of lines no splice touches are
 * copied as slices of `text` (no per-line work), the new lines are written
 * with the ending `applySplices` gives them. Only for a file that ends with a
 * newline (the other case moves endings around: use `applySplices`); returns
 * null for any other file.
 */
export function spliceText(text: string, file: TextFile, splices: readonly Splice[]): string | null {
  const { lines, eols } = file;
  const n = lines.length;
  if (n === 0 || eols[n - 1] === '') return null;
  // Array.prototype.sort is stable: splices at the same place keep their given order, as in applySplices.
  const sorted = splices.length < 2 ? splices : [...splices].sort((a, b) => a.from - b.from || a.to - b.to);
  const head = file.bom ? 1 : 0;
  let fallback: Eol | null = null;
  const out: string[] = file.bom ? [BOM] : [];
  let line = 0; // the line whose start `offset` is
  let offset = head;
  let pos = 0; // the first original line not yet written
  let posOffset = head;
  const seek = (to: number) => {
    while (line < to) {
      offset += lines[line].length + eols[line].length;
      line++;
    }
    return offset;
  };
  for (const s of sorted) {
    if (pos < s.from) {
      out.push(text.slice(posOffset, seek(s.from)));
      pos = s.from;
      posOffset = offset;
    }
    const whole = s.from === 0 && s.to === n;
    const eol = s.eol ?? (s.to > s.from && !whole ? eols[s.to - 1] : (fallback ??= dominantEol(file)));
    for (const l of s.lines) out.push(l, eol);
    if (s.to > pos) {
      pos = s.to;
      posOffset = seek(pos);
    }
  }
  if (pos < n) out.push(text.slice(posOffset));
  return out.join('');
}

/** Lines as an editor counts them: a last line without a line break counts, a final line break adds none ("a\nb" and "a\nb\n": 2; "": 0). */
export function lineCount(text: string): number {
  if (text === '') return 0;
  let n = 1;
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) n++;
  return text.endsWith('\n') ? n - 1 : n;
}
