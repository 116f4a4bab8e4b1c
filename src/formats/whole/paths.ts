// Paths of fenced blocks (spec/formats/whole.md, "Paths"): the line before
// the opening fence, read by the core's path-line reader
// (src/core/paths.ts), or a path in the fence's info string.

import { cleanPathLine, EXTENSIONLESS_NAMES, givenFile, hasExtension, normalizePath, pathProblem, readPathLine, type PathLineReading } from '../../core/paths.ts';

/**
 * Path lines name a given file by its name alone too (models shorten paths:
 * `app.py` for `src/app.py`), and `path/to/NAME` names a given top-level
 * `NAME` (aider's "bogus dir" rule).
 */
const BY_NAME = { byName: true, pathTo: true } as const;

/** The line above a block, read: a path (given or new), prose, or a line that cannot be a path. */
export function readBlockPathLine(text: string, files: readonly string[]): PathLineReading {
  return readPathLine(text, files, BY_NAME);
}

/** The path a path line names, or null when the line is prose or not a path. */
export function pathFromLine(text: string, files: readonly string[]): string | null {
  const r = readBlockPathLine(text, files);
  return r.kind === 'path' ? r.path : null;
}

/** A name that ends in an extension (as src/core/paths.ts reads one). */

/**
 * A path line that names a file beyond doubt (for detection, where a bare
 * word above a fence is weak evidence): a given file, or a path with a
 * directory part, an extension or a leading `.`, in backticks, or a
 * well-known extension-less name (`Makefile`). A bare word (`make`,
 * `Example`) is not.
 */
export function namesFile(text: string, files: readonly string[]): boolean {
  const r = readBlockPathLine(text, files);
  if (r.kind !== 'path') return false;
  if (r.given || r.path.includes('/') || r.path.startsWith('.') || hasExtension(r.path)) return true;
  return EXTENSIONLESS_NAMES.has(r.path) || cleanPathLine(text).quoted;
}

/** A word of an info string that names a file: no blanks, a directory part or an extension unless `marked`. */
function infoPath(word: string, files: readonly string[], marked: boolean): string | null {
  const given = givenFile(word, files, BY_NAME);
  if (given !== null) return given;
  if (/\s/.test(word) || pathProblem(word, false) !== null) return null;
  return marked || /[\\/]/.test(word) || /\.[A-Za-z][\w-]*$/.test(word) ? normalizePath(word) : null;
}

/**
 * A path in a fence's info string: `lang:path`, `file=path` (also `path=`,
 * `filename=`, `title=`, quotes allowed), or a word that is a given file or
 * has a directory part or an extension (`python` is a language, not a file).
 */
export function pathFromInfo(info: string, files: readonly string[]): string | null {
  for (const word of info.split(/\s+/).filter(Boolean)) {
    if (word.includes('://')) continue;
    let w = word;
    const kv = /^(?:file|path|filename|title)=(.*)$/i.exec(w);
    if (kv) w = kv[1];
    w = w.replace(/^["']|["']$/g, '');
    const colon = /^[\w+#.-]+:(.+)$/.exec(w);
    if (colon && !/^[A-Za-z]:[\\/]/.test(w)) {
      const p = infoPath(colon[1], files, true);
      if (p !== null) return p;
    }
    const p = infoPath(w, files, kv !== null);
    if (p !== null) return p;
  }
  return null;
}
