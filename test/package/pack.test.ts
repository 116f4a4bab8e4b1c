// The package as a user gets it: `npm pack` (which builds lib/ first), the
// tarball installed into an empty project, then used there the ways a user
// would, with plain Node.js (no tsx anywhere in that project) and the
// repository's TypeScript. One pack and one install, shared by every test
// of this file. publint and arethetypeswrong check the tarball itself. Its
// size is held to what a harness that only applies edits is glad to
// install: at most 650 kB packed (the engine twice, as the library and the command, and the
// bench and conformance suites, which grow with the spec), one runtime dependency.

import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync, type SpawnSyncReturns } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { publint } from 'publint';
import { formatMessage } from 'publint/utils';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
  name: string;
  version: string;
  dependencies: Record<string, string>;
};
const TSC = join(ROOT, 'node_modules/typescript/bin/tsc');
const ATTW = join(ROOT, 'node_modules/@arethetypeswrong/cli/dist/index.js');

let dir = '';
/** The empty project the tarball is installed into. */
let project = '';
let tarball = '';
/** Paths inside the tarball, from `npm pack --json`. */
let packed: string[] = [];
/** The tarball's size and its unpacked size, in bytes (`npm pack --json`). */
let sizes = { size: 0, unpackedSize: 0 };

/** The environment of a program a user runs: nothing of this test runner's. */
function userEnv(): NodeJS.ProcessEnv {
  const env = { ...process.env };
  for (const key of Object.keys(env)) if (key === 'NODE_OPTIONS' || key.startsWith('NODE_TEST')) delete env[key];
  return env;
}

function sh(command: string, args: string[], cwd: string, input = ''): SpawnSyncReturns<string> {
  const r = spawnSync(command, args, { cwd, input, env: userEnv(), encoding: 'utf8', timeout: 300_000, maxBuffer: 1 << 26 });
  if (r.error) throw r.error;
  return r;
}

function ok(r: SpawnSyncReturns<string>, what: string): string {
  assert.equal(r.status, 0, `${what} exited ${r.status}\n${r.stdout}\n${r.stderr}`);
  return r.stdout;
}

before(() => {
  dir = mkdtempSync(join(tmpdir(), 'ln-diff-package-'));
  const out = ok(sh('npm', ['pack', '--json', '--pack-destination', dir], ROOT), 'npm pack');
  // npm prints the lifecycle scripts' output before the JSON.
  const [info] = JSON.parse(out.slice(out.indexOf('[\n'))) as { filename: string; size: number; unpackedSize: number; files: { path: string }[] }[];
  tarball = join(dir, info.filename);
  sizes = { size: info.size, unpackedSize: info.unpackedSize };
  packed = info.files.map((f) => f.path).sort();
  project = join(dir, 'project');
  mkdirSync(project);
  writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'consumer', private: true, type: 'module' }));
  ok(sh('npm', ['install', '--no-audit', '--no-fund', tarball], project), 'npm install');
});

