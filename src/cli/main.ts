// ln-diff: a thin command line over the engine (src/formats/index.ts).
// Everything about replies, matching and applying is the engine's; this file
// only moves text between the engine, stdin/stdout and the disk.

import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { confusableMessage } from '../core/lookalikes.ts';
import type { ApplyRequest, ApplyResult, Format } from '../core/types.ts';
import { FORMAT_NAMES, applyRequest, detectFormat, getFormat } from '../formats/index.ts';
import { RequestError, validateRequest } from '../formats/validate.ts';
import { parseCommand, type Command } from './args.ts';
import { defaultJobs } from './jobs.ts';
import { predict, refuseTwoNames, writeAllOrNothing, writeEach, type Change, type Outcome } from './changes.ts';
import { decodeUtf8, openBase, readAllStdin, readTarget, readTextFile, removeStaleTemps, resolveTarget, stdinIsTerminal, lookalikeEntry, spellingSiblings, type Listings, type Target } from './disk.ts';
import { CliError, EXIT_FAILED, EXIT_INTERNAL, EXIT_OK, EXIT_USAGE, printable, shown } from './errors.ts';
import { changeLine, editRef, resultLines, styleFor, totalsLine } from './summary.ts';
import { writeStdout } from './stdout.ts';

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
  conformance --cmd "PROGRAM"   Run the conformance suite through PROGRAM (a shell command that
                                reads a request on stdin and prints a result, like apply --json);
                                print each failure with its differences, then N passed, N failed
    --format NAME               Only the cases in this format (auto included)
    --page PAGE                 Only the cases of this spec page (ln-diff, formats/udiff, ...)
    --example N                 Only example N (of each selected page)
    --suite FILE                The suite (default: spec/conformance.json of this package)
    --jobs N                    Programs run at once (default: ${defaultJobs()})
    --timeout SECONDS           Time allowed per case (default: 30)
  mcp [options]                 Serve the Model Context Protocol on stdio: read_file, apply_edits
                                (every rule of apply on disk), list_formats, and each format's prompts
    --root DIR                  Directory the paths are relative to (default: .); the client's roots
                                narrow it
    --format NAME               apply_edits's default format (default: auto)
    --read-only                 apply_edits only does dry runs
  bench --endpoint URL --model NAME [options]
                                Ask a model for every bench task in every edit format and score
                                the replies (ln-diff bench --help for its options)
  help, -h, --help              Show this help
  -v, --version                 Print the version

