// Exit codes and the one error type the CLI reports as `ln-diff: <message>`.

export const EXIT_OK = 0;
/** Some edit failed (the result or summary is still printed). */
export const EXIT_FAILED = 1;
/** Malformed request, usage error, unsafe path, or a file that cannot be read or written. */
export const EXIT_USAGE = 2;
/** A bug: the engine or the CLI threw something unexpected. */
export const EXIT_INTERNAL = 3;
/**
 * `apply` on disk: the reply holds no edit to apply (an empty reply, a chat
 * answer, a diff whose only hunk changes nothing), so nothing was applied or
 * written. Not a success: `model | ln-diff apply && git commit` must stop.
 * (`apply --json` exits as its result's `ok` says: the engine reports such a
 * reply as `ok` with the warning `no-edits`, and the caller reads `edits`.)
 */
export const EXIT_NO_EDITS = 4;

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

/**
 * Text from outside (a path or a line from a reply, a server's answer) as
 * the terminal should show it: every control character (ESC, BEL, CR, LF,
 * ...; C0, DEL and C1) written as `\xNN`, and the characters that reorder
 * or break a line on display (the BiDi controls and marks U+061C, U+200E,
 * U+200F, U+202A-U+202E, U+2066-U+2069; the line and paragraph separators
 * U+2028, U+2029) as `\uNNNN`. A terminal shows them instead of acting on
 * them, and such text can neither start a line of its own nor change what
 * the rest of the line looks like.
 */
export function printable(text: string): string {
  return text.replace(/[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g, (c) => {
    const code = c.charCodeAt(0);
    return code <= 0xff ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16).padStart(4, '0')}`;
  });
}

/** A message for one line of the summary or of stderr: on one line (`oneLine`), then `printable`. */
export const shown = (message: string): string => printable(oneLine(message));
