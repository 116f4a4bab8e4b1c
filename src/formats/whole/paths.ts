// Paths of fenced blocks (spec/formats/whole.md, "Paths"): the line before
// the opening fence, cleaned of the decoration models put around it, or a
// path in the fence's info string.

/**
 * `s` without the run of `c` it ends with. (A regex `/c+$/` is quadratic on a
 * long run of `c` followed by something else: it starts a match at every
 * character of the run.)
 */
function dropEnd(s: string, c: string): string {
  let e = s.length;
  while (e > 0 && s[e - 1] === c) e--;
  return s.slice(0, e);
}

/** Strip `#`, `*`, a trailing `:`, a `File:` label, and one pair of backticks around the whole. */
export function cleanPathLine(text: string): { path: string; quoted: boolean } {
  let s = text.trim();
  for (let guard = 0; guard < 20; guard++) {
    const before = s;
    s = s.replace(/^#+\s*/, '');
    s = s.replace(/:\s*$/, '').trim();
    s = dropEnd(s.replace(/^\*+/, ''), '*').trim();
    s = s.replace(/^(?:file|path|filename)\s*:\s*/i, '');
    if (s.length >= 2 && s.startsWith('`') && s.endsWith('`')) {
      const inner = dropEnd(s.replace(/^`+/, ''), '`');
      if (!inner.includes('`')) return { path: inner.trim().replace(/:$/, ''), quoted: true };
    }
    if (s === before) break;
  }
  return { path: s, quoted: false };
}

const basename = (p: string) => p.split('/').pop() ?? p;

/**
 * The given file a candidate names: itself, itself without `./`, a given
 * top-level file when the candidate puts it under `path/to/` (aider's "bogus
 * dir" rule, for the prefix models copy from the prompt's example), or the
 * one given file with that name when the candidate is a bare name. A
 * candidate written with `./` takes neither of the last two rules.
 */
export function givenFile(candidate: string, files: readonly string[]): string | null {
  if (candidate === '') return null;
  const normal = candidate.replace(/^\.\//, '');
  for (const f of files) if (f === candidate || f.replace(/^\.\//, '') === normal) return f;
  if (candidate.startsWith('./')) return null;
  if (normal.startsWith('path/to/')) {
    const name = basename(normal);
    return files.includes(name) ? name : null;
  }
  if (normal.includes('/')) return null;
  const same = files.filter((f) => basename(f) === normal);
  return same.length === 1 ? same[0] : null;
}

/**
 * Looks like a path on its own (for files not among those given): no blanks
 * unless quoted in backticks, no `<>"|?*` or backticks, no URL, at most 255
 * characters, and a directory part, an extension (`.` then a letter), or
 * backticks around it.
 */
export function pathLike(candidate: string, quoted: boolean): boolean {
  if (candidate === '' || candidate.length > 255) return false;
  if (!quoted && /\s/.test(candidate)) return false;
  if (/^\s|\s$/.test(candidate)) return false;
  if (/[<>"|?*`]/.test(candidate) || candidate.includes('://')) return false;
  if (candidate.endsWith('/')) return false;
  return quoted || /[\\/]/.test(candidate) || /\.[A-Za-z][\w-]*$/.test(candidate);
}

/** The path a path line names, or null when the line is not a path. */
export function pathFromLine(text: string, files: readonly string[]): string | null {
  const raw = text.trim();
  if (raw !== '' && files.includes(raw)) return raw;
  const { path, quoted } = cleanPathLine(text);
  const given = givenFile(path, files);
  if (given !== null) return given;
  return pathLike(path, quoted) ? path.replace(/^\.\//, '') : null;
}

/**
 * A path in a fence's info string: `lang:path`, `file=path` (also `path=`,
 * `filename=`, `title=`, quotes allowed), or a word that is a path on its own.
 */
export function pathFromInfo(info: string, files: readonly string[]): string | null {
  for (const word of info.split(/\s+/).filter(Boolean)) {
    let w = word;
    const kv = /^(?:file|path|filename|title)=(.*)$/i.exec(w);
    if (kv) w = kv[1];
    w = w.replace(/^["']|["']$/g, '');
    const colon = /^[\w+#.-]+:(.+)$/.exec(w);
    for (const candidate of colon && !/^[A-Za-z]:[\\/]/.test(w) ? [colon[1], w] : [w]) {
      const given = givenFile(candidate, files);
      if (given !== null) return given;
      if (pathLike(candidate, false) && (kv || colon || /[\\/]/.test(candidate) || /\.[A-Za-z][\w-]*$/.test(candidate)))
        return candidate.replace(/^\.\//, '');
    }
  }
  return null;
}
