// `ln-diff bench`: the format bench from the command line. It reads the
// suite and the prompts shipped with the package, checks everything the
// command line names before sending anything, runs src/bench/run.ts (the
// same run the Bench page makes), shows one progress line on a terminal,
// and prints the table, or the run as JSON. Ctrl-C stops the run and still
// prints what finished. The API key comes from the environment only and is
// never printed or written.

import { readFileSync, readdirSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { runJson } from '../bench/file.ts';
import { formatPlan, planOf, promptTable, sectionFor, type FamilyKey, type PromptTable } from '../bench/prompts.ts';
import { runBench } from '../bench/run.ts';
import { BENCH_FORMATS, selectTasks } from '../bench/select.ts';
import { askedCount, best, summarize } from '../bench/summary.ts';
import { parseSuite, type BenchSuite, type BenchTask } from '../bench/tasks.ts';
import type { BenchConfig, BenchEvent, BenchRun, FormatPlan } from '../bench/types.ts';
import { FORMAT_NAMES } from '../formats/index.ts';
import { runBlocker } from '../chat/requirements.ts';
import { badPortMessage } from '../chat/ports.ts';
import { BENCH_USAGE, keyFrom, keyVariables, parseBenchArgs, type BenchArgs } from './bench-args.ts';
import { benchTable, progressAfter, progressLine, startLine, startProgress, thresholdFailures } from './bench-table.ts';
import { readPackageData } from './package-data.ts';
import { writeStdout } from './stdout.ts';
import { CliError, EXIT_FAILED, EXIT_INTERNAL, EXIT_OK, EXIT_USAGE, oneLine, shown } from './errors.ts';
import { styleFor } from './summary.ts';

/** The exit status of a run stopped with Ctrl-C (128 + SIGINT, as shells report it). */
export const EXIT_STOPPED = 130;

/** The package's root: two levels up from src/cli/bench.ts and from the bundle lib/cli/main.cjs alike. */
const ROOT = new URL('../../', import.meta.url);
const packageFile = (name: string) => fileURLToPath(new URL(name, ROOT));

const lower = (s: string) => s.charAt(0).toLowerCase() + s.slice(1);

function engineName(): string {
  const pkg = JSON.parse(readFileSync(packageFile('package.json'), 'utf8')) as { version?: string };
  return `ln-diff ${String(pkg.version ?? '0.0.0')}`;
}

/** The package's task suite (bench/tasks/suite.json). A missing or broken one is an install problem: exit 3. */
function loadSuite(): BenchSuite {
  const file = packageFile('bench/tasks/suite.json');
  try {
    // bench/tasks/suite.json in a checkout, compressed in the tarball.
    return parseSuite(JSON.parse(readPackageData('bench/tasks/suite.json')));
  } catch (err) {
    throw new CliError(`cannot read the bench suite ${file}: ${(err as Error).message}; reinstall ln-diff`, EXIT_INTERNAL);
  }
}

/** The package's prompt pages (spec/prompts/<format>.md), as a table. */
function loadPrompts(): PromptTable {
  const dir = packageFile('spec/prompts/');
  try {
    const pages = readdirSync(dir)
      .filter((name) => name.endsWith('.md'))
      .sort()
      .map((name) => ({ format: name.slice(0, -3), markdown: readFileSync(path.join(dir, name), 'utf8') }));
    return promptTable(pages);
  } catch (err) {
    throw new CliError(`cannot read the prompts in ${dir}: ${(err as Error).message}; reinstall ln-diff`, EXIT_INTERNAL);
  }
}

function hasCredentials(url: string): boolean {
  try {
    const parsed = new URL(url.trim());
    return parsed.username !== '' || parsed.password !== '';
  } catch {
    return false;
  }
}

/** The endpoint checked by the page's own rule (src/chat/requirements.ts), said from its data in command-line words. */
function checkEndpoint(args: BenchArgs, key: string): void {
  const blocker = runBlocker({ provider: args.api, baseUrl: args.endpoint, model: args.model, key });
  if (blocker === null) return;
  const vars = keyVariables(args.api).join(' or ');
  const keyHint = `set ${vars} in the environment (not on the command line)`;
  if (blocker.field === 'base') {
    // A URL holding a user or password is not repeated: that may be the key.
    if (hasCredentials(args.endpoint)) throw new CliError(`--endpoint: a key does not go in the URL; ${keyHint}`);
    const problem = blocker.base;
    // Node's fetch refuses the same ports browsers do.
    const why =
      problem.kind === 'port' ? badPortMessage(problem.port, 'fetch') : problem.kind === 'url' ? `${problem.message}${/[.!?]$/.test(problem.message) ? '' : '.'}` : lower(blocker.reason);
    throw new CliError(`--endpoint '${args.endpoint}': ${why}`);
  }
  const { missing, needs } = blocker;
  if (missing.model && missing.key) throw new CliError(`--model is empty and no API key is set: name the model, and ${keyHint}`);
  if (missing.model) {
    const server = needs.model.server ? `: ${needs.model.server} needs one (for example ${needs.model.example})` : '';
    throw new CliError(`--model is empty; name the model${server}.`);
  }
  throw new CliError(`no API key for ${needs.keyFor ?? 'this endpoint'} (${args.endpoint}): ${keyHint}`);
}

function chooseFormats(args: BenchArgs): string[] {
  const formats = args.formats ?? [...BENCH_FORMATS];
  args.formats?.forEach((f, k) => {
    if (BENCH_FORMATS.includes(f)) return;
    const why = FORMAT_NAMES.includes(f) ? `format '${f}' has no prompt to bench with` : `unknown format '${f}'`;
    throw new CliError(`--formats: ${why} (item ${k + 1}); expected some of: ${BENCH_FORMATS.join(', ')}`);
  });
  for (const p of args.prompts)
    if (!formats.includes(p.format))
      throw new CliError(`--prompt ${p.format}=…: '${p.format}' is not among the formats run (${formats.join(', ')})`);
  return formats;
}

function chooseTasks(suite: BenchSuite, args: BenchArgs): BenchTask[] {
  try {
    return selectTasks(suite, args.tasks);
  } catch (err) {
    throw new CliError(`--tasks: ${lower((err as Error).message)}; 'quick', 'all' or ids of bench/tasks/suite.json`);
  }
}

function plans(table: PromptTable, formats: string[], args: BenchArgs): FormatPlan[] {
  return formats.map((format) => {
    const custom = args.prompts.find((p) => p.format === format);
    if (custom) {
      let system: string;
      try {
        system = readFileSync(custom.file, 'utf8');
      } catch (err) {
        throw new CliError(`--prompt ${format}=${custom.file}: cannot read it (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`);
      }
      if (system.trim() === '') throw new CliError(`--prompt ${format}=${custom.file}: the file is empty`);
      return formatPlan(table, format, args.model, { system, reminder: null });
    }
    if (args.family !== null) {
      const section = sectionFor(table, format, args.family as FamilyKey, args.model);
      if (section === null)
        throw new CliError(`--family ${args.family}: the prompt page of ${format} has no section for that family; give one with --prompt ${format}=FILE`);
      return planOf(format, section);
    }
    try {
      return formatPlan(table, format, args.model);
    } catch (err) {
      throw new CliError(`${(err as Error).message}; pick a family with --family or a prompt with --prompt ${format}=FILE`);
    }
  });
}

/** --out must name a file in an existing directory: checked before a long run starts, not after. */
function checkOut(file: string): void {
  const dir = path.dirname(path.resolve(file));
  const kind = (p: string) => {
    try {
      return statSync(p).isDirectory() ? 'directory' : 'file';
    } catch {
      return null;
    }
  };
  if (kind(dir) !== 'directory') throw new CliError(`--out ${file}: the directory ${dir} does not exist`);
  if (kind(file) === 'directory') throw new CliError(`--out ${file}: is a directory; name a file`);
}

/** Write the file whole or not at all: a copy next to it, renamed over it. */
function writeOut(file: string, text: string): void {
  const temp = path.join(path.dirname(path.resolve(file)), `.${path.basename(file)}.ln-diff-${process.pid}.tmp`);
  try {
    writeFileSync(temp, text);
    renameSync(temp, file);
  } catch (err) {
    rmSync(temp, { force: true });
    throw new CliError(`--out ${file}: cannot write it (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`);
  }
}

/** Any text leaving the process, with the key taken out should a server have echoed it. */
function redactor(key: string): (text: string) => string {
  if (key.length < 4) return (text) => text;
  const escaped = JSON.stringify(key).slice(1, -1);
  return (text) => text.split(key).join('[key]').split(escaped).join('[key]');
}

/** The progress line on a terminal: redrawn in place on stderr, cleared before anything else is written. */
function progressOn(stream: NodeJS.WriteStream) {
  const state = startProgress();
  let shown = '';
  let lastDraw = 0;
  const width = () => Math.max(20, (stream.columns || 80) - 1);
  return {
    event(e: BenchEvent): void {
      progressAfter(state, e);
      const line = progressLine(state).slice(0, width());
      const now = Date.now();
      // Text arrives in many small pieces: redraw for it at most ten times a second.
      if (line === shown || (e.type === 'text' && now - lastDraw < 100)) return;
      stream.write(`\r\x1b[2K${line}`);
      shown = line;
      lastDraw = now;
    },
    clear(): void {
      if (shown !== '') stream.write('\r\x1b[2K');
      shown = '';
    },
  };
}

/** Run `ln-diff bench ARGS`; returns the exit status. */
export async function bench(argv: readonly string[]): Promise<number> {
  const command = parseBenchArgs(argv);
  if (command.help) {
    writeStdout(BENCH_USAGE);
    return EXIT_OK;
  }
  const args: BenchArgs = command;
  const key = keyFrom(process.env, args.api)?.key ?? '';
  checkEndpoint(args, key);
  const formats = chooseFormats(args);
  const tasks = chooseTasks(loadSuite(), args);
  const config: BenchConfig = {
    endpoint: { api: args.api, baseUrl: args.endpoint.trim(), model: args.model.trim() },
    formats: plans(loadPrompts(), formats, args),
    tasks: tasks.map((t) => t.id),
    concurrency: args.concurrency,
    retries: args.retries,
    idleTimeoutMs: args.idleTimeoutMs,
  };
  if (args.out !== null) checkOut(args.out);

  const clean = redactor(key);
  // Server text (an error page, a stream's error) reaches this line: its control characters are shown, not obeyed by the terminal.
  const err = (line: string) => process.stderr.write(clean(`ln-diff: ${shown(line)}\n`));
  const progress = process.stderr.isTTY ? progressOn(process.stderr) : null;
  const controller = new AbortController();
  const onSigint = () => {
    // A second Ctrl-C while the partial run is being written: leave at once.
    if (controller.signal.aborted) process.exit(EXIT_STOPPED);
    controller.abort();
  };
  process.on('SIGINT', onSigint);
  let run: BenchRun;
  try {
    run = await runBench({
      config,
      tasks,
      key,
      engine: engineName(),
      signal: controller.signal,
      onEvent(e) {
        if (e.type === 'start' && progress)
          process.stderr.write(`ln-diff bench: ${startLine({ tasks: config.tasks.length, formats: config.formats.length, requests: e.total }, e.estimate)}\n`);
        progress?.event(e);
        if (e.type === 'retry') {
          progress?.clear();
          err(`${e.task} · ${e.format}: trying again in ${Math.ceil(e.waitMs / 1000)}s (attempt ${e.attempt} of ${config.retries + 1}): ${e.message}`);
        }
      },
    });
  } finally {
    progress?.clear();
    process.off('SIGINT', onSigint);
  }

  const json = clean(runJson(run)).replace(/\n?$/, '\n');
  const summaries = summarize(run);
  // Through writeStdout: a closed pipe (`ln-diff bench … | head`) ends the run quietly.
  if (args.json) writeStdout(json);
  else writeStdout(clean(benchTable(run, summaries, styleFor(process.stdout), best(summaries)).join('\n') + '\n'));
  if (args.out !== null) writeOut(args.out, json);

  // What went wrong with the requests themselves, once per distinct message.
  const errors = new Map<string, number>();
  for (const r of run.replies) if (r.status !== 'done' && r.status !== 'stopped' && r.error) errors.set(r.error, (errors.get(r.error) ?? 0) + 1);
  for (const [message, n] of [...errors].slice(0, 5)) err(`${n} ${n === 1 ? 'reply' : 'replies'}: ${message}`);
  const cut = run.replies.filter((r) => r.cutOff && r.status !== 'stopped').length;
  if (cut > 0)
    err(`${cut} ${cut === 1 ? 'reply was' : 'replies were'} cut off at the model's token cap (finish_reason length / stop_reason max_tokens) and scored as they stand; raise the server's output limit to score whole replies`);

  if (run.stopped) {
    const counted = run.replies.filter((r) => r.status !== 'stopped').length;
    err(`stopped: ${counted} of ${askedCount(run)} replies finished${args.out !== null ? `; the partial run is in ${args.out}` : ''}`);
    return EXIT_STOPPED;
  }
  // A key the API refused every time is a setting to fix, not a result.
  if (run.replies.length > 0 && run.replies.every((r) => r.status === 'auth')) {
    err(`the API refused the key for every request: check ${keyVariables(args.api).join(' or ')}`);
    return EXIT_USAGE;
  }
  // No reply at all (the server down, every request refused): nothing was measured, which a CI gate must not pass.
  if (run.replies.length > 0 && !run.replies.some((r) => r.status === 'done')) {
    err('no reply came back (see the errors above): nothing was measured');
    return EXIT_FAILED;
  }
  const failures = thresholdFailures(summaries, { exact: args.minExact, applied: args.minApplied });
  for (const f of failures) err(f);
  return failures.length > 0 ? EXIT_FAILED : EXIT_OK;
}
