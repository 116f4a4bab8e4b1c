// The server's tools and prompts: their names, JSON Schemas (from zod) and
// handlers, each a thin call into read.ts, apply.ts, formats.ts and
// prompts.ts. A bad call (a wrong path, a binary file, an unknown format)
// is an error result that says what to fix, never a crash; so is an argument
// of the wrong type or out of range, checked by arguments.ts in our words.

import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import * as z from 'zod/v4';
import { FORMAT_NAMES } from '../../formats/index.ts';
import { CliError } from '../errors.ts';
import { advertised, checkArguments, type Arguments } from './arguments.ts';
import { plan, report, write } from './apply.ts';
import { listFormats } from './formats.ts';
import type { FormatPrompt } from './prompts.ts';
import { readView } from './read.ts';
import type { Allowed } from './roots.ts';

export interface ServerSettings {
  /** `--format`: the format apply_edits reads by default ('auto' when not given). */
  format: string;
  /** `--read-only`: apply_edits only does dry runs. */
  readOnly: boolean;
  /** Where calls may read and write, at the time of the call. */
  allowed(): Promise<Allowed>;
  /**
   * Runs before apply_edits writes; the call stops without writing when its
   * signal is aborted meanwhile. For tests (see server.ts).
   */
  beforeWrite?(signal: AbortSignal): Promise<void>;
}

const FORMATS = FORMAT_NAMES.filter((n) => n !== 'auto') as [string, ...string[]];

/** An error result whose text says what went wrong and what to do. */
export function errorResult(err: unknown): CallToolResult {
  const message = err instanceof CliError ? err.message : `internal error: ${err instanceof Error ? err.message : String(err)}`;
  return { content: [{ type: 'text', text: message }], isError: true };
}

const readOutput = {
  path: z.string(),
  format: z.string(),
  view: z.enum(['numbered', 'tagged', 'plain']),
  total_lines: z.number().int(),
  start_line: z.number().int(),
  end_line: z.number().int(),
  text: z.string(),
};

const applyOutput = {
  ok: z.boolean(),
  format: z.string(),
  dry_run: z.boolean(),
  edits: z.array(
    z.object({
      file: z.string(),
      status: z.enum(['applied', 'failed']),
      match: z.string().nullable(),
      offset: z.number().nullable(),
      code: z.string().nullable(),
      message: z.string(),
      retry: z.string().nullable(),
    }),
  ),
  files: z.array(z.object({ file: z.string(), action: z.enum(['create', 'modify', 'delete']), done: z.boolean(), failure: z.string().nullable() })),
  diagnostics: z.array(z.object({ code: z.string(), severity: z.string(), message: z.string() })),
  diff: z.string().nullable(),
};

const formatsOutput = {
  formats: z.array(
    z.object({ name: z.string(), title: z.string(), description: z.string(), numbers_lines: z.boolean(), view: z.enum(['numbered', 'tagged', 'plain']) }),
  ),
};

/** read_file's arguments; `viewFormat` is the format of its view when none is named. */
export function readArguments(viewFormat: string) {
  return {
    path: {
      schema: z.string().min(1).describe('The file, relative to the root (an absolute path inside the root is taken as well)'),
      expected: "the file's path, relative to the root (a non-empty string)",
    },
    format: {
      schema: z.enum(FORMATS).optional().describe(`The edit format the view is for (default ${viewFormat})`),
      expected: `one of ${FORMATS.join(', ')} (or leave it out for ${viewFormat})`,
    },
    start_line: {
      schema: z.number().int().min(1).optional().describe('First line to show, from 1 (default 1)'),
      expected: 'a whole number from 1 (or leave it out for 1)',
    },
    end_line: {
      schema: z.number().int().min(1).optional().describe('Last line to show, inclusive (default the last line)'),
      expected: 'a whole number from 1 (or leave it out for the last line)',
    },
  } satisfies Arguments;
}

/** apply_edits's arguments; `format` is the server's default format. */
export function applyArguments(format: string) {
  return {
    reply: {
      schema: z.string().describe('The edits as written in the format (the whole reply may be passed: prose around the edits is ignored)'),
      expected: 'the reply as text (a string)',
    },
    format: {
      schema: z.enum(['auto', ...FORMATS]).optional().describe(`The reply's format (default ${format}; auto detects it)`),
      expected: `auto or one of ${FORMATS.join(', ')} (or leave it out for ${format})`,
    },
    dry_run: {
      schema: z.boolean().optional().describe('Write nothing; return the change as a unified diff'),
      expected: 'true or false (or leave it out for false)',
    },
  } satisfies Arguments;
}

