// ln-diff: a thin command line over the engine (src/formats/index.ts).
// Everything about replies, matching and applying is the engine's; this file
// only moves text between the engine, stdin/stdout and the disk.

import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { FORMAT_NAMES, applyRequest, getFormat } from '../formats/index.ts';
import { RequestError, validateRequest } from '../formats/validate.ts';
import { parseCommand, type Command } from './args.ts';
import { defaultJobs } from './jobs.ts';
import { predict, writeAllOrNothing, writeEach, type Outcome } from './changes.ts';
import { notOnDisk, planDisk } from './plan.ts';
import { decodeUtf8, openBase, readAllStdin, readTextFile, removeStaleTemps, stdinIsTerminal } from './disk.ts';
import { CliError, EXIT_FAILED, EXIT_INTERNAL, EXIT_NO_EDITS, EXIT_OK, EXIT_USAGE, printable, shown } from './errors.ts';
import { changeLine, resultLines, styleFor, totalsLine } from './summary.ts';
import { writeStdout } from './stdout.ts';
import { unifiedDiff } from './diff.ts';

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
    --dry-run                   Write nothing; print what would change, then the change as a
                                unified diff (as the MCP server's dry run returns it)
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
                                A message may be up to 536,870,888 bytes (512 MiB); a longer one
                                is answered with an error naming the limit
  bench --endpoint URL --model NAME [options]
                                Ask a model for every bench task in every edit format and score
                                the replies (ln-diff bench --help for its options)
  help, -h, --help              Show this help
  -v, --version                 Print the version

Exit status: 0 every edit applied (and every file was written); 1 some edit failed (an edit
already applied too: already-applied, nothing written twice), or a file could not be written;
2 malformed request, usage error, unsafe path or unreadable file (nothing written); 3 internal
error; 4 (apply on disk) the reply holds no edit, as an empty reply or a chat answer: nothing
applied, nothing written. apply --json exits 0 when its result is ok, 1 otherwise: a reply with
no edit is ok there (warning no-edits, edits []). conformance: 0 every case passed, 1 some case
failed.
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

async function applyDisk(command: Extract<Command, { kind: 'apply' }>): Promise<number> {
  checkFormatName(command.format);
  const base = openBase(command.base);
  // The reply file's BOM (if any) marks its encoding; it is not reply text.
  const reply = stripBom(command.reply === null ? await readStdin('a reply') : readTextFile(command.reply));
  const planned = planDisk(base, command.format, reply);
  const result = notOnDisk(planned.result, base, Object.keys(planned.files));
  const changes = planned.changes;

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
  // A dry run: the changes that would be written as a unified diff, as the MCP server's dry run returns them.
  const written = outcomes.filter((o) => o.failure === undefined).map((o) => o.change);
  if (command.dryRun && written.length > 0) out('\n' + unifiedDiff(written));
  if (!result.ok || notDone.length > 0) return EXIT_FAILED;
  // Nothing to apply (an empty reply, a chat answer) is not a success: the pipeline must stop.
  return result.edits.length === 0 ? EXIT_NO_EDITS : EXIT_OK;
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
