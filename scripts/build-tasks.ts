// Builds the bench's task suite (bench/tasks/suite.json) from the pinned
// releases in bench/tasks/sources.json: each package's two releases are
// packed once with `npm pack` (kept in node_modules/.cache/bench-tasks),
// checked against the integrity recorded in sources.json, read straight from
// the tarballs, and each task's files are taken before and after. The output
// depends only on sources.json and the tarballs: run it twice, get the same
// bytes.
//
//   node --import tsx scripts/build-tasks.ts            build (packs what is not cached)
//   node --import tsx scripts/build-tasks.ts --pin      also write the integrity of newly packed tarballs into sources.json
//   node --import tsx scripts/build-tasks.ts --check    build in memory and fail if suite.json differs

import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, readdirSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { parseSuite, PERMISSIVE_LICENSES, type BenchSuite, type BenchTask, type TaskFile } from '../src/bench/tasks.ts';
import { measureTask } from '../src/bench/measure.ts';

const ROOT = new URL('..', import.meta.url).pathname;
const SOURCES = join(ROOT, 'bench/tasks/sources.json');
const SUITE = join(ROOT, 'bench/tasks/suite.json');
const CACHE = join(ROOT, 'node_modules/.cache/bench-tasks');

interface SourceTask {
  id: string;
  files: (string | { path: string; renamedFrom: string })[];
  language?: string;
  license?: string;
  licenseFile?: string;
}
interface SourcePackage {
  package: string;
  from: string;
  to: string;
  integrity?: { from: string; to: string };
  tasks: SourceTask[];
}
interface Sources {
  $comment?: string;
  packages: SourcePackage[];
}

const args = new Set(process.argv.slice(2));
const fail = (message: string): never => {
  console.error(`build-tasks: ${message}`);
  process.exit(1);
};

