// Text that looks other than it is: a new path that looks like another file's
// (`confusable-path`), and BiDi control characters that make new text display
// in another order than it is read ("Trojan Source", `bidi-control`). Both
// are warnings: the edit applies, and the finding says what to check.
//
// Look-alike paths are found by *skeleton*, as Unicode's confusable detection
// (UTS #39) does it, with a compact table instead of the whole of
// confusables.txt: the whole table maps ASCII to ASCII too (`rn` to `m`,
// `l` to `I`), which would flag ordinary names, and would weigh more than
// the rest of the engine. The table here covers what models and hostile
// replies actually write: Cyrillic and Greek letters shaped like Latin ones,
// fullwidth forms (through NFKC), invisible characters (zero-width, BiDi),
// and XML/HTML entities left escaped.

import { codePoint, diagnostic, quote } from './diagnostics.ts';
import type { Diagnostic, Edit, EditResult } from './types.ts';

/** Cyrillic and Greek letters drawn like a Latin letter (lower and upper case), and a few signs. */
const LATIN_LOOKALIKES: Readonly<Record<string, string>> = {
  // Cyrillic
  а: 'a', е: 'e', о: 'o', р: 'p', с: 'c', у: 'y', х: 'x', і: 'i', ј: 'j', ѕ: 's', ԁ: 'd', ԛ: 'q', ԝ: 'w', һ: 'h', ӏ: 'l',
  А: 'A', В: 'B', Е: 'E', К: 'K', М: 'M', Н: 'H', О: 'O', Р: 'P', С: 'C', Т: 'T', Х: 'X', І: 'I', Ј: 'J', Ѕ: 'S', Ү: 'Y', Ԛ: 'Q', Ԝ: 'W',
  // Greek
  ο: 'o', α: 'a', ε: 'e', ι: 'i', κ: 'k', ν: 'v', ρ: 'p', τ: 't', υ: 'u', χ: 'x', ϳ: 'j',
  Α: 'A', Β: 'B', Ε: 'E', Ζ: 'Z', Η: 'H', Ι: 'I', Κ: 'K', Μ: 'M', Ν: 'N', Ο: 'O', Ρ: 'P', Τ: 'T', Υ: 'Y', Χ: 'X',
  // Signs drawn like ASCII ones in a path
  '\u2010': '-', '\u2011': '-', '\u2012': '-', '\u2013': '-', '\u2212': '-', '\u2024': '.', '\u2215': '/', '\u2044': '/', '\u29f8': '/',
};

/**
 * Characters that draw nothing: zero-width spaces and joiners, the BOM, the
 * soft hyphen, and the BiDi controls and marks. A path holding one looks
 * like the path without it.
 */
const INVISIBLE = /[\u00ad\u061c\u115f\u1160\u180e\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u206f\ufeff]/gu;

