// Paths as models write them, and the given file each one names. Every
// format resolves the paths it reads through here, so that a path names the
// same file in every format (spec/ln-diff.md, "Paths", is the contract; the
// other formats' pages refer to it).
//
// Three questions, three functions:
// - `normalizePath`: the path written in one canonical way (`/` separators,
//   no leading `./`, no doubled `/`, Unicode NFC);
// - `givenFile`: the given file a written path names, if any (same path up
//   to `./`, `\`, Unicode normalisation and letter case; optionally by its
//   name alone);
// - `readPathLine`: whether a line of a reply is a path at all, prose, or
//   neither (a line meant as a path that cannot be one).

import { NON_ASCII } from './invisible.ts';

/** Names of files that usually have no extension (so `Makefile:` is a path, `Output:` is not). */
export const EXTENSIONLESS_NAMES: ReadonlySet<string> = new Set([
  'Makefile', 'GNUmakefile', 'makefile', 'Dockerfile', 'Containerfile', 'Vagrantfile', 'Jenkinsfile',
  'Procfile', 'Gemfile', 'Rakefile', 'Podfile', 'Brewfile', 'Pipfile', 'Justfile', 'justfile', 'Caddyfile',
  'Snakefile', 'Tiltfile', 'Earthfile', 'Guardfile', 'Capfile', 'Berksfile', 'Fastfile', 'Appfile',
  'LICENSE', 'LICENCE', 'COPYING', 'NOTICE', 'README', 'CHANGELOG', 'CHANGES', 'HISTORY', 'AUTHORS',
  'CONTRIBUTORS', 'MAINTAINERS', 'CODEOWNERS', 'OWNERS', 'VERSION', 'INSTALL', 'TODO', 'MANIFEST',
  'BUILD', 'WORKSPACE', 'CMakeLists.txt',
]);

/**
 * A path written canonically: backslashes become `/` (`src\App.js` is
 * `src/App.js`), leading `./` segments go, runs of `/` become one, and the
 * whole is in Unicode Normalization Form C (`cafe\u0301.txt`, as macOS
 * writes names, is `caf\u00e9.txt`): two paths that look the same and differ
 * only in how an accented letter is encoded are one path. An absolute path
 * stays absolute (the engine refuses it later).
 */
export function normalizePath(path: string): string {
  let p = NON_ASCII.test(path) ? path.normalize('NFC') : path;
  if (p.includes('\\')) p = p.replace(/\\/g, '/');
  if (p.includes('//')) p = p.replace(/\/{2,}/g, '/');
  while (p.startsWith('./')) p = p.slice(2);
  return p;
}

export interface ResolveOptions {
  /**
   * Also resolve a bare name (no `/`) to the one given file with that name.
   * Not for a path written with a leading `./`. For path lines, where models
   * shorten paths; not for tool calls, which name paths in full.
   */
  byName?: boolean;
  /**
   * Also resolve `path/to/NAME` to a given top-level `NAME` (aider's "bogus
   * dir" rule for the prefix models copy from aider's prompt): the formats
   * that follow aider's whole-file reading.
   */
  pathTo?: boolean;
}

const basename = (p: string) => p.slice(p.lastIndexOf('/') + 1);

/** Push `value` on the list `map` holds for `key`. */
function add(map: Map<string, string[]>, key: string, value: string): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}

/**
 * The given files, indexed once for every question asked of them: as
 * written, after `normalizePath` (Unicode NFC among the rest), that form in
 * lower case, and the name alone in both forms. A lookup costs the length of
 * the path asked about, not the number of files given: a request with
 * thousands of files and thousands of edits resolves in linear time.
 */
export class GivenPaths {
  /** The files, in the order given. */
  readonly list: readonly string[];
  private readonly exact: ReadonlySet<string>;
  private readonly normal = new Map<string, string[]>();
  private readonly lower = new Map<string, string[]>();
  private readonly name = new Map<string, string[]>();
  private readonly nameLower = new Map<string, string[]>();

  constructor(files: readonly string[]) {
    this.list = files.slice();
    this.exact = new Set(files);
    for (const f of files) {
      const normal = normalizePath(f);
      const lower = normal.toLowerCase();
      add(this.normal, normal, f);
      add(this.lower, lower, f);
      add(this.name, basename(normal), f);
      add(this.nameLower, basename(lower), f);
    }
  }

