// Every install and configuration line of README.md, the home page
// (src/pages/index.astro) and the Agents page (src/pages/agents.astro), run
// as a user runs it, from a clean clone of this repository (its last
// commit) and from scratch directories, with no package from the registry:
// the clone is built with the repository's own node_modules, and the one
// runtime dependency, `diff`, is packed from there and given to each
// install beside ln-diff's tarball (npm --offline, an empty cache).
//
// - Install lines (`npm install -g .`, `npm pack`, the tarball installed
//   globally and into a project) are each known to this test and run; the
//   clone's tree stays clean through them (the bin executable as committed,
//   the tarball ignored).
// - Command lines (`ln-diff …`, `node /absolute/path/to/ln-diff/bin/ln-diff.cjs …`)
//   run in a scratch directory holding the files they name; a line with
//   placeholders (FILE, URL, [options]) or one that would need a model or
//   another program (bench, conformance) runs as `<command> --help`.
// - `mcp` lines and each client's configuration (its command and
//   arguments, as the snippet writes them) are started and sent an MCP
//   initialize request on stdin; the answer must come from ln-diff.
// - The registry forms (`npm install ln-diff`, `npx -y ln-diff mcp`, and
//   the same in a configuration) work only once the package is published:
//   each must stand in a paragraph that says so.

import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync, type SpawnSyncReturns } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, statSync, symlinkSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string; scripts: Record<string, string>; dependencies: Record<string, string> };
const TARBALL = `ln-diff-${pkg.version}.tgz`;
/** The placeholder the docs write for the clone's absolute path. */
const CLONE_PLACEHOLDER = '/absolute/path/to/ln-diff';

const DOCS = ['README.md', 'src/pages/index.astro', 'src/pages/agents.astro'] as const;
const text = (file: string): string => readFileSync(join(ROOT, file), 'utf8');

let dir = '';
/** The clean clone, built by its own `npm pack`. */
let clone = '';
/** Global prefixes: `npm install -g .` (a link to the clone) and `npm install -g ./ln-diff-<version>.tgz`. */
let linked = '';
let copied = '';
/** The project the tarball is installed into. */
let project = '';
/** npm's cache for these installs: empty, so nothing comes from anywhere but the tarballs. */
let cache = '';
/** `diff`, packed from the repository's node_modules. */
let diffTarball = '';

function userEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, npm_config_update_notifier: 'false', npm_config_fund: 'false', npm_config_audit: 'false', ...extra };
  for (const key of Object.keys(env)) if (key === 'NODE_OPTIONS' || key.startsWith('NODE_TEST')) delete env[key];
  return env;
}

function sh(command: string, args: string[], cwd: string, opts: { input?: string; env?: NodeJS.ProcessEnv; shell?: boolean } = {}): SpawnSyncReturns<string> {
  const r = spawnSync(command, args, { cwd, input: opts.input ?? '', env: opts.env ?? userEnv(), encoding: 'utf8', timeout: 600_000, maxBuffer: 1 << 26, shell: opts.shell ?? false });
  if (r.error) throw r.error;
  return r;
}

function ok(r: SpawnSyncReturns<string>, what: string): string {
  assert.equal(r.status, 0, `${what} exited ${r.status}\n${r.stdout}\n${r.stderr}`);
  return r.stdout;
}

/** The clone's `git status`, the node_modules link this test made aside. */
function cloneStatus(): string {
  return ok(sh('git', ['status', '--porcelain'], clone), 'git status')
    .split('\n')
    .filter((l) => l !== '' && l !== '?? node_modules')
    .join('\n');
}

// ---------------------------------------------------------------- what the docs say