/** The XML/HTML entities a path may be left written with (`R&amp;D.txt`), and numeric ones. */
const ENTITY = /&(?:amp|lt|gt|quot|apos|#[0-9]{1,7}|#x[0-9a-f]{1,6});/giu;
const NAMED: Readonly<Record<string, string>> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

function unescapeEntity(entity: string): string {
  const name = entity.slice(1, -1).toLowerCase();
  if (name in NAMED) return NAMED[name];
  const code = name.startsWith('#x') ? parseInt(name.slice(2), 16) : parseInt(name.slice(1), 10);
  return code > 0 && code <= 0x10ffff && (code < 0xd800 || code > 0xdfff) ? String.fromCodePoint(code) : entity;
}

/**
 * What a path looks like: entities unescaped, NFKC (fullwidth `ａ` is `a`,
 * `ﬁ` is `fi`), invisible characters removed, Cyrillic and Greek look-alikes
 * written as the Latin letter. Two paths with one skeleton are hard to tell
 * apart on a screen. Letter case is kept (a path differing only in case
 * names the same file already, see paths.ts).
 */
export function skeleton(path: string): string {
  if (!/[^\u0020-\u007e]|&/u.test(path)) return path;
  let s = path.includes('&') ? path.replace(ENTITY, unescapeEntity) : path;
  s = s.normalize('NFKC').replace(INVISIBLE, '');
  let out = '';
  for (const ch of s) out += LATIN_LOOKALIKES[ch] ?? ch;
  return out;
}

/** The characters of `path` that `skeleton` changes or drops, each once, as `U+0430 "а"` (at most 5). */
function differing(path: string): string[] {
  const seen = new Set<string>();
  for (const m of path.matchAll(ENTITY)) seen.add(m[0]);
  for (const ch of path.replace(ENTITY, '')) if (skeleton(ch) !== ch) seen.add(ch);
  return [...seen].slice(0, 5).map((c) =>
    c.startsWith('&') && c.length > 1 ? `the entity ${c}` : c.replace(INVISIBLE, '') === '' ? `${codePoint(c)} (invisible)` : `${codePoint(c)} ${JSON.stringify(c)}`,
  );
}

/** Paths by skeleton (see `lookalikeIndex`). */
export type LookalikeIndex = ReadonlyMap<string, readonly string[]>;

/** Index `paths` (the given files and the files a reply writes) by skeleton, for `lookalikeOf`. */
export function lookalikeIndex(paths: Iterable<string>): LookalikeIndex {
  const index = new Map<string, string[]>();
  const seen = new Set<string>();
  for (const p of paths) {
    if (seen.has(p)) continue;
    seen.add(p);
    const key = skeleton(p);
    const list = index.get(key);
    if (!list) index.set(key, [p]);
    else list.push(p);
  }
  return index;
}

/** The first path of the index that `path` looks like (the same skeleton) but is not, or null. */
export function lookalikeOf(path: string, index: LookalikeIndex): string | null {
  return index.get(skeleton(path))?.find((other) => other !== path) ?? null;
}

/** The message of a `confusable-path` warning: `path` is new and looks like `other`. */
export function confusableMessage(path: string, other: string): string {
  const odd = differing(path);
  const oddOther = differing(other);
  const which = odd.length
    ? `it holds ${odd.join(', ')}`
    : `${quote(other)} holds ${oddOther.join(', ')}`;
  return `created ${quote(path)}, which looks like ${quote(other)} but is another file (${which}); check the path: to edit ${quote(other)}, write its path exactly`;
}

// ---------------------------------------------------------------- BiDi controls

/**
 * The BiDi controls that open or close a directional run (embeddings
 * U+202A, U+202B, overrides U+202D, U+202E, their end U+202C, isolates
 * U+2066-U+2068 and their end U+2069): the characters of the Trojan Source
 * attacks (CVE-2021-42574), which reorder what follows them on the line.
 * The marks U+200E, U+200F and U+061C are not among them: they open no run,
 * move at most the neutral characters next to them, and right-to-left text
 * needs them (the same set as rustc's `text_direction_codepoint_in_literal`).
 */
export const BIDI_CONTROL = /[\u202a-\u202e\u2066-\u2069]/u;
const BIDI_CONTROLS = /[\u202a-\u202e\u2066-\u2069]/gu;

const BIDI_NAMES: Readonly<Record<string, string>> = {
  '\u202a': 'LEFT-TO-RIGHT EMBEDDING',
  '\u202b': 'RIGHT-TO-LEFT EMBEDDING',
  '\u202c': 'POP DIRECTIONAL FORMATTING',
  '\u202d': 'LEFT-TO-RIGHT OVERRIDE',
  '\u202e': 'RIGHT-TO-LEFT OVERRIDE',
  '\u2066': 'LEFT-TO-RIGHT ISOLATE',
  '\u2067': 'RIGHT-TO-LEFT ISOLATE',
  '\u2068': 'FIRST STRONG ISOLATE',
  '\u2069': 'POP DIRECTIONAL ISOLATE',
};

/** A line of new text holding BiDi controls: its number in the file written, and the controls, each once. */
export interface BidiLine {
  line: number;
  controls: string[];
}

/**
 * The lines of `lines` (new text, the first at line `first` of the file
 * written) holding a BiDi control, leaving out lines equal to one in `kept`
 * (the lines the edit replaces: a control the file already had is not new).
 */
export function bidiLines(lines: readonly string[], first: number, kept: ReadonlySet<string> = new Set()): BidiLine[] {
  const found: BidiLine[] = [];
  lines.forEach((text, i) => {
    if (!BIDI_CONTROL.test(text) || kept.has(text)) return;
    found.push({ line: first + i, controls: [...new Set(text.match(BIDI_CONTROLS))] });
  });
  return found;
}

/** The message of a `bidi-control` warning for `file`, naming the first line found and counting the others. */
export function bidiMessage(file: string, found: readonly BidiLine[]): string {
  const [head] = found;
  const names = head.controls.map((c) => `${codePoint(c)} ${BIDI_NAMES[c]}`).join(', ');
  const more = found.length > 1 ? ` (and ${found.length - 1} more line${found.length === 2 ? '' : 's'})` : '';
  return `line ${head.line} of ${file} holds ${names}${more}: a BiDi control makes the line display in another order than it is read (Trojan Source); remove it unless the text needs it, and then write it as an escape (\\u${head.controls[0].codePointAt(0)!.toString(16).toUpperCase()}) in a string literal`;
}

// ---------------------------------------------------------------- warnings on edits

/**
 * The files an edit creates or moves a file to, in reply order, for
 * `confusable-path`: each path is checked once, on the first edit that
 * writes it, against the given files and the paths written before it. Of
 * two created look-alikes the later one is warned, so an edit's warning is
 * known once the edits before it are (spec/ln-diff.md, Paths, Streaming).
 */
export class CreatedPaths {
  private index = new Map<string, string[]>();
  private written = new Set<string>();
  constructor(given: Iterable<string>) {
    for (const p of given) this.add(p);
  }
  private add(path: string): void {
    const key = skeleton(path);
    const list = this.index.get(key);
    if (!list) this.index.set(key, [path]);
    else if (!list.includes(path)) list.push(path);
  }
  /** Whether an edit before this one wrote `path` (a created file, or one moved to). */
  has(path: string): boolean {
    return this.written.has(path);
  }
  /** Record that an edit writes `path` (not a given file); its `confusable-path` warning when it is the first to and the path looks like another. */
  write(path: string): Diagnostic | null {
    if (this.written.has(path)) return null;
    this.written.add(path);
    const other = lookalikeOf(path, this.index);
    this.add(path);
    return other === null ? null : diagnostic('confusable-path', 'warning', confusableMessage(path, other));
  }
}

/** An edit as the engine placed it (the fields of its work item that these warnings read). */
export interface Placed {
  edit: Pick<Edit, 'file' | 'moveTo' | 'kind' | 'new'>;
  result: Pick<EditResult, 'status' | 'code' | 'warnings'>;
  /** Where it goes in the original lines, 0-based half-open. */
  from?: number;
  to?: number;
  /** The lines that replace `[from, to)`, when not simply `edit.new`. */
  lines?: string[];
}

/**
 * Add `confusable-path` and `bidi-control` warnings to the applied edits of
 * `placed` (in reply order): an edit that writes a file not among `given`
 * whose path looks like a given file's or that of a file an earlier edit
 * writes (two created look-alikes: the later one is warned); an edit
 * whose new lines hold a BiDi control not already on a line it replaces,
 * with the line numbered in the file as written (after every edit before it).
 * `original(path)` is a given file's lines. Repeats of an edit (`duplicate`)
 * are passed over.
 */
export function addLookalikeWarnings(placed: readonly Placed[], given: readonly string[], original: (path: string) => readonly string[]): void {
  const live = placed.filter((w) => w.result.status === 'applied' && w.result.code !== 'duplicate');
  const givenSet = new Set(given);
  const written = (w: Placed) => (w.edit.kind === 'delete' ? null : w.edit.moveTo ?? w.edit.file);
  const created = live.filter((w) => {
    const path = written(w);
    return path !== null && !givenSet.has(path);
  });
  const seen = new CreatedPaths(given);
  for (const w of created) {
    const warning = seen.write(written(w)!);
    if (warning) w.result.warnings = [...w.result.warnings, warning];
  }
  // Lines are numbered in the file written: each edit shifted by the edits placed before it.
  // Each file's placed edits in reply order, and those whose new lines hold a control.
  const byFile = new Map<string, { placed: Placed[]; bidi: Set<Placed> }>();
  for (const w of live) {
    if (w.from === undefined) continue;
    let entry = byFile.get(w.edit.file);
    if (!entry) byFile.set(w.edit.file, (entry = { placed: [], bidi: new Set() }));
    entry.placed.push(w);
    if (w.edit.kind === 'delete' || w.edit.kind === 'rename') continue;
    if ((w.lines ?? w.edit.new).some((l) => BIDI_CONTROL.test(l))) entry.bidi.add(w);
  }
  for (const [file, { placed: inFile, bidi }] of byFile) {
    if (bidi.size === 0) continue;
    // In the order the edits are spliced in (text.ts's applySplices): by place, then reply order.
    const order = inFile.map((w, i) => ({ w, i })).sort((a, b) => a.w.from! - b.w.from! || a.w.to! - b.w.to! || a.i - b.i);
    const lines = givenSet.has(file) ? original(file) : [];
    let shift = 0;
    for (const { w } of order) {
      const text = w.lines ?? w.edit.new;
      if (bidi.has(w)) {
        const found = bidiLines(text, w.from! + 1 + shift, new Set(lines.slice(w.from, w.to)));
        if (found.length > 0) w.result.warnings = [...w.result.warnings, diagnostic('bidi-control', 'warning', bidiMessage(w.edit.moveTo ?? file, found))];
      }
      shift += text.length - (w.to! - w.from!);
    }
  }
}
