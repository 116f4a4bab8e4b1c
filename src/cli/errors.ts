// Exit codes and the one error type the CLI reports as `ln-diff: <message>`.

export const EXIT_OK = 0;
/** Some edit failed (the result or summary is still printed). */
export const EXIT_FAILED = 1;
/** Malformed request, usage error, unsafe path, or a file that cannot be read or written. */
export const EXIT_USAGE = 2;
/** A bug: the engine or the CLI threw something unexpected. */
export const EXIT_INTERNAL = 3;

/** An error the CLI reports on one stderr line, with its exit code. */
export class CliError extends Error {
  override name = 'CliError';
  readonly exitCode: number;
  /**
   * By name and exit code, not by class: a lazily loaded subcommand
   * (lib/cli/bench.cjs) is bundled with its own copy of this class, and
   * main.cjs must still see its errors as usage errors.
   */
  static override [Symbol.hasInstance](value: unknown): boolean {
    return value instanceof Error && value.name === 'CliError' && typeof (value as { exitCode?: unknown }).exitCode === 'number';
  }
  constructor(message: string, exitCode: number = EXIT_USAGE) {
    super(message);
    this.exitCode = exitCode;
  }
}

/** Collapse a message to one line (stderr messages are one line each). */
export function oneLine(message: string): string {
  return message.replace(/\s*[\r\n]+\s*/g, ' ').trim();
}
