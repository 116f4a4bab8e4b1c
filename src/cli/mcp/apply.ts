// `apply_edits`: a model's reply applied to the files under the root with
// every rule of disk mode (disk.ts and changes.ts: the reply's paths checked
// before anything is read, no path outside the root or into .git, one name
// per file, atomic writes keeping owner and mode, nothing written over a
// file that changed since it was read). The steps are those of `ln-diff
// apply` (one planDisk, src/cli/plan.ts); what differs is the output: data for the client
// and text for the model, in place of lines on stdout.

import * as path from 'node:path';
import { retryMessages } from '../../core/retry.ts';
import type { ApplyResult, Edit } from '../../core/types.ts';
import { getFormat, numberedLines } from '../../formats/index.ts';
import { predict, writeEach, type Change, type Outcome } from '../changes.ts';
import { removeStaleTemps } from '../disk.ts';
import { unifiedDiff } from '../diff.ts';
import { planDisk } from '../plan.ts';
import { CliError } from '../errors.ts';
import { changeLine, resultLines, totalsLine, type Style } from '../summary.ts';
import { outsideRoots, type Allowed } from './roots.ts';

export interface ApplyArgs {
  reply: string;
  format?: string | undefined;
  dry_run?: boolean | undefined;
}

/** One edit's outcome, as the client gets it. */
export interface EditReport {
  file: string;
  status: 'applied' | 'failed';
  match: string | null;
  offset: number | null;
  code: string | null;
  message: string;
  /** For a failed edit: the message to send back to the model (src/core/retry.ts). */
  retry: string | null;
}

/** What became of one file. */
export interface FileReport {
  file: string;
  action: 'create' | 'modify' | 'delete';
  /** Written (a dry run: would be written). */
  done: boolean;
  /** Why not, when not. */
  failure: string | null;
}

export interface ApplyReport {
  /**
   * The reply holds an edit, every edit applied and every file was written.
   * False for a reply with no edit (an empty reply, a chat answer: the
   * engine's result is `ok` there, with the warning `no-edits`), which is an
   * error result as well: `ok` is never true when the call's `isError` is.
   */
  ok: boolean;
  format: string;
  dry_run: boolean;
  edits: EditReport[];
  files: FileReport[];
  /** Reply-level findings (not tied to one edit). */
  diagnostics: { code: string; severity: string; message: string }[];
  /** A dry run: the change as a unified diff (empty when nothing would change). */
  diff: string | null;
}

/** What the steps before writing found: the engine's result and the changes it makes. */
interface Plan {
  result: ApplyResult;
  /** The edits as the engine read them, by their result's index (for the retry messages' cited lines). */
  cited: Map<number, Edit>;
  changes: Change[];
}

/** Read the reply's files and run the engine (plan.ts, as `ln-diff apply`); throws a CliError for an unsafe path, a path outside the client's roots or an unreadable file (nothing written). */
export function plan(allowed: Allowed, reply: string, formatName: string): Plan {
  if (formatName !== 'auto' && !getFormat(formatName)) throw new CliError(`unknown format "${formatName}"; call list_formats for the names`);
  const { result, cited, changes } = planDisk(allowed.base, formatName, reply, (file, t) => {
    const outside = outsideRoots(allowed, file, t.real);
    if (outside !== null) throw new CliError(outside);
  });
  return { result, cited, changes };
}

/** The plan's edits as the client gets them (each failed one with its retry message); `files` is filled by `write`. */
export function report(p: Plan, dryRun: boolean): ApplyReport {
  const retries = retryMessages(p.result, p.cited, numberedLines);
  const edits: EditReport[] = p.result.edits.map((e) => ({
    file: e.file,
    status: e.status === 'failed' ? 'failed' : 'applied',
    match: e.match,
    offset: e.offset,
    code: e.code,
    message: e.message,
    retry: retries.get(e.index) ?? null,
  }));
  return {
    // Nothing to apply is not a success (the call is an error result then: see tools.ts).
    ok: p.result.ok && p.result.edits.length > 0,
    format: p.result.format,
    dry_run: dryRun,
    edits,
    files: [],
    diagnostics: p.result.diagnostics.map((d) => ({ code: d.code, severity: d.severity, message: d.message })),
    diff: dryRun ? unifiedDiff(p.changes) : null,
  };
}

const PLAIN: Style = { ok: (s) => s, warn: (s) => s, fail: (s) => s, dim: (s) => s };

/**
 * Write the plan's changes (each file on its own, as `ln-diff apply` does)
 * or, in a dry run, predict them. Fills the report's `files` and `ok`, and
 * returns the text the model reads: the lines `ln-diff apply` prints, then
 * each failed edit's retry message, then (a dry run) the unified diff.
 */
export function write(allowed: Allowed, p: Plan, out: ApplyReport): string {
  let outcomes: Outcome[];
  if (out.dry_run) outcomes = predict(allowed.base, p.changes, false);
  else {
    removeStaleTemps(p.changes.map((c) => path.dirname(c.target.abs)));
    outcomes = writeEach(allowed.base, p.changes);
  }
  out.files = outcomes.map((o) => ({
    file: o.change.target.file,
    action: o.change.action,
    done: o.failure === undefined,
    failure: o.failure ?? null,
  }));
  out.ok = out.ok && outcomes.every((o) => o.failure === undefined);
  // A dry run's diff: the changes that would be written (not a file that could not be), as `ln-diff apply --dry-run` prints it.
  if (out.dry_run) out.diff = unifiedDiff(outcomes.filter((o) => o.failure === undefined).map((o) => o.change));

  const notDone = outcomes.filter((o) => o.failure !== undefined);
  const lines = [
    ...resultLines(p.result, PLAIN),
    ...outcomes.map((o) => changeLine({ file: o.change.target.file, action: o.change.action, failure: o.failure, note: o.note }, out.dry_run, PLAIN)),
    totalsLine(
      p.result,
      {
        total: p.changes.length,
        changed: outcomes.length - notDone.length,
        failed: notDone.filter((o) => !o.heldBack).length,
        heldBack: notDone.filter((o) => o.heldBack).length,
        dryRun: out.dry_run,
        atomic: false,
        held: false,
      },
      PLAIN,
    ),
  ];
  const retries = out.edits.map((e) => e.retry).filter((m): m is string => m !== null);
  let text = lines.join('\n');
  if (retries.length > 0) text += '\n\n' + retries.join('\n\n');
  if (out.diff) text += '\n\n' + out.diff;
  return text;
}