/** Lines of the docs' shell code: README's ```sh blocks, the pages' template literals and <pre> blocks; comments dropped, continued lines joined. */
function shellLines(file: string): string[] {
  const source = text(file);
  const blocks: string[] = [];
  if (file.endsWith('.md')) for (const m of source.matchAll(/^```(?:sh|bash)\n([\s\S]*?)^```$/gm)) blocks.push(m[1]);
  else {
    for (const m of source.matchAll(/`([^`]*)`/g)) blocks.push(m[1]);
    for (const m of source.matchAll(/<pre[^>]*>(?:<code>)?([\s\S]*?)(?:<\/code>)?<\/pre>/g)) blocks.push(m[1]);
  }
  return blocks.flatMap((b) =>
    b
      .replace(/\\\n\s*/g, '')
      .split('\n')
      .map((l) => l.replace(/\s+#\s.*$/, '').trim())
      .filter((l) => l !== ''),
  );
}

/** Inline code: README's `…` spans, the pages' <code> elements. */
function inlineCode(file: string): string[] {
  const source = text(file);
  const re = file.endsWith('.md') ? /`([^`\n]+)`/g : /<code[^>]*>([^<]*)<\/code>/g;
  return [...source.matchAll(re)].map((m) => m[1].replace(/&amp;/g, '&').trim());
}

/** A command line of the ln-diff command as the docs write it: `ln-diff …` or `node …/bin/ln-diff.cjs …`. */
const COMMAND = /^(?:ln-diff|node \S*\/bin\/ln-diff\.cjs)(?: |$)/;

interface Server {
  where: string;
  command: string;
  args: string[];
}

/** Each MCP client configuration of the docs: its command and arguments. */
function servers(): Server[] {
  const found: Server[] = [];
  const fromJson = (where: string, json: string) => {
    const config = JSON.parse(json) as Record<string, Record<string, { command: string; args: string[] }>>;
    const all = config.mcpServers ?? config.servers ?? config.context_servers;
    assert.ok(all?.['ln-diff'], `${where}: a server named ln-diff`);
    found.push({ where, command: all['ln-diff'].command, args: all['ln-diff'].args });
  };
  const readme = text('README.md');
  for (const m of readme.matchAll(/^```json\n([\s\S]*?)^```$/gm)) if (/"(?:mcpServers|servers|context_servers)"/.test(m[1])) fromJson('README.md', m[1]);
  const agents = text('src/pages/agents.astro');
  for (const m of agents.matchAll(/\bid: '([^']+)',[\s\S]*?lang: '(\w+)',\s*snippet: `([\s\S]*?)`,/g)) {
    const [, id, lang, raw] = m;
    const snippet = raw.replace(/\\\$\{/g, '${');
    const where = `agents.astro ${id}`;
    if (lang === 'json') fromJson(where, snippet);
    else if (lang === 'toml') {
      const command = /^command = "([^"]*)"$/m.exec(snippet)?.[1];
      const args = /^args = (\[.*\])$/m.exec(snippet)?.[1];
      assert.ok(command && args, `${where}: command and args`);
      found.push({ where, command, args: JSON.parse(args) as string[] });
    } else if (lang === 'yaml') {
      const command = /^\s+command: (\S+)$/m.exec(snippet)?.[1];
      const args = /^\s+args:\n((?:\s+- .*\n?)+)/m.exec(snippet)?.[1];
      assert.ok(command && args, `${where}: command and args`);
      found.push({ where, command, args: args.trim().split('\n').map((l) => JSON.parse(l.trim().slice(2)) as string) });
    } else if (lang !== 'sh') assert.fail(`${where}: a snippet in ${lang}, which this test does not read`);
  }
  // `claude mcp add … -- COMMAND ARGS`, `codex mcp add … -- COMMAND ARGS`, wherever the docs write one.
  for (const file of DOCS)
    for (const m of text(file).matchAll(/\b(?:claude|codex) mcp add [^\n'`<]*? -- ([^\n'`<)]+)/g)) {
      const [command, ...args] = m[1].trim().split(/\s+/);
      found.push({ where: `${file}: ${m[0]}`, command, args });
    }
  return found;
}

/** The registry forms: right only once the package is on npm. */
const REGISTRY = [
  /\bnpx\s+(?:-y\s+|--yes\s+)?ln-diff\b/,
  /\bnpm\s+(?:i|install|add)\s+(?:-g\s+)?ln-diff(?![\w./-])/,
  /"-y",\s*"ln-diff"/,
  /-\s+"-y"\s*\n\s*-\s+"ln-diff"/,
];
const MARK = /once ln-diff is published on npm/i;

// ---------------------------------------------------------------- running them

/** The files the documented command lines name, in a fresh directory. */
function scratch(): string {
  const work = mkdtempSync(join(dir, 'work-'));
  writeFileSync(join(work, 'app.py'), 'def f():\n    return 1\n');
  const reply = 'app.py\n<editblock>\n<<<<<<< REMOVE\n2│    return 1\n=======\n │    return 2\n>>>>>>> INSERT\n</editblock>\n';
  writeFileSync(join(work, 'reply.md'), reply);
  writeFileSync(join(work, 'request.json'), JSON.stringify({ format: 'auto', files: { 'app.py': 'def f():\n    return 1\n' }, response: reply }));
  return work;
}

/** The docs' placeholders replaced: the clone's path, a project directory. */
function substitute(word: string, work: string): string {
  return word.replaceAll(CLONE_PLACEHOLDER, clone).replace('/path/to/project', work).replace('${workspaceFolder}', work);
}

/** PATH with the tarball's global install first (`ln-diff` is that one). */
function pathEnv(): NodeJS.ProcessEnv {
  return userEnv({ PATH: join(copied, 'bin') + delimiter + (process.env.PATH ?? '') });
}

/** Start a server and send it an MCP initialize request; its answer, and its exit status once stdin closes. */
async function initialize(command: string, args: string[], cwd: string): Promise<{ answer: { result?: { serverInfo?: { name?: string } } }; status: number | null; stderr: string }> {
  const child = spawn(command, args, { cwd, env: pathEnv(), stdio: ['pipe', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stderr.on('data', (c: Buffer) => (stderr += c.toString('utf8')));
  // A guard against a server that never answers, not a measure of speed.
  const guard = setTimeout(() => child.kill('SIGKILL'), 120_000);
  const answered = new Promise<string>((resolve, reject) => {
    child.stdout.on('data', (c: Buffer) => {
      stdout += c.toString('utf8');
      const end = stdout.indexOf('\n');
      if (end >= 0) resolve(stdout.slice(0, end));
    });
    child.on('error', reject);
    child.on('exit', () => reject(new Error(`${command} ${args.join(' ')} exited before answering\n${stderr}`)));
  });
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const request = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'documented-test', version: '1.0.0' } } };
  child.stdin.write(JSON.stringify(request) + '\n');
  try {
    const answer = JSON.parse(await answered) as { result?: { serverInfo?: { name?: string } } };
    child.stdin.end();
    return { answer, status: await exited, stderr };
  } finally {
    clearTimeout(guard);
  }
}

// ---------------------------------------------------------------- the clone and the installs

before(() => {
  dir = realpathSync(mkdtempSync(join(tmpdir(), 'ln-diff-documented-')));
  cache = join(dir, 'npm-cache');
  clone = join(dir, 'ln-diff');
  ok(sh('git', ['clone', '--quiet', '--no-hardlinks', ROOT, clone], dir), 'git clone');
  // The development dependencies of the clone are the repository's own (`npm install` would fetch the same).
  symlinkSync(realpathSync(join(ROOT, 'node_modules')), join(clone, 'node_modules'));
  const deps = Object.keys(pkg.dependencies);
  assert.deepEqual(deps, ['diff'], 'the one runtime dependency this test packs');
  const packedDiff = ok(sh('npm', ['pack', '--ignore-scripts', '--pack-destination', dir, realpathSync(join(ROOT, 'node_modules/diff'))], dir), 'npm pack diff');
  diffTarball = join(dir, packedDiff.trim().split('\n').pop()!);
});

after(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

const npmFlags = () => ['--offline', '--cache', cache, '--no-audit', '--no-fund'];

test('the install lines the docs give are the ones this test runs', () => {
  const lines = DOCS.flatMap((f) => shellLines(f).map((l) => ({ file: f, l }))).filter(({ l }) => /^npm (?:i|install|pack)\b/.test(l) && /-g|\.tgz|pack|ln-diff|build:lib/.test(l));
  const known = new Set([
    'npm install && npm run build:lib',
    'npm install -g .',
    'npm pack',
    `npm install -g ./${TARBALL}`,
    `npm install ${CLONE_PLACEHOLDER}/${TARBALL}`,
  ]);
  const unknown = lines.filter(({ l }) => !known.has(l.replace(/\s+/g, ' ')) && !REGISTRY.some((re) => re.test(l)));
  assert.deepEqual(unknown, [], 'an install line this test does not run (the tarball is named for the version in package.json)');
  for (const line of known) assert.ok(lines.some(({ l }) => l.replace(/\s+/g, ' ') === line), `the docs give ${line}`);
  assert.ok(pkg.scripts['build:lib'], 'npm run build:lib is a script');
});

test('from a clean clone: `npm pack` builds and packs it, `npm install -g .` links it, and the tree stays clean', () => {
  const packed = ok(sh('npm', ['pack'], clone), 'npm pack');
  assert.equal(packed.trim().split('\n').pop(), TARBALL);
  assert.ok(existsSync(join(clone, TARBALL)));
  assert.equal(cloneStatus(), '', 'the tarball is ignored');
  // npm's own install of a folder: no node_modules link left for it to reach through.
  unlinkSync(join(clone, 'node_modules'));
  const modes = () => ['bin/ln-diff.cjs', 'bin/ln-diff-src.mjs'].map((f) => statSync(join(clone, f)).mode & 0o777);
  assert.match(ok(sh('git', ['ls-files', '-s', 'bin/ln-diff.cjs'], clone), 'git ls-files'), /^100755 /, 'committed executable');
  const before = modes();
  linked = join(dir, 'global-linked');
  ok(sh('npm', ['install', '-g', '.', '--prefix', linked, ...npmFlags()], clone), 'npm install -g .');
  assert.deepEqual(modes(), before, 'npm makes the bin executable; it already is');
  assert.equal(cloneStatus(), '', 'nothing changed in the clone');
  assert.equal(ok(sh(join(linked, 'bin', 'ln-diff'), ['--version'], dir), 'ln-diff --version (linked)'), `${pkg.version}\n`);
});

test(`the tarball: \`npm install -g ./${TARBALL}\`, and \`npm install\` of it into another project`, () => {
  assert.ok(existsSync(join(clone, TARBALL)), 'packed by the test before');
  copied = join(dir, 'global-copied');
  ok(sh('npm', ['install', '-g', diffTarball, `./${TARBALL}`, '--prefix', copied, ...npmFlags()], clone), `npm install -g ./${TARBALL}`);
  assert.equal(ok(sh(join(copied, 'bin', 'ln-diff'), ['--version'], dir), 'ln-diff --version (copied)'), `${pkg.version}\n`);
  project = join(dir, 'project');
  mkdirSync(project);
  writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'consumer', private: true, type: 'module' }));
  ok(sh('npm', ['install', diffTarball, substitute(`${CLONE_PLACEHOLDER}/${TARBALL}`, project), ...npmFlags()], project), 'npm install <tarball>');
  const use = "import { applyRequest } from 'ln-diff'; console.log(applyRequest({ format: 'auto', files: {}, response: '' }).ok);";
  assert.equal(ok(sh(process.execPath, ['--input-type=module', '-e', use], project), 'the library'), 'true\n');
});

test('every command line of the docs runs from a scratch directory', (t) => {
  assert.ok(copied, 'installed by the test before');
  const lines = [...new Set(DOCS.flatMap((f) => [...shellLines(f), ...inlineCode(f).filter((c) => /(?: --help| --version| -h| -v)$/.test(c))]))].filter((l) => COMMAND.test(l));
  assert.ok(lines.length >= 12, `the command lines found: ${lines.join('\n')}`);
  const ran: string[] = [];
  for (const line of lines) {
    const words = line.split(' ');
    const sub = line.startsWith('node ') ? words[2] : words[1];
    if (sub === 'mcp') continue; // the next test starts these
    const work = scratch();
    const placeholders = /\[|\b[A-Z][A-Z_]{2,}\b/.test(line) || sub === 'bench' || sub === 'conformance';
    const run = placeholders
      ? sh(line.startsWith('node ') ? 'node' : 'ln-diff', [...(line.startsWith('node ') ? [substitute(words[1], work)] : []), sub, '--help'], work, { env: pathEnv() })
      : sh(substitute(line, work), [], work, { env: pathEnv(), shell: true });
    assert.equal(run.status, 0, `${line}\n${run.stdout}\n${run.stderr}`);
    assert.equal(run.stderr, '', line);
    if (placeholders || / --help$| -h$/.test(line)) assert.match(run.stdout, /^Usage: ln-diff/, line);
    ran.push(line);
  }
  t.diagnostic(`ran: ${ran.join(' | ')}`);
  // What the home page promises of them.
  const home = ran.filter((l) => shellLines('src/pages/index.astro').includes(l));
  assert.ok(home.includes('ln-diff apply reply.md') && home.includes('ln-diff read app.py'), home.join('\n'));
});

test("every `mcp` line and every client's configuration starts the server, which answers an MCP initialize request", async (t) => {
  assert.ok(copied, 'installed by the test before');
  const started: string[] = [];
  const lines = [...new Set(DOCS.flatMap((f) => [...shellLines(f), ...inlineCode(f)]))].filter((l) => COMMAND.test(l) && /^(?:ln-diff|node \S+) mcp(?: --\w.*)?$/.test(l));
  const all: Server[] = [
    ...lines.map((l) => ({ where: l, command: l.split(' ')[0], args: l.split(' ').slice(1) })),
    ...servers(),
  ];
  const clients = servers().map((s) => s.where);
  for (const id of ['claude-desktop', 'claude-code', 'cursor', 'vscode', 'zed', 'codex', 'continue'])
    assert.ok(clients.some((w) => w.includes(id) || (id === 'claude-code' && w.includes('claude mcp add')) || (id === 'codex' && w.includes('codex mcp add'))), `a configuration for ${id}`);
  for (const s of all) {
    const work = scratch();
    const args = s.args.map((a) => substitute(a, work));
    assert.ok(!args.some((a) => a.includes('/path/to') || a.includes('${')), `${s.where}: a placeholder left in ${args.join(' ')}`);
    const { answer, status, stderr } = await initialize(s.command, args, work);
    assert.equal(answer.result?.serverInfo?.name, 'ln-diff', `${s.where}: ${JSON.stringify(answer)}\n${stderr}`);
    assert.equal(status, 0, `${s.where}: the server stops when stdin closes\n${stderr}`);
    started.push(`${s.command} ${args.join(' ')}`);
  }
  t.diagnostic(`started: ${all.map((s) => s.where).join(' | ')}`);
  assert.ok(started.length >= 9, started.join('\n'));
});

test('each registry form (npm install ln-diff, npx -y ln-diff) stands in a paragraph that says it works once ln-diff is published on npm', () => {
  const unmarked: string[] = [];
  let marked = 0;
  for (const file of DOCS)
    for (const chunk of text(file).split(/\n[ \t]*\n/)) {
      if (!REGISTRY.some((re) => re.test(chunk))) continue;
      if (MARK.test(chunk)) marked++;
      else unmarked.push(`${file}: ${chunk.trim().slice(0, 200)}`);
    }
  assert.deepEqual(unmarked, []);
  assert.ok(marked >= 3, 'the registry forms are still shown, as what works once published');
});
