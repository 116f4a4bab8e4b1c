// Writing a set of file changes to disk (`ln-diff apply` without --json):
// each file on its own (the default) or all or nothing (--atomic), and what a
// dry run predicts. Every file-system access is in disk.ts; this module only
// orders the changes and records what became of each.
//
// Before anything: two written files of which one would have to be the
// other's directory (`a.txt`, `a.txt/b.txt`) are both refused.
// Order: writes first, deletions after, and deletions only when every write
// succeeded (a moved file keeps its old name when its new one could not be
// written). Without --atomic, a file that cannot be written does not stop the
// others; each change's outcome says what really happened.

import * as path from 'node:path';
import {
  commitStaged,
  deleteTarget,
  dropStaged,
  stageTarget,
  undoCreated,
  writeProblem,
  writeTarget,
  type Staged,
  type Target,
} from './disk.ts';
import { CliError } from './errors.ts';
import type { FileChangeLine } from './summary.ts';

export interface Change {
  target: Target;
  action: FileChangeLine['action'];
  /** The new text; null deletes the file. */
  text: string | null;
  /** The file's text before (to put it back when an --atomic write fails half way). */
  before: string | null;
  /** Said on the file's line once it is written (a new name that looks like an existing one). */
  warning?: string;
}

/** What became of a change: done, or not with the reason (and a note when done against the plan). */
export interface Outcome {
  change: Change;
  failure?: string;
  /** Not done only because another change was not (--atomic, or a deletion after a failed write). */
  heldBack?: true;
  note?: string;
  /** Done as asked, with a side effect to know of (`hardLinks`). */
  warning?: string;
}

/**
 * What becomes of the other names of a file that is replaced (disk.ts, rule
 * 7): they keep the old text. Null for a file with one name, or one not
 * replaced (created, deleted).
 */
export function hardLinks(c: Change): string | null {
  const n = c.action === 'modify' ? (c.target.stat?.nlink ?? 1) - 1 : 0;
  if (n < 1) return null;
  return `its ${n === 1 ? 'other name (a hard link) keeps' : `${n} other names (hard links) keep`} the old text: ln-diff replaces a file by a new copy`;
}

/** A change done: with its warning, or the hard-link one, when there is one. */
function completed(c: Change): Outcome {
  const warning = hardLinks(c) ?? c.warning ?? null;
  return warning === null ? { change: c } : { change: c, warning };
}

const reason = (err: unknown) => (err instanceof CliError ? err.message : String(err));

/** Why a deletion is not done: deletions come last, and only when every write succeeded. */
const NO_DELETION = 'a file could not be written, so no file is deleted (a moved file keeps its old name)';

/** Why --atomic did not write a file it could have written. */
const becauseAtomic = (failed: Change) => `--atomic: ${failed.target.file} could not be ${failed.text === null ? 'deleted' : 'written'}`;

/**
 * Why a change cannot be made alongside the others, whatever the disk
 * allows, or null: two written files of which one would have to be the
 * other's directory (`a.txt` and `a.txt/b.txt`). Neither is written (which
 * one the reply meant is a guess), and this is found before anything is
 * written, so that --atomic writes nothing.
 */
export function clashProblem(c: Change, changes: readonly Change[]): string | null {
  if (c.text === null) return null;
  const inside = (a: Change, b: Change) => a.target.abs.startsWith(b.target.abs + path.sep);
  const other = changes.find((d) => d !== c && d.text !== null && (inside(c, d) || inside(d, c)));
  if (!other) return null;
  const [file, under] = inside(c, other) ? [other, c] : [c, other];
  return `the reply writes both ${file.target.file} and ${under.target.file}, which would need ${file.target.file} to be a directory; neither is written`;
}

/** Why a change cannot be made: `clashProblem`, else disk.ts's `writeProblem`. */
const problemOf = (base: string, c: Change, changes: readonly Change[]): string | null =>
  clashProblem(c, changes) ?? writeProblem(base, c.target, c.text === null ? 'delete' : 'write');

