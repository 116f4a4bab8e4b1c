// The CLI's only contact with the file system: where a reply's path may point,
// reading it as text, and writing it back atomically.
//
// Safety rules (every path from a reply is untrusted):
// - absolute paths are refused, and so are paths that leave the base
//   directory once `.` and `..` are resolved;
// - the nearest existing ancestor directory is resolved through symlinks and
//   must still be inside the (resolved) base;
// - the target itself must not be a symlink or anything but a regular file;
// - writes go to a temp file in the same directory, then rename over the
//   target, keeping the existing file's mode.

import * as fs from 'node:fs';
import * as path from 'node:path';
import { randomBytes } from 'node:crypto';
import { CliError, EXIT_USAGE } from './errors.ts';

/** A reply path checked against the base directory. */
export interface Target {
  /** The path as the reply (and the engine) names it. */
  file: string;
  /** Where it is on disk, under the resolved base. */
  abs: string;
  /** A regular file is there now. */
  exists: boolean;
  /** Its permission bits, when it exists. */
  mode: number | null;
  /** The edit that names it (`edit at reply line 12`), for messages. */
  ref?: string;
}

/** How messages name a target: its path, and the edit that names it when known. */
const labelOf = (t: Pick<Target, 'file' | 'ref'>) => (t.ref ? `${t.file} (${t.ref})` : t.file);

