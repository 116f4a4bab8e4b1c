// The CLI's only contact with the file system: where a reply's path may point,
// reading it as text, and writing it back atomically.
//
// Safety rules (every path from a reply is untrusted):
// 1. Place. Absolute paths are refused, and so are paths that leave the base
//    directory once `.` and `..` are resolved. The nearest existing ancestor
//    directory is resolved through symlinks and must still be inside the
//    (resolved) base; the target itself must not be a symlink or anything but
//    a regular file. A symlinked directory that stays inside the base is
//    followed.
// 2. Git's own files. A path with a segment `.git` (any letter case, also
//    `.git` with trailing dots or spaces, `git~1`, and `.git` spelled with
//    characters HFS+ ignores), in the reply's path, once resolved, or in its
//    real path (through symlinks), is refused, as `git apply` refuses it.
// 3. One name per file. A reply path is spelled as the directory entries
//    spell it (`diskSpelling`): a segment with no entry of exactly its name
//    is the one entry equal to it under Unicode normalisation (NFC; macOS
//    writes names in NFD), else the one equal to it ignoring letter case
//    too; when two entries fit, the path is refused; when none does, the
//    rest is a new path. So `café.txt` edits the `cafe\u0301.txt` on disk and
//    `app.py` the `App.py`, on every file system, never making a second file
//    whose name looks the same. The entries that differ from an existing
//    file's name only so are given to the engine with it (`spellingSiblings`),
//    which then takes the one the reply writes exactly. A new name that only
//    looks like an entry (`lookalikeEntry`: the same skeleton, see
//    src/core/lookalikes.ts) is written, with a `confusable-path` warning on
//    its line. Two names for one file (through a symlinked
//    directory, `./`, or a hard link) are refused: the engine checks overlaps
//    per name, so two names would let each set of edits overwrite the other.
// 4. Only what you could edit in place. An existing file is written (or
//    deleted) only when the user running ln-diff may write it (`access(W_OK)`
//    on the file, as the real user). A file is replaced by renaming a new copy
//    over it; the copy gets the file's mode, owner and group (for root, the
//    owner is kept by `fchown`; for anyone else, a file whose owner or group a
//    new copy could not keep is refused, never taken over). The directory
//    must take new files (the copy is written next to the file).
// 5. Never over a change. Just before a file is replaced or deleted, it must
//    still be the file ln-diff read (same inode, size and modification time);
//    a file that was absent must still be absent.
// 6. Temporaries. The new copy is written next to its file as
//    `.<name>.ln-diff-<pid>-<12 hex digits>.tmp` (the name cut to fit the file
//    system's limit), flushed, then renamed over the file. Before writing
//    into a directory, a file there whose whole name matches that pattern
//    (`STALE_TEMP`, which also matches the older `.ln-diff-<pid>-<hex>.tmp`),
//    that is a regular file, and whose process id is not a running process,
//    is a leftover of a killed run and is removed. Nothing else is ever removed.
//    (A live run in another PID namespace sharing the directory can look
//    dead: its rename then fails, and it reports that file as not written;
//    the file itself is untouched.)
// 7. What a new copy does not keep. A file with other names (hard links) is
//    still replaced by a new copy, never rewritten in place (a run stopped
//    half way must leave every name whole): its other names keep the old
//    text, and the summary says so on the file's line. Extended attributes
//    (and ACLs, macOS Finder tags and quarantine marks, SELinux labels other
//    than the directory's default) are not copied: Node.js has no API for
//    them. Mode, owner and group are kept (rule 4).
// 8. What is printed. Every path and message a reply controls is written
//    through `printable` (errors.ts): control characters and BiDi controls
//    are shown escaped, so a path cannot forge a line or reach the terminal.
//
// Writing several files (src/cli/changes.ts) adds: a file written where
// another written file would have to be its directory (`a.txt` and
// `a.txt/b.txt`) fails before anything is written; deletions come
// after every write, and happen only when every write succeeded (a moved file
// keeps its old name when its new one could not be written).