/** Each change on its own (the default): writes first, then deletions, and those only when every write succeeded. */
export function writeEach(base: string, changes: readonly Change[]): Outcome[] {
  const outcomes = new Map<Change, Outcome>();
  for (const c of changes) {
    if (c.text === null) continue;
    const problem = problemOf(base, c, changes);
    if (problem !== null) {
      outcomes.set(c, { change: c, failure: problem });
      continue;
    }
    try {
      writeTarget(base, c.target, c.text);
      outcomes.set(c, completed(c));
    } catch (err) {
      outcomes.set(c, { change: c, failure: reason(err) });
    }
  }
  const writeFailed = [...outcomes.values()].some((o) => o.failure !== undefined);
  for (const c of changes) {
    if (c.text !== null) continue;
    if (writeFailed) {
      outcomes.set(c, { change: c, failure: NO_DELETION, heldBack: true });
      continue;
    }
    const problem = writeProblem(base, c.target, 'delete');
    if (problem !== null) {
      outcomes.set(c, { change: c, failure: problem });
      continue;
    }
    try {
      deleteTarget(c.target);
      outcomes.set(c, { change: c });
    } catch (err) {
      outcomes.set(c, { change: c, failure: reason(err) });
    }
  }
  return changes.map((c) => outcomes.get(c)!);
}

/**
 * Write every change or none (--atomic): all new texts are first written
 * next to their files; only when every one of them is on disk are they
 * renamed into place, then the deletions done. A failure before that leaves
 * every file as it was; a failure while renaming or deleting puts back what
 * was already done. The outcome of each change says which failed and why.
 */
export function writeAllOrNothing(base: string, changes: readonly Change[]): Outcome[] {
  const none = (failed: Change, why: string): Outcome[] =>
    changes.map((c) => (c === failed ? { change: c, failure: why } : { change: c, failure: becauseAtomic(failed), heldBack: true }));
  for (const c of changes) {
    const problem = problemOf(base, c, changes);
    if (problem !== null) return none(c, problem);
  }
  const staged = new Map<Change, Staged>();
  for (const c of changes) {
    if (c.text === null) continue;
    try {
      staged.set(c, stageTarget(base, c.target, c.text));
    } catch (err) {
      for (const s of staged.values()) dropStaged(s);
      return none(c, reason(err));
    }
  }
  const order = [...changes.filter((c) => c.text !== null), ...changes.filter((c) => c.text === null)];
  const done: Change[] = [];
  for (const c of order) {
    try {
      if (c.text === null) deleteTarget(c.target);
      else commitStaged(staged.get(c)!);
      done.push(c);
    } catch (err) {
      for (const [other, s] of staged) if (other !== c && !done.includes(other)) dropStaged(s);
      const outcomes = new Map(none(c, reason(err)).map((o) => [o.change, o]));
      for (const d of done.reverse()) {
        try {
          if (d.before === null) undoCreated(staged.get(d)!);
          else writeTarget(base, d.target, d.before, false);
        } catch (undoErr) {
          outcomes.set(d, { change: d, note: `--atomic could not put it back: ${reason(undoErr)}` });
        }
      }
      return changes.map((x) => outcomes.get(x)!);
    }
  }
  return changes.map(completed);
}

/** What would become of each change (a dry run): the same checks as a real write, nothing written. */
export function predict(base: string, changes: readonly Change[], atomic: boolean): Outcome[] {
  const problems = new Map(changes.map((c) => [c, problemOf(base, c, changes)]));
  const first = changes.find((c) => problems.get(c) !== null);
  const writeFails = changes.some((c) => c.text !== null && problems.get(c) !== null);
  return changes.map((c) => {
    const problem = problems.get(c);
    if (problem != null) return { change: c, failure: problem };
    if (atomic && first) return { change: c, failure: becauseAtomic(first), heldBack: true };
    if (c.text === null && writeFails) return { change: c, failure: NO_DELETION, heldBack: true };
    return completed(c);
  });
}

/**
 * Refuse two names for one file (rule 3 of disk.ts): the same real path, or
 * (existing files) the same inode. The engine checks overlaps per name, so it
 * would edit each name blind to the other, and the last write would win.
 */
export function refuseTwoNames(targets: Iterable<Target>): void {
  const byReal = new Map<string, Target>();
  const byInode = new Map<string, Target>();
  for (const t of targets) {
    const inode = t.stat ? `${t.stat.dev}:${t.stat.ino}` : null;
    const other = byReal.get(t.real) ?? (inode !== null ? byInode.get(inode) : undefined);
    if (other)
      throw new CliError(
        `"${t.file}"${t.ref ? ` (${t.ref})` : ''} and "${other.file}"${other.ref ? ` (${other.ref})` : ''} name the same file; refusing to apply (name each file one way)`,
      );
    byReal.set(t.real, t);
    if (inode !== null) byInode.set(inode, t);
  }
}
