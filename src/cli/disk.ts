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
}

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

function unsafe(file: string, why: string): CliError {
  return new CliError(`unsafe path ${JSON.stringify(file)}: ${why}; refusing to touch it`, EXIT_USAGE);
}

/**
 * Check a reply path against the (resolved) base and look at what is there.
 * Throws a CliError naming the path when it is unsafe.
 */
export function resolveTarget(base: string, file: string): Target {
  if (file.includes('\0')) throw unsafe(file, 'contains a NUL character');
  if (path.isAbsolute(file) || path.win32.isAbsolute(file)) throw unsafe(file, 'absolute path');
  const rel = path.relative(base, path.resolve(base, file));
  if (rel === '') throw unsafe(file, 'names the base directory itself, not a file');
  if (!isInside(base, path.resolve(base, rel))) throw unsafe(file, 'leaves the base directory');
  const abs = path.join(base, rel);

  // The nearest ancestor that exists, resolved through symlinks, must stay inside.
  for (let dir = path.dirname(abs); dir !== base; dir = path.dirname(dir)) {
    try {
      fs.lstatSync(dir);
    } catch (err) {
      if (errno(err) === 'ENOENT' || errno(err) === 'ENOTDIR') continue;
      throw new CliError(`${file}: cannot inspect ${path.relative(base, dir)} (${describe(err)})`);
    }
    let real: string;
    try {
      real = fs.realpathSync(dir);
    } catch {
      throw unsafe(file, `${path.relative(base, dir)} is a symlink that points nowhere`);
    }
    if (!isInside(base, real)) throw unsafe(file, `${path.relative(base, dir)} resolves outside the base directory`);
    if (!fs.statSync(real).isDirectory()) throw new CliError(`${file}: ${path.relative(base, dir)} is not a directory`);
    break;
  }

  let st: fs.Stats;
  try {
    st = fs.lstatSync(abs);
  } catch (err) {
    if (errno(err) === 'ENOENT') return { file, abs, exists: false, mode: null };
    throw new CliError(`${file}: cannot inspect (${describe(err)})`);
  }
  if (st.isSymbolicLink()) throw unsafe(file, 'the file is a symlink (ln-diff never writes through one)');
  if (!st.isFile()) throw new CliError(`${file}: not a regular file`);
  return { file, abs, exists: true, mode: st.mode & 0o7777 };
}

/** Read a target's text (UTF-8, byte for byte). Refuses files that are not UTF-8. */
export function readTarget(target: Target): string {
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
    throw new CliError(`${target.file}: cannot read (${describe(err)})`);
  }
  const text = decodeUtf8(bytes);
  if (text === null) throw new CliError(`${target.file}: not valid UTF-8 text; refusing to edit it`);
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

/** Write `text` to the target atomically (temp file + rename), creating parent directories inside the base. */
export function writeTarget(base: string, target: Target, text: string): void {
  const dir = path.dirname(target.abs);
  try {
    fs.mkdirSync(dir, { recursive: true });
  } catch (err) {
    throw new CliError(`${target.file}: cannot create its directory (${describe(err)})`);
  }
  // The directories just made (or found) must still resolve inside the base.
  if (!isInside(base, fs.realpathSync(dir))) throw unsafe(target.file, 'its directory resolves outside the base directory');

  const tmp = path.join(dir, `.${path.basename(target.abs)}.ln-diff-${process.pid}-${randomBytes(4).toString('hex')}.tmp`);
  let fd: number | null = null;
  try {
    fd = fs.openSync(tmp, fs.constants.O_WRONLY | fs.constants.O_CREAT | fs.constants.O_EXCL, target.mode ?? 0o666);
    fs.writeFileSync(fd, text, 'utf8');
    if (target.mode !== null) fs.fchmodSync(fd, target.mode);
    fs.fsyncSync(fd);
    fs.closeSync(fd);
    fd = null;
    fs.renameSync(tmp, target.abs);
  } catch (err) {
    if (fd !== null) {
      try {
        fs.closeSync(fd);
      } catch {}
    }
    try {
      fs.unlinkSync(tmp);
    } catch {}
    throw new CliError(`${target.file}: cannot write (${describe(err)})`);
  }
}

/** Remove the target file. */
export function deleteTarget(target: Target): void {
  try {
    fs.unlinkSync(target.abs);
  } catch (err) {
    if (errno(err) === 'ENOENT') return;
    throw new CliError(`${target.file}: cannot delete (${describe(err)})`);
  }
}