// Named imports: a namespace import of node:fs is copied property by property when the bundle starts.
import {
  accessSync,
  closeSync,
  constants,
  existsSync,
  fchmodSync,
  fchownSync,
  fstatSync,
  fsyncSync,
  lstatSync,
  mkdirSync,
  openSync,
  readFileSync,
  readSync,
  readdirSync,
  realpathSync,
  renameSync,
  rmdirSync,
  statSync,
  unlinkSync,
  writeFileSync,
  type Stats,
} from 'node:fs';
import * as path from 'node:path';
import { isAscii, isUtf8 } from 'node:buffer';
import { skeleton } from '../core/lookalikes.ts';
import { CliError, EXIT_USAGE } from './errors.ts';

/** What a regular file was when ln-diff looked at it (to keep its mode and owner, and to see it change). */
export interface FileStat {
  /** Permission bits (`mode & 0o7777`). */
  mode: number;
  uid: number;
  gid: number;
  dev: number;
  ino: number;
  size: number;
  mtimeMs: number;
  /** Names the file has (hard links); a replaced file keeps only the one written. */
  nlink: number;
}

/** A reply path checked against the base directory. */
export interface Target {
  /** The path as the reply (and the engine) names it. */
  file: string;
  /** Where it is on disk, under the resolved base. */
  abs: string;
  /** The same place with every existing directory resolved through symlinks (one per file). */
  real: string;
  /** A regular file is there now. */
  exists: boolean;
  /** The file as it was when checked (or read); null when absent. */
  stat: FileStat | null;
  /** The edit that names it (`edit at reply line 12`), for messages. */
  ref?: string;
}

/** How messages name a target: its path, and the edit that names it when known. */
const labelOf = (t: Pick<Target, 'file' | 'ref'>) => (t.ref ? `${t.file} (${t.ref})` : t.file);

/** Decode UTF-8 exactly (a BOM is kept as U+FEFF); null when the bytes are not UTF-8. */
export function decodeUtf8(bytes: Uint8Array): string | null {
  const buffer = Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  // ASCII reads the same as Latin-1, which Node.js decodes by copying, and keeps a large text
  // outside the JavaScript heap (the collector never moves it).
  if (isAscii(buffer)) return buffer.toString('latin1');
  if (!isUtf8(buffer)) return null;
  return buffer.toString('utf8');
}

/** `n` random bytes as hex; node:crypto is loaded on first use (only a run that writes files needs it). */
function randomHex(n: number): string {
  const crypto = process.getBuiltinModule('node:crypto') as typeof import('node:crypto');
  return crypto.randomBytes(n).toString('hex');
}

/**
 * Whether stdin is a terminal. Anything but a character device is not one:
 * told by one fstat, without loading node:tty (and the socket and stream
 * modules it brings).
 */
export function stdinIsTerminal(): boolean {
  try {
    if (!fstatSync(0).isCharacterDevice()) return false;
  } catch {}
  const tty = process.getBuiltinModule('node:tty') as typeof import('node:tty');
  return tty.isatty(0);
}

/**
 * All of stdin's bytes. Read with plain reads while stdin gives them (no
 * stream machinery to load); a stdin that would block (a non-blocking pipe)
 * or fails is read on as a stream, after the bytes already read. The bytes
 * go into one buffer, replaced by one eight times larger when full (memory
 * no read reaches is never touched): a request of a few megabytes is copied
 * at most twice on the way, never gathered from pieces at the end.
 */
export async function readAllStdin(): Promise<Buffer> {
  let buffer = Buffer.allocUnsafe(1 << 16);
  let filled = 0;
  for (;;) {
    if (filled === buffer.length) {
      const larger = Buffer.allocUnsafe(buffer.length * 8);
      buffer.copy(larger, 0, 0, filled);
      buffer = larger;
    }
    let n: number;
    try {
      n = readSync(0, buffer, filled, buffer.length - filled, null);
    } catch (err) {
      if (errno(err) === 'EOF') break; // the end of a pipe, on Windows
      // EAGAIN (a non-blocking pipe with nothing yet) or any other: the stream reads on as it can.
      const chunks: Buffer[] = [buffer.subarray(0, filled)];
      for await (const more of process.stdin) chunks.push(more as Buffer);
      return Buffer.concat(chunks);
    }
    if (n === 0) break;
    filled += n;
  }
  return buffer.subarray(0, filled);
}

function errno(err: unknown): string | undefined {
  return (err as NodeJS.ErrnoException | null)?.code;
}

