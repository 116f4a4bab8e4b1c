// The bench's task suite: real changes between two consecutive releases of
// public packages (bench/tasks/suite.json, built by scripts/build-tasks.ts).
// This module holds the types, the check of untrusted suite data, and the
// ways a task is handed to the engine. Pure: no Node.js, no DOM; the data
// is passed in (the CLI reads suite.json, the Bench page's worker one file
// per task).

import type { FileChange } from '../core/types.ts';

/** One file of a task, as the older release has it and as the newer one does. */
export interface TaskFile {
  /** The path in the newer release (in the older one too, unless `renamedFrom`). */
  path: string;
  /** The text in the older release; null when the file is new. */
  before: string | null;
  /** The text in the newer release; null when the file was deleted. */
  after: string | null;
  /** The file's path in the older release, when the newer one moved it to `path`. */
  renamedFrom?: string;
}

export interface BenchTask {
  /** Stable and unique within the suite, e.g. `commander-help`. */
  id: string;
  /** The npm package the change comes from. */
  package: string;
  /** The older release (the files before). */
  from: string;
  /** The next release (the files after). */
  to: string;
  /** SPDX identifier of the license the task's files are under. */
  license: string;
  /** The file inside the package holding that license, when it is not the package's own. */
  licenseFile?: string;
  files: TaskFile[];
  /** The language of the task's first file: javascript, typescript, css, scss, markdown, json, yaml, shell, python, c, cpp. */
  language: string;
  /** Lines of the task's largest file, before or after. */
  lines: number;
  /** Hunks of a unified diff of the task (3 lines of context), over its files. */
  hunks: number;
}

export interface BenchSuite {
  version: 1;
  tasks: BenchTask[];
}

/** The licenses a task may be under: permissive ones only. */
export const PERMISSIVE_LICENSES: readonly string[] = ['MIT', 'ISC', 'BSD-2-Clause', 'BSD-3-Clause', 'Apache-2.0'];

/** Suite data that is not a suite; the message names the first bad field. */
export class SuiteError extends Error {
  override name = 'SuiteError';
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const isCount = (v: unknown): v is number => typeof v === 'number' && Number.isInteger(v) && v >= 0;

function checkFile(value: unknown, where: string): TaskFile {
  if (!isObject(value)) throw new SuiteError(`${where} must be an object`);
  const { path, before, after, renamedFrom } = value;
  if (typeof path !== 'string' || path === '') throw new SuiteError(`${where}.path must be a non-empty string`);
  for (const [k, v] of [['before', before], ['after', after]] as const)
    if (v !== null && typeof v !== 'string') throw new SuiteError(`${where}.${k} must be a string or null`);
  if (before === null && after === null) throw new SuiteError(`${where}: a file cannot be absent both before and after`);
  if (before === after) throw new SuiteError(`${where}: ${path} does not change`);
  if (renamedFrom !== undefined) {
    if (typeof renamedFrom !== 'string' || renamedFrom === '' || renamedFrom === path)
      throw new SuiteError(`${where}.renamedFrom must be a path other than ${path}`);
    if (before === null || after === null) throw new SuiteError(`${where}: a renamed file has a text before and after`);
  }
  return {
    path,
    before: before as string | null,
    after: after as string | null,
    ...(renamedFrom !== undefined ? { renamedFrom: renamedFrom as string } : {}),
  };
}

function checkTask(value: unknown, where: string): BenchTask {
  if (!isObject(value)) throw new SuiteError(`${where} must be an object`);
  for (const key of ['id', 'package', 'from', 'to', 'license', 'language'] as const)
    if (typeof value[key] !== 'string' || value[key] === '') throw new SuiteError(`${where}.${key} must be a non-empty string`);
  const id = value.id as string;
  if (!PERMISSIVE_LICENSES.includes(value.license as string))
    throw new SuiteError(`${where} (${id}): license ${String(value.license)} is not one of ${PERMISSIVE_LICENSES.join(', ')}`);
  if (value.licenseFile !== undefined && typeof value.licenseFile !== 'string') throw new SuiteError(`${where}.licenseFile must be a string`);
  if (!isCount(value.lines) || !isCount(value.hunks)) throw new SuiteError(`${where} (${id}): lines and hunks must be counts`);
  if (!Array.isArray(value.files) || value.files.length === 0) throw new SuiteError(`${where}.files must be a non-empty array`);
  const files = value.files.map((f, k) => checkFile(f, `${where}.files[${k}]`));
  const paths = files.flatMap((f) => (f.renamedFrom ? [f.path, f.renamedFrom] : [f.path]));
  if (new Set(paths).size !== paths.length) throw new SuiteError(`${where} (${id}): a path appears twice`);
  return {
    id,
    package: value.package as string,
    from: value.from as string,
    to: value.to as string,
    license: value.license as string,
    ...(value.licenseFile !== undefined ? { licenseFile: value.licenseFile as string } : {}),
    files,
    language: value.language as string,
    lines: value.lines,
    hunks: value.hunks,
  };
}

/** Check untrusted suite data (parsed JSON) and return it typed; throws SuiteError naming the first bad field. */
export function parseSuite(data: unknown): BenchSuite {
  if (!isObject(data)) throw new SuiteError('the suite must be an object');
  if (data.version !== 1) throw new SuiteError(`suite version ${String(data.version)} is not 1`);
  if (!Array.isArray(data.tasks)) throw new SuiteError('suite.tasks must be an array');
  const tasks = data.tasks.map((t, k) => checkTask(t, `tasks[${k}]`));
  const ids = new Set<string>();
  for (const t of tasks) {
    if (ids.has(t.id)) throw new SuiteError(`task id ${t.id} appears twice`);
    ids.add(t.id);
  }
  return { version: 1, tasks };
}

/** The files a request for this task holds: every file as the older release has it (a renamed file under its old path). */
export function taskFiles(task: BenchTask): Record<string, string> {
  const files: Record<string, string> = {};
  for (const f of task.files) if (f.before !== null) files[f.renamedFrom ?? f.path] = f.before;
  return files;
}

/** The change as the engine's writers take it: a rename is its old path deleted and its new path created. */
export function taskChanges(task: BenchTask): FileChange[] {
  return task.files.flatMap((f): FileChange[] =>
    f.renamedFrom
      ? [
          { file: f.renamedFrom, before: f.before, after: null },
          { file: f.path, before: null, after: f.after },
        ]
      : [{ file: f.path, before: f.before, after: f.after }],
  );
}

/** The files as they must become: path to text, null for a file the change deletes (a renamed file's old path). */
export function taskTarget(task: BenchTask): Record<string, string | null> {
  const target: Record<string, string | null> = {};
  for (const c of taskChanges(task)) target[c.file] = c.after;
  return target;
}