  /** Whether `path` is one of the files exactly as given. */
  has(path: string): boolean {
    return this.exact.has(path);
  }

  /** The given file a written path names, or null: see `givenFile`. */
  find(written: string, options: ResolveOptions = {}): string | null {
    if (written === '') return null;
    if (this.exact.has(written)) return written;
    const normal = normalizePath(written);
    const one = (hits: readonly string[] | undefined): string | null => (hits?.length === 1 ? hits[0] : null);
    const same = this.normal.get(normal);
    if (same) return one(same);
    const lower = normal.toLowerCase();
    const folded = this.lower.get(lower);
    if (folded) return one(folded);
    if (/^\.[\\/]/.test(written)) return null;
    if (options.pathTo && normal.startsWith('path/to/')) return one(this.normal.get(basename(normal)));
    if (!options.byName || normal.includes('/')) return null;
    const named = this.name.get(normal);
    if (named) return one(named);
    return one(this.nameLower.get(lower));
  }

  /**
   * The given files that `path` ends with after a `/` (compared after
   * `normalizePath`, and in lower case with `fold`): each tail of the path
   * is looked up once.
   */
  endingPath(path: string, fold = false): string[] {
    const p = fold ? path.toLowerCase() : path;
    const map = fold ? this.lower : this.normal;
    const out: string[] = [];
    for (let i = p.indexOf('/'); i !== -1; i = p.indexOf('/', i + 1)) out.push(...(map.get(p.slice(i + 1)) ?? []));
    return out;
  }

  /**
   * For a path that names no given file: the one given file it was most
   * likely meant for, or null. That is the one given file with its name
   * (`base_coder.py` for `aider/coders/base_coder.py`, and the other way
   * round), else, among the given files with its name, the one whose path
   * ends the written path or is ended by it, segment by segment (`core.ts`
   * and `src/v4/core/core.ts`); the same in lower case when no name matches
   * exactly. Null when none fits, or more than one fits equally, or more
   * than `MEANT_AMONG` given files have the name (no guess among so many).
   */
  meant(written: string): string | null {
    if (written === '' || this.find(written) !== null) return null;
    const normal = normalizePath(written);
    for (const [path, byName] of [[normal, this.name], [normal.toLowerCase(), this.nameLower]] as const) {
      const hits = byName.get(basename(path));
      if (!hits) continue;
      if (hits.length === 1) return hits[0];
      if (hits.length > MEANT_AMONG) return null;
      const lowered = byName === this.nameLower;
      const form = (f: string) => (lowered ? normalizePath(f).toLowerCase() : normalizePath(f));
      const suffix = hits.filter((f) => {
        const g = form(f);
        return path.endsWith('/' + g) || g.endsWith('/' + path);
      });
      return suffix.length === 1 ? suffix[0] : null;
    }
    return null;
  }
}

/** Given files of one name among which `GivenPaths.meant` looks for the one a path ends with, at most. */
export const MEANT_AMONG = 64;

/** The index of each files array asked about (see `givenPaths`). */
const indexes = new WeakMap<readonly string[], GivenPaths>();

/**
 * The given files indexed (`GivenPaths`), built once per array: a request's
 * stages pass the same array of file names (`ParseContext.files`), which
 * they never change, so each stage's thousands of lookups share one index
 * (an array that grew since is indexed again).
 */
export function givenPaths(files: readonly string[] | GivenPaths): GivenPaths {
  if (files instanceof GivenPaths) return files;
  let index = indexes.get(files);
  if (!index || index.list.length !== files.length) indexes.set(files, (index = new GivenPaths(files)));
  return index;
}

/** How many given files a message lists by name (`listGiven`). */
export const LISTED_FILES = 20;

/**
 * Files named in a message, in order: `a.py, b.py`, or the first
 * `LISTED_FILES` and how many more (a request may give thousands, and every
 * failed edit's message would repeat them all).
 */
export function namesOf(files: readonly string[]): string {
  const shown = files.length > LISTED_FILES ? files.slice(0, LISTED_FILES) : files;
  const more = files.length - shown.length;
  return `${shown.join(', ')}${more > 0 ? ` and ${more} more` : ''}`;
}