function describe(err: unknown): string {
  const e = err as NodeJS.ErrnoException;
  // Node writes "EACCES: permission denied, open '/abs/path'": keep the part before the path.
  const message = String(e?.message ?? err);
  return e?.code ? message.split(', ')[0] : message;
}

function statOf(st: Stats): FileStat {
  return { mode: st.mode & 0o7777, uid: st.uid, gid: st.gid, dev: st.dev, ino: st.ino, size: st.size, mtimeMs: st.mtimeMs, nlink: st.nlink };
}

/** `child` is `parent` or inside it (both absolute and resolved). */
export function isInside(parent: string, child: string): boolean {
  const rel = path.relative(parent, child);
  return rel === '' || (rel !== '..' && !rel.startsWith('..' + path.sep) && !path.isAbsolute(rel));
}

/** Resolve the base directory (through symlinks); it must exist and be a directory. */
export function openBase(dir: string): string {
  let real: string;
  try {
    real = realpathSync(path.resolve(dir));
  } catch (err) {
    throw new CliError(`base directory ${dir}: ${errno(err) === 'ENOENT' ? 'does not exist' : describe(err)}`);
  }
  if (!statSync(real).isDirectory()) throw new CliError(`base directory ${dir}: not a directory`);
  return real;
}

function unsafe(file: string, why: string, ref?: string): CliError {
  return new CliError(`unsafe path ${JSON.stringify(file)}${ref ? ` (${ref})` : ''}: ${why}; refusing to touch it`, EXIT_USAGE);
}

// Code points HFS+ ignores in names (git's is_hfs_dotgit): `.g\u200Cit` is `.git` there.
const HFS_IGNORED = /[\u200C-\u200F\u202A-\u202E\u206A-\u206F\uFEFF]/g;

/**
 * The path segment that names git's own directory, or null. Separators are
 * `/` and `\`. A segment is `.git` when, in lower case, without the code
 * points HFS+ ignores and without trailing dots and spaces (NTFS drops them),
 * it is `.git`, or it is NTFS's short name `git~1`.
 */
export function gitSegment(file: string): string | null {
  for (const segment of file.split(/[/\\]/)) {
    const plain = segment.replace(HFS_IGNORED, '').toLowerCase().replace(/[. ]+$/, '');
    if (plain === '.git' || plain === 'git~1') return segment;
  }
  return null;
}

/** Directory listings read while resolving one run's reply paths (absolute directory to its entries; null when it cannot be listed). */
export type Listings = Map<string, string[] | null>;

/** A name compared the way `diskSpelling` compares: NFC, then (`fold`) lower case. */
const nameKey = (name: string, fold: boolean) => (fold ? name.normalize('NFC').toLowerCase() : name.normalize('NFC'));

/**
 * The reply path spelled as the directory entries on disk spell it (rule 3
 * at the top): each segment, from the base down, is the entry of its
 * directory with exactly that name; else the one entry equal to it under
 * Unicode normalisation (NFC); else the one equal to it ignoring letter case
 * too. The first segment no entry fits, and everything after it, stay as
 * written (a new file). Two entries that fit equally are refused: either
 * could be meant. Only directories that resolve inside the base are listed.
 * Returns `file` itself when no segment changes.
 */
export function diskSpelling(base: string, file: string, listings: Listings = new Map()): string {
  const segments = file.split(/[\\/]/);
  const spelled: string[] = [];
  let dir = base;
  let changed = false;
  for (let i = 0; i < segments.length; i++) {
    const segment = segments[i];
    if (segment === '' || segment === '.' || segment === '..') return changed ? [...spelled, ...segments.slice(i)].join('/') : file;
    const names = entriesOf(base, dir, listings);
    let entry: string | null = null;
    if (names !== null && !names.includes(segment)) {
      for (const fold of [false, true]) {
        const key = nameKey(segment, fold);
        const fits = names.filter((n) => nameKey(n, fold) === key).sort();
        if (fits.length > 1)
          throw new CliError(
            `${JSON.stringify(file)}: ${fits.length} entries of ${path.relative(base, dir) || 'the base directory'} differ from ${JSON.stringify(segment)} only in ${
              fold ? 'letter case or ' : ''
            }Unicode normalisation (${fits.map((n) => JSON.stringify(n)).join(', ')}); refusing to guess: name the one meant exactly as it is on disk`,
          );
        if (fits.length === 1) {
          entry = fits[0];
          break;
        }
      }
      if (entry === null) return changed ? [...spelled, ...segments.slice(i)].join('/') : file;
      changed = true;
    }
    spelled.push(entry ?? segment);
    if (names === null) return changed ? [...spelled, ...segments.slice(i + 1)].join('/') : file;
    dir = path.join(dir, entry ?? segment);
  }
  return changed ? spelled.join('/') : file;
}

