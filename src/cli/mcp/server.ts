// `ln-diff mcp`: the Model Context Protocol server over stdio (the official
// SDK). This file only wires the pieces: the root and the client's roots
// (roots.ts), the tools and prompts (tools.ts), the transport (stdio.ts). Nothing but
// the protocol is written to stdout; the server runs until stdin closes.

import { readFileSync } from 'node:fs';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { RootsListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import type { jsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/types.js';
import { FORMAT_NAMES } from '../../formats/index.ts';
import { openBase } from '../disk.ts';
import { CliError, EXIT_OK } from '../errors.ts';
import { loadPrompts } from './prompts.ts';
import { narrow } from './roots.ts';
import { LineTransport } from './stdio.ts';
import { registerPrompts, registerTools, type ServerSettings } from './tools.ts';

export interface McpCommand {
  /** `--root`: the directory every path is relative to (default: the current directory). */
  root: string;
  /** `--format`: apply_edits's default format, and read_file's view (ln-diff when auto). */
  format: string;
  /** `--read-only`: apply_edits only does dry runs. */
  readOnly: boolean;
}

function version(): string {
  const up = import.meta.url.endsWith('.ts') ? '../../../' : '../../';
  try {
    return String((JSON.parse(readFileSync(new URL(`${up}package.json`, import.meta.url), 'utf8')) as { version?: string }).version ?? '0.0.0');
  } catch {
    return '0.0.0';
  }
}

/**
 * With LN_DIFF_MCP_TEST_HOLD=1 (tests only), apply_edits stops before it
 * writes, says so on stderr, and goes on only once its call is cancelled:
 * a test can cancel a call in flight at a known point, with no timer.
 */
function testHold(): ServerSettings['beforeWrite'] {
  if (process.env.LN_DIFF_MCP_TEST_HOLD !== '1') return undefined;
  return (signal) =>
    new Promise<void>((resolve) => {
      process.stderr.write('ln-diff mcp: holding apply_edits\n');
      signal.addEventListener(
        'abort',
        () => {
          process.stderr.write('ln-diff mcp: apply_edits cancelled\n');
          resolve();
        },
        { once: true },
      );
    });
}

/**
 * The SDK's server checks a client's answers to elicitation requests with a
 * JSON Schema validator (ajv by default); this server sends none, so its
 * validator refuses everything, and the bundle leaves ajv out
 * (scripts/build-cli.mjs).
 */
const noElicitation: jsonSchemaValidator = {
  getValidator: () => () => ({ valid: false, data: undefined, errorMessage: 'ln-diff mcp sends no elicitation requests' }),
};

/** Serve until stdin closes. A bad root or format is a usage error before the server starts. */
export async function mcp(command: McpCommand): Promise<number> {
  if (!FORMAT_NAMES.includes(command.format))
    throw new CliError(`unknown format "${command.format}"; expected one of: ${FORMAT_NAMES.join(', ')}`);
  const base = openBase(command.root);
  const server = new McpServer(
    { name: 'ln-diff', version: version() },
    {
      jsonSchemaValidator: noElicitation,
      instructions:
        'Edit files under the root: read_file shows a file as the edit format wants it cited; apply_edits applies a reply in that format ' +
        'and says, for each edit, where it landed or why it was refused. list_formats names the formats; the prompts hold each format\'s system prompt per model family.',
    },
  );

  // The client's roots: asked for once the client is ready, and again whenever it says they changed.
  // Each call waits for the latest answer (a call sent after the change sees the new roots).
  let roots: Promise<string[] | null> = Promise.resolve(null);
  const askRoots = (): Promise<string[] | null> => {
    if (!server.server.getClientCapabilities()?.roots) return Promise.resolve(null);
    return server.server.listRoots().then(
      (r) => r.roots.map((root) => root.uri),
      () => null,
    );
  };
  server.server.oninitialized = () => {
    roots = askRoots();
  };
  server.server.setNotificationHandler(RootsListChangedNotificationSchema, async () => {
    roots = askRoots();
  });

  const beforeWrite = testHold();
  registerTools(server, {
    format: command.format,
    readOnly: command.readOnly,
    allowed: async () => narrow(base, await roots),
    ...(beforeWrite ? { beforeWrite } : {}),
  });
  registerPrompts(server, loadPrompts());

  // Any message gets an answer, one too long an error naming the limit (stdio.ts).
  const transport = new LineTransport();
  const closed = new Promise<void>((resolve) => {
    transport.onclose = () => resolve();
    process.stdin.once('end', () => resolve());
  });
  await server.connect(transport);
  await closed;
  await server.close().catch(() => {});
  return EXIT_OK;
}