/** The given files for a message: ` (a.py, b.py)` (see `namesOf`), or empty when none was given. */
export const listGiven = (files: readonly string[]): string => (files.length === 0 ? '' : ` (${namesOf(files)})`);

/**
 * The message for a path that names no given file: `PATH is not among the
 * files given (LIST)`, then, when one given file has its name (`meant`),
 * `; did you mean GIVEN? write its path exactly as given`, and no advice on creating
 * a file; else `; ` and the format's `create` hint, when it has one.
 * `prefix` stands before the path (`cannot update `); `subject` replaces
 * the path after it (`it`).
 */
export function notGivenMessage(path: string, files: readonly string[] | GivenPaths, create?: string, words: { prefix?: string; subject?: string } = {}): string {
  const index = givenPaths(files);
  const meant = index.meant(path);
  const head = `${words.prefix ?? ''}${words.subject ?? path} is not among the files given${listGiven(index.list)}`;
  if (meant !== null) return `${head}; did you mean ${meant}? write its path exactly as given`;
  return create ? `${head}; ${create}` : head;
}

/**
 * The given file a written path names, or null: the path as written; else
 * the one given file equal to it after `normalizePath` (so also under Unicode
 * normalisation: a given `cafe\u0301.txt` is named by `caf\u00e9.txt`); else the one given
 * file equal to it ignoring letter case; else (with `byName`) by its name.
 * Two given files that fit equally name none. `files` is indexed once per
 * array (`givenPaths`).
 */
export function givenFile(written: string, files: readonly string[] | GivenPaths, options: ResolveOptions = {}): string | null {
  return givenPaths(files).find(written, options);
}

/** The file a written path names: the given one (see `givenFile`), else the path normalized. */
export function resolveFile(written: string, files: readonly string[] | GivenPaths, options: ResolveOptions = {}): string {
  return givenFile(written, files, options) ?? normalizePath(written);
}

/** `s` without the run of `c` it ends with (linear; `/c+$/` is quadratic on long runs). */
function dropEnd(s: string, c: string): string {
  let e = s.length;
  while (e > 0 && s[e - 1] === c) e--;
  return s.slice(0, e);
}

/** `s` without the run of `c` it starts with. */
function dropStart(s: string, c: string): string {
  let b = 0;
  while (b < s.length && s[b] === c) b++;
  return s.slice(b);
}

/**
 * A path line without the decoration models put around it, in rounds until
 * a round changes nothing:
 * blanks, leading `#` marks (a heading), a trailing `:`, `*` at either end
 * (bold), a leading `File:`, `Path:` or `Filename:` label, and one pair of
 * backticks around the whole (`quoted`: the path may then hold blanks).
 */
export function cleanPathLine(text: string): { path: string; quoted: boolean } {
  let s = text.trim();
  for (;;) {
    const before = s;
    s = dropStart(s, '#').trim();
    if (s.endsWith(':')) s = s.slice(0, -1).trim();
    s = dropEnd(dropStart(s, '*'), '*').trim();
    s = s.replace(/^(?:file|path|filename)\s*:\s*/i, '');
    if (s.length >= 2 && s.startsWith('`') && s.endsWith('`')) {
      const inner = dropEnd(dropStart(s, '`'), '`');
      if (inner !== '' && !inner.includes('`')) {
        const path = inner.trim();
        return { path: (path.endsWith(':') ? path.slice(0, -1).trim() : path).replace(/\\_/g, '_'), quoted: true };
      }
    }
    if (s === before) break;
  }
  return { path: s.replace(/\\_/g, '_'), quoted: false };
}

/** What a line right above a block is. */
export type PathLineReading =
  /** A path (a given file, or a new one). */
  | { kind: 'path'; path: string; given: boolean }
  /** A sentence of prose (blanks between words, not a path): an introduction, not a path. */
  | { kind: 'prose' }
  /** A single word (or an unreadable path) where a path goes, that cannot be one: `why` says what is wrong. */
  | { kind: 'not-path'; why: string };

// The patterns of Unicode classes below are made on first use: each costs a
// fraction of a millisecond to build, which every start of the command would pay.
let extensionPattern: RegExp | undefined;