/** A directory's entries (through `listings`), or null when it cannot be listed or resolves outside the base. */
function entriesOf(base: string, dir: string, listings: Listings): string[] | null {
  let names = listings.get(dir);
  if (names === undefined) {
    names = null;
    try {
      if (isInside(base, realpathSync(dir))) names = readdirSync(dir);
    } catch {}
    listings.set(dir, names);
  }
  return names;
}

/**
 * The other entries of an existing file's directory that differ from its
 * name only in Unicode normalisation or letter case (possible on a file
 * system that tells them apart), as paths like `file`. Given to the engine
 * with the file, they let it take the name the reply writes exactly.
 */
export function spellingSiblings(base: string, file: string, listings: Listings): string[] {
  const slash = file.lastIndexOf('/');
  const dir = slash < 0 ? '' : file.slice(0, slash + 1);
  const name = file.slice(slash + 1);
  const key = nameKey(name, true);
  const names = entriesOf(base, path.join(base, dir), listings) ?? [];
  return names.filter((n) => n !== name && nameKey(n, true) === key).map((n) => dir + n);
}

/**
 * The existing entry a new path looks like (`skeleton`, src/core/lookalikes.ts)
 * without being it, as a path from the base, or null: the first segment that
 * names no entry is compared with the entries of its directory.
 */
export function lookalikeEntry(base: string, file: string, listings: Listings): string | null {
  const segments = file.split('/');
  let dir = base;
  for (let i = 0; i < segments.length; i++) {
    const names = entriesOf(base, dir, listings);
    if (names === null) return null;
    if (names.includes(segments[i])) {
      dir = path.join(dir, segments[i]);
      continue;
    }
    const key = skeleton(segments[i]);
    const other = names.find((n) => skeleton(n) === key);
    return other === undefined ? null : [...segments.slice(0, i), other].join('/');
  }
  return null;
}

/**
 * Check a reply path against the (resolved) base and look at what is there.
 * The target's `file` is the path as the directory entries spell it
 * (`diskSpelling`; `listings` keeps the directories read, for the next
 * path). Throws a CliError naming the path (and `ref`, the edit that names
 * it, when given) when it is unsafe.
 */
export function resolveTarget(base: string, written: string, ref?: string, listings?: Listings): Target {
  const unsafe_ = (why: string) => unsafe(written, why, ref);
  if (written.includes('\0')) throw unsafe_('contains a NUL character');
  if (path.isAbsolute(written) || path.win32.isAbsolute(written)) throw unsafe_('absolute path');
  if (gitSegment(written) !== null) throw unsafe_(`goes into git's own directory (${JSON.stringify(gitSegment(written))})`);
  const file = diskSpelling(base, written, listings);
  const label = ref ? `${file} (${ref})` : file;
  const rel = path.relative(base, path.resolve(base, file));
  if (rel === '') throw unsafe_('names the base directory itself, not a file');
  if (!isInside(base, path.resolve(base, rel))) throw unsafe_('leaves the base directory');
  const dotGit = gitSegment(file) ?? gitSegment(rel);
  if (dotGit !== null) throw unsafe_(`goes into git's own directory (${JSON.stringify(dotGit)})`);
  const abs = path.join(base, rel);

  // The nearest ancestor that exists, resolved through symlinks, must stay inside.
  let real = abs;
  for (let dir = path.dirname(abs); ; dir = path.dirname(dir)) {
    if (dir === base) {
      real = abs;
      break;
    }
    try {
      lstatSync(dir);
    } catch (err) {
      if (errno(err) === 'ENOENT' || errno(err) === 'ENOTDIR') continue;
      throw new CliError(`${label}: cannot inspect ${path.relative(base, dir)} (${describe(err)})`);
    }
    let realDir: string;
    try {
      realDir = realpathSync(dir);
    } catch {
      throw unsafe_(`${path.relative(base, dir)} is a symlink that points nowhere`);
    }
    if (!isInside(base, realDir)) throw unsafe_(`${path.relative(base, dir)} resolves outside the base directory`);
    if (!statSync(realDir).isDirectory()) throw new CliError(`${label}: ${path.relative(base, dir)} is not a directory`);
    real = path.join(realDir, path.relative(dir, abs));
    break;
  }
  const realRel = path.relative(base, real);
  const realGit = gitSegment(realRel);
  if (realGit !== null) throw unsafe_(`resolves into git's own directory (${realRel})`);

  let st: Stats;
  try {
    st = lstatSync(abs);
  } catch (err) {
    if (errno(err) === 'ENOENT') return { file, abs, real, exists: false, stat: null, ...(ref ? { ref } : {}) };
    throw new CliError(`${label}: cannot inspect (${describe(err)})`);
  }
  if (st.isSymbolicLink()) throw unsafe_('the file is a symlink (ln-diff never writes through one)');
  if (!st.isFile()) throw new CliError(`${label}: not a regular file`);
  return { file, abs, real, exists: true, stat: statOf(st), ...(ref ? { ref } : {}) };
}

