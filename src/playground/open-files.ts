// Files from disk: the file picker, the folder picker, and drops (files and
// folders). Paths inside a folder are kept: a folder opened or dropped alone
// is the project's root (its own name is left out, as a repository's is);
// several dropped items keep their names. Version-control and dependency
// folders are skipped, binary files refused, and the session's limits hold.

import { LIMITS } from '../session/session.ts';
import type { Elements } from './elements.ts';
import { sizeText } from './present.ts';

/** A file to add, with its path relative to what was opened. */
export interface PickedFile {
  path: string;
  file: File;
}

/** Folders never read: version control, dependencies, build caches. */
export const SKIPPED_DIRS = new Set(['.git', '.hg', '.svn', 'node_modules', '.venv', '__pycache__', '.next', '.astro']);

const strip = (path: string) => path.replace(/^\/+/, '');

/** Drop the first segment when every path starts with the same single folder. */
export function relativeToRoot(paths: string[]): string[] {
  if (paths.length === 0) return paths;
  const firsts = new Set(paths.map((p) => (p.includes('/') ? p.slice(0, p.indexOf('/')) : null)));
  if (firsts.size !== 1 || firsts.has(null)) return paths;
  return paths.map((p) => p.slice(p.indexOf('/') + 1));
}

const skipped = (path: string) => path.split('/').slice(0, -1).some((part) => SKIPPED_DIRS.has(part));

/** Files from the folder picker (`webkitdirectory`): their relative paths, root folder left out. */
export function fromFolderInput(files: FileList | File[]): { picked: PickedFile[]; skipped: number } {
  const all = Array.from(files).map((file) => ({ path: strip(file.webkitRelativePath || file.name), file }));
  const kept = all.filter((f) => !skipped(f.path));
  const paths = relativeToRoot(kept.map((f) => f.path));
  return { picked: kept.map((f, i) => ({ path: paths[i], file: f.file })), skipped: all.length - kept.length };
}

function readAll(reader: FileSystemDirectoryReader): Promise<FileSystemEntry[]> {
  return new Promise((resolve, reject) => {
    const out: FileSystemEntry[] = [];
    const next = () =>
      reader.readEntries((batch) => {
        if (batch.length === 0) resolve(out);
        else {
          out.push(...batch);
          next();
        }
      }, reject);
    next();
  });
}

const fileOf = (entry: FileSystemFileEntry) => new Promise<File>((resolve, reject) => entry.file(resolve, reject));

/** Files from a drop, folders walked; stops collecting after `max` files. */
export async function fromDrop(data: DataTransfer, max = LIMITS.files * 4): Promise<{ picked: PickedFile[]; skipped: number }> {
  const entries = Array.from(data.items)
    .map((item) => (item.kind === 'file' ? item.webkitGetAsEntry?.() : null))
    .filter((e): e is FileSystemEntry => !!e);
  if (entries.length === 0) return { picked: Array.from(data.files).map((file) => ({ path: file.name, file })), skipped: 0 };
  const picked: PickedFile[] = [];
  let skippedCount = 0;
  const walk = async (entry: FileSystemEntry): Promise<void> => {
    if (picked.length >= max) return;
    if (entry.isFile) picked.push({ path: strip(entry.fullPath), file: await fileOf(entry as FileSystemFileEntry) });
    else if (entry.isDirectory) {
      if (SKIPPED_DIRS.has(entry.name)) {
        skippedCount++;
        return;
      }
      for (const child of await readAll((entry as FileSystemDirectoryEntry).createReader())) await walk(child);
    }
  };
  for (const entry of entries) await walk(entry);
  const paths = entries.length === 1 && entries[0].isDirectory ? relativeToRoot(picked.map((p) => p.path)) : picked.map((p) => p.path);
  return { picked: picked.map((p, i) => ({ path: paths[i], file: p.file })), skipped: skippedCount };
}

/** Read picked files as text: binary ones and those over the limits are refused, with a reason. */
export async function readPicked(
  picked: PickedFile[],
  room: { size: number; files: number; names: Set<string> },
): Promise<{ files: { name: string; text: string }[]; refused: string[] }> {
  const files: { name: string; text: string }[] = [];
  const refused: string[] = [];
  let size = room.size;
  let count = room.files;
  for (const { path, file } of picked) {
    const name = path.slice(0, LIMITS.name) || 'dropped.txt';
    if (file.size > LIMITS.text || size + file.size > LIMITS.text) {
      refused.push(`${name} (${sizeText(file.size)}: the playground takes up to ${sizeText(LIMITS.text)} in all)`);
      continue;
    }
    if (!room.names.has(name) && count >= LIMITS.files) {
      refused.push(`${name} (a session holds at most ${LIMITS.files} files)`);
      continue;
    }
    const text = await file.text();
    if (text.includes('\0')) {
      refused.push(`${name} (it looks like a binary file)`);
      continue;
    }
    if (!room.names.has(name)) count++;
    size += text.length;
    files.push({ name, text });
  }
  return { files, refused };
}

/**
 * The ways files come in: "Open files…", "Open folder…", and a drop anywhere
 * on the page (the source editors take drops themselves).
 */
export function mountOpenFiles(ui: Elements, hooks: { add(picked: PickedFile[], skipped: number): void }): void {
  ui.openFiles.addEventListener('click', () => ui.fileInput.click());
  ui.fileInput.addEventListener('change', () => {
    const list = Array.from(ui.fileInput.files ?? []);
    ui.fileInput.value = '';
    if (list.length) hooks.add(list.map((file) => ({ path: file.name, file })), 0);
  });
  ui.openFolder.addEventListener('click', () => ui.folderInput.click());
  ui.folderInput.addEventListener('change', () => {
    const list = Array.from(ui.folderInput.files ?? []);
    ui.folderInput.value = '';
    if (!list.length) return;
    const { picked, skipped } = fromFolderInput(list);
    hooks.add(picked, skipped);
  });
  const hasFiles = (event: DragEvent) => Array.from(event.dataTransfer?.types ?? []).includes('Files');
  document.addEventListener('dragover', (event) => {
    if (!hasFiles(event)) return;
    event.preventDefault();
    if (event.dataTransfer) event.dataTransfer.dropEffect = 'copy';
    ui.root.classList.add('pg-dragging');
  });
  document.addEventListener('dragleave', (event) => {
    if (event.relatedTarget === null) ui.root.classList.remove('pg-dragging');
  });
  document.addEventListener('drop', (event) => {
    ui.root.classList.remove('pg-dragging');
    if (event.defaultPrevented || !hasFiles(event) || !event.dataTransfer) return;
    event.preventDefault();
    void fromDrop(event.dataTransfer).then(({ picked, skipped }) => hooks.add(picked, skipped));
  });
}
