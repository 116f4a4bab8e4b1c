// ln-diff: a thin command line over the engine (src/formats/index.ts).
// Everything about replies, matching and applying is the engine's; this file
// only moves text between the engine, stdin/stdout and the disk.

import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import type { ApplyRequest, ApplyResult, Format } from '../core/types.ts';
import {
  FORMAT_NAMES,
  RequestError,
  applyRequest,
  detectFormat,
  getFormat,
  validateRequest,
} from '../formats/index.ts';
import { parseCommand, type Command } from './args.ts';
import {
  commitStaged,
  decodeUtf8,
  deleteTarget,
  dropStaged,
  openBase,
  readTarget,
  readTextFile,
  removeStaleTemps,
  resolveTarget,
  sameFile,
  stageTarget,
  undoCreated,
  writeProblem,
  writeTarget,
  type Staged,
  type Target,
} from './disk.ts';
import { CliError, EXIT_FAILED, EXIT_INTERNAL, EXIT_OK, EXIT_USAGE, oneLine } from './errors.ts';
import { changeLine, editRef, resultLines, styleFor, totalsLine, type FileChangeLine } from './summary.ts';

export function usage(): string {
  const names = FORMAT_NAMES.join(', ');
  return `Usage: ln-diff <command> [options]

Apply a model's edit reply (ln-diff editblocks and other formats) to files.

Commands:
  apply --json                  Read one JSON request on stdin, write one JSON result on stdout:
                                  {"format", "files": {path: text}, "response", "options"?}
  apply [options] [REPLY_FILE]  Apply a reply to files on disk (reply from stdin when REPLY_FILE
                                is omitted or "-"), then print one line per edit and a total.
    --base DIR                  Directory the reply's paths are relative to (default: .)
    --format NAME               Reply format: ${names} (default: auto)
    --dry-run                   Show what would change; write nothing
    --atomic                    All or nothing: write no file unless every edit applied
  read [--format NAME] FILE     Print the view of FILE that a model is shown (default: ln-diff)
  help, -h, --help              Show this help
  -v, --version                 Print the version

Exit status: 0 every edit applied (and every file was written); 1 some edit failed, or a
file could not be written; 2 malformed request, usage error, unsafe path or unreadable file
(nothing written); 3 internal error.
`;
}

function version(): string {
  const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version?: string };
  return String(pkg.version ?? '0.0.0');
}

function out(text: string): void {
  process.stdout.write(text);
}

