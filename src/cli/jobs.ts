// How many programs `ln-diff conformance` runs at once unless told: the
// machine's parallelism, from 1 to 8. Its own module, so that the command
// line and the help can name it without loading the runner (or node:os)
// when another command runs.

export function defaultJobs(): number {
  const os = process.getBuiltinModule('node:os') as typeof import('node:os');
  return Math.max(1, Math.min(8, os.availableParallelism()));
}
