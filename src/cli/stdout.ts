// Writing to stdout: plain synchronous writes to file descriptor 1, so that a
// run that prints one result never sets up process.stdout (a stream over a
// socket or a TTY, whose modules cost Node.js a few milliseconds to load).
// When fd 1 would block (a non-blocking pipe) or fails, process.stdout
// writes the rest and everything after it, in order. A closed pipe
// (`ln-diff … | head`) ends the process quietly, with the exit code so far.

import { writeSync } from 'node:fs';

let stream: NodeJS.WriteStream | null = null;

function quietOnClosedPipe(code: string | undefined): void {
  if (code === 'EPIPE') process.exit(process.exitCode ?? 0);
}

/** process.stdout, from the first write that needs it on. */
function toStream(): NodeJS.WriteStream {
  if (stream === null) {
    stream = process.stdout;
    stream.on('error', (err: NodeJS.ErrnoException) => {
      quietOnClosedPipe(err.code);
      throw err;
    });
  }
  return stream;
}

/** UTF-16 units encoded and written at a time. */
const CHUNK = 1 << 16;
/** The bytes of one chunk: UTF-8 takes at most three bytes per UTF-16 unit. */
let scratch: Buffer | null = null;

/**
 * Write `text` (UTF-8) to stdout. It is encoded a chunk at a time into one
 * reused buffer: a large result is never copied whole into fresh memory.
 */
export function writeStdout(text: string): void {
  if (stream !== null) {
    stream.write(text);
    return;
  }
  scratch ??= Buffer.allocUnsafe(3 * CHUNK);
  for (let from = 0; from < text.length; ) {
    let to = Math.min(text.length, from + CHUNK);
    // A surrogate pair is encoded whole, in the next chunk.
    if (to < text.length && (text.charCodeAt(to - 1) & 0xfc00) === 0xd800) to--;
    const size = scratch.write(text.slice(from, to), 0, 'utf8');
    let done = 0;
    while (done < size) {
      try {
        done += writeSync(1, scratch, done, size - done);
      } catch (err) {
        quietOnClosedPipe((err as NodeJS.ErrnoException).code);
        // EAGAIN (a non-blocking pipe that is full) or any other error: the stream writes the rest (and reports what fails).
        const s = toStream();
        s.write(Buffer.from(scratch.subarray(done, size)));
        if (to < text.length) s.write(text.slice(to));
        return;
      }
    }
    from = to;
  }
}
