// Benchmark: one edit applied through `ln-diff mcp` (an apply_edits call on
// a running server, the SDK's client over stdio) against the same edit
// through `ln-diff apply` (a whole process, start to exit), both on disk.
//
//   npm run bench:mcp                   (npm run build:lib, then node --import tsx bench/mcp.bench.ts)
//   npm run bench:mcp -- --runs 20 --lines 2000
//
// One file of `--lines` code-like lines (default 2,000); each call is an
// ln-diff editblock that changes one line, the next call changes it back, so
// every call applies and writes. Each way runs once untimed, then `--runs`
// times (default 20); the median wall time of a call counts (the MCP one from
// request to response, the CLI one from spawn to exit). Every result is
// checked (the edit applied, the file as expected); the script asserts no
// times.

import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';

function arg(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1] : undefined;
}
const RUNS = Number(arg('runs') ?? 20);
const LINES = Number(arg('lines') ?? 2_000);
const BIN = fileURLToPath(new URL('../bin/ln-diff.cjs', import.meta.url));

const dir = mkdtempSync(join(tmpdir(), 'ln-diff-bench-mcp-'));
process.on('exit', () => rmSync(dir, { recursive: true, force: true }));
const lines = Array.from({ length: LINES }, (_, i) => `    value_${i} = compute(${i}, "item ${i}")`);
const file = join(dir, 'big.py');
writeFileSync(file, lines.join('\n') + '\n');
const at = Math.floor(LINES / 2);

/** The editblock that turns line `at` from `from` into `to`. */
function reply(from: string, to: string): string {
  return `big.py\n<editblock>\n<<<<<<< REMOVE\n${at + 1}│${from}\n=======\n │${to}\n>>>>>>> INSERT\n</editblock>\n`;
}
const original = lines[at - 1];
const changed = original.replace('compute', 'recompute');
/** Call k: change the line (k even) or change it back (k odd). */
const replyFor = (k: number) => (k % 2 === 0 ? reply(original, changed) : reply(changed, original));
const expectAfter = (k: number) => (k % 2 === 0 ? changed : original);

function check(k: number): void {
  const now = readFileSync(file, 'utf8').split('\n')[at - 1];
  if (now !== expectAfter(k)) throw new Error(`call ${k}: line ${at} is ${JSON.stringify(now)}`);
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const env = { ...process.env };
delete env.NODE_OPTIONS;

// ln-diff apply: a process per call.
const cli: number[] = [];
for (let k = 0; k <= RUNS; k++) {
  const start = performance.now();
  const r = spawnSync(process.execPath, [BIN, 'apply', '--base', dir, '--format', 'ln-diff'], { input: replyFor(k), env, encoding: 'utf8' });
  const ms = performance.now() - start;
  if (r.status !== 0) throw new Error(`ln-diff apply exited ${r.status}: ${r.stderr}`);
  check(k);
  if (k > 0) cli.push(ms);
}

// apply_edits: calls on one running server.
const transport = new StdioClientTransport({ command: process.execPath, args: [BIN, 'mcp', '--root', dir, '--format', 'ln-diff'], env: env as Record<string, string> });
const client = new Client({ name: 'bench', version: '1.0.0' });
await client.connect(transport);
const mcp: number[] = [];
// The file is as the CLI left it: RUNS + 1 calls, so continue the alternation from there.
for (let k = RUNS + 1; k <= 2 * RUNS + 1; k++) {
  const start = performance.now();
  const r = (await client.callTool({ name: 'apply_edits', arguments: { reply: replyFor(k) } })) as CallToolResult;
  const ms = performance.now() - start;
  if (r.isError) throw new Error(`apply_edits failed: ${JSON.stringify(r.content)}`);
  check(k);
  if (k > RUNS + 1) mcp.push(ms);
}
await client.close();

console.log(`one edit on a ${LINES}-line file, median of ${RUNS} calls each:`);
console.log(`  ln-diff apply (a process per call)  ${median(cli).toFixed(1)} ms`);
console.log(`  apply_edits (ln-diff mcp, running)  ${median(mcp).toFixed(1)} ms`);
