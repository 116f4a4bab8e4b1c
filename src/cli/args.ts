// argv → a command. Only the shape of the command line is checked here; what
// the values mean (a format name, a directory) is checked where they are used.

import { parseArgs, type ParseArgsConfig } from 'node:util';
import type { ConformanceCommand } from './conformance.ts';
import type { McpCommand } from './mcp.ts';
import { defaultJobs } from './jobs.ts';
import { CliError, oneLine } from './errors.ts';

export type Command =
  | { kind: 'help' }
  | { kind: 'version' }
  /** `apply --json`: one JSON request on stdin, one JSON result on stdout. */
  | { kind: 'apply-json' }
  /**
   * `apply`: a reply applied to files on disk. `reply` null means stdin.
   * `atomic`: all or nothing (no file is written unless every edit applied).
   */
  | { kind: 'apply'; dryRun: boolean; atomic: boolean; base: string; format: string; reply: string | null }
  /** `read`: print a format's view of a file. `file` null means stdin. */
  | { kind: 'read'; format: string; file: string | null }
  /** `conformance`: run the conformance suite through a program (src/cli/conformance.ts). */
  | ({ kind: 'conformance' } & ConformanceCommand)
  /** `mcp`: the MCP server over stdio (src/cli/mcp/, loaded only for it). */
  | ({ kind: 'mcp' } & McpCommand)
  /** `bench`: its arguments, read by src/cli/bench-args.ts (loaded only for it). */
  | { kind: 'bench'; args: string[] };

export const HINT = " (try 'ln-diff --help')";

type Options = NonNullable<ParseArgsConfig['options']>;

export function parse(args: string[], options: Options, hint = HINT): { values: Record<string, unknown>; positionals: string[] } {
  try {
    const { values, positionals } = parseArgs({ args, options, allowPositionals: true, strict: true });
    return { values: values as Record<string, unknown>, positionals };
  } catch (err) {
    const e = err as { code?: string; message?: string };
    if (e.code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION') {
      const name = /Unknown option '([^']*)'/.exec(e.message ?? '')?.[1];
      throw new CliError(`unknown option '${name ?? '?'}'${hint}`);
    }
    if (typeof e.code === 'string' && e.code.startsWith('ERR_PARSE_ARGS')) {
      // Node's messages: keep the first sentence, lower-case the first letter.
      const first = oneLine((e.message ?? '').split('\n')[0]);
      throw new CliError(first.charAt(0).toLowerCase() + first.slice(1) + hint);
    }
    throw err;
  }
}

const help = { help: { type: 'boolean', short: 'h' } } as const satisfies Options;

export function parseCommand(argv: readonly string[]): Command {
  const [command, ...rest] = argv;
  if (command === undefined) throw new CliError(`missing command${HINT}`);
  if (command === '--help' || command === '-h' || command === 'help') return { kind: 'help' };
  if (command === '--version' || command === '-v') return { kind: 'version' };

  if (command === 'apply') {
    const { values, positionals } = parse(rest, {
      ...help,
      json: { type: 'boolean' },
      'dry-run': { type: 'boolean' },
      atomic: { type: 'boolean' },
      base: { type: 'string' },
      format: { type: 'string' },
    });
    if (values.help) return { kind: 'help' };
    if (values.json) {
      const extra = ['dry-run', 'atomic', 'base', 'format'].filter((k) => values[k] !== undefined);
      if (extra.length > 0)
        throw new CliError(`--json takes everything from the request; --${extra[0]} cannot be combined with it`);
      if (positionals.length > 0)
        throw new CliError(`--json reads the request from stdin; unexpected argument '${positionals[0]}'`);
      return { kind: 'apply-json' };
    }
    if (positionals.length > 1) throw new CliError(`apply takes one REPLY_FILE; unexpected argument '${positionals[1]}'`);
    const base = values.base as string | undefined;
    if (base === '') throw new CliError('--base must not be empty');
    const reply = positionals[0];
    return {
      kind: 'apply',
      dryRun: values['dry-run'] === true,
      atomic: values.atomic === true,
      base: base ?? '.',
      format: (values.format as string | undefined) ?? 'auto',
      reply: reply === undefined || reply === '-' ? null : reply,
    };
  }

  if (command === 'read') {
    const { values, positionals } = parse(rest, { ...help, format: { type: 'string' } });
    if (values.help) return { kind: 'help' };
    if (positionals.length === 0) throw new CliError(`read needs a FILE${HINT}`);
    if (positionals.length > 1) throw new CliError(`read takes one FILE; unexpected argument '${positionals[1]}'`);
    const file = positionals[0];
    return {
      kind: 'read',
      format: (values.format as string | undefined) ?? 'ln-diff',
      file: file === '-' ? null : file,
    };
  }

  if (command === 'conformance') {
    const { values, positionals } = parse(rest, {
      ...help,
      cmd: { type: 'string' },
      suite: { type: 'string' },
      format: { type: 'string' },
      page: { type: 'string' },
      example: { type: 'string' },
      jobs: { type: 'string' },
      timeout: { type: 'string' },
    });
    if (values.help) return { kind: 'help' };
    if (positionals.length > 0) throw new CliError(`conformance takes no argument; unexpected '${positionals[0]}'`);
    const cmd = values.cmd as string | undefined;
    if (cmd === undefined || cmd.trim() === '') throw new CliError(`conformance needs --cmd "PROGRAM"${HINT}`);
    const count = (name: string, fallback: number | null): number | null => {
      const v = values[name] as string | undefined;
      if (v === undefined) return fallback;
      if (!/^[1-9][0-9]*$/.test(v)) throw new CliError(`--${name} must be a whole number from 1, found '${v}'`);
      return Number(v);
    };
    const timeout = (values.timeout as string | undefined) ?? '30';
    if (!/^[0-9]*\.?[0-9]+$/.test(timeout) || Number(timeout) <= 0)
      throw new CliError(`--timeout must be a number of seconds above 0, found '${timeout}'`);
    return {
      kind: 'conformance',
      cmd,
      suite: (values.suite as string | undefined) ?? null,
      format: (values.format as string | undefined) ?? null,
      page: (values.page as string | undefined) ?? null,
      example: count('example', null),
      jobs: count('jobs', null) ?? defaultJobs(),
      timeout: Number(timeout),
    };
  }

  if (command === 'mcp') {
    const { values, positionals } = parse(rest, { ...help, root: { type: 'string' }, format: { type: 'string' }, 'read-only': { type: 'boolean' } });
    if (values.help) return { kind: 'help' };
    if (positionals.length > 0) throw new CliError(`mcp takes no argument; unexpected '${positionals[0]}'`);
    const root = values.root as string | undefined;
    if (root === '') throw new CliError('--root must not be empty');
    return { kind: 'mcp', root: root ?? '.', format: (values.format as string | undefined) ?? 'auto', readOnly: values['read-only'] === true };
  }

  if (command === 'bench') return { kind: 'bench', args: rest };

  if (command.startsWith('-')) throw new CliError(`unknown option '${command}'${HINT}`);
  throw new CliError(`unknown command '${command}'${HINT}`);
}
