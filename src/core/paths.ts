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

/**
 * The given file a written path names, or null: the path as written; else
 * the one given file equal to it after `normalizePath` (so also under Unicode
 * normalisation: a given `cafe\u0301.txt` is named by `caf\u00e9.txt`); else the one given
 * file equal to it ignoring letter case; else (with `byName`) by its name.
 * Two given files that fit equally name none.
 */
export function givenFile(written: string, files: readonly string[], options: ResolveOptions = {}): string | null {
  if (written === '') return null;
  if (files.includes(written)) return written;
  const normal = normalizePath(written);
  const one = (hits: string[]): string | null => (hits.length === 1 ? hits[0] : null);
  const same = files.filter((f) => normalizePath(f) === normal);
  if (same.length) return one(same);
  const lower = normal.toLowerCase();
  const folded = files.filter((f) => normalizePath(f).toLowerCase() === lower);
  if (folded.length) return one(folded);
  if (/^\.[\\/]/.test(written)) return null;
  if (options.pathTo && normal.startsWith('path/to/')) {
    const name = basename(normal);
    return one(files.filter((f) => normalizePath(f) === name));
  }
  if (!options.byName || normal.includes('/')) return null;
  const named = files.filter((f) => basename(normalizePath(f)) === normal);
  if (named.length) return one(named);
  return one(files.filter((f) => basename(normalizePath(f)).toLowerCase() === lower));
}

/** The file a written path names: the given one (see `givenFile`), else the path normalized. */
export function resolveFile(written: string, files: readonly string[], options: ResolveOptions = {}): string {
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
export function readPathLine(line: string, files: readonly string[], options: ResolveOptions = {}): PathLineReading {
  const raw = line.trim();
  if (raw === '') return { kind: 'prose' };
  if (files.includes(raw)) return { kind: 'path', path: raw, given: true };
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