/**
 * Read a target's text (UTF-8, byte for byte). Refuses files that are not
 * UTF-8. Returns the target with its `stat` as read (what a later write
 * checks the file against).
 */
export function readTarget(target: Target): { target: Target; text: string } {
  const label = labelOf(target);
  let bytes: Buffer;
  let st: Stats;
  try {
    // O_NOFOLLOW: a symlink swapped in since the check is not followed.
    const fd = openSync(target.abs, constants.O_RDONLY | constants.O_NOFOLLOW);
    try {
      st = fstatSync(fd);
      bytes = readFileSync(fd);
    } finally {
      closeSync(fd);
    }
  } catch (err) {
    throw new CliError(`${label}: cannot read (${describe(err)})`);
  }
  if (!st.isFile()) throw new CliError(`${label}: not a regular file`);
  const text = decodeUtf8(bytes);
  if (text === null) throw new CliError(`${label}: not valid UTF-8 text; refusing to edit it`);
  return { target: { ...target, stat: statOf(st) }, text };
}

/** Read any file named on the command line (not a reply path) as UTF-8 text. */
export function readTextFile(file: string): string {
  let bytes: Buffer;
  try {
    bytes = readFileSync(file);
  } catch (err) {
    const code = errno(err);
    throw new CliError(
      `${file}: ${code === 'ENOENT' ? 'no such file' : code === 'EISDIR' ? 'is a directory' : `cannot read (${describe(err)})`}`,
    );
  }
  const text = decodeUtf8(bytes);
  if (text === null) throw new CliError(`${file}: not valid UTF-8 text`);
  return text;
}

// ---------------------------------------------------------------- may it be written?

/** The effective user is root (who passes every permission check, and may give a file any owner). */
const isRoot = () => process.geteuid?.() === 0;

/** The groups a file the running user creates may be given (without root). */
function ownGroups(): Set<number> {
  return new Set([process.getegid?.() ?? -1, ...(process.getgroups?.() ?? [])]);
}

/** The nearest directory of `abs` that exists. */
function nearestDir(abs: string): string {
  let dir = path.dirname(abs);
  while (!existsSync(dir) && path.dirname(dir) !== dir) dir = path.dirname(dir);
  return dir;
}

/**
 * Why the running user may not replace (`write`) or remove (`delete`) the
 * target, or null. Rule 4 at the top: an existing file must be writable by
 * the real user (`access(W_OK)`); a write must be able to keep its owner and
 * group; its directory (or the nearest one that exists) must take new files.
 */