const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** Decode UTF-8 exactly (a BOM is kept as U+FEFF); null when the bytes are not UTF-8. */
export function decodeUtf8(bytes: Uint8Array): string | null {
  try {
    return utf8.decode(bytes);
  } catch {
    return null;
  }
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

/** `child` is `parent` or inside it (both absolute and resolved). */
export function isInside(parent: string, child: string): boolean {
  const rel = path.relative(parent, child);
  return rel === '' || (rel !== '..' && !rel.startsWith('..' + path.sep) && !path.isAbsolute(rel));
}

/** Resolve the base directory (through symlinks); it must exist and be a directory. */
export function openBase(dir: string): string {
  let real: string;
  try {
    real = fs.realpathSync(path.resolve(dir));
  } catch (err) {
    throw new CliError(`base directory ${dir}: ${errno(err) === 'ENOENT' ? 'does not exist' : describe(err)}`);
  }
  if (!fs.statSync(real).isDirectory()) throw new CliError(`base directory ${dir}: not a directory`);
  return real;
}

function unsafe(file: string, why: string, ref?: string): CliError {
  return new CliError(`unsafe path ${JSON.stringify(file)}${ref ? ` (${ref})` : ''}: ${why}; refusing to touch it`, EXIT_USAGE);
}

/**
 * Check a reply path against the (resolved) base and look at what is there.
 * Throws a CliError naming the path (and `ref`, the edit that names it, when
 * given) when it is unsafe.
 */
export function resolveTarget(base: string, file: string, ref?: string): Target {
  const label = ref ? `${file} (${ref})` : file;
  const unsafe_ = (why: string) => unsafe(file, why, ref);
  if (file.includes('\0')) throw unsafe_('contains a NUL character');
  if (path.isAbsolute(file) || path.win32.isAbsolute(file)) throw unsafe_('absolute path');
  const rel = path.relative(base, path.resolve(base, file));
  if (rel === '') throw unsafe_('names the base directory itself, not a file');
  if (!isInside(base, path.resolve(base, rel))) throw unsafe_('leaves the base directory');
  const abs = path.join(base, rel);

  // The nearest ancestor that exists, resolved through symlinks, must stay inside.
  for (let dir = path.dirname(abs); dir !== base; dir = path.dirname(dir)) {
    try {
      fs.lstatSync(dir);
    } catch (err) {
      if (errno(err) === 'ENOENT' || errno(err) === 'ENOTDIR') continue;
      throw new CliError(`${label}: cannot inspect ${path.relative(base, dir)} (${describe(err)})`);
    }
    let real: string;
    try {
      real = fs.realpathSync(dir);
    } catch {
      throw unsafe_(`${path.relative(base, dir)} is a symlink that points nowhere`);
    }
    if (!isInside(base, real)) throw unsafe_(`${path.relative(base, dir)} resolves outside the base directory`);
    if (!fs.statSync(real).isDirectory()) throw new CliError(`${label}: ${path.relative(base, dir)} is not a directory`);
    break;
  }

  let st: fs.Stats;
  try {
    st = fs.lstatSync(abs);
  } catch (err) {
    if (errno(err) === 'ENOENT') return { file, abs, exists: false, mode: null, ...(ref ? { ref } : {}) };
    throw new CliError(`${label}: cannot inspect (${describe(err)})`);
  }
  if (st.isSymbolicLink()) throw unsafe_('the file is a symlink (ln-diff never writes through one)');
  if (!st.isFile()) throw new CliError(`${label}: not a regular file`);
  return { file, abs, exists: true, mode: st.mode & 0o7777, ...(ref ? { ref } : {}) };
}

/** Read a target's text (UTF-8, byte for byte). Refuses files that are not UTF-8. */
export function readTarget(target: Target): string {
  const label = labelOf(target);
  let bytes: Buffer;
  try {
    // O_NOFOLLOW: a symlink swapped in since the check is not followed.
    const fd = fs.openSync(target.abs, fs.constants.O_RDONLY | fs.constants.O_NOFOLLOW);
    try {
      bytes = fs.readFileSync(fd);
    } finally {
      fs.closeSync(fd);
    }
  } catch (err) {
    throw new CliError(`${label}: cannot read (${describe(err)})`);
  }
  const text = decodeUtf8(bytes);
  if (text === null) throw new CliError(`${label}: not valid UTF-8 text; refusing to edit it`);
  return text;
}

/** Read any file named on the command line (not a reply path) as UTF-8 text. */
export function readTextFile(file: string): string {
  let bytes: Buffer;
  try {
    bytes = fs.readFileSync(file);
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

/** A file written next to its target, not yet in place. */
export interface Staged {
  target: Target;
  tmp: string;
  /** The outermost directory created for it, if any (removed again when the write is dropped). */
  createdDir: string | null;
}

/**
 * Write `text` to a temp file in the target's directory (creating parent
 * directories inside the base), with the target's mode, flushed to disk.
 * `commitStaged` puts it in place; `dropStaged` removes it.
 */
export function stageTarget(base: string, target: Target, text: string): Staged {
  const dir = path.dirname(target.abs);
  let createdDir: string | null = null;
  try {
    createdDir = fs.mkdirSync(dir, { recursive: true }) ?? null;
  } catch (err) {
    throw new CliError(`${labelOf(target)}: cannot create its directory (${describe(err)})`);
  }
  // The directories just made (or found) must still resolve inside the base.
  if (!isInside(base, fs.realpathSync(dir))) throw unsafe(target.file, 'its directory resolves outside the base directory', target.ref);

  // A short name of its own: the target's name in it could make it longer than the file system allows.
  const tmp = path.join(dir, `.ln-diff-${process.pid}-${randomBytes(6).toString('hex')}.tmp`);
  let fd: number | null = null;
  try {
    fd = fs.openSync(tmp, fs.constants.O_WRONLY | fs.constants.O_CREAT | fs.constants.O_EXCL, target.mode ?? 0o666);
    fs.writeFileSync(fd, text, 'utf8');
    if (target.mode !== null) fs.fchmodSync(fd, target.mode);
    fs.fsyncSync(fd);
    fs.closeSync(fd);
    fd = null;
  } catch (err) {
    if (fd !== null) {
      try {
        fs.closeSync(fd);
      } catch {}
    }
    dropStaged({ target, tmp, createdDir });
    throw new CliError(`${labelOf(target)}: cannot write (${describe(err)})`);
  }
  return { target, tmp, createdDir };
}

/** Put a staged file in place (an atomic rename over the target). */
export function commitStaged(staged: Staged): void {
  try {
    fs.renameSync(staged.tmp, staged.target.abs);
  } catch (err) {
    dropStaged(staged);
    throw new CliError(`${labelOf(staged.target)}: cannot write (${describe(err)})`);
  }
}

/** Remove a staged file that will not be put in place, and the directories made for it (when empty). */
export function dropStaged(staged: Staged): void {
  try {
    fs.unlinkSync(staged.tmp);
  } catch {}
  removeCreatedDirs(staged.target, staged.createdDir);
}

/** Remove the directories from the target's up to `createdDir`, as long as they are empty. */
function removeCreatedDirs(target: Target, createdDir: string | null): void {
  if (createdDir === null) return;
  for (let dir = path.dirname(target.abs); ; dir = path.dirname(dir)) {
    try {
      fs.rmdirSync(dir);
    } catch {
      return;
    }
    if (dir === createdDir || dir === path.dirname(dir)) return;
  }
}

/** Undo a committed staged file that created its target: remove it and the directories made for it. */
export function undoCreated(staged: Staged): void {
  deleteTarget(staged.target);
  removeCreatedDirs(staged.target, staged.createdDir);
}

/** Write `text` to the target atomically (temp file + rename), creating parent directories inside the base. */
export function writeTarget(base: string, target: Target, text: string): void {
  commitStaged(stageTarget(base, target, text));
}

/** Remove the target file. */
export function deleteTarget(target: Target): void {
  try {
    fs.unlinkSync(target.abs);
  } catch (err) {
    if (errno(err) === 'ENOENT') return;
    throw new CliError(`${labelOf(target)}: cannot delete (${describe(err)})`);
  }
}