after(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/** The command's bundles: main.cjs, and each subcommand loaded only when run. */
const COMMAND = ['lib/cli/main.cjs', 'lib/cli/bench.cjs', 'lib/cli/conformance.cjs', 'lib/cli/mcp.cjs'];
/** The bench's and the conformance suite, compressed (src/cli/package-data.ts). */
const DATA = ['lib/data/suite.json.br', 'lib/data/conformance.json.br'];

test('the tarball holds the library, the command, the compressed suites, the licence and the readme, and no source', () => {
  const outside = packed.filter((p) => !p.startsWith('lib/'));
  const prompts = readdirSync(join(ROOT, 'spec/prompts')).filter((f) => f.endsWith('.md')).map((f) => `spec/prompts/${f}`);
  // The prompts are read by `ln-diff bench` and `ln-diff mcp`.
  assert.deepEqual(outside, ['LICENSE', 'README.md', 'bin/ln-diff.cjs', 'package.json', ...prompts].sort());
  for (const needed of ['lib/index.js', 'lib/index.d.ts', ...COMMAND, ...DATA]) assert.ok(packed.includes(needed), needed);
  const js = packed.filter((p) => p.startsWith('lib/') && p.endsWith('.js'));
  assert.deepEqual(js, ['lib/index.js'], 'the library is one bundled module');
  const stray = packed.filter((p) => p.startsWith('lib/') && !p.endsWith('.d.ts') && !['lib/index.js', ...COMMAND, ...DATA].includes(p));
  assert.deepEqual(stray, [], 'lib/ holds the library, its declarations, the command and its data (no code cache: the first run writes one for its Node.js)');
  assert.ok(!packed.some((p) => p.endsWith('.ts') && !p.endsWith('.d.ts')), 'no TypeScript source');
  // Declarations name the files that are there (tsc keeps the sources' `.ts` in them; the build rewrites it).
  const installed = join(project, 'node_modules', pkg.name);
  for (const file of packed.filter((p) => p.endsWith('.d.ts'))) {
    const text = readFileSync(join(installed, file), 'utf8');
    assert.doesNotMatch(text, /'\.\.?\/[^'\n]*\.ts'/, `${file} imports a .ts file`);
  }
});

test('the tarball is at most 650 kB with one runtime dependency at most', () => {
  assert.ok(sizes.size <= 650_000, `the tarball is ${sizes.size} bytes`);
  assert.ok(sizes.unpackedSize <= 2_000_000, `it unpacks to ${sizes.unpackedSize} bytes`);
  assert.ok(Object.keys(pkg.dependencies).length <= 1, `runtime dependencies: ${Object.keys(pkg.dependencies).join(', ')}`);
});

test('installing it installs its runtime dependencies and nothing else (no tsx, no site packages)', () => {
  const installed = readdirSync(join(project, 'node_modules')).filter((name) => !name.startsWith('.')).sort();
  assert.deepEqual(installed, [...Object.keys(pkg.dependencies), pkg.name].sort());
});

test("`import { applyRequest } from 'ln-diff'` works under plain Node.js and applies a reply", () => {
  const script = [
    "import { applyRequest, formats, CODES } from 'ln-diff';",
    "const response = 'app.py\\n<editblock>\\n<<<<<<< REMOVE\\n2│    return 1\\n=======\\n │    return 2\\n>>>>>>> INSERT\\n</editblock>\\n';",
    "const result = applyRequest({ format: 'auto', files: { 'app.py': 'def f():\\n    return 1\\n' }, response });",
    'console.log(JSON.stringify({ ok: result.ok, files: result.files, match: result.edits[0].match, formats: formats.length, codes: CODES.length }));',
  ].join('\n');
  writeFileSync(join(project, 'use.mjs'), script);
  const out = JSON.parse(ok(sh(process.execPath, ['use.mjs'], project), 'node use.mjs'));
  assert.equal(out.ok, true);
  assert.deepEqual(out.files, { 'app.py': 'def f():\n    return 2\n' });
  assert.equal(out.match, 'exact');
  assert.ok(out.formats >= 10 && out.codes > 0);
  // Only the entry is public.
  const deep = sh(process.execPath, ['--input-type=module', '-e', "await import('ln-diff/lib/core/run.js')"], project);
  assert.notEqual(deep.status, 0);
  assert.match(deep.stderr, /ERR_PACKAGE_PATH_NOT_EXPORTED/);
});

test("README's Library example runs against the installed package and prints what README says", () => {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
  const start = readme.indexOf('\n## Library\n');
  assert.ok(start >= 0, 'README has a Library section');
  const section = readme.slice(start, readme.indexOf('\n## ', start + 1));
  const code = /```js\n([\s\S]*?)```/.exec(section)?.[1];
  const printed = /```text\n([\s\S]*?)```/.exec(section)?.[1];
  assert.ok(code && printed, 'a js example and the text it prints');
  assert.match(code, /from 'ln-diff'/);
  writeFileSync(join(project, 'example.mjs'), code);
  assert.equal(ok(sh(process.execPath, ['example.mjs'], project), 'node example.mjs'), printed);
});

const CONSUMER = `import {
  applyRequest,
  detectFormat,
  ENGINE_DEFAULTS,
  getFormat,
  RequestError,
  streamReply,
  validateRequest,
  type ApplyRequest,
  type ApplyResult,
  type Code,
  type EditResult,
  type Format,
  type StreamEvent,
} from 'ln-diff';

const request: ApplyRequest = validateRequest({ format: 'auto', files: { 'a.txt': 'a\\n' }, response: '' });
const result: ApplyResult = applyRequest(request);
const codes: (Code | null)[] = result.edits.map((e: EditResult) => e.code);
const view: string | undefined = getFormat('ln-diff')?.view?.('a\\n');
const mine: Format = { ...detectFormat('').format, name: 'mine' };
const events: StreamEvent[] = streamReply(mine, request.files).push('');
const error: Error = new RequestError('no');
const window: number = ENGINE_DEFAULTS.window;
// @ts-expect-error: a request needs a response (the types are real, not any)
applyRequest({ format: 'auto', files: {} });
export { codes, view, events, error, window };
`;

for (const [moduleResolution, module] of [
  ['nodenext', 'nodenext'],
  ['bundler', 'esnext'],
] as const) {
  test(`tsc type-checks a consumer under moduleResolution ${moduleResolution}, with no DOM and no Node.js types`, () => {
    writeFileSync(join(project, 'consumer.ts'), CONSUMER);
    const config = `tsconfig.${moduleResolution}.json`;
    writeFileSync(
      join(project, config),
      JSON.stringify({
        compilerOptions: { module, moduleResolution, target: 'es2023', lib: ['es2023'], types: [], strict: true, noEmit: true },
        files: ['consumer.ts'],
      }),
    );
    ok(sh(process.execPath, [TSC, '-p', config], project), `tsc -p ${config}`);
  });
}

test('`npx ln-diff --version` and `apply --json` run the installed command, and the first run leaves a code cache for its Node.js', () => {
  const cache = join(project, 'node_modules', pkg.name, 'lib/cli/main.cjs.cache');
  assert.ok(!existsSync(cache), 'the tarball carries no code cache');
  assert.equal(ok(sh('npx', ['--no', '--', 'ln-diff', '--version'], project), 'npx ln-diff --version'), `${pkg.version}\n`);
  assert.ok(existsSync(cache), 'the first run wrote the code cache');
  const request = {
    format: 'udiff',
    files: { 'a.txt': 'one\ntwo\nthree\n' },
    response: '--- a/a.txt\n+++ b/a.txt\n@@ -1,3 +1,3 @@\n one\n-two\n+TWO\n three\n',
  };
  const result = JSON.parse(ok(sh('npx', ['--no', '--', 'ln-diff', 'apply', '--json'], project, JSON.stringify(request)), 'npx ln-diff apply --json'));
  assert.equal(result.ok, true);
  assert.deepEqual(result.files, { 'a.txt': 'one\nTWO\nthree\n' });
  assert.equal(result.edits[0].status, 'applied');
  // A malformed request: exit 2, one line on stderr.
  const bad = sh('npx', ['--no', '--', 'ln-diff', 'apply', '--json'], project, '{');
  assert.equal(bad.status, 2);
  assert.match(bad.stderr, /^ln-diff: invalid JSON request/);
});

test('`npx ln-diff conformance` finds the suite the package carries and runs the installed command through it', () => {
  const bin = join(project, 'node_modules', '.bin', 'ln-diff');
  const run = sh('npx', ['--no', '--', 'ln-diff', 'conformance', '--cmd', `"${bin}" apply --json`, '--format', 'udiff'], project);
  assert.equal(run.status, 0, run.stdout + run.stderr);
  assert.match(run.stdout, /^(\d+) passed, 0 failed$/m);
  assert.ok(Number(/^(\d+) passed/m.exec(run.stdout)?.[1]) > 10);
});

test('`npx ln-diff bench` finds the suite and the prompts the package carries', () => {
  // Both are read before FILE is: only a missing FILE is left to report (a missing suite or prompt would exit 3).
  const args = ['bench', '--endpoint', 'http://127.0.0.1:8080/v1', '--model', 'm', '--formats', 'ln-diff', '--prompt', 'ln-diff=no-such-prompt.md'];
  const run = sh('npx', ['--no', '--', 'ln-diff', ...args], project);
  assert.equal(run.status, 2, run.stdout + run.stderr);
  assert.equal(run.stderr, 'ln-diff: --prompt ln-diff=no-such-prompt.md: cannot read it (ENOENT)\n');
});

test('`npx ln-diff apply` and `read` work on files from the installed package', () => {
  const work = join(project, 'work');
  mkdirSync(work, { recursive: true });
  writeFileSync(join(work, 'a.txt'), 'one\ntwo\nthree\n');
  assert.equal(ok(sh('npx', ['--no', '--', 'ln-diff', 'read', 'a.txt'], work), 'npx ln-diff read'), '1│one\n2│two\n3│three\n');
  const reply = 'a.txt\n<editblock>\n<<<<<<< REMOVE\n3│two\n=======\n │TWO\n>>>>>>> INSERT\n</editblock>\n';
  const out = ok(sh('npx', ['--no', '--', 'ln-diff', 'apply'], work, reply), 'npx ln-diff apply');
  assert.match(out, /1 file changed/);
  assert.equal(readFileSync(join(work, 'a.txt'), 'utf8'), 'one\nTWO\nthree\n');
});

test('`npx ln-diff mcp` serves a real MCP client (the SDK\'s) from the installed package', async () => {
  const { Client } = await import('@modelcontextprotocol/sdk/client/index.js');
  const { StdioClientTransport } = await import('@modelcontextprotocol/sdk/client/stdio.js');
  const work = join(project, 'mcp-work');
  mkdirSync(work, { recursive: true });
  writeFileSync(join(work, 'a.py'), 'def f():\n    return 1\n');
  const env = userEnv() as Record<string, string>;
  const transport = new StdioClientTransport({ command: 'npx', args: ['--no', '--', 'ln-diff', 'mcp', '--root', work], cwd: project, env, stderr: 'pipe' });
  const client = new Client({ name: 'pack-test', version: '1.0.0' });
  await client.connect(transport);
  try {
    const { tools } = await client.listTools();
    assert.deepEqual(tools.map((t) => t.name).sort(), ['apply_edits', 'list_formats', 'read_file']);
    assert.ok((await client.listPrompts()).prompts.length >= 10, 'the prompts the package carries');
    const read = (await client.callTool({ name: 'read_file', arguments: { path: 'a.py' } })) as { structuredContent?: { text: string } };
    assert.equal(read.structuredContent?.text, '1│def f():\n2│    return 1\n');
    const reply = 'a.py\n<editblock>\n<<<<<<< REMOVE\n1│    return 1\n=======\n │    return 2\n>>>>>>> INSERT\n</editblock>\n';
    const applied = (await client.callTool({ name: 'apply_edits', arguments: { reply } })) as { isError?: boolean };
    assert.equal(applied.isError, false);
    assert.equal(readFileSync(join(work, 'a.py'), 'utf8'), 'def f():\n    return 2\n');
  } finally {
    await client.close();
  }
});

test('publint finds nothing in the tarball (strict, down to suggestions)', async () => {
  const bytes = readFileSync(tarball);
  const { messages, pkg: manifest } = await publint({
    pack: { tarball: bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) },
    level: 'suggestion',
    strict: true,
  });
  assert.deepEqual(
    messages.map((m) => `${m.type} ${m.code}: ${formatMessage(m, manifest) ?? ''}`),
    [],
  );
});

test('arethetypeswrong finds no problem for an ES-module-only package', () => {
  // --no-definitely-typed: no look-up of @types packages on the registry.
  ok(sh(process.execPath, [ATTW, tarball, '--profile', 'esm-only', '--no-definitely-typed', '--format', 'ascii', '--no-color'], dir), 'attw');
});