export function writeProblem(base: string, target: Target, op: 'write' | 'delete'): string | null {
  if (target.stat !== null) {
    try {
      accessSync(target.abs, constants.W_OK);
    } catch (err) {
      return `you may not write it (${describe(err)}); ln-diff changes only files you could edit in place`;
    }
    if (op === 'write' && !isRoot()) {
      const uid = process.geteuid?.();
      if (uid !== undefined && target.stat.uid !== uid)
        return `it belongs to another user (uid ${target.stat.uid}); a new copy would be yours, so ln-diff leaves it alone`;
      if (!ownGroups().has(target.stat.gid))
        return `its group (gid ${target.stat.gid}) is not one of yours; a new copy could not keep it, so ln-diff leaves it alone`;
    }
  }
  const dir = nearestDir(target.abs);
  try {
    accessSync(dir, constants.W_OK | constants.X_OK);
  } catch (err) {
    const name = path.relative(base, dir) || 'the base directory';
    return `cannot ${op === 'delete' ? 'remove' : 'create'} files in ${name} (${describe(err)})`;
  }
  return null;
}

// ---------------------------------------------------------------- temporaries

/**
 * A temporary file of ln-diff's, by its whole name: `.`, optionally the
 * target's name and a dot, `ln-diff-`, the writing process's id, `-`, 12
 * lower-case hex digits, `.tmp`. Group 1 is the process id.
 */
export const STALE_TEMP = /^\.(?:[^/]+\.)?ln-diff-([1-9][0-9]{0,9})-[0-9a-f]{12}\.tmp$/s;

/** Longest file name, in bytes, that file systems commonly take. */
const NAME_MAX = 255;

/** The temporary name for a file `name`: `.<name>.ln-diff-<pid>-<hex>.tmp`, `name` cut to fit NAME_MAX bytes. */
export function tempName(name: string, pid = process.pid, random = randomHex(6)): string {
  const tail = `.ln-diff-${pid}-${random}.tmp`;
  const room = NAME_MAX - 1 - Buffer.byteLength(tail);
  let head = name;
  if (Buffer.byteLength(head) > room) {
    head = '';
    for (const ch of name) {
      if (Buffer.byteLength(head + ch) > room) break;
      head += ch;
    }
  }
  return `.${head}${tail}`;
}

/** A process with this id is running (or exists and is not ours: it still counts as running). */
function running(pid: number): boolean {
  if (pid === process.pid) return true;
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return errno(err) !== 'ESRCH';
  }
}

/**
 * Remove leftovers of killed runs in `dirs` (rule 6 at the top): regular
 * files whose whole name matches STALE_TEMP and whose process is gone.
 * Returns the paths removed. Directories that cannot be listed are skipped.
 */
export function removeStaleTemps(dirs: Iterable<string>): string[] {
  const removed: string[] = [];
  for (const dir of new Set(dirs)) {
    let names: string[];
    try {
      names = readdirSync(dir);
    } catch {
      continue;
    }
    for (const name of names) {
      const m = STALE_TEMP.exec(name);
      if (!m) continue;
      const pid = Number(m[1]);
      if (pid > 0x7fffffff || running(pid)) continue;
      const file = path.join(dir, name);
      try {
        if (!lstatSync(file).isFile()) continue;
        unlinkSync(file);
        removed.push(file);
      } catch {}
    }
  }
  return removed;
}

// ---------------------------------------------------------------- writing

/** A file written next to its target, not yet in place. */
export interface Staged {
  target: Target;
  tmp: string;
  /** The outermost directory created for it, if any (removed again when the write is dropped). */
  createdDir: string | null;
}

/**
 * Write `text` to a temp file in the target's directory (creating parent
 * directories inside the base), flushed to disk, with the target's mode,
 * owner and group when it exists. `commitStaged` puts it in place;
 * `dropStaged` removes it. Throws a CliError whose message is the reason
 * alone (the caller names the file).
 */