/** Whether a path ends in an extension: a `.` then letters, digits, `_` or `-`, with a letter (`.py`, `.tsx`; not `v1.2`). */
export const hasExtension = (path: string): boolean => (extensionPattern ??= /\.[\p{L}\p{N}_-]*\p{L}[\p{L}\p{N}_-]*$/u).test(path);
let barePathPattern: RegExp | undefined;
/** Whether `path` holds only characters a path written without backticks may hold (and blanks, see `pathProblem`). */
const isBarePath = (path: string): boolean => (barePathPattern ??= /^[\p{L}\p{N}\p{M}_.\-+@~/\\()[\]{},=#$%&' ]+$/u).test(path);

/** Why `path` cannot name a file, or null when it can. */
export function pathProblem(path: string, quoted: boolean): string | null {
  if (path === '') return 'it is empty';
  if (path.length > 255) return 'it is longer than 255 characters';
  if (/[<>"|?*`\u0000-\u001f]/.test(path)) return 'it holds a character paths do not hold (<>"|?* or a backtick)';
  if (path.includes('://')) return 'it is a URL';
  if (path.endsWith('/') || path.endsWith('\\')) return 'it names a directory';
  if (!/[\p{L}\p{N}]/u.test(path)) return 'it has no letter or digit';
  if (/^[-=+]/.test(path)) return 'it starts like a diff line or a marker';
  if (path.includes('...') || path.includes('…')) return 'it holds an ellipsis';
  const segments = normalizePath(path).split('/');
  if (segments.some((s) => s !== s.trim())) return 'a part of it starts or ends with a blank';
  if (quoted) return null;
  if (!isBarePath(path)) return 'it holds a character paths written without backticks do not hold';
  if (path.endsWith('.')) return 'it ends with a full stop';
  if (/\s/.test(path)) {
    // A path with blanks is read without backticks only when its first
    // segment has none and it names a file with an extension: `docs/My Notes.md`.
    if (segments.length < 2 || /\s/.test(segments[0]) || !hasExtension(segments[segments.length - 1]))
      return 'it holds blanks';
  }
  return null;
}

/**
 * Read a line written right above a block (or where a format expects a
 * path): a path, prose, or neither.
 * - A given file (see `givenFile`) is a path, whatever its characters.
 * - Otherwise the text without its decoration (see `cleanPathLine`) is a
 *   path when `pathProblem` finds nothing and, if it is a single name with
 *   no `/`, no extension and no leading `.`, it is written bare or in
 *   backticks, or is a well-known extension-less name: `Makefile`,
 *   `**Makefile**:` and `` `run` `` are paths; `Output:` and `## Summary`
 *   are labels, not file names.
 * - A line with blanks between words that is not a path is prose; any other
 *   line is `not-path`.
 */
export function readPathLine(line: string, files: readonly string[] | GivenPaths, options: ResolveOptions = {}): PathLineReading {
  const raw = line.trim();
  if (raw === '') return { kind: 'prose' };
  if (givenPaths(files).has(raw)) return { kind: 'path', path: raw, given: true };
  const { path, quoted } = cleanPathLine(line);
  const given = givenFile(path, files, options);
  if (given !== null) return { kind: 'path', path: given, given: true };
  const problem = pathProblem(path, quoted);
  if (problem === null) {
    const normal = normalizePath(path);
    const name = !normal.includes('/') && !hasExtension(normal) && !normal.startsWith('.');
    if (!name || quoted || raw === path || EXTENSIONLESS_NAMES.has(normal)) return { kind: 'path', path: normal, given: false };
    return { kind: 'not-path', why: `${JSON.stringify(raw)} reads as a label, not a file name` };
  }
  if (!quoted && /\S\s+\S/.test(path)) return { kind: 'prose' };
  return { kind: 'not-path', why: problem };
}

/** Why a path could leave a base directory (absolute, a drive letter, a `..` segment, NUL), or null when it cannot: such a path is refused, never written. */
export function unsafePathReason(path: string): string | null {
  if (path === '') return 'the path is empty';
  if (path.includes('\0')) return 'the path contains a NUL character';
  if (path.startsWith('/') || path.startsWith('\\') || /^[A-Za-z]:/.test(path)) return 'the path is absolute';
  if (path.includes('..') && path.split(/[\\/]/).includes('..')) return 'the path contains a ".." segment';
  return null;
}