Exit status: 0 every edit applied (and every file was written); 1 some edit failed, or a
file could not be written; 2 malformed request, usage error, unsafe path or unreadable file
(nothing written); 3 internal error. conformance: 0 every case passed, 1 some case failed.
`;
}

function version(): string {
  const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version?: string };
  return String(pkg.version ?? '0.0.0');
}

const out = writeStdout;

function stripBom(text: string): string {
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

/** All of stdin as UTF-8 text (exact: a BOM is kept, CRLF untouched). */
async function readStdin(what: string): Promise<string> {
  if (stdinIsTerminal()) throw new CliError(`expected ${what} on stdin (pipe it in)`);
  const text = decodeUtf8(await readAllStdin());
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

async function applyDisk(command: Extract<Command, { kind: 'apply' }>): Promise<number> {
  checkFormatName(command.format);
  const base = openBase(command.base);
  // The reply file's BOM (if any) marks its encoding; it is not reply text.
  const reply = stripBom(command.reply === null ? await readStdin('a reply') : readTextFile(command.reply));
  const format = command.format === 'auto' ? detectFormat(reply).format : getFormat(command.format);
  if (!format) throw new CliError(`unknown format "${command.format}"`);

  // Every path is checked before anything is read. A path is known by the
  // name the reply writes and by the name the directory entries have
  // (`diskSpelling`: another letter case or Unicode normalisation); the
  // engine is given the latter.
  const targets = new Map<string, Target>();
  const refs = new Map<string, string>();
  const listings: Listings = new Map();
  const target = (file: string): Target => {
    const known = targets.get(file);
    if (known) return known;
    let t = resolveTarget(base, file, refs.get(file), listings);
    t = targets.get(t.file) ?? t;
    targets.set(file, t);
    targets.set(t.file, t);
    // Entries that differ from it only in form or letter case are given too, so that the engine
    // takes the one the reply writes exactly; one that could not be edited anyway (a symlink,
    // not text) is left out rather than refusing the reply for a file it may not name.
    if (t.exists)
      for (const sibling of spellingSiblings(base, t.file, listings)) {
        if (targets.has(sibling)) continue;
        try {
          const s = resolveTarget(base, sibling, undefined, listings);
          if (s.exists && s.file === sibling) readTarget(s);
          else continue;
        } catch {
          continue;
        }
        target(sibling);
      }
    return t;
  };
  const unique = () => [...new Set(targets.values())];

  // Parse until the set of existing files the parser is told about is stable
  // (a parser may read paths differently once it knows which files exist).
  let existing: string[] = [];
  for (let round = 0; round < 3; round++) {
    const paths = editPaths(format, reply, existing);
    for (const [file, ref] of paths) if (!refs.has(file)) refs.set(file, ref);
    for (const file of paths.keys()) target(file);
    const now = unique().filter((t) => t.exists).map((t) => t.file);
    if (now.length === existing.length) break;
    existing = now;
  }
  refuseTwoNames(unique().filter((t) => t.exists));

  // A map with no prototype: a file named `__proto__` is a file like any other.
  const files: Record<string, string> = Object.create(null);
  for (const t of unique()) {
    if (!t.exists) continue;
    const read = readTarget(t);
    for (const [name, known] of targets) if (known === t) targets.set(name, read.target);
    files[t.file] = read.text;
  }

  const request: ApplyRequest = { format: command.format, files, response: reply };
  const result: ApplyResult = applyRequest(request);

  // Work out every change (and check every path the result names) before writing anything.
  const changes: Change[] = [];
  const named: Target[] = [];
  for (const [file, after] of Object.entries(result.files)) {
    const t = target(file);
    const before = Object.hasOwn(files, t.file) ? files[t.file] : undefined;
    named.push(t);
    if (t.exists && before === undefined)
      throw new CliError(
        `engine result names ${file}, which exists but was not in the request; refusing to overwrite it`,
        EXIT_INTERNAL,
      );
    if (after === null) {
      if (before !== undefined) changes.push({ target: t, action: 'delete', text: null, before });
    } else if (after !== before) {
      const change: Change = { target: t, action: before === undefined ? 'create' : 'modify', text: after, before: before ?? null };
      // A new name like an entry on disk the engine was not given (it warns about those it was).
      const like = before === undefined ? lookalikeEntry(base, t.file, listings) : null;
      if (like !== null && !Object.hasOwn(files, like)) change.warning = `confusable-path: ${confusableMessage(t.file, like)}`;
      changes.push(change);
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
        out(`  ${style.dim('removed')} ${printable(path.relative(base, file))} ${style.dim('(a temporary file of an ln-diff run that was stopped)')}\n`);
      outcomes = command.atomic ? writeAllOrNothing(base, changes) : writeEach(base, changes);
    }
    for (const o of outcomes)
      out(changeLine({ file: o.change.target.file, action: o.change.action, failure: o.failure, note: o.note, warning: o.warning }, command.dryRun, style) + '\n');
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
    // `apply --json` as written by every harness: the command parseCommand reads, without loading Node's argument parser.
    const command: Command = argv.length === 2 && argv[0] === 'apply' && argv[1] === '--json' ? { kind: 'apply-json' } : parseCommand(argv);
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
      case 'conformance':
        return await (await import('./conformance.ts')).runConformance(command, out);
      case 'bench':
        return await (await import('./bench.ts')).bench(command.args);
      case 'mcp':
        return await (await import('./mcp.ts')).mcp(command);
    }
  } catch (err) {
    if (err instanceof CliError) {
      process.stderr.write(`ln-diff: ${shown(err.message)}\n`);
      return err.exitCode;
    }
    if (err instanceof RequestError) {
      process.stderr.write(`ln-diff: ${shown(err.message)}\n`);
      return EXIT_USAGE;
    }
    const message = err instanceof Error ? `${err.name}: ${err.message}` : String(err);
    process.stderr.write(`ln-diff: internal error: ${shown(message)}\n`);
    if (process.env.LN_DIFF_DEBUG && err instanceof Error && err.stack) process.stderr.write(err.stack + '\n');
    return EXIT_INTERNAL;
  }
}