/** The files of a .tgz (ustar with pax path records), keyed by path without the leading `package/`. */
function readTarball(gz: Buffer): Map<string, Buffer> {
  const tar = gunzipSync(gz);
  const files = new Map<string, Buffer>();
  let offset = 0;
  let paxPath: string | null = null;
  const field = (start: number, length: number) => {
    const raw = tar.subarray(offset + start, offset + start + length);
    const end = raw.indexOf(0);
    return raw.subarray(0, end === -1 ? raw.length : end).toString('utf8');
  };
  while (offset + 512 <= tar.length) {
    if (tar.subarray(offset, offset + 512).every((b) => b === 0)) break;
    const name = field(0, 100);
    const size = parseInt(field(124, 12).trim() || '0', 8);
    const type = field(156, 1) || '0';
    const prefix = field(345, 155);
    const body = tar.subarray(offset + 512, offset + 512 + size);
    offset += 512 + Math.ceil(size / 512) * 512;
    if (type === 'x') {
      for (const m of body.toString('utf8').matchAll(/\d+ path=([^\n]*)\n/g)) paxPath = m[1];
      continue;
    }
    if (type === 'g') continue;
    const path = paxPath ?? (prefix ? `${prefix}/${name}` : name);
    paxPath = null;
    if (type !== '0' && type !== '\0') continue;
    files.set(path.replace(/^[^/]+\//, ''), Buffer.from(body));
  }
  return files;
}

const integrityOf = (data: Buffer) => `sha512-${createHash('sha512').update(data).digest('base64')}`;

/** The tarball of `name@version`, packed once into the cache. */
function tarball(name: string, version: string): Buffer {
  mkdirSync(CACHE, { recursive: true });
  const file = join(CACHE, `${name.replace(/^@/, '').replace(/\//g, '-')}-${version}.tgz`);
  if (!existsSync(file)) {
    const tmp = join(CACHE, `tmp-${process.pid}`);
    mkdirSync(tmp, { recursive: true });
    execFileSync('npm', ['pack', `${name}@${version}`, '--silent', '--pack-destination', tmp], { stdio: ['ignore', 'ignore', 'inherit'] });
    const [packed] = readdirSync(tmp);
    if (!packed) fail(`npm pack ${name}@${version} wrote nothing`);
    renameSync(join(tmp, packed), file);
  }
  return readFileSync(file);
}

const STABLE = /^(\d+)\.(\d+)\.(\d+)$/;
const compareStable = (a: string, b: string) => {
  const x = STABLE.exec(a)!.slice(1).map(Number);
  const y = STABLE.exec(b)!.slice(1).map(Number);
  return x[0] - y[0] || x[1] - y[1] || x[2] - y[2];
};

/** Both releases are stable and no stable release lies between them (asks the registry once per package). */
function checkConsecutive(pkg: SourcePackage, published: Map<string, string[]>) {
  if (!STABLE.test(pkg.from) || !STABLE.test(pkg.to)) fail(`${pkg.package}: ${pkg.from} and ${pkg.to} must both be stable releases`);
  if (!published.has(pkg.package)) {
    const out = execFileSync('npm', ['view', pkg.package, 'versions', '--json'], { encoding: 'utf8' });
    published.set(pkg.package, (JSON.parse(out) as string[]).filter((v) => STABLE.test(v)));
  }
  const versions = published.get(pkg.package)!;
  for (const v of [pkg.from, pkg.to]) if (!versions.includes(v)) fail(`${pkg.package}@${v} is not published`);
  const between = versions.filter((v) => compareStable(v, pkg.from) > 0 && compareStable(v, pkg.to) < 0);
  if (compareStable(pkg.from, pkg.to) >= 0 || between.length) fail(`${pkg.package}: ${pkg.from} -> ${pkg.to} are not consecutive (${between.join(', ')} between)`);
}

const utf8 = new TextDecoder('utf-8', { fatal: true });
function text(files: Map<string, Buffer>, path: string, where: string): string | null {
  const data = files.get(path);
  if (!data) return null;
  let s: string;
  try {
    s = utf8.decode(data);
  } catch {
    return fail(`${where}: ${path} is not UTF-8 text`);
  }
  if (s.includes('\0')) fail(`${where}: ${path} holds NUL bytes`);
  return s;
}

const EXT: [RegExp, string][] = [
  [/\.(c)$/, 'c'],
  [/\.(h|cc|cpp|hpp)$/, 'cpp'],
  [/\.(d\.ts|d\.cts|d\.mts|ts|cts|mts)$/, 'typescript'],
  [/\.(js|cjs|mjs)$/, 'javascript'],
  [/\.css$/, 'css'],
  [/\.scss$/, 'scss'],
  [/\.(md|markdown)$/i, 'markdown'],
  [/\.json$/, 'json'],
  [/\.ya?ml$/, 'yaml'],
  [/\.(sh|bash)$/, 'shell'],
  [/\.py$/, 'python'],
];
const languageOf = (path: string) => EXT.find(([re]) => re.test(path))?.[1] ?? fail(`no language known for ${path}: name it in sources.json`);

function license(files: Map<string, Buffer>, where: string): string {
  const manifest = JSON.parse(text(files, 'package.json', where) ?? fail(`${where}: no package.json`)) as { license?: unknown };
  if (typeof manifest.license !== 'string') return fail(`${where}: package.json names no license`);
  return manifest.license;
}

function build(): { suite: BenchSuite; sources: Sources; pinned: boolean } {
  const sources = JSON.parse(readFileSync(SOURCES, 'utf8')) as Sources;
  const published = new Map<string, string[]>();
  const tasks: BenchTask[] = [];
  let pinned = false;
  for (const pkg of sources.packages) {
    const where = `${pkg.package} ${pkg.from} -> ${pkg.to}`;
    checkConsecutive(pkg, published);
    const gz = { from: tarball(pkg.package, pkg.from), to: tarball(pkg.package, pkg.to) };
    const integrity = { from: integrityOf(gz.from), to: integrityOf(gz.to) };
    if (!pkg.integrity) {
      if (!args.has('--pin')) fail(`${where}: no integrity recorded; run with --pin to record it`);
      pkg.integrity = integrity;
      pinned = true;
    } else if (pkg.integrity.from !== integrity.from || pkg.integrity.to !== integrity.to) {
      fail(`${where}: the packed tarballs differ from the integrity recorded in sources.json`);
    }
    const before = readTarball(gz.from);
    const after = readTarball(gz.to);
    const licenses = { from: license(before, `${pkg.package}@${pkg.from}`), to: license(after, `${pkg.package}@${pkg.to}`) };
    if (licenses.from !== licenses.to) fail(`${where}: the license changed (${licenses.from} -> ${licenses.to})`);
    for (const t of pkg.tasks) {
      const taskLicense = t.license ?? licenses.to;
      if (!PERMISSIVE_LICENSES.includes(taskLicense)) fail(`${t.id}: ${taskLicense} is not one of ${PERMISSIVE_LICENSES.join(', ')}`);
      if (t.licenseFile && !text(after, t.licenseFile, where)?.includes('Redistribution and use in source and binary forms'))
        fail(`${t.id}: ${t.licenseFile} is not the BSD license the task names`);
      const files: TaskFile[] = t.files.map((f) => {
        const path = typeof f === 'string' ? f : f.path;
        const renamedFrom = typeof f === 'string' ? undefined : f.renamedFrom;
        const b = text(before, renamedFrom ?? path, where);
        const a = text(after, path, where);
        if (b === null && a === null) fail(`${t.id}: ${path} is in neither release`);
        if (b === a) fail(`${t.id}: ${path} did not change`);
        if (renamedFrom && (b === null || a === null || after.has(renamedFrom) || before.has(path)))
          fail(`${t.id}: ${renamedFrom} -> ${path} is not a rename`);
        return { path, before: b, after: a, ...(renamedFrom ? { renamedFrom } : {}) };
      });
      const { lines, hunks } = measureTask(files);
      tasks.push({
        id: t.id,
        package: pkg.package,
        from: pkg.from,
        to: pkg.to,
        license: taskLicense,
        ...(t.licenseFile ? { licenseFile: t.licenseFile } : {}),
        files,
        language: t.language ?? languageOf(files[0].path),
        lines,
        hunks,
      });
    }
  }
  const suite: BenchSuite = { version: 1, tasks };
  parseSuite(suite); // the loader accepts what was built
  return { suite, sources, pinned };
}

const { suite, sources, pinned } = build();
const json = JSON.stringify(suite, null, 1) + '\n';
if (args.has('--check')) {
  if (!existsSync(SUITE) || readFileSync(SUITE, 'utf8') !== json) fail('bench/tasks/suite.json is not what sources.json builds; rebuild it');
  console.log(`build-tasks: suite.json is up to date (${suite.tasks.length} tasks)`);
} else {
  writeFileSync(SUITE, json);
  if (pinned) writeFileSync(SOURCES, JSON.stringify(sources, null, 2) + '\n');
  const languages = new Set(suite.tasks.map((t) => t.language));
  console.log(`build-tasks: ${suite.tasks.length} tasks, ${languages.size} languages, ${(json.length / 1024).toFixed(0)} KiB -> bench/tasks/suite.json`);
}