function stripBom(text: string): string {
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

/** All of stdin as UTF-8 text (exact: a BOM is kept, CRLF untouched). */
async function readStdin(what: string): Promise<string> {
  if (process.stdin.isTTY) throw new CliError(`expected ${what} on stdin (pipe it in)`);
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  const text = decodeUtf8(Buffer.concat(chunks));
  if (text === null) throw new CliError(`${what} on stdin is not valid UTF-8`);
  return text;
}

function checkFormatName(name: string): void {
  if (!FORMAT_NAMES.includes(name))
    throw new CliError(`unknown format "${name}"; expected one of: ${FORMAT_NAMES.join(', ')}`);
}

// ---------------------------------------------------------------- apply --json

async function applyJson(): Promise<number> {
  const text = await readStdin('a JSON request');
  // A BOM before the document is an encoding mark, not part of the JSON.
  const json = stripBom(text);
  if (json.trim() === '') throw new CliError('invalid JSON request: stdin is empty');
  let value: unknown;
  try {
    value = JSON.parse(json);
  } catch (err) {
    throw new CliError(`invalid JSON request: ${(err as Error).message}`);
  }
  const request = validateRequest(value);
  const result = applyRequest(request);
  out(JSON.stringify(result) + '\n');
  return result.ok ? EXIT_OK : EXIT_FAILED;
}

// ---------------------------------------------------------------- apply (disk)

/**
 * The paths a reply's edits name, as the format reads them given the files
 * known to exist, each with the first edit that names it (for messages).
 */
function editPaths(format: Format, reply: string, known: string[]): Map<string, string> {
  const { edits } = format.parse(reply, { files: known });
  const paths = new Map<string, string>();
  for (const e of edits)
    for (const file of [e.file, e.moveTo ?? '']) if (file !== '' && !paths.has(file)) paths.set(file, editRef({ reply: e.span }));
  return paths;
}

interface Change {
  target: Target;
  action: FileChangeLine['action'];
  /** The new text; null deletes the file. */
  text: string | null;
  /** The file's text before (to put it back when an --atomic write fails half way). */
  before: string | null;
}

/** What became of a change: done, or not with the reason (and a note when done against the plan). */
interface Outcome {
  change: Change;
  failure?: string;
  /** Not done only because another change was not (--atomic, or a deletion after a failed write). */
  heldBack?: true;
  note?: string;
}

const reason = (err: unknown) => (err instanceof CliError ? err.message : String(err));

/** Why a deletion is not done: deletions come last, and only when every write succeeded. */
const NO_DELETION = 'a file could not be written, so no file is deleted (a moved file keeps its old name)';

/** Why --atomic did not write a file it could have written. */
const becauseAtomic = (failed: Change) => `--atomic: ${failed.target.file} could not be ${failed.text === null ? 'deleted' : 'written'}`;

/** Each change on its own (the default): writes first, then deletions, and those only when every write succeeded. */
function writeEach(base: string, changes: readonly Change[]): Outcome[] {
  const outcomes = new Map<Change, Outcome>();
  for (const c of changes) {
    if (c.text === null) continue;
    const problem = writeProblem(base, c.target, 'write');
    if (problem !== null) {
      outcomes.set(c, { change: c, failure: problem });
      continue;
    }
    try {
      writeTarget(base, c.target, c.text);
      outcomes.set(c, { change: c });
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
function writeAllOrNothing(base: string, changes: readonly Change[]): Outcome[] {
  const none = (failed: Change, why: string): Outcome[] =>
    changes.map((c) => (c === failed ? { change: c, failure: why } : { change: c, failure: becauseAtomic(failed), heldBack: true }));
  for (const c of changes) {
    const problem = writeProblem(base, c.target, c.text === null ? 'delete' : 'write');
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
  return changes.map((c) => ({ change: c }));
}

/** What would become of each change (a dry run): the same checks as a real write, nothing written. */
function predict(base: string, changes: readonly Change[], atomic: boolean): Outcome[] {
  const problems = new Map(changes.map((c) => [c, writeProblem(base, c.target, c.text === null ? 'delete' : 'write')]));
  const first = changes.find((c) => problems.get(c) !== null);
  const writeFails = changes.some((c) => c.text !== null && problems.get(c) !== null);
  return changes.map((c) => {
    const problem = problems.get(c);
    if (problem != null) return { change: c, failure: problem };
    if (atomic && first) return { change: c, failure: becauseAtomic(first), heldBack: true };
    if (c.text === null && writeFails) return { change: c, failure: NO_DELETION, heldBack: true };
    return { change: c };
  });
}

/** Refuse two names for one file (rule 3 of disk.ts): the engine would edit each name blind to the other. */
function refuseTwoNames(targets: Iterable<Target>): void {
  const seen: Target[] = [];
  for (const t of targets) {
    const other = seen.find((s) => sameFile(s, t));
    if (other)
      throw new CliError(
        `"${t.file}"${t.ref ? ` (${t.ref})` : ''} and "${other.file}"${other.ref ? ` (${other.ref})` : ''} name the same file; refusing to apply (name each file one way)`,
      );
    seen.push(t);
  }
}

async function applyDisk(command: Extract<Command, { kind: 'apply' }>): Promise<number> {
  checkFormatName(command.format);
  const base = openBase(command.base);
  // The reply file's BOM (if any) marks its encoding; it is not reply text.
  const reply = stripBom(command.reply === null ? await readStdin('a reply') : readTextFile(command.reply));
  const format = command.format === 'auto' ? detectFormat(reply).format : getFormat(command.format);
  if (!format) throw new CliError(`unknown format "${command.format}"`);

  // Every path is checked before anything is read.
  const targets = new Map<string, Target>();
  const refs = new Map<string, string>();
  const target = (file: string): Target => {
    const known = targets.get(file);
    if (known) return known;
    const t = resolveTarget(base, file, refs.get(file));
    targets.set(file, t);
    return t;
  };

  // Parse until the set of existing files the parser is told about is stable
  // (a parser may read paths differently once it knows which files exist).
  let existing: string[] = [];
  for (let round = 0; round < 3; round++) {
    const paths = editPaths(format, reply, existing);
    for (const [file, ref] of paths) if (!refs.has(file)) refs.set(file, ref);
    for (const file of paths.keys()) target(file);
    const now = [...targets.values()].filter((t) => t.exists).map((t) => t.file);
    if (now.length === existing.length) break;
    existing = now;
  }
  refuseTwoNames([...targets.values()].filter((t) => t.exists));

  // A map with no prototype: a file named `__proto__` is a file like any other.
  const files: Record<string, string> = Object.create(null);
  for (const t of [...targets.values()]) {
    if (!t.exists) continue;
    const read = readTarget(t);
    targets.set(t.file, read.target);
    files[t.file] = read.text;
  }

  const request: ApplyRequest = { format: command.format, files, response: reply };
  const result: ApplyResult = applyRequest(request);

  // Work out every change (and check every path the result names) before writing anything.
  const changes: Change[] = [];
  const named: Target[] = [];
  for (const [file, after] of Object.entries(result.files)) {
    const before = Object.hasOwn(files, file) ? files[file] : undefined;
    const t = target(file);
    named.push(t);
    if (t.exists && before === undefined)
      throw new CliError(
        `engine result names ${file}, which exists but was not in the request; refusing to overwrite it`,
        EXIT_INTERNAL,
      );
    if (after === null) {
      if (before !== undefined) changes.push({ target: t, action: 'delete', text: null, before });
    } else if (after !== before) {
      changes.push({ target: t, action: before === undefined ? 'create' : 'modify', text: after, before: before ?? null });
    }
  }
  refuseTwoNames(named);

  const style = styleFor(process.stdout);
  const lines = resultLines(result, style);
  if (lines.length > 0) out(lines.join('\n') + '\n');
  // --atomic: an edit failed, so every file stays as it is.
  const held = command.atomic && !result.ok;
  let outcomes: Outcome[] = [];
  if (!held) {
    if (command.dryRun) outcomes = predict(base, changes, command.atomic);
    else {
      for (const file of removeStaleTemps(changes.map((c) => path.dirname(c.target.abs))))
        out(`  ${style.dim('removed')} ${path.relative(base, file)} ${style.dim('(a temporary file of an ln-diff run that was stopped)')}\n`);
      outcomes = command.atomic ? writeAllOrNothing(base, changes) : writeEach(base, changes);
    }
    for (const o of outcomes)
      out(changeLine({ file: o.change.target.file, action: o.change.action, failure: o.failure, note: o.note }, command.dryRun, style) + '\n');
  }
  const notDone = outcomes.filter((o) => o.failure !== undefined);
  const totals = {
    total: changes.length,
    changed: outcomes.length - notDone.length,
    failed: notDone.filter((o) => !o.heldBack).length,
    heldBack: notDone.filter((o) => o.heldBack).length,
    dryRun: command.dryRun,
    atomic: command.atomic,
    held,
  };
  out(totalsLine(result, totals, style) + '\n');
  return result.ok && notDone.length === 0 ? EXIT_OK : EXIT_FAILED;
}

// ---------------------------------------------------------------- read

async function read(command: Extract<Command, { kind: 'read' }>): Promise<number> {
  checkFormatName(command.format);
  const format = getFormat(command.format);
  if (!format) throw new CliError(`format "${command.format}" has no view; name a format with --format`);
  if (!format.view) throw new CliError(`format "${format.name}" has no view`);
  const text = command.file === null ? await readStdin('a file') : readTextFile(command.file);
  const view = format.view(text);
  out(view === '' || view.endsWith('\n') ? view : view + '\n');
  return EXIT_OK;
}

// ---------------------------------------------------------------- main

/** Run the CLI; returns the exit code. Errors are one `ln-diff: …` line on stderr. */
export async function main(argv: readonly string[]): Promise<number> {
  try {
    const command = parseCommand(argv);
    switch (command.kind) {
      case 'help':
        out(usage());
        return EXIT_OK;
      case 'version':
        out(version() + '\n');
        return EXIT_OK;
      case 'apply-json':
        return await applyJson();
      case 'apply':
        return await applyDisk(command);
      case 'read':
        return await read(command);
    }
  } catch (err) {
    if (err instanceof CliError) {
      process.stderr.write(`ln-diff: ${oneLine(err.message)}\n`);
      return err.exitCode;
    }
    if (err instanceof RequestError) {
      process.stderr.write(`ln-diff: ${oneLine(err.message)}\n`);
      return EXIT_USAGE;
    }
    const message = err instanceof Error ? `${err.name}: ${err.message}` : String(err);
    process.stderr.write(`ln-diff: internal error: ${oneLine(message)}\n`);
    if (process.env.LN_DIFF_DEBUG && err instanceof Error && err.stack) process.stderr.write(err.stack + '\n');
    return EXIT_INTERNAL;
  }
}