export function registerTools(server: McpServer, settings: ServerSettings): void {
  const viewFormat = settings.format === 'auto' ? 'ln-diff' : settings.format;
  const readArgs = readArguments(viewFormat);
  const applyArgs = applyArguments(settings.format);

  server.registerTool(
    'read_file',
    {
      title: 'Read a file as the edit format shows it',
      description:
        `A text file under the root, shown for an edit format (default ${viewFormat}): numbered lines (12│text) for ln-diff and roo, line:tag for hashline, ` +
        'the plain text for the others, with its total line count. Cite what you read exactly when you edit. Paths are relative to the root. ' +
        'A long file is read in ranges (start_line, end_line; from 1, inclusive).',
      inputSchema: advertised(readArgs),
      outputSchema: readOutput,
      annotations: { readOnlyHint: true },
    },
    async (given) => {
      try {
        const args = checkArguments('read_file', readArgs, given);
        const view = readView(await settings.allowed(), args, viewFormat);
        const head = `${view.path}: ${view.total_lines} lines` + (view.total_lines > 0 ? `, showing ${view.start_line}-${view.end_line}` : ' (empty)');
        return { content: [{ type: 'text', text: `${head}\n${view.text}` }], structuredContent: { ...view } };
      } catch (err) {
        return errorResult(err);
      }
    },
  );

  server.registerTool(
    'apply_edits',
    {
      title: 'Apply edits in any edit format',
      description:
        `Apply a reply holding edits (ln-diff editblocks, SEARCH/REPLACE, unified diff, apply_patch, ... ; default format ${settings.format}) to the files under the root. ` +
        'Each edit is applied where it belongs or refused with the reason; a failed edit comes back with a message saying what the file really has there, so it can be sent again. ' +
        'dry_run writes nothing and returns the change as a unified diff. ' +
        'The result is an error (ok false) when no edit applied, and so when the reply holds no edit at all (empty, or prose only): nothing was changed.' +
        (settings.readOnly ? ' This server is read-only: only dry runs are allowed.' : ''),
      inputSchema: advertised(applyArgs),
      outputSchema: applyOutput,
      annotations: { readOnlyHint: settings.readOnly, destructiveHint: !settings.readOnly, idempotentHint: false },
    },
    async (given, extra) => {
      try {
        const args = checkArguments('apply_edits', applyArgs, given);
        const dryRun = args.dry_run === true;
        if (settings.readOnly && !dryRun)
          throw new CliError('this server is read-only (ln-diff mcp --read-only): pass dry_run: true to see the change as a unified diff');
        const allowed = await settings.allowed();
        const p = plan(allowed, args.reply, args.format ?? settings.format);
        const out = report(p, dryRun);
        if (!dryRun && settings.beforeWrite) await settings.beforeWrite(extra.signal);
        if (extra.signal.aborted) throw new CliError('the call was cancelled before anything was written; no file changed');
        const text = write(allowed, p, out);
        const applied = out.edits.some((e) => e.status === 'applied');
        return { content: [{ type: 'text', text }], structuredContent: { ...out }, isError: !applied };
      } catch (err) {
        return errorResult(err);
      }
    },
  );

  server.registerTool(
    'list_formats',
    {
      title: 'List the edit formats',
      description: 'Every edit format apply_edits reads, with a one-line description and whether read_file numbers the lines for it.',
      inputSchema: {},
      outputSchema: formatsOutput,
      annotations: { readOnlyHint: true },
    },
    async () => {
      const list = listFormats();
      const text = list.map((f) => `${f.name}: ${f.description}${f.numbers_lines ? ' (read_file numbers the lines)' : ''}`).join('\n');
      return { content: [{ type: 'text', text }], structuredContent: { formats: list } };
    },
  );
}

export function registerPrompts(server: McpServer, prompts: readonly FormatPrompt[]): void {
  for (const p of prompts) {
    server.registerPrompt(
      p.name,
      {
        title: `${p.format} for ${p.family}`,
        description: `The system prompt asking ${p.family} to write edits in the ${p.format} format. ${p.note}`.slice(0, 600),
      },
      () => ({
        description: p.reminder === null ? `The system prompt for ${p.format}` : `The system prompt for ${p.format}, then the reminder to put at the end of the last user message`,
        messages: [
          { role: 'user', content: { type: 'text', text: p.system } },
          ...(p.reminder === null ? [] : [{ role: 'user' as const, content: { type: 'text' as const, text: p.reminder } }]),
        ],
      }),
    );
  }
}
