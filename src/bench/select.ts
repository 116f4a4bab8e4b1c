// Which tasks and formats a bench run takes: the quick set (eight tasks
// covering the kinds of change, small to large), every task, or named ones;
// and the formats that have a prompt. No DOM, no `node:`.

import { formats } from '../formats/index.ts';
import type { BenchSuite, BenchTask } from './tasks.ts';

/**
 * The quick run's tasks: eight small to medium changes (45 to 350 lines) in
 * seven languages (JavaScript, CSS, SCSS, Python, C, YAML, Markdown), one to
 * six hunks, one and two files. Every bench format can say each of them (a test checks it),
 * so a quick run compares the formats on the same tasks.
 */
export const QUICK_TASKS: readonly string[] = [
  'ms-index',
  'normalize-css',
  'gyp-cmake-test',
  'bufferutil-c',
  'nan-ci',
  'bcrypt-promises',
  'nan-doc-string-bytes',
  'bootstrap-functions-spinners',
];

/** The formats a run can ask for: every registered format with a prompt, in registry order. */
export const BENCH_FORMATS: readonly string[] = formats.filter((f) => f.prompt !== undefined).map((f) => f.name);

/**
 * The tasks of `spec`, in suite order: `quick` (QUICK_TASKS), `all`, or a
 * list of ids (each once). Throws an Error naming an id the suite lacks.
 */
export function selectTasks(suite: BenchSuite, spec: 'quick' | 'all' | readonly string[]): BenchTask[] {
  if (spec === 'all') return [...suite.tasks];
  const ids = spec === 'quick' ? QUICK_TASKS : spec;
  const known = new Set(suite.tasks.map((t) => t.id));
  for (const id of ids) if (!known.has(id)) throw new Error(`the suite has no task ${JSON.stringify(id)}`);
  const wanted = new Set(ids);
  return suite.tasks.filter((t) => wanted.has(t.id));
}
