// What the result's take-away buttons can do with the last result: which
// files changed, which buttons are enabled (and why not), and the names the
// downloads get. Plain data only; no DOM, no diff, no zip.

/** One file of the result: its text before (null: the file is new) and after (null: deleted). */
export interface FileText {
  name: string;
  before: string | null;
  after: string | null;
  /** Whether the result changes the file, when the caller knows it without comparing the texts. */
  changed?: boolean;
}

export type Action = 'copy' | 'download' | 'zip' | 'copyDiff' | 'downloadDiff';

export interface ActionState {
  enabled: boolean;
  /** What the button does, or why it cannot. */
  title: string;
  /** Left out of the row (the zip when there are not several files to put in it). */
  hidden: boolean;
}

export const PATCH_NAME = 'ln-diff-changes.patch';
export const ZIP_NAME = 'ln-diff-changes.zip';

/** The files the result changes, creates or deletes, in the given order. */
export function changedFiles(files: readonly FileText[]): FileText[] {
  return files.filter((f) => f.changed ?? f.before !== f.after);
}

/** The changed files that still exist after the result (what a zip holds). */
export function writtenFiles(files: readonly FileText[]): FileText[] {
  return changedFiles(files).filter((f) => f.after !== null);
}

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

export function actionStates(files: readonly FileText[] | null, shown: string | null): Record<Action, ActionState> {
  const off = (title: string, hidden = false): ActionState => ({ enabled: false, title, hidden });
  const on = (title: string): ActionState => ({ enabled: true, title, hidden: false });
  if (files === null) {
    const none = 'No result yet.';
    return { copy: off(none), download: off(none), zip: off(none, true), copyDiff: off(none), downloadDiff: off(none) };
  }
  const file = shown === null ? undefined : files.find((f) => f.name === shown);
  const changed = changedFiles(files);
  const written = writtenFiles(files);
  let copy: ActionState;
  let download: ActionState;
  if (!file) {
    copy = download = off('No file is shown.');
  } else if (file.after === null) {
    copy = download = off(`The reply deletes ${file.name}: it has no result.`);
  } else {
    copy = on(`Copy ${file.name} as the reply leaves it.`);
    download = on(`Download ${file.name} as the reply leaves it, as ${downloadName(file.name)}.`);
  }
  const zip =
    written.length >= 2
      ? on(`Download the ${plural(written.length, 'file')} the reply changes or creates, as ${ZIP_NAME}.`)
      : off('The reply changes fewer than two files.', true);
  const what = `the changes to ${plural(changed.length, 'file')} as one unified diff`;
  const copyDiff = changed.length ? on(`Copy ${what}.`) : off('The reply changes no file.');
  const downloadDiff = changed.length ? on(`Download ${what}, as ${PATCH_NAME}.`) : off('The reply changes no file.');
  return { copy, download, zip, copyDiff, downloadDiff };
}

/** The path's parts, without empty, `.` and `..` ones (a zip entry or a download never leaves its folder). */
function safeParts(name: string): string[] {
  return name.split(/[/\\]/).filter((part) => part !== '' && part !== '.' && part !== '..');
}

/** The name a single file downloads as: its last path part. */
export function downloadName(name: string): string {
  const parts = safeParts(name);
  return parts.length ? parts[parts.length - 1] : 'file';
}

/**
 * Names for the files of a zip: folders kept, relative (no leading `/`, no
 * `..`), `/` as the separator, and unique (a repeated name gets ` (2)`,
 * ` (3)`… before its extension).
 */
export function zipNames(names: readonly string[]): string[] {
  const taken = new Set<string>();
  return names.map((name) => {
    const base = safeParts(name).join('/') || 'file';
    let unique = base;
    for (let n = 2; taken.has(unique); n++) {
      const slash = base.lastIndexOf('/');
      const dot = base.lastIndexOf('.');
      const cut = dot > slash + 1 ? dot : base.length;
      unique = `${base.slice(0, cut)} (${n})${base.slice(cut)}`;
    }
    taken.add(unique);
    return unique;
  });
}
