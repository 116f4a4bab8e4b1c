// The error of a request that is not a request (the CLI's exit status 2): a
// value that is not shaped like `ApplyRequest`, or a format name nobody knows.

/** A request that is not a request (the CLI's exit status 2); the message says what is wrong with it. */
export class RequestError extends Error {
  override name = 'RequestError';
}