export function stageTarget(base: string, target: Target, text: string): Staged {
  const dir = path.dirname(target.abs);
  let createdDir: string | null = null;
  try {
    createdDir = mkdirSync(dir, { recursive: true }) ?? null;
  } catch (err) {
    throw new CliError(`cannot create its directory (${describe(err)})`);
  }
  // The directories just made (or found) must still resolve inside the base, and not into .git.
  const realDir = realpathSync(dir);
  if (!isInside(base, realDir) || gitSegment(path.relative(base, realDir)) !== null) {
    removeCreatedDirs(target, createdDir);
    throw new CliError('its directory now resolves outside the base directory or into .git; refusing to touch it');
  }

  const tmp = path.join(dir, tempName(path.basename(target.abs)));
  const st = target.stat;
  let fd: number | null = null;
  try {
    // An existing file's copy is private until it has the file's owner and mode.
    fd = openSync(tmp, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW, st ? 0o600 : 0o666);
    writeFileSync(fd, text, 'utf8');
    if (st !== null) {
      const now = fstatSync(fd);
      if (now.uid !== st.uid || now.gid !== st.gid) {
        try {
          fchownSync(fd, st.uid, st.gid);
        } catch (err) {
          throw new CliError(`a new copy could not keep its owner and group (uid ${st.uid}, gid ${st.gid}: ${describe(err)})`);
        }
      }
      // After fchown, which clears set-user-id and set-group-id bits.
      fchmodSync(fd, st.mode);
    }
    fsyncSync(fd);
    closeSync(fd);
    fd = null;
  } catch (err) {
    if (fd !== null) {
      try {
        closeSync(fd);
      } catch {}
    }
    dropStaged({ target, tmp, createdDir });
    throw err instanceof CliError ? err : new CliError(`cannot write (${describe(err)})`);
  }
  return { target, tmp, createdDir };
}

/**
 * Rule 5 at the top: the target is still what ln-diff saw (the same file,
 * unchanged, or still absent). Throws a CliError saying what changed.
 */
function checkUnchanged(target: Target): void {
  let now: Stats | null = null;
  try {
    now = lstatSync(target.abs);
  } catch (err) {
    if (errno(err) !== 'ENOENT') throw new CliError(`cannot inspect (${describe(err)})`);
  }
  const was = target.stat;
  if (was === null) {
    if (now !== null)
      throw new CliError(`${now.isDirectory() ? 'a directory' : 'a file'} is there now, where there was none when ln-diff looked; not overwritten`);
    return;
  }
  if (now === null) throw new CliError('it was removed by something else since ln-diff read it');
  if (!now.isFile() || now.dev !== was.dev || now.ino !== was.ino || now.size !== was.size || now.mtimeMs !== was.mtimeMs)
    throw new CliError('it changed on disk since ln-diff read it; not overwritten');
}

/**
 * Put a staged file in place (an atomic rename over the target). `check`
 * (the default) first makes sure the target is as ln-diff saw it; putting
 * back a file ln-diff itself replaced skips that.
 */
export function commitStaged(staged: Staged, check = true): void {
  try {
    if (check) checkUnchanged(staged.target);
    renameSync(staged.tmp, staged.target.abs);
  } catch (err) {
    dropStaged(staged);
    throw err instanceof CliError ? err : new CliError(`cannot write (${describe(err)})`);
  }
}

/** Remove a staged file that will not be put in place, and the directories made for it (when empty). */
export function dropStaged(staged: Staged): void {
  try {
    unlinkSync(staged.tmp);
  } catch {}
  removeCreatedDirs(staged.target, staged.createdDir);
}

/** Remove the directories from the target's up to `createdDir`, as long as they are empty. */
function removeCreatedDirs(target: Target, createdDir: string | null): void {
  if (createdDir === null) return;
  for (let dir = path.dirname(target.abs); ; dir = path.dirname(dir)) {
    try {
      rmdirSync(dir);
    } catch {
      return;
    }
    if (dir === createdDir || dir === path.dirname(dir)) return;
  }
}

/** Undo a committed staged file that created its target: remove it and the directories made for it. */
export function undoCreated(staged: Staged): void {
  deleteTarget(staged.target, false);
  removeCreatedDirs(staged.target, staged.createdDir);
}

/**
 * Write `text` to the target atomically (temp file + rename), creating parent
 * directories inside the base. `check` as in commitStaged.
 */
export function writeTarget(base: string, target: Target, text: string, check = true): void {
  commitStaged(stageTarget(base, target, text), check);
}

/** Remove the target file (after checking it is as ln-diff read it, unless `check` is false). */
export function deleteTarget(target: Target, check = true): void {
  try {
    if (check) checkUnchanged(target);
    unlinkSync(target.abs);
  } catch (err) {
    if (err instanceof CliError) throw err;
    if (errno(err) === 'ENOENT') return;
    throw new CliError(`cannot delete (${describe(err)})`);
  }
}
