// The SDK's own MCP client, connected over stdio to `ln-diff mcp` run as a
// child process: the command as built by helpers.ts, with the prompt pages
// next to it as the package lays them out.

import { cpSync, existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { BIN, ROOT } from './helpers.ts';

// The package carries spec/prompts/*.md; the built command reads them from there.
const prompts = join(dirname(BIN), '..', 'spec', 'prompts');
if (!existsSync(prompts)) cpSync(join(ROOT, 'spec/prompts'), prompts, { recursive: true });

export interface Connection {
  client: Client;
  transport: StdioClientTransport;
  /** Resolves once the server's stderr holds `text`. */
  stderrHas(text: string): Promise<void>;
  close(): Promise<void>;
}

export interface ConnectOptions {
  args?: string[];
  env?: Record<string, string>;
  /** Set up the client before it connects (its roots, say). */
  setup?(client: Client): void;
  capabilities?: ConstructorParameters<typeof Client>[1];
}

export async function connect(opts: ConnectOptions = {}): Promise<Connection> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined && k !== 'NODE_OPTIONS' && !k.startsWith('NODE_TEST')) env[k] = v;
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [BIN, 'mcp', ...(opts.args ?? [])],
    env: { ...env, ...opts.env },
    stderr: 'pipe',
  });
  let stderr = '';
  const waiting: { text: string; resolve: () => void }[] = [];
  transport.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString('utf8');
    for (const w of [...waiting]) if (stderr.includes(w.text)) {
      waiting.splice(waiting.indexOf(w), 1);
      w.resolve();
    }
  });
  const client = new Client({ name: 'ln-diff-test', version: '1.0.0' }, opts.capabilities);
  opts.setup?.(client);
  await client.connect(transport);
  return {
    client,
    transport,
    stderrHas: (text) => (stderr.includes(text) ? Promise.resolve() : new Promise((resolve) => waiting.push({ text, resolve }))),
    close: () => client.close(),
  };
}

/** A tool call's result (the SDK's type is wide: a call may also return a task). */
export async function call(client: Client, name: string, args: Record<string, unknown>, signal?: AbortSignal): Promise<CallToolResult> {
  return (await client.callTool({ name, arguments: args }, undefined, signal ? { signal } : undefined)) as CallToolResult;
}

/** The text of a result's first content item. */
export function text(result: CallToolResult): string {
  const first = result.content[0];
  if (!first || first.type !== 'text') throw new Error(`expected a text result, got ${JSON.stringify(result)}`);
  return first.text;
}
